#include "report/comparison_figures.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common/units.h"

namespace sf::report {

namespace {

std::string unsigned_figure(std::string_view unit, double value) {
  const auto whole = static_cast<int64_t>(std::llround(std::fabs(value)));
  if (unit == "ms") return units::format_duration_ms(whole);
  if (unit == "bytes") return units::format_bytes(whole);
  if (unit == "ratio") return fmt::format("{:.3f}", std::fabs(value));
  return units::format_count(whole);
}

}  // namespace

std::string metric_figure(std::string_view unit, std::optional<double> value) {
  if (!value) return "n/a";
  // Built piecewise: g++ 12 misreads `const char* + std::string` here (-Wrestrict false positive).
  std::string out = *value < 0 ? "-" : "";
  out += unsigned_figure(unit, *value);
  return out;
}

std::string change_figure(const compare::MetricDelta& d) {
  if (!d.delta) return "n/a";
  if (*d.delta == 0) return "0";
  std::string out = *d.delta < 0 ? "-" : "+";
  out += unsigned_figure(d.unit, *d.delta);
  if (d.relative_change) out += fmt::format(" ({:+.1f}%)", *d.relative_change * 100);
  return out;
}

std::string pair_method_figure(const compare::StagePair& pair) {
  const std::string method = pair.method == compare::PairMethod::kPositional
                                 ? "aligned by position"
                                 : std::string(compare::to_string(pair.method));
  return fmt::format("{} {:.2f}", method, pair.score);
}

std::string execution_alignment_figure(const compare::ExecutionAlignment& e) {
  std::string out = fmt::format("{} of {} / {} SQL executions paired", e.paired, e.base_executions, e.cand_executions);
  if (e.bounded) out += " (banded alignment)";
  if (!e.accepted) out += "; too few to treat the runs as one job, so no stage is paired";
  return out;
}

std::string pair_counts_figure(const compare::StageAlignment& a) {
  size_t counts[4] = {0, 0, 0, 0};
  for (const auto& p : a.pairs) ++counts[static_cast<size_t>(p.method)];
  return fmt::format("{} stage pairs (exact {}, structural {}, aligned {}, by position {})", a.pairs.size(), counts[0],
                     counts[1], counts[2], counts[3]);
}

std::string budget_figure(const compare::BudgetResult& r, std::string_view unit) {
  if (!r.unchecked_reason.empty()) return "unchecked: " + r.unchecked_reason;
  return fmt::format("{}: candidate {}, allowed {}", r.exceeded ? "EXCEEDED" : "ok", metric_figure(unit, r.candidate),
                     metric_figure(unit, r.allowed));
}

std::vector<const compare::StageDelta*> largest_stage_changes(const compare::Comparison& comparison, size_t n) {
  std::vector<const compare::StageDelta*> deltas;
  for (const auto& d : comparison.stage_deltas) deltas.push_back(&d);
  std::sort(deltas.begin(), deltas.end(), [](const compare::StageDelta* a, const compare::StageDelta* b) {
    const int64_t x = std::llabs(a->run_time_delta_ms), y = std::llabs(b->run_time_delta_ms);
    if (x != y) return x > y;
    return a->pair.base_stage_id < b->pair.base_stage_id;
  });
  if (deltas.size() > n) deltas.resize(n);
  return deltas;
}

}  // namespace sf::report

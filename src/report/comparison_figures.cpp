#include "report/comparison_figures.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common/units.h"

namespace sf::report {

namespace {

// The cost's unit is the rate card's currency ("USD"); "money" is the metric's unit before a rate
// card names one (a budget's figure).
bool is_money(std::string_view unit) {
  return unit == "money" ||
         (unit.size() == 3 && std::all_of(unit.begin(), unit.end(), [](char c) { return c >= 'A' && c <= 'Z'; }));
}

std::string unsigned_figure(std::string_view unit, double value) {
  const auto whole = static_cast<int64_t>(std::llround(std::fabs(value)));
  if (unit == "ms") return units::format_duration_ms(whole);
  if (unit == "bytes") return units::format_bytes(whole);
  if (unit == "ratio") return fmt::format("{:.3f}", std::fabs(value));
  if (unit == "core-hours") {
    const double v = std::fabs(value);
    if (v >= 100) return fmt::format("{:.0f} core-hours", v);
    if (v >= 1) return fmt::format("{:.2f} core-hours", v);
    return fmt::format("{:.4f} core-hours", v);
  }
  if (is_money(unit)) {
    const double v = std::fabs(value);
    const std::string suffix = unit == "money" ? std::string() : fmt::format(" {}", unit);
    return v >= 1 ? fmt::format("{:.2f}{}", v, suffix) : fmt::format("{:.4f}{}", v, suffix);
  }
  return units::format_count(whole);
}

// "+4.0s (+6.5%)": a change in its unit, with the relative change when there is one.
std::string signed_change(std::string_view unit, double delta, std::optional<double> relative) {
  std::string out = delta < 0 ? "-" : "+";
  out += unsigned_figure(unit, delta);
  if (relative) out += fmt::format(" ({:+.1f}%)", *relative * 100);
  return out;
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
  return signed_change(d.unit, *d.delta, d.relative_change);
}

std::string direction_figure(const compare::MetricDelta& d) {
  std::string out(compare::to_string(d.direction));
  if (d.direction == compare::ChangeKind::kUnchanged && d.delta && *d.delta != 0) {
    out += " (within ";
    out += unsigned_figure(d.unit, d.noise);
    out += ")";
  }
  return out;
}

std::string pair_method_figure(const compare::StagePair& pair) {
  const std::string method = pair.method == compare::PairMethod::kPositional
                                 ? "aligned by position"
                                 : std::string(compare::to_string(pair.method));
  return fmt::format("{} {:.2f}{}", method, pair.score, pair.ambiguous() ? ", ambiguous" : "");
}

std::string ambiguity_figure(const compare::StagePair& pair) {
  if (!pair.ambiguous()) return "";
  std::vector<std::string> rivals, pins;
  auto side = [&](std::string_view run, const std::vector<int64_t>& ids, bool rival_is_candidate) {
    if (ids.empty()) return;
    rivals.push_back(fmt::format("{} stage{} {}", run, ids.size() == 1 ? "" : "s", fmt::join(ids, ", ")));
    for (int64_t id : ids) {
      pins.push_back(rival_is_candidate ? fmt::format("{}:{}", pair.base_stage_id, id)
                                        : fmt::format("{}:{}", id, pair.cand_stage_id));
    }
  };
  side("candidate", pair.ambiguous_cand_stage_ids, true);
  side("baseline", pair.ambiguous_base_stage_ids, false);
  return fmt::format("stage {} -> {}: {} {} as well by place in the job and bytes read (--pin {} takes {})",
                     pair.base_stage_id, pair.cand_stage_id, fmt::join(rivals, " and "),
                     pins.size() == 1 ? "fits" : "fit", fmt::join(pins, " or --pin "), pins.size() == 1 ? "it" : "one");
}

std::string execution_alignment_figure(const compare::ExecutionAlignment& e) {
  std::string out = fmt::format("{} of {} / {} SQL executions paired", e.paired, e.base_executions, e.cand_executions);
  if (e.bounded) out += " (banded alignment)";
  if (!e.accepted) out += "; too few to treat the runs as one job, so no stage is paired";
  return out;
}

std::string pair_counts_figure(const compare::StageAlignment& a) {
  size_t counts[5] = {0, 0, 0, 0, 0};
  for (const auto& p : a.pairs) ++counts[static_cast<size_t>(p.method)];
  std::string out = fmt::format("{} stage pairs (exact {}, structural {}, aligned {}, by position {}", a.pairs.size(),
                                counts[0], counts[1], counts[2], counts[3]);
  const auto ambiguous = std::count_if(a.pairs.begin(), a.pairs.end(), [](const auto& p) { return p.ambiguous(); });
  if (ambiguous > 0) out += fmt::format(", ambiguous {}", ambiguous);
  // Only a comparison given pins says so, so the usual line stays as it was.
  if (counts[4] > 0) out += fmt::format(", pinned by hand {}", counts[4]);
  out += ')';
  return out;
}

std::string budget_figure(const compare::BudgetResult& r, std::string_view unit) {
  if (!r.unchecked_reason.empty()) return "unchecked: " + r.unchecked_reason;
  return fmt::format("{}: candidate {}, allowed {}", r.exceeded ? "EXCEEDED" : "ok", metric_figure(unit, r.candidate),
                     metric_figure(unit, r.allowed));
}

std::string setting_side_figure(const std::optional<std::string>& set, const std::optional<std::string>& effective) {
  if (set) return *set;
  if (effective) return fmt::format("not set ({} in effect)", *effective);
  return "not set";
}

std::string duration_change_figure(const compare::ExecutionDelta& d) {
  if (!d.delta_ms) return "n/a";
  std::optional<double> relative;
  if (d.base_duration_ms && *d.base_duration_ms > 0) {
    relative = static_cast<double>(*d.delta_ms) / static_cast<double>(*d.base_duration_ms);
  }
  return signed_change("ms", static_cast<double>(*d.delta_ms), relative);
}

std::vector<const compare::ExecutionDelta*> largest_execution_changes(const compare::Comparison& comparison, size_t n) {
  std::vector<const compare::ExecutionDelta*> deltas;
  for (const auto& d : comparison.execution_deltas) deltas.push_back(&d);
  std::stable_sort(
      deltas.begin(), deltas.end(), [](const compare::ExecutionDelta* a, const compare::ExecutionDelta* b) {
        const int64_t x = a->delta_ms ? std::llabs(*a->delta_ms) : -1, y = b->delta_ms ? std::llabs(*b->delta_ms) : -1;
        return x > y;
      });
  if (deltas.size() > n) deltas.resize(n);
  return deltas;
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

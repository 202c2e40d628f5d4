#include "report/comparison_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>

#include "analysis/findings/finding.h"
#include "common/units.h"
#include "report/comparison_figures.h"

namespace sf::report {

namespace {

using namespace sf::compare;

std::string run_line(const RunDescription& run) {
  return fmt::format("{:<10} {} \"{}\" ({}, Spark {}) {}", run.label + ":", run.app_id.empty() ? "(no id)" : run.app_id,
                     run.app_name, units::format_optional_duration(run.duration_ms),
                     run.spark_version.empty() ? "version not logged" : run.spark_version, run.path);
}

void categories(std::string& out, std::string_view title, const std::vector<FindingCategory>& list) {
  out += fmt::format("\n{}\n", title);
  if (list.empty()) out += "  none\n";
  for (const auto& c : list) {
    out += fmt::format("  {} ({}): {} -> {}\n", c.rule, analysis::to_string(c.band), c.baseline, c.candidate);
  }
}

}  // namespace

std::string comparison_text(const Comparison& c, const ComparisonTextOptions& options) {
  std::string out;
  out += fmt::format("Confidence: {}\n", to_string(c.confidence));
  if (!c.banner.empty()) out += fmt::format("WARNING: {}\n", c.banner);
  out += fmt::format("\n{}\n{}\n", run_line(c.baseline), run_line(c.candidate));
  const auto& a = c.alignment;
  out +=
      fmt::format("Runtime coverage: {} of executor run time in paired{} stages; {} by stage count\n",
                  c.runtime_coverage ? units::format_percent(*c.runtime_coverage) : "n/a",
                  c.replanned_counts_toward_coverage ? " or replanned" : "", units::format_percent(c.matched_coverage));
  out += fmt::format("Executions: {}\n", execution_alignment_figure(a.executions));
  out += fmt::format(
      "Stages: {}; unmatched {} / {}; {} replanned group(s); {} / {} Delta bookkeeping stage(s) set aside\n",
      pair_counts_figure(a), a.unmatched_base.size(), a.unmatched_cand.size(), a.replanned.size(),
      a.bookkeeping_base.size(), a.bookkeeping_cand.size());

  out += "\nConfiguration differences (baseline -> candidate)\n";
  if (c.configuration.empty()) out += "  none\n";
  for (const auto& d : c.configuration) {
    out += fmt::format("  {}: {} -> {}{}\n", d.key, setting_side_figure(d.baseline, d.baseline_effective),
                       setting_side_figure(d.candidate, d.candidate_effective),
                       d.same_in_effect ? "  (same in effect)" : "");
  }

  out += "\nMetric deltas (baseline -> candidate; lower is better)\n";
  for (const auto& d : c.metric_deltas) {
    if (!d.unavailable_reason.empty()) {
      out += fmt::format("  {:<16} unavailable: {}\n", d.name, d.unavailable_reason);
      continue;
    }
    out += fmt::format("  {:<16} {:>12} -> {:<12} {:<22} {}\n", d.name, metric_figure(d.unit, d.baseline),
                       metric_figure(d.unit, d.candidate), change_figure(d), direction_figure(d));
  }

  if (!c.execution_deltas.empty()) {
    out += "\nLargest SQL execution changes (duration)\n";
    const auto changes = largest_execution_changes(c, options.top_stages);
    for (const auto* d : changes) {
      out += fmt::format("  execution {} -> {}  {:>10} -> {:<10} {:<20} {:<14} {}\n", d->base_execution_id,
                         d->cand_execution_id, units::format_optional_duration(d->base_duration_ms),
                         units::format_optional_duration(d->cand_duration_ms), duration_change_figure(*d),
                         to_string(d->direction), d->description);
    }
    if (c.execution_deltas.size() > changes.size()) {
      out += fmt::format("  ... {} more execution pairs (--format json lists every one)\n",
                         c.execution_deltas.size() - changes.size());
    }
  }

  categories(out, "Findings introduced (rule, band: baseline -> candidate)", c.findings.introduced);
  categories(out, "Findings resolved", c.findings.resolved);

  out += "\nLargest per-stage changes (executor run time)\n";
  const auto changes = largest_stage_changes(c, options.top_stages);
  if (changes.empty()) out += "  no stage pairs\n";
  for (const auto* d : changes) {
    out += fmt::format("  stage {} -> {}  {:<24} {:>10} -> {:<10} {}{}  {}\n", d->base.stage_id, d->cand.stage_id,
                       pair_method_figure(d->pair), units::format_duration_ms(d->base.totals.executor_run_time_ms),
                       units::format_duration_ms(d->cand.totals.executor_run_time_ms),
                       d->run_time_delta_ms < 0 ? "-" : "+",
                       units::format_duration_ms(std::llabs(d->run_time_delta_ms)), d->base.name);
  }
  for (const auto& p : a.pairs) {
    if (p.ambiguous()) out += "  ambiguous: " + ambiguity_figure(p) + "\n";
  }
  for (const auto& g : a.replanned) {
    out += fmt::format("  replanned: execution {} -> {}: stages [{}] -> [{}], run time {} -> {}\n", g.base_execution_id,
                       g.cand_execution_id, fmt::join(g.base_stage_ids, ", "), fmt::join(g.cand_stage_ids, ", "),
                       units::format_duration_ms(g.base_totals.executor_run_time_ms),
                       units::format_duration_ms(g.cand_totals.executor_run_time_ms));
  }

  if (!c.budgets.empty()) {
    out += "\nBudgets\n";
    for (const auto& b : c.budgets) {
      const MetricDefinition* def = find_metric(b.budget.metric);
      out += fmt::format("  {:<24} {}\n", b.budget.text, budget_figure(b, def ? def->unit : "count"));
    }
  }
  return out;
}

}  // namespace sf::report

#include "report/comparison_markdown.h"

#include <fmt/format.h>

#include <cstdlib>

#include "analysis/findings/finding.h"
#include "common/units.h"
#include "report/comparison_figures.h"
#include "report/markdown_cell.h"

namespace sf::report {

namespace {

using namespace sf::compare;

void category_list(std::string& out, std::string_view title, const std::vector<FindingCategory>& list) {
  out += fmt::format("**{}:** ", title);
  if (list.empty()) {
    out += "none\n\n";
    return;
  }
  std::string items;
  for (const auto& c : list) {
    if (!items.empty()) items += ", ";
    items += fmt::format("`{}` ({}, {} → {})", c.rule, analysis::to_string(c.band), c.baseline, c.candidate);
  }
  out += items + "\n\n";
}

}  // namespace

std::string comparison_markdown(const Comparison& c, size_t top_stages) {
  std::string out;
  out += fmt::format("## SparkForensics comparison: {} vs {}\n\n", markdown_cell(c.baseline.label),
                     markdown_cell(c.candidate.label));
  out += fmt::format("`{}` \"{}\" → `{}` \"{}\" · confidence **{}** · runtime coverage {}\n\n", c.baseline.app_id,
                     markdown_cell(c.baseline.app_name), c.candidate.app_id, markdown_cell(c.candidate.app_name),
                     to_string(c.confidence), c.runtime_coverage ? units::format_percent(*c.runtime_coverage) : "n/a");
  if (!c.banner.empty()) out += fmt::format("> ⚠️ {}\n\n", markdown_cell(c.banner));

  if (!c.budgets.empty()) {
    out += "### Budgets\n\n| budget | result |\n|---|---|\n";
    for (const auto& b : c.budgets) {
      const MetricDefinition* def = find_metric(b.budget.metric);
      out += fmt::format("| `{}` | {} |\n", markdown_cell(b.budget.text),
                         markdown_cell(budget_figure(b, def ? def->unit : "count")));
    }
    out += "\n";
  }

  out += "### Configuration differences\n\n";
  if (c.configuration.empty()) {
    out += "none\n\n";
  } else {
    out += "| setting | baseline | candidate | |\n|---|---|---|---|\n";
    for (const auto& d : c.configuration) {
      out += fmt::format("| `{}` | {} | {} | {} |\n", markdown_cell(d.key),
                         markdown_cell(setting_side_figure(d.baseline, d.baseline_effective)),
                         markdown_cell(setting_side_figure(d.candidate, d.candidate_effective)),
                         d.same_in_effect ? "same in effect" : "");
    }
    out += "\n";
  }

  out += "### Metric deltas\n\n| metric | baseline | candidate | change | |\n|---|---:|---:|---:|---|\n";
  for (const auto& d : c.metric_deltas) {
    if (!d.unavailable_reason.empty()) {
      out += fmt::format("| {} | | | | unavailable: {} |\n", d.name, markdown_cell(d.unavailable_reason));
      continue;
    }
    out += fmt::format("| {} | {} | {} | {} | {} |\n", d.name, metric_figure(d.unit, d.baseline),
                       metric_figure(d.unit, d.candidate), change_figure(d), direction_figure(d));
  }
  if (!c.execution_deltas.empty()) {
    out += "\n<details><summary>Largest SQL execution changes</summary>\n\n";
    out += "| executions | duration | change | | description |\n|---|---:|---:|---|---|\n";
    for (const auto* d : largest_execution_changes(c, top_stages)) {
      out += fmt::format("| {} → {} | {} → {} | {} | {} | {} |\n", d->base_execution_id, d->cand_execution_id,
                         units::format_optional_duration(d->base_duration_ms),
                         units::format_optional_duration(d->cand_duration_ms), duration_change_figure(*d),
                         to_string(d->direction), markdown_cell(d->description));
    }
    out += "\n</details>\n";
  }
  out += "\n### Findings\n\n";
  category_list(out, "Introduced", c.findings.introduced);
  category_list(out, "Resolved", c.findings.resolved);

  const auto& a = c.alignment;
  out += "<details><summary>Largest per-stage changes</summary>\n\n";
  out += fmt::format("{}. {}; unmatched {} / {}; {} replanned group(s).\n\n", execution_alignment_figure(a.executions),
                     pair_counts_figure(a), a.unmatched_base.size(), a.unmatched_cand.size(), a.replanned.size());
  out += "| stages | pairing | run time | change | name |\n|---|---|---:|---:|---|\n";
  for (const auto* d : largest_stage_changes(c, top_stages)) {
    out += fmt::format("| {} → {} | {} | {} → {} | {}{} | {} |\n", d->base.stage_id, d->cand.stage_id,
                       pair_method_figure(d->pair), units::format_duration_ms(d->base.totals.executor_run_time_ms),
                       units::format_duration_ms(d->cand.totals.executor_run_time_ms),
                       d->run_time_delta_ms < 0 ? "-" : "+",
                       units::format_duration_ms(std::llabs(d->run_time_delta_ms)), markdown_cell(d->base.name));
  }
  for (const auto& p : a.pairs) {
    if (p.ambiguous()) out += "\nAmbiguous pairing: " + markdown_cell(ambiguity_figure(p)) + ".\n";
  }
  out += "\n</details>\n";
  return out;
}

}  // namespace sf::report

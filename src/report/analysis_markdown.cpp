#include "report/analysis_markdown.h"

#include <fmt/format.h>

#include "common/units.h"
#include "report/connect_text.h"
#include "report/economics_text.h"
#include "report/finding_text.h"
#include "report/markdown_cell.h"
#include "report/streaming_text.h"

namespace sf::report {

namespace {

using namespace sf::analysis;

std::string code_settings(const Finding& finding) {
  std::string out;
  for (const auto& s : finding.settings) {
    if (!out.empty()) out += "<br>";
    out += "`" + s.key + (s.suggested_value.empty() ? "" : "=" + s.suggested_value) + "`";
  }
  return out;
}

}  // namespace

std::string analysis_markdown(const model::AppModel& model, const Analysis& analysis) {
  std::string out;
  const auto& app = model.app;
  out += fmt::format("## SparkForensics: {} (`{}`)\n\n", markdown_cell(app.name.empty() ? "application" : app.name),
                     app.id.empty() ? "id unknown" : app.id);
  int64_t tasks = 0;
  for (const auto& s : model.stages) tasks += s.tasks_succeeded + s.tasks_failed + s.tasks_killed;
  out +=
      fmt::format("Spark {} · {} · {} · {} · {} · peak {}\n\n",
                  app.spark_version.empty() ? "version not logged" : markdown_cell(app.spark_version),
                  units::format_optional_duration(app.duration_ms()), app.finished ? "finished" : "**incomplete log**",
                  units::format_counted(static_cast<int64_t>(model.jobs.size()), "job"),
                  units::format_counted(tasks, "task"), units::format_counted(model.peak_concurrent_cores, "core"));

  out += "### Fix these first\n\n";
  std::vector<const RollupGroup*> time_groups;
  std::vector<std::string> costs;
  for (const auto& g : analysis.rollup.groups) {
    if (g.tier == RollupTier::kTime && g.fix_first) time_groups.push_back(&g);
    if (g.tier == RollupTier::kResource)
      costs.push_back(g.type + " (" + raw_waste_phrase({g.resource_total, *g.unit}) + ")");
  }
  if (time_groups.empty()) {
    out += "Nothing with a wall-clock cost stands out.\n\n";
  } else {
    out += "| # | Type | Figure | Best finding | Change |\n|---|---|---|---|---|\n";
    int rank = 0;
    for (const RollupGroup* g : time_groups) {
      const Finding* best = analysis.finding(g->best_finding_id);
      if (best == nullptr) continue;
      out += fmt::format("| {} | {} | {} | {} | {} |\n", ++rank, g->type, markdown_cell(rollup_figure(*g)),
                         markdown_cell(best->title),
                         markdown_cell(code_settings(*best).empty() ? best->recommendation : code_settings(*best)));
    }
    out += "\n";
  }
  if (!costs.empty()) {
    std::string joined;
    for (const auto& c : costs) joined += (joined.empty() ? "" : ", ") + c;
    out += "Resource-cost projections (not wall-clock): " + joined + "\n\n";
  }

  out += economics_markdown_section(analysis.economics);
  out += streaming_markdown_section(model, analysis);
  out += connect_markdown_section(model, analysis);
  size_t negligible = 0;
  for (const Finding& f : analysis.findings) negligible += recovers_nothing(f) ? 1 : 0;
  out += fmt::format("<details><summary>All findings ({})</summary>\n\n", analysis.findings.size());
  if (negligible > 0) {
    out += fmt::format("{} with no measurable wall-clock to recover {} not listed (`-f json` lists {}).\n\n",
                       units::format_counted(static_cast<int64_t>(negligible), "finding"),
                       negligible == 1 ? "is" : "are", negligible == 1 ? "it" : "them");
  }
  for (const Finding& f : analysis.findings) {
    if (recovers_nothing(f)) continue;
    out += fmt::format("#### [{}] {}\n\n", to_string(f.band), markdown_cell(f.title));
    out += f.explanation + "\n\n";
    const std::string impact = impact_phrase(f);
    out += fmt::format("- Impact: {} ({}, {}); confidence {}\n", impact.empty() ? "not quantified" : impact,
                       to_string(f.impact.basis), to_string(f.impact.method), to_string(f.confidence));
    out += "- Recommendation: " + f.recommendation + "\n";
    if (!f.settings.empty()) out += "- Settings: " + code_settings(f) + "\n";
    if (!f.validation_caveat.empty()) out += "- Check first: " + f.validation_caveat + "\n";
    for (const analysis::AnsweredFinding& a : f.also_answers) {
      out += fmt::format("- The same fix also answers `{}`: {} ({})\n", a.finding.id, markdown_cell(a.finding.title),
                         a.why);
    }
    out += fmt::format("- Id: `{}`\n\n", f.id);
  }
  out += "</details>\n";
  return out;
}

}  // namespace sf::report

// incompleteRun: the log does not hold the whole application, so every figure is partial.
#include <fmt/format.h>

#include "analysis/detectors.h"
#include "common/units.h"

namespace sf::analysis {

void detect_run_state(const DetectorContext& context, std::vector<Finding>& findings) {
  const model::AppModel& model = context.model();
  const model::Diagnostics& d = model.diagnostics;
  if (!d.incomplete && !d.read_error && d.missing_parts.empty()) return;
  Finding f;
  f.type = "incompleteRun";
  f.scope = Scope::kApp;
  f.rule = d.read_error ? "readError" : !d.missing_parts.empty() ? "missingParts" : "noApplicationEnd";
  f.id = DetectorContext::finding_id(f.type, f.rule, "app");
  std::vector<std::string> why;
  if (d.read_error) why.push_back("reading stopped early: " + *d.read_error);
  for (const auto& gap : d.missing_parts) why.push_back(gap);
  if (d.incomplete) why.push_back("there is no SparkListenerApplicationEnd");
  if (d.truncated_last_line) why.push_back("the last line is cut short");
  if (model.source.in_progress) why.push_back("the log is marked in progress");
  std::string reasons;
  for (const auto& w : why) reasons += (reasons.empty() ? "" : "; ") + w;
  int64_t running_stages = 0;
  for (const auto& stage : model.stages) running_stages += stage.status == model::StageStatus::kActive ? 1 : 0;
  f.title = model.source.in_progress  ? "The application was still running when the log was read"
            : !d.incomplete && !d.read_error ? "Parts of the rolling log are missing"
                                             : "The log ends before the application did";
  f.explanation = fmt::format(
      "{}. The analysis covers {} of the application (up to its last event{}); {} partial.",
      reasons, units::format_optional_duration(model.app.duration_ms()),
      model.app.last_event_time_ms ? " at " + units::format_time_utc(*model.app.last_event_time_ms) : "",
      running_stages == 1 ? "1 stage attempt was still running and its figures are"
                          : fmt::format("{} stage attempts were still running and their figures are", running_stages));
  if (!d.missing_parts.empty()) {
    f.explanation += " The jobs, stages and tasks whose events were in the missing parts are partial or absent.";
  }
  f.recommendation = model.source.in_progress
                         ? "Analyze the log again once the application has finished for complete figures."
                         : "Analyze the complete log if there is one (a rolling log's missing parts, or the file as "
                           "the History Server serves it); a driver that died leaves a log like this.";
  f.evidence = {{"runningStageAttempts", static_cast<double>(running_stages), "count"}};
  f.confidence = Confidence::kHigh;
  f.band = ImpactBand::kMedium;
  f.claim.kind = WasteClaim::Kind::kInformational;
  findings.push_back(std::move(f));
}

}  // namespace sf::analysis

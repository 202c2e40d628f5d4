// What the log itself says of its state: incompleteRun (it does not hold the whole application, so
// every figure is partial) and logDefect (it holds times that cannot be the run's own).
#include <fmt/format.h>

#include "analysis/detectors/detectors.h"
#include "analysis/findings/finding_types.h"
#include "common/units.h"

namespace sf::analysis {

namespace {

void times_outside_run(const model::AppModel& model, std::vector<Finding>& findings) {
  const uint64_t outside = model.diagnostics.times_outside_run;
  if (outside == 0) return;
  Finding f;
  f.type = finding_type::kLogDefect;
  f.rule = finding_rule::kTimesOutsideRun;
  f.scope = Scope::kApp;
  f.id = DetectorContext::finding_id(f.type, f.rule, "app");
  f.title = fmt::format("{} executor time{} in the log lie far outside the run's own clock", outside,
                        outside == 1 ? "" : "s");
  f.explanation =
      "Executors and block managers report when they were added and removed; here some of those times are days "
      "away from every job, stage and task of the run, which no real run does. The log holds events of another "
      "run, or a clock that jumped. Each such time is taken as where its event sits in the log, so the "
      "application's duration, its cost and its utilization are the run's own (the log section names the times).";
  f.recommendation =
      "Nothing to tune in the application. If the log was assembled from several files, check it was not spliced "
      "from two runs; otherwise check the clocks of the driver's host.";
  f.evidence = {{"timesOutsideRun", static_cast<double>(outside), "count"}};
  f.confidence = Confidence::kHigh;
  f.band = ImpactBand::kLow;
  f.claim.kind = WasteClaim::Kind::kInformational;
  findings.push_back(std::move(f));
}

void incomplete_run(const model::AppModel& model, std::vector<Finding>& findings) {
  const model::Diagnostics& d = model.diagnostics;
  if (!d.incomplete && !d.read_error && d.missing_parts.empty()) return;
  Finding f;
  f.type = finding_type::kIncompleteRun;
  f.scope = Scope::kApp;
  f.rule = d.read_error               ? finding_rule::kReadError
           : !d.missing_parts.empty() ? finding_rule::kMissingParts
                                      : finding_rule::kNoApplicationEnd;
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
  f.title = model.source.in_progress         ? "The application was still running when the log was read"
            : !d.incomplete && !d.read_error ? "Parts of the rolling log are missing"
                                             : "The log ends before the application did";
  f.explanation = fmt::format(
      "{}. The analysis covers {} of the application (up to its last event{}); {} partial.", reasons,
      units::format_optional_duration(model.app.duration_ms()),
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

}  // namespace

void detect_run_state(const DetectorContext& context, std::vector<Finding>& findings) {
  incomplete_run(context.model(), findings);
  times_outside_run(context.model(), findings);
}

}  // namespace sf::analysis

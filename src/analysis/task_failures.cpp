// Detectors of work lost to failures: retryWaste, speculationWaste, stageFailed, failures,
// jobFailureRate.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "analysis/detectors.h"
#include "common/units.h"

namespace sf::analysis {

namespace {

using model::StageAttempt;
using model::StageStatus;
using model::TaskMetric;
using units::format_bytes;
using units::format_count;
using units::format_duration_ms;
using units::format_percent;

// Average tasks in flight over the stage's window: the factor that turns core time into
// wall-clock time for this stage.
double achieved_concurrency(const StageAttempt& stage, const StageOccupancy& occupancy) {
  const double task_time = static_cast<double>(stage.metric(TaskMetric::kDurationMs));
  if (occupancy.duration_ms <= 0) return 1.0;
  return std::max(1.0, task_time / occupancy.duration_ms);
}

// What a failure reason says to change, by its kind.
struct FailureAdvice {
  std::string advice;
  std::vector<std::pair<std::string, std::string>> settings;  // key, suggested value ("" if none)
};

FailureAdvice advice_for(std::string_view reason) {
  auto has = [&](std::string_view needle) { return reason.find(needle) != std::string_view::npos; };
  if (has("OutOfMemoryError") || has("exceeding memory limits") || has("OOMKilled") || has("exit code 137") ||
      has("exit code 143")) {
    return {"Executors ran out of memory. Give each task more memory (more executor memory or memory overhead, "
            "or fewer cores per executor), or make partitions smaller so each task holds less.",
            {{"spark.executor.memoryOverhead", ""}, {"spark.executor.memory", ""}, {"spark.sql.shuffle.partitions", ""}}};
  }
  if (has("FetchFailed")) {
    return {"Shuffle output was lost, usually because the executor that wrote it died or was removed. Keep shuffle "
            "files available past executor loss with the external shuffle service or decommissioning, and look "
            "for why executors were lost.",
            {{"spark.shuffle.service.enabled", "true"}, {"spark.decommission.enabled", "true"}}};
  }
  if (has("ExecutorLostFailure")) {
    return {"Executors were lost while tasks ran on them (killed by the cluster manager, preempted, or crashed). "
            "Check the executor logs; memory-limit kills call for more memory overhead.",
            {{"spark.executor.memoryOverhead", ""}}};
  }
  if (has("Resubmitted")) {
    return {"Finished map tasks were run again because the executor holding their shuffle output was lost. Keep "
            "shuffle files available past executor loss, and look for why executors were lost.",
            {{"spark.shuffle.service.enabled", "true"}, {"spark.decommission.enabled", "true"}}};
  }
  if (has("TaskResultLost")) {
    return {"Task results were lost in transfer to the driver; large results should be written out, not collected.",
            {{"spark.driver.maxResultSize", ""}}};
  }
  return {"Tasks threw an exception and were retried. Fix the cause in the application code or data; retries only "
          "repeat the same work.",
          {}};
}

// A human label for a failure key of the model ("ExceptionFailure: java.io.IOException").
std::string short_reason(const std::string& reason, size_t limit = 160) {
  std::string text = reason.substr(0, reason.find('\n'));
  if (text.size() > limit) text = text.substr(0, limit - 1) + "~";
  return text;
}

void retry_waste(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const auto& stages = context.model().stages;
  for (const StageAttempt* stage : context.ran_stages()) {
    const StageOccupancy& occupancy = context.occupancy(*stage);
    // A failed attempt that was retried: its whole window is repeated work.
    const bool retried = std::any_of(stages.begin(), stages.end(), [&](const StageAttempt& other) {
      return other.stage_id == stage->stage_id && other.attempt_id > stage->attempt_id;
    });
    if (stage->status == StageStatus::kFailed && retried) {
      const double waste = occupancy.duration_ms;
      if (waste < t.retry_min_waste_ms) continue;
      Finding f = DetectorContext::stage_finding(*stage, "retryWaste", "failedStageAttempt");
      f.title = fmt::format("{} failed after {} and was run again", DetectorContext::stage_label(*stage),
                            format_duration_ms(static_cast<int64_t>(waste)));
      f.explanation = fmt::format(
          "Attempt {} of stage {} ran for {} and failed ({}); the stage was submitted again, so that time was spent "
          "twice.",
          stage->attempt_id, stage->stage_id, format_duration_ms(static_cast<int64_t>(waste)),
          short_reason(stage->failure_reason));
      const FailureAdvice advice = advice_for(stage->failure_reason);
      f.recommendation = advice.advice;
      for (const auto& [key, value] : advice.settings) f.settings.push_back(context.setting(key, value));
      f.evidence = {{"failedAttemptDurationMs", waste, "ms"}};
      f.thresholds = {"retryWaste.minWasteMs"};
      f.confidence = context.confidence_above(waste, t.retry_min_waste_ms);
      f.claim.kind = WasteClaim::Kind::kStages;
      f.claim.method = EstimateMethod::kMeasured;
      f.claim.stages = {{DetectorContext::ref(*stage), waste, /*whole_window=*/true}};
      f.claim.raw = RawWaste{waste, WasteUnit::kMs};
      findings.push_back(std::move(f));
      continue;
    }
    // Failed task attempts inside an attempt: their time, spread over the stage's concurrency.
    const double failed_time = static_cast<double>(stage->failed_task_time_ms);
    const double task_time = static_cast<double>(stage->metric(TaskMetric::kDurationMs));
    if (failed_time <= 0 || task_time <= 0) continue;
    const double share = failed_time / task_time;
    const double waste = failed_time / achieved_concurrency(*stage, occupancy);
    if (share < t.retry_min_failed_share || waste < t.retry_min_waste_ms) continue;
    const std::string top_reason = stage->failure_reasons.empty() ? "" : stage->failure_reasons.front().reason;
    Finding f = DetectorContext::stage_finding(*stage, "retryWaste", "failedTasks");
    f.title = fmt::format("{}: {} failed task attempts wasted {} of task time", DetectorContext::stage_label(*stage),
                          format_count(stage->tasks_failed), format_percent(share));
    f.explanation = fmt::format(
        "{} task attempts failed after running {} in all ({} of the stage's task time), mostly {}; their retries "
        "repeated that work. Spread over the stage's {:.1f} tasks in flight that is about {} of wall-clock.",
        format_count(stage->tasks_failed), format_duration_ms(static_cast<int64_t>(failed_time)), format_percent(share),
        short_reason(top_reason), achieved_concurrency(*stage, occupancy), format_duration_ms(static_cast<int64_t>(waste)));
    const FailureAdvice advice = advice_for(top_reason);
    f.recommendation = advice.advice;
    for (const auto& [key, value] : advice.settings) f.settings.push_back(context.setting(key, value));
    f.evidence = {{"failedTasks", static_cast<double>(stage->tasks_failed), "count"},
                  {"failedTaskTimeMs", failed_time, "ms"},
                  {"failedTimeShare", share, "fraction"}};
    f.thresholds = {"retryWaste.minFailedShare", "retryWaste.minWasteMs"};
    f.confidence = std::min(context.confidence_above(share, t.retry_min_failed_share),
                            context.confidence_above(waste, t.retry_min_waste_ms));
    f.claim.kind = WasteClaim::Kind::kStages;
    f.claim.method = EstimateMethod::kMeasured;
    f.claim.stages = {{DetectorContext::ref(*stage), waste}};
    f.claim.raw = RawWaste{waste, WasteUnit::kMs};
    findings.push_back(std::move(f));
  }
}

bool killed_for_speculation(const StageAttempt& stage) {
  for (const auto& [reason, count] : stage.killed_tasks_summary) {
    if (reason.find("another attempt succeeded") != std::string::npos) return true;
  }
  return false;
}

void speculation_waste(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const StageAttempt* stage : context.ran_stages()) {
    if (stage->tasks_killed == 0 || !killed_for_speculation(*stage)) continue;
    const double killed_time = static_cast<double>(stage->killed_task_time_ms);
    const double task_time = static_cast<double>(stage->metric(TaskMetric::kDurationMs));
    if (killed_time <= 0 || task_time <= 0) continue;
    const double share = killed_time / task_time;
    const double waste = killed_time / achieved_concurrency(*stage, context.occupancy(*stage));
    if (share < t.speculation_min_killed_share || waste < t.speculation_min_waste_ms) continue;
    Finding f = DetectorContext::stage_finding(*stage, "speculationWaste");
    f.title = fmt::format("{}: speculative duplicates lost the race and burned {} of task time",
                          DetectorContext::stage_label(*stage), format_percent(share));
    f.explanation = fmt::format(
        "{} attempts were killed because another copy finished first; they ran {} in all ({} of the stage's task "
        "time), about {} of wall-clock at the stage's concurrency. {} speculative copies were launched.",
        format_count(stage->tasks_killed), format_duration_ms(static_cast<int64_t>(killed_time)), format_percent(share),
        format_duration_ms(static_cast<int64_t>(waste)), format_count(stage->tasks_speculative));
    f.recommendation =
        "Speculation is covering for slow tasks. Find why they are slow (a skewed partition, a slow host, GC) and fix "
        "that; meanwhile launch copies later and only for clear outliers.";
    f.settings = {context.setting("spark.speculation.multiplier", "3"), context.setting("spark.speculation.quantile", "0.9")};
    f.evidence = {{"killedAttempts", static_cast<double>(stage->tasks_killed), "count"},
                  {"killedTaskTimeMs", killed_time, "ms"},
                  {"killedTimeShare", share, "fraction"},
                  {"speculativeLaunches", static_cast<double>(stage->tasks_speculative), "count"}};
    f.thresholds = {"speculationWaste.minKilledShare", "speculationWaste.minWasteMs"};
    f.confidence = std::min(context.confidence_above(share, t.speculation_min_killed_share),
                            context.confidence_above(waste, t.speculation_min_waste_ms));
    f.claim.kind = WasteClaim::Kind::kStages;
    f.claim.method = EstimateMethod::kMeasured;
    f.claim.stages = {{DetectorContext::ref(*stage), waste}};
    f.claim.raw = RawWaste{waste, WasteUnit::kMs};
    findings.push_back(std::move(f));
  }
}

bool job_of_stage_failed(const DetectorContext& context, const StageAttempt& stage) {
  for (int64_t job_id : stage.job_ids) {
    const model::Job* job = context.model().job(job_id);
    if (job != nullptr && job->status == model::JobStatus::kFailed) return true;
  }
  return false;
}

void stage_failed(const DetectorContext& context, std::vector<Finding>& findings) {
  for (const StageAttempt& stage : context.model().stages) {
    if (stage.status != StageStatus::kFailed) continue;
    const bool fatal = job_of_stage_failed(context, stage);
    Finding f = DetectorContext::stage_finding(stage, "stageFailed");
    f.title = fmt::format("{} failed{}", DetectorContext::stage_label(stage), fatal ? " and its job failed" : "");
    f.explanation = fmt::format("The stage attempt failed: {}.{}", short_reason(stage.failure_reason, 400),
                                fatal ? " No later attempt saved the job." : " A later attempt was submitted.");
    const FailureAdvice advice = advice_for(stage.failure_reason);
    f.recommendation = advice.advice;
    for (const auto& [key, value] : advice.settings) f.settings.push_back(context.setting(key, value));
    f.evidence = {{"failedTasks", static_cast<double>(stage.tasks_failed), "count"}};
    f.confidence = Confidence::kHigh;  // the log says so
    f.band = fatal ? ImpactBand::kHigh : ImpactBand::kLow;
    f.claim.kind = WasteClaim::Kind::kInformational;
    findings.push_back(std::move(f));
  }
}

void failures(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const StageAttempt& stage : context.model().stages) {
    for (const model::TaskFailureCount& failure : stage.failure_reasons) {
      if (static_cast<double>(failure.count) < t.failures_min_failed_tasks) continue;
      const std::string kind = failure.reason.substr(0, failure.reason.find(':'));
      Finding f = DetectorContext::stage_finding(stage, "failures", kind);
      // Two reasons of one kind on a stage are two findings: the reason goes in the id's rule part.
      f.id = DetectorContext::finding_id(f.type, f.rule + ":" + failure.reason.substr(0, 80),
                                         DetectorContext::stage_key(stage));
      f.title = fmt::format("{} task attempt{} of {} failed: {}", format_count(failure.count),
                            failure.count == 1 ? "" : "s", DetectorContext::stage_label(stage), short_reason(failure.reason, 100));
      f.explanation = fmt::format("{} of the stage's {} task attempts ended with {}.", format_count(failure.count),
                                  format_count(stage.tasks_succeeded + stage.tasks_failed + stage.tasks_killed),
                                  short_reason(failure.reason));
      const FailureAdvice advice = advice_for(failure.reason);
      f.recommendation = advice.advice;
      for (const auto& [key, value] : advice.settings) f.settings.push_back(context.setting(key, value));
      f.evidence = {{"failedAttempts", static_cast<double>(failure.count), "count"}};
      f.thresholds = {"failures.minFailedTasks"};
      f.confidence = Confidence::kHigh;
      const bool memory = advice.advice.find("out of memory") != std::string::npos;
      f.band = memory || kind == "ExecutorLostFailure" ? ImpactBand::kMedium : ImpactBand::kLow;
      f.claim.kind = WasteClaim::Kind::kInformational;
      findings.push_back(std::move(f));
    }
  }
}

void job_failure_rate(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const auto& jobs = context.model().jobs;
  if (jobs.empty()) return;
  int64_t failed = 0;
  double failed_duration_ms = 0;
  std::vector<std::string> examples;
  for (const model::Job& job : jobs) {
    if (job.status != model::JobStatus::kFailed) continue;
    ++failed;
    failed_duration_ms += static_cast<double>(job.duration_ms().value_or(0));
    if (examples.size() < 3) examples.push_back(fmt::format("job {} ({})", job.job_id, short_reason(job.failure_reason, 80)));
  }
  const double rate = static_cast<double>(failed) / static_cast<double>(jobs.size());
  if (static_cast<double>(failed) < t.job_failure_min_failed || rate < t.job_failure_min_rate) return;
  // The cost is the executors' time on the failed jobs' stages, not the jobs' wall-clock: a job
  // that failed after an hour on 100 cores lost 100 core-hours.
  double failed_task_time_ms = 0;
  for (const StageAttempt& stage : context.model().stages) {
    if (job_of_stage_failed(context, stage)) failed_task_time_ms += static_cast<double>(stage.metric(TaskMetric::kDurationMs));
  }
  Finding f;
  f.type = "jobFailureRate";
  f.scope = Scope::kApp;
  f.id = DetectorContext::finding_id(f.type, "", "app");
  f.title = fmt::format("{} of {} jobs failed ({})", format_count(failed), format_count(static_cast<int64_t>(jobs.size())),
                        format_percent(rate));
  std::string list;
  for (const auto& e : examples) list += (list.empty() ? "" : "; ") + e;
  f.explanation = fmt::format("Failed jobs ran {} before failing: {}{}.", format_duration_ms(static_cast<int64_t>(failed_duration_ms)),
                              list, failed > static_cast<int64_t>(examples.size()) ? "; ..." : "");
  f.recommendation = "The work of a failed job is lost and usually run again. Read the stage failures of these jobs "
                     "(the stageFailed and failures findings) for the cause.";
  f.evidence = {{"failedJobs", static_cast<double>(failed), "count"},
                {"jobs", static_cast<double>(jobs.size()), "count"},
                {"failedJobTimeMs", failed_duration_ms, "ms"},
                {"failedJobTaskTimeMs", failed_task_time_ms, "ms"}};
  f.thresholds = {"jobFailureRate.minFailed", "jobFailureRate.minRate"};
  f.confidence = context.confidence_above(rate, t.job_failure_min_rate);
  f.claim.kind = WasteClaim::Kind::kResourceOnly;
  f.claim.method = EstimateMethod::kMeasured;
  f.claim.raw = RawWaste{failed_task_time_ms / 3.6e6, WasteUnit::kCoreHours};
  findings.push_back(std::move(f));
}

}  // namespace

void detect_task_failures(const DetectorContext& context, std::vector<Finding>& findings) {
  retry_waste(context, findings);
  speculation_waste(context, findings);
  stage_failed(context, findings);
  failures(context, findings);
  job_failure_rate(context, findings);
}

}  // namespace sf::analysis

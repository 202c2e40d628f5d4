// Detectors of work lost to failures: retryWaste, speculationWaste, stageFailed, failures,
// jobFailureRate.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "analysis/detectors/detectors.h"
#include "analysis/detectors/failure_advice.h"
#include "analysis/findings/figure_words.h"
#include "analysis/findings/finding_types.h"
#include "analysis/settings/cluster_shape.h"
#include "analysis/settings/heap_sizes.h"
#include "common/units.h"
#include "model/failure_cause.h"

namespace sf::analysis {

namespace {

using model::StageAttempt;
using model::StageStatus;
using model::TaskMetric;
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

// A human label for a failure key of the model ("ExceptionFailure: java.io.IOException").
std::string short_reason(const std::string& reason, size_t limit = 160) {
  std::string text = reason.substr(0, reason.find('\n'));
  if (text.size() > limit) text = text.substr(0, limit - 1) + "~";
  return text;
}

// Twice the executor heap or its overhead in effect (Spark's defaults when unset: a 1 GiB heap,
// the overhead heap_sizes.h says); "" past the heap where the JVM loses compressed object pointers.
std::string doubled_memory(const DetectorContext& context, std::string_view key) {
  const double heap =
      static_cast<double>(context.memory_property_bytes("spark.executor.memory").value_or(int64_t{1} << 30));
  if (key == "spark.executor.memory") return 2 * heap <= kCompressedOopsHeapBytes ? mib_setting(2 * heap) : "";
  if (key == "spark.executor.memoryOverhead")
    return mib_setting(2 * memory_overhead_bytes(context.model(), "executor", heap));
  return "";
}

void add_settings(const DetectorContext& context, const FailureAdvice& advice, Finding& f) {
  f.recommendation = advice.advice;
  for (const auto& [key, value] : advice.settings) {
    const std::string suggested = value.empty() ? doubled_memory(context, key) : value;
    if (!suggested.empty()) f.settings.push_back(context.raise_setting(key, suggested));
  }
}

// Retry waste worth fixing first: past a floor against noise and a share of the application's
// wall-clock, so that a few seconds count in a short application and do not in a long one.
bool retry_worth_reporting(const DetectorContext& context, double waste_ms) {
  const Thresholds& t = context.thresholds();
  const double app_ms = context.app_duration_ms();
  return waste_ms >= t.retry_min_waste_ms && (app_ms <= 0 || waste_ms / app_ms >= t.retry_min_app_share);
}

Confidence retry_confidence(const DetectorContext& context, double waste_ms) {
  const Thresholds& t = context.thresholds();
  const double app_ms = context.app_duration_ms();
  const Confidence floor = context.confidence_above(waste_ms, t.retry_min_waste_ms);
  if (app_ms <= 0) return floor;
  return std::min(floor, context.confidence_above(waste_ms / app_ms, t.retry_min_app_share));
}

// The stage's floor once its failures are fixed. The ceiling's run-time term counts the failed
// attempts' run time, the very work the fix removes: clipped at it, a stage that kept its cores
// busy would show almost none of its retries. Without them the run-time term shrinks by their
// share of the stage's task time, and the longest task is the longest successful one.
double floor_without_failures(const StageAttempt& stage, const StageOccupancy& occupancy) {
  const double task_time = static_cast<double>(stage.metric(TaskMetric::kDurationMs));
  const double failed_share = task_time > 0 ? static_cast<double>(stage.failed_task_time_ms) / task_time : 0;
  const double longest_success = static_cast<double>(stage.quantile(model::QuantileMetric::kDurationMs).max);
  return std::max(longest_success, occupancy.ceiling_ms * std::max(0.0, 1.0 - failed_share));
}

// The root cause most of a stage attempt's failed task attempts share (the model sorts them by
// count), or nullptr when none failed.
const model::TaskFailureCause* top_cause(const StageAttempt& stage) {
  return stage.failure_causes.empty() ? nullptr : &stage.failure_causes.front();
}

bool has_later_attempt(const DetectorContext& context, const StageAttempt& stage) {
  const model::StageAttempt* latest = context.model().latest_attempt(stage.stage_id);
  return latest != nullptr && latest->attempt_id > stage.attempt_id;
}

void retry_waste(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const StageAttempt* stage : context.ran_stages()) {
    const StageOccupancy& occupancy = context.occupancy(*stage);
    // A failed attempt that was retried: its whole window is repeated work.
    if (stage->status == StageStatus::kFailed && has_later_attempt(context, *stage)) {
      const double waste = occupancy.duration_ms;
      if (!retry_worth_reporting(context, waste)) continue;
      const model::FailureCause cause = model::read_failure_cause(stage->failure_reason);
      Finding f = DetectorContext::stage_finding(*stage, finding_type::kRetryWaste, finding_rule::kFailedStageAttempt);
      f.title = fmt::format("{} failed after {} and was run again", DetectorContext::stage_label(*stage),
                            format_duration_ms(static_cast<int64_t>(waste)));
      f.explanation = fmt::format(
          "Attempt {} of stage {} ran for {} and failed ({}); the stage was submitted again, so that time was spent "
          "twice.",
          stage->attempt_id, stage->stage_id, format_duration_ms(static_cast<int64_t>(waste)), describe_cause(cause));
      add_settings(context, advice_for(stage->failure_reason, cause, context.version()), f);
      f.evidence = {{"failedAttemptDurationMs", waste, "ms"}};
      f.thresholds = {"retryWaste.minWasteMs", "retryWaste.minAppShare"};
      f.confidence = retry_confidence(context, waste);
      f.claim.kind = WasteClaim::Kind::kStages;
      f.claim.method = EstimateMethod::kMeasured;
      f.claim.stages = {{DetectorContext::ref(*stage), waste, /*whole_window=*/true}};
      f.claim.raw = RawWaste{waste, WasteUnit::kMs};
      findings.push_back(std::move(f));
      continue;
    }
    // A failed attempt that was not retried lost all its work, not only its failed tasks': its
    // job failed (jobFailureRate's cost) or the application stopped. There is no retry to save.
    if (stage->status == StageStatus::kFailed) continue;
    // Failed task attempts inside an attempt: their time, spread over the stage's concurrency.
    const double failed_time = static_cast<double>(stage->failed_task_time_ms);
    const double task_time = static_cast<double>(stage->metric(TaskMetric::kDurationMs));
    if (failed_time <= 0 || task_time <= 0) continue;
    const double share = failed_time / task_time;
    const double in_flight = achieved_concurrency(*stage, occupancy);
    const double waste = failed_time / in_flight;
    if (share < t.retry_min_failed_share || !retry_worth_reporting(context, waste)) continue;
    const model::TaskFailureCause* cause = top_cause(*stage);
    const std::string reason = cause != nullptr ? cause->reason : "";
    const model::FailureCause root = cause != nullptr ? cause->cause : model::FailureCause{};
    Finding f = DetectorContext::stage_finding(*stage, finding_type::kRetryWaste, finding_rule::kFailedTasks);
    f.title = fmt::format("{}: {} failed task attempts wasted {} of task time", DetectorContext::stage_label(*stage),
                          format_count(stage->tasks_failed), format_percent(share));
    f.explanation = fmt::format(
        "{} task attempts failed after running {} in all ({} of the stage's task time){}; their retries repeated "
        "that work. Spread over the stage's {:.1f} tasks in flight that is about {} of wall-clock, {} of the "
        "application's.",
        format_count(stage->tasks_failed), format_duration_ms(static_cast<int64_t>(failed_time)), format_percent(share),
        cause == nullptr
            ? ""
            : fmt::format(", {} of them with {}: {}", format_count(cause->count), cause->reason, describe_cause(root)),
        in_flight, format_duration_ms(static_cast<int64_t>(waste)),
        format_percent(context.app_duration_ms() > 0 ? waste / context.app_duration_ms() : 0));
    add_settings(context, advice_for(reason, root, context.version()), f);
    f.evidence = {{"failedTasks", static_cast<double>(stage->tasks_failed), "count"},
                  {"failedTaskTimeMs", failed_time, "ms"},
                  {"failedTimeShare", share, "fraction"}};
    f.thresholds = {"retryWaste.minFailedShare", "retryWaste.minWasteMs", "retryWaste.minAppShare"};
    f.confidence =
        std::min(context.confidence_above(share, t.retry_min_failed_share), retry_confidence(context, waste));
    f.claim.kind = WasteClaim::Kind::kStages;
    f.claim.method = EstimateMethod::kMeasured;
    WasteClaim::StageWaste part{DetectorContext::ref(*stage), waste};
    part.floor_after_fix_ms = floor_without_failures(*stage, occupancy);
    f.claim.stages = {part};
    f.claim.raw = RawWaste{waste, WasteUnit::kMs};
    findings.push_back(std::move(f));
  }
}

// The stage attempts that had tasks waiting for a slot, and when: from submission to the last
// launch of a first (non-speculative) attempt.
struct WaitingStage {
  StageRef stage;
  Interval window;
};

std::vector<WaitingStage> waiting_stages(const model::AppModel& model) {
  std::vector<WaitingStage> waiting;
  for (const StageAttempt& stage : model.stages) {
    if (!stage.submission_time_ms || !stage.last_regular_launch_time_ms) continue;
    const double from = static_cast<double>(*stage.submission_time_ms);
    const double to = static_cast<double>(*stage.last_regular_launch_time_ms);
    if (to > from) waiting.push_back({DetectorContext::ref(stage), {from, to}});
  }
  return waiting;
}

double overlap_ms(const Interval& a, const Interval& b) {
  return std::max(0.0, std::min(a.end_ms, b.end_ms) - std::max(a.start_ms, b.start_ms));
}

// What a stage's losing attempts cost in wall-clock. An attempt killed because another attempt of
// its task succeeded held a slot for nothing; that delayed other work only while some task was
// waiting for a slot (Spark offers a slot to a copy only when its own stage has no task waiting,
// so the work it delays is usually another stage's). Each such slot-millisecond, taken from the
// cores the stage held, delays the waiting work by 1 / cores of a millisecond. The figure is
// split over the stages that waited, in proportion to their waiting time under the copies.
struct RaceCost {
  double contended_slot_ms = 0;         // losing attempts' time while some task waited for a slot
  std::map<StageRef, double> delay_ms;  // per waiting stage attempt
};

RaceCost race_cost(const StageAttempt& stage, const StageOccupancy& occupancy,
                   const std::vector<WaitingStage>& waiting) {
  RaceCost cost;
  std::map<StageRef, double> overlap_by_stage;
  double overlap_sum = 0;
  for (const auto& [launch, finish] : stage.lost_race_windows) {
    const Interval run{static_cast<double>(launch), static_cast<double>(finish)};
    std::vector<Interval> waited;
    for (const WaitingStage& w : waiting) {
      const double overlap = overlap_ms(run, w.window);
      if (overlap <= 0) continue;
      overlap_by_stage[w.stage] += overlap;
      overlap_sum += overlap;
      waited.push_back({std::max(run.start_ms, w.window.start_ms), std::min(run.end_ms, w.window.end_ms)});
    }
    cost.contended_slot_ms += union_ms(std::move(waited));
  }
  if (overlap_sum <= 0) return cost;
  const double cores = std::max(1.0, occupancy.window_cores);
  for (const auto& [ref, overlap] : overlap_by_stage) {
    cost.delay_ms[ref] = cost.contended_slot_ms * (overlap / overlap_sum) / cores;
  }
  return cost;
}

// Speculation is one setting for the whole application, so its waste is one finding over every
// stage whose copies lost: each stage's losing copies may cost little, and a long application
// pays that many times over.
void speculation_waste(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const std::vector<WaitingStage> waiting = waiting_stages(context.model());
  double killed_time = 0;
  double task_time = 0;
  double contended_slot_ms = 0;
  int64_t lost = 0;
  int64_t lost_copies = 0;
  int64_t launches = 0;
  std::vector<StageRef> copied;
  std::map<StageRef, double> delay_ms;
  for (const StageAttempt* stage : context.ran_stages()) {
    if (stage->lost_race_windows.empty() || stage->killed_task_time_ms <= 0) continue;
    const RaceCost cost = race_cost(*stage, context.occupancy(*stage), waiting);
    killed_time += static_cast<double>(stage->killed_task_time_ms);
    task_time += static_cast<double>(stage->metric(TaskMetric::kDurationMs));
    contended_slot_ms += cost.contended_slot_ms;
    lost += static_cast<int64_t>(stage->lost_race_windows.size());
    lost_copies += stage->lost_race_copies;
    launches += stage->tasks_speculative;
    copied.push_back(DetectorContext::ref(*stage));
    for (const auto& [ref, delay] : cost.delay_ms) delay_ms[ref] += delay;
  }
  if (copied.empty() || task_time <= 0) return;
  const double share = killed_time / task_time;
  double waste = 0;
  for (const auto& [ref, delay] : delay_ms) waste += delay;
  if (share < t.speculation_min_killed_share || !context.significant_ms(waste, t.speculation_min_waste_ms)) return;

  Finding f;
  f.type = finding_type::kSpeculationWaste;
  f.scope = Scope::kApp;
  f.id = DetectorContext::finding_id(f.type, f.rule, "app");
  f.title = fmt::format("Speculative copies lost the race in {} and burned {} of their task time",
                        copied.size() == 1 ? "1 stage" : format_count(static_cast<int64_t>(copied.size())) + " stages",
                        format_percent(share));
  f.explanation = fmt::format(
      "{} speculative copies were launched; {} attempts were killed because another attempt of their task finished "
      "first ({} of them the copies themselves), after running {} in all ({} of their stages' task time). For {} of "
      "that, tasks were waiting for the slots they held: each slot-second of it, over the cores the copying stage "
      "held, is about {} of wall-clock lost by the work that waited.",
      format_count(launches), format_count(lost), format_count(lost_copies), format_duration_ms(as_int(killed_time)),
      format_percent(share), format_duration_ms(as_int(contended_slot_ms)), format_duration_ms(as_int(waste)));
  f.recommendation =
      "Speculation is copying tasks that are not outliers, and the copies take slots other work is waiting for. "
      "Launch copies later and only for clear outliers; if tasks really are slow, find why (a skewed partition, a "
      "slow host, GC) and fix that.";
  f.settings = {context.raise_setting("spark.speculation.multiplier", "3"),
                context.raise_setting("spark.speculation.quantile", "0.9")};
  f.evidence = {{"killedAttempts", static_cast<double>(lost), "count"},
                {"killedCopies", static_cast<double>(lost_copies), "count"},
                {"killedTaskTimeMs", killed_time, "ms"},
                {"killedTimeShare", share, "fraction"},
                {"contendedSlotMs", contended_slot_ms, "ms"},
                {"stagesWithLosingCopies", static_cast<double>(copied.size()), "count"},
                {"speculativeLaunches", static_cast<double>(launches), "count"}};
  f.thresholds = {"speculationWaste.minKilledShare", "speculationWaste.minWasteMs", "significance.appShare"};
  f.confidence = std::min(context.confidence_above(share, t.speculation_min_killed_share),
                          context.confidence_above(waste, context.significance_floor_ms(t.speculation_min_waste_ms)));
  f.validation_caveat =
      "A stage counts as waiting from its submission to its last first-attempt launch; a task that waited for "
      "locality rather than a slot is counted as waiting too.";
  f.claim.kind = WasteClaim::Kind::kStages;
  f.claim.method = EstimateMethod::kMeasured;
  f.stages = copied;
  for (const auto& [ref, delay] : delay_ms) {
    f.claim.stages.push_back({ref, delay});
    f.stages.push_back(ref);
  }
  std::sort(f.stages.begin(), f.stages.end());
  f.stages.erase(std::unique(f.stages.begin(), f.stages.end()), f.stages.end());
  f.claim.raw = RawWaste{waste, WasteUnit::kMs};
  findings.push_back(std::move(f));
}

bool job_of_stage_failed(const DetectorContext& context, const StageAttempt& stage) {
  for (int64_t job_id : stage.job_ids) {
    const model::Job* job = context.model().job(job_id);
    if (job != nullptr && job->status == model::JobStatus::kFailed) return true;
  }
  return false;
}

bool cancelled_by_shutdown(const model::Job& job) {
  return job.status == model::JobStatus::kFailed && model::says_work_was_stopped(job.failure_reason);
}

// The first of the stage's jobs that the SparkContext's shutdown cancelled, or nullptr.
const model::Job* job_cancelled_by_shutdown(const DetectorContext& context, const StageAttempt& stage) {
  for (int64_t job_id : stage.job_ids) {
    const model::Job* job = context.model().job(job_id);
    if (job != nullptr && cancelled_by_shutdown(*job)) return job;
  }
  return nullptr;
}

// The task time of every stage attempt of the jobs `stage` failed.
double failed_job_task_time_ms(const DetectorContext& context, const StageAttempt& stage) {
  double ms = 0;
  for (const StageAttempt& other : context.model().stages) {
    const bool same_job = std::any_of(other.job_ids.begin(), other.job_ids.end(), [&](int64_t id) {
      const model::Job* job = context.model().job(id);
      return job != nullptr && job->status == model::JobStatus::kFailed &&
             std::find(stage.job_ids.begin(), stage.job_ids.end(), id) != stage.job_ids.end();
    });
    if (same_job) ms += static_cast<double>(other.metric(TaskMetric::kDurationMs));
  }
  return ms;
}

// The stage attempt failed of its own cause, no later attempt ran, and its job failed of it (not
// cancelled by a shutdown before a retry could run).
bool failed_its_job(const DetectorContext& context, const StageAttempt& stage) {
  return stage.status == StageStatus::kFailed &&
         model::read_failure_cause(stage.failure_reason).kind != model::FailureCauseKind::kShutdown &&
         !has_later_attempt(context, stage) && job_cancelled_by_shutdown(context, stage) == nullptr &&
         job_of_stage_failed(context, stage);
}

// "java.lang.X: msg at f(F.java:1), the innermost of 2 nested exceptions under org.apache.spark.SparkException"
std::string describe_with_nesting(const model::FailureCause& cause) {
  std::string words = describe_cause(cause);
  if (cause.nesting > 0 && !cause.outer_class.empty() && cause.outer_class != cause.exception_class) {
    words += fmt::format(", the innermost cause under {}{}", cause.outer_class,
                         cause.nesting > 1 ? fmt::format(" ({} levels down)", cause.nesting) : "");
  }
  return words;
}

void stage_failed(const DetectorContext& context, std::vector<Finding>& findings) {
  for (const StageAttempt& stage : context.model().stages) {
    // Stopping a streaming query cancels the batch it was running: how every stream ends.
    if (stage.status != StageStatus::kFailed || model::says_query_stopped(stage.failure_reason)) continue;
    const model::FailureCause cause = model::read_failure_cause(stage.failure_reason);
    const model::Job* shutdown_job = job_cancelled_by_shutdown(context, stage);
    const bool retried = has_later_attempt(context, stage);
    Finding f;
    if (cause.kind == model::FailureCauseKind::kShutdown) {
      // Not a failure of the stage's own: the driver stopped while it ran.
      f = DetectorContext::stage_finding(stage, finding_type::kStageFailed, finding_rule::kCancelledByShutdown);
      const int64_t running = stage.tasks_active;
      const std::string tasks = running == 1 ? "1 task" : format_count(running) + " tasks";
      f.title = fmt::format("{} was cancelled by the SparkContext shutting down{}", DetectorContext::stage_label(stage),
                            running > 0 ? " with " + tasks + " running" : "");
      f.explanation = fmt::format("The stage attempt did not fail on its own: \"{}\".", cause.message);
      if (running > 0) {
        f.explanation += fmt::format(" {} of it {} still running and never ended: abandoned, not failed.", tasks,
                                     running == 1 ? "was" : "were");
      }
      if (shutdown_job != nullptr) {
        f.explanation +=
            fmt::format(" Job {}: \"{}\".", shutdown_job->job_id, short_reason(shutdown_job->failure_reason));
      }
      f.evidence = {{"failedTasks", static_cast<double>(stage.tasks_failed), "count"},
                    {"runningTasksAbandoned", static_cast<double>(stage.tasks_active), "count"}};
      f.band = ImpactBand::kLow;
    } else {
      // A stage that failed of its own cause, but whose job the shutdown cancelled before a retry
      // could run: the job was not lost to this failure.
      const bool cut_short = !retried && shutdown_job != nullptr;
      const bool fatal = failed_its_job(context, stage);
      f = DetectorContext::stage_finding(stage, finding_type::kStageFailed);
      f.title = fmt::format("{} failed{}", DetectorContext::stage_label(stage),
                            fatal       ? " and its job failed"
                            : cut_short ? " and was not retried: the SparkContext shut down"
                                        : "");
      f.explanation = fmt::format(
          "The stage attempt failed: {}.{}", describe_with_nesting(cause),
          fatal       ? " No later attempt saved the job."
          : cut_short ? fmt::format(" Its job {} did not fail of it: \"{}\" before the stage could be submitted again.",
                                    shutdown_job->job_id, short_reason(shutdown_job->failure_reason))
                      : " A later attempt was submitted.");
      f.evidence = {{"failedTasks", static_cast<double>(stage.tasks_failed), "count"}};
      if (fatal) {
        // What the job lost with it, which jobFailureRate says when it keeps an entry of its own.
        const double lost_ms = failed_job_task_time_ms(context, stage);
        f.explanation +=
            fmt::format(" The job's stages had run {} of task time ({}), lost with it.", duration_text(lost_ms),
                        units::format_resource_hours(lost_ms / 3.6e6, "core-hours"));
        f.evidence.push_back({"failedJobTaskTimeMs", lost_ms, "ms"});
      }
      f.band = fatal ? ImpactBand::kHigh : ImpactBand::kLow;
    }
    add_settings(context, advice_for(stage.failure_reason, cause, context.version()), f);
    f.confidence = Confidence::kHigh;  // the log says so
    f.claim.kind = WasteClaim::Kind::kInformational;
    findings.push_back(std::move(f));
  }
}

// Failed task attempts of one root cause, over every stage attempt it touched.
struct CauseGroup {
  std::string reason;                          // Spark's kind of failure: ExceptionFailure, ExecutorLostFailure, ...
  const model::FailureCause* cause = nullptr;  // the first stage attempt's (its message is that attempt's)
  bool during_shutdown = false;                // the attempts ended while the SparkContext was stopping
  int64_t attempts = 0;
  std::vector<std::pair<const StageAttempt*, int64_t>> stages;  // in model order, with their attempt counts
  std::set<std::string> executors;
};

std::map<std::string, CauseGroup> group_by_cause(const model::AppModel& model) {
  std::map<std::string, CauseGroup> groups;
  for (const StageAttempt& stage : model.stages) {
    for (const model::TaskFailureCause& failure : stage.failure_causes) {
      CauseGroup& group = groups[failure.reason + (failure.during_shutdown ? "|shutdown|" : "|") + failure.cause.key()];
      if (group.cause == nullptr) {
        group.reason = failure.reason;
        group.cause = &failure.cause;
        group.during_shutdown = failure.during_shutdown;
      }
      group.attempts += failure.count;
      group.stages.emplace_back(&stage, failure.count);
      group.executors.insert(failure.executor_ids.begin(), failure.executor_ids.end());
    }
  }
  return groups;
}

// Executors removed for the same cause as a lost executor's tasks (the same exit code), whether or
// not a task was running on them.
void add_executors_removed_alike(const model::AppModel& model, const model::FailureCause& cause,
                                 std::set<std::string>& executors) {
  if (cause.kind != model::FailureCauseKind::kExecutorLost || !cause.exit_code) return;
  for (const model::Executor& executor : model.executors) {
    if (executor.remove_reason.empty()) continue;
    if (model::read_executor_loss(executor.remove_reason).exit_code == cause.exit_code) executors.insert(executor.id);
  }
}

std::string failed_attempts_list(const CauseGroup& group) {
  std::string list;
  for (size_t i = 0; i < group.stages.size(); ++i) {
    if (i == 6) return list + fmt::format(" and {} more", group.stages.size() - i);
    const auto& [stage, count] = group.stages[i];
    list += fmt::format("{}{}.{} ({})", i == 0 ? "" : ", ", stage->stage_id, stage->attempt_id, format_count(count));
  }
  return list;
}

// The application stopped while work ran: a job the SparkContext's shutdown cancelled, and
// executors lost (not scaled down) in the last kStopWindowMs before the application's end. On
// YARN or Kubernetes the cluster manager takes the containers down as the driver stops, and the
// running stage's tasks fail of it before the end is logged (NVIDIA's tasks_executors_fail log:
// two executors "Executor Process Lost" 282 and 130 ms before the end, then 50 Resubmitted, one
// ExecutorLostFailure and 2 FetchFailed on their shuffle files, and job 79 "cancelled because
// SparkContext was shut down"). Those failures are the stop's, not the job's.
constexpr int64_t kStopWindowMs = 2000;

struct StopWhileRunning {
  const model::Job* cancelled_job = nullptr;
  std::set<std::string> lost_executors;  // lost within the window
  int64_t first_loss_before_end_ms = 0;
  std::string loss_reason;  // the first lost executor's
};

std::optional<StopWhileRunning> stop_while_running(const DetectorContext& context) {
  const model::AppModel& model = context.model();
  if (!model.app.end_time_ms) return std::nullopt;
  const int64_t end = *model.app.end_time_ms;
  StopWhileRunning stop;
  for (const model::Job& job : model.jobs) {
    if (cancelled_by_shutdown(job)) {
      stop.cancelled_job = &job;
      break;
    }
  }
  if (stop.cancelled_job == nullptr) return std::nullopt;
  for (const model::Executor& e : model.executors) {
    if (e.is_driver() || !e.remove_time_ms || removed_by_scaling(e.remove_reason)) continue;
    const int64_t before_end = end - *e.remove_time_ms;
    if (before_end < 0 || before_end > kStopWindowMs) continue;
    if (stop.lost_executors.empty() || before_end > stop.first_loss_before_end_ms) {
      stop.first_loss_before_end_ms = before_end;
      stop.loss_reason = e.remove_reason;
    }
    stop.lost_executors.insert(e.id);
  }
  if (stop.lost_executors.empty()) return std::nullopt;
  return stop;
}

// A cause group the stop explains: in stages that ran into the stop (cancelled with the job, or
// ended within the window), and either tasks of the executors lost in it (ExecutorLostFailure,
// Resubmitted) or fetches of the shuffle files that went with them (FetchFailed).
bool failed_of_the_stop(const DetectorContext& context, const StopWhileRunning& stop, const CauseGroup& group) {
  const int64_t end = *context.model().app.end_time_ms;
  for (const auto& [stage, count] : group.stages) {
    if (job_cancelled_by_shutdown(context, *stage) == nullptr) return false;
    if (stage->completion_time_ms && end - *stage->completion_time_ms > kStopWindowMs) return false;
  }
  if (group.reason == "FetchFailed") return true;
  if (group.reason != "ExecutorLostFailure" && group.reason != "Resubmitted") return false;
  return !group.executors.empty() &&
         std::all_of(group.executors.begin(), group.executors.end(),
                     [&](const std::string& id) { return stop.lost_executors.count(id) > 0; });
}

// One informational entry for every failure the stop explains.
Finding stopped_while_running(const StopWhileRunning& stop, const std::vector<const CauseGroup*>& groups) {
  int64_t attempts = 0;
  std::vector<StageRef> stages;
  std::string kinds;
  for (const CauseGroup* group : groups) {
    attempts += group->attempts;
    for (const auto& [stage, count] : group->stages) stages.push_back(DetectorContext::ref(*stage));
    kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", format_count(group->attempts), group->reason);
  }
  std::sort(stages.begin(), stages.end());
  stages.erase(std::unique(stages.begin(), stages.end()), stages.end());
  const StageAttempt& first = *groups.front()->stages.front().first;
  Finding f = DetectorContext::stage_finding(first, finding_type::kFailures, finding_rule::kStoppedWhileRunning);
  const std::string where =
      stages.size() == 1 ? DetectorContext::stage_label(first) : fmt::format("{} stage attempts", stages.size());
  if (stages.size() > 1) {
    f.scope = Scope::kApp;
    f.id = DetectorContext::finding_id(f.type, f.rule, "app");
    f.sql_execution_id.reset();
  }
  f.stages = stages;
  const auto lost = static_cast<int64_t>(stop.lost_executors.size());
  f.title = fmt::format("The application was stopped while {} ran: {} task attempt{} failed as its executors went",
                        where, format_count(attempts), attempts == 1 ? "" : "s");
  f.explanation = fmt::format(
      "Job {} was cancelled: \"{}\". {} executor{} {} lost in the last {} before the application's end (\"{}\"): "
      "the cluster manager takes the executors down as the driver stops. The failed attempts that followed ({}) "
      "are the stop's, not the job's: nothing to fix in the job. If the stop was not meant (a timeout, a kill, a "
      "notebook detached), that is where to look.",
      stop.cancelled_job->job_id, short_reason(stop.cancelled_job->failure_reason), format_count(lost),
      lost == 1 ? "" : "s", lost == 1 ? "was" : "were", format_duration_ms(stop.first_loss_before_end_ms),
      short_reason(stop.loss_reason, 80), kinds);
  f.evidence = {{"failedAttempts", static_cast<double>(attempts), "count"},
                {"executorsLostAtTheEnd", static_cast<double>(lost), "count"},
                {"firstLossBeforeEndMs", static_cast<double>(stop.first_loss_before_end_ms), "ms"},
                {"stageAttempts", static_cast<double>(stages.size()), "count"}};
  f.confidence = Confidence::kHigh;
  f.band = ImpactBand::kLow;
  f.claim.kind = WasteClaim::Kind::kInformational;
  return f;
}

void failures(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const model::AppModel& model = context.model();
  const std::optional<StopWhileRunning> stop = stop_while_running(context);
  std::vector<const CauseGroup*> of_the_stop;
  std::map<std::string, CauseGroup> groups = group_by_cause(model);
  for (auto& [key, group] : groups) {
    if (stop && !group.during_shutdown && failed_of_the_stop(context, *stop, group)) {
      of_the_stop.push_back(&group);
      continue;
    }
    if (static_cast<double>(group.attempts) < t.failures_min_failed_tasks) continue;
    const model::FailureCause& cause = *group.cause;
    const StageAttempt& first = *group.stages.front().first;
    const bool one_stage = group.stages.size() == 1;
    const std::string id_detail = (group.during_shutdown ? "shutdown:" : "") + cause.key();
    Finding f = DetectorContext::stage_finding(first, finding_type::kFailures, group.reason, id_detail);
    if (!one_stage) {
      // One root cause is one finding, however many stages it struck.
      f.scope = Scope::kApp;
      f.id = DetectorContext::finding_id(f.type, f.rule, "app:" + id_detail);
      f.stages.clear();
      for (const auto& [stage, count] : group.stages) f.stages.push_back(DetectorContext::ref(*stage));
      if (std::any_of(group.stages.begin(), group.stages.end(),
                      [&](const auto& s) { return s.first->sql_execution_id != first.sql_execution_id; })) {
        f.sql_execution_id.reset();
      }
    }
    const auto stage_count = static_cast<int64_t>(group.stages.size());
    const std::string where =
        one_stage ? DetectorContext::stage_label(first) : fmt::format("{} stage attempts", format_count(stage_count));
    const std::string attempts =
        fmt::format("{} task attempt{}", format_count(group.attempts), group.attempts == 1 ? "" : "s");
    if (cause.kind == model::FailureCauseKind::kExecutorLost && cause.exit_code) {
      add_executors_removed_alike(model, cause, group.executors);
      const auto executors = static_cast<int64_t>(group.executors.size());
      // On Kubernetes an executor is lost with its pod, and the pod's word for it says why.
      const bool pods = lost_with_its_pod(cause);
      f.title = fmt::format("{} executor{}{} lost with exit code {}{}: {} failed in {}", format_count(executors),
                            pods ? " pod" : "", executors == 1 ? "" : "s", *cause.exit_code,
                            cause.pod_reason.empty() ? "" : " (" + cause.pod_reason + ")", attempts, where);
      f.explanation = fmt::format(
          "{} executor{} ended with {}; the {} running on them failed ({}), in stage "
          "attempts {}. Spark logged: \"{}\".",
          format_count(executors), executors == 1 ? "" : "s", describe_cause(cause), attempts, group.reason,
          failed_attempts_list(group), cause.message);
      f.evidence = {{"failedAttempts", static_cast<double>(group.attempts), "count"},
                    {"executorsLost", static_cast<double>(executors), "count"},
                    {"exitCode", static_cast<double>(*cause.exit_code), "code"},
                    {"stageAttempts", static_cast<double>(group.stages.size()), "count"}};
    } else if (group.during_shutdown) {
      f.title = fmt::format("{} of {} failed while the SparkContext was shutting down: {}", attempts, where,
                            short_reason(cause.summary(), 120));
      f.explanation = fmt::format(
          "{} ended with {} ({}) after the application's end was logged: SparkContext.stop() logs it first, then "
          "stops the scheduler and the executors, and the work still running fails of it. Not a bug in the task.",
          attempts, group.reason, describe_cause(cause));
      f.evidence = {{"failedAttempts", static_cast<double>(group.attempts), "count"},
                    {"stageAttempts", static_cast<double>(group.stages.size()), "count"}};
    } else {
      const std::string subject = cause.kind == model::FailureCauseKind::kUnknown ? group.reason : cause.summary();
      f.title = fmt::format("{} of {} failed: {}", attempts, where, short_reason(subject, 160));
      f.explanation = fmt::format("{} ended with {}{}{}.", attempts, group.reason,
                                  cause.kind == model::FailureCauseKind::kUnknown ? "" : ": root cause ",
                                  cause.kind == model::FailureCauseKind::kUnknown ? "" : describe_with_nesting(cause));
      // The cause is told apart by class and place, not message: say whose message is quoted.
      if (group.attempts > 1 && !cause.message.empty()) f.explanation += " The message is the first attempt's.";
      if (!one_stage)
        f.explanation += fmt::format(" Stage attempts (failed attempts): {}.", failed_attempts_list(group));
      f.evidence = {{"failedAttempts", static_cast<double>(group.attempts), "count"},
                    {"stageAttempts", static_cast<double>(group.stages.size()), "count"}};
    }
    model::FailureCause shutdown;
    shutdown.kind = model::FailureCauseKind::kShutdown;
    const FailureAdvice advice = advice_for(group.reason, group.during_shutdown ? shutdown : cause, context.version());
    add_settings(context, advice, f);
    f.thresholds = {"failures.minFailedTasks"};
    f.confidence = Confidence::kHigh;
    const bool serious = advice.out_of_memory || cause.kind == model::FailureCauseKind::kExecutorLost;
    f.band = serious && !group.during_shutdown ? ImpactBand::kMedium : ImpactBand::kLow;
    f.claim.kind = WasteClaim::Kind::kInformational;
    findings.push_back(std::move(f));
  }
  if (!of_the_stop.empty()) findings.push_back(stopped_while_running(*stop, of_the_stop));
}

void job_failure_rate(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const auto& jobs = context.model().jobs;
  if (jobs.empty()) return;
  int64_t failed = 0;
  int64_t cancelled = 0;
  double failed_duration_ms = 0;
  std::vector<std::string> examples;
  for (const model::Job& job : jobs) {
    if (job.status != model::JobStatus::kFailed) continue;
    ++failed;
    cancelled += cancelled_by_shutdown(job) ? 1 : 0;
    failed_duration_ms += static_cast<double>(job.duration_ms().value_or(0));
    if (examples.size() < 3) {
      // The cause's words, without its location: the stage findings give that.
      const std::string cause = model::read_failure_cause(job.failure_reason).summary();
      examples.push_back(fmt::format("job {} ({})", job.job_id, short_reason(cause, 160)));
    }
  }
  const double rate = static_cast<double>(failed) / static_cast<double>(jobs.size());
  if (static_cast<double>(failed) < t.job_failure_min_failed || rate < t.job_failure_min_rate) return;
  // The cost is the executors' time on the failed jobs' stages, not the jobs' wall-clock: a job
  // that failed after an hour on 100 cores lost 100 core-hours.
  double failed_task_time_ms = 0;
  for (const StageAttempt& stage : context.model().stages) {
    if (job_of_stage_failed(context, stage))
      failed_task_time_ms += static_cast<double>(stage.metric(TaskMetric::kDurationMs));
  }
  Finding f;
  f.type = finding_type::kJobFailureRate;
  f.scope = Scope::kApp;
  f.id = DetectorContext::finding_id(f.type, "", "app");
  f.title = fmt::format("{} of {} jobs failed ({}){}", format_count(failed),
                        format_count(static_cast<int64_t>(jobs.size())), format_percent(rate),
                        cancelled == 0 ? ""
                        : cancelled == failed
                            ? ", all cancelled by the SparkContext shutting down"
                            : fmt::format(", {} cancelled by the SparkContext shutting down", format_count(cancelled)));
  std::string list;
  for (const auto& e : examples) list += (list.empty() ? "" : "; ") + e;
  f.explanation = fmt::format("Failed jobs ran {} before failing: {}{}.",
                              format_duration_ms(static_cast<int64_t>(failed_duration_ms)), list,
                              failed > static_cast<int64_t>(examples.size()) ? "; ..." : "");
  f.recommendation =
      cancelled == failed
          ? "These jobs did not fail on their own: the SparkContext was stopped while they ran (spark.stop() or the "
            "end of the driver's main while another thread still ran jobs, or the driver was killed). Wait for "
            "running jobs before stopping the session, or find why the driver ended."
          : "The work of a failed job is lost and usually run again. Read the stage failures of these jobs "
            "(the stageFailed and failures findings) for the cause.";
  f.evidence = {{evidence_key::kFailedJobs, static_cast<double>(failed), "count"},
                {"jobs", static_cast<double>(jobs.size()), "count"},
                {evidence_key::kCancelledByShutdown, static_cast<double>(cancelled), "count"},
                {"failedJobTimeMs", failed_duration_ms, "ms"},
                {"failedJobTaskTimeMs", failed_task_time_ms, "ms"}};
  f.thresholds = {"jobFailureRate.minFailed", "jobFailureRate.minRate"};
  // The stage attempts that failed these jobs: where one job failed of one stage, the stageFailed
  // finding says why, and the two are one entry (same_fix.cpp).
  for (const StageAttempt& stage : context.model().stages) {
    if (failed_its_job(context, stage)) f.stages.push_back({stage.stage_id, stage.attempt_id});
  }
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

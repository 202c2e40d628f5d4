// Detectors of how the application used its wall-clock and its executors over time: coldStart,
// executorStartup, stageSlowness, utilization, autoscalingChurn.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

#include "analysis/detectors/databricks_scaling.h"
#include "analysis/detectors/detectors.h"
#include "analysis/findings/figure_words.h"
#include "analysis/findings/finding_types.h"
#include "analysis/models/capacity.h"
#include "analysis/models/time_split.h"
#include "analysis/settings/cluster_shape.h"
#include "common/units.h"
#include "model/failure_cause.h"

namespace sf::analysis {

namespace {

using model::StageAttempt;
using model::TaskMetric;
using units::format_bytes;
using units::format_count;
using units::format_duration_ms;
using units::format_percent;

// A part of a stage's run time worth pointing at (GC, fetch wait, shuffle write).
constexpr double kNotableShare = 0.2;

template <typename T>
std::optional<int64_t> earliest(const std::vector<T>& items, std::optional<int64_t> (*time_of)(const T&)) {
  std::optional<int64_t> first;
  for (const T& item : items) {
    const auto t = time_of(item);
    if (t && (!first || *t < *first)) first = t;
  }
  return first;
}

// ---------------------------------------------------------------------------------------------
// coldStart

// Less than this from the first executor to the first task is launching it, not waiting for more.
constexpr double kRegisteredResourcesWaitMs = 1000;

// Who delivers executors, and what makes them late: on Kubernetes a pod scheduled, its image
// pulled and its JVM started (and pods are asked for a batch at a time); on YARN containers the
// ResourceManager grants from the queue's free capacity; on a standalone cluster workers' free
// cores. Appends the settings that speed delivery; returns the words.
// spark.scheduler.minRegisteredResourcesRatio as the application ran. Unset, YARN's and
// Kubernetes' scheduler backends wait for 0.8 of the executors asked for, the others for none
// (their own defaults, not a table's: the table's default cannot depend on the master).
double min_registered_resources_ratio(const DetectorContext& context) {
  if (auto set = context.number_property("spark.scheduler.minRegisteredResourcesRatio")) return *set;
  const std::string master = context.property("spark.master").value_or("");
  return master.starts_with("yarn") || master.starts_with("k8s://") ? 0.8 : 0.0;
}

std::string executor_delivery_advice(const DetectorContext& context, Finding& f) {
  const std::string master = context.property("spark.master").value_or("");
  if (master.starts_with("k8s://")) {
    std::string words =
        " On Kubernetes an executor is a pod: it waits to be scheduled on a node (nodes scaling up, or none with "
        "room), for its image to be pulled, then for its JVM to start.";
    const std::string image = context.property("spark.kubernetes.executor.container.image")
                                  .value_or(context.property("spark.kubernetes.container.image").value_or(""));
    words += fmt::format(" Keep the image{} small and cached on the nodes", image.empty() ? "" : " (" + image + ")");
    const std::string pull = context.effective_value("spark.kubernetes.container.image.pullPolicy").value_or("");
    if (pull == "Always") {
      words += " (the pull policy is Always: every pod pulls it again)";
      f.settings.push_back(context.setting("spark.kubernetes.container.image.pullPolicy", "IfNotPresent"));
    }
    words +=
        ", and place executors on nodes that are up with a pod template (spark.kubernetes.executor.podTemplateFile: "
        "node selectors, tolerations) or keep spare nodes with the cluster autoscaler's overprovisioning.";
    // Pods are requested in rounds of batch.size a second (spark.kubernetes.allocation.batch.delay);
    // its default by version is the settings table's.
    const auto batch = static_cast<int64_t>(context.number_in_effect("spark.kubernetes.allocation.batch.size"));
    const int64_t wanted = std::max<int64_t>(1, context.model().peak_concurrent_executors);
    if (wanted > batch) {
      words += fmt::format(" Its {} were asked for {} pods a second (spark.kubernetes.allocation.batch.size).",
                           executors_words(wanted), format_count(batch));
      f.settings.push_back(context.raise_setting("spark.kubernetes.allocation.batch.size", std::to_string(wanted)));
    }
    return words;
  }
  if (master.starts_with("yarn")) {
    const std::string queue = context.effective_value("spark.yarn.queue").value_or("");
    return fmt::format(
        " On YARN the ResourceManager grants containers from the free capacity of the queue ({}): a full queue, or "
        "node labels few nodes carry, leave them pending. That is the cluster's scheduling capacity, not the "
        "application: a queue with guaranteed capacity, or a time the queue is free.",
        queue);
  }
  if (master.starts_with("spark://")) {
    return " On a standalone cluster executors start on workers with free cores and memory: other applications held "
           "them, or the workers had too little memory for spark.executor.memory.";
  }
  return " Look at why its container or pod was pending (an image pull, nodes scaling up, a full queue); if the "
         "cluster's queue was full, this is scheduling capacity rather than the application.";
}

void cold_start(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const model::AppModel& model = context.model();
  if (!model.app.start_time_ms) return;
  const auto first_task =
      earliest<StageAttempt>(model.stages, [](const StageAttempt& s) { return s.first_task_launched_time_ms; });
  if (!first_task) return;
  const double start = static_cast<double>(*model.app.start_time_ms);
  const double gap = static_cast<double>(*first_task) - start;
  const double app_ms = context.app_duration_ms();
  if (gap < t.cold_start_min_gap_ms || app_ms <= 0 || gap < t.cold_start_min_share * app_ms) return;

  const auto first_job = earliest<model::Job>(model.jobs, [](const model::Job& j) { return j.submission_time_ms; });
  std::optional<int64_t> first_executor;
  for (const auto& e : model.executors) {
    // The driver of a cluster-mode app runs no tasks; in local mode it is the executor.
    if (e.total_cores <= 0 || !e.add_time_ms) continue;
    if (!first_executor || *e.add_time_ms < *first_executor) first_executor = e.add_time_ms;
  }
  auto after_start = [&](std::optional<int64_t> time) {
    return time ? std::max(0.0, static_cast<double>(*time) - start) : -1.0;
  };
  const double executor_wait = after_start(first_executor);
  const double driver_wait = after_start(first_job);
  // Executors held the first task up only for as long as they came after the driver had a job for
  // them: a spark-shell whose first query was typed at 1m 42s and whose executors, asked for by
  // dynamic allocation then, came 4 s later waited for a person, not for the cluster.
  const double executor_delay = driver_wait >= 0 ? executor_wait - driver_wait : executor_wait;
  const bool waited_for_executors = executor_wait >= 0 && executor_delay >= 0.5 * gap;
  // In a shell or notebook the driver waits for someone to type the first query: not a cost.
  if (context.interactive_session() && !waited_for_executors) return;

  Finding f;
  f.type = "coldStart";
  f.scope = Scope::kApp;
  f.id = DetectorContext::finding_id(f.type, f.rule, "app");
  f.title = fmt::format("The first task started {} after the application did ({} of its run)",
                        format_duration_ms(as_int(gap)), format_percent(gap / app_ms));
  std::string timeline;
  if (executor_wait >= 0) {
    timeline +=
        fmt::format(" The first executor registered {} after the start.", format_duration_ms(as_int(executor_wait)));
  } else {
    timeline += " No executor's registration time is in the log.";
  }
  if (driver_wait >= 0) {
    timeline +=
        fmt::format(" The driver submitted its first job {} after the start.", format_duration_ms(as_int(driver_wait)));
  }
  f.explanation = fmt::format(
      "Nothing ran on the executors for the first {} of the application's {}. Before a first task can launch, the "
      "driver plans the first query (listing files, reading schemas and table metadata, building broadcasts) and "
      "the cluster manager must deliver executors.{}{}",
      format_duration_ms(as_int(gap)), format_duration_ms(as_int(app_ms)), timeline,
      executor_wait < 0      ? ""
      : waited_for_executors ? " Most of the gap was spent waiting for executors."
                             : " Most of the gap was driver-side work before the first task, not executor start-up.");
  if (waited_for_executors) {
    // YARN and Kubernetes wait for 80% of the executors (up to 30 s) before scheduling the first
    // task: that wait is the time from the first executor (and job) to the first task. A first task
    // that started as soon as both were there waited for the first executor alone.
    const double wait_for_more = gap - std::max(executor_wait, driver_wait);
    const bool waited_for_others = wait_for_more >= kRegisteredResourcesWaitMs;
    const bool dynamic = context.dynamic_allocation();
    f.recommendation = dynamic ? "Ask for the executors up front: more initial executors under dynamic allocation."
                               : "Executors were slow to arrive.";
    f.recommendation +=
        waited_for_others
            ? fmt::format(
                  " Start work with the ones that arrive: the first task waited {} after the first executor "
                  "registered, for a share of the others to register too.",
                  format_duration_ms(as_int(wait_for_more)))
            : " The first task started as soon as the first executor registered: the time went to the cluster manager "
              "delivering one.";
    f.recommendation += executor_delivery_advice(context, f);
    const auto initial = std::max(1, model.peak_concurrent_executors);
    if (dynamic) {
      f.settings.push_back(context.setting("spark.dynamicAllocation.initialExecutors", std::to_string(initial)));
    }
    if (waited_for_others && min_registered_resources_ratio(context) > 0.5) {
      f.settings.push_back(context.setting("spark.scheduler.minRegisteredResourcesRatio", "0.5"));
    }
  } else {
    f.recommendation =
        "Shorten the driver's work before the first job: prune partitions in the metastore rather than listing "
        "them all, list large directories in parallel, give readers an explicit schema instead of inferring it, and "
        "move one-off driver-side collects out of the start-up path.";
    // Spark prunes Hive partitions in the metastore by default; an application that turned it off lists them all.
    if (auto pruning = context.bool_property("spark.sql.hive.metastorePartitionPruning"); pruning && !*pruning) {
      f.settings.push_back(context.setting("spark.sql.hive.metastorePartitionPruning", "true"));
    }
  }
  f.evidence = {{"gapMs", gap, "ms"}, {"appDurationMs", app_ms, "ms"}, {"gapShare", gap / app_ms, "fraction"}};
  if (executor_wait >= 0) f.evidence.push_back({"firstExecutorAfterMs", executor_wait, "ms"});
  if (driver_wait >= 0) f.evidence.push_back({"firstJobAfterMs", driver_wait, "ms"});
  f.thresholds = {"coldStart.minGapMs", "coldStart.minShare"};
  f.confidence = std::min(context.confidence_above(gap, t.cold_start_min_gap_ms),
                          context.confidence_above(gap / app_ms, t.cold_start_min_share));
  // A gap before any task overlaps no stage: the figure stands unclipped, with no raw waste.
  f.claim.kind = WasteClaim::Kind::kSerial;
  f.claim.method = EstimateMethod::kMeasured;
  f.claim.serial_ms = gap;
  findings.push_back(std::move(f));
}

// ---------------------------------------------------------------------------------------------
// executorStartup

// An executor that took longer than expected from its request to its registration: the cores it
// would have brought, missing from when it was expected until it came.
struct LateExecutor {
  double expected_ms = 0;    // its request plus the expected start-up
  double registered_ms = 0;  // when it came
  double cores = 0;
};

// Wall-clock the late executors cost each stage while its tasks waited for slots (from its
// submission to its last first-attempt launch): at each moment the share of the cores it could
// have had that were still starting, missing / (held + missing). A stage that waits with 90 of its
// 100 cores runs about a tenth slower for it, and one that waits with none does not run at all.
std::map<StageRef, double> startup_cost_ms(const DetectorContext& context, const std::vector<LateExecutor>& late) {
  const model::AppModel& model = context.model();
  struct Held {
    double from, to, cores;
  };
  std::vector<Held> held;
  for (const model::Executor& e : model.executors) {
    if (e.is_driver() || e.total_cores <= 0 || !e.add_time_ms) continue;
    const double to = e.remove_time_ms ? static_cast<double>(*e.remove_time_ms) : std::numeric_limits<double>::max();
    held.push_back({static_cast<double>(*e.add_time_ms), to, static_cast<double>(e.total_cores)});
  }
  std::map<StageRef, double> cost;
  for (const StageAttempt* stage : context.ran_stages()) {
    if (!stage->submission_time_ms || !stage->last_regular_launch_time_ms) continue;
    const double from = static_cast<double>(*stage->submission_time_ms);
    const double to = static_cast<double>(*stage->last_regular_launch_time_ms);
    if (to <= from) continue;
    // The moments the share changes inside the stage's wait; it is constant between them.
    std::vector<double> cuts = {from, to};
    for (const LateExecutor& l : late) {
      for (double t : {l.expected_ms, l.registered_ms}) {
        if (t > from && t < to) cuts.push_back(t);
      }
    }
    for (const Held& h : held) {
      for (double t : {h.from, h.to}) {
        if (t > from && t < to) cuts.push_back(t);
      }
    }
    std::sort(cuts.begin(), cuts.end());
    double ms = 0;
    for (size_t i = 0; i + 1 < cuts.size(); ++i) {
      const double mid = (cuts[i] + cuts[i + 1]) / 2;
      double missing = 0;
      double present = 0;
      for (const LateExecutor& l : late) missing += l.expected_ms <= mid && mid < l.registered_ms ? l.cores : 0;
      if (missing <= 0) continue;
      for (const Held& h : held) present += h.from <= mid && mid < h.to ? h.cores : 0;
      ms += (cuts[i + 1] - cuts[i]) * missing / (missing + present);
    }
    if (ms > 0) cost[DetectorContext::ref(*stage)] = ms;
  }
  return cost;
}

// Executor pods slow to start on Kubernetes, measured from the times Spark 3.4+ logs for an
// executor asked for through dynamic allocation or requestExecutors (static allocation's initial
// executors carry no request time: coldStart covers them).
void executor_startup(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  if (!context.property("spark.master").value_or("").starts_with("k8s://")) return;
  std::vector<double> latencies;
  std::vector<LateExecutor> late;
  for (const model::Executor& e : context.model().executors) {
    const auto latency = e.startup_latency_ms();
    if (e.is_driver() || !latency) continue;
    latencies.push_back(static_cast<double>(*latency));
    const double expected = static_cast<double>(*e.request_time_ms) + t.startup_expected_ms;
    if (static_cast<double>(*e.registration_time_ms) > expected) {
      late.push_back({expected, static_cast<double>(*e.registration_time_ms), static_cast<double>(e.total_cores)});
    }
  }
  if (late.empty()) return;
  const std::map<StageRef, double> cost = startup_cost_ms(context, late);
  double waste = 0;
  for (const auto& [ref, ms] : cost) waste += ms;
  if (!context.significant_ms(waste, t.startup_min_waste_ms)) return;

  std::sort(latencies.begin(), latencies.end());
  const double median = latencies[latencies.size() / 2];
  const double slowest = latencies.back();
  Finding f;
  f.type = finding_type::kExecutorStartup;
  f.scope = Scope::kApp;
  f.id = DetectorContext::finding_id(f.type, f.rule, "app");
  f.title = fmt::format("Executor pods took {} (median) from request to registration while stages waited for them",
                        duration_text(median));
  f.explanation = fmt::format(
      "Of {} executors the log says when each was asked for and when it registered, {} took longer than {}; the "
      "median took {}, the slowest {}. While they started, stages had tasks waiting for a slot: the cores still "
      "starting, as a share of those the stages could have had, cost them about {} of wall-clock.",
      format_count(static_cast<int64_t>(latencies.size())), format_count(static_cast<int64_t>(late.size())),
      duration_text(t.startup_expected_ms), duration_text(median), duration_text(slowest), duration_text(waste));
  f.recommendation =
      "Make executor pods start faster. The log cannot say where the time went between the request and the "
      "registration: the pod waiting to be scheduled (no node with room, the cluster autoscaler adding one, a "
      "quota), its image being pulled, or its JVM starting; the pods' events (kubectl get events: Scheduled, "
      "Pulling, Pulled, Started) tell them apart.";
  f.recommendation += executor_delivery_advice(context, f);
  f.evidence = {{"executorsWithRequestTime", static_cast<double>(latencies.size()), "count"},
                {"lateExecutors", static_cast<double>(late.size()), "count"},
                {"medianStartupMs", median, "ms"},
                {"slowestStartupMs", slowest, "ms"},
                {"waitingStagesCostMs", waste, "ms"}};
  f.thresholds = {"executorStartup.expectedMs", "executorStartup.minWasteMs", "significance.appShare"};
  f.confidence = context.confidence_above(waste, context.significance_floor_ms(t.startup_min_waste_ms));
  f.validation_caveat =
      "The cost assumes the waiting stages had tasks for every core that was starting; a stage that waited for "
      "locality rather than a slot is counted as waiting too.";
  f.claim.kind = WasteClaim::Kind::kStages;
  f.claim.method = EstimateMethod::kModeled;
  for (const auto& [ref, ms] : cost) {
    f.claim.stages.push_back({ref, ms});
    f.stages.push_back(ref);
  }
  f.claim.raw = RawWaste{waste, WasteUnit::kMs};
  findings.push_back(std::move(f));
}

// ---------------------------------------------------------------------------------------------
// stageSlowness

// Where a stage's executor time went, largest first, as shares of its executor run time.
std::vector<std::pair<std::string, double>> time_profile(const StageAttempt& stage) {
  const double run = static_cast<double>(stage.metric(TaskMetric::kExecutorRunTimeMs));
  if (run <= 0) return {};
  std::vector<std::pair<std::string, double>> parts = {
      {"CPU", static_cast<double>(stage.metric(TaskMetric::kExecutorCpuTimeNs)) / 1e6 / run},
      {"garbage collection", static_cast<double>(stage.metric(TaskMetric::kJvmGcTimeMs)) / run},
      {"waiting for shuffle fetches", static_cast<double>(stage.metric(TaskMetric::kShuffleFetchWaitTimeMs)) / run},
      {"writing shuffle output", static_cast<double>(stage.metric(TaskMetric::kShuffleWriteTimeNs)) / 1e6 / run},
  };
  std::erase_if(parts, [](const auto& p) { return !(p.second > 0); });
  std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return parts;
}

std::string profile_words(const StageAttempt& stage) {
  std::string words;
  for (const auto& [what, share] : time_profile(stage)) {
    words += fmt::format("{}{} {}", words.empty() ? "" : ", ", what, format_percent(std::min(share, 1.0)));
  }
  return words.empty() ? "" : " Of its executor run time: " + words + ".";
}

std::string data_words(const StageAttempt& stage) {
  std::vector<std::pair<const char*, int64_t>> data = {
      {"read as input", stage.metric(TaskMetric::kInputBytes)},
      {"read from shuffle", stage.shuffle_read_bytes()},
      {"written to shuffle", stage.metric(TaskMetric::kShuffleWriteBytes)},
      {"written as output", stage.metric(TaskMetric::kOutputBytes)},
      {"spilled to disk", stage.metric(TaskMetric::kDiskBytesSpilled)},
  };
  std::string words;
  for (const auto& [what, bytes] : data) {
    if (bytes > 0) words += fmt::format("{}{} {}", words.empty() ? "" : ", ", format_bytes(bytes), what);
  }
  return words.empty() ? "" : " It moved " + words + ".";
}

// What to look at first, from the stage's largest cost.
std::string slowness_pointer(const DetectorContext& context, const StageAttempt& stage) {
  const auto& duration = stage.quantile(model::QuantileMetric::kDurationMs);
  if (stage.num_tasks > 0 && stage.num_tasks < std::round(context.reshape_cores(stage))) {
    return fmt::format("It ran {} {}: more partitions would let it use the cluster (see stageShape).",
                       units::format_counted(stage.num_tasks, "task"), context.stage_cores_words(stage));
  }
  if (duration.p50 > 0 && duration.max >= 3 * duration.p50) {
    return fmt::format("Its longest task ran {} against a median of {}: look at skew and stragglers first.",
                       format_duration_ms(duration.max), format_duration_ms(duration.p50));
  }
  // The largest cost that is not computation, when it is a real part of the run time.
  for (const auto& [what, share] : time_profile(stage)) {
    if (what == "CPU") continue;
    if (share >= kNotableShare) {
      return fmt::format("{} of its run time went to {}: see the gc, shuffle and spill findings for this stage.",
                         format_percent(std::min(share, 1.0)), what);
    }
    break;
  }
  return "No single cost (GC, shuffle waits, a straggler, too few tasks) stands out: speeding it up means less work "
         "(filter and prune earlier, avoid UDFs that block code generation) or more cores.";
}

void stage_slowness(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const double app_ms = context.app_duration_ms();
  if (app_ms <= 0) return;
  for (const StageAttempt* stage : context.ran_stages()) {
    const double duration = context.occupancy(*stage).duration_ms;
    if (duration < t.stage_min_duration_ms || duration < t.stage_slowness_info_min_ms ||
        duration < t.stage_slowness_min_app_share * app_ms) {
      continue;
    }
    const double waste = duration - t.stage_slowness_info_min_ms;
    const auto& task_duration = stage->quantile(model::QuantileMetric::kDurationMs);
    Finding f = DetectorContext::stage_finding(*stage, finding_type::kStageSlowness);
    f.title = fmt::format("{} ran {}, {} of the application", DetectorContext::stage_label(*stage),
                          format_duration_ms(as_int(duration)), format_percent(duration / app_ms));
    f.explanation = fmt::format(
        "This one stage ran {} of the application's {}. It had {} tasks (median {}, longest {}) and {} of executor "
        "run time.{}{}",
        format_duration_ms(as_int(duration)), format_duration_ms(as_int(app_ms)), format_count(stage->num_tasks),
        format_duration_ms(task_duration.p50), format_duration_ms(task_duration.max),
        format_duration_ms(stage->metric(TaskMetric::kExecutorRunTimeMs)), profile_words(*stage), data_words(*stage));
    f.recommendation = "This is where the application's time goes; tune it first. " + slowness_pointer(context, *stage);
    f.evidence = {{"stageDurationMs", duration, "ms"},
                  {"appShare", duration / app_ms, "fraction"},
                  {"tasks", static_cast<double>(stage->num_tasks), "count"},
                  {"executorRunTimeMs", static_cast<double>(stage->metric(TaskMetric::kExecutorRunTimeMs)), "ms"},
                  {"medianTaskMs", static_cast<double>(task_duration.p50), "ms"},
                  {"maxTaskMs", static_cast<double>(task_duration.max), "ms"}};
    f.thresholds = {"stageSlowness.infoMinMs", "stageSlowness.minAppShare", "stage.minDurationMs"};
    f.confidence = std::min(context.confidence_above(duration, t.stage_slowness_info_min_ms),
                            context.confidence_above(duration / app_ms, t.stage_slowness_min_app_share));
    f.validation_caveat =
        "The figure is the stage's time past the slowness threshold, an upper bound on what tuning it could save, "
        "not a measured waste.";
    f.claim.kind = WasteClaim::Kind::kStages;
    f.claim.method = EstimateMethod::kModeled;
    f.claim.stages = {{DetectorContext::ref(*stage), waste}};
    f.claim.raw = RawWaste{waste, WasteUnit::kMs};
    findings.push_back(std::move(f));
  }
}

// ---------------------------------------------------------------------------------------------
// utilization

// Idle core time while no job ran, at least this share of the idle: executors held for the
// driver's own time are an allocation question; idle inside jobs is the stages' shape.
constexpr double kMostlyOutsideJobs = 0.5;

// What dynamic allocation keeps when nothing runs: an executor is released after its idle timeout,
// one with cached blocks after cachedExecutorIdleTimeout (default: never), one holding shuffle
// files under shuffle tracking after shuffleTracking.timeout (default: never).
void dynamic_allocation_release_advice(const DetectorContext& context, Finding& f, int64_t busy_executors) {
  const double idle_timeout_ms = context.number_in_effect("spark.dynamicAllocation.executorIdleTimeout");
  f.recommendation += fmt::format(
      " Dynamic allocation is on: an executor goes after {} idle{}.", format_duration_ms(as_int(idle_timeout_ms)),
      idle_timeout_ms > 30000 ? "; a shorter idle timeout returns executors between the jobs" : "");
  if (idle_timeout_ms > 30000)
    f.settings.push_back(context.lower_setting("spark.dynamicAllocation.executorIdleTimeout", "30s"));
  bool caches = false;
  for (const auto& [id, rdd] : context.model().rdds) caches = caches || rdd.num_cached_partitions > 0;
  if (caches && !context.property("spark.dynamicAllocation.cachedExecutorIdleTimeout")) {
    f.recommendation +=
        " The application caches data, and an executor holding cached blocks is never released unless "
        "spark.dynamicAllocation.cachedExecutorIdleTimeout says when (unpersist what is no longer needed).";
    f.settings.push_back(context.setting("spark.dynamicAllocation.cachedExecutorIdleTimeout", "10min"));
  }
  if (context.bool_property("spark.dynamicAllocation.shuffleTracking.enabled").value_or(false) &&
      !context.property("spark.dynamicAllocation.shuffleTracking.timeout")) {
    f.recommendation +=
        " Shuffle tracking keeps every executor that holds shuffle files of a live job until "
        "spark.dynamicAllocation.shuffleTracking.timeout, which is unset (never).";
    f.settings.push_back(context.setting("spark.dynamicAllocation.shuffleTracking.timeout", "30min"));
  }
  // A floor above what the work kept busy holds executors dynamic allocation would release.
  const auto floor = context.number_property("spark.dynamicAllocation.minExecutors");
  if (floor && *floor > static_cast<double>(busy_executors)) {
    f.recommendation += fmt::format(" Its floor of {} is above the {} the work kept busy on average.",
                                    executors_words(as_int(*floor)), format_count(busy_executors));
    f.settings.push_back(context.lower_setting("spark.dynamicAllocation.minExecutors", std::to_string(busy_executors)));
  }
}

void utilization(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const model::AppModel& model = context.model();
  const double app_ms = context.app_duration_ms();
  if (app_ms <= 0 || app_ms < t.utilization_min_app_duration_ms) return;
  const std::optional<CoreCapacity> capacity = core_capacity(model);
  if (!capacity) return;
  const double fraction = capacity->busy_fraction();
  if (fraction > t.utilization_min_fraction) return;
  const ClusterShape shape = cluster_shape(model);
  const double cores_per_executor = std::max(1, shape.cores_per_executor);
  const double idle_core_hours = capacity->idle_core_ms() / 3.6e6;
  const double held_core_hours = capacity->held_core_ms / 3.6e6;
  const double idle_gib_hours = idle_core_hours / cores_per_executor * shape.executor_memory_gib;
  const double outside_share = capacity->held_outside_jobs_core_ms / std::max(1.0, capacity->idle_core_ms());
  const bool mostly_outside_jobs = outside_share >= kMostlyOutsideJobs;
  const double busy_executors = capacity->task_core_ms / capacity->run_ms / cores_per_executor;
  const auto average_busy = std::max<int64_t>(1, static_cast<int64_t>(std::floor(busy_executors)));
  // With the same work and run time, this many executors would keep utilization at the threshold.
  const auto static_executors = std::max<int64_t>(
      1, static_cast<int64_t>(std::floor(busy_executors / std::max(t.utilization_min_fraction, 1e-9))));
  const auto peak_executors = static_cast<int64_t>(std::max(1, model.peak_concurrent_executors));

  Finding f;
  f.type = finding_type::kUtilization;
  f.scope = Scope::kApp;
  f.id = DetectorContext::finding_id(f.type, f.rule, "app");
  f.title = fmt::format("Tasks used {} of the {:.2f} core-hours the executors held", format_percent(fraction),
                        held_core_hours);
  f.explanation = fmt::format(
      "Over the application's {}, its executors held {:.2f} core-hours ({}{} cores at the peak); tasks ran {} of "
      "them, {}. Of the {:.2f} idle core-hours (with about {:.1f} GiB-hours of executor memory), {} passed while no "
      "job ran (the driver worked alone, or nothing did) and {} while jobs ran with fewer tasks than cores.",
      format_duration_ms(as_int(app_ms)), held_core_hours,
      capacity->from_executor_timeline ? "" : "the log gives no executor timeline, so the peak of ",
      format_count(model.peak_concurrent_cores), format_duration_ms(as_int(capacity->task_core_ms)),
      format_percent(fraction), idle_core_hours, idle_gib_hours, format_percent(std::min(1.0, outside_share)),
      format_percent(std::max(0.0, 1.0 - outside_share)));
  f.recommendation =
      mostly_outside_jobs
          ? "Most idle core time passed while no job ran: executors were kept while the driver worked alone."
          : "Most idle core time passed while jobs ran: their stages had fewer tasks than the cores held, or waited "
            "on a few long tasks (see the stageShape, skew and straggler findings), so fewer executors would do "
            "the same work almost as fast.";
  if (context.databricks()) {
    f.recommendation += " " + databricks_scaling_advice(average_busy, peak_executors);
  } else if (context.local_master()) {
    f.recommendation += " In local mode the cores are the driver's machine's: run with fewer (local[N]).";
  } else if (context.dynamic_allocation()) {
    dynamic_allocation_release_advice(context, f, average_busy);
  } else {
    f.recommendation += fmt::format(
        " Let the executor count follow the work with dynamic allocation (a floor of {}, the average busy, and up "
        "to {} for the busiest stages), or with static allocation run about {}, which would keep the same work at "
        "least {} busy; stages that need more parallelism will then take longer.",
        executors_words(average_busy), format_count(peak_executors), executors_words(static_executors),
        format_percent(t.utilization_min_fraction));
    f.settings = {context.setting("spark.dynamicAllocation.enabled", "true"),
                  context.setting("spark.dynamicAllocation.maxExecutors", std::to_string(peak_executors)),
                  context.lower_setting("spark.executor.instances", std::to_string(static_executors))};
  }
  f.evidence = {{"utilizationFraction", fraction, "fraction"},
                {"taskTimeMs", capacity->task_core_ms, "ms"},
                {"heldCoreHours", held_core_hours, "coreHours"},
                {"idleCoreHours", idle_core_hours, "coreHours"},
                {"idleOutsideJobsShare", std::min(1.0, outside_share), "fraction"},
                {"idleGiBHours", idle_gib_hours, "gibHours"},
                {"peakCores", static_cast<double>(model.peak_concurrent_cores), "count"},
                {"peakExecutors", static_cast<double>(peak_executors), "count"},
                {"appDurationMs", app_ms, "ms"}};
  f.thresholds = {"utilization.minFraction", "utilization.minAppDurationMs"};
  f.confidence = context.confidence_below(fraction, t.utilization_min_fraction);
  if (!capacity->from_executor_timeline) {
    f.validation_caveat =
        "The log gives no executor timeline: capacity is the peak cores over the whole run, an upper bound.";
  }
  if (context.interactive_session()) {
    f.explanation +=
        " This is an interactive session (a shell or notebook): most idle time is a person reading and typing.";
    if (!context.databricks() && !context.dynamic_allocation() && !context.local_master()) {
      f.recommendation +=
          " For interactive sessions, dynamic allocation with a short idle timeout returns executors while nobody "
          "is running anything.";
    }
  }
  f.claim.kind = WasteClaim::Kind::kResourceOnly;
  f.claim.method = EstimateMethod::kMeasured;
  f.claim.raw = RawWaste{idle_core_hours, WasteUnit::kCoreHours};
  findings.push_back(std::move(f));
}

// ---------------------------------------------------------------------------------------------
// autoscalingChurn

// A stage that waited for executors dynamic allocation had to ask for anew: when its first task
// started, every executor alive that could have taken it had been added after the stage was
// submitted, and dynamic allocation had scaled an executor down before then. Had the removed
// executors been kept, the stage's tasks would have started at once; its wait from submission to
// the first task is the churn's wall-clock. A stage that waited while older executors were busy
// waited for slots, not for executors, and is not counted.
//
// An older executor alive but idle through the whole wait, and removed by scaling afterwards, was
// on its way out: dynamic allocation had already asked for it to go (a stage's tasks are never
// placed on such an executor), but its removal reached the log only when its process ended, which
// can take seconds (6 to 7 s in a real Spark 4.3 log on a loaded two-core machine, where the next
// stage was submitted in between). It counts as scaled down, not as a free slot.
struct WaitForExecutors {
  const StageAttempt* stage = nullptr;
  double wait_ms = 0;
};

// When each executor ran tasks: the windows (first task to completion) of the stages it ran in.
// Built once, so asking about every stage and executor of a long dynamic-allocation run stays a
// binary search, not a walk over every stage.
class BusyWindows {
 public:
  explicit BusyWindows(const model::AppModel& model) {
    for (const StageAttempt& stage : model.stages) {
      if (!stage.first_task_launched_time_ms) continue;
      const int64_t start = *stage.first_task_launched_time_ms;
      const int64_t end = stage.completion_time_ms.value_or(std::numeric_limits<int64_t>::max());
      for (const auto& e : stage.executors) by_executor_[e.executor_id].push_back({start, end});
    }
    for (auto& [id, windows] : by_executor_) {
      std::sort(windows.begin(), windows.end());
      for (size_t i = 1; i < windows.size(); ++i) {
        windows[i].latest_end = std::max(windows[i].end, windows[i - 1].latest_end);
      }
    }
  }

  // Whether executor `id` ran a task of a stage whose window overlaps (from, to). The stage that
  // starts at `to` (the one waiting) does not.
  bool busy_between(const std::string& id, int64_t from, int64_t to) const {
    auto it = by_executor_.find(id);
    if (it == by_executor_.end()) return false;
    const std::vector<Window>& windows = it->second;
    // The windows that start before `to`; one of them overlaps when the latest end among them is after `from`.
    const auto starts_before =
        std::partition_point(windows.begin(), windows.end(), [&](const Window& w) { return w.start < to; });
    return starts_before != windows.begin() && std::prev(starts_before)->latest_end > from;
  }

 private:
  struct Window {
    Window(int64_t s, int64_t e) : start(s), end(e), latest_end(e) {}
    int64_t start, end;
    int64_t latest_end;  // the latest end of this window and those before it
    bool operator<(const Window& other) const { return start < other.start; }
  };
  std::unordered_map<std::string, std::vector<Window>> by_executor_;
};

std::vector<WaitForExecutors> waits_for_new_executors(const DetectorContext& context) {
  const model::AppModel& model = context.model();
  const BusyWindows busy(model);
  std::vector<WaitForExecutors> waits;
  for (const StageAttempt* stage : context.ran_stages()) {
    if (!stage->submission_time_ms || !stage->first_task_launched_time_ms) continue;
    const int64_t submitted = *stage->submission_time_ms;
    const int64_t first_task = *stage->first_task_launched_time_ms;
    if (first_task <= submitted) continue;
    bool any_new_alive = false;
    bool old_one_could_run = false;
    bool scaled_down_before = false;
    for (const auto& e : model.executors) {
      if (e.is_driver() || e.total_cores <= 0 || !e.add_time_ms) continue;
      const bool removed_by_dynamic_allocation = e.remove_time_ms && removed_by_scaling(e.remove_reason);
      if (e.remove_time_ms && *e.remove_time_ms <= first_task) {
        scaled_down_before = scaled_down_before || removed_by_dynamic_allocation;
        continue;
      }
      if (*e.add_time_ms > first_task) continue;
      if (*e.add_time_ms > submitted) {
        any_new_alive = true;
      } else if (removed_by_dynamic_allocation && !busy.busy_between(e.id, submitted, first_task)) {
        scaled_down_before = true;  // on its way out: see above
      } else {
        old_one_could_run = true;  // the stage waited for its slots: nothing more to learn here
        break;
      }
    }
    if (any_new_alive && !old_one_could_run && scaled_down_before) {
      waits.push_back({stage, static_cast<double>(first_task - submitted)});
    }
  }
  return waits;
}

void autoscaling_churn(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const model::AppModel& model = context.model();
  int64_t short_lived = 0;
  int64_t short_lived_without_tasks = 0;
  double short_lifetimes_ms = 0;
  double all_lifetimes_ms = 0;
  int64_t scaled_down_count = 0;
  int64_t died_with_exit_code = 0;
  std::map<std::string, int64_t> reasons;
  for (const auto& e : model.executors) {
    if (e.is_driver() || !e.add_time_ms) continue;
    const int64_t end = e.remove_time_ms.value_or(model.app.start_time_ms.value_or(*e.add_time_ms) +
                                                  model.app.duration_ms().value_or(0));
    const double lifetime = static_cast<double>(std::max<int64_t>(0, end - *e.add_time_ms));
    all_lifetimes_ms += lifetime;
    if (!e.remove_time_ms || lifetime >= t.churn_max_lifetime_ms) continue;
    ++short_lived;
    short_lived_without_tasks += e.tasks_total == 0 ? 1 : 0;
    short_lifetimes_ms += lifetime;
    ++reasons[e.remove_reason.empty() ? "no reason logged" : e.remove_reason.substr(0, 80)];
    scaled_down_count += removed_by_scaling(e.remove_reason) ? 1 : 0;
    died_with_exit_code += model::read_executor_loss(e.remove_reason).exit_code ? 1 : 0;
  }
  if (short_lived == 0 || static_cast<double>(short_lived) < t.churn_min_short_lived) return;
  // Churn is dynamic allocation's doing only when it removed most of them; otherwise they were lost.
  const bool churned_by_scaling = context.dynamic_allocation() && 2 * scaled_down_count >= short_lived;
  // Executors whose processes exited with a code are one root cause the failures finding reports
  // with their count, exit code and the tasks they took down: not a second finding here.
  if (!churned_by_scaling && died_with_exit_code == short_lived) return;
  const double startup_core_hours = static_cast<double>(short_lived) * t.executor_startup_overhead_ms / 3.6e6;
  const double app_ms = context.app_duration_ms();
  std::vector<std::pair<std::string, int64_t>> by_count(reasons.begin(), reasons.end());
  std::stable_sort(by_count.begin(), by_count.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string reason_words;
  for (size_t i = 0; i < by_count.size() && i < 3; ++i) {
    reason_words += fmt::format("{}{} x \"{}\"", i == 0 ? "" : "; ", by_count[i].second, by_count[i].first);
  }

  Finding f;
  f.type = "autoscalingChurn";
  f.scope = Scope::kApp;
  f.id = DetectorContext::finding_id(f.type, f.rule, "app");
  f.title = fmt::format("{} executors were removed less than {} after they were added", format_count(short_lived),
                        format_duration_ms(as_int(t.churn_max_lifetime_ms)));
  f.explanation = fmt::format(
      "{} executors lived {} on average before being removed (reasons: {}). Each one paid its start-up (container, "
      "JVM, registration, warming caches) for little work: about {} of core time each, {:.2f} core-hours in all.",
      format_count(short_lived), format_duration_ms(as_int(short_lifetimes_ms / static_cast<double>(short_lived))),
      reason_words, format_duration_ms(as_int(t.executor_startup_overhead_ms)), startup_core_hours);
  const std::vector<WaitForExecutors> waits =
      churned_by_scaling ? waits_for_new_executors(context) : std::vector<WaitForExecutors>{};
  double wait_ms = 0;
  for (const auto& w : waits) wait_ms += w.wait_ms;
  if (!waits.empty()) {
    f.explanation += fmt::format(
        " Then work came back: {} waited {} in all for executors asked for anew (no task started before an "
        "executor added after the stage was submitted).",
        waits.size() == 1 ? "one stage" : fmt::format("{} stages", waits.size()), format_duration_ms(as_int(wait_ms)));
  }
  if (churned_by_scaling) {
    // The timeout in effect: the application's, else its Spark's default.
    const double idle_timeout_s = context.number_in_effect("spark.dynamicAllocation.executorIdleTimeout") / 1000.0;
    const double suggested_timeout_s = std::max(2 * idle_timeout_s, std::ceil(t.churn_max_lifetime_ms / 1000.0));
    // Keep warm the executors the application held on average.
    const auto average_fleet =
        app_ms > 0 ? std::max<int64_t>(1, static_cast<int64_t>(std::floor(all_lifetimes_ms / app_ms))) : int64_t{1};
    // Executors that ran no task at all arrived after the burst of tasks they were asked for: the
    // backlog timeout asked too soon. Executors that worked and then sat idle were removed too soon.
    const bool requested_too_soon = 2 * short_lived_without_tasks >= short_lived;
    f.recommendation = fmt::format(
        "Keep executors long enough to reuse them: a longer idle timeout ({}s) and a floor of {} (the average the "
        "application held){}.",
        as_int(suggested_timeout_s), executors_words(average_fleet),
        requested_too_soon ? ", and a longer backlog timeout: most of these executors ran no task, so the burst "
                             "they were asked for was over before they came"
                           : "");
    f.settings = {context.raise_setting("spark.dynamicAllocation.executorIdleTimeout",
                                        fmt::format("{}s", as_int(suggested_timeout_s))),
                  context.raise_setting("spark.dynamicAllocation.minExecutors", std::to_string(average_fleet))};
    if (requested_too_soon) {
      f.settings.push_back(context.raise_setting("spark.dynamicAllocation.schedulerBacklogTimeout", "5s"));
    }
  } else {
    // Nothing scaled these executors down: they were lost or killed and replaced.
    f.recommendation = fmt::format(
        "{} Read the removal reasons above and the failures findings; memory-limit kills call for more memory "
        "overhead, preemption for a different queue.",
        context.dynamic_allocation()
            ? "Most of these executors were lost or killed and replaced, not scaled away by dynamic allocation."
            : "Dynamic allocation is off, so these executors were lost or killed and replaced, not scaled away.");
  }
  f.evidence = {{"shortLivedExecutors", static_cast<double>(short_lived), "count"},
                {"shortLivedWithoutTasks", static_cast<double>(short_lived_without_tasks), "count"},
                {"meanShortLifetimeMs", short_lifetimes_ms / static_cast<double>(short_lived), "ms"},
                {"executorStartupOverheadMs", t.executor_startup_overhead_ms, "ms"},
                {"startupCoreHours", startup_core_hours, "coreHours"},
                {"stagesWaitingForExecutors", static_cast<double>(waits.size()), "count"},
                {"waitForExecutorsMs", wait_ms, "ms"}};
  f.thresholds = {"autoscalingChurn.maxLifetimeMs", "autoscalingChurn.minShortLived",
                  "impact.executorStartupOverheadMs"};
  f.confidence = context.confidence_above(static_cast<double>(short_lived), t.churn_min_short_lived);
  if (waits.empty()) {
    // No work waited for the executors: what the churn cost is their start-up, in core time.
    f.validation_caveat = "The start-up cost per executor is an assumed constant (impact.executorStartupOverheadMs).";
    f.claim.kind = WasteClaim::Kind::kResourceOnly;
    f.claim.method = EstimateMethod::kModeled;
    f.claim.raw = RawWaste{startup_core_hours, WasteUnit::kCoreHours};
  } else {
    // Work waited for executors: the waits are measured wall-clock, each stage's floor its
    // duration without its wait.
    f.validation_caveat =
        "A stage's wait counts when every executor alive at its first task had been added after it was submitted; "
        "part of a wait may be executors the cluster could not give sooner.";
    f.claim.kind = WasteClaim::Kind::kStages;
    f.claim.method = EstimateMethod::kMeasured;
    for (const auto& w : waits) {
      const double duration = context.occupancy(*w.stage).duration_ms;
      f.stages.push_back(DetectorContext::ref(*w.stage));
      f.claim.stages.push_back({DetectorContext::ref(*w.stage), w.wait_ms, false, std::max(0.0, duration - w.wait_ms)});
    }
    f.claim.raw = RawWaste{wait_ms, WasteUnit::kMs};
  }
  findings.push_back(std::move(f));
}

}  // namespace

// --- driverTime ------------------------------------------------------------------------------

namespace {

// Whether the job that ended last failed (the application ended on a failure).
bool last_job_failed(const model::AppModel& model) {
  const model::Job* last = nullptr;
  for (const model::Job& job : model.jobs) {
    if (job.completion_time_ms && (last == nullptr || *job.completion_time_ms >= *last->completion_time_ms))
      last = &job;
  }
  return last != nullptr && last->status == model::JobStatus::kFailed;
}

}  // namespace

void driver_time(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  // In a shell or notebook the time between queries is someone reading and typing.
  if (context.interactive_session()) return;
  const std::optional<WindowSplit> split = app_time_split(context.model());
  const std::optional<WindowSplit> own_code = driver_code_split(context.model());
  // Without a job the split says nothing of the driver's work between jobs.
  if (!split || !own_code || split->duration_ms <= 0 || split->inside_ms <= 0) return;
  // Before the first job is coldStart's. After it, the time with no job running is the driver's,
  // but only the part with no SQL execution in flight either is its own code, which the advice is
  // about: inside an execution it is Spark planning, broadcasting or waiting on a subquery. And
  // after a last job that failed the driver is handling the failure and stopping, which no
  // change to its code recovers (the failure's finding owns that run).
  const bool ended_on_failure = last_job_failed(context.model());
  const double after_ms = ended_on_failure ? 0 : own_code->after_last_ms;
  const double driver_ms = own_code->between_ms + after_ms;
  const double in_queries_ms =
      std::max(0.0, split->between_ms + split->after_last_ms - own_code->between_ms - own_code->after_last_ms);
  const double share = driver_ms / split->duration_ms;
  if (share < t.driver_time_min_share || !context.significant_ms(driver_ms, t.driver_time_min_ms)) return;

  Finding f;
  f.type = "driverTime";
  f.rule = "outsideJobs";
  f.scope = Scope::kApp;
  f.id = DetectorContext::finding_id(f.type, f.rule, "app");
  f.title = fmt::format("No job or query ran for {} of the application's {} ({}): the driver ran its own code alone",
                        format_duration_ms(as_int(driver_ms)), format_duration_ms(as_int(split->duration_ms)),
                        format_percent(share));
  f.explanation = fmt::format(
      "Of the application's {}, {} passed before the first job, {} with a job running, {} between jobs ({} gap{} of "
      "a second or more, the longest {}) and {} after the last one{}. Of the time outside jobs after the first, {} "
      "passed inside SQL executions (Spark planning a query, broadcasting, waiting on a subquery) or while a streaming "
      "query waited for its next batch, and is not counted here; the rest the driver spent on its own code while the "
      "executors waited.",
      format_duration_ms(as_int(split->duration_ms)), format_duration_ms(as_int(split->before_first_ms)),
      format_duration_ms(as_int(split->inside_ms)), format_duration_ms(as_int(split->between_ms)),
      split->gaps_over_one_second, split->gaps_over_one_second == 1 ? "" : "s",
      format_duration_ms(as_int(split->longest_gap_ms)), format_duration_ms(as_int(split->after_last_ms)),
      ended_on_failure ? " (not counted: the last job failed, and the driver was handling that)" : "",
      format_duration_ms(as_int(in_queries_ms)));
  f.recommendation =
      "Find what the driver does between the jobs: results collected to the driver and processed in Python or Scala "
      "(collect(), toPandas(), a loop over rows), small jobs submitted one after another, waits or calls to other "
      "services. Do the work in Spark instead (a join or aggregation rather than a loop over collected rows), run "
      "independent jobs concurrently from threads, and keep the driver's own work off the path between jobs.";
  f.evidence = {{"appDurationMs", split->duration_ms, "ms"},
                {"beforeFirstJobMs", split->before_first_ms, "ms"},
                {"inJobsMs", split->inside_ms, "ms"},
                {"betweenJobsMs", split->between_ms, "ms"},
                {"afterLastJobMs", split->after_last_ms, "ms"},
                {"inQueriesNoJobMs", in_queries_ms, "ms"},
                {"driverOwnCodeMs", driver_ms, "ms"},
                {"gapsOverOneSecond", static_cast<double>(split->gaps_over_one_second), "count"},
                {"driverOnlyShare", share, "fraction"}};
  f.thresholds = {"driverTime.minShare", "driverTime.minMs", "significance.appShare"};
  f.confidence = context.confidence_above(share, t.driver_time_min_share);
  f.validation_caveat =
      "Time outside jobs is the driver's, but not all of it can go: planning a query and collecting a final result "
      "take some. The figure is what the driver spent with no job running.";
  f.claim = WasteClaim::serial(driver_ms, EstimateMethod::kMeasured);
  findings.push_back(std::move(f));
}

void detect_timeline(const DetectorContext& context, std::vector<Finding>& findings) {
  cold_start(context, findings);
  executor_startup(context, findings);
  driver_time(context, findings);
  stage_slowness(context, findings);
  utilization(context, findings);
  autoscaling_churn(context, findings);
}

}  // namespace sf::analysis

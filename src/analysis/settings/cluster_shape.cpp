#include "analysis/settings/cluster_shape.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <string>

#include <fmt/format.h>

#include "analysis/settings/spark_settings.h"

namespace sf::analysis {

namespace {

constexpr double kBytesPerGib = 1024.0 * 1024 * 1024;
// Spark's floor on the memory overhead, a setting (spark.*.minMemoryOverhead) only since 4.0.
constexpr double kMinOverheadBytes = 384.0 * 1024 * 1024;
// The overhead's share of the heap, a setting (spark.*.memoryOverheadFactor) only since 3.3.
constexpr double kOverheadFactor = 0.1;
constexpr double kMaxStartupMs = 300000;  // a longer wait is not an executor starting

bool effective_flag(const model::AppModel& model, std::string_view key) {
  std::string value = effective_setting_value(model, key).value_or("false");
  std::transform(value.begin(), value.end(), value.begin(), [](unsigned char c) { return std::tolower(c); });
  return value == "true";
}

int32_t as_count(double value) { return static_cast<int32_t>(std::clamp(value, 0.0, 1e6)); }

bool is_local_master(const model::AppModel& model) {
  const std::string* master = model.environment.spark_property("spark.master");
  if (master != nullptr) return master->starts_with("local") && !master->starts_with("local-cluster");
  // No master in the log: local when the driver ran tasks and no executor did.
  bool executor_ran = false;
  bool driver_ran = false;
  for (const model::Executor& e : model.executors) {
    if (e.tasks_total <= 0) continue;
    if (e.is_driver()) {
      driver_ran = true;
    } else {
      executor_ran = true;
    }
  }
  return driver_ran && !executor_ran;
}

// Heap + overhead, in bytes.
double heap_and_overhead_bytes(const model::AppModel& model, std::string_view role) {
  const double heap = effective_setting_number(model, fmt::format("spark.{}.memory", role)).value_or(kBytesPerGib);
  return heap + memory_overhead_bytes(model, role, heap);
}

int32_t most_common_cores(const model::AppModel& model) {
  std::map<int32_t, int> counts;
  for (const model::Executor& e : model.executors) {
    if (!e.is_driver() && e.total_cores > 0) ++counts[e.total_cores];
  }
  int32_t best = 0;
  int seen = 0;
  for (const auto& [cores, n] : counts) {
    if (n >= seen) {  // ties: the larger count of cores
      best = cores;
      seen = n;
    }
  }
  return best;
}

// The most tasks a stage started on fresh executors before any finished: in local mode, with a
// first stage of enough tasks, the driver's slots.
int32_t first_wave_slots(const model::AppModel& model) {
  int64_t most = 0;
  for (const model::StageAttempt& s : model.stages) most = std::max(most, s.first_wave_tasks_succeeded);
  return static_cast<int32_t>(std::clamp<int64_t>(most, 1, 1 << 20));
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

// Spark 3.4+ logs when it asked for an executor and when the executor registered: where the log
// has both, the median of their differences is the start-up, measured. Otherwise it is inferred:
// the wait from the latest job or stage submission or executor loss before each executor's
// registration to it (what asked for it), for executors that registered after the first job:
// what asking for one costs. Dynamic allocation asks a backlog timeout after the submission, and
// only its first round then: a later registration after the same submission was asked for in a
// later round of the ramp (schedule_simulation.h models it), so only the first one counts, less
// the timeout.
double startup_ms(const model::AppModel& model, const DynamicAllocation& da) {
  std::vector<double> logged;
  for (const model::Executor& e : model.executors) {
    if (const auto latency = e.startup_latency_ms(); latency && !e.is_driver())
      logged.push_back(static_cast<double>(*latency));
  }
  if (!logged.empty()) return median(std::move(logged));
  std::vector<double> submissions;
  for (const model::Executor& e : model.executors) {
    if (!e.is_driver() && e.remove_time_ms && !removed_by_scaling(e.remove_reason)) {
      submissions.push_back(static_cast<double>(*e.remove_time_ms));
    }
  }
  for (const model::Job& j : model.jobs) {
    if (j.submission_time_ms) submissions.push_back(static_cast<double>(*j.submission_time_ms));
  }
  for (const model::StageAttempt& s : model.stages) {
    if (s.submission_time_ms) submissions.push_back(static_cast<double>(*s.submission_time_ms));
  }
  if (submissions.empty()) return 0;
  std::sort(submissions.begin(), submissions.end());
  const double first_job = [&] {
    double first = std::numeric_limits<double>::infinity();
    for (const model::Job& j : model.jobs) {
      if (j.submission_time_ms) first = std::min(first, static_cast<double>(*j.submission_time_ms));
    }
    return first;
  }();
  std::vector<double> added_times;
  for (const model::Executor& e : model.executors) {
    if (e.is_driver() || e.total_cores <= 0 || !e.add_time_ms) continue;
    const double added = static_cast<double>(*e.add_time_ms);
    if (added > first_job) added_times.push_back(added);  // before the first job: started with the application
  }
  std::sort(added_times.begin(), added_times.end());
  std::vector<double> waits;
  double anchor_taken = -std::numeric_limits<double>::infinity();
  for (const double added : added_times) {
    auto after = std::upper_bound(submissions.begin(), submissions.end(), added);
    if (after == submissions.begin()) continue;
    const double anchor = *(after - 1);
    // Under dynamic allocation one backlog asks for several executors at once: only the first to
    // register after each submission measures the wait; the rest came in the same ramp.
    if (da.enabled && anchor == anchor_taken) continue;
    anchor_taken = anchor;
    const double wait = added - anchor;
    // Spark asks only after the backlog timeout; the simulation waits that timeout itself.
    if (wait <= kMaxStartupMs) waits.push_back(da.enabled ? std::max(0.0, wait - da.backlog_timeout_ms) : wait);
  }
  return median(std::move(waits));
}

// Under dynamic allocation, the executors the log's cluster held beyond what Spark's ramp could
// have asked for: at each registration, more alive than the most tasks ever waiting and running
// at once fill (at the allocation ratio). The ramp never asks past that need, so they were asked
// for up front (a platform's defaults, an initial count the log's properties do not show); the
// replay starts with them. 0 when every registration follows the need.
int32_t executors_beyond_the_need(const model::AppModel& model, const DynamicAllocation& da, int32_t slots) {
  std::vector<std::pair<int64_t, int64_t>> task_changes;  // (time, +tasks at submission / -tasks at completion)
  for (const model::StageAttempt& s : model.stages) {
    if (!s.submission_time_ms) continue;
    task_changes.push_back({*s.submission_time_ms, s.num_tasks});
    if (s.completion_time_ms) task_changes.push_back({*s.completion_time_ms, -int64_t{s.num_tasks}});
  }
  std::sort(task_changes.begin(), task_changes.end());
  std::vector<std::pair<int64_t, int64_t>> alive_changes;  // (time, +1 registered / -1 removed)
  for (const model::Executor& e : model.executors) {
    if (e.is_driver() || e.total_cores <= 0 || !e.add_time_ms) continue;
    alive_changes.push_back({*e.add_time_ms, 1});
    if (e.remove_time_ms) alive_changes.push_back({*e.remove_time_ms, -1});
  }
  std::sort(alive_changes.begin(), alive_changes.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first < b.first : a.second < b.second; });
  int64_t active_tasks = 0;
  int64_t most_needed = 0;
  size_t next_change = 0;
  int64_t alive = 0;
  int64_t beyond = 0;
  for (const auto& [at, change] : alive_changes) {
    for (; next_change < task_changes.size() && task_changes[next_change].first <= at; ++next_change) {
      active_tasks += task_changes[next_change].second;
      const double filled = std::ceil(static_cast<double>(active_tasks) * da.allocation_ratio / slots);
      most_needed = std::max(most_needed, static_cast<int64_t>(filled));
    }
    alive += change;
    if (change > 0 && alive > most_needed) beyond = std::max(beyond, alive);
  }
  return static_cast<int32_t>(beyond);
}

}  // namespace

bool removed_by_scaling(std::string_view reason) {
  return reason.find("idle") != std::string_view::npos || reason.find("killed by driver") != std::string_view::npos ||
         reason.find("decommission") != std::string_view::npos ||
         reason.find("explicit termination request") != std::string_view::npos;
}

std::optional<double> memory_setting_gib(const model::AppModel& model, std::string_view key) {
  if (auto bytes = effective_setting_number(model, key)) return *bytes / kBytesPerGib;
  return std::nullopt;
}

double memory_overhead_bytes(const model::AppModel& model, std::string_view role, double heap_bytes) {
  auto key = [role](std::string_view name) { return fmt::format("spark.{}.{}", role, name); };
  if (auto overhead = effective_setting_number(model, key("memoryOverhead"))) return *overhead;
  // Kubernetes sizes a pod with spark.kubernetes.memoryOverheadFactor where the role's own factor
  // is not set (BasicExecutorFeatureStep; before Spark 3.3 it was the only factor there).
  const std::string* master = model.environment.spark_property("spark.master");
  const bool kubernetes = master != nullptr && master->starts_with("k8s://");
  const bool role_factor_set = model.environment.spark_property(key("memoryOverheadFactor")) != nullptr;
  if (kubernetes && !role_factor_set) {
    if (auto factor = effective_setting_number(model, "spark.kubernetes.memoryOverheadFactor")) {
      const double floor = effective_setting_number(model, key("minMemoryOverhead")).value_or(kMinOverheadBytes);
      return std::max(floor, *factor * heap_bytes);
    }
  }
  const double factor = effective_setting_number(model, key("memoryOverheadFactor")).value_or(kOverheadFactor);
  const double floor = effective_setting_number(model, key("minMemoryOverhead")).value_or(kMinOverheadBytes);
  return std::max(floor, factor * heap_bytes);
}

ClusterShape cluster_shape(const model::AppModel& model) {
  ClusterShape shape;
  shape.local_mode = is_local_master(model);

  DynamicAllocation& da = shape.dynamic_allocation;
  da.enabled = !shape.local_mode && effective_flag(model, "spark.dynamicAllocation.enabled");
  da.min_executors = as_count(effective_setting_number(model, "spark.dynamicAllocation.minExecutors").value_or(0));
  da.initial_executors =
      std::max({da.min_executors,
                as_count(effective_setting_number(model, "spark.dynamicAllocation.initialExecutors").value_or(0)),
                as_count(effective_setting_number(model, "spark.executor.instances").value_or(0))});
  if (auto most = effective_setting_number(model, "spark.dynamicAllocation.maxExecutors");
      most && *most >= 1 && *most < 1e6) {
    da.max_executors = as_count(*most);
  }
  da.idle_timeout_ms = effective_setting_number(model, "spark.dynamicAllocation.executorIdleTimeout").value_or(60000);
  da.backlog_timeout_ms =
      effective_setting_number(model, "spark.dynamicAllocation.schedulerBacklogTimeout").value_or(1000);
  da.sustained_backlog_timeout_ms =
      effective_setting_number(model, "spark.dynamicAllocation.sustainedSchedulerBacklogTimeout")
          .value_or(da.backlog_timeout_ms);
  // Spark refuses a ratio outside (0, 1]; a log that claims one keeps Spark's default.
  if (auto ratio = effective_setting_number(model, "spark.dynamicAllocation.executorAllocationRatio");
      ratio && *ratio > 0 && *ratio <= 1) {
    da.allocation_ratio = *ratio;
  }

  shape.task_cpus = std::max(1, as_count(effective_setting_number(model, "spark.task.cpus").value_or(1)));
  const model::Executor* driver = model.executor("driver");
  if (shape.local_mode) {
    shape.executors = 1;
    shape.cores_per_executor =
        driver != nullptr && driver->total_cores > 0 ? driver->total_cores : model.peak_concurrent_cores;
    if (shape.cores_per_executor <= 0) {
      shape.cores_per_executor = first_wave_slots(model);
      shape.cores_estimated = true;
    }
    if (driver != nullptr && driver->add_time_ms && model.app.start_time_ms) {
      shape.executor_registrations.push_back(
          {std::max(0.0, static_cast<double>(*driver->add_time_ms - *model.app.start_time_ms)), 0});
    }
  } else {
    shape.cores_per_executor = most_common_cores(model);
    if (shape.cores_per_executor <= 0) {
      shape.cores_estimated = true;
      shape.cores_per_executor = as_count(effective_setting_number(model, "spark.executor.cores").value_or(0));
      if (shape.cores_per_executor <= 0 && model.peak_concurrent_executors > 0) {
        shape.cores_per_executor = std::max(1, model.peak_concurrent_cores / model.peak_concurrent_executors);
      }
      if (shape.cores_per_executor <= 0) shape.cores_per_executor = 1;
    }
    shape.executors = std::max(1, model.peak_concurrent_executors);
    for (const model::Executor& e : model.executors) {
      if (e.is_driver() || !e.add_time_ms || !model.app.start_time_ms) continue;
      LoggedExecutor r;
      r.registered_ms = std::max(0.0, static_cast<double>(*e.add_time_ms - *model.app.start_time_ms));
      if (e.remove_time_ms && !removed_by_scaling(e.remove_reason)) {
        r.lost_after_ms = std::max(1.0, static_cast<double>(*e.remove_time_ms - *e.add_time_ms));
      }
      shape.executor_registrations.push_back(r);
    }
    std::stable_sort(shape.executor_registrations.begin(), shape.executor_registrations.end(),
                     [](const auto& a, const auto& b) { return a.registered_ms < b.registered_ms; });
    shape.executor_startup_ms = startup_ms(model, da);
    // Executors that registered within a startup of the first one were asked for with it: at the
    // start, whatever the settings say (a platform's defaults, executors asked for up front).
    if (da.enabled && !shape.executor_registrations.empty()) {
      const double burst_end = shape.executor_registrations.front().registered_ms + shape.executor_startup_ms;
      const auto burst = std::count_if(shape.executor_registrations.begin(), shape.executor_registrations.end(),
                                       [&](const LoggedExecutor& r) { return r.registered_ms <= burst_end; });
      const int32_t slots = std::max(1, shape.cores_per_executor / shape.task_cpus);
      da.initial_executors =
          std::max({da.initial_executors, static_cast<int32_t>(burst), executors_beyond_the_need(model, da, slots)});
    }
  }

  double executor_bytes = heap_and_overhead_bytes(model, "executor");
  if (effective_flag(model, "spark.memory.offHeap.enabled")) {
    executor_bytes += effective_setting_number(model, "spark.memory.offHeap.size").value_or(0);
  }
  executor_bytes += effective_setting_number(model, "spark.executor.pyspark.memory").value_or(0);
  shape.executor_memory_gib = executor_bytes / kBytesPerGib;
  if (shape.local_mode) {
    // The driver is the whole application: its cores run the tasks, and no container adds overhead.
    shape.driver_cores = shape.cores_per_executor;
    shape.driver_memory_gib =
        effective_setting_number(model, "spark.driver.memory").value_or(kBytesPerGib) / kBytesPerGib;
  } else {
    shape.driver_cores = std::max(1.0, effective_setting_number(model, "spark.driver.cores").value_or(1));
    shape.driver_memory_gib = heap_and_overhead_bytes(model, "driver") / kBytesPerGib;
  }
  return shape;
}

}  // namespace sf::analysis

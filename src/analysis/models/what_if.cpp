#include "analysis/models/what_if.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/parallel_for.h"

namespace sf::analysis {

namespace {

constexpr int32_t kMostPerToday = 16;  // the range ends at most this many times today's size
constexpr int32_t kLeastTop = 4;       // and at 4 executors at least

// 1, 2, 3, 4, 6, 8, 12, 16, 24, ...: about x1.5 a step, and `today`.
std::vector<int32_t> executor_counts(int32_t today, int32_t top) {
  std::vector<int32_t> counts;
  for (int64_t power = 1; power <= top; power *= 2) {
    counts.push_back(static_cast<int32_t>(power));
    if (power * 3 / 2 > power && power * 3 / 2 <= top) counts.push_back(static_cast<int32_t>(power * 3 / 2));
  }
  counts.push_back(today);
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

// Static allocation: the executors held. Dynamic allocation: maxExecutors (unbounded: no limit
// but the tasks'), no more than the largest stage's tasks fill at `allocation_ratio`, no fewer
// than were held.
int32_t today_size(const ClusterShape& shape, double allocation_ratio, int64_t most_tasks, int64_t slots) {
  const DynamicAllocation& da = shape.dynamic_allocation;
  if (!da.enabled) return shape.executors;
  const auto filled =
      static_cast<int64_t>(std::ceil(static_cast<double>(most_tasks) * allocation_ratio / static_cast<double>(slots)));
  const int64_t allowed = std::min<int64_t>(filled, da.max_executors.value_or(std::numeric_limits<int32_t>::max()));
  return static_cast<int32_t>(std::max<int64_t>(allowed, shape.executors));
}

}  // namespace

SimulatedCluster simulated_cluster(const ClusterShape& shape, int32_t executors, int64_t most_stage_tasks) {
  SimulatedCluster cluster;
  cluster.executors = std::max(1, executors);
  // An executor never runs more tasks at once than the largest stage has: more slots would sit
  // idle, and a log claiming 2^31 cores per executor must not make the simulation hold 2^31 of them.
  const int64_t slots = std::max(1, shape.cores_per_executor / std::max(1, shape.task_cpus));
  cluster.slots_per_executor =
      static_cast<int32_t>(std::clamp<int64_t>(slots, 1, std::max<int64_t>(1, most_stage_tasks)));
  const DynamicAllocation& da = shape.dynamic_allocation;
  cluster.dynamic_allocation = da.enabled;
  cluster.min_executors = std::min(da.min_executors, cluster.executors);
  cluster.initial_executors = std::min(da.initial_executors, cluster.executors);
  cluster.idle_timeout_ms = da.idle_timeout_ms;
  cluster.backlog_timeout_ms = da.backlog_timeout_ms;
  cluster.sustained_backlog_timeout_ms = da.sustained_backlog_timeout_ms;
  cluster.allocation_ratio = da.allocation_ratio;
  cluster.startup_ms = shape.executor_startup_ms;
  cluster.today_executors = shape.executors;
  // Executors register no sooner than today's did: the initial ones as the log's first ones
  // (static allocation: today's size of them), later ones as the log's later ones.
  const size_t initial = std::min(shape.executor_registrations.size(),
                                  static_cast<size_t>(da.enabled ? da.initial_executors : shape.executors));
  const auto split = shape.executor_registrations.begin() + static_cast<std::ptrdiff_t>(initial);
  cluster.initial.assign(shape.executor_registrations.begin(), split);
  cluster.later.assign(split, shape.executor_registrations.end());
  return cluster;
}

std::optional<WhatIf> what_if(const model::AppModel& model, const ClusterShape& shape, unsigned threads) {
  const std::optional<int64_t> duration = model.app.duration_ms();
  if (!duration || *duration <= 0) return std::nullopt;
  const ScheduleSimulation simulation(model, threads);
  if (!simulation.usable()) return std::nullopt;

  const DynamicAllocation& da = shape.dynamic_allocation;
  WhatIf result;
  result.cores_per_executor = shape.cores_per_executor;
  result.task_cpus = shape.task_cpus;
  result.peak_executors = shape.executors;
  result.dynamic_allocation = da.enabled;
  result.measured_ms = static_cast<double>(*duration);

  // Enough executors for the largest stage's tasks to run at once, within the range's bounds.
  int64_t most_tasks = 1;
  for (const model::StageAttempt& s : model.stages) {
    most_tasks = std::max(most_tasks, s.tasks_succeeded + s.tasks_failed + s.tasks_killed);
  }
  const int64_t slots = std::clamp<int64_t>(shape.cores_per_executor / std::max(1, shape.task_cpus), 1, most_tasks);
  const int64_t one_wave = (most_tasks + slots - 1) / slots;
  result.today_executors = today_size(shape, da.allocation_ratio, most_tasks, slots);
  const int64_t today = result.today_executors;
  const int64_t top = std::clamp<int64_t>(one_wave, 2 * today, kMostPerToday * today);

  std::vector<int32_t> counts =
      executor_counts(result.today_executors, static_cast<int32_t>(std::max<int64_t>(top, kLeastTop)));
  if (!std::binary_search(counts.begin(), counts.end(), result.peak_executors)) {
    counts.insert(std::upper_bound(counts.begin(), counts.end(), result.peak_executors), result.peak_executors);
  }
  // The ramp's replays go last, beside the curve's, on the cluster the default ratio would fill
  // (the replays of the log's ratio hold no more than that ratio asks for).
  std::vector<SimulatedCluster> clusters;
  for (int32_t n : counts) clusters.push_back(simulated_cluster(shape, n, most_tasks));
  AllocationRamp ramp;
  ramp.allocation_ratio = da.allocation_ratio;
  ramp.sustained_backlog_timeout_ms = da.sustained_backlog_timeout_ms;
  ramp.executor_startup_ms = shape.executor_startup_ms;
  const bool slow_ramp = da.enabled && (ramp.slow_ratio() || ramp.slow_rounds());
  if (slow_ramp) {
    ramp.executors = today_size(shape, AllocationRamp::kDefaultRatio, most_tasks, slots);
    SimulatedCluster as_set = simulated_cluster(shape, ramp.executors, most_tasks);
    as_set.later.clear();  // executors come the measured startup after they are asked for
    const auto with = [&](double ratio, double sustained_ms) {
      SimulatedCluster cluster = as_set;
      cluster.allocation_ratio = ratio;
      cluster.sustained_backlog_timeout_ms = sustained_ms;
      return cluster;
    };
    const double default_rounds = std::min(da.sustained_backlog_timeout_ms, AllocationRamp::kDefaultSustainedMs);
    clusters.push_back(as_set);
    clusters.push_back(with(AllocationRamp::kDefaultRatio, default_rounds));
    if (ramp.slow_ratio() && ramp.slow_rounds()) {
      clusters.push_back(with(AllocationRamp::kDefaultRatio, da.sustained_backlog_timeout_ms));
      clusters.push_back(with(da.allocation_ratio, default_rounds));
    }
  }
  std::vector<SimulationResult> runs(clusters.size());
  parallel_for(clusters.size(), threads, [&](size_t i) { runs[i] = simulation.run(clusters[i]); });
  if (slow_ramp) {
    const SimulationResult* replays = runs.data() + counts.size();
    ramp.settings_ms = replays[0].wall_clock_ms;
    ramp.default_ms = replays[1].wall_clock_ms;
    const bool both = ramp.slow_ratio() && ramp.slow_rounds();
    ramp.default_ratio_ms = both ? replays[2].wall_clock_ms : ramp.slow_ratio() ? ramp.default_ms : ramp.settings_ms;
    ramp.default_rounds_ms = both ? replays[3].wall_clock_ms : ramp.slow_rounds() ? ramp.default_ms : ramp.settings_ms;
    ramp.settings_executor_hours = replays[0].executor_ms_held / 3.6e6;
    ramp.default_executor_hours = replays[1].executor_ms_held / 3.6e6;
    result.ramp = ramp;
  }
  double least = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    const int32_t n = counts[i];
    const SimulationResult& run = runs[i];
    WhatIfPoint point;
    point.executors = n;
    point.simulated_ms = run.wall_clock_ms;
    least = result.curve.empty() ? run.wall_clock_ms : std::min(least, run.wall_clock_ms);
    point.predicted_ms = least;
    point.executor_hours = run.executor_ms_held / 3.6e6;
    if (n == result.today_executors) result.today_simulated_ms = run.wall_clock_ms;
    result.curve.push_back(point);
  }
  result.today_error = (result.today_simulated_ms - result.measured_ms) / result.measured_ms;
  result.best_ms = result.curve.back().predicted_ms;
  for (const WhatIfPoint& p : result.curve) {
    if (p.predicted_ms <= result.best_ms * (1 + WhatIf::kKneeShare)) {
      result.knee_executors = p.executors;
      result.knee_ms = p.predicted_ms;
      break;
    }
  }
  return result;
}

}  // namespace sf::analysis

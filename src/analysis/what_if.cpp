#include "analysis/what_if.h"

#include <algorithm>
#include <cmath>

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

}  // namespace

SimulatedCluster simulated_cluster(const ClusterShape& shape, int32_t executors, int64_t most_stage_tasks) {
  SimulatedCluster cluster;
  cluster.executors = std::max(1, executors);
  // An executor never runs more tasks at once than the largest stage has: more slots would sit
  // idle, and a log claiming 2^31 cores per executor must not make the simulation hold 2^31 of them.
  const int64_t slots = std::max(1, shape.cores_per_executor / std::max(1, shape.task_cpus));
  cluster.slots_per_executor = static_cast<int32_t>(std::clamp<int64_t>(slots, 1, std::max<int64_t>(1, most_stage_tasks)));
  const DynamicAllocation& da = shape.dynamic_allocation;
  cluster.dynamic_allocation = da.enabled;
  cluster.min_executors = std::min(da.min_executors, cluster.executors);
  cluster.initial_executors = std::min(da.initial_executors, cluster.executors);
  cluster.idle_timeout_ms = da.idle_timeout_ms;
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

  WhatIf result;
  result.cores_per_executor = shape.cores_per_executor;
  result.today_executors = shape.executors;
  result.dynamic_allocation = shape.dynamic_allocation.enabled;
  result.measured_ms = static_cast<double>(*duration);

  // Enough executors for the largest stage's tasks to run at once, within the range's bounds.
  int64_t most_tasks = 1;
  for (const model::StageAttempt& s : model.stages) {
    most_tasks = std::max(most_tasks, s.tasks_succeeded + s.tasks_failed + s.tasks_killed);
  }
  const int64_t slots = std::clamp<int64_t>(shape.cores_per_executor / std::max(1, shape.task_cpus), 1, most_tasks);
  const int64_t one_wave = (most_tasks + slots - 1) / slots;
  const int64_t top = std::clamp<int64_t>(one_wave, 2 * int64_t{shape.executors}, kMostPerToday * int64_t{shape.executors});

  const std::vector<int32_t> counts = executor_counts(shape.executors, static_cast<int32_t>(std::max<int64_t>(top, kLeastTop)));
  std::vector<SimulationResult> runs(counts.size());
  parallel_for(counts.size(), threads,
               [&](size_t i) { runs[i] = simulation.run(simulated_cluster(shape, counts[i], most_tasks)); });
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
    if (n == shape.executors) result.today_simulated_ms = run.wall_clock_ms;
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

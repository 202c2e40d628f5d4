#include "analysis/models/stage_reshape.h"

#include <algorithm>

namespace sf::analysis {

using model::QuantileMetric;
using model::Quantiles;
using model::TaskMetric;

StageWork stage_work(const model::StageAttempt& stage, const StageOccupancy& occupancy, double cores,
                     double max_overhead_ms) {
  StageWork w;
  w.duration_ms = occupancy.duration_ms;
  w.tasks = static_cast<double>(std::max<int64_t>(1, stage.quantile(QuantileMetric::kDurationMs).count));
  w.slot_ms = static_cast<double>(stage.metric(TaskMetric::kDurationMs));
  w.longest_ms = static_cast<double>(stage.max_task_duration_ms);
  w.cores = std::max(1.0, cores);
  const Quantiles& deserialize = stage.quantile(QuantileMetric::kExecutorDeserializeTimeMs);
  const double deserialize_ms = static_cast<double>(stage.metric(TaskMetric::kExecutorDeserializeTimeMs));
  // The first task on each core also pays to set the stage up there (the task's binary fetched,
  // classes loaded), in its deserialization: once per core, not once per task, so fewer tasks
  // keep paying it. At most the first wave's excess over the median task's.
  const double first_wave_ms = std::min(
      std::min(w.tasks, w.cores) * static_cast<double>(std::max<int64_t>(0, deserialize.max - deserialize.p50)),
      std::max(0.0, deserialize_ms - w.tasks * static_cast<double>(deserialize.p50)));
  const double fixed_ms = deserialize_ms - first_wave_ms +
                          static_cast<double>(stage.metric(TaskMetric::kSchedulerDelayMs) +
                                              stage.metric(TaskMetric::kResultSerializationTimeMs) +
                                              stage.metric(TaskMetric::kGettingResultTimeMs));
  // Even an empty task runs a little (its codegen'd operators set up); no more than it pays to
  // be launched, or every long task would count as overhead.
  const double launch_ms = fixed_ms / w.tasks;
  w.overhead_ms =
      launch_ms + std::min(launch_ms, static_cast<double>(stage.quantile(QuantileMetric::kExecutorRunTimeMs).min));
  // With at most two tasks a core, most tasks (the median one too) were their core's first, so
  // the first wave cannot be told from the rest: the cap stands in for a later task's cost.
  if (w.tasks <= 2 * w.cores) w.overhead_ms = std::min(w.overhead_ms, max_overhead_ms);
  w.data_work_ms = std::max(0.0, w.slot_ms - w.tasks * w.overhead_ms);
  // The wait before the first task launched (executors arriving, broadcasts, the driver
  // planning) is the stage's whatever its tasks; waits between waves are not: they go with them.
  if (stage.submission_time_ms && stage.first_task_launched_time_ms) {
    w.residual_ms = std::clamp(static_cast<double>(*stage.first_task_launched_time_ms - *stage.submission_time_ms), 0.0,
                               w.duration_ms);
  }
  return w;
}

double reshaped_duration_ms(const StageWork& work, double tasks, double work_share) {
  tasks = std::max(1.0, tasks);
  const double data = work.data_work_ms * std::clamp(work_share, 0.0, 1.0);
  // The window's cores bound the new stage too: more tasks than cores run in waves.
  const double parallel = (data + tasks * work.overhead_ms) / std::min(work.cores, tasks);
  const double longest = data / tasks + work.overhead_ms;
  return std::max(longest, parallel) + work.residual_ms;
}

double removed_work_wall_ms(const StageWork& work, double removed_task_ms) {
  if (removed_task_ms <= 0 || work.data_work_ms <= 0) return 0;
  const double share = std::clamp(1.0 - removed_task_ms / work.data_work_ms, 0.0, 1.0);
  const double gain = reshaped_duration_ms(work, work.tasks, 1.0) - reshaped_duration_ms(work, work.tasks, share);
  return std::clamp(gain, 0.0, work.duration_ms);
}

}  // namespace sf::analysis

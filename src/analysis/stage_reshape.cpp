#include "analysis/stage_reshape.h"

#include <algorithm>

namespace sf::analysis {

using model::QuantileMetric;
using model::TaskMetric;

StageWork stage_work(const model::StageAttempt& stage, const StageOccupancy& occupancy) {
  StageWork w;
  w.duration_ms = occupancy.duration_ms;
  w.tasks = static_cast<double>(std::max<int64_t>(1, stage.quantile(QuantileMetric::kDurationMs).count));
  w.slot_ms = static_cast<double>(stage.metric(TaskMetric::kDurationMs));
  w.longest_ms = static_cast<double>(stage.max_task_duration_ms);
  const double fixed_ms = static_cast<double>(
      stage.metric(TaskMetric::kExecutorDeserializeTimeMs) + stage.metric(TaskMetric::kSchedulerDelayMs) +
      stage.metric(TaskMetric::kResultSerializationTimeMs) + stage.metric(TaskMetric::kGettingResultTimeMs));
  w.overhead_ms = fixed_ms / w.tasks + static_cast<double>(stage.quantile(QuantileMetric::kExecutorRunTimeMs).min);
  w.data_work_ms = std::max(0.0, w.slot_ms - w.tasks * w.overhead_ms);
  w.cores = std::max(1.0, occupancy.window_cores);
  const double slots_used = std::min(w.cores, w.tasks);
  w.residual_ms = std::max(0.0, w.duration_ms - std::max(w.longest_ms, w.slot_ms / slots_used));
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

}  // namespace sf::analysis

#include "analysis/removed_work.h"

#include <algorithm>
#include <map>

namespace sf::analysis {

double tasks_in_flight(const DetectorContext& context, const model::StageAttempt& stage) {
  const auto tasks = std::max<int64_t>(stage.num_tasks, stage.tasks_started);
  return static_cast<double>(std::max<int64_t>(1, std::min<int64_t>(tasks, context.total_cores())));
}

double removed_wall_ms(const DetectorContext& context, const RemovedWork& work) {
  const StageOccupancy& o = context.occupancy(*work.stage);
  if (!o.in_sweep || work.task_ms <= 0) return 0;
  const auto run_ms = static_cast<double>(work.stage->metric(model::TaskMetric::kExecutorRunTimeMs));
  // The share of the stage's work that goes away; without a run time to compare with, none of
  // its floor is assumed to go.
  const double removed_share = run_ms > 0 ? std::min(1.0, work.task_ms / run_ms) : 0.0;
  const double floor_after_ms = o.ceiling_ms * (1 - removed_share);
  const double room_ms = std::max(0.0, o.duration_ms - floor_after_ms);
  return std::min(work.task_ms / tasks_in_flight(context, *work.stage), room_ms);
}

WasteClaim removed_work_claim(const DetectorContext& context, const std::vector<RemovedWork>& work,
                              EstimateMethod method) {
  std::map<StageRef, RemovedWork> by_stage;
  double task_ms = 0;
  for (const RemovedWork& w : work) {
    if (w.stage == nullptr || w.task_ms <= 0) continue;
    RemovedWork& merged = by_stage[DetectorContext::ref(*w.stage)];
    merged.stage = w.stage;
    merged.task_ms += w.task_ms;
    task_ms += w.task_ms;
  }
  WasteClaim claim;
  claim.method = method;
  claim.raw = RawWaste{task_ms, WasteUnit::kCoreMs};
  for (const auto& [ref, w] : by_stage) {
    if (!context.occupancy(*w.stage).in_sweep) continue;
    // Clipped here at the post-fix floor, so the estimator's own (pre-fix) floor must not apply.
    claim.stages.push_back({ref, removed_wall_ms(context, w), /*whole_window=*/true});
  }
  claim.kind = claim.stages.empty() ? WasteClaim::Kind::kResourceOnly : WasteClaim::Kind::kStages;
  return claim;
}

}  // namespace sf::analysis

#include "analysis/detectors/removed_work.h"

#include <algorithm>
#include <map>

namespace sf::analysis {

double removed_wall_ms(const DetectorContext& context, const RemovedWork& work) {
  if (!context.occupancy(*work.stage).in_sweep || work.task_ms <= 0) return 0;
  return removed_work_wall_ms(context.work(*work.stage), work.task_ms);
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
    // The removal lowers the stage's floor with it: its floor after the fix is what is left.
    const double wall_ms = removed_wall_ms(context, w);
    const double duration_ms = context.occupancy(*w.stage).duration_ms;
    claim.stages.push_back({ref, wall_ms, false, std::max(0.0, duration_ms - wall_ms)});
  }
  claim.kind = claim.stages.empty() ? WasteClaim::Kind::kResourceOnly : WasteClaim::Kind::kStages;
  return claim;
}

}  // namespace sf::analysis

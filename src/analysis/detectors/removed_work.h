// The wall-clock claim of a fix that removes measured work from the stages that ran it.
//
// Plan metrics (a sort's "sort time", an exchange's "shuffle write time", a Python node's "time
// to run Python workers") and task metrics are task time: sums over a stage's tasks, which ran
// side by side. Removing that work shortens the stage by the work spread over the tasks it ran
// at once (its tasks, at most the cluster's cores), not by the sum; and the sum of a stage that
// waited for cores behind another stage says nothing about how long it waited.
//
// The fix also lowers the stage's floor (the longest task holds the work that goes away), so
// each part carries its floor after the fix: the estimate is stage_reshape.h's
// removed_work_wall_ms, the one model of what a fix changes in a stage.
#pragma once

#include <vector>

#include "analysis/detectors/detector_context.h"

namespace sf::analysis {

struct RemovedWork {
  const model::StageAttempt* stage = nullptr;
  double task_ms = 0;  // task time the fix removes from this attempt
};

// What removing `work.task_ms` takes off the attempt's wall-clock (stage_reshape.h).
double removed_wall_ms(const DetectorContext& context, const RemovedWork& work);

// One part per attempt (parts of the same attempt are added first); rawWaste is the task time
// removed, in core-ms. With no attempt that ran, a cost-only claim of that task time.
WasteClaim removed_work_claim(const DetectorContext& context, const std::vector<RemovedWork>& work,
                              EstimateMethod method);

}  // namespace sf::analysis

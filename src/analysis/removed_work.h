// The wall-clock claim of a fix that removes measured work from the stages that ran it.
//
// Plan metrics (a sort's "sort time", an exchange's "shuffle write time", a Python node's "time
// to run Python workers") and task metrics are task time: sums over a stage's tasks, which ran
// side by side. Removing that work shortens the stage by the work spread over the tasks it ran
// at once (its tasks, at most the cluster's cores), not by the sum; and the sum of a stage that
// waited for cores behind another stage says nothing about how long it waited.
//
// The fix also lowers the stage's floor: the floor the occupancy model clips against (the
// longest task, or the run time over the cores) holds the work that goes away. Until the impact
// model carries a post-fix floor of its own, each part here is clipped by the detector at
// duration - floor x (1 - removed share of the run time) and handed over as a whole-window claim,
// so the estimator does not clip it again at the pre-fix floor.
#pragma once

#include <vector>

#include "analysis/detector_context.h"

namespace sf::analysis {

struct RemovedWork {
  const model::StageAttempt* stage = nullptr;
  double task_ms = 0;  // task time the fix removes from this attempt
};

// The tasks a stage ran at once: its tasks, at most the cluster's cores (at least 1).
double tasks_in_flight(const DetectorContext& context, const model::StageAttempt& stage);

// What removing `work.task_ms` takes off the attempt's wall-clock: the work over the tasks in
// flight, at most its duration less its post-fix floor.
double removed_wall_ms(const DetectorContext& context, const RemovedWork& work);

// One part per attempt (parts of the same attempt are added first); rawWaste is the task time
// removed, in core-ms. With no attempt that ran, a cost-only claim of that task time.
WasteClaim removed_work_claim(const DetectorContext& context, const std::vector<RemovedWork>& work,
                              EstimateMethod method);

}  // namespace sf::analysis

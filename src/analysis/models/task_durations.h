// A stage attempt's task durations, rebuilt from what the model keeps of them.
//
// The model keeps no per-task records: for a stage attempt it has the exact order statistics of
// its successful tasks' durations (min, p5, p25, p50, p75, p95, max, by nearest rank: the value
// at index min(floor(q x n), n - 1) of the sorted durations), their count, their sum (from the
// per-executor summaries), and the count and summed time of its failed and killed attempts.
// That is enough to rebuild a duration list with the same count, the same seven order statistics
// at the same ranks and (when the anchors allow it) the same sum: between two anchors the values
// follow lower + (upper - lower) x t^shape (t their place between the anchors), with one shape
// for every segment chosen so the sum matches. A wide gap between p75 and p95 then holds a few
// long tasks and many short ones, as a stage with a slow first wave or a few heavy partitions
// has, rather than a ramp of medium ones. Failed and killed attempts held a task slot too; each becomes one
// attempt of their mean duration (but for attempts lost with their executor: the simulation
// loses the executor and so makes them again).
//
// The list is in the order the replay launches the tasks: a fixed pseudo-random permutation
// seeded by the stage id and attempt (Spark launches tasks in partition order, and which
// partitions were the long ones the model does not know), so the same stage always replays the
// same way. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "model/app_model.h"

namespace sf::analysis {

// `count` sorted durations with the quantiles' values at their ranks and summing to `sum_ms`
// when the anchors allow it (every value stays between its neighbouring anchors).
std::vector<double> durations_from_quantiles(const model::Quantiles& quantiles, double sum_ms);

// The summed duration of the stage attempt's successful task attempts.
double succeeded_task_time_ms(const model::StageAttempt& stage);

// Every task attempt of the stage attempt that held a slot (successful, failed, killed), in
// replay order. Without quantiles (a stage past the builder's open-task limit) the successful
// attempts all get their mean duration.
std::vector<double> replay_task_durations(const model::StageAttempt& stage);

}  // namespace sf::analysis

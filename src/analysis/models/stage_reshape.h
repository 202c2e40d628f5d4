// What a stage would take with its work cut differently: the model behind every fix that
// changes the shape of a stage's tasks (more partitions, fewer tiny ones, a skewed partition
// split, less spill or GC). Such a fix shrinks the longest task itself, so the stage's floor as
// it ran (its longest task) is the wrong clip for it; the floor after the fix is this estimate.
//
// From the stage's own measurements:
//   slot time    the time its task attempts held a task slot (sum of launch-to-finish durations)
//   overhead     per task: deserialization (less the first wave's excess over the median task:
//                setting the stage up on a core is paid once per core), scheduler delay, result
//                serialization and fetch, and the shortest executor run time up to as much again
//                (what an empty task pays)
//   data work    slot time - tasks x overhead: the part that moves with the data
//   cores        the cores held during the stage's window (occupancy.h)
//   residual     the wait from the stage's submission to its first task: what no reshaping of
//                its tasks removes (executors arriving, broadcasts, the driver planning)
// With N' even tasks and a share w of the data work left:
//   duration' = max(w x work / N' + overhead, (w x work + N' x overhead) / min(cores, N')) + residual
// The figures are estimates from one run; docs/impact-model.md says what they leave out.
#pragma once

#include "analysis/models/occupancy.h"
#include "model/app_model.h"

namespace sf::analysis {

struct StageWork {
  double duration_ms = 0;
  double tasks = 0;    // successful task attempts
  double slot_ms = 0;  // sum of task attempt durations
  double longest_ms = 0;
  double overhead_ms = 0;  // per task
  double data_work_ms = 0;
  double cores = 1;  // held during the window, on average
  double residual_ms = 0;
};

// `max_overhead_ms` caps the per-task overhead of a stage of at most two tasks a core: most of
// its tasks, the median one too, were their core's first, whose set-up (classes loaded, the
// task's binary fetched) is paid once per core, not once per task, and cannot be told from the
// rest. A stage of more waves measures a later task's cost, however high (a driver slow to take
// results back shows as scheduler delay on every task).
// `cores` is what the reshaped stage could run on: the cores of its window, or under dynamic
// allocation (which releases idle executors and asks for more when tasks wait) the most the
// application got.
StageWork stage_work(const model::StageAttempt& stage, const StageOccupancy& occupancy, double cores,
                     double max_overhead_ms);

// The stage's duration with its data work in `tasks` even tasks, `work_share` of it left.
double reshaped_duration_ms(const StageWork& work, double tasks, double work_share = 1.0);

// What removing `removed_task_ms` of task time (a sort, a shuffle write, Python workers' time)
// takes off the stage, its tasks otherwise as they were: the difference it makes to the stage
// run evenly, so the gain of evening out its tasks is not counted as the removal's.
double removed_work_wall_ms(const StageWork& work, double removed_task_ms);

}  // namespace sf::analysis

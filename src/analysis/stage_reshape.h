// What a stage would take with its work cut differently: the model behind every fix that
// changes the shape of a stage's tasks (more partitions, fewer tiny ones, a skewed partition
// split, less spill or GC). Such a fix shrinks the longest task itself, so the stage's floor as
// it ran (its longest task) is the wrong clip for it; the floor after the fix is this estimate.
//
// From the stage's own measurements:
//   slot time    the time its task attempts held a task slot (sum of launch-to-finish durations)
//   overhead     per task: deserialization, scheduler delay, result serialization and fetch,
//                and the shortest executor run time (what even an empty task pays)
//   data work    slot time - tasks x overhead: the part that moves with the data
//   cores        the cores held during the stage's window (occupancy.h)
//   residual     what the stage's duration has beyond max(longest task, slot time / slots used):
//                waits no reshaping removes (executors arriving, the driver between waves)
// With N' even tasks and a share w of the data work left:
//   duration' = max(w x work / N' + overhead, (w x work + N' x overhead) / min(cores, N')) + residual
// The figures are estimates from one run; docs/impact-model.md says what they leave out.
#pragma once

#include "analysis/occupancy.h"
#include "model/app_model.h"

namespace sf::analysis {

struct StageWork {
  double duration_ms = 0;
  double tasks = 0;             // successful task attempts
  double slot_ms = 0;           // sum of task attempt durations
  double longest_ms = 0;
  double overhead_ms = 0;       // per task
  double data_work_ms = 0;
  double cores = 1;             // held during the window, on average
  double residual_ms = 0;
};

StageWork stage_work(const model::StageAttempt& stage, const StageOccupancy& occupancy);

// The stage's duration with its data work in `tasks` even tasks, `work_share` of it left.
double reshaped_duration_ms(const StageWork& work, double tasks, double work_share = 1.0);

}  // namespace sf::analysis

// The occupancy model's view of one run over time, as the dashboard's overview and timeline draw
// it: each stage attempt's window, gate and average concurrency (analysis::compute_occupancy),
// the cores the application held (analysis::held_core_spans) and the cores its stages kept busy,
// as step series. Plain data, the same bytes for the same model:
//
//   {"stages": [{"stageId", "attemptId", "startMs", "endMs", "gate", "coreWeight", "windowCores"}],
//    "coresAllocated": [[timeMs, cores], ...], "coresBusy": [[timeMs, cores], ...]}
//
// coresBusy sums, at each instant, the coreWeight (task time / duration) of the stages whose
// windows hold it: the average concurrency the occupancy model gives each stage, not a count of
// running tasks (the model keeps no task records). Executors never removed hold their cores to
// the end of the application.
#pragma once

#include <string>

#include "model/app_model.h"

namespace sf::report {

// On one line: the dashboard's API answers it as it is and a self-contained page inlines it.
std::string timeline_json(const model::AppModel& model);

}  // namespace sf::report

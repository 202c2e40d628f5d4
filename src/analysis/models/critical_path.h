// The least wall-clock the application could take with unlimited executors, and with today's
// cores and no skew.
//
// Driver-only time (before the first job, between jobs, after the last: time_split.h) no
// executor count shortens, so both figures keep it. Inside the jobs, a stage attempt's floor is
// the wait before its first task (executors arriving, broadcasts, the driver serializing tasks;
// not counted when another stage was running as it was submitted: then it waited for cores,
// stage_graph.h) plus its longest task: with a core for every task the stage takes no less. The longest chain
// of floors through the stage graph (stage_graph.h: parents, retried attempts, the submitting
// job, jobs that had completed before a job was submitted) is the least the jobs take:
//
//   critical path = driver-only time + the longest chain of stage floors
//   ideal         = driver-only time + the longest chain of even stages, where a stage's tasks
//                   all take their mean and run in waves on today's cores:
//                   wait + mean task x ceil(task attempts / cores)
//
// Each floor is at most its window and the windows along a chain are disjoint and inside the
// jobs' time, so the critical path never exceeds the measured wall-clock (nor does the ideal).
// Pure; thread-safe.
#pragma once

#include <optional>
#include <vector>

#include "analysis/findings/finding.h"
#include "model/app_model.h"

namespace sf::analysis {

struct PathStage {
  StageRef stage;
  double wait_ms = 0;  // submission to its first task, when not a wait for cores
  double longest_task_ms = 0;
  double floor_ms = 0;  // wait + longest task, at most its window
};

struct CriticalPath {
  double wall_clock_ms = 0;  // measured
  double driver_only_ms = 0;
  double chain_ms = 0;   // the longest chain of stage floors
  double length_ms = 0;  // driver-only + chain: the least wall-clock with unlimited executors
  double ideal_chain_ms = 0;
  double ideal_ms = 0;            // driver-only + the longest chain of even stages on today's cores
  double cores = 0;               // today's cores, for the ideal
  std::vector<PathStage> stages;  // the stage attempts on the critical path, in time order
};

// nullopt when the log has no application start.
std::optional<CriticalPath> critical_path(const model::AppModel& model);

}  // namespace sf::analysis

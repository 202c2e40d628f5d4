// The order the log shows work ran in: which stage attempts had to wait for which, and which
// jobs for which. The critical path and the what-if simulation both walk it.
//
// A stage attempt waits for its parents (the latest attempt of each parent stage that completed
// before it was submitted), for its own stage's earlier attempt, and for the job that submitted
// it (the latest-submitted of the jobs that ran it). A job waits for every job that completed
// before it was submitted: jobs of one driver thread run one after another, and jobs the log
// shows running at the same time (threads) stay concurrent.
//
// Every window is clipped to its job's and the application's, and an edge joins only a
// predecessor that ended before its successor began: so the windows along any chain are
// disjoint and inside the jobs' time, which is what keeps the critical path under the measured
// wall-clock. Attempts never submitted (skipped) are not in the graph.
//
// Plain data built once from the model; read-only afterwards, safe to share between threads.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "analysis/models/occupancy.h"
#include "model/app_model.h"

namespace sf::analysis {

inline constexpr size_t kNoJob = static_cast<size_t>(-1);    // a stage attempt no job submitted
inline constexpr size_t kNoStage = static_cast<size_t>(-1);  // no stage attempt of the graph

struct GraphStage {
  size_t stage_index = 0;  // into model.stages
  size_t job = kNoJob;     // into StageGraph::jobs: the job that submitted it
  Interval window;         // submission to completion, clipped
  bool completed = false;  // the log has its completion
  // Submission to its first task's launch (0 when no task launched): executors arriving,
  // broadcasts, the driver serializing the tasks, or cores busy with another stage.
  double wait_ms = 0;
  bool launched_tasks = false;
  // Another stage attempt was running when it was submitted: its wait was (at least in part) for
  // free cores, which more executors would have given it. Otherwise no executor count shortens it.
  bool submitted_while_busy = false;
  // The wait more executors would not shorten: wait_ms, or 0 when it was submitted while busy.
  double fixed_wait_ms() const { return submitted_while_busy ? 0.0 : wait_ms; }
  std::vector<size_t> predecessors;  // into StageGraph::stages: parents' and its own earlier attempts
};

struct GraphJob {
  size_t job_index = 0;  // into model.jobs
  Interval window;       // submission to completion (the application's end when it never ended)
  bool completed = false;
  std::vector<size_t> stages;  // into StageGraph::stages, by submission
  // How many jobs, in completion order (StageGraph::jobs_by_completion), had completed when this
  // one was submitted: the jobs it waited for.
  size_t jobs_done_before = 0;
};

struct StageGraph {
  Interval app;  // the application's start and end
  bool app_finished = false;
  std::vector<GraphStage> stages;          // by submission time, then stage id and attempt
  std::vector<GraphJob> jobs;              // by submission time, then job id
  std::vector<size_t> jobs_by_completion;  // into jobs
};

// nullopt when the log has no application start.
std::optional<StageGraph> build_stage_graph(const model::AppModel& model);

}  // namespace sf::analysis

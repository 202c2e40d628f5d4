// A scheduler simulation: the application's stages replayed onto N executors of C cores.
//
// What is replayed: each stage attempt's task attempts (task_durations.h: rebuilt from the
// model's exact quantiles, count and sums), in the order the stage graph allows (stage_graph.h).
// What is kept as the log shows it: every wait that is not tasks running on cores, measured from
// the event it followed:
//   - a job is submitted as long after the last of the jobs that had completed before it (or
//     after the application start) as it was in the log: driver-only time stays as it was;
//   - a stage attempt is submitted as long after the last of its parents, earlier attempt and
//     job as it was; its tasks become ready after its wait for a first task (executors arriving,
//     broadcasts, task serialization), unless another stage was running when it was submitted:
//     that wait was for free cores, which the simulation works out for itself;
//   - a job completes as long after its last stage as it did, and the application ends as long
//     after its last job.
// Ready tasks take free cores in Spark's FIFO order (the submitting job's id, then the stage id);
// a stage completes when its last task does.
//
// Executors: a cluster gives them no faster than it did. The executors asked for at the start
// (static allocation: all N; dynamic allocation: the initial ones) register as the log's first
// ones did, the k-th as the k-th (more than the log had: as its last). Executors asked for later
// (dynamic allocation, or to replace a lost one) register the startup the log shows after they
// were asked for (cluster_shape.h); while the cluster is within today's size, also no sooner
// than the log's later registrations, in order (beyond today's size the log says nothing of the
// cluster's pace). An executor paced by the log's k-th is lost as that one was (a failed
// container, a lost worker: removed for anything but scaling down), after the same time; the
// tasks it was running start again elsewhere, and a static cluster asks for a replacement.
// Dynamic allocation follows Spark's ExecutorAllocationManager: its target starts at the initial
// executors and stays there until the first stage is submitted. Tasks waiting for the backlog
// timeout raise it by one executor, and while tasks keep waiting, every sustained timeout by
// twice the round before (back to one when a round is cut short), never beyond N nor the
// executors allocation_ratio of the pending and running tasks would fill
// (ceil(tasks x ratio / cores)). When the tasks need fewer than the target, it falls to that need
// (at least minExecutors) at once, and requests not yet met are withdrawn, the latest first. An
// idle executor leaves after the idle timeout while the cluster holds more than the target.
//
// Not modelled: locality waits (tasks run on the first free core), the FAIR scheduler (pools run
// in FIFO order), speculation (killed copies are replayed as tasks of their mean duration),
// Spark's 100 ms allocation tick, dynamic allocation's keeping executors that hold cached blocks,
// and tasks that run faster or slower because more of them share a host.
//
// ScheduleSimulation is built once per model and run for as many cluster sizes as wanted; run()
// is const and thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/models/stage_graph.h"
#include "analysis/settings/cluster_shape.h"
#include "model/app_model.h"

namespace sf::analysis {

struct SimulatedCluster {
  int32_t executors = 1;           // static: how many; dynamic allocation: the most
  int32_t slots_per_executor = 1;  // cores / spark.task.cpus
  bool dynamic_allocation = false;
  int32_t min_executors = 0;       // dynamic allocation
  int32_t initial_executors = 0;   // dynamic allocation (static: all `executors` are initial)
  double idle_timeout_ms = 60000;  // dynamic allocation
  // Dynamic allocation's ramp (cluster_shape.h DynamicAllocation); a timeout of 0 asks at once.
  double backlog_timeout_ms = 1000;
  double sustained_backlog_timeout_ms = 1000;
  double allocation_ratio = 1;
  double startup_ms = 0;        // from asking for an executor (after the start) to its registration
  int32_t today_executors = 1;  // the most the log's cluster held at once
  // The executors asked for at the start: the k-th registers as initial[min(k, size - 1)] did in
  // the log (at once when empty), and is lost as initial[k] was.
  std::vector<LoggedExecutor> initial;
  // Executors asked for later (by dynamic allocation, or to replace lost ones) register startup_ms
  // after they were asked for; while they keep the cluster within today_executors, the k-th of
  // those also no sooner than later[min(k, size - 1)] did, and is lost as later[k] was.
  std::vector<LoggedExecutor> later;
};

struct SimulationResult {
  double wall_clock_ms = 0;
  double executor_ms_held = 0;  // executors' lifetimes summed: what the cluster was paid for
  int32_t peak_executors = 0;
  // Each stage attempt's simulated submission and completion, ms after the application start,
  // in the graph's order (ScheduleSimulation::graph()).
  std::vector<Interval> stage_windows;
};

class ScheduleSimulation {
 public:
  // The replayed stages' task durations are worked out on up to `threads` threads (the calling
  // one among them): the same simulation whatever the count.
  explicit ScheduleSimulation(const model::AppModel& model, unsigned threads = 1);

  // The log has an application start (nothing to simulate without one).
  bool usable() const { return graph_.has_value(); }
  // The graph the replay follows; only when usable().
  const StageGraph& graph() const { return *graph_; }
  SimulationResult run(const SimulatedCluster& cluster) const;

 private:
  struct StagePlan {
    std::vector<double> tasks_ms;  // replay order; empty: the stage keeps its measured duration
    double ready_after_ms = 0;     // submission to its tasks being ready
    double fixed_duration_ms = 0;  // when not replayed
    int64_t job_id = 0;            // FIFO priority: the submitting job, then the stage
    int64_t stage_id = 0;
    int32_t attempt_id = 0;
  };

  // A point in the run each replay reaches: the application's start and end, each job's
  // submission and completion, each stage attempt's submission and completion.
  struct Milestone {
    double real_ms = 0;   // when the log has it, after the application start
    double delay_ms = 0;  // after the latest of its predecessors
    size_t waiting = 0;   // predecessors (and gates) before it can be reached
    std::vector<size_t> dependents;
  };

  std::optional<StageGraph> graph_;
  std::vector<StagePlan> plans_;  // one per graph stage
  std::vector<Milestone> milestones_;
  size_t stage_submitted_base_ = 0;  // milestones of stage s: base + 2s (submitted), base + 2s + 1 (completed)
  std::vector<size_t> job_gates_;    // per graph job: jobs (in completion order) it waits for

  class Replay;  // one run()
};

}  // namespace sf::analysis

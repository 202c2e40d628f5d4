// What the log says about the cluster the application ran on: how many executors of how many
// cores it had, how much memory each one was given (what a cloud bills), the driver's share, when
// executors arrived, and how dynamic allocation was set. The critical path, the what-if
// simulation and the cost all read the cluster from here, so they agree on "today's size".
//
// Today's executors: the most held at once (under dynamic allocation too: what the cluster gave,
// which its maxExecutors or the cluster itself may have bounded). Cores
// per executor: the most common count the executors registered with; in local mode the driver's
// (it runs the tasks); failing both, spark.executor.cores, the peak cores over the peak executors,
// and last the most tasks one executor started before finishing any (its slots, when the first
// stage had enough tasks to fill them).
//
// Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "model/app_model.h"

namespace sf::analysis {

struct DynamicAllocation {
  bool enabled = false;
  int32_t min_executors = 0;
  // max(initialExecutors, minExecutors, spark.executor.instances, the executors that registered
  // within a startup of the first one: asked for together at the start, and the most alive at a
  // registration beyond what the tasks waiting and running until then could have asked for)
  int32_t initial_executors = 0;
  std::optional<int32_t> max_executors;  // nullopt: no bound
  double idle_timeout_ms = 60000;
  // Spark's ramp: tasks waiting for backlog_timeout_ms ask for one more executor, and while they
  // keep waiting, every sustained_backlog_timeout_ms twice as many as the round before, never
  // more than allocation_ratio of the executors the pending and running tasks would fill.
  double backlog_timeout_ms = 1000;
  double sustained_backlog_timeout_ms = 1000;
  double allocation_ratio = 1;
};

// One executor as the log shows it: when it registered (ms after the application start) and,
// when it was lost (removed for a reason other than scaling down: a failed container, a lost
// worker), how long after registering; 0 when it was not.
struct LoggedExecutor {
  double registered_ms = 0;
  double lost_after_ms = 0;
};

struct ClusterShape {
  bool local_mode = false;  // the tasks ran in the driver's JVM (local[N])
  int32_t executors = 1;    // today's size
  int32_t cores_per_executor = 1;
  bool cores_estimated = false;    // no executor (or driver, in local mode) reported its cores
  int32_t task_cpus = 1;           // spark.task.cpus: cores each task takes
  double executor_memory_gib = 0;  // per executor: heap + overhead + off-heap + PySpark memory
  double driver_cores = 1;
  double driver_memory_gib = 0;  // heap + overhead (heap only in local mode)
  DynamicAllocation dynamic_allocation;
  std::vector<LoggedExecutor> executor_registrations;  // by registration
  // From asking for an executor to its registration, as the log shows it: the median of the
  // logged request-to-registration times (Spark 3.4+), else, over executors that registered after
  // the first job, of the wait since the last stage or job was submitted before them. 0 when
  // nothing shows it.
  double executor_startup_ms = 0;

  int32_t total_cores() const { return executors * cores_per_executor; }
};

ClusterShape cluster_shape(const model::AppModel& model);

// An executor removal dynamic allocation (or the driver) asked for, by its reason: an idle
// timeout, "killed by driver", decommissioning, YARN's "explicit termination request". Any other
// removal is a loss.
bool removed_by_scaling(std::string_view reason);

// What a container of `role` ("executor", "driver") holds besides a heap of `heap_bytes`:
// spark.<role>.memoryOverhead, else spark.<role>.memoryOverheadFactor (0.1) of the heap, at least
// spark.<role>.minMemoryOverhead (384 MiB), as the application ran with them.
double memory_overhead_bytes(const model::AppModel& model, std::string_view role, double heap_bytes);

// A memory setting in effect ("4g", "4096" is MiB) in GiB; nullopt when neither the application
// nor its Spark's default says.
std::optional<double> memory_setting_gib(const model::AppModel& model, std::string_view key);

}  // namespace sf::analysis

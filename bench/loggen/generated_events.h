// The generator's own vocabulary: what it decided, as plain data, before and after it becomes
// JSON. The simulation (simulation.h) fills these, the event writer (event_writer.h) turns them
// into Spark's JSON lines, and the truth recorder (truth_recorder.h) folds the same values into
// GroundTruth, so the log and its truth can never say different things.
//
// Hot structures (TaskAttempt) hold no strings: they point into tables owned by the wave.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spark/task_metrics.h"

namespace sf::loggen {

// One executor of the simulated cluster ("driver" is not one: it only has a block manager).
struct ExecutorInfo {
  std::string id;  // "1", "2", ...
  std::string host;
  int32_t port = 0;  // block manager port
  int32_t cores = 0;
  std::string container_id;  // YARN container, for log URLs and removal reasons
  int64_t add_ms = 0;
  int64_t block_manager_add_ms = 0;
  int64_t max_memory_bytes = 0;
  std::optional<int64_t> remove_ms;
  std::string remove_reason;
  // A bad node: its tasks take this many per mille of the normal time (1000 = normal).
  int32_t slowdown_permille = 1000;
};

struct StorageLevel {
  bool use_disk = false;
  bool use_memory = false;
  bool deserialized = false;
  int32_t replication = 1;
  bool cached() const { return use_disk || use_memory; }
};

struct RddDesc {
  int64_t id = 0;
  std::string name;        // "MapPartitionsRDD", or the name the program gave it
  std::string scope_json;  // the operation scope as Spark logs it (a JSON text); "" for none
  std::string callsite;
  std::vector<int64_t> parent_ids;
  int32_t num_partitions = 0;
  StorageLevel storage;
};

// The local properties a job (and its stages) is submitted with.
struct JobProperties {
  std::string description;                  // spark.job.description
  std::string job_group;                    // spark.jobGroup.id
  std::optional<int64_t> sql_execution_id;  // spark.sql.execution.id
};

// How a SQL metric's per-task update derives from the task's metrics: base * num / den, or a
// constant one per task ("number of output files" of a writing task, say).
struct MetricSource {
  spark::TaskMetric base = spark::TaskMetric::kCount;  // kCount: the constant 1
  int32_t num = 1;
  int32_t den = 1;
};

// A SQL plan metric that the tasks of a stage update.
struct SqlMetricBinding {
  int64_t accumulator_id = 0;
  std::string_view name;  // static text ("number of output rows")
  MetricSource source;
  // The accumulator's value on the driver: one per id, shared by every stage attempt that
  // updates it (a retried stage's values add to its first attempt's). Owned by the query.
  int64_t* total = nullptr;
};

// Spark registers one accumulator per task metric for every stage attempt; these are their
// names, in registration order, with the metric each one carries (kCount: never non-zero here).
struct InternalAccumulator {
  std::string_view name;
  spark::TaskMetric metric;
};
inline constexpr size_t kInternalAccumulatorCount = 35;
extern const std::array<InternalAccumulator, kInternalAccumulatorCount> kInternalAccumulators;

// One attempt of one stage, as its StageInfo is logged.
struct StageAttemptDesc {
  int64_t stage_id = 0;
  int32_t attempt_id = 0;
  std::string name;
  std::string details;
  int32_t num_tasks = 0;
  std::vector<int64_t> parent_ids;  // sorted
  std::vector<RddDesc> rdds;
  bool result_stage = false;  // ResultTask or ShuffleMapTask
  const JobProperties* properties = nullptr;
  int64_t internal_accumulator_base = 0;  // ids base .. base + kInternalAccumulatorCount - 1
  std::vector<SqlMetricBinding> sql_metrics;
  std::optional<int64_t> submission_ms;
  std::optional<int64_t> completion_ms;
  std::optional<std::string> failure_reason;
  // While the log is written: this attempt's running totals of its task-metric accumulators
  // (by kInternalAccumulators index), and which SQL metrics its tasks have updated.
  std::array<int64_t, kInternalAccumulatorCount> accumulator_totals{};
  std::vector<uint8_t> sql_updated;
};

enum class TaskEndKind : uint8_t { kSuccess, kExceptionFailure, kExecutorLost, kFetchFailed, kKilled };
enum class Locality : uint8_t { kProcessLocal, kNodeLocal, kRackLocal, kAny };

// Why an attempt did not succeed: the fields of its "Task End Reason".
struct TaskEndReason {
  TaskEndKind kind = TaskEndKind::kSuccess;
  std::string text;         // ExceptionFailure Class Name, Kill Reason, Loss Reason, FetchFailed Message
  std::string description;  // ExceptionFailure Description
  std::string executor_id;  // ExecutorLostFailure executor, FetchFailed block manager
  std::string host;         // FetchFailed block manager
  int32_t port = 0;
  int64_t shuffle_id = 0;
  int64_t map_id = 0;
  int32_t map_index = 0;
  int32_t reduce_id = 0;
  bool exit_caused_by_app = false;
};

// One task attempt, start to end.
struct TaskAttempt {
  int64_t task_id = 0;
  int32_t stage = 0;  // index of its stage attempt in the wave
  int32_t index = 0;  // within the task set
  int32_t partition = 0;
  int32_t attempt = 0;   // attempt number of this index
  int32_t executor = 0;  // index into the cluster's executors
  int64_t launch_ms = 0;
  int64_t finish_ms = 0;
  int64_t getting_result_ms = 0;  // when the driver began fetching the result; 0 if it did not
  bool speculative = false;
  Locality locality = Locality::kProcessLocal;
  TaskEndKind end = TaskEndKind::kSuccess;
  int32_t reason = -1;      // index into the wave's reasons when end != kSuccess
  bool has_metrics = true;  // ExecutorLostFailure and FetchFailed report none
  // Every slot, the derived ones too (duration, getting result, scheduler delay).
  spark::TaskMetricValues metrics{};
};

// One accumulator update a TaskEnd carries (Task Info "Accumulables").
struct AccumulatorUpdate {
  int64_t id = 0;
  std::string_view name;
  int64_t update = 0;
  int64_t value = 0;
  bool sql = false;
};

// A node of a SQL physical plan (sparkPlanInfo), flattened in preorder.
struct PlanMetricDesc {
  std::string_view name;
  std::string_view metric_type;  // sum, size, timing, nsTiming, average
  int64_t accumulator_id = 0;
};

struct PlanNodeDesc {
  std::string name;
  std::string simple_string;
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<PlanMetricDesc> metrics;
  std::vector<int32_t> children;  // preorder indices
};

struct PlanDesc {
  std::vector<PlanNodeDesc> nodes;  // preorder; nodes[0] is the root
  std::string description;          // physicalPlanDescription
};

}  // namespace sf::loggen

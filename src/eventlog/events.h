// Typed Spark listener events: what the decoder turns one JSON line into.
//
// Only the events and fields the model uses are here; everything else in a line is skipped by
// the decoder without being materialized. Field names follow Spark's JsonProtocol. Strings in
// the hot events (task start/end) are views into the line being decoded and are valid only
// during the handler call; the rarer events own their strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spark/task_metrics.h"
#include "spark/vocabulary.h"

namespace sf::eventlog {

using spark::KeyValues;

// The longest string an event carries: a longer one is cut (text::cut_text: its first bytes and
// " [cut: N bytes in all]"). Every string the model keeps comes from an event, so these bound
// them, and with them what a report, a listing page or a tool answer holds of one hostile field
// (a 1 GB Spark version was 4.9 GB of memory and a 1 GB report).
//   names and identifiers (application, stage, RDD and accumulator names, ids, versions, hosts,
//   users, property keys): what a listing shows and what joins are made on;
inline constexpr size_t kMaxNameBytes = size_t{1} << 10;
//   free text (descriptions, call sites, plan text, property values, failure messages, stack
//   traces): what a person reads.
inline constexpr size_t kMaxTextBytes = size_t{1} << 20;

struct LogStart {
  std::string spark_version;
};

// Databricks runtimes write this instead of SparkListenerLogStart.
struct DatabricksMetadata {
  std::string spark_version;
  std::optional<int64_t> timestamp_ms;
};

struct ApplicationStart {
  std::string app_name;
  std::string app_id;
  std::optional<std::string> attempt_id;
  std::optional<int64_t> timestamp_ms;
  std::string user;
  KeyValues driver_logs;
  KeyValues driver_attributes;
};

struct ApplicationEnd {
  std::optional<int64_t> timestamp_ms;
  std::optional<int32_t> exit_code;
};

struct EnvironmentUpdate {
  KeyValues jvm_information;
  KeyValues spark_properties;
  KeyValues system_properties;
  KeyValues hadoop_properties;
  KeyValues metrics_properties;
  KeyValues classpath_entries;
};

struct ResourceProfileAdded {
  spark::ResourceProfile profile;
};

struct ExecutorAdded {
  std::optional<int64_t> timestamp_ms;
  std::string executor_id;
  std::string host;
  int32_t total_cores = 0;
  bool has_total_cores = false;
  int32_t resource_profile_id = 0;
  KeyValues log_urls;
  KeyValues attributes;
  std::vector<spark::ResourceInformation> resources;
};

struct ExecutorRemoved {
  std::optional<int64_t> timestamp_ms;
  std::string executor_id;
  std::string reason;
};

struct BlockManagerAdded {
  std::optional<int64_t> timestamp_ms;
  std::string executor_id;
  std::string host;
  std::optional<int64_t> port;
  int64_t max_memory_bytes = 0;
  std::optional<int64_t> max_onheap_memory_bytes;
  std::optional<int64_t> max_offheap_memory_bytes;
};

struct BlockManagerRemoved {
  std::optional<int64_t> timestamp_ms;
  std::string executor_id;
};

// The properties of a job or stage submission that the model uses.
struct SubmissionProperties {
  std::optional<int64_t> sql_execution_id;  // spark.sql.execution.id
  std::string job_description;              // spark.job.description
  std::string job_group;                    // spark.jobGroup.id
  std::string job_tags;                     // spark.job.tags: comma-separated (Spark 3.5+)
  std::string scheduler_pool;               // spark.scheduler.pool
};

struct StageInfo {
  int64_t stage_id = 0;
  int32_t attempt_id = 0;
  std::string name;
  int32_t num_tasks = 0;
  std::vector<spark::RddInfo> rdds;
  std::vector<int64_t> parent_ids;
  std::string details;
  std::optional<int64_t> submission_time_ms;
  std::optional<int64_t> completion_time_ms;
  std::optional<std::string> failure_reason;
  std::vector<spark::Accumulable> accumulables;
  int32_t resource_profile_id = 0;
  bool shuffle_push_enabled = false;
  int32_t shuffle_mergers_count = 0;
};

struct JobStart {
  int64_t job_id = 0;
  std::optional<int64_t> submission_time_ms;
  std::vector<int64_t> stage_ids;
  std::vector<StageInfo> stage_infos;
  SubmissionProperties properties;
};

struct JobEnd {
  int64_t job_id = 0;
  std::optional<int64_t> completion_time_ms;
  bool succeeded = false;
  std::string failure_message;
};

struct StageSubmitted {
  StageInfo info;
  SubmissionProperties properties;
};

struct StageCompleted {
  StageInfo info;
};

// Task Info; views into the line.
struct TaskInfo {
  int64_t task_id = 0;
  int32_t index = 0;
  int32_t attempt = 0;
  std::optional<int32_t> partition_id;
  int64_t launch_time_ms = 0;
  std::string_view executor_id;
  std::string_view host;
  std::string_view locality;
  bool speculative = false;
  int64_t getting_result_time_ms = 0;
  int64_t finish_time_ms = 0;
  bool failed = false;
  bool killed = false;
};

// One accumulable of a task's Task Info, in full (DecoderOptions::task_accumulables).
struct TaskAccumulable {
  int64_t id = 0;
  std::string name;
  std::string update;  // as logged; "" when the log has none
  std::string value;
  bool internal = false;
  std::string metadata;  // "sql" for SQL metrics
};

struct TaskStart {
  int64_t stage_id = 0;
  int32_t stage_attempt_id = 0;
  TaskInfo info;
};

enum class TaskEndReason {
  kSuccess,
  kResubmitted,
  kTaskKilled,
  kTaskCommitDenied,
  kExceptionFailure,
  kExecutorLostFailure,
  kFetchFailed,
  kTaskResultLost,
  kUnknownReason,
};

std::string_view to_string(TaskEndReason reason);

struct TaskEnd {
  int64_t stage_id = 0;
  int32_t stage_attempt_id = 0;
  std::string_view task_type;
  TaskEndReason reason = TaskEndReason::kSuccess;
  std::string_view reason_text;       // the "Reason" field as logged
  std::string_view exception_class;   // ExceptionFailure's Class Name
  std::string_view kill_reason;       // TaskKilled's Kill Reason
  std::string_view loss_reason;       // ExecutorLostFailure's Loss Reason
  bool exit_caused_by_app = true;     // ExecutorLostFailure's Exit Caused By App (true when not logged)
  std::string_view description;       // ExceptionFailure's Description
  std::string_view full_stack_trace;  // ExceptionFailure's Full Stack Trace (Spark 1.2+)
  std::string_view fetch_failed_message;  // FetchFailed's Message: the FetchFailedException's trace
  // FetchFailed's block: where it was to be fetched from and which one (Spark's message names them).
  struct FetchFailedBlock {
    bool has_address = false;  // Block Manager Address, null when Spark had none
    std::string_view executor_id;
    std::string_view host;
    int64_t port = 0;
    int64_t shuffle_id = 0;
    int64_t map_id = 0;
    std::optional<int64_t> map_index;  // Spark 3.0+
    int64_t reduce_id = 0;
  } fetch_failed;
  // TaskCommitDenied's job, partition and attempt number, which its reason text names.
  int64_t commit_denied_job = 0;
  int64_t commit_denied_partition = 0;
  int64_t commit_denied_attempt = 0;
  TaskInfo info;
  bool has_metrics = false;
  spark::TaskMetricValues metrics{};  // zeros where the log has no value
  spark::ExecutorMetricPeaks executor_metrics;  // "Task Executor Metrics", if present
  // Accumulator ids of the task's accumulables (Task Info/Accumulables, or the failure
  // reason's Accumulator Updates), for plan-node attribution.
  std::vector<int64_t> accumulator_ids;
  // Task Info's accumulables in full; filled only with DecoderOptions::task_accumulables.
  std::vector<TaskAccumulable> accumulables;
};

struct StageExecutorMetrics {
  std::string executor_id;
  int64_t stage_id = 0;
  int32_t stage_attempt_id = 0;
  spark::ExecutorMetricPeaks metrics;
};

// A process besides the driver and executors (a YARN application master), Spark 3.2+.
struct MiscellaneousProcessAdded {
  std::optional<int64_t> timestamp_ms;
  std::string process_id;
  std::string host_port;
  int32_t cores = 0;
  KeyValues log_urls;
};

struct UnpersistRdd {
  int64_t rdd_id = 0;
};

// SparkListenerExecutorExcluded/Blacklisted and their For-Stage, Node and Un- variants.
struct ExclusionChange {
  enum class Target { kExecutor, kNode } target = Target::kExecutor;
  bool excluded = true;                    // false for the Un-excluded variants
  std::string id;                          // executor id or host
  std::optional<int64_t> stage_id;         // for the ForStage variants
  std::optional<int32_t> stage_attempt_id;
  std::optional<int64_t> timestamp_ms;
};

struct SqlExecutionStart {
  int64_t execution_id = 0;
  std::optional<int64_t> root_execution_id;
  std::string description;
  std::string details;
  std::string physical_plan_description;
  spark::PlanTree plan;
  std::optional<int64_t> time_ms;
  KeyValues modified_configs;
  std::optional<std::string> query_id;  // the query's UUID (Spark 4.1+)
};

struct SqlExecutionEnd {
  int64_t execution_id = 0;
  std::optional<int64_t> time_ms;
  std::optional<std::string> error_message;
};

struct SqlAdaptiveExecutionUpdate {
  int64_t execution_id = 0;
  std::string physical_plan_description;
  spark::PlanTree plan;
};

struct SqlAdaptiveMetricUpdates {
  int64_t execution_id = 0;
  std::vector<spark::PlanMetric> metrics;
};

struct DriverAccumUpdates {
  int64_t execution_id = 0;
  std::vector<std::pair<int64_t, int64_t>> updates;  // accumulator id, value
};

// Receives decoded events in log order. The model builder implements it; tests and
// benchmarks implement it to observe the decoder alone. A handler that overrides only some
// events writes `using EventHandler::on;` so the others stay visible.
class EventHandler {
 public:
  virtual ~EventHandler() = default;

  virtual void on(const LogStart&) {}
  virtual void on(const DatabricksMetadata&) {}
  virtual void on(const ApplicationStart&) {}
  virtual void on(const ApplicationEnd&) {}
  virtual void on(const EnvironmentUpdate&) {}
  virtual void on(const ResourceProfileAdded&) {}
  virtual void on(const ExecutorAdded&) {}
  virtual void on(const ExecutorRemoved&) {}
  virtual void on(const BlockManagerAdded&) {}
  virtual void on(const BlockManagerRemoved&) {}
  virtual void on(const JobStart&) {}
  virtual void on(const JobEnd&) {}
  virtual void on(const StageSubmitted&) {}
  virtual void on(const StageCompleted&) {}
  virtual void on(const TaskStart&) {}
  virtual void on(const TaskEnd&) {}
  virtual void on(const StageExecutorMetrics&) {}
  virtual void on(const UnpersistRdd&) {}
  virtual void on(const MiscellaneousProcessAdded&) {}
  virtual void on(const ExclusionChange&) {}
  virtual void on(const SqlExecutionStart&) {}
  virtual void on(const SqlExecutionEnd&) {}
  virtual void on(const SqlAdaptiveExecutionUpdate&) {}
  virtual void on(const SqlAdaptiveMetricUpdates&) {}
  virtual void on(const DriverAccumUpdates&) {}
  // An event type the decoder does not model (counted, never an error).
  virtual void on_unknown_event(std::string_view /*event_name*/) {}
};

}  // namespace sf::eventlog

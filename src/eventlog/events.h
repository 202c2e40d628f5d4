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
  // When the scheduler asked the cluster manager for this executor and when it registered with the
  // driver (Spark 3.4+, SPARK-36664): the request time only for executors asked for through
  // requestTotalExecutors (dynamic allocation, SparkContext.requestExecutors), never for the
  // initial executors of static allocation, which the cluster manager's backend asks for itself.
  std::optional<int64_t> request_time_ms;
  std::optional<int64_t> registration_time_ms;
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
  // A micro-batch's job: its query (sql.streaming.queryId) and batch (streaming.sql.batchId); the
  // job group is the query's run id.
  std::string streaming_query_id;
  std::optional<int64_t> streaming_batch_id;
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
  std::string_view reason_text;           // the "Reason" field as logged
  std::string_view exception_class;       // ExceptionFailure's Class Name
  std::string_view kill_reason;           // TaskKilled's Kill Reason
  std::string_view loss_reason;           // ExecutorLostFailure's Loss Reason
  bool exit_caused_by_app = true;         // ExecutorLostFailure's Exit Caused By App (true when not logged)
  std::string_view description;           // ExceptionFailure's Description
  std::string_view full_stack_trace;      // ExceptionFailure's Full Stack Trace (Spark 1.2+)
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
  spark::TaskMetricValues metrics{};            // zeros where the log has no value
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
  bool excluded = true;             // false for the Un-excluded variants
  std::string id;                   // executor id or host
  std::optional<int64_t> stage_id;  // for the ForStage variants
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

// Structured Streaming's listener events (StreamingQueryListener$Query*Event), written by the
// query's driver: one progress event per micro-batch that ran (and, before Spark 3.5, one every
// spark.sql.streaming.noDataProgressEventInterval while idle). Times are ISO 8601 in UTC in the
// log, epoch milliseconds here.
struct StreamingQueryStarted {
  std::string id;      // the query's id: the same across restarts from one checkpoint
  std::string run_id;  // this run's id: new at each start
  std::string name;    // "" when the query has none
  std::optional<int64_t> timestamp_ms;
  std::vector<std::string> job_tags;  // the session's job tags (Spark 4.0+; Spark Connect's operation tags)
};

// One stateful operator's figures after the batch (StateOperatorProgress).
struct StreamingStateOperator {
  std::string operator_name;  // "stateStoreSave", "dedupe", ... (Spark 3.3+; "" before)
  int64_t rows_total = 0;
  int64_t rows_updated = 0;
  std::optional<int64_t> rows_removed;  // Spark 3.1+
  int64_t memory_used_bytes = 0;
  std::optional<int64_t> rows_dropped_by_watermark;  // Spark 3.1+ ("numLateInputs" in 3.0)
  std::optional<int32_t> shuffle_partitions;         // Spark 3.3+
  std::optional<int64_t> commit_time_ms;             // Spark 3.1+
};

// One source's figures for the batch (SourceProgress). Spark writes a rate it could not compute
// (no time elapsed) as "NaN" or "Infinity": absent here.
struct StreamingSource {
  std::string description;
  int64_t input_rows = 0;
  std::optional<double> input_rows_per_second;
  std::optional<double> processed_rows_per_second;
};

// One micro-batch's progress (StreamingQueryProgress).
struct StreamingQueryProgress {
  std::string id;
  std::string run_id;
  std::string name;
  std::optional<int64_t> timestamp_ms;  // when the batch's trigger started
  int64_t batch_id = 0;
  std::optional<int64_t> batch_duration_ms;  // Spark 3.1+; triggerExecution before
  // "durationMs": phase -> milliseconds (triggerExecution, latestOffset, getBatch, queryPlanning,
  // addBatch, walCommit, commitOffsets, ...), in the log's order.
  std::vector<std::pair<std::string, int64_t>> durations_ms;
  // "eventTime": watermark, max, min, avg, as epoch milliseconds.
  std::optional<int64_t> watermark_ms;
  std::optional<int64_t> event_time_max_ms;
  std::vector<StreamingStateOperator> state_operators;
  std::vector<StreamingSource> sources;
  std::string sink_description;
  std::optional<int64_t> sink_output_rows;  // -1 in the log when the sink does not count: absent
};

// A query with no new data: Spark 3.5+ writes one instead of an empty progress.
struct StreamingQueryIdle {
  std::string id;
  std::string run_id;
  std::optional<int64_t> timestamp_ms;
};

struct StreamingQueryTerminated {
  std::string id;
  std::string run_id;
  std::optional<std::string> exception;  // absent when the query stopped without an error
  std::optional<std::string> error_class;
};

// Spark Connect's server events (org.apache.spark.sql.connect.service.SparkListenerConnect*),
// Spark 3.4+: a client session's start and end, and each operation a client sent (a query, a
// command) through its phases. Every job an operation runs carries its jobTag among the job's
// tags, which ties jobs, stages and SQL executions to the client operation.
struct ConnectSessionEvent {
  bool started = true;  // SessionStarted, or SessionClosed
  std::string session_id;
  std::string user_id;
  std::optional<int64_t> time_ms;
};

struct ConnectOperationEvent {
  enum class Phase { kStarted, kAnalyzed, kReadyForExecution, kFinished, kFailed, kCanceled, kClosed };
  Phase phase = Phase::kStarted;
  std::string job_tag;
  std::string operation_id;
  std::optional<int64_t> time_ms;
  // kStarted:
  std::string session_id;
  std::string user_id;
  std::string user_name;
  std::string statement;  // the plan or SQL the client sent, as protobuf text
  std::vector<std::string> session_tags;
  // kFinished:
  std::optional<int64_t> produced_rows;
  // kFailed:
  std::string error_message;
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
  virtual void on(const StreamingQueryStarted&) {}
  virtual void on(const StreamingQueryProgress&) {}
  virtual void on(const StreamingQueryIdle&) {}
  virtual void on(const StreamingQueryTerminated&) {}
  virtual void on(const ConnectSessionEvent&) {}
  virtual void on(const ConnectOperationEvent&) {}
  // An event type the decoder does not model (counted, never an error).
  virtual void on_unknown_event(std::string_view /*event_name*/) {}
};

}  // namespace sf::eventlog

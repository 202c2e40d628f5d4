// AppModel: everything SparkForensics knows about one application attempt, folded from its
// event log in one pass.
//
// This is the one plain data structure that every later layer (analysis, compare, history,
// report, server, mcp) reads; none of them re-parses a log. It is built by ModelBuilder
// (model_builder.h), is immutable once built, and is safe to read from many threads.
//
// Conventions:
// - Times are epoch milliseconds; std::nullopt where the log does not say.
// - Units are in the names (_ms, _ns, _bytes).
// - Collections are sorted by their id (stage id then attempt id, job id, executor id in
//   Spark's order: "driver" first, then numeric ids numerically), so output is deterministic.
// - Task sums cover every task attempt that reported metrics, whatever its outcome (as Spark's
//   History Server sums them); distributions (quantiles) cover successful attempts only (as the
//   History Server's task summary does).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "model/connect_session.h"
#include "model/failure_cause.h"
#include "model/streaming_query.h"
#include "spark/task_metrics.h"
#include "spark/vocabulary.h"

namespace sf::model {

// The Spark vocabulary (spark/), named as the model's own: the AppModel keeps these as decoded.
using spark::Accumulable;
using spark::executor_metric_name;
using spark::ExecutorMetric;
using spark::ExecutorMetricPeaks;
using spark::fill_task_info_timings;
using spark::index_of;
using spark::kExecutorMetricCount;
using spark::KeyValues;
using spark::kQuantileMetricCount;
using spark::kTaskMetricCount;
using spark::PlanMetric;
using spark::PlanNode;
using spark::PlanTree;
using spark::quantile_metric_name;
using spark::quantile_metric_value;
using spark::QuantileMetric;
using spark::RddInfo;
using spark::ResourceInformation;
using spark::ResourceProfile;
using spark::ResourceRequest;
using spark::task_metric_name;
using spark::TaskMetric;
using spark::TaskMetricValues;

// ---------------------------------------------------------------------------------------------
// Application and environment

struct AppInfo {
  std::string id;
  std::string name;
  std::optional<std::string> attempt_id;
  std::string user;
  std::string spark_version;                  // "" when the log does not say (Spark 1.x)
  bool databricks = false;                    // log starts with DBCEventLoggingListenerMetadata
  std::optional<int64_t> start_time_ms;       // SparkListenerApplicationStart
  std::optional<int64_t> end_time_ms;         // SparkListenerApplicationEnd
  std::optional<int64_t> last_event_time_ms;  // the latest timestamp any event carried
  std::optional<int32_t> exit_code;
  bool finished = false;  // an ApplicationEnd was logged
  KeyValues driver_logs;
  KeyValues driver_attributes;

  // end - start when finished; for an unfinished log, last event time - start.
  std::optional<int64_t> duration_ms() const;
};

struct Environment {
  KeyValues jvm_information;
  KeyValues spark_properties;
  KeyValues system_properties;
  KeyValues hadoop_properties;
  KeyValues metrics_properties;
  KeyValues classpath_entries;
  std::vector<ResourceProfile> resource_profiles;  // sorted by id

  // The value of a Spark property, if set.
  const std::string* spark_property(std::string_view key) const;
};

// ---------------------------------------------------------------------------------------------
// Executors

struct Executor {
  std::string id;  // "driver" or a number
  std::string host;
  std::string host_port;  // "host:port" of its block manager; "" when none registered
  int32_t total_cores = 0;
  int32_t resource_profile_id = 0;
  // Within the run's own clock: a time the log stamped far outside it (another run's events
  // spliced in, a wrong clock) stands replaced by where its event sits in the run.
  std::optional<int64_t> add_time_ms;
  std::optional<int64_t> remove_time_ms;
  // The two as the log wrote them, when they were replaced: the History Server serves them.
  std::optional<int64_t> logged_add_time_ms;
  std::optional<int64_t> logged_remove_time_ms;
  std::optional<int64_t> add_time_as_logged() const { return logged_add_time_ms ? logged_add_time_ms : add_time_ms; }
  std::optional<int64_t> remove_time_as_logged() const {
    return logged_remove_time_ms ? logged_remove_time_ms : remove_time_ms;
  }
  // As the log wrote them (Spark 3.4+): when the scheduler asked for this executor (only for
  // executors asked for through dynamic allocation or SparkContext.requestExecutors) and when it
  // registered. Start-up latency is their difference; both come from the driver's clock.
  std::optional<int64_t> request_time_ms;
  std::optional<int64_t> registration_time_ms;
  std::optional<int64_t> startup_latency_ms() const {
    int64_t latency = 0;
    if (!request_time_ms || !registration_time_ms || *registration_time_ms < *request_time_ms ||
        __builtin_sub_overflow(*registration_time_ms, *request_time_ms, &latency)) {
      return std::nullopt;
    }
    return latency;
  }
  std::string remove_reason;
  KeyValues log_urls;
  KeyValues attributes;
  std::vector<ResourceInformation> resources;

  // Block manager (storage memory) as registered.
  int64_t max_memory_bytes = 0;
  std::optional<int64_t> max_onheap_memory_bytes;
  std::optional<int64_t> max_offheap_memory_bytes;
  std::optional<int64_t> block_manager_add_time_ms;
  std::optional<int64_t> block_manager_remove_time_ms;

  // Totals over the task attempts that ran here.
  int64_t tasks_total = 0;
  int64_t tasks_succeeded = 0;
  int64_t tasks_failed = 0;
  int64_t tasks_killed = 0;
  int64_t tasks_resubmitted = 0;  // Resubmitted ends of tasks that had ended, counted in tasks_failed
  int64_t total_duration_ms = 0;  // of the task attempts that ended here (Resubmitted ends not again)
  int64_t total_gc_time_ms = 0;
  int64_t total_input_bytes = 0;
  int64_t total_shuffle_read_bytes = 0;
  int64_t total_shuffle_write_bytes = 0;

  ExecutorMetricPeaks peak_metrics;

  // Exclusion (blacklisting) as the scheduler reported it.
  bool excluded = false;  // state at the end of the log
  std::vector<int64_t> excluded_in_stages;

  bool is_driver() const { return id == "driver"; }
};

// A process besides the driver and executors (a YARN application master).
struct MiscellaneousProcess {
  std::string id;
  std::string host_port;
  int32_t cores = 0;
  std::optional<int64_t> add_time_ms;
  KeyValues log_urls;
};

// ---------------------------------------------------------------------------------------------
// Jobs

enum class JobStatus { kRunning, kSucceeded, kFailed, kUnknown };

struct Job {
  int64_t job_id = 0;
  std::string name;               // name of the job's last stage, as Spark names jobs
  std::string description;        // spark.job.description
  std::string job_group;          // spark.jobGroup.id
  std::vector<std::string> tags;  // spark.job.tags: distinct, sorted, none empty (as Spark lists them)
  std::optional<int64_t> submission_time_ms;
  std::optional<int64_t> completion_time_ms;
  std::vector<int64_t> stage_ids;               // sorted, unique
  std::vector<int64_t> stage_ids_in_log_order;  // as the job start lists them (the History Server's order)
  JobStatus status = JobStatus::kRunning;
  std::string failure_reason;  // the JobFailed exception's message
  std::optional<int64_t> sql_execution_id;
  // A Structured Streaming micro-batch's job: its query's id and the batch (the run is job_group).
  std::string streaming_query_id;
  std::optional<int64_t> streaming_batch_id;

  // Task and stage counts, as the History Server computes them.
  int64_t num_tasks = 0;
  int64_t num_completed_tasks = 0;
  int64_t num_skipped_tasks = 0;
  int64_t num_failed_tasks = 0;
  int64_t num_killed_tasks = 0;
  int64_t num_completed_indices = 0;
  int64_t num_active_tasks = 0;
  int32_t num_active_stages = 0;
  int32_t num_completed_stages = 0;
  int32_t num_skipped_stages = 0;
  int32_t num_failed_stages = 0;

  std::optional<int64_t> duration_ms() const;
};

// ---------------------------------------------------------------------------------------------
// Stages

enum class StageStatus { kActive, kComplete, kFailed, kPending, kSkipped };

// Seven exact order statistics of one metric over a stage attempt's successful tasks, by
// nearest rank: value at index min(floor(q * n), n - 1) of the sorted values.
struct Quantiles {
  int64_t count = 0;
  int64_t min = 0, p5 = 0, p25 = 0, p50 = 0, p75 = 0, p95 = 0, max = 0;
};

// Aggregates of one executor's task attempts within one stage attempt.
struct ExecutorStageSummary {
  std::string executor_id;
  std::string host;
  int64_t tasks_succeeded = 0;
  int64_t tasks_failed = 0;
  int64_t tasks_killed = 0;
  int64_t task_time_ms = 0;            // sum of attempt durations
  int64_t succeeded_task_time_ms = 0;  // sum of successful attempts' durations
  int64_t executor_run_time_ms = 0;
  int64_t jvm_gc_time_ms = 0;
  int64_t input_bytes = 0;
  int64_t input_records = 0;
  int64_t output_bytes = 0;
  int64_t output_records = 0;
  int64_t shuffle_read_bytes = 0;
  int64_t shuffle_read_records = 0;
  int64_t shuffle_write_bytes = 0;
  int64_t shuffle_write_records = 0;
  int64_t memory_bytes_spilled = 0;
  int64_t disk_bytes_spilled = 0;
  bool excluded = false;
  ExecutorMetricPeaks peak_metrics;
  // Whether a task end set Spark's peaks (ExecutorMetrics.isSet: JVMHeapMemory above -1): one
  // that logged no executor metrics (zeros), or logged them with JVMHeapMemory set. A task lost
  // with its executor logs JVMHeapMemory -1: alone, it sets none.
  bool peaks_set = false;
};

// The same, rolled up by host.
struct HostStageSummary {
  std::string host;
  int32_t executors = 0;
  int64_t tasks_succeeded = 0;
  int64_t tasks_failed = 0;
  int64_t tasks_killed = 0;
  int64_t task_time_ms = 0;
  int64_t succeeded_task_time_ms = 0;
  int64_t executor_run_time_ms = 0;
  int64_t jvm_gc_time_ms = 0;
  int64_t input_bytes = 0;
  int64_t shuffle_read_bytes = 0;
  int64_t shuffle_write_bytes = 0;
  int64_t disk_bytes_spilled = 0;
};

// Spark's task locality levels, best first.
enum class LocalityLevel : uint8_t { kProcessLocal, kNodeLocal, kNoPref, kRackLocal, kAny, kCount };
inline constexpr size_t kLocalityLevelCount = static_cast<size_t>(LocalityLevel::kCount);
std::string_view to_string(LocalityLevel level);  // PROCESS_LOCAL, NODE_LOCAL, NO_PREF, RACK_LOCAL, ANY
std::optional<LocalityLevel> parse_locality(std::string_view text);

struct TaskFailureCount {
  std::string reason;  // "ExceptionFailure: java.lang.OutOfMemoryError", "ExecutorLostFailure: <reason>", "FetchFailed"
  int64_t count = 0;
};

// One root cause of a stage attempt's failed task attempts and how many attempts it ended. Each
// failed attempt's own text (its stack trace, loss reason or fetch failure message) is read as
// it is folded (failure_cause.h) and counted under the cause it gives, told apart by
// FailureCause::key(): two Python errors in one stage are two causes, one error whose message
// names a different row in every task is one. The cause kept is the first such attempt's.
struct TaskFailureCause {
  std::string reason;  // Spark's Task End Reason: ExceptionFailure, ExecutorLostFailure, FetchFailed, ...
  FailureCause cause;
  int64_t count = 0;
  std::vector<std::string> executor_ids;  // the executors those attempts ran on, in Spark's order
  // The attempts ended after the application's end was logged: SparkContext.stop() logs it first,
  // then stops the scheduler and the executors, so these failed because the context was stopping
  // (an executor's "Filesystem closed"), whatever their text says. Counted apart from the same
  // cause earlier.
  bool during_shutdown = false;
};

struct StageAttempt {
  int64_t stage_id = 0;
  int32_t attempt_id = 0;
  std::string name;
  std::string details;      // call site (long form)
  std::string description;  // spark.job.description of the submitting job
  std::string scheduling_pool;
  int32_t num_tasks = 0;
  std::vector<int64_t> parent_ids;            // parent stage ids, sorted
  std::vector<int64_t> rdd_ids;               // RDDs of this stage, sorted
  std::vector<int64_t> rdd_ids_in_log_order;  // the same as the log lists them (the History Server's order)
  std::vector<int64_t> job_ids;               // jobs that ran this attempt, sorted
  std::optional<int64_t> sql_execution_id;
  int32_t resource_profile_id = 0;
  bool shuffle_push_enabled = false;
  int32_t shuffle_mergers_count = 0;
  std::optional<int64_t> submission_time_ms;
  std::optional<int64_t> first_task_launched_time_ms;
  std::optional<int64_t> completion_time_ms;
  StageStatus status = StageStatus::kPending;
  std::string failure_reason;
  std::vector<Accumulable> accumulables;  // final values from StageCompleted, sorted by id

  // Task attempts by outcome.
  int64_t tasks_started = 0;
  int64_t tasks_succeeded = 0;
  int64_t tasks_failed = 0;
  int64_t tasks_killed = 0;
  int64_t tasks_speculative = 0;  // speculative attempts launched
  int64_t tasks_active = 0;       // started, never ended (unfinished logs)
  int64_t completed_indices = 0;  // distinct partitions with a successful attempt
  // Attempt durations by outcome: what failed or lost attempts cost.
  int64_t failed_task_time_ms = 0;
  int64_t killed_task_time_ms = 0;
  // Task attempts by locality level (of TaskStart, as Spark's localitySummary counts them).
  std::array<int64_t, kLocalityLevelCount> locality_counts{};
  std::vector<std::pair<std::string, int64_t>> killed_tasks_summary;  // kill reason -> count
  // Attempts killed because another attempt of their task succeeded (speculation's losing copies,
  // or originals a copy beat): [launch, finish) of each, in the order they ended; and how many of
  // them were the copies.
  std::vector<std::pair<int64_t, int64_t>> lost_race_windows;
  int64_t lost_race_copies = 0;
  // The longest a speculative copy ran, on another host, before the original it raced finished
  // first: a copy that ran well past the median and still lost shows the task is slow wherever it
  // runs, not because of where it ran.
  int64_t longest_lost_copy_ms = 0;
  // The latest launch of an attempt that was not speculative: until then some task of the stage
  // was waiting for a slot (or had not been offered one yet).
  std::optional<int64_t> last_regular_launch_time_ms;
  std::vector<TaskFailureCount> failure_reasons;  // sorted by count desc, then reason
  std::vector<TaskFailureCause> failure_causes;   // sorted by count desc, then reason and cause key

  TaskMetricValues metric_sums{};                           // over attempts that reported metrics
  std::array<Quantiles, kQuantileMetricCount> quantiles{};  // over successful attempts
  // Successful attempts that started before their executor had finished any task (the first
  // wave on a fresh JVM, still loading classes and compiling), and the longest successful attempt
  // that started after one had (nullopt when none did): what tells executor warm-up apart from a
  // straggler.
  int64_t first_wave_tasks_succeeded = 0;
  std::optional<int64_t> max_warmed_task_duration_ms;
  // Longest attempt (any outcome) and its task, for straggler evidence.
  int64_t max_task_duration_ms = 0;
  std::optional<int64_t> max_task_duration_task_id;
  std::string max_task_duration_host;                  // host of that attempt; "" when unknown
  std::optional<int64_t> max_task_duration_finish_ms;  // when that attempt ended

  std::vector<ExecutorStageSummary> executors;  // sorted by executor id
  std::vector<HostStageSummary> hosts;          // sorted by host
  ExecutorMetricPeaks peak_executor_metrics;

  // Accumulator ids seen in this attempt's stage and task accumulables, sorted: the evidence
  // that ties SQL plan nodes to stages.
  std::vector<int64_t> accumulator_ids;

  int64_t metric(TaskMetric m) const { return metric_sums[index_of(m)]; }
  const Quantiles& quantile(QuantileMetric m) const { return quantiles[index_of(m)]; }
  int64_t shuffle_read_bytes() const {
    return metric(TaskMetric::kShuffleLocalBytesRead) + metric(TaskMetric::kShuffleRemoteBytesRead);
  }
  std::optional<int64_t> duration_ms() const;
};

// ---------------------------------------------------------------------------------------------
// SQL executions and plans

struct PlanVersion {
  std::string physical_plan_description;
  PlanTree plan;
};

struct SqlExecution {
  int64_t execution_id = 0;
  // Spark 3.4+: the execution a sub-execution (a command's inner query, a Databricks step) runs
  // under; its own id for a root.
  std::optional<int64_t> root_execution_id;
  bool is_sub_execution() const { return root_execution_id && *root_execution_id != execution_id; }
  std::string description;
  std::string details;
  std::optional<int64_t> start_time_ms;
  std::optional<int64_t> end_time_ms;
  // As logged: Spark 3.4 and later write "" when the execution succeeded.
  std::optional<std::string> error_message;
  KeyValues modified_configs;
  std::optional<std::string> query_id;  // the query's UUID, when logged (Spark 4.1+)

  // Ended with an error: a message that says something (an empty one is Spark 3.4+'s success).
  bool failed() const { return error_message && !error_message->empty(); }

  // The plan as it finally ran: the last adaptive (AQE) update, or the initial plan.
  std::string physical_plan_description;
  PlanTree plan;
  // Every plan before the final one, oldest first: the initial plan, then superseded AQE plans.
  std::vector<PlanVersion> earlier_plans;
  int32_t adaptive_updates = 0;
  std::vector<PlanMetric> adaptive_metrics;                       // from SparkListenerSQLAdaptiveSQLMetricUpdates
  std::vector<std::pair<int64_t, int64_t>> driver_accum_updates;  // accumulator id -> value, sorted

  std::vector<int64_t> job_ids;    // sorted
  std::vector<int64_t> stage_ids;  // stages of those jobs, sorted

  std::optional<int64_t> duration_ms() const;
};

// Where a plan node lives, for the stage -> plan nodes map.
struct PlanNodeRef {
  int64_t execution_id = 0;
  int32_t node_id = 0;
  bool operator==(const PlanNodeRef&) const = default;
};

// ---------------------------------------------------------------------------------------------
// Where the model came from and what went wrong reading it

struct SourcePart {
  std::string name;           // file name (or zip entry)
  std::string codec;          // "none", "zstd", ...
  uint64_t stored_bytes = 0;  // on disk, compressed
  uint64_t uncompressed_bytes = 0;
  uint64_t lines = 0;
};

struct SourceInfo {
  std::string path;
  std::string layout;        // file, rolling, databricks, zip, stdin
  bool in_progress = false;  // .inprogress name or an in-progress appstatus marker
  std::vector<SourcePart> parts;
};

struct MalformedLine {
  std::string part;
  uint64_t line_number = 0;  // 1-based, within its part
  uint64_t byte_offset = 0;  // of the line start, in the part's uncompressed bytes
  std::string reason;
};

struct Diagnostics {
  static constexpr size_t kMaxMalformedKept = 20;

  uint64_t lines_read = 0;
  uint64_t events_decoded = 0;
  uint64_t blank_lines = 0;
  uint64_t malformed_lines = 0;  // all of them; the first kMaxMalformedKept are listed
  std::vector<MalformedLine> malformed;
  std::vector<std::pair<std::string, uint64_t>> unknown_events;  // event name -> count, sorted
  bool incomplete = false;                                       // no SparkListenerApplicationEnd
  bool truncated_last_line = false;                              // the log ends mid-line (in progress or cut)
  // Events that referred to something the log never introduced (a task of an unknown stage,
  // a job end without a start), counted by kind.
  std::vector<std::pair<std::string, uint64_t>> orphan_events;
  // Gaps in a rolling log's part numbers ("...: rolling parts 3 to 3 are missing; events in them
  // are lost"): the model lacks those events, so it is incomplete (incompleteRun/missingParts).
  std::vector<std::string> missing_parts;
  // Executor and block manager times that lie far outside the run's own clock (its
  // start, end, jobs, stages, tasks): a log spliced from another run's events. Each was replaced
  // by the run's time where its event sits in the log; a note says so.
  uint64_t times_outside_run = 0;
  // Human-readable notes about anything else read around (sorted, deduplicated).
  std::vector<std::string> notes;
  // Set when reading stopped early (a corrupt or truncated compressed block, an unreadable
  // part): what stopped it and where. Everything before that point is in the model.
  std::optional<std::string> read_error;
};

// ---------------------------------------------------------------------------------------------
// The model

struct AppModel {
  SourceInfo source;
  AppInfo app;
  Environment environment;
  std::vector<Executor> executors;                            // sorted: driver first, then numeric order
  std::vector<MiscellaneousProcess> miscellaneous_processes;  // sorted by id
  std::vector<Job> jobs;                                      // sorted by id
  std::vector<StageAttempt> stages;                           // sorted by (stage id, attempt id)
  std::vector<SqlExecution> sql;                              // sorted by execution id
  std::map<int64_t, RddInfo> rdds;                            // latest known info per RDD
  // Stage id -> the plan nodes attributed to it (final plans), sorted.
  std::map<int64_t, std::vector<PlanNodeRef>> stage_plan_nodes;
  // Structured Streaming query runs, by start time then run id.
  std::vector<StreamingQuery> streaming_queries;
  // Spark Connect: the client sessions and the operations they sent, each by start time.
  std::vector<ConnectSession> connect_sessions;
  std::vector<ConnectOperation> connect_operations;

  // Executor capacity over time, by a sweep of adds and removes (a removal applies before a
  // same-instant addition). When no executor reported its cores, the peak executor count times
  // spark.executor.cores (1 if unset) stands in, and peak_cores_from_executor_count says so.
  int32_t peak_concurrent_cores = 0;
  int32_t peak_concurrent_executors = 0;
  bool peak_cores_from_executor_count = false;

  Diagnostics diagnostics;

  // Lookups; nullptr when absent.
  const StageAttempt* stage(int64_t stage_id, int32_t attempt_id) const;
  const StageAttempt* latest_attempt(int64_t stage_id) const;
  // Every attempt of the stage, in attempt order (empty when it has none).
  std::span<const StageAttempt> attempts_of(int64_t stage_id) const;
  const Job* job(int64_t job_id) const;
  const Executor* executor(std::string_view executor_id) const;
  const SqlExecution* sql_execution(int64_t execution_id) const;
};

// Cores the application held, in core-hours: each executor's cores from its add to its removal
// (or the end of the application). A log with no executor timeline (local mode: the driver runs
// the tasks) counts its peak cores for the whole run.
double core_hours_held(const AppModel& model);

// Spark's executor ordering: "driver" first, then numeric ids by value, then others by text.
bool executor_id_less(std::string_view a, std::string_view b);

std::string_view to_string(JobStatus status);    // RUNNING, SUCCEEDED, FAILED, UNKNOWN
std::string_view to_string(StageStatus status);  // ACTIVE, COMPLETE, FAILED, PENDING, SKIPPED

}  // namespace sf::model

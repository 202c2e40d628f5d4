// The deterministic event-log generator: realistic Spark logs whose model is known by construction.
//
// generate() simulates a Spark 3.5 application on a YARN cluster (executors and their task slots,
// a scheduler that places task attempts on free slots, jobs, stages, SQL executions with adaptive
// plans) and streams its event log, one JSON line per event, in the shape Spark's JsonProtocol
// writes. Every decision the simulation makes (which attempt fails, which executor is lost, which
// partitions are skewed, which speculative copy is killed) is recorded into GroundTruth as the
// event carrying it is written: what a correct model of exactly these lines must contain. Tests
// load the log with the real reader and compare field by field; benchmarks generate gigabytes
// with the same code and no truth.
//
// Same config, same bytes: the generator draws from its own PRNG with integer arithmetic only (no
// <random> distributions, no libm), so output is identical across builds and platforms. Work is
// streamed wave by wave (a wave is the stage attempts that run at the same time); memory is bounded
// by the largest wave, not by the log, unless a GroundTruth is asked for (it keeps the metrics of
// every successful task for the exact quantiles).
//
// Thread-safety: no global state; concurrent calls with their own arguments are independent.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/codec.h"
#include "model/app_model.h"
#include "spark/task_metrics.h"

namespace sf::loggen {

// ---------------------------------------------------------------------------------------------
// What to generate

struct GeneratorConfig {
  uint64_t seed = 1;

  // The application. An empty app_id is derived from the seed (application_<ts>_<nnnn>); a zero
  // start time likewise.
  std::string app_id;
  std::string app_name = "nightly_sales_etl";
  std::string user = "etl";
  std::string spark_version = "3.5.3";
  int64_t start_time_ms = 0;

  // The cluster: `executors` executors of `cores_per_executor` cores, two per host by default.
  int executors = 8;
  int cores_per_executor = 4;
  int executors_per_host = 2;
  int executor_memory_mb = 8192;

  // The workload. An action is one thing the driver program asks for (a DataFrame write, a count):
  // an RDD action is one Spark job; a SQL action with adaptive execution is one job per query
  // stage plus the final job, the earlier stages listed again (and skipped) by the later jobs.
  int actions = 8;
  int stages_per_action = 3;  // a scan, then (stages_per_action - 1) shuffle-reading stages
                              // (the join action scans two tables, and joins in one more stage)
  int tasks_per_stage = 200;
  // Repeats the whole action sequence this many times with fresh ids: the benchmark knob
  // (scale 1 of demo() is ~18 MB; ~115 gives 2 GB). Times and ids keep increasing.
  int scale = 1;
  // The first action of every repetition (an SQL ingest) runs stages of this many tasks instead
  // of tasks_per_stage: the big stages of a large log. 0: like the others.
  int big_action_tasks_per_stage = 0;

  // Features. Each one places its scenario on a few actions (see README.md for where).
  bool failed_tasks = true;    // attempts failing with ExceptionFailure, then succeeding on retry
  bool speculation = true;     // speculative copies: of skewed tasks (copy killed) and of tasks
                               // on a slow executor (copy wins, original killed)
  bool skew = true;            // a few partitions of a reduce stage 10-25x the median
  bool spill = true;           // memory and disk spill where a task's data exceeds its memory
  bool sql = true;             // SQL executions with plans, AQE updates and driver accum updates
  bool executor_churn = true;  // an executor lost mid-stage and replaced; at an action boundary
                               // an executor removed and another added in the same millisecond
  bool stage_retry = true;     // a fetch failure fails a stage attempt; the lost map outputs are
                               // recomputed (parent attempt 1; in an AQE job, attempt 0 of the
                               // parent's re-listed id) and the stage retried (attempt 1)
  bool failed_job = true;      // a task failing 4 times aborts its stage and fails its job
  bool cached_rdds = true;     // an RDD persisted by one job and read from cache by a later one

  // The end of the log. When !finished the log stops part-way through the last action's last
  // wave (`unfinished_cut_fraction` of that wave's events) and has no ApplicationEnd. With
  // cut_last_line the last event is written only partly (no newline); it is not part of the truth.
  bool finished = true;
  double unfinished_cut_fraction = 0.5;
  bool cut_last_line = false;

  // How the log is written, as Spark records it in its properties (spark.eventLog.*). Set by
  // write_event_log(); no effect on anything but those property values.
  std::string event_log_codec_property;  // "" (uncompressed), "zstd", "lz4", ...
  bool event_log_rolling_property = false;

  // A realistic ETL run of ~3,000 task attempts (120 per stage) with every feature: the sample
  // `make demo` uses (~18 MB).
  static GeneratorConfig demo();
  // ~300 task attempts, every feature, for unit tests (~2 MB).
  static GeneratorConfig small();
  // demo() repeated `scale` times: ~18 MB of log per unit of scale.
  static GeneratorConfig benchmark(int scale);
  // The large-log benchmark: demo()'s eight actions on a 64-executor cluster, stages of 400 tasks,
  // except the first action's three stages of `big_stage_tasks` (110,000 by default): ~2.2 GB of
  // log (~340,000 task attempts, 30 stages, 25 jobs) per unit of scale.
  static GeneratorConfig large(int scale, int big_stage_tasks = 110000);
};

// ---------------------------------------------------------------------------------------------
// What the model of the generated log must contain (see app_model.h for the meaning of fields)

struct AppTruth {
  std::string id;
  std::string name;
  std::string user;
  std::string spark_version;
  std::optional<int64_t> start_time_ms;
  std::optional<int64_t> end_time_ms;
  std::optional<int64_t> last_event_time_ms;  // the latest time any written event carries
  bool finished = false;
};

struct ExecutorTruth {
  std::string id;
  std::string host;
  int32_t total_cores = 0;  // 0 for the driver (no ExecutorAdded in YARN mode)
  // ExecutorAdded; for the driver, its BlockManagerAdded (the History Server creates the
  // driver's entry with that event's time).
  std::optional<int64_t> add_time_ms;
  std::optional<int64_t> remove_time_ms;
  std::string remove_reason;
  int64_t max_memory_bytes = 0;
  std::optional<int64_t> block_manager_add_time_ms;
  // Over the task attempts that ran here: started, and ended by outcome. Duration sums every
  // ended attempt; the metric totals sum the attempts that reported metrics. As in the History
  // Server, only while the executor is live: an attempt ending after its removal is not counted.
  int64_t tasks_total = 0;
  int64_t tasks_succeeded = 0;
  int64_t tasks_failed = 0;
  int64_t tasks_killed = 0;
  int64_t total_duration_ms = 0;
  int64_t total_gc_time_ms = 0;
  int64_t total_input_bytes = 0;
  int64_t total_shuffle_read_bytes = 0;
  int64_t total_shuffle_write_bytes = 0;
};

struct ExecutorStageTruth {
  std::string executor_id;
  std::string host;
  int64_t tasks_succeeded = 0;
  int64_t tasks_failed = 0;
  int64_t tasks_killed = 0;
  int64_t task_time_ms = 0;  // every ended attempt
  int64_t succeeded_task_time_ms = 0;
  // Sums over the attempts that reported metrics.
  int64_t executor_run_time_ms = 0;
  int64_t jvm_gc_time_ms = 0;
  int64_t input_bytes = 0;
  int64_t shuffle_read_bytes = 0;
  int64_t shuffle_write_bytes = 0;
  int64_t memory_bytes_spilled = 0;
  int64_t disk_bytes_spilled = 0;
};

struct StageAttemptTruth {
  int64_t stage_id = 0;
  int32_t attempt_id = 0;
  std::string name;
  std::string description;  // spark.job.description at submission; "" if never submitted
  int32_t num_tasks = 0;
  std::vector<int64_t> parent_ids;          // sorted
  std::vector<int64_t> rdd_ids;             // sorted
  std::vector<int64_t> job_ids;             // sorted
  std::optional<int64_t> sql_execution_id;  // of the job that lists the stage
  model::StageStatus status = model::StageStatus::kPending;
  std::optional<int64_t> submission_time_ms;
  std::optional<int64_t> first_task_launched_time_ms;
  std::optional<int64_t> completion_time_ms;
  std::string failure_reason;

  int64_t tasks_started = 0;
  int64_t tasks_succeeded = 0;
  int64_t tasks_failed = 0;
  int64_t tasks_killed = 0;
  int64_t tasks_speculative = 0;
  int64_t tasks_active = 0;
  int64_t completed_indices = 0;
  std::vector<std::pair<std::string, int64_t>> killed_tasks_summary;  // sorted by reason
  // "ExceptionFailure: <class>", "ExecutorLostFailure", "FetchFailed"; count desc, then reason.
  std::vector<model::TaskFailureCount> failure_reasons;

  // Attempts that reported metrics, any outcome; the duration slot sums every ended attempt.
  spark::TaskMetricValues metric_sums{};
  // The metrics of every successful attempt, in log order: the tests take exact quantiles of
  // them independently of the model's code.
  std::vector<spark::TaskMetricValues> successful_task_metrics;
  // Longest attempt of any outcome; on a tie the first to end in the log.
  int64_t max_task_duration_ms = 0;
  std::optional<int64_t> max_task_duration_task_id;

  std::vector<ExecutorStageTruth> executors;  // Spark executor order
  std::vector<int64_t> accumulator_ids;       // in stage (StageCompleted) and task accumulables
};

struct JobTruth {
  int64_t job_id = 0;
  std::string name;  // name of the listed stage with the highest id
  std::string description;
  std::string job_group;
  std::optional<int64_t> submission_time_ms;
  std::optional<int64_t> completion_time_ms;
  std::vector<int64_t> stage_ids;  // sorted
  model::JobStatus status = model::JobStatus::kRunning;
  std::string failure_reason;
  std::optional<int64_t> sql_execution_id;
  // As the History Server counts them; num_active_stages never goes below zero.
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
};

struct PlanNodeTruth {
  std::string node_name;
  int32_t child_count = 0;
  std::vector<int64_t> accumulator_ids;  // the node's metrics, in plan order
  // Per metric (parallel to accumulator_ids): the sum of the final values the StageCompleted
  // events of every stage attempt logged for it, plus the driver's update; nullopt when neither.
  std::vector<std::optional<int64_t>> metric_values;
  std::vector<int64_t> stage_ids;  // stages whose accumulables carried one of them, sorted
};

struct PlanTruth {
  std::vector<PlanNodeTruth> nodes;  // preorder, as app_model.h numbers plan nodes
};

struct SqlExecutionTruth {
  int64_t execution_id = 0;
  std::optional<int64_t> root_execution_id;
  std::string description;
  std::optional<int64_t> start_time_ms;
  std::optional<int64_t> end_time_ms;
  // "" when it succeeded (Spark 3.4+ logs "errorMessage":"" and the History Server keeps it);
  // nullopt when no end was logged.
  std::optional<std::string> error_message;
  PlanTruth final_plan;
  std::vector<PlanTruth> earlier_plans;  // oldest first
  int32_t adaptive_updates = 0;
  std::vector<std::pair<int64_t, int64_t>> driver_accum_updates;  // sorted by id
  std::vector<int64_t> job_ids;                                   // sorted
  std::vector<int64_t> stage_ids;                                 // every stage the jobs list, sorted
};

struct CachedRddTruth {
  int64_t rdd_id = 0;
  std::string name;
  int32_t num_partitions = 0;
  bool use_memory = false;
  bool use_disk = false;
  bool deserialized = false;
  int32_t replication = 1;
};

struct GroundTruth {
  AppTruth app;
  std::vector<ExecutorTruth> executors;  // "driver" first, then numeric order
  // By a sweep of ExecutorAdded/Removed in which a removal applies before a same-instant add.
  int32_t peak_concurrent_cores = 0;
  int32_t peak_concurrent_executors = 0;
  std::vector<JobTruth> jobs;                                           // sorted by id
  std::vector<StageAttemptTruth> stages;                                // sorted by (stage id, attempt id)
  std::vector<SqlExecutionTruth> sql;                                   // sorted by execution id
  std::vector<int64_t> rdd_ids;                                         // every RDD any stage info described, sorted
  std::vector<CachedRddTruth> cached_rdds;                              // sorted by id
  std::map<int64_t, std::vector<model::PlanNodeRef>> stage_plan_nodes;  // final plans

  uint64_t complete_lines = 0;  // newline-terminated lines written
  uint64_t bytes = 0;           // everything written, a cut last line included
  bool truncated_last_line = false;

  const StageAttemptTruth* stage(int64_t stage_id, int32_t attempt_id) const;
  const JobTruth* job(int64_t job_id) const;
  const ExecutorTruth* executor(std::string_view executor_id) const;
  const SqlExecutionTruth* sql_execution(int64_t execution_id) const;
};

// ---------------------------------------------------------------------------------------------
// Generating

// Receives the log: each call is one event line ending in '\n', except a last call without
// '\n' when config.cut_last_line asks for a torn line. The view is valid only during the call.
using LineSink = std::function<void(std::string_view line)>;

// Streams the log of `config` into `sink`; fills `truth` (when not null) with the model the log
// describes.
void generate(const GeneratorConfig& config, const LineSink& sink, GroundTruth* truth);

// The application id generate() uses for `config` (config.app_id, or the one the seed gives).
std::string application_id(const GeneratorConfig& config);

// ---------------------------------------------------------------------------------------------
// Writing logs to disk, named and framed as Spark names and frames them

enum class LogLayout {
  kSingleFile,  // <appId>[.<codec>][.inprogress]
  kRolling,     // eventlog_v2_<appId>/events_<n>_<appId>[.<codec>] + appstatus_<appId>[.inprogress]
};

struct LogWriteOptions {
  io::Codec codec = io::Codec::kNone;
  LogLayout layout = LogLayout::kSingleFile;
  // Rolling: a part is closed before the line that would take it past this many uncompressed
  // bytes (Spark's spark.eventLog.rolling.maxFileSize; its minimum there is 10 MiB).
  uint64_t rolling_max_part_bytes = uint64_t{10} << 20;
  // Spark's logger flushes its stream as it goes; compressed framings end a block on each flush.
  size_t flush_every_lines = 50;
};

struct WrittenPart {
  std::filesystem::path path;
  uint64_t lines = 0;  // newline-terminated lines
  uint64_t uncompressed_bytes = 0;
  uint64_t stored_bytes = 0;
};

struct WrittenLog {
  std::filesystem::path path;      // the file, or the eventlog_v2_* directory
  std::vector<WrittenPart> parts;  // in reading order
  uint64_t lines = 0;
  uint64_t uncompressed_bytes = 0;
  uint64_t stored_bytes = 0;
};

// File name extension Spark gives a codec ("zstd", "lz4", "snappy", "lzf"; "gz" for gzip, which
// is not a Spark codec but common around it); "" for none.
std::string_view codec_file_extension(io::Codec codec);

// Generates the log of `config` into `out_dir` (created if missing) in the layout and codec of
// `options`. An unfinished config gives an in-progress name (".inprogress" on the file, or on the
// rolling directory's appstatus marker). Throws std::runtime_error when a file cannot be written.
WrittenLog write_event_log(const GeneratorConfig& config, const LogWriteOptions& options,
                           const std::filesystem::path& out_dir, GroundTruth* truth);

// An application still running when the log was copied: unfinished, one file named
// <appId>[.<codec>].inprogress, its last line torn part-way when `cut_last_line`.
WrittenLog write_in_progress_log(GeneratorConfig config, io::Codec codec, bool cut_last_line,
                                 const std::filesystem::path& out_dir, GroundTruth* truth);

}  // namespace sf::loggen

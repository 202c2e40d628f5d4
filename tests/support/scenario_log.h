// ScenarioLog: writes small Spark event logs shaped to trigger (or not trigger) one detector.
//
// The full generator (bench/loggen) simulates whole applications; detector tests instead need
// one precise shape: a stage whose longest task is 60 s against a 2 s median, a scan of 5,000
// tiny files, a broadcast of 2 GiB. A test describes executors, jobs, stages with their tasks
// and metrics, SQL executions with plan nodes and metric accumulators; text() writes the events
// as Spark 3 writes them, in time order, and the test loads them through load_event_log like any
// log. Unset metrics are 0; a task's run time defaults to its duration minus 10 ms.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sf::testing {

struct TaskSpec {
  int64_t launch_ms = 0;
  int64_t duration_ms = 1000;
  std::string executor_id = "1";
  std::string reason = "Success";  // Success, TaskKilled, ExceptionFailure, ExecutorLostFailure, FetchFailed
  std::string failure_detail;      // exception class / kill reason / loss reason / FetchFailed message
  std::string stack_trace;         // ExceptionFailure's Full Stack Trace ("" as Spark 1.0 left it)
  int32_t index = -1;              // -1: the task's position in its stage
  int32_t attempt = 0;
  bool speculative = false;
  bool ends = true;  // false: started and never ended (a SparkContext stopped under it)
  std::string locality = "PROCESS_LOCAL";
  std::optional<int64_t> run_time_ms;  // default: duration - 10 ms (at least 0)
  int64_t cpu_time_ns = -1;            // default: 80% of run time
  int64_t gc_time_ms = 0;
  int64_t deserialize_time_ms = 5;
  int64_t peak_execution_memory = 0;
  int64_t input_bytes = 0;
  int64_t input_records = 0;
  int64_t output_bytes = 0;
  int64_t output_records = 0;
  int64_t shuffle_read_bytes = 0;  // split evenly between local and remote
  int64_t shuffle_read_records = 0;
  int64_t shuffle_fetch_wait_ms = 0;
  int64_t shuffle_write_bytes = 0;
  int64_t shuffle_write_records = 0;
  int64_t shuffle_write_time_ns = -1;  // -1: 1 ms when the task writes shuffle bytes
  int64_t memory_spill_bytes = 0;
  int64_t disk_spill_bytes = 0;
  int64_t jvm_heap_peak_bytes = -1;  // "Task Executor Metrics" JVMHeapMemory; -1: not logged
  // "Task Executor Metrics" MinorGCTime and MajorGCTime, the executor's running totals; -1: not logged
  int64_t minor_gc_total_ms = -1;
  int64_t major_gc_total_ms = -1;
  std::vector<std::pair<int64_t, int64_t>> accumulables;  // SQL metric accumulator id, this task's update
};

struct RddSpec {
  int64_t rdd_id = 0;
  std::string name = "MapPartitionsRDD";
  int32_t partitions = 0;
  int32_t cached_partitions = 0;
  bool use_memory = false;
  bool use_disk = false;
  int64_t memory_size = 0;
  int64_t disk_size = 0;
};

struct StageSpec {
  int64_t stage_id = 0;
  int32_t attempt_id = 0;
  std::string name;     // default: "stage <id>"
  std::string details;  // call site (stack trace); default: "org.apache.spark.scenario.<name>"
  int64_t submit_ms = 0;
  std::optional<int64_t> complete_ms;  // nullopt: never completes (cut log)
  std::optional<std::string> failure_reason;
  int32_t num_tasks = -1;  // -1: the number of tasks given
  std::vector<int64_t> parent_ids;
  std::vector<TaskSpec> tasks;
  std::vector<RddSpec> rdds;
  // Final accumulator values logged with StageCompleted; by default the sum of the tasks' updates.
  std::vector<std::pair<int64_t, int64_t>> accumulables;
};

struct JobSpec {
  int64_t job_id = 0;
  int64_t submit_ms = 0;
  std::optional<int64_t> end_ms;  // nullopt: never ends
  bool succeeded = true;
  std::string failure_message = "Job aborted due to stage failure";
  std::optional<int64_t> sql_execution_id;
  std::string job_group;                  // spark.jobGroup.id; "" for none
  std::vector<StageSpec> stages;          // run in this job
  std::vector<StageSpec> skipped_stages;  // listed by the job but never submitted
};

struct PlanMetricSpec {
  std::string name;
  int64_t accumulator_id = 0;
  std::string metric_type = "sum";
};

struct PlanNodeSpec {
  std::string name;
  std::string simple_string;  // default: name
  std::vector<PlanMetricSpec> metrics;
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<PlanNodeSpec> children;
};

struct SqlSpec {
  int64_t execution_id = 0;
  std::string description = "query";
  std::string details = "scenario";  // the execution's call site
  int64_t start_ms = 0;
  std::optional<int64_t> end_ms;
  PlanNodeSpec plan;
  std::vector<PlanNodeSpec> adaptive_plans;  // AQE updates, in order
  std::vector<std::pair<int64_t, int64_t>> driver_accum_updates;
  std::vector<std::pair<std::string, std::string>> modified_configs;  // session-level SQL settings
  std::optional<int64_t> root_execution_id;                           // a sub-execution's root; unset: its own id
};

class ScenarioLog {
 public:
  explicit ScenarioLog(std::string app_id = "app-scenario");

  ScenarioLog& spark_version(std::string version);
  ScenarioLog& java_version(std::string version);  // JVM Information's "Java Version"; default "17.0.9"
  ScenarioLog& app_name(std::string name);         // default "scenario"
  ScenarioLog& property(std::string key, std::string value);
  // Application start; finished() adds the ApplicationEnd.
  ScenarioLog& start(int64_t ms);
  ScenarioLog& finished(int64_t ms);
  ScenarioLog& executor(std::string id, std::string host, int32_t cores, int64_t add_ms,
                        std::optional<int64_t> remove_ms = std::nullopt, int64_t max_memory_bytes = int64_t{4} << 30,
                        std::string remove_reason = "Executor idle timeout");
  // Executor `id` (added before) was asked for at `request_ms`: its ExecutorAdded carries Spark
  // 3.4+'s "Registration Time" (its add time) and "Request Time", as under dynamic allocation.
  ScenarioLog& requested(const std::string& id, int64_t request_ms);
  ScenarioLog& job(JobSpec job);
  ScenarioLog& sql(SqlSpec sql);

  // The log, one JSON line per event, in time order.
  std::string text() const;
  // Writes text() to dir/<app id> and returns the path.
  std::filesystem::path write(const std::filesystem::path& dir) const;

  // n tasks of `duration_ms` each, launched in waves over `executors` with `slots` tasks each.
  static std::vector<TaskSpec> uniform_tasks(int n, int64_t start_ms, int64_t duration_ms,
                                             const std::vector<std::string>& executors, int slots);

 private:
  struct Executor {
    std::string id, host;
    int32_t cores = 0;
    int64_t add_ms = 0;
    std::optional<int64_t> remove_ms;
    int64_t max_memory = 0;
    std::string remove_reason;
    std::optional<int64_t> request_ms;
  };
  std::string app_id_;
  std::string spark_version_ = "3.5.1";
  std::string java_version_ = "17.0.9";
  std::string app_name_ = "scenario";
  std::vector<std::pair<std::string, std::string>> properties_;
  int64_t start_ms_ = 0;
  std::optional<int64_t> end_ms_;
  std::vector<Executor> executors_;
  std::vector<JobSpec> jobs_;
  std::vector<SqlSpec> sqls_;
};

}  // namespace sf::testing

#include "support/scenario_log.h"

#include <algorithm>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

namespace sf::testing {

namespace {

using json = nlohmann::ordered_json;

// Events at the same millisecond keep Spark's causal order.
enum Priority {
  kAppStart,
  kExecutorAdded,
  kSqlStart,
  kJobStart,
  kStageSubmitted,
  kTaskStart,
  kTaskEnd,
  kStageCompleted,
  kJobEnd,
  kSqlUpdate,
  kSqlEnd,
  kExecutorRemoved,
  kAppEnd,
};

struct TimedEvent {
  int64_t time_ms;
  int priority;
  size_t sequence;
  json event;
};

json rdd_json(const RddSpec& rdd) {
  return {{"RDD ID", rdd.rdd_id},
          {"Name", rdd.name},
          {"Callsite", "scenario"},
          {"Parent IDs", json::array()},
          {"Storage Level",
           {{"Use Disk", rdd.use_disk},
            {"Use Memory", rdd.use_memory},
            {"Deserialized", rdd.use_memory},
            {"Replication", 1}}},
          {"Barrier", false},
          {"Number of Partitions", rdd.partitions},
          {"Number of Cached Partitions", rdd.cached_partitions},
          {"Memory Size", rdd.memory_size},
          {"Disk Size", rdd.disk_size}};
}

std::string stage_name(const StageSpec& stage) {
  return stage.name.empty() ? "stage " + std::to_string(stage.stage_id) : stage.name;
}

int32_t num_tasks(const StageSpec& stage) {
  return stage.num_tasks >= 0 ? stage.num_tasks : static_cast<int32_t>(stage.tasks.size());
}

json stage_info(const StageSpec& stage, bool with_times, bool completed) {
  json info;
  info["Stage ID"] = stage.stage_id;
  info["Stage Attempt ID"] = stage.attempt_id;
  info["Stage Name"] = stage_name(stage);
  info["Number of Tasks"] = num_tasks(stage);
  json rdds = json::array();
  for (const auto& rdd : stage.rdds) rdds.push_back(rdd_json(rdd));
  info["RDD Info"] = rdds;
  info["Parent IDs"] = stage.parent_ids;
  info["Details"] = stage.details.empty() ? "org.apache.spark.scenario." + stage_name(stage) : stage.details;
  if (with_times) info["Submission Time"] = stage.submit_ms;
  if (completed && stage.complete_ms) info["Completion Time"] = *stage.complete_ms;
  if (completed && stage.failure_reason) info["Failure Reason"] = *stage.failure_reason;
  json accumulables = json::array();
  if (completed) {
    std::map<int64_t, int64_t> totals;
    if (stage.accumulables.empty()) {
      for (const auto& task : stage.tasks) {
        for (const auto& [id, update] : task.accumulables) totals[id] += update;
      }
    } else {
      for (const auto& [id, value] : stage.accumulables) totals[id] = value;
    }
    for (const auto& [id, value] : totals) {
      accumulables.push_back({{"ID", id},
                              {"Name", "metric " + std::to_string(id)},
                              {"Value", std::to_string(value)},
                              {"Internal", true},
                              {"Count Failed Values", true},
                              {"Metadata", "sql"}});
    }
  }
  info["Accumulables"] = accumulables;
  info["Resource Profile Id"] = 0;
  return info;
}

json plan_json(const PlanNodeSpec& node) {
  json children = json::array();
  for (const auto& child : node.children) children.push_back(plan_json(child));
  json metadata = json::object();
  for (const auto& [k, v] : node.metadata) metadata[k] = v;
  json metrics = json::array();
  for (const auto& m : node.metrics) {
    metrics.push_back({{"name", m.name}, {"accumulatorId", m.accumulator_id}, {"metricType", m.metric_type}});
  }
  return {{"nodeName", node.name},
          {"simpleString", node.simple_string.empty() ? node.name : node.simple_string},
          {"children", children},
          {"metadata", metadata},
          {"metrics", metrics}};
}

json task_info(const TaskSpec& task, int64_t task_id, int32_t index, bool finished, const std::string& host) {
  json info;
  info["Task ID"] = task_id;
  info["Index"] = index;
  info["Attempt"] = task.attempt;
  info["Partition ID"] = index;
  info["Launch Time"] = task.launch_ms;
  info["Executor ID"] = task.executor_id;
  info["Host"] = host;
  info["Locality"] = task.locality;
  info["Speculative"] = task.speculative;
  info["Getting Result Time"] = 0;
  info["Finish Time"] = finished ? task.launch_ms + task.duration_ms : 0;
  info["Failed"] = finished && task.reason != "Success" && task.reason != "TaskKilled";
  info["Killed"] = finished && task.reason == "TaskKilled";
  json accumulables = json::array();
  if (finished) {
    for (const auto& [id, update] : task.accumulables) {
      accumulables.push_back({{"ID", id},
                              {"Name", "metric " + std::to_string(id)},
                              {"Update", std::to_string(update)},
                              {"Value", std::to_string(update)},
                              {"Internal", true},
                              {"Count Failed Values", true},
                              {"Metadata", "sql"}});
    }
  }
  info["Accumulables"] = accumulables;
  return info;
}

json task_end_reason(const TaskSpec& task) {
  json reason = {{"Reason", task.reason}};
  if (task.reason == "ExceptionFailure") {
    reason["Class Name"] = task.failure_detail.empty() ? "java.lang.RuntimeException" : task.failure_detail;
    reason["Description"] = "scenario failure";
    reason["Stack Trace"] = json::array();
    reason["Full Stack Trace"] = task.stack_trace;
    reason["Accumulator Updates"] = json::array();
  } else if (task.reason == "TaskKilled") {
    reason["Kill Reason"] = task.failure_detail.empty() ? "another attempt succeeded" : task.failure_detail;
    reason["Accumulator Updates"] = json::array();
  } else if (task.reason == "ExecutorLostFailure") {
    reason["Executor ID"] = task.executor_id;
    reason["Exit Caused By App"] = true;
    reason["Loss Reason"] =
        task.failure_detail.empty() ? "Container killed by YARN for exceeding memory limits" : task.failure_detail;
  } else if (task.reason == "FetchFailed") {
    reason["Block Manager Address"] = {{"Executor ID", task.executor_id}, {"Host", "h"}, {"Port", 7337}};
    reason["Shuffle ID"] = 0;
    reason["Map ID"] = 0;
    reason["Map Index"] = 0;
    reason["Reduce ID"] = 0;
    reason["Message"] = task.failure_detail;
  }
  return reason;
}

json task_metrics(const TaskSpec& task) {
  const int64_t run = task.run_time_ms.value_or(std::max<int64_t>(0, task.duration_ms - 10));
  const int64_t cpu = task.cpu_time_ns >= 0 ? task.cpu_time_ns : run * 800000;
  const int64_t remote = task.shuffle_read_bytes / 2;
  return {{"Executor Deserialize Time", task.deserialize_time_ms},
          {"Executor Deserialize CPU Time", task.deserialize_time_ms * 1000000},
          {"Executor Run Time", run},
          {"Executor CPU Time", cpu},
          {"Peak Execution Memory", task.peak_execution_memory},
          {"Result Size", 2048},
          {"JVM GC Time", task.gc_time_ms},
          {"Result Serialization Time", 0},
          {"Memory Bytes Spilled", task.memory_spill_bytes},
          {"Disk Bytes Spilled", task.disk_spill_bytes},
          {"Shuffle Read Metrics",
           {{"Remote Blocks Fetched", remote > 0 ? 1 : 0},
            {"Local Blocks Fetched", task.shuffle_read_bytes - remote > 0 ? 1 : 0},
            {"Fetch Wait Time", task.shuffle_fetch_wait_ms},
            {"Remote Bytes Read", remote},
            {"Remote Bytes Read To Disk", 0},
            {"Local Bytes Read", task.shuffle_read_bytes - remote},
            {"Total Records Read", task.shuffle_read_records}}},
          {"Shuffle Write Metrics",
           {{"Shuffle Bytes Written", task.shuffle_write_bytes},
            {"Shuffle Write Time", task.shuffle_write_time_ns >= 0 ? task.shuffle_write_time_ns
                                   : task.shuffle_write_bytes > 0  ? 1000000
                                                                   : 0},
            {"Shuffle Records Written", task.shuffle_write_records}}},
          {"Input Metrics", {{"Bytes Read", task.input_bytes}, {"Records Read", task.input_records}}},
          {"Output Metrics", {{"Bytes Written", task.output_bytes}, {"Records Written", task.output_records}}},
          {"Updated Blocks", json::array()}};
}

}  // namespace

ScenarioLog::ScenarioLog(std::string app_id) : app_id_(std::move(app_id)) {}

ScenarioLog& ScenarioLog::spark_version(std::string version) {
  spark_version_ = std::move(version);
  return *this;
}

ScenarioLog& ScenarioLog::java_version(std::string version) {
  java_version_ = std::move(version);
  return *this;
}

ScenarioLog& ScenarioLog::app_name(std::string name) {
  app_name_ = std::move(name);
  return *this;
}

ScenarioLog& ScenarioLog::property(std::string key, std::string value) {
  properties_.emplace_back(std::move(key), std::move(value));
  return *this;
}

ScenarioLog& ScenarioLog::start(int64_t ms) {
  start_ms_ = ms;
  return *this;
}

ScenarioLog& ScenarioLog::finished(int64_t ms) {
  end_ms_ = ms;
  return *this;
}

ScenarioLog& ScenarioLog::executor(std::string id, std::string host, int32_t cores, int64_t add_ms,
                                   std::optional<int64_t> remove_ms, int64_t max_memory_bytes,
                                   std::string remove_reason) {
  executors_.push_back(
      {std::move(id), std::move(host), cores, add_ms, remove_ms, max_memory_bytes, std::move(remove_reason), {}});
  return *this;
}

ScenarioLog& ScenarioLog::requested(const std::string& id, int64_t request_ms) {
  for (Executor& e : executors_) {
    if (e.id == id) e.request_ms = request_ms;
  }
  return *this;
}

ScenarioLog& ScenarioLog::job(JobSpec job) {
  jobs_.push_back(std::move(job));
  return *this;
}

ScenarioLog& ScenarioLog::sql(SqlSpec sql) {
  sqls_.push_back(std::move(sql));
  return *this;
}

std::vector<TaskSpec> ScenarioLog::uniform_tasks(int n, int64_t start_ms, int64_t duration_ms,
                                                 const std::vector<std::string>& executors, int slots) {
  std::vector<TaskSpec> tasks;
  const int per_wave = std::max<int>(1, static_cast<int>(executors.size()) * slots);
  for (int i = 0; i < n; ++i) {
    TaskSpec task;
    task.launch_ms = start_ms + static_cast<int64_t>(i / per_wave) * duration_ms;
    task.duration_ms = duration_ms;
    task.executor_id = executors.empty() ? "1" : executors[static_cast<size_t>(i % static_cast<int>(executors.size()))];
    tasks.push_back(std::move(task));
  }
  return tasks;
}

std::string ScenarioLog::text() const {
  std::vector<TimedEvent> events;
  size_t sequence = 0;
  auto add = [&](int64_t time, int priority, json event) {
    events.push_back({time, priority, sequence++, std::move(event)});
  };
  std::map<std::string, std::string> host_of;
  for (const auto& e : executors_) host_of[e.id] = e.host;

  json properties = json::object();
  properties["spark.app.id"] = app_id_;
  for (const auto& [k, v] : properties_) properties[k] = v;
  add(start_ms_, kAppStart, {{"Event", "SparkListenerLogStart"}, {"Spark Version", spark_version_}});
  add(start_ms_, kAppStart,
      {{"Event", "SparkListenerEnvironmentUpdate"},
       {"JVM Information", {{"Java Version", java_version_}}},
       {"Spark Properties", properties},
       {"Hadoop Properties", json::object()},
       {"System Properties", json::object()},
       {"Metrics Properties", json::object()},
       {"Classpath Entries", json::object()}});
  add(start_ms_, kAppStart,
      {{"Event", "SparkListenerApplicationStart"},
       {"App Name", app_name_},
       {"App ID", app_id_},
       {"Timestamp", start_ms_},
       {"User", "tester"}});
  for (const auto& e : executors_) {
    add(e.add_ms, kExecutorAdded,
        {{"Event", "SparkListenerExecutorAdded"},
         {"Timestamp", e.add_ms},
         {"Executor ID", e.id},
         {"Executor Info",
          {{"Host", e.host},
           {"Total Cores", e.cores},
           {"Log Urls", json::object()},
           {"Attributes", json::object()},
           {"Resources", json::object()},
           {"Resource Profile Id", 0}}}});
    if (e.request_ms) {
      // JsonProtocol.executorInfoToJson writes the registration time, then the request time.
      json& info = events.back().event["Executor Info"];
      info["Registration Time"] = e.add_ms;
      info["Request Time"] = *e.request_ms;
    }
    add(e.add_ms, kExecutorAdded,
        {{"Event", "SparkListenerBlockManagerAdded"},
         {"Block Manager ID", {{"Executor ID", e.id}, {"Host", e.host}, {"Port", 40000}}},
         {"Maximum Memory", e.max_memory},
         {"Timestamp", e.add_ms},
         {"Maximum Onheap Memory", e.max_memory},
         {"Maximum Offheap Memory", 0}});
    if (e.remove_ms) {
      add(*e.remove_ms, kExecutorRemoved,
          {{"Event", "SparkListenerExecutorRemoved"},
           {"Timestamp", *e.remove_ms},
           {"Executor ID", e.id},
           {"Removed Reason", e.remove_reason}});
    }
  }

  for (const auto& sql : sqls_) {
    json modified = json::object();
    for (const auto& [k, v] : sql.modified_configs) modified[k] = v;
    add(sql.start_ms, kSqlStart,
        {{"Event", "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart"},
         {"executionId", sql.execution_id},
         {"rootExecutionId", sql.root_execution_id.value_or(sql.execution_id)},
         {"description", sql.description},
         {"details", sql.details},
         {"physicalPlanDescription", "== Physical Plan ==\n" + sql.plan.name},
         {"sparkPlanInfo", plan_json(sql.plan)},
         {"time", sql.start_ms},
         {"modifiedConfigs", modified}});
    for (const auto& update : sql.adaptive_plans) {
      add(sql.start_ms, kSqlUpdate,
          {{"Event", "org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate"},
           {"executionId", sql.execution_id},
           {"physicalPlanDescription", "== Physical Plan ==\n" + update.name},
           {"sparkPlanInfo", plan_json(update)}});
    }
    const int64_t end = sql.end_ms.value_or(sql.start_ms);
    if (!sql.driver_accum_updates.empty()) {
      json updates = json::array();
      for (const auto& [id, value] : sql.driver_accum_updates) updates.push_back({id, value});
      add(end, kSqlUpdate,
          {{"Event", "org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates"},
           {"executionId", sql.execution_id},
           {"accumUpdates", updates}});
    }
    if (sql.end_ms) {
      add(*sql.end_ms, kSqlEnd,
          {{"Event", "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd"},
           {"executionId", sql.execution_id},
           {"time", *sql.end_ms},
           {"errorMessage", ""}});
    }
  }

  int64_t next_task_id = 0;
  for (const auto& job : jobs_) {
    json properties_json = json::object();
    if (job.sql_execution_id) properties_json["spark.sql.execution.id"] = std::to_string(*job.sql_execution_id);
    if (!job.job_group.empty()) properties_json["spark.jobGroup.id"] = job.job_group;
    json stage_infos = json::array();
    json stage_ids = json::array();
    for (const auto* list : {&job.stages, &job.skipped_stages}) {
      for (const auto& stage : *list) {
        stage_infos.push_back(stage_info(stage, false, false));
        stage_ids.push_back(stage.stage_id);
      }
    }
    add(job.submit_ms, kJobStart,
        {{"Event", "SparkListenerJobStart"},
         {"Job ID", job.job_id},
         {"Submission Time", job.submit_ms},
         {"Stage Infos", stage_infos},
         {"Stage IDs", stage_ids},
         {"Properties", properties_json}});
    for (const auto& stage : job.stages) {
      add(stage.submit_ms, kStageSubmitted,
          {{"Event", "SparkListenerStageSubmitted"},
           {"Stage Info", stage_info(stage, true, false)},
           {"Properties", properties_json}});
      for (size_t i = 0; i < stage.tasks.size(); ++i) {
        const TaskSpec& task = stage.tasks[i];
        const int64_t task_id = next_task_id++;
        const int32_t index = task.index >= 0 ? task.index : static_cast<int32_t>(i);
        const std::string host =
            host_of.count(task.executor_id) ? host_of[task.executor_id] : "host-" + task.executor_id;
        add(task.launch_ms, kTaskStart,
            {{"Event", "SparkListenerTaskStart"},
             {"Stage ID", stage.stage_id},
             {"Stage Attempt ID", stage.attempt_id},
             {"Task Info", task_info(task, task_id, index, false, host)}});
        if (!task.ends) continue;
        json end = {
            {"Event", "SparkListenerTaskEnd"},          {"Stage ID", stage.stage_id},
            {"Stage Attempt ID", stage.attempt_id},     {"Task Type", "ResultTask"},
            {"Task End Reason", task_end_reason(task)}, {"Task Info", task_info(task, task_id, index, true, host)}};
        if (task.jvm_heap_peak_bytes >= 0) end["Task Executor Metrics"]["JVMHeapMemory"] = task.jvm_heap_peak_bytes;
        if (task.minor_gc_total_ms >= 0) end["Task Executor Metrics"]["MinorGCTime"] = task.minor_gc_total_ms;
        if (task.major_gc_total_ms >= 0) end["Task Executor Metrics"]["MajorGCTime"] = task.major_gc_total_ms;
        end["Task Metrics"] = task_metrics(task);
        add(task.launch_ms + task.duration_ms, kTaskEnd, std::move(end));
      }
      if (stage.complete_ms) {
        add(*stage.complete_ms, kStageCompleted,
            {{"Event", "SparkListenerStageCompleted"}, {"Stage Info", stage_info(stage, true, true)}});
      }
    }
    if (job.end_ms) {
      json result = {{"Result", job.succeeded ? "JobSucceeded" : "JobFailed"}};
      if (!job.succeeded) result["Exception"] = {{"Message", job.failure_message}, {"Stack Trace", json::array()}};
      add(*job.end_ms, kJobEnd,
          {{"Event", "SparkListenerJobEnd"},
           {"Job ID", job.job_id},
           {"Completion Time", *job.end_ms},
           {"Job Result", result}});
    }
  }
  if (end_ms_) add(*end_ms_, kAppEnd, {{"Event", "SparkListenerApplicationEnd"}, {"Timestamp", *end_ms_}});

  std::stable_sort(events.begin(), events.end(), [](const TimedEvent& a, const TimedEvent& b) {
    if (a.time_ms != b.time_ms) return a.time_ms < b.time_ms;
    if (a.priority != b.priority) return a.priority < b.priority;
    return a.sequence < b.sequence;
  });
  // The environment and application start come first whatever their times say.
  std::string out;
  for (const auto& e : events) out += e.event.dump() + "\n";
  return out;
}

std::filesystem::path ScenarioLog::write(const std::filesystem::path& dir) const {
  std::filesystem::create_directories(dir);
  const auto path = dir / app_id_;
  std::ofstream(path, std::ios::binary) << text();
  return path;
}

}  // namespace sf::testing

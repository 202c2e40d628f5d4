#include "server/history_server_json.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string_view>

#include "common/text.h"
#include "server/rest_path.h"
#include "server/spark_plan_graph.h"

namespace sf::server {

namespace {

using model::ExecutorMetric;
using model::TaskMetric;
using model::TaskMetricValues;
using nlohmann::json;

// Sets `key` to the History Server's date of `ms`, or leaves it out (an absent Option).
void put_time(json& out, const char* key, const std::optional<int64_t>& ms) {
  if (ms) out[key] = format_history_server_time(*ms);
}

json key_values_object(const model::KeyValues& values) {
  json out = json::object();
  for (const auto& [key, value] : values) out[key] = value;
  return out;
}

json key_value_pairs(const model::KeyValues& values) {
  json out = json::array();
  for (const auto& [key, value] : values) out.push_back(json::array({key, value}));
  return out;
}

json executor_peaks_json(const model::ExecutorMetricPeaks& peaks) {
  json out = json::object();
  for (size_t i = 0; i < model::kExecutorMetricCount; ++i) {
    out[std::string(model::executor_metric_name(static_cast<ExecutorMetric>(i)))] = peaks.values[i];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Task metrics: the REST paths of each metric, for tasks and for their distributions.

struct MetricPath {
  const char* group;  // "" for a top-level field, else the nested object's name
  const char* name;
  std::function<int64_t(const TaskMetricValues&)> value;
};

int64_t at(const TaskMetricValues& v, TaskMetric m) {
  return v[model::index_of(m)];
}

std::function<int64_t(const TaskMetricValues&)> slot(TaskMetric m) {
  return [m](const TaskMetricValues& v) { return at(v, m); };
}

const std::vector<MetricPath>& task_metric_paths() {
  static const std::vector<MetricPath> paths = {
      {"", "executorDeserializeTime", slot(TaskMetric::kExecutorDeserializeTimeMs)},
      {"", "executorDeserializeCpuTime", slot(TaskMetric::kExecutorDeserializeCpuTimeNs)},
      {"", "executorRunTime", slot(TaskMetric::kExecutorRunTimeMs)},
      {"", "executorCpuTime", slot(TaskMetric::kExecutorCpuTimeNs)},
      {"", "resultSize", slot(TaskMetric::kResultSizeBytes)},
      {"", "jvmGcTime", slot(TaskMetric::kJvmGcTimeMs)},
      {"", "resultSerializationTime", slot(TaskMetric::kResultSerializationTimeMs)},
      {"", "memoryBytesSpilled", slot(TaskMetric::kMemoryBytesSpilled)},
      {"", "diskBytesSpilled", slot(TaskMetric::kDiskBytesSpilled)},
      {"", "peakExecutionMemory", slot(TaskMetric::kPeakExecutionMemoryBytes)},
      {"inputMetrics", "bytesRead", slot(TaskMetric::kInputBytes)},
      {"inputMetrics", "recordsRead", slot(TaskMetric::kInputRecords)},
      {"outputMetrics", "bytesWritten", slot(TaskMetric::kOutputBytes)},
      {"outputMetrics", "recordsWritten", slot(TaskMetric::kOutputRecords)},
      {"shuffleReadMetrics", "remoteBlocksFetched", slot(TaskMetric::kShuffleRemoteBlocksFetched)},
      {"shuffleReadMetrics", "localBlocksFetched", slot(TaskMetric::kShuffleLocalBlocksFetched)},
      {"shuffleReadMetrics", "fetchWaitTime", slot(TaskMetric::kShuffleFetchWaitTimeMs)},
      {"shuffleReadMetrics", "remoteBytesRead", slot(TaskMetric::kShuffleRemoteBytesRead)},
      {"shuffleReadMetrics", "remoteBytesReadToDisk", slot(TaskMetric::kShuffleRemoteBytesReadToDisk)},
      {"shuffleReadMetrics", "localBytesRead", slot(TaskMetric::kShuffleLocalBytesRead)},
      {"shuffleReadMetrics", "recordsRead", slot(TaskMetric::kShuffleRecordsRead)},
      {"shuffleReadMetrics", "remoteReqsDuration", slot(TaskMetric::kShuffleRemoteReqsDurationMs)},
      {"shuffleWriteMetrics", "bytesWritten", slot(TaskMetric::kShuffleWriteBytes)},
      {"shuffleWriteMetrics", "writeTime", slot(TaskMetric::kShuffleWriteTimeNs)},
      {"shuffleWriteMetrics", "recordsWritten", slot(TaskMetric::kShuffleWriteRecords)},
  };
  return paths;
}

// Push-based shuffle read metrics: nested in shuffleReadMetrics.shufflePushReadMetrics of a task,
// and in shuffleReadMetrics.shufflePushReadMetricsDist of a distribution.
struct PushMetric {
  const char* name;
  TaskMetric metric;
};
constexpr PushMetric kPushMetrics[] = {
    {"corruptMergedBlockChunks", TaskMetric::kPushCorruptMergedBlockChunks},
    {"mergedFetchFallbackCount", TaskMetric::kPushMergedFetchFallbackCount},
    {"remoteMergedBlocksFetched", TaskMetric::kPushMergedRemoteBlocksFetched},
    {"localMergedBlocksFetched", TaskMetric::kPushMergedLocalBlocksFetched},
    {"remoteMergedChunksFetched", TaskMetric::kPushMergedRemoteChunksFetched},
    {"localMergedChunksFetched", TaskMetric::kPushMergedLocalChunksFetched},
    {"remoteMergedBytesRead", TaskMetric::kPushMergedRemoteBytesRead},
    {"localMergedBytesRead", TaskMetric::kPushMergedLocalBytesRead},
    {"remoteMergedReqsDuration", TaskMetric::kPushMergedRemoteReqsDurationMs},
};

json task_metrics_json(const TaskMetricValues& v) {
  json out = json::object();
  for (const MetricPath& p : task_metric_paths()) {
    if (*p.group == '\0') {
      out[p.name] = p.value(v);
    } else {
      out[p.group][p.name] = p.value(v);
    }
  }
  json push = json::object();
  for (const PushMetric& p : kPushMetrics) push[p.name] = at(v, p.metric);
  out["shuffleReadMetrics"]["shufflePushReadMetrics"] = std::move(push);
  return out;
}

// The value at quantile q of sorted values, as Spark's Distribution and task summary pick it:
// the element at min(floor(q * n), n - 1); a negative q picks the first (the index is computed in
// double, so that any q Spark takes stays in range).
double quantile_of(const std::vector<int64_t>& sorted, double q) {
  const auto last = static_cast<double>(sorted.size() - 1);
  const double position = std::clamp(std::floor(q * static_cast<double>(sorted.size())), 0.0, last);
  return static_cast<double>(sorted[static_cast<size_t>(position)]);
}

json quantiles_json(std::vector<int64_t> values, const std::vector<double>& quantiles) {
  std::sort(values.begin(), values.end());
  json out = json::array();
  for (double q : quantiles) out.push_back(quantile_of(values, q));
  return out;
}

// The stage's executors as Spark keys them in executorSummary: by id.
const model::Executor* find_executor(const model::AppModel& m, std::string_view id) {
  return m.executor(id);
}

// The History Server's peaks are set by a task end (zeros when the log carries no executor
// metrics) unless the metrics it logged are unset (a task lost with its executor).
bool shows_peaks(const model::ExecutorStageSummary& e) { return e.peaks_set; }

json executor_stage_summary_json(const model::ExecutorStageSummary& e) {
  json out = {
      {"taskTime", e.task_time_ms},
      {"failedTasks", e.tasks_failed},
      {"succeededTasks", e.tasks_succeeded},
      {"killedTasks", e.tasks_killed},
      {"inputBytes", e.input_bytes},
      {"inputRecords", e.input_records},
      {"outputBytes", e.output_bytes},
      {"outputRecords", e.output_records},
      {"shuffleRead", e.shuffle_read_bytes},
      {"shuffleReadRecords", e.shuffle_read_records},
      {"shuffleWrite", e.shuffle_write_bytes},
      {"shuffleWriteRecords", e.shuffle_write_records},
      {"memoryBytesSpilled", e.memory_bytes_spilled},
      {"diskBytesSpilled", e.disk_bytes_spilled},
      {"isBlacklistedForStage", e.excluded},
      {"isExcludedForStage", e.excluded},
  };
  if (shows_peaks(e)) out["peakMemoryMetrics"] = executor_peaks_json(e.peak_metrics);
  return out;
}

json executor_metrics_distributions_json(const model::StageAttempt& s, const std::vector<double>& quantiles) {
  using Summary = model::ExecutorStageSummary;
  const std::vector<std::pair<const char*, std::function<int64_t(const Summary&)>>> fields = {
      {"taskTime", [](const Summary& e) { return e.task_time_ms; }},
      {"failedTasks", [](const Summary& e) { return e.tasks_failed; }},
      {"succeededTasks", [](const Summary& e) { return e.tasks_succeeded; }},
      {"killedTasks", [](const Summary& e) { return e.tasks_killed; }},
      {"inputBytes", [](const Summary& e) { return e.input_bytes; }},
      {"inputRecords", [](const Summary& e) { return e.input_records; }},
      {"outputBytes", [](const Summary& e) { return e.output_bytes; }},
      {"outputRecords", [](const Summary& e) { return e.output_records; }},
      {"shuffleRead", [](const Summary& e) { return e.shuffle_read_bytes; }},
      {"shuffleReadRecords", [](const Summary& e) { return e.shuffle_read_records; }},
      {"shuffleWrite", [](const Summary& e) { return e.shuffle_write_bytes; }},
      {"shuffleWriteRecords", [](const Summary& e) { return e.shuffle_write_records; }},
      {"memoryBytesSpilled", [](const Summary& e) { return e.memory_bytes_spilled; }},
      {"diskBytesSpilled", [](const Summary& e) { return e.disk_bytes_spilled; }},
  };
  json out = {{"quantiles", quantiles}};
  for (const auto& [name, value] : fields) {
    std::vector<int64_t> values;
    for (const Summary& e : s.executors) values.push_back(value(e));
    out[name] = quantiles_json(std::move(values), quantiles);
  }
  // Over the executors whose summary shows peaks (Spark flattens their peakMemoryMetrics options).
  json peaks = json::object();
  std::vector<const Summary*> with_peaks;
  for (const Summary& e : s.executors) {
    if (shows_peaks(e)) with_peaks.push_back(&e);
  }
  if (!with_peaks.empty()) {
    for (size_t i = 0; i < model::kExecutorMetricCount; ++i) {
      std::vector<int64_t> values;
      for (const Summary* e : with_peaks) values.push_back(e->peak_metrics.values[i]);
      peaks[std::string(model::executor_metric_name(static_cast<ExecutorMetric>(i)))] =
          quantiles_json(std::move(values), quantiles);
    }
    out["peakMemoryMetrics"] = std::move(peaks);
  }
  return out;
}


// Speculative attempts by outcome (Spark 3.4's SpeculationStageSummary).
json speculation_summary_json(const StageTasks& tasks) {
  int64_t total = 0, active = 0, completed = 0, failed = 0, killed = 0;
  for (const TaskRecord& t : tasks.tasks) {
    if (!t.speculative) continue;
    ++total;
    if (t.status == "RUNNING") ++active;
    if (t.status == "SUCCESS") ++completed;
    if (t.status == "FAILED") ++failed;
    if (t.status == "KILLED") ++killed;
  }
  return {{"numTasks", total},
          {"numActiveTasks", active},
          {"numCompletedTasks", completed},
          {"numFailedTasks", failed},
          {"numKilledTasks", killed}};
}

}  // namespace

// Job ids in the order a Scala immutable Map of them iterates, as the History Server lists an SQL
// execution's jobs (SQLExecutionUIData.jobs): up to four in the order they were added, more in
// the order of the CHAMP trie of their hashes (scala.util.hashing's improve of each Int), which
// holds, at each level of five hash bits, the keys alone in their slot first, then the deeper
// levels, each by slot.
std::vector<int64_t> scala_map_order(const std::vector<int64_t>& keys_in_insertion_order) {
  if (keys_in_insertion_order.size() <= 4) return keys_in_insertion_order;
  auto improved_hash = [](int64_t key) {
    uint32_t h = static_cast<uint32_t>(key);
    h = h + ~(h << 9);
    h = h ^ (h >> 14);
    h = h + (h << 4);
    return h ^ (h >> 10);
  };
  std::vector<int64_t> out;
  std::function<void(const std::vector<int64_t>&, int)> visit = [&](const std::vector<int64_t>& keys, int shift) {
    std::map<uint32_t, std::vector<int64_t>> slots;
    for (int64_t key : keys) slots[shift < 32 ? (improved_hash(key) >> shift) & 31 : 0].push_back(key);
    for (const auto& [slot, in_slot] : slots) {
      if (in_slot.size() == 1 || shift >= 32) out.insert(out.end(), in_slot.begin(), in_slot.end());
    }
    for (const auto& [slot, in_slot] : slots) {
      if (in_slot.size() > 1 && shift < 32) visit(in_slot, shift + 5);
    }
  };
  visit(keys_in_insertion_order, 0);
  return out;
}

namespace {

// An execution's jobs in the order their starts were logged, the order they join its map: the
// order the DAGScheduler handled their submissions, which is not always their ids' (two threads
// submitting at once: the second id can be handled first). Each job's result stage is the last
// stage its submission made, so the job handled first has the lower result stage id.
std::vector<int64_t> jobs_in_start_order(const model::AppModel& m, const model::SqlExecution& x) {
  auto result_stage = [&](int64_t job_id) {
    const model::Job* job = m.job(job_id);
    return job == nullptr || job->stage_ids.empty() ? INT64_MAX : job->stage_ids.back();
  };
  std::vector<int64_t> out = x.job_ids;
  std::stable_sort(out.begin(), out.end(), [&](int64_t a, int64_t b) { return result_stage(a) < result_stage(b); });
  return out;
}

}  // namespace

// -----------------------------------------------------------------------------------------------

json application_json(const catalog::ApplicationListing& app, const std::string& log_source) {
  json attempts = json::array();
  for (const catalog::AttemptListing& a : app.attempts) {
    json attempt = json::object();
    if (a.attempt_id) attempt["attemptId"] = *a.attempt_id;
    const int64_t start = a.start_time_ms.value_or(-1);
    // The History Server shows an unfinished attempt's end as -1 and its duration as 0.
    const int64_t end = a.completed && a.end_time_ms ? *a.end_time_ms : -1;
    attempt["startTime"] = format_history_server_time(start);
    attempt["endTime"] = format_history_server_time(end);
    attempt["lastUpdated"] = format_history_server_time(a.files.last_updated_ms);
    attempt["duration"] = end >= 0 && start >= 0 ? end - start : 0;
    attempt["sparkUser"] = a.user;
    attempt["completed"] = a.completed;
    // Spark 4.1+ logs the exit code with the application's end; the History Server shows it then.
    if (a.exit_code) attempt["exitCode"] = *a.exit_code;
    attempt["appSparkVersion"] = a.spark_version;
    // One log directory: its name and its full path are the same, as the History Server gives them.
    attempt["logSourceName"] = log_source;
    attempt["logSourceFullPath"] = log_source;
    attempt["startTimeEpoch"] = start;
    attempt["endTimeEpoch"] = end;
    attempt["lastUpdatedEpoch"] = a.files.last_updated_ms;
    attempts.push_back(std::move(attempt));
  }
  return {{"id", app.id}, {"name", app.name}, {"attempts", std::move(attempts)}};
}

KilledTasksByJob killed_tasks_by_job(const model::AppModel& m) {
  KilledTasksByJob out;
  for (const model::StageAttempt& s : m.stages) {
    for (int64_t job_id : s.job_ids) {
      for (const auto& [reason, count] : s.killed_tasks_summary) out[job_id][reason] += count;
    }
  }
  return out;
}

json job_json(const model::Job& job, const KilledTasksByJob& killed) {
  json out = {{"jobId", job.job_id}, {"name", job.name}};
  if (!job.description.empty()) out["description"] = job.description;
  put_time(out, "submissionTime", job.submission_time_ms);
  put_time(out, "completionTime", job.completion_time_ms);
  out["stageIds"] = job.stage_ids_in_log_order;
  if (!job.job_group.empty()) out["jobGroup"] = job.job_group;
  out["jobTags"] = job.tags;
  out["status"] = std::string(model::to_string(job.status));
  out["numTasks"] = job.num_tasks;
  out["numActiveTasks"] = job.num_active_tasks;
  out["numCompletedTasks"] = job.num_completed_tasks;
  out["numSkippedTasks"] = job.num_skipped_tasks;
  out["numFailedTasks"] = job.num_failed_tasks;
  out["numKilledTasks"] = job.num_killed_tasks;
  out["numCompletedIndices"] = job.num_completed_indices;
  out["numActiveStages"] = job.num_active_stages;
  out["numCompletedStages"] = job.num_completed_stages;
  out["numSkippedStages"] = job.num_skipped_stages;
  out["numFailedStages"] = job.num_failed_stages;
  auto it = killed.find(job.job_id);
  out["killedTasksSummary"] = it == killed.end() ? json::object() : json(it->second);
  return out;
}

std::span<const StageMetricField> stage_metric_fields() {
  static constexpr StageMetricField kFields[] = {
      {"executorDeserializeTime", TaskMetric::kExecutorDeserializeTimeMs},
      {"executorDeserializeCpuTime", TaskMetric::kExecutorDeserializeCpuTimeNs},
      {"executorRunTime", TaskMetric::kExecutorRunTimeMs},
      {"executorCpuTime", TaskMetric::kExecutorCpuTimeNs},
      {"resultSize", TaskMetric::kResultSizeBytes},
      {"jvmGcTime", TaskMetric::kJvmGcTimeMs},
      {"resultSerializationTime", TaskMetric::kResultSerializationTimeMs},
      {"memoryBytesSpilled", TaskMetric::kMemoryBytesSpilled},
      {"diskBytesSpilled", TaskMetric::kDiskBytesSpilled},
      {"peakExecutionMemory", TaskMetric::kPeakExecutionMemoryBytes},
      {"inputBytes", TaskMetric::kInputBytes},
      {"inputRecords", TaskMetric::kInputRecords},
      {"outputBytes", TaskMetric::kOutputBytes},
      {"outputRecords", TaskMetric::kOutputRecords},
      {"shuffleRemoteBlocksFetched", TaskMetric::kShuffleRemoteBlocksFetched},
      {"shuffleLocalBlocksFetched", TaskMetric::kShuffleLocalBlocksFetched},
      {"shuffleFetchWaitTime", TaskMetric::kShuffleFetchWaitTimeMs},
      {"shuffleRemoteBytesRead", TaskMetric::kShuffleRemoteBytesRead},
      {"shuffleRemoteBytesReadToDisk", TaskMetric::kShuffleRemoteBytesReadToDisk},
      {"shuffleLocalBytesRead", TaskMetric::kShuffleLocalBytesRead},
      {"shuffleReadRecords", TaskMetric::kShuffleRecordsRead},
      {"shuffleCorruptMergedBlockChunks", TaskMetric::kPushCorruptMergedBlockChunks},
      {"shuffleMergedFetchFallbackCount", TaskMetric::kPushMergedFetchFallbackCount},
      {"shuffleMergedRemoteBlocksFetched", TaskMetric::kPushMergedRemoteBlocksFetched},
      {"shuffleMergedLocalBlocksFetched", TaskMetric::kPushMergedLocalBlocksFetched},
      {"shuffleMergedRemoteChunksFetched", TaskMetric::kPushMergedRemoteChunksFetched},
      {"shuffleMergedLocalChunksFetched", TaskMetric::kPushMergedLocalChunksFetched},
      {"shuffleMergedRemoteBytesRead", TaskMetric::kPushMergedRemoteBytesRead},
      {"shuffleMergedLocalBytesRead", TaskMetric::kPushMergedLocalBytesRead},
      {"shuffleRemoteReqsDuration", TaskMetric::kShuffleRemoteReqsDurationMs},
      {"shuffleMergedRemoteReqsDuration", TaskMetric::kPushMergedRemoteReqsDurationMs},
      {"shuffleWriteBytes", TaskMetric::kShuffleWriteBytes},
      {"shuffleWriteTime", TaskMetric::kShuffleWriteTimeNs},
      {"shuffleWriteRecords", TaskMetric::kShuffleWriteRecords},
  };
  return kFields;
}

json stage_json(const model::AppModel& m, const model::StageAttempt& s, const StageDetail& detail) {
  json out = {
      {"status", std::string(model::to_string(s.status))},
      {"stageId", s.stage_id},
      {"attemptId", s.attempt_id},
      {"numTasks", s.num_tasks},
      {"numActiveTasks", s.tasks_active},
      {"numCompleteTasks", s.tasks_succeeded},
      {"numFailedTasks", s.tasks_failed},
      {"numKilledTasks", s.tasks_killed},
      {"numCompletedIndices", s.completed_indices},
  };
  put_time(out, "submissionTime", s.submission_time_ms);
  put_time(out, "firstTaskLaunchedTime", s.first_task_launched_time_ms);
  put_time(out, "completionTime", s.completion_time_ms);
  if (!s.failure_reason.empty()) out["failureReason"] = s.failure_reason;
  for (const StageMetricField& f : stage_metric_fields()) out[f.name] = s.metric(f.metric);
  out["shuffleReadBytes"] = s.shuffle_read_bytes();
  out["name"] = s.name;
  if (!s.description.empty()) out["description"] = s.description;
  out["details"] = s.details;
  // A stage that was never submitted has no pool property: Spark's LiveStage starts in "default".
  out["schedulingPool"] = s.scheduling_pool.empty() ? std::string("default") : s.scheduling_pool;
  out["rddIds"] = s.rdd_ids_in_log_order;
  json accumulables = json::array();
  for (const model::Accumulable& a : s.accumulables) {
    if (!history_server_shows_accumulable(a.name, a.internal, a.metadata)) continue;
    accumulables.push_back({{"id", a.id}, {"name", a.name}, {"value", a.value}});
  }
  out["accumulatorUpdates"] = std::move(accumulables);
  if (detail.with_tasks && detail.tasks != nullptr) {
    json tasks = json::object();
    for (const TaskRecord& t : detail.tasks->tasks) {
      if (!detail.task_statuses.empty() &&
          std::find(detail.task_statuses.begin(), detail.task_statuses.end(), t.status) == detail.task_statuses.end()) {
        continue;
      }
      tasks[std::to_string(t.task_id)] = task_json(m, t);
    }
    out["tasks"] = std::move(tasks);
  }
  if (detail.with_executor_summary) {
    json summaries = json::object();
    for (const model::ExecutorStageSummary& e : s.executors) summaries[e.executor_id] = executor_stage_summary_json(e);
    out["executorSummary"] = std::move(summaries);
    if (s.tasks_speculative > 0 && detail.tasks != nullptr) {
      out["speculationSummary"] = speculation_summary_json(*detail.tasks);
    }
  }
  {
    std::map<std::string, int64_t> killed(s.killed_tasks_summary.begin(), s.killed_tasks_summary.end());
    out["killedTasksSummary"] = killed;
  }
  out["resourceProfileId"] = s.resource_profile_id;
  if (s.peak_executor_metrics.present || s.tasks_started > 0) {
    out["peakExecutorMetrics"] = executor_peaks_json(s.peak_executor_metrics);
  }
  if (detail.with_summaries && detail.tasks != nullptr) {
    if (auto distributions = task_metric_distributions_json(*detail.tasks, detail.quantiles)) {
      out["taskMetricsDistributions"] = std::move(*distributions);
    }
    // Spark leaves the executors' distributions out of a stage no executor ran a task of.
    if (!s.executors.empty()) {
      out["executorMetricsDistributions"] = executor_metrics_distributions_json(s, detail.quantiles);
    }
  }
  out["isShufflePushEnabled"] = s.shuffle_push_enabled;
  out["shuffleMergersCount"] = s.shuffle_mergers_count;
  return out;
}

json task_json(const model::AppModel& m, const TaskRecord& t) {
  json out = {
      {"taskId", t.task_id},
      {"index", t.index},
      {"attempt", t.attempt},
      {"partitionId", t.partition_id},
      {"launchTime", format_history_server_time(t.launch_time_ms)},
  };
  if (t.getting_result_start_ms > 0) out["resultFetchStart"] = format_history_server_time(t.getting_result_start_ms);
  // Spark shows a duration above 0 only (TaskDataWrapper.toApi).
  if (at(t.metrics, TaskMetric::kDurationMs) > 0) out["duration"] = at(t.metrics, TaskMetric::kDurationMs);
  out["executorId"] = t.executor_id;
  out["host"] = t.host;
  out["status"] = t.status;
  out["taskLocality"] = t.locality;
  out["speculative"] = t.speculative;
  json accumulables = json::array();
  for (const TaskAccumulableUpdate& a : t.accumulables) {  // the shown ones only (stage_tasks.h)
    json entry = {{"id", a.id}, {"name", a.name}};
    if (!a.update.empty()) entry["update"] = a.update;
    entry["value"] = a.value;
    accumulables.push_back(std::move(entry));
  }
  out["accumulatorUpdates"] = std::move(accumulables);
  if (t.error_message) out["errorMessage"] = *t.error_message;
  if (t.has_metrics) out["taskMetrics"] = task_metrics_json(t.metrics);
  const model::Executor* executor = find_executor(m, t.executor_id);
  out["executorLogs"] = executor != nullptr ? key_values_object(executor->log_urls) : json::object();
  out["schedulerDelay"] = at(t.metrics, TaskMetric::kSchedulerDelayMs);
  out["gettingResultTime"] = at(t.metrics, TaskMetric::kGettingResultTimeMs);
  return out;
}

// The History Server reads a summary off its task store's indices: `count` is the number of
// successful tasks (the index of run times holds the other tasks' metrics negated, below 0), and
// a metric's value at quantile q is the one at position min(q * count, count - 1) of its index.
// Most indices hold the successful tasks only; those of the scheduler delay and the getting-result
// time hold every ended task, failed and killed ones too (SPARK-26119 left them so), and the
// duration's every task, a running one with its time up to the log's lastUpdated: in a stage the
// SparkContext's shutdown cancelled, the two tasks still running 10 and 16 ms are the quantiles
// of its two successful ones of 1.5 s.
std::optional<json> task_metric_distributions_json(const StageTasks& tasks, const std::vector<double>& quantiles) {
  std::vector<const TaskRecord*> succeeded, ended;
  std::vector<int64_t> durations;
  for (const TaskRecord& t : tasks.tasks) {
    durations.push_back(at(t.metrics, TaskMetric::kDurationMs));
    if (t.status == "RUNNING" || !t.has_metrics) continue;
    ended.push_back(&t);
    if (t.status == "SUCCESS") succeeded.push_back(&t);
  }
  if (succeeded.empty()) return std::nullopt;
  const auto count = static_cast<double>(succeeded.size());
  // The values at the quantiles' positions of one index, given in the index's order.
  auto pick = [&](const std::vector<int64_t>& ordered) {
    json out = json::array();
    for (double q : quantiles) {
      const double position = std::clamp(std::floor(q * count), 0.0, count - 1);
      out.push_back(static_cast<double>(ordered[static_cast<size_t>(position)]));
    }
    return out;
  };
  auto distribution = [&](const std::function<int64_t(const TaskMetricValues&)>& value) {
    std::vector<int64_t> values;
    values.reserve(succeeded.size());
    for (const TaskRecord* t : succeeded) values.push_back(value(t->metrics));
    std::sort(values.begin(), values.end());
    return pick(values);
  };
  auto over_ended_tasks = [&](const std::function<int64_t(const TaskMetricValues&)>& value) {
    std::vector<int64_t> values;
    values.reserve(ended.size());
    for (const TaskRecord* t : ended) values.push_back(value(t->metrics));
    std::sort(values.begin(), values.end());
    return pick(values);
  };
  json out = {{"quantiles", quantiles}};
  std::sort(durations.begin(), durations.end());
  out["duration"] = pick(durations);
  out["schedulerDelay"] = over_ended_tasks(slot(TaskMetric::kSchedulerDelayMs));
  out["gettingResultTime"] = over_ended_tasks(slot(TaskMetric::kGettingResultTimeMs));
  for (const MetricPath& p : task_metric_paths()) {
    const std::string group = p.group;
    // A distribution shows shuffle reads as readBytes (local + remote), not local bytes alone.
    if (group == "shuffleReadMetrics" && std::string_view(p.name) == "localBytesRead") continue;
    // A distribution names a few fields differently from a task's metrics.
    std::string name = p.name;
    if (group == "shuffleReadMetrics" && name == "recordsRead") name = "readRecords";
    if (group == "shuffleWriteMetrics" && name == "bytesWritten") name = "writeBytes";
    if (group == "shuffleWriteMetrics" && name == "recordsWritten") name = "writeRecords";
    if (group.empty()) {
      out[name] = distribution(p.value);
    } else {
      out[group][name] = distribution(p.value);
    }
  }
  out["shuffleReadMetrics"]["readBytes"] = distribution([](const TaskMetricValues& v) {
    return at(v, TaskMetric::kShuffleLocalBytesRead) + at(v, TaskMetric::kShuffleRemoteBytesRead);
  });
  out["shuffleReadMetrics"]["totalBlocksFetched"] = distribution([](const TaskMetricValues& v) {
    return at(v, TaskMetric::kShuffleLocalBlocksFetched) + at(v, TaskMetric::kShuffleRemoteBlocksFetched);
  });
  json push = json::object();
  for (const PushMetric& p : kPushMetrics) push[p.name] = distribution(slot(p.metric));
  out["shuffleReadMetrics"]["shufflePushReadMetricsDist"] = std::move(push);
  return out;
}

json executor_json(const model::AppModel& m, const model::Executor& e) {
  json out = {
      {"id", e.id},
      {"hostPort", e.host_port.empty() ? e.host : e.host_port},
      {"isActive", !e.remove_time_ms.has_value()},
      {"rddBlocks", 0},
      {"memoryUsed", 0},
      {"diskUsed", 0},
      {"totalCores", e.total_cores},
  };
  // Task slots: cores over the CPUs each task takes (the resource profile's, else spark.task.cpus).
  double task_cpus = 1;
  if (const std::string* cpus = m.environment.spark_property("spark.task.cpus")) {
    try {
      task_cpus = std::stod(*cpus);
    } catch (const std::exception&) {
      task_cpus = 1;
    }
  }
  for (const model::ResourceProfile& profile : m.environment.resource_profiles) {
    if (profile.id != e.resource_profile_id) continue;
    for (const model::ResourceRequest& r : profile.task_resources) {
      if (r.name == "cpus") task_cpus = r.amount;
    }
  }
  out["maxTasks"] = task_cpus > 0 ? static_cast<int64_t>(e.total_cores / task_cpus) : 0;
  out["activeTasks"] = e.tasks_total - e.tasks_succeeded - (e.tasks_failed - e.tasks_resubmitted) - e.tasks_killed;
  out["failedTasks"] = e.tasks_failed;
  out["completedTasks"] = e.tasks_succeeded;
  out["totalTasks"] = e.tasks_total;
  out["totalDuration"] = e.total_duration_ms;
  out["totalGCTime"] = e.total_gc_time_ms;
  // The History Server's peaks are set by the first task end (zeros without executor metrics).
  const bool peaks_shown = e.peak_metrics.present || e.tasks_total > 0;
  if (e.is_driver()) {
    // The REST API shows the driver's running time and GC time (SPARK-37493): the application's
    // duration, and the driver's peak TotalGCTime metric when it reported peaks.
    if (auto duration = m.app.duration_ms(); duration && m.app.finished) out["totalDuration"] = *duration;
    if (peaks_shown) out["totalGCTime"] = e.peak_metrics.values[model::index_of(ExecutorMetric::kTotalGcTime)];
  }
  out["totalInputBytes"] = e.total_input_bytes;
  out["totalShuffleRead"] = e.total_shuffle_read_bytes;
  out["totalShuffleWrite"] = e.total_shuffle_write_bytes;
  out["isBlacklisted"] = e.excluded;
  out["maxMemory"] = e.max_memory_bytes;
  put_time(out, "addTime", e.add_time_ms);
  put_time(out, "removeTime", e.remove_time_ms);
  if (e.remove_time_ms) out["removeReason"] = e.remove_reason;
  out["executorLogs"] = key_values_object(e.log_urls);
  if (e.max_onheap_memory_bytes || e.max_offheap_memory_bytes) {
    out["memoryMetrics"] = {{"usedOnHeapStorageMemory", 0},
                            {"usedOffHeapStorageMemory", 0},
                            {"totalOnHeapStorageMemory", e.max_onheap_memory_bytes.value_or(0)},
                            {"totalOffHeapStorageMemory", e.max_offheap_memory_bytes.value_or(0)}};
  }
  out["blacklistedInStages"] = e.excluded_in_stages;
  if (peaks_shown) out["peakMemoryMetrics"] = executor_peaks_json(e.peak_metrics);
  out["attributes"] = key_values_object(e.attributes);
  json resources = json::object();
  for (const model::ResourceInformation& r : e.resources) {
    resources[r.name] = {{"name", r.name}, {"addresses", r.addresses}};
  }
  out["resources"] = std::move(resources);
  out["resourceProfileId"] = e.resource_profile_id;
  out["isExcluded"] = e.excluded;
  out["excludedInStages"] = e.excluded_in_stages;
  return out;
}

json environment_json(const model::AppModel& m) {
  const model::Environment& env = m.environment;
  // The runtime as the History Server shows it: a value the log does not give is left out.
  json runtime = json::object();
  for (const auto& [field, key] : {std::pair{"javaVersion", "Java Version"}, std::pair{"javaHome", "Java Home"},
                                   std::pair{"scalaVersion", "Scala Version"}}) {
    for (const auto& [k, v] : env.jvm_information) {
      if (k == key) runtime[field] = v;
    }
  }
  json profiles = json::array();
  for (const model::ResourceProfile& p : env.resource_profiles) {
    json executor_resources = json::object();
    for (const model::ResourceRequest& r : p.executor_resources) {
      executor_resources[r.name] = {{"resourceName", r.name},
                                    {"amount", static_cast<int64_t>(r.amount)},
                                    {"discoveryScript", r.discovery_script},
                                    {"vendor", r.vendor}};
    }
    json task_resources = json::object();
    for (const model::ResourceRequest& r : p.task_resources) {
      task_resources[r.name] = {{"resourceName", r.name}, {"amount", r.amount}};
    }
    profiles.push_back({{"id", p.id},
                        {"executorResources", std::move(executor_resources)},
                        {"taskResources", std::move(task_resources)}});
  }
  return {
      {"runtime", std::move(runtime)},
      {"sparkProperties", key_value_pairs(env.spark_properties)},
      {"hadoopProperties", key_value_pairs(env.hadoop_properties)},
      {"systemProperties", key_value_pairs(env.system_properties)},
      {"metricsProperties", key_value_pairs(env.metrics_properties)},
      {"classpathEntries", key_value_pairs(env.classpath_entries)},
      {"resourceProfiles", std::move(profiles)},
  };
}

json miscellaneous_process_json(const model::MiscellaneousProcess& p) {
  json out = {{"id", p.id}, {"hostPort", p.host_port}, {"isActive", true}, {"totalCores", p.cores}};
  put_time(out, "addTime", p.add_time_ms);
  out["processLogs"] = key_values_object(p.log_urls);
  return out;
}

json rdd_storage_json(const model::RddInfo& rdd) {
  return {
      {"id", rdd.rdd_id},
      {"name", rdd.name},
      {"numPartitions", rdd.num_partitions},
      {"numCachedPartitions", rdd.num_cached_partitions},
      {"storageLevel", rdd.storage_level},
      {"memoryUsed", rdd.memory_size_bytes},
      {"diskUsed", rdd.disk_size_bytes},
      {"partitions", json::array()},
  };
}

// SQLExecutionUIData.executionStatus: a logged error message decides (Spark 3.4+ logs "" on
// success); without one, RUNNING until the execution ends, then FAILED when one of its jobs failed.
std::string sql_execution_status(const model::AppModel& m, const model::SqlExecution& x) {
  if (x.error_message) return x.error_message->empty() ? "COMPLETED" : "FAILED";
  if (!x.end_time_ms) return "RUNNING";
  const bool a_job_failed = std::any_of(x.job_ids.begin(), x.job_ids.end(), [&](int64_t id) {
    const model::Job* job = m.job(id);
    return job != nullptr && job->status == model::JobStatus::kFailed;
  });
  return a_job_failed ? "FAILED" : "COMPLETED";
}

int64_t sql_execution_duration_ms(const model::SqlExecution& x) {
  return x.duration_ms().value_or(0);
}

json sql_execution_json(const model::AppModel& m, const model::SqlExecution& x, bool details, bool plan_description,
                        const SqlMetricTexts* metric_values) {
  json out = {{"id", x.execution_id}};
  out["status"] = sql_execution_status(m, x);
  out["description"] = x.description;
  out["planDescription"] = plan_description ? x.physical_plan_description : std::string();
  put_time(out, "submissionTime", x.start_time_ms);
  out["duration"] = sql_execution_duration_ms(x);
  json running = json::array(), succeeded = json::array(), failed = json::array();
  for (int64_t job_id : scala_map_order(jobs_in_start_order(m, x))) {
    const model::Job* job = m.job(job_id);
    if (job == nullptr) continue;
    if (job->status == model::JobStatus::kSucceeded) {
      succeeded.push_back(job_id);
    } else if (job->status == model::JobStatus::kFailed) {
      failed.push_back(job_id);
    } else {
      running.push_back(job_id);
    }
  }
  out["runningJobIds"] = std::move(running);
  out["successJobIds"] = std::move(succeeded);
  out["failedJobIds"] = std::move(failed);
  // details: the plan as Spark's SparkPlanGraph draws it, nodes by id from the highest (as
  // SqlResource lists them), each metric that has a value in the History Server's text of it
  // (sql_metric_values.h: a metric no task or driver update of this execution reported has none).
  json nodes = json::array(), edges = json::array();
  if (details) {
    const SparkPlanGraph graph = spark_plan_graph(x.plan);
    for (auto node = graph.nodes.rbegin(); node != graph.nodes.rend(); ++node) {
      json metrics = json::array();
      for (const model::PlanMetric& metric : node->plan->metrics) {
        if (metric_values == nullptr) break;
        auto value = metric_values->find(metric.accumulator_id);
        if (value == metric_values->end()) continue;
        metrics.push_back({{"name", text::trim(metric.name)}, {"value", value->second}});
      }
      json shown = {{"nodeId", node->id}, {"nodeName", text::trim(node->plan->node_name)}};
      if (node->whole_stage_codegen_id) shown["wholeStageCodegenId"] = *node->whole_stage_codegen_id;
      shown["metrics"] = std::move(metrics);
      shown["desc"] = node->plan->simple_string;
      nodes.push_back(std::move(shown));
    }
    for (const SparkPlanGraphEdge& edge : graph.edges) {
      edges.push_back({{"fromId", edge.from_id}, {"toId", edge.to_id}});
    }
  }
  out["nodes"] = std::move(nodes);
  out["edges"] = std::move(edges);
  // Spark 3.4+'s ExecutionData: the message as logged ("" on success, left out when the log has
  // none), the execution's root (its own id when the log names none, as SQLAppStatusListener
  // fills it) and the configurations the query changed.
  if (x.query_id) out["queryId"] = *x.query_id;
  if (x.error_message) out["errorMessage"] = *x.error_message;
  out["rootExecutionId"] = x.root_execution_id.value_or(x.execution_id);
  out["modifiedConfigs"] = key_values_object(x.modified_configs);
  return out;
}

json sql_table_row_json(const model::AppModel& m, const model::SqlExecution& x) {
  json out = {{"id", x.execution_id}};
  out["status"] = sql_execution_status(m, x);
  out["description"] = x.description;
  put_time(out, "submissionTime", x.start_time_ms);
  out["duration"] = sql_execution_duration_ms(x);
  // Only the jobs that succeeded, by id (SqlResource.execToRow).
  json succeeded = json::array();
  for (int64_t job_id : x.job_ids) {  // sorted
    const model::Job* job = m.job(job_id);
    if (job != nullptr && job->status == model::JobStatus::kSucceeded) succeeded.push_back(job_id);
  }
  out["jobIds"] = std::move(succeeded);
  // A row is a Java map whose null values Spark's mapper leaves out, as it leaves out absent Options.
  if (x.query_id) out["queryId"] = *x.query_id;
  if (x.error_message) out["errorMessage"] = *x.error_message;
  out["rootExecutionId"] = x.root_execution_id.value_or(x.execution_id);
  return out;
}

}  // namespace sf::server

#include "history_server/history_server_json.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string_view>

#include "common/text.h"
#include "history_server/rest_path.h"
#include "history_server/spark_plan_graph.h"

namespace sf::history_server {

void SortedObject::write() {
  // Stable, so that of two members of one name the last given is the last of its run.
  std::stable_sort(members_.begin(), members_.end(), [](const Member& a, const Member& b) { return a.name < b.name; });
  w_.begin_object();
  for (size_t i = 0; i < members_.size(); ++i) {
    if (i + 1 < members_.size() && members_[i + 1].name == members_[i].name) continue;
    w_.key(members_[i].name);
    members_[i].write(w_);
  }
  w_.end_object();
}

namespace {

using model::ExecutorMetric;
using model::TaskMetric;
using model::TaskMetricValues;

// Adds `key`, the History Server's date of `ms`, or leaves it out (an absent Option).
void add_time(SortedObject& o, std::string_view key, const std::optional<int64_t>& ms) {
  if (ms) o.field(key, format_history_server_time(*ms));
}

// A map as an object: (name, value) pairs (executor logs, modified configurations, killed tasks
// by reason).
template <typename Pairs>
void write_map(JsonWriter& w, const Pairs& pairs) {
  SortedObject out(w);
  for (const auto& [name, value] : pairs) out.field(name, value);
  out.write();
}

// Properties as the environment lists them: [key, value] pairs, in the model's order.
void write_key_value_pairs(JsonWriter& w, const model::KeyValues& values) {
  w.array([&] {
    for (const auto& pair : values) {
      w.array([&] {
        w.value(pair.first);
        w.value(pair.second);
      });
    }
  });
}

void write_executor_peaks(JsonWriter& w, const model::ExecutorMetricPeaks& peaks) {
  SortedObject out(w);
  for (size_t i = 0; i < model::kExecutorMetricCount; ++i) {
    out.field(model::executor_metric_name(static_cast<ExecutorMetric>(i)), peaks.values[i]);
  }
  out.write();
}

// ---------------------------------------------------------------------------------------------
// Task metrics: the REST paths of each metric, for tasks and for their distributions.

struct MetricPath {
  const char* group;  // "" for a top-level field, else the nested object's name
  const char* name;
  std::function<int64_t(const TaskMetricValues&)> value;
};

// The nested objects of a task's metrics, each a group of task_metric_paths().
constexpr std::string_view kMetricGroups[] = {"inputMetrics", "outputMetrics", "shuffleReadMetrics",
                                              "shuffleWriteMetrics"};

int64_t at(const TaskMetricValues& v, TaskMetric m) { return v[model::index_of(m)]; }

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

void write_task_metrics(JsonWriter& w, const TaskMetricValues& v) {
  SortedObject out(w);
  for (const MetricPath& p : task_metric_paths()) {
    if (*p.group == '\0') out.field(p.name, p.value(v));
  }
  for (std::string_view group : kMetricGroups) {
    out.member(group, [&v, group](JsonWriter& gw) {
      SortedObject metrics(gw);
      for (const MetricPath& p : task_metric_paths()) {
        if (p.group == group) metrics.field(p.name, p.value(v));
      }
      if (group == "shuffleReadMetrics") {
        metrics.member("shufflePushReadMetrics", [&v](JsonWriter& pw) {
          SortedObject push(pw);
          for (const PushMetric& p : kPushMetrics) push.field(p.name, at(v, p.metric));
          push.write();
        });
      }
      metrics.write();
    });
  }
  out.write();
}

// The value at quantile q of sorted values, as Spark's Distribution and task summary pick it:
// the element at min(floor(q * n), n - 1); a negative q picks the first (the index is computed in
// double, so that any q Spark takes stays in range).
double quantile_of(const std::vector<int64_t>& sorted, double q) {
  const auto last = static_cast<double>(sorted.size() - 1);
  const double position = std::clamp(std::floor(q * static_cast<double>(sorted.size())), 0.0, last);
  return static_cast<double>(sorted[static_cast<size_t>(position)]);
}

void write_quantiles(JsonWriter& w, std::vector<int64_t> values, const std::vector<double>& quantiles) {
  std::sort(values.begin(), values.end());
  w.array([&] {
    for (double q : quantiles) w.number(quantile_of(values, q));
  });
}

// The stage's executors as Spark keys them in executorSummary: by id.
const model::Executor* find_executor(const model::AppModel& m, std::string_view id) { return m.executor(id); }

// The History Server's peaks are set by a task end (zeros when the log carries no executor
// metrics) unless the metrics it logged are unset (a task lost with its executor).
bool shows_peaks(const model::ExecutorStageSummary& e) { return e.peaks_set; }

void write_executor_stage_summary(JsonWriter& w, const model::ExecutorStageSummary& e) {
  SortedObject out(w);
  out.field("taskTime", e.task_time_ms);
  out.field("failedTasks", e.tasks_failed);
  out.field("succeededTasks", e.tasks_succeeded);
  out.field("killedTasks", e.tasks_killed);
  out.field("inputBytes", e.input_bytes);
  out.field("inputRecords", e.input_records);
  out.field("outputBytes", e.output_bytes);
  out.field("outputRecords", e.output_records);
  out.field("shuffleRead", e.shuffle_read_bytes);
  out.field("shuffleReadRecords", e.shuffle_read_records);
  out.field("shuffleWrite", e.shuffle_write_bytes);
  out.field("shuffleWriteRecords", e.shuffle_write_records);
  out.field("memoryBytesSpilled", e.memory_bytes_spilled);
  out.field("diskBytesSpilled", e.disk_bytes_spilled);
  out.field("isBlacklistedForStage", e.excluded);
  out.field("isExcludedForStage", e.excluded);
  if (shows_peaks(e)) {
    out.member("peakMemoryMetrics", [&e](JsonWriter& pw) { write_executor_peaks(pw, e.peak_metrics); });
  }
  out.write();
}

void write_executor_metrics_distributions(JsonWriter& w, const model::StageAttempt& s,
                                          const std::vector<double>& quantiles) {
  using Summary = model::ExecutorStageSummary;
  struct Field {
    const char* name;
    int64_t (*value)(const Summary&);
  };
  static constexpr Field kFields[] = {
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
  SortedObject out(w);
  out.field("quantiles", quantiles);
  for (const Field& field : kFields) {
    out.member(field.name, [&s, &quantiles, &field](JsonWriter& qw) {
      std::vector<int64_t> values;
      for (const Summary& e : s.executors) values.push_back(field.value(e));
      write_quantiles(qw, std::move(values), quantiles);
    });
  }
  // Over the executors whose summary shows peaks (Spark flattens their peakMemoryMetrics options).
  std::vector<const Summary*> with_peaks;
  for (const Summary& e : s.executors) {
    if (shows_peaks(e)) with_peaks.push_back(&e);
  }
  if (!with_peaks.empty()) {
    out.member("peakMemoryMetrics", [&with_peaks, &quantiles](JsonWriter& pw) {
      SortedObject peaks(pw);
      for (size_t i = 0; i < model::kExecutorMetricCount; ++i) {
        const std::string_view name = model::executor_metric_name(static_cast<ExecutorMetric>(i));
        peaks.member(name, [&with_peaks, &quantiles, i](JsonWriter& qw) {
          std::vector<int64_t> values;
          for (const Summary* e : with_peaks) values.push_back(e->peak_metrics.values[i]);
          write_quantiles(qw, std::move(values), quantiles);
        });
      }
      peaks.write();
    });
  }
  out.write();
}

// Speculative attempts by outcome (Spark 3.4's SpeculationStageSummary).
void write_speculation_summary(JsonWriter& w, const StageTasks& tasks) {
  int64_t total = 0, active = 0, completed = 0, failed = 0, killed = 0;
  for (const TaskRecord& t : tasks.tasks) {
    if (!t.speculative) continue;
    ++total;
    if (t.status == "RUNNING") ++active;
    if (t.status == "SUCCESS") ++completed;
    if (t.status == "FAILED") ++failed;
    if (t.status == "KILLED") ++killed;
  }
  SortedObject out(w);
  out.field("numTasks", total);
  out.field("numActiveTasks", active);
  out.field("numCompletedTasks", completed);
  out.field("numFailedTasks", failed);
  out.field("numKilledTasks", killed);
  out.write();
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

void write_application_attempt(JsonWriter& w, const catalog::AttemptListing& a, const std::string& log_source) {
  SortedObject attempt(w);
  if (a.attempt_id) attempt.field("attemptId", *a.attempt_id);
  const int64_t start = a.start_time_ms.value_or(-1);
  // The History Server shows an unfinished attempt's end as -1 and its duration as 0.
  const int64_t end = a.completed && a.end_time_ms ? *a.end_time_ms : -1;
  attempt.field("startTime", format_history_server_time(start));
  attempt.field("endTime", format_history_server_time(end));
  attempt.field("lastUpdated", format_history_server_time(a.files.last_updated_ms));
  attempt.field("duration", a.duration_ms().value_or(0));
  attempt.field("sparkUser", a.user);
  attempt.field("completed", a.completed);
  // Spark 4.1+ logs the exit code with the application's end; the History Server shows it then.
  if (a.exit_code) attempt.field("exitCode", *a.exit_code);
  attempt.field("appSparkVersion", a.spark_version);
  // One log directory: its name and its full path are the same, as the History Server gives them.
  attempt.field("logSourceName", log_source);
  attempt.field("logSourceFullPath", log_source);
  attempt.field("startTimeEpoch", start);
  attempt.field("endTimeEpoch", end);
  attempt.field("lastUpdatedEpoch", a.files.last_updated_ms);
  attempt.write();
}

void write_application(JsonWriter& w, const catalog::ApplicationListing& app, const std::string& log_source) {
  SortedObject out(w);
  out.field("id", app.id);
  out.field("name", app.name);
  out.member("attempts", [&app, &log_source](JsonWriter& aw) {
    aw.array([&] {
      for (const catalog::AttemptListing& a : app.attempts) write_application_attempt(aw, a, log_source);
    });
  });
  out.write();
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

void write_job(JsonWriter& w, const model::Job& job, const KilledTasksByJob& killed) {
  static const std::map<std::string, int64_t> kNone;
  auto it = killed.find(job.job_id);
  const std::map<std::string, int64_t>& killed_by_reason = it == killed.end() ? kNone : it->second;
  SortedObject out(w);
  out.field("jobId", job.job_id);
  out.field("name", job.name);
  if (!job.description.empty()) out.field("description", job.description);
  add_time(out, "submissionTime", job.submission_time_ms);
  add_time(out, "completionTime", job.completion_time_ms);
  out.field("stageIds", job.stage_ids_in_log_order);
  if (!job.job_group.empty()) out.field("jobGroup", job.job_group);
  out.field("jobTags", job.tags);
  out.field("status", model::to_string(job.status));
  out.field("numTasks", job.num_tasks);
  out.field("numActiveTasks", job.num_active_tasks);
  out.field("numCompletedTasks", job.num_completed_tasks);
  out.field("numSkippedTasks", job.num_skipped_tasks);
  out.field("numFailedTasks", job.num_failed_tasks);
  out.field("numKilledTasks", job.num_killed_tasks);
  out.field("numCompletedIndices", job.num_completed_indices);
  out.field("numActiveStages", job.num_active_stages);
  out.field("numCompletedStages", job.num_completed_stages);
  out.field("numSkippedStages", job.num_skipped_stages);
  out.field("numFailedStages", job.num_failed_stages);
  out.member("killedTasksSummary", [&killed_by_reason](JsonWriter& kw) { write_map(kw, killed_by_reason); });
  out.write();
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

bool StageDetail::shows(const TaskRecord& task) const {
  return task_statuses.empty() ||
         std::find(task_statuses.begin(), task_statuses.end(), task.status) != task_statuses.end();
}

bool StageDetail::shows_a_task() const {
  return with_tasks && tasks != nullptr &&
         std::any_of(tasks->tasks.begin(), tasks->tasks.end(), [this](const TaskRecord& t) { return shows(t); });
}

namespace {

// A stage's tasks keyed by task id, as text: "10" comes before "9".
void write_tasks_by_id(JsonWriter& w, const model::AppModel& m, const StageDetail& detail) {
  std::vector<const TaskRecord*> shown;
  for (const TaskRecord& t : detail.tasks->tasks) {
    if (detail.shows(t)) shown.push_back(&t);
  }
  std::vector<std::string> ids;  // the members' names, which must live until the object is written
  ids.reserve(shown.size());
  for (const TaskRecord* t : shown) ids.push_back(std::to_string(t->task_id));
  SortedObject out(w);
  for (size_t i = 0; i < shown.size(); ++i) {
    const TaskRecord* t = shown[i];
    out.member(ids[i], [&m, t](JsonWriter& tw) { write_task(tw, m, *t); });
  }
  out.write();
}

void write_accumulables(JsonWriter& w, const model::StageAttempt& s) {
  w.array([&] {
    for (const model::Accumulable& a : s.accumulables) {
      if (!history_server_shows_accumulable(a.name, a.internal, a.metadata)) continue;
      SortedObject entry(w);
      entry.field("id", a.id);
      entry.field("name", a.name);
      entry.field("value", a.value);
      entry.write();
    }
  });
}

void write_executor_summaries(JsonWriter& w, const model::StageAttempt& s) {
  SortedObject out(w);
  for (const model::ExecutorStageSummary& e : s.executors) {
    out.member(e.executor_id, [&e](JsonWriter& ew) { write_executor_stage_summary(ew, e); });
  }
  out.write();
}

}  // namespace

void write_stage(JsonWriter& w, const model::AppModel& m, const model::StageAttempt& s, const StageDetail& detail) {
  SortedObject out(w);
  out.field("status", model::to_string(s.status));
  out.field("stageId", s.stage_id);
  out.field("attemptId", s.attempt_id);
  out.field("numTasks", s.num_tasks);
  out.field("numActiveTasks", s.tasks_active);
  out.field("numCompleteTasks", s.tasks_succeeded);
  out.field("numFailedTasks", s.tasks_failed);
  out.field("numKilledTasks", s.tasks_killed);
  out.field("numCompletedIndices", s.completed_indices);
  add_time(out, "submissionTime", s.submission_time_ms);
  add_time(out, "firstTaskLaunchedTime", s.first_task_launched_time_ms);
  add_time(out, "completionTime", s.completion_time_ms);
  if (!s.failure_reason.empty()) out.field("failureReason", s.failure_reason);
  for (const StageMetricField& f : stage_metric_fields()) out.field(f.name, s.metric(f.metric));
  out.field("shuffleReadBytes", s.shuffle_read_bytes());
  out.field("name", s.name);
  if (!s.description.empty()) out.field("description", s.description);
  out.field("details", s.details);
  // A stage that was never submitted has no pool property: Spark's LiveStage starts in "default".
  out.field("schedulingPool", s.scheduling_pool.empty() ? std::string_view("default") : s.scheduling_pool);
  out.field("rddIds", s.rdd_ids_in_log_order);
  out.member("accumulatorUpdates", [&s](JsonWriter& aw) { write_accumulables(aw, s); });
  if (detail.with_tasks && detail.tasks != nullptr) {
    out.member("tasks", [&m, &detail](JsonWriter& tw) { write_tasks_by_id(tw, m, detail); });
  }
  if (detail.with_executor_summary) {
    out.member("executorSummary", [&s](JsonWriter& ew) { write_executor_summaries(ew, s); });
    if (s.tasks_speculative > 0 && detail.tasks != nullptr) {
      out.member("speculationSummary", [&detail](JsonWriter& sw) { write_speculation_summary(sw, *detail.tasks); });
    }
  }
  out.member("killedTasksSummary", [&s](JsonWriter& kw) { write_map(kw, s.killed_tasks_summary); });
  out.field("resourceProfileId", s.resource_profile_id);
  if (s.peak_executor_metrics.present || s.tasks_started > 0) {
    out.member("peakExecutorMetrics", [&s](JsonWriter& pw) { write_executor_peaks(pw, s.peak_executor_metrics); });
  }
  if (detail.with_summaries && detail.tasks != nullptr) {
    if (has_task_metric_distributions(*detail.tasks)) {
      out.member("taskMetricsDistributions",
                 [&detail](JsonWriter& dw) { write_task_metric_distributions(dw, *detail.tasks, detail.quantiles); });
    }
    // Spark leaves the executors' distributions out of a stage no executor ran a task of.
    if (!s.executors.empty()) {
      out.member("executorMetricsDistributions",
                 [&s, &detail](JsonWriter& dw) { write_executor_metrics_distributions(dw, s, detail.quantiles); });
    }
  }
  out.field("isShufflePushEnabled", s.shuffle_push_enabled);
  out.field("shuffleMergersCount", s.shuffle_mergers_count);
  out.write();
}

void write_task(JsonWriter& w, const model::AppModel& m, const TaskRecord& t) {
  static const model::KeyValues kNoLogs;
  const model::Executor* executor = find_executor(m, t.executor_id);
  const model::KeyValues& logs = executor != nullptr ? executor->log_urls : kNoLogs;
  SortedObject out(w);
  out.field("taskId", t.task_id);
  out.field("index", t.index);
  out.field("attempt", t.attempt);
  out.field("partitionId", t.partition_id);
  out.field("launchTime", format_history_server_time(t.launch_time_ms));
  if (t.getting_result_start_ms > 0) {
    out.field("resultFetchStart", format_history_server_time(t.getting_result_start_ms));
  }
  // Spark shows a duration above 0 only (TaskDataWrapper.toApi).
  if (at(t.metrics, TaskMetric::kDurationMs) > 0) out.field("duration", at(t.metrics, TaskMetric::kDurationMs));
  out.field("executorId", t.executor_id);
  out.field("host", t.host);
  out.field("status", t.status);
  out.field("taskLocality", t.locality);
  out.field("speculative", t.speculative);
  out.member("accumulatorUpdates", [&t](JsonWriter& aw) {
    aw.array([&] {
      for (const TaskAccumulableUpdate& a : t.accumulables) {  // the shown ones only (stage_tasks.h)
        SortedObject entry(aw);
        entry.field("id", a.id);
        entry.field("name", a.name);
        if (!a.update.empty()) entry.field("update", a.update);
        entry.field("value", a.value);
        entry.write();
      }
    });
  });
  if (t.error_message) out.field("errorMessage", *t.error_message);
  if (t.has_metrics) out.member("taskMetrics", [&t](JsonWriter& mw) { write_task_metrics(mw, t.metrics); });
  out.member("executorLogs", [&logs](JsonWriter& lw) { write_map(lw, logs); });
  out.field("schedulerDelay", at(t.metrics, TaskMetric::kSchedulerDelayMs));
  out.field("gettingResultTime", at(t.metrics, TaskMetric::kGettingResultTimeMs));
  out.write();
}

bool has_task_metric_distributions(const StageTasks& tasks) {
  return std::any_of(tasks.tasks.begin(), tasks.tasks.end(),
                     [](const TaskRecord& t) { return t.status == "SUCCESS" && t.has_metrics; });
}

// The History Server reads a summary off its task store's indices: `count` is the number of
// successful tasks (the index of run times holds the other tasks' metrics negated, below 0), and
// a metric's value at quantile q is the one at position min(q * count, count - 1) of its index.
// Most indices hold the successful tasks only; those of the scheduler delay and the getting-result
// time hold every ended task, failed and killed ones too (SPARK-26119 left them so), and the
// duration's every task, a running one with its time up to the log's lastUpdated: in a stage the
// SparkContext's shutdown cancelled, the two tasks still running 10 and 16 ms are the quantiles
// of its two successful ones of 1.5 s. A running task launched after lastUpdated has a duration
// below 0, which the index, read from 0 up, does not hold.
void write_task_metric_distributions(JsonWriter& w, const StageTasks& tasks, const std::vector<double>& quantiles) {
  using Metric = std::function<int64_t(const TaskMetricValues&)>;
  std::vector<const TaskRecord*> succeeded, ended;
  std::vector<int64_t> durations;
  for (const TaskRecord& t : tasks.tasks) {
    if (const int64_t duration = at(t.metrics, TaskMetric::kDurationMs); duration >= 0) durations.push_back(duration);
    if (t.status == "RUNNING" || !t.has_metrics) continue;
    ended.push_back(&t);
    if (t.status == "SUCCESS") succeeded.push_back(&t);
  }
  std::sort(durations.begin(), durations.end());
  const auto count = static_cast<double>(succeeded.size());
  // The values at the quantiles' positions of one index, given in the index's order.
  auto pick = [&quantiles, count](JsonWriter& qw, const std::vector<int64_t>& ordered) {
    qw.array([&] {
      for (double q : quantiles) {
        const double position = std::clamp(std::floor(q * count), 0.0, count - 1);
        qw.number(static_cast<double>(ordered[static_cast<size_t>(position)]));
      }
    });
  };
  // A metric's values over one index's tasks, sorted and picked when its member is written.
  auto over = [&pick](const std::vector<const TaskRecord*>& index, Metric value) -> SortedObject::WriteValue {
    return [&pick, &index, value = std::move(value)](JsonWriter& qw) {
      std::vector<int64_t> values;
      values.reserve(index.size());
      for (const TaskRecord* t : index) values.push_back(value(t->metrics));
      std::sort(values.begin(), values.end());
      pick(qw, values);
    };
  };
  auto distribution = [&over, &succeeded](Metric value) { return over(succeeded, std::move(value)); };

  SortedObject out(w);
  out.field("quantiles", quantiles);
  out.member("duration", [&pick, &durations](JsonWriter& qw) { pick(qw, durations); });
  out.member("schedulerDelay", over(ended, slot(TaskMetric::kSchedulerDelayMs)));
  out.member("gettingResultTime", over(ended, slot(TaskMetric::kGettingResultTimeMs)));
  for (const MetricPath& p : task_metric_paths()) {
    if (*p.group == '\0') out.member(p.name, distribution(p.value));
  }
  for (std::string_view group : kMetricGroups) {
    out.member(group, [&distribution, group](JsonWriter& gw) {
      SortedObject metrics(gw);
      for (const MetricPath& p : task_metric_paths()) {
        if (p.group != group) continue;
        const std::string_view name = p.name;
        // A distribution shows shuffle reads as readBytes (local + remote), not local bytes alone.
        if (group == "shuffleReadMetrics" && name == "localBytesRead") continue;
        // A distribution names a few fields differently from a task's metrics.
        std::string_view shown = name;
        if (group == "shuffleReadMetrics" && name == "recordsRead") shown = "readRecords";
        if (group == "shuffleWriteMetrics" && name == "bytesWritten") shown = "writeBytes";
        if (group == "shuffleWriteMetrics" && name == "recordsWritten") shown = "writeRecords";
        metrics.member(shown, distribution(p.value));
      }
      if (group == "shuffleReadMetrics") {
        metrics.member("readBytes", distribution([](const TaskMetricValues& v) {
                         return at(v, TaskMetric::kShuffleLocalBytesRead) + at(v, TaskMetric::kShuffleRemoteBytesRead);
                       }));
        metrics.member("totalBlocksFetched", distribution([](const TaskMetricValues& v) {
                         return at(v, TaskMetric::kShuffleLocalBlocksFetched) +
                                at(v, TaskMetric::kShuffleRemoteBlocksFetched);
                       }));
        metrics.member("shufflePushReadMetricsDist", [&distribution](JsonWriter& pw) {
          SortedObject push(pw);
          for (const PushMetric& p : kPushMetrics) push.member(p.name, distribution(slot(p.metric)));
          push.write();
        });
      }
      metrics.write();
    });
  }
  out.write();
}

void write_executor(JsonWriter& w, const model::AppModel& m, const model::Executor& e) {
  SortedObject out(w);
  out.field("id", e.id);
  out.field("hostPort", e.host_port.empty() ? e.host : e.host_port);
  out.field("isActive", !e.remove_time_ms.has_value());
  out.field("rddBlocks", 0);
  out.field("memoryUsed", 0);
  out.field("diskUsed", 0);
  out.field("totalCores", e.total_cores);
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
  out.field("maxTasks", task_cpus > 0 ? static_cast<int64_t>(e.total_cores / task_cpus) : 0);
  out.field("activeTasks", e.tasks_total - e.tasks_succeeded - (e.tasks_failed - e.tasks_resubmitted) - e.tasks_killed);
  out.field("failedTasks", e.tasks_failed);
  out.field("completedTasks", e.tasks_succeeded);
  out.field("totalTasks", e.tasks_total);
  // The History Server's peaks are set by the first task end (zeros without executor metrics).
  const bool peaks_shown = e.peak_metrics.present || e.tasks_total > 0;
  if (e.is_driver()) {
    // The REST API shows the driver's running time and GC time (SPARK-37493): the application's
    // duration, and the driver's peak TotalGCTime metric when it reported peaks.
    const std::optional<int64_t> duration = m.app.duration_ms();
    out.field("totalDuration", duration && m.app.finished ? *duration : e.total_duration_ms);
    out.field("totalGCTime",
              peaks_shown ? e.peak_metrics.values[model::index_of(ExecutorMetric::kTotalGcTime)] : e.total_gc_time_ms);
  } else {
    out.field("totalDuration", e.total_duration_ms);
    out.field("totalGCTime", e.total_gc_time_ms);
  }
  out.field("totalInputBytes", e.total_input_bytes);
  out.field("totalShuffleRead", e.total_shuffle_read_bytes);
  out.field("totalShuffleWrite", e.total_shuffle_write_bytes);
  out.field("isBlacklisted", e.excluded);
  out.field("maxMemory", e.max_memory_bytes);
  add_time(out, "addTime", e.add_time_as_logged());
  add_time(out, "removeTime", e.remove_time_as_logged());
  if (e.remove_time_ms) out.field("removeReason", e.remove_reason);
  out.member("executorLogs", [&e](JsonWriter& lw) { write_map(lw, e.log_urls); });
  if (e.max_onheap_memory_bytes || e.max_offheap_memory_bytes) {
    out.member("memoryMetrics", [&e](JsonWriter& mw) {
      SortedObject memory(mw);
      memory.field("usedOnHeapStorageMemory", 0);
      memory.field("usedOffHeapStorageMemory", 0);
      memory.field("totalOnHeapStorageMemory", e.max_onheap_memory_bytes.value_or(0));
      memory.field("totalOffHeapStorageMemory", e.max_offheap_memory_bytes.value_or(0));
      memory.write();
    });
  }
  out.field("blacklistedInStages", e.excluded_in_stages);
  if (peaks_shown) out.member("peakMemoryMetrics", [&e](JsonWriter& pw) { write_executor_peaks(pw, e.peak_metrics); });
  out.member("attributes", [&e](JsonWriter& aw) { write_map(aw, e.attributes); });
  out.member("resources", [&e](JsonWriter& rw) {
    SortedObject resources(rw);
    for (const model::ResourceInformation& r : e.resources) {
      resources.member(r.name, [&r](JsonWriter& iw) {
        SortedObject info(iw);
        info.field("name", r.name);
        info.field("addresses", r.addresses);
        info.write();
      });
    }
    resources.write();
  });
  out.field("resourceProfileId", e.resource_profile_id);
  out.field("isExcluded", e.excluded);
  out.field("excludedInStages", e.excluded_in_stages);
  out.write();
}

namespace {

void write_resource_profile(JsonWriter& w, const model::ResourceProfile& p) {
  SortedObject out(w);
  out.field("id", p.id);
  out.member("executorResources", [&p](JsonWriter& ew) {
    SortedObject resources(ew);
    for (const model::ResourceRequest& r : p.executor_resources) {
      resources.member(r.name, [&r](JsonWriter& rw) {
        SortedObject request(rw);
        request.field("resourceName", r.name);
        request.field("amount", static_cast<int64_t>(r.amount));
        request.field("discoveryScript", r.discovery_script);
        request.field("vendor", r.vendor);
        request.write();
      });
    }
    resources.write();
  });
  out.member("taskResources", [&p](JsonWriter& tw) {
    SortedObject resources(tw);
    for (const model::ResourceRequest& r : p.task_resources) {
      resources.member(r.name, [&r](JsonWriter& rw) {
        SortedObject request(rw);
        request.field("resourceName", r.name);
        request.field("amount", r.amount);
        request.write();
      });
    }
    resources.write();
  });
  out.write();
}

}  // namespace

void write_environment(JsonWriter& w, const model::AppModel& m) {
  const model::Environment& env = m.environment;
  SortedObject out(w);
  out.member("runtime", [&env](JsonWriter& rw) {
    // The runtime as the History Server shows it: a value the log does not give is left out.
    SortedObject runtime(rw);
    for (const auto& [field, key] : {std::pair{"javaVersion", "Java Version"}, std::pair{"javaHome", "Java Home"},
                                     std::pair{"scalaVersion", "Scala Version"}}) {
      for (const auto& [k, v] : env.jvm_information) {
        if (k == key) runtime.field(field, v);
      }
    }
    runtime.write();
  });
  out.member("sparkProperties", [&env](JsonWriter& pw) { write_key_value_pairs(pw, env.spark_properties); });
  out.member("hadoopProperties", [&env](JsonWriter& pw) { write_key_value_pairs(pw, env.hadoop_properties); });
  out.member("systemProperties", [&env](JsonWriter& pw) { write_key_value_pairs(pw, env.system_properties); });
  out.member("metricsProperties", [&env](JsonWriter& pw) { write_key_value_pairs(pw, env.metrics_properties); });
  out.member("classpathEntries", [&env](JsonWriter& pw) { write_key_value_pairs(pw, env.classpath_entries); });
  out.member("resourceProfiles", [&env](JsonWriter& pw) {
    pw.array([&] {
      for (const model::ResourceProfile& p : env.resource_profiles) write_resource_profile(pw, p);
    });
  });
  out.write();
}

void write_miscellaneous_process(JsonWriter& w, const model::MiscellaneousProcess& p) {
  SortedObject out(w);
  out.field("id", p.id);
  out.field("hostPort", p.host_port);
  out.field("isActive", true);
  out.field("totalCores", p.cores);
  add_time(out, "addTime", p.add_time_ms);
  out.member("processLogs", [&p](JsonWriter& lw) { write_map(lw, p.log_urls); });
  out.write();
}

void write_rdd_storage(JsonWriter& w, const model::RddInfo& rdd) {
  SortedObject out(w);
  out.field("id", rdd.rdd_id);
  out.field("name", rdd.name);
  out.field("numPartitions", rdd.num_partitions);
  out.field("numCachedPartitions", rdd.num_cached_partitions);
  out.field("storageLevel", rdd.storage_level);
  out.field("memoryUsed", rdd.memory_size_bytes);
  out.field("diskUsed", rdd.disk_size_bytes);
  out.member("partitions", [](JsonWriter& pw) { pw.array([] {}); });
  out.write();
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

int64_t sql_execution_duration_ms(const model::SqlExecution& x) { return x.duration_ms().value_or(0); }

namespace {

// The plan as Spark's SparkPlanGraph draws it: nodes by id from the highest (as SqlResource lists
// them), each metric that has a value in the History Server's text of it (sql_metric_values.h: a
// metric no task or driver update of this execution reported has none).
void write_plan_nodes(JsonWriter& w, const SparkPlanGraph& graph, const SqlMetricTexts* metric_values) {
  w.array([&] {
    for (auto node = graph.nodes.rbegin(); node != graph.nodes.rend(); ++node) {
      SortedObject shown(w);
      shown.field("nodeId", node->id);
      shown.field("nodeName", text::trim(node->plan->node_name));
      if (node->whole_stage_codegen_id) shown.field("wholeStageCodegenId", *node->whole_stage_codegen_id);
      shown.member("metrics", [&node, metric_values](JsonWriter& mw) {
        mw.array([&] {
          for (const model::PlanMetric& metric : node->plan->metrics) {
            if (metric_values == nullptr) break;
            auto value = metric_values->find(metric.accumulator_id);
            if (value == metric_values->end()) continue;
            SortedObject entry(mw);
            entry.field("name", text::trim(metric.name));
            entry.field("value", value->second);
            entry.write();
          }
        });
      });
      shown.field("desc", node->plan->simple_string);
      shown.write();
    }
  });
}

void write_plan_edges(JsonWriter& w, const SparkPlanGraph& graph) {
  w.array([&] {
    for (const SparkPlanGraphEdge& edge : graph.edges) {
      SortedObject shown(w);
      shown.field("fromId", edge.from_id);
      shown.field("toId", edge.to_id);
      shown.write();
    }
  });
}

}  // namespace

void write_sql_execution(JsonWriter& w, const model::AppModel& m, const model::SqlExecution& x, bool details,
                         bool plan_description, const SqlMetricTexts* metric_values) {
  std::vector<int64_t> running, succeeded, failed;
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
  // Without details, no nodes and no edges.
  const SparkPlanGraph graph = details ? spark_plan_graph(x.plan) : SparkPlanGraph{};

  SortedObject out(w);
  out.field("id", x.execution_id);
  out.field("status", sql_execution_status(m, x));
  out.field("description", x.description);
  out.field("planDescription", plan_description ? std::string_view(x.physical_plan_description) : std::string_view());
  add_time(out, "submissionTime", x.start_time_ms);
  out.field("duration", sql_execution_duration_ms(x));
  out.field("runningJobIds", running);
  out.field("successJobIds", succeeded);
  out.field("failedJobIds", failed);
  out.member("nodes", [&graph, metric_values](JsonWriter& nw) { write_plan_nodes(nw, graph, metric_values); });
  out.member("edges", [&graph](JsonWriter& ew) { write_plan_edges(ew, graph); });
  // Spark 3.4+'s ExecutionData: the message as logged ("" on success, left out when the log has
  // none), the execution's root (its own id when the log names none, as SQLAppStatusListener
  // fills it) and the configurations the query changed.
  if (x.query_id) out.field("queryId", *x.query_id);
  if (x.error_message) out.field("errorMessage", *x.error_message);
  out.field("rootExecutionId", x.root_execution_id.value_or(x.execution_id));
  out.member("modifiedConfigs", [&x](JsonWriter& cw) { write_map(cw, x.modified_configs); });
  out.write();
}

void add_sql_table_row(SortedObject& out, const model::AppModel& m, const model::SqlExecution& x) {
  out.field("id", x.execution_id);
  out.field("status", sql_execution_status(m, x));
  out.field("description", x.description);
  add_time(out, "submissionTime", x.start_time_ms);
  out.field("duration", sql_execution_duration_ms(x));
  // Only the jobs that succeeded, by id (SqlResource.execToRow).
  out.member("jobIds", [&m, &x](JsonWriter& jw) {
    jw.array([&] {
      for (int64_t job_id : x.job_ids) {  // sorted
        const model::Job* job = m.job(job_id);
        if (job != nullptr && job->status == model::JobStatus::kSucceeded) jw.value(job_id);
      }
    });
  });
  // A row is a Java map whose null values Spark's mapper leaves out, as it leaves out absent Options.
  if (x.query_id) out.field("queryId", *x.query_id);
  if (x.error_message) out.field("errorMessage", *x.error_message);
  out.field("rootExecutionId", x.root_execution_id.value_or(x.execution_id));
}

}  // namespace sf::history_server

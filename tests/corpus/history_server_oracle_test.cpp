// Oracle 1: Spark's own History Server. For every REST expectation of the corpus
// (history-server-expectations/, produced by Spark's HistoryServerSuite over spark-events/),
// the application's log is loaded and every figure the model holds is compared, field by
// field, with what the History Server answered. Fields the model does not hold are counted as
// "not compared" with the reason; docs/corpus-fidelity.md lists them.
//
// One test case per expectation file; the tally printed at the end gives, per file, the fields
// compared, matched and mismatched.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "corpus/corpus_catalog.h"
#include "corpus/expectation_map.h"
#include "corpus/field_tally.h"
#include "corpus/model_cache.h"
#include "history_server/history_server_json.h"
#include "history_server/rest_path.h"
#include "model/app_model.h"
#include "support/corpus.h"

namespace sf::corpus_testing {
namespace {

using json = nlohmann::json;
using namespace sf::model;

constexpr std::string_view kOracle = "history-server";
constexpr std::string_view kExpectations = "history-server-expectations";

// What an expectation file shows, and so how it is compared.
enum class Kind {
  kAppList,      // applications[?filters]
  kApp,          // applications/<id>
  kJobs,         // .../jobs, .../jobs/<id>
  kExecutors,    // .../executors, .../allexecutors
  kStages,       // .../stages[/<id>[/<attempt>]][?details=true]
  kTaskSummary,  // .../stages/<id>/<attempt>/taskSummary
  kOutOfScope,   // per-task lists, storage, environment, other processes: not in the model
};

struct ExpectationCase {
  std::string_view file;
  Kind kind;
  std::string_view skip_reason;  // for kOutOfScope
};

constexpr std::string_view kTaskListReason =
    "per-task lists: the model keeps per-stage aggregates and exact quantiles, not one record per task "
    "(the server reads them on demand; rest_api_fidelity_test compares them)";
constexpr std::string_view kStorageReason =
    "storage (cached RDD blocks per executor) is not in the model yet (later work)";
constexpr std::string_view kEnvironmentReason =
    "environment details are not compared yet (later work); the model's Environment is not checked "
    "against this oracle";
constexpr std::string_view kMiscProcessReason =
    "miscellaneous processes (SparkListenerMiscellaneousProcessAdded): compared by rest_api_fidelity_test";

const std::vector<ExpectationCase>& expectation_cases() {
  static const std::vector<ExpectationCase> cases = {
      {"application_list_json_expectation.json", Kind::kAppList, ""},
      {"completed_app_list_json_expectation.json", Kind::kAppList, ""},
      {"running_app_list_json_expectation.json", Kind::kAppList, ""},
      {"minDate_app_list_json_expectation.json", Kind::kAppList, ""},
      {"maxDate_app_list_json_expectation.json", Kind::kAppList, ""},
      {"maxDate2_app_list_json_expectation.json", Kind::kAppList, ""},
      {"minEndDate_app_list_json_expectation.json", Kind::kAppList, ""},
      {"maxEndDate_app_list_json_expectation.json", Kind::kAppList, ""},
      {"minEndDate_and_maxEndDate_app_list_json_expectation.json", Kind::kAppList, ""},
      {"minDate_and_maxEndDate_app_list_json_expectation.json", Kind::kAppList, ""},
      {"limit_app_list_json_expectation.json", Kind::kAppList, ""},
      {"one_app_json_expectation.json", Kind::kApp, ""},
      {"one_app_multi_attempt_json_expectation.json", Kind::kApp, ""},
      {"job_list_json_expectation.json", Kind::kJobs, ""},
      {"job_list_from_multi_attempt_app_json_1__expectation.json", Kind::kJobs, ""},
      {"job_list_from_multi_attempt_app_json_2__expectation.json", Kind::kJobs, ""},
      {"one_job_json_expectation.json", Kind::kJobs, ""},
      {"succeeded_job_list_json_expectation.json", Kind::kJobs, ""},
      {"succeeded_failed_job_list_json_expectation.json", Kind::kJobs, ""},
      {"executor_list_json_expectation.json", Kind::kExecutors, ""},
      {"executor_list_with_executor_metrics_json_expectation.json", Kind::kExecutors, ""},
      {"stage_list_json_expectation.json", Kind::kStages, ""},
      {"complete_stage_list_json_expectation.json", Kind::kStages, ""},
      {"failed_stage_list_json_expectation.json", Kind::kStages, ""},
      {"one_stage_json_expectation.json", Kind::kStages, ""},
      {"one_stage_json_with_details_expectation.json", Kind::kStages, ""},
      {"one_stage_attempt_json_expectation.json", Kind::kStages, ""},
      {"one_stage_attempt_json_details_with_failed_task_expectation.json", Kind::kStages, ""},
      {"one_stage_json_with_partitionId_expectation.json", Kind::kStages, ""},
      {"stage_task_summary_w_shuffle_write_expectation.json", Kind::kTaskSummary, ""},
      {"stage_task_summary_w_shuffle_read_expectation.json", Kind::kTaskSummary, ""},
      {"stage_task_summary_w__custom_quantiles_expectation.json", Kind::kTaskSummary, ""},
      {"stage_task_list_expectation.json", Kind::kOutOfScope, kTaskListReason},
      {"stage_task_list_w__offset___length_expectation.json", Kind::kOutOfScope, kTaskListReason},
      {"stage_task_list_w__sortBy_expectation.json", Kind::kOutOfScope, kTaskListReason},
      {"stage_task_list_w__sortBy_short_names___runtime_expectation.json", Kind::kOutOfScope, kTaskListReason},
      {"stage_task_list_w__sortBy_short_names__runtime_expectation.json", Kind::kOutOfScope, kTaskListReason},
      {"stage_task_list_w__status_expectation.json", Kind::kOutOfScope, kTaskListReason},
      {"stage_task_list_w__status___offset___length_expectation.json", Kind::kOutOfScope, kTaskListReason},
      {"stage_task_list_w__status___sortBy_short_names__runtime_expectation.json", Kind::kOutOfScope, kTaskListReason},
      {"stage_task_list_with_partitionId_expectation.json", Kind::kOutOfScope, kTaskListReason},
      {"stage_list_with_accumulable_json_expectation.json", Kind::kStages, ""},
      {"stage_with_accumulable_json_expectation.json", Kind::kStages, ""},
      {"stage_task_list_from_multi_attempt_app_json_1__expectation.json", Kind::kOutOfScope, kTaskListReason},
      {"stage_task_list_from_multi_attempt_app_json_2__expectation.json", Kind::kOutOfScope, kTaskListReason},
      {"excludeOnFailure_for_stage_expectation.json", Kind::kStages, ""},
      {"excludeOnFailure_node_for_stage_expectation.json", Kind::kStages, ""},
      {"rdd_list_storage_json_expectation.json", Kind::kOutOfScope, kStorageReason},
      {"executor_node_excludeOnFailure_expectation.json", Kind::kExecutors, ""},
      {"executor_node_excludeOnFailure_unexcluding_expectation.json", Kind::kExecutors, ""},
      {"executor_memory_usage_expectation.json", Kind::kExecutors, ""},
      {"executor_resource_information_expectation.json", Kind::kExecutors, ""},
      {"multiple_resource_profiles_expectation.json", Kind::kOutOfScope, kEnvironmentReason},
      {"stage_list_with_peak_metrics_expectation.json", Kind::kStages, ""},
      {"stage_with_peak_metrics_expectation.json", Kind::kStages, ""},
      {"stage_with_summaries_expectation.json", Kind::kStages, ""},
      {"app_environment_expectation.json", Kind::kOutOfScope, kEnvironmentReason},
      {"one_rdd_storage_json_expectation.json", Kind::kOutOfScope, kStorageReason},
      {"miscellaneous_process_expectation.json", Kind::kOutOfScope, kMiscProcessReason},
      {"stage_with_speculation_summary_expectation.json", Kind::kStages, ""},
  };
  return cases;
}

// gtest prints a failing case's parameter with this.
void PrintTo(const ExpectationCase& c, std::ostream* out) { *out << c.file; }

// ---------------------------------------------------------------------------------------------
// Reading expected values

FieldValue value_of(const json& v) {
  if (v.is_null()) return nullptr;
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_float()) return v.get<double>();
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    if (std::all_of(v.begin(), v.end(), [](const json& e) { return e.is_number_integer(); })) {
      return v.get<std::vector<int64_t>>();
    }
    std::vector<std::string> items;
    for (const auto& e : v) items.push_back(e.is_string() ? e.get<std::string>() : e.dump());
    return items;
  }
  return v.dump();
}

FieldValue optional_value(const std::optional<int64_t>& v) { return v ? FieldValue(*v) : FieldValue(nullptr); }

std::vector<int64_t> sorted(std::vector<int64_t> values) {
  std::sort(values.begin(), values.end());
  return values;
}

// "k=v" lines of a map, sorted, so maps compare as one value.
std::vector<std::string> map_lines(const json& object) {
  std::vector<std::string> lines;
  for (const auto& [key, value] : object.items()) {
    lines.push_back(key + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}
std::vector<std::string> map_lines(const KeyValues& values) {
  std::vector<std::string> lines;
  for (const auto& [key, value] : values) lines.push_back(key + "=" + value);
  std::sort(lines.begin(), lines.end());
  return lines;
}

// Compares the fields of one JSON object of the oracle with the model. Every key of the object
// must be either compared or skipped with a reason; keys left unhandled are reported as
// skipped "(not in the model)" when the object is done, so nothing is dropped silently.
class ObjectComparison {
 public:
  ObjectComparison(FieldTally& tally, std::string where, const json& object)
      : tally_(tally), where_(std::move(where)), object_(object) {}
  ~ObjectComparison() {
    for (const auto& [key, value] : object_.items()) {
      if (handled_.count(key) == 0) tally_.skip(prefix_ + key, "the model does not hold this field");
    }
  }
  ObjectComparison(const ObjectComparison&) = delete;
  ObjectComparison& operator=(const ObjectComparison&) = delete;

  // A prefix for field names in the tally, e.g. "executorSummary.".
  void set_field_prefix(std::string prefix) { prefix_ = std::move(prefix); }

  bool has(const std::string& key) const { return object_.contains(key); }
  const json& at(const std::string& key) const { return object_.at(key); }
  void handled(const std::string& key) { handled_.insert(key); }

  // Compares `key` when the oracle shows it.
  void field(const std::string& key, const FieldValue& model) {
    if (!has(key)) return;
    handled(key);
    tally_.check(where_, prefix_ + key, value_of(object_.at(key)), model);
  }
  // A date of the History Server ("2015-02-03T16:43:07.191GMT") against epoch milliseconds.
  void time(const std::string& key, const std::optional<int64_t>& model) {
    if (!has(key)) return;
    handled(key);
    const json& v = object_.at(key);
    FieldValue expected = nullptr;
    if (v.is_string()) {
      auto ms = history_server::parse_history_server_time(v.get<std::string>());
      if (!ms) {
        ADD_FAILURE() << tally_.file() << ": " << where_ << ": " << key << ": cannot read the date " << v;
        return;
      }
      expected = *ms;
    }
    tally_.check(where_, prefix_ + key, expected, optional_value(model));
  }
  // An id list, compared as a set.
  void ids(const std::string& key, const std::vector<int64_t>& model) {
    if (!has(key)) return;
    handled(key);
    tally_.check(where_, prefix_ + key, sorted(object_.at(key).get<std::vector<int64_t>>()), sorted(model));
  }
  void map(const std::string& key, const std::vector<std::string>& model_lines) {
    if (!has(key)) return;
    handled(key);
    tally_.check(where_, prefix_ + key, map_lines(object_.at(key)), model_lines);
  }
  void skip(const std::string& key, std::string_view reason) {
    if (!has(key)) return;
    handled(key);
    tally_.skip(prefix_ + key, reason);
  }
  // Spark's executor metric peaks ("JVMHeapMemory": ...), metric by metric.
  void peaks(const std::string& key, const ExecutorMetricPeaks& model) {
    if (!has(key)) return;
    handled(key);
    const json& expected = object_.at(key);
    if (expected.is_null()) {
      tally_.check(where_, prefix_ + key, nullptr, model.present ? FieldValue(std::string("present")) : nullptr);
      return;
    }
    std::set<std::string> known;
    for (size_t i = 0; i < kExecutorMetricCount; ++i) {
      const std::string name(executor_metric_name(static_cast<ExecutorMetric>(i)));
      known.insert(name);
      if (!expected.contains(name)) continue;
      tally_.check(where_, prefix_ + key + "." + name, value_of(expected.at(name)), model.values[i]);
    }
    for (const auto& [name, value] : expected.items()) {
      if (known.count(name) == 0) tally_.skip(prefix_ + key + "." + name, "executor metric the model does not keep");
    }
  }

  FieldTally& tally() { return tally_; }
  const std::string& where() const { return where_; }

 private:
  FieldTally& tally_;
  std::string where_;
  const json& object_;
  std::string prefix_;
  std::set<std::string> handled_;
};

// ---------------------------------------------------------------------------------------------
// Applications

void compare_app(FieldTally& tally, const json& app, const SparkEventsIndex& index) {
  const std::string id = app.at("id").get<std::string>();
  ObjectComparison top(tally, "app " + id, app);
  top.handled("id");
  top.handled("attempts");
  const json& attempts = app.at("attempts");
  bool name_compared = false;
  for (const json& attempt : attempts) {
    const std::string attempt_id = attempt.contains("attemptId") ? attempt.at("attemptId").get<std::string>() : "";
    auto it = index.apps.find({id, attempt_id});
    if (it == index.apps.end()) {
      ADD_FAILURE() << tally.file() << ": no log in spark-events/ holds application " << id << " attempt '"
                    << attempt_id << "'";
      continue;
    }
    const AppModel& m = *it->second;
    if (!name_compared) {
      top.field("name", m.app.name);
      name_compared = true;
    }
    tally.check("app " + id, "id", id, m.app.id);
    ObjectComparison a(tally, "app " + id + " attempt '" + attempt_id + "' (" + index.files.at(it->first) + ")",
                       attempt);
    a.set_field_prefix("attempts.");
    a.field("attemptId", m.app.attempt_id ? FieldValue(*m.app.attempt_id) : FieldValue(nullptr));
    a.time("startTime", m.app.start_time_ms);
    a.field("startTimeEpoch", optional_value(m.app.start_time_ms));
    // Before an ApplicationEnd the History Server shows an end time of -1 (1969-12-31T23:59:59.999GMT).
    const std::optional<int64_t> end = m.app.finished ? m.app.end_time_ms : std::optional<int64_t>(-1);
    a.time("endTime", end);
    a.field("endTimeEpoch", optional_value(end));
    a.field("duration", m.app.finished ? optional_value(m.app.duration_ms()) : FieldValue(int64_t{0}));
    a.field("sparkUser", m.app.user);
    a.field("completed", m.app.finished);
    a.field("appSparkVersion", m.app.spark_version);
    a.skip("lastUpdated", "file modification time; blanked by HistoryServerSuite itself");
    a.skip("lastUpdatedEpoch", "file modification time; zeroed by HistoryServerSuite itself");
  }
}

// ---------------------------------------------------------------------------------------------
// Jobs

void compare_job(FieldTally& tally, const json& expected, const AppModel& m) {
  const int64_t job_id = expected.at("jobId").get<int64_t>();
  const Job* job = m.job(job_id);
  if (job == nullptr) {
    tally.check("job " + std::to_string(job_id), "jobId", job_id, nullptr);
    return;
  }
  ObjectComparison c(tally, "job " + std::to_string(job_id), expected);
  c.field("jobId", job->job_id);
  c.field("name", job->name);
  c.field("description", job->description);
  c.time("submissionTime", job->submission_time_ms);
  c.time("completionTime", job->completion_time_ms);
  c.ids("stageIds", job->stage_ids);
  c.field("jobGroup", job->job_group);
  c.field("status", std::string(to_string(job->status)));
  c.field("numTasks", job->num_tasks);
  c.field("numActiveTasks", job->num_active_tasks);
  c.field("numCompletedTasks", job->num_completed_tasks);
  c.field("numSkippedTasks", job->num_skipped_tasks);
  c.field("numFailedTasks", job->num_failed_tasks);
  c.field("numKilledTasks", job->num_killed_tasks);
  c.field("numCompletedIndices", job->num_completed_indices);
  c.field("numActiveStages", int64_t{job->num_active_stages});
  c.field("numCompletedStages", int64_t{job->num_completed_stages});
  c.field("numSkippedStages", int64_t{job->num_skipped_stages});
  c.field("numFailedStages", int64_t{job->num_failed_stages});
  // The model keeps kill reasons per stage attempt; a job's are those of the attempts run for it.
  std::map<std::string, int64_t> killed;
  for (const StageAttempt& s : m.stages) {
    if (!std::binary_search(s.job_ids.begin(), s.job_ids.end(), job_id)) continue;
    for (const auto& [reason, count] : s.killed_tasks_summary) killed[reason] += count;
  }
  KeyValues killed_lines;
  for (const auto& [reason, count] : killed) killed_lines.emplace_back(reason, std::to_string(count));
  c.map("killedTasksSummary", map_lines(killed_lines));
  c.skip("jobTags", "job tags (Spark 3.5+ SparkContext.addJobTag) are not in the model");
}

// ---------------------------------------------------------------------------------------------
// Stages

// Task metric distributions: the REST field path and the model's quantile metric.
struct DistributionField {
  const char* path;  // "inputMetrics.bytesRead"
  QuantileMetric metric;
};
constexpr DistributionField kDistributionFields[] = {
    {"duration", QuantileMetric::kDurationMs},
    {"executorRunTime", QuantileMetric::kExecutorRunTimeMs},
    {"executorCpuTime", QuantileMetric::kExecutorCpuTimeNs},
    {"executorDeserializeTime", QuantileMetric::kExecutorDeserializeTimeMs},
    {"jvmGcTime", QuantileMetric::kJvmGcTimeMs},
    {"resultSerializationTime", QuantileMetric::kResultSerializationTimeMs},
    {"gettingResultTime", QuantileMetric::kGettingResultTimeMs},
    {"schedulerDelay", QuantileMetric::kSchedulerDelayMs},
    {"peakExecutionMemory", QuantileMetric::kPeakExecutionMemoryBytes},
    {"resultSize", QuantileMetric::kResultSizeBytes},
    {"memoryBytesSpilled", QuantileMetric::kMemoryBytesSpilled},
    {"diskBytesSpilled", QuantileMetric::kDiskBytesSpilled},
    {"inputMetrics.bytesRead", QuantileMetric::kInputBytes},
    {"inputMetrics.recordsRead", QuantileMetric::kInputRecords},
    {"outputMetrics.bytesWritten", QuantileMetric::kOutputBytes},
    {"outputMetrics.recordsWritten", QuantileMetric::kOutputRecords},
    {"shuffleReadMetrics.readBytes", QuantileMetric::kShuffleReadBytes},
    {"shuffleReadMetrics.readRecords", QuantileMetric::kShuffleReadRecords},
    {"shuffleReadMetrics.remoteBytesRead", QuantileMetric::kShuffleRemoteBytesRead},
    {"shuffleReadMetrics.fetchWaitTime", QuantileMetric::kShuffleFetchWaitTimeMs},
    {"shuffleWriteMetrics.writeBytes", QuantileMetric::kShuffleWriteBytes},
    {"shuffleWriteMetrics.writeRecords", QuantileMetric::kShuffleWriteRecords},
    {"shuffleWriteMetrics.writeTime", QuantileMetric::kShuffleWriteTimeNs},
};

// The model's value at quantile q, if it keeps that quantile.
std::optional<int64_t> model_quantile(const Quantiles& q, double at) {
  if (at == 0.0) return q.min;
  if (at == 0.05) return q.p5;
  if (at == 0.25) return q.p25;
  if (at == 0.5) return q.p50;
  if (at == 0.75) return q.p75;
  if (at == 0.95) return q.p95;
  if (at == 1.0) return q.max;
  return std::nullopt;
}

// A task metric distribution object (taskSummary, or a stage's taskMetricsDistributions).
void compare_distributions(FieldTally& tally, const std::string& where, const json& dist, const StageAttempt& s) {
  const std::vector<double> quantiles = dist.at("quantiles").get<std::vector<double>>();
  std::set<std::string> handled = {"quantiles"};
  for (const DistributionField& f : kDistributionFields) {
    const std::string path = f.path;
    const auto dot = path.find('.');
    const std::string top = path.substr(0, dot);
    const json* values = nullptr;
    if (dot == std::string::npos) {
      if (dist.contains(path)) values = &dist.at(path);
    } else if (dist.contains(top) && dist.at(top).contains(path.substr(dot + 1))) {
      values = &dist.at(top).at(path.substr(dot + 1));
    }
    if (values == nullptr) continue;
    handled.insert(path);
    const Quantiles& q = s.quantile(f.metric);
    for (size_t i = 0; i < quantiles.size() && i < values->size(); ++i) {
      auto model = model_quantile(q, quantiles[i]);
      const std::string field = path + "[q=" + std::to_string(quantiles[i]).substr(0, 4) + "]";
      if (!model) {
        tally.skip(path + "[q=" + std::to_string(quantiles[i]).substr(0, 4) + "]",
                   "quantile not kept by the model (it keeps min, 0.05, 0.25, 0.5, 0.75, 0.95, max)");
        continue;
      }
      tally.check(where, field, (*values)[i].get<double>(), static_cast<double>(*model));
    }
  }
  // Everything else the distribution shows is not in the model.
  std::function<void(const json&, const std::string&)> rest = [&](const json& object, const std::string& prefix) {
    for (const auto& [key, value] : object.items()) {
      const std::string path = prefix + key;
      if (handled.count(path)) continue;
      if (value.is_object()) {
        rest(value, path + ".");
      } else {
        tally.skip(path, "distribution of a metric the model keeps no quantiles of");
      }
    }
  };
  rest(dist, "");
}

void compare_executor_summary(FieldTally& tally, const std::string& where, const json& summaries,
                              const StageAttempt& s) {
  for (const auto& item : summaries.items()) {
    const std::string& executor_id = item.key();
    const json& expected = item.value();
    auto it = std::find_if(s.executors.begin(), s.executors.end(),
                           [&](const ExecutorStageSummary& e) { return e.executor_id == executor_id; });
    if (it == s.executors.end()) {
      tally.check(where, "executorSummary." + executor_id, "present", nullptr);
      continue;
    }
    const ExecutorStageSummary& e = *it;
    ObjectComparison c(tally, where + " executor " + executor_id, expected);
    c.set_field_prefix("executorSummary.");
    c.field("taskTime", e.task_time_ms);
    c.field("failedTasks", e.tasks_failed);
    c.field("succeededTasks", e.tasks_succeeded);
    c.field("killedTasks", e.tasks_killed);
    c.field("inputBytes", e.input_bytes);
    c.field("inputRecords", e.input_records);
    c.field("outputBytes", e.output_bytes);
    c.field("outputRecords", e.output_records);
    c.field("shuffleRead", e.shuffle_read_bytes);
    c.field("shuffleReadRecords", e.shuffle_read_records);
    c.field("shuffleWrite", e.shuffle_write_bytes);
    c.field("shuffleWriteRecords", e.shuffle_write_records);
    c.field("memoryBytesSpilled", e.memory_bytes_spilled);
    c.field("diskBytesSpilled", e.disk_bytes_spilled);
    c.field("isBlacklistedForStage", e.excluded);
    c.field("isExcludedForStage", e.excluded);
    c.peaks("peakMemoryMetrics", e.peak_metrics);
  }
  // Executors the model has for this attempt that the History Server does not show.
  for (const auto& e : s.executors) {
    if (!summaries.contains(e.executor_id)) tally.check(where, "executorSummary." + e.executor_id, nullptr, "present");
  }
}

void compare_stage(FieldTally& tally, const json& expected, const AppModel& m) {
  const int64_t stage_id = expected.at("stageId").get<int64_t>();
  const auto attempt_id = expected.at("attemptId").get<int32_t>();
  const std::string where = "stage " + std::to_string(stage_id) + "." + std::to_string(attempt_id);
  const StageAttempt* s = m.stage(stage_id, attempt_id);
  if (s == nullptr) {
    tally.check(where, "stageId/attemptId", "present", nullptr);
    return;
  }
  ObjectComparison c(tally, where, expected);
  c.field("stageId", s->stage_id);
  c.field("attemptId", int64_t{s->attempt_id});
  c.field("status", std::string(to_string(s->status)));
  c.field("numTasks", int64_t{s->num_tasks});
  c.field("numActiveTasks", s->tasks_active);
  c.field("numCompleteTasks", s->tasks_succeeded);
  c.field("numFailedTasks", s->tasks_failed);
  c.field("numKilledTasks", s->tasks_killed);
  c.field("numCompletedIndices", s->completed_indices);
  c.time("submissionTime", s->submission_time_ms);
  c.time("firstTaskLaunchedTime", s->first_task_launched_time_ms);
  c.time("completionTime", s->completion_time_ms);
  c.field("failureReason", s->failure_reason);
  for (const history_server::StageMetricField& f : history_server::stage_metric_fields())
    c.field(f.name, s->metric(f.metric));
  c.field("shuffleReadBytes", s->shuffle_read_bytes());
  c.field("name", s->name);
  c.field("description", s->description);
  c.field("details", s->details);
  c.field("schedulingPool", s->scheduling_pool);
  c.ids("rddIds", s->rdd_ids);
  c.field("resourceProfileId", int64_t{s->resource_profile_id});
  c.field("isShufflePushEnabled", s->shuffle_push_enabled);
  c.field("shuffleMergersCount", int64_t{s->shuffle_mergers_count});
  c.peaks("peakExecutorMetrics", s->peak_executor_metrics);
  {
    KeyValues killed;
    for (const auto& [reason, count] : s->killed_tasks_summary) killed.emplace_back(reason, std::to_string(count));
    c.map("killedTasksSummary", map_lines(killed));
  }
  if (c.has("accumulatorUpdates")) {
    c.handled("accumulatorUpdates");
    // The History Server drops internal and SQL accumulables (LiveEntityHelpers.newAccumulatorInfos);
    // the model keeps them all without their flags, so each shown one is looked up by id.
    for (const json& acc : c.at("accumulatorUpdates")) {
      const int64_t id = acc.at("id").get<int64_t>();
      auto it = std::find_if(s->accumulables.begin(), s->accumulables.end(),
                             [&](const Accumulable& a) { return a.id == id; });
      const std::string field = "accumulatorUpdates[" + std::to_string(id) + "]";
      if (it == s->accumulables.end()) {
        tally.check(where, field, "present", nullptr);
        continue;
      }
      tally.check(where, field + ".name", value_of(acc.at("name")), it->name);
      tally.check(where, field + ".value", value_of(acc.at("value")), it->value);
    }
  }
  if (c.has("executorSummary")) {
    c.handled("executorSummary");
    compare_executor_summary(tally, where, c.at("executorSummary"), *s);
  }
  if (c.has("taskMetricsDistributions")) {
    c.handled("taskMetricsDistributions");
    compare_distributions(tally, where + " taskMetricsDistributions", c.at("taskMetricsDistributions"), *s);
  }
  if (c.has("speculationSummary")) {
    c.handled("speculationSummary");
    const json& spec = c.at("speculationSummary");
    if (spec.contains("numTasks"))
      tally.check(where, "speculationSummary.numTasks", value_of(spec.at("numTasks")), s->tasks_speculative);
    for (const auto& [key, value] : spec.items()) {
      if (key != "numTasks")
        tally.skip("speculationSummary." + key, "the model counts speculative launches only, not their outcomes");
    }
  }
  c.skip("tasks", "per-task records: the model keeps aggregates, not one record per task");
  c.skip("executorMetricsDistributions", "distributions over executors of per-executor summaries are not in the model");
  if (c.has("locality")) {
    c.handled("locality");
    for (const auto& [level, count] : c.at("locality").items()) {
      const auto parsed = model::parse_locality(level);
      const int64_t ours = parsed ? s->locality_counts[static_cast<size_t>(*parsed)] : -1;
      tally.check(where, "locality." + level, value_of(count), ours);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Executors

std::string host_of(const std::string& host_port) {
  if (!host_port.empty() && host_port.front() == '[') {  // [v6]:port
    const auto end = host_port.find(']');
    return end == std::string::npos ? host_port : host_port.substr(0, end + 1);
  }
  const auto colon = host_port.rfind(':');
  return colon == std::string::npos ? host_port : host_port.substr(0, colon);
}

void compare_executor(FieldTally& tally, const json& expected, const AppModel& m) {
  const std::string id = expected.at("id").get<std::string>();
  const Executor* e = m.executor(id);
  if (e == nullptr) {
    tally.check("executor " + id, "id", id, nullptr);
    return;
  }
  ObjectComparison c(tally, "executor " + id, expected);
  c.field("id", e->id);
  if (c.has("hostPort")) {
    c.handled("hostPort");
    tally.check("executor " + id, "hostPort (host part)", host_of(c.at("hostPort").get<std::string>()), e->host);
  }
  c.field("isActive", !e->remove_time_ms.has_value());
  c.field("totalCores", int64_t{e->total_cores});
  c.field("totalTasks", e->tasks_total);
  c.field("completedTasks", e->tasks_succeeded);
  c.field("failedTasks", e->tasks_failed);
  c.field("activeTasks", e->tasks_total - e->tasks_succeeded - e->tasks_failed - e->tasks_killed);
  if (e->is_driver()) {
    // The REST API replaces the driver's task totals (AppStatusStore.replaceExec, SPARK-37493):
    // totalDuration becomes the application's duration and totalGCTime the driver's peak
    // TotalGCTime executor metric (when it has peaks). The comparable model figures are those.
    const std::string where = "executor driver";
    if (c.has("totalDuration")) {
      c.handled("totalDuration");
      if (m.app.finished) {
        tally.check(where, "totalDuration (driver: application duration)", value_of(c.at("totalDuration")),
                    optional_value(m.app.duration_ms()));
      } else {
        tally.skip("totalDuration (driver)",
                   "the History Server shows the running time up to 'now' for an unfinished app");
      }
    }
    if (c.has("totalGCTime")) {
      c.handled("totalGCTime");
      const bool peaks_shown = c.has("peakMemoryMetrics") && !c.at("peakMemoryMetrics").is_null();
      if (peaks_shown) {
        tally.check(where, "totalGCTime (driver: peak TotalGCTime metric)", value_of(c.at("totalGCTime")),
                    e->peak_metrics.values[index_of(ExecutorMetric::kTotalGcTime)]);
      } else {
        tally.check(where, "totalGCTime", value_of(c.at("totalGCTime")), e->total_gc_time_ms);
      }
    }
  } else {
    c.field("totalDuration", e->total_duration_ms);
    c.field("totalGCTime", e->total_gc_time_ms);
  }
  c.field("totalInputBytes", e->total_input_bytes);
  c.field("totalShuffleRead", e->total_shuffle_read_bytes);
  c.field("totalShuffleWrite", e->total_shuffle_write_bytes);
  c.field("maxMemory", e->max_memory_bytes);
  c.time("addTime", e->add_time_ms);
  c.time("removeTime", e->remove_time_ms);
  c.field("removeReason", e->remove_reason);
  c.field("isBlacklisted", e->excluded);
  c.field("isExcluded", e->excluded);
  c.ids("blacklistedInStages", e->excluded_in_stages);
  c.ids("excludedInStages", e->excluded_in_stages);
  c.peaks("peakMemoryMetrics", e->peak_metrics);
  c.field("resourceProfileId", int64_t{e->resource_profile_id});
  c.map("executorLogs", map_lines(e->log_urls));
  c.map("attributes", map_lines(e->attributes));
  if (c.has("resources")) {
    c.handled("resources");
    std::vector<std::string> expected_lines, model_lines;
    for (const auto& [name, info] : c.at("resources").items()) {
      expected_lines.push_back(name + "=" + info.at("addresses").dump());
    }
    for (const auto& r : e->resources) model_lines.push_back(r.name + "=" + json(r.addresses).dump());
    std::sort(expected_lines.begin(), expected_lines.end());
    std::sort(model_lines.begin(), model_lines.end());
    tally.check("executor " + id, "resources", expected_lines, model_lines);
  }
  if (c.has("memoryMetrics")) {
    c.handled("memoryMetrics");
    const json& mm = c.at("memoryMetrics");
    ObjectComparison memory(tally, "executor " + id, mm);
    memory.set_field_prefix("memoryMetrics.");
    memory.field("totalOnHeapStorageMemory", optional_value(e->max_onheap_memory_bytes));
    memory.field("totalOffHeapStorageMemory", optional_value(e->max_offheap_memory_bytes));
    memory.skip("usedOnHeapStorageMemory", "storage memory in use (block updates) is not in the model");
    memory.skip("usedOffHeapStorageMemory", "storage memory in use (block updates) is not in the model");
  }
  c.skip("rddBlocks", "storage (cached blocks) is not in the model yet");
  c.skip("memoryUsed", "storage (cached blocks) is not in the model yet");
  c.skip("diskUsed", "storage (cached blocks) is not in the model yet");
  c.skip("maxTasks", "task slots per executor (cores / spark.task.cpus) are not in the model");
}

// ---------------------------------------------------------------------------------------------
// The test

class HistoryServerOracle : public ::testing::TestWithParam<ExpectationCase> {};

TEST_P(HistoryServerOracle, ModelMatchesTheRestApi) {
  const ExpectationCase& expectation = GetParam();
  SF_REQUIRE_CORPUS_FILE(expectation_path, std::string(kExpectations) + "/" + std::string(expectation.file));
  SF_REQUIRE_CORPUS_FILE(map_path, std::string(kExpectations) + "/expectation-map.tsv");
  SF_REQUIRE_CORPUS_FILE(spark_events, "spark-events");
  if (expectation.kind == Kind::kOutOfScope) GTEST_SKIP() << expectation.file << ": " << expectation.skip_reason;

  const auto entries = read_expectation_map(map_path);
  auto entry = std::find_if(entries.begin(), entries.end(),
                            [&](const ExpectationEntry& e) { return e.file == expectation.file; });
  ASSERT_NE(entry, entries.end()) << expectation.file << " is not in expectation-map.tsv";
  const history_server::RestPath rest = history_server::parse_rest_path(entry->rest_path);

  std::ifstream in(expectation_path);
  const json expected = json::parse(in);
  const SparkEventsIndex& index = spark_events_index(spark_events);
  for (const auto& error : index.load_errors) ADD_FAILURE() << "spark-events log did not load: " << error;

  FieldTally tally(std::string(kOracle), std::string(expectation.file));
  if (expectation.kind == Kind::kAppList) {
    for (const json& app : expected) compare_app(tally, app, index);
    return;
  }
  if (expectation.kind == Kind::kApp) {
    compare_app(tally, expected, index);
    return;
  }

  auto it = index.apps.find({rest.app_id, rest.attempt_id.value_or("")});
  ASSERT_NE(it, index.apps.end()) << expectation.file << ": no log in spark-events/ holds application " << rest.app_id
                                  << " attempt '" << rest.attempt_id.value_or("") << "'";
  const AppModel& m = *it->second;
  std::cout << "[fidelity] " << expectation.file << ": GET /api/v1/" << entry->rest_path << " <- spark-events/"
            << index.files.at(it->first) << "\n";

  auto each = [&](const json& doc, const std::function<void(const json&)>& fn) {
    if (doc.is_array()) {
      for (const json& item : doc) fn(item);
    } else {
      fn(doc);
    }
  };
  switch (expectation.kind) {
    case Kind::kJobs: each(expected, [&](const json& job) { compare_job(tally, job, m); }); break;
    case Kind::kExecutors: each(expected, [&](const json& executor) { compare_executor(tally, executor, m); }); break;
    case Kind::kStages: each(expected, [&](const json& stage) { compare_stage(tally, stage, m); }); break;
    case Kind::kTaskSummary: {
      ASSERT_GE(rest.resource.size(), 4u) << entry->rest_path;
      const int64_t stage_id = std::stoll(rest.resource[1]);
      const int32_t attempt_id = std::stoi(rest.resource[2]);
      const StageAttempt* s = m.stage(stage_id, attempt_id);
      ASSERT_NE(s, nullptr) << "stage " << stage_id << "." << attempt_id << " is not in the model";
      compare_distributions(
          tally, "stage " + std::to_string(stage_id) + "." + std::to_string(attempt_id) + " taskSummary", expected, *s);
      break;
    }
    default: break;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, HistoryServerOracle, ::testing::ValuesIn(expectation_cases()),
                         [](const ::testing::TestParamInfo<ExpectationCase>& param_info) {
                           std::string name(param_info.param.file);
                           name = name.substr(0, name.find("_expectation.json"));
                           return test_name_of(name);
                         });

// Every expectation file of the map is classified above (compared or skipped with a reason).
TEST(HistoryServerOracleCatalog, ClassifiesEveryExpectationFile) {
  SF_REQUIRE_CORPUS_FILE(map_path, std::string(kExpectations) + "/expectation-map.tsv");
  const auto entries = read_expectation_map(map_path);
  EXPECT_FALSE(entries.empty());
  for (const auto& entry : entries) {
    const bool listed = std::any_of(expectation_cases().begin(), expectation_cases().end(),
                                    [&](const ExpectationCase& c) { return c.file == entry.file; });
    EXPECT_TRUE(listed) << entry.file << " (GET " << entry.rest_path << ") is not classified in this test";
  }
  EXPECT_EQ(entries.size(), expectation_cases().size());
}

}  // namespace
}  // namespace sf::corpus_testing

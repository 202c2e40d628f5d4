// Oracle 2: the NVIDIA spark-rapids-tools profiler, an independent Scala reader of the same
// logs. Its test expectations (rapids-profiling-expectations/*.csv) give per-stage, per-job and
// per-SQL task aggregates, SQL plan metrics per node, and failed tasks, stages, jobs, removed
// executors and block managers. Each CSV is compared with the model where the model holds the
// same figure, or enough to compute it the profiler's way; docs/corpus-fidelity.md explains
// each column's definition (taken from the profiler's code) and every figure not compared.
//
// Which log a CSV belongs to is set by the profiler's own tests (AnalysisSuite.scala,
// ApplicationInfoSuite.scala, HealthCheckSuite.scala in NVIDIA/spark-rapids-tools).
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "corpus/corpus_catalog.h"
#include "corpus/field_tally.h"
#include "corpus/model_cache.h"
#include "model/app_model.h"
#include "support/corpus.h"

namespace sf::corpus_testing {
namespace {

using namespace sf::model;

constexpr std::string_view kOracle = "rapids-profiler";
constexpr std::string_view kExpectations = "rapids-profiling-expectations";
constexpr std::string_view kRapidsJoin =
    "NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling/rapids_join_eventlog.zstd";
constexpr std::string_view kTasksFail =
    "NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling/"
    "tasks_executors_fail_compressed_eventlog.zstd";

enum class Kind {
  kStageAgg,          // stagemetricsagg: task metrics aggregated per stage id
  kJobAgg,            // jobmetricsagg: the same per job
  kSqlAgg,            // sqlmetricsagg: the same per SQL execution
  kSqlMetrics,        // sqlmetrics: SQL plan metrics per node and accumulator
  kStageDiagnostics,  // stagediagnosticmetrics
  kIoDiagnostics,     // iodiagnosticmetrics
  kFailedTasks,
  kFailedStages,
  kFailedJobs,
  kRemovedExecutors,
  kRemovedBlockManagers,
  kNotInCorpus,  // the log the profiler's test uses is not in the corpus
};

struct ProfilerCase {
  std::string_view file;
  Kind kind;
  std::string_view log;     // corpus-relative path of the log the profiler's test reads
  std::string_view reason;  // for kNotInCorpus
};

const std::vector<ProfilerCase>& profiler_cases() {
  static const std::vector<ProfilerCase> cases = {
      // AnalysisSuite "test sqlMetricsAggregation simple": rapids_join_eventlog.zstd.
      {"rapids_join_eventlog_stagemetricsagg_expectation.csv", Kind::kStageAgg, kRapidsJoin, ""},
      {"rapids_join_eventlog_jobmetricsagg_expectation.csv", Kind::kJobAgg, kRapidsJoin, ""},
      {"rapids_join_eventlog_sqlmetricsagg_expectation.csv", Kind::kSqlAgg, kRapidsJoin, ""},
      // AnalysisSuite "test sqlMetricsAggregation second single app": rapids_join_eventlog2.zstd.
      {"rapids_join_eventlog_stagemetricsagg2_expectation.csv", Kind::kNotInCorpus, "",
       "written from spark-events-profiling/rapids_join_eventlog2.zstd (app local-1622821994212), not in the corpus"},
      {"rapids_join_eventlog_jobmetricsagg2_expectation.csv", Kind::kNotInCorpus, "",
       "written from spark-events-profiling/rapids_join_eventlog2.zstd (app local-1622821994212), not in the corpus"},
      {"rapids_join_eventlog_sqlmetricsagg2_expectation.csv", Kind::kNotInCorpus, "",
       "written from spark-events-profiling/rapids_join_eventlog2.zstd (app local-1622821994212), not in the corpus"},
      // ApplicationInfoSuite "test printSQLPlanMetrics": rapids_join_eventlog.zstd.
      {"rapids_join_eventlog_sqlmetrics_expectation.csv", Kind::kSqlMetrics, kRapidsJoin, ""},
      // AnalysisSuite "test stage-level diagnostic metrics" / "test IO diagnostic metrics".
      {"rapids_join_eventlog_stagediagnosticmetrics_expectation.csv", Kind::kStageDiagnostics, kRapidsJoin, ""},
      {"rapids_join_eventlog_iodiagnosticmetrics_expectation.csv", Kind::kIoDiagnostics, kRapidsJoin, ""},
      // AnalysisSuite "test sqlMetrics duration, execute cpu time and potential_problems".
      {"rapids_duration_and_cpu_expectation.csv", Kind::kNotInCorpus, "",
       "written from spark-events-qualification/complex_dec_eventlog.zstd (app local-1626104300434), not in the "
       "corpus"},
      // HealthCheckSuite "test task-stage-job-failures" / "test blockManager_executors_failures".
      {"tasks_failure_eventlog_expectation.csv", Kind::kFailedTasks, kTasksFail, ""},
      {"stages_failure_eventlog_expectation.csv", Kind::kFailedStages, kTasksFail, ""},
      {"jobs_failure_eventlog_expectation.csv", Kind::kFailedJobs, kTasksFail, ""},
      {"executors_removed_eventlog_expectation.csv", Kind::kRemovedExecutors, kTasksFail, ""},
      {"removed_blockManagers_eventlog_expectation.csv", Kind::kRemovedBlockManagers, kTasksFail, ""},
      // HealthCheckSuite "test unSupportedSQLPlan": dataset_eventlog.
      {"unsupported_sql_eventlog_expectation.csv", Kind::kNotInCorpus, "",
       "written from spark-events-profiling/dataset_eventlog, not in the corpus (and a judgement of the "
       "profiler about Dataset operators, not a figure of the log)"},
  };
  return cases;
}

// gtest prints a failing case's parameter with this.
void PrintTo(const ProfilerCase& c, std::ostream* out) { *out << c.file; }

// ---------------------------------------------------------------------------------------------
// CSV (RFC 4180: quoted fields, "" inside quotes)

struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  size_t column(std::string_view name) const {
    auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? std::string::npos : static_cast<size_t>(it - header.begin());
  }
};

Csv read_csv(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field.push_back('"');
          ++i;
        } else {
          quoted = false;
        }
      } else {
        field.push_back(c);
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      record.push_back(std::move(field));
      field.clear();
      records.push_back(std::move(record));
      record.clear();
    } else {
      field.push_back(c);
    }
  }
  if (!field.empty() || !record.empty()) {
    record.push_back(std::move(field));
    records.push_back(std::move(record));
  }
  Csv csv;
  if (!records.empty()) {
    csv.header = std::move(records.front());
    csv.rows.assign(std::make_move_iterator(records.begin() + 1), std::make_move_iterator(records.end()));
  }
  return csv;
}

// One CSV row with typed access by column name.
class Row {
 public:
  Row(const Csv& csv, const std::vector<std::string>& cells) : csv_(csv), cells_(cells) {}
  bool has(std::string_view column) const { return csv_.column(column) < cells_.size(); }
  const std::string& text(std::string_view column) const {
    static const std::string empty;
    const size_t i = csv_.column(column);
    return i < cells_.size() ? cells_[i] : empty;
  }
  int64_t integer(std::string_view column) const {
    const std::string& t = text(column);
    int64_t value = 0;
    std::from_chars(t.data(), t.data() + t.size(), value);
    return value;
  }
  double real(std::string_view column) const { return std::strtod(text(column).c_str(), nullptr); }

 private:
  const Csv& csv_;
  const std::vector<std::string>& cells_;
};

// ---------------------------------------------------------------------------------------------
// Aggregates the profiler's way, from the model

// The profiler's per-stage record of task metrics (TaskMetricsAccumRec over TaskModel), as far
// as the model holds it. CPU and shuffle write times are converted to ms per task by the
// profiler (TaskModel.apply, TimeUnit.NANOSECONDS.toMillis), so their sums are only bounded:
// sum(floor(ns_i / 1e6)) lies in [floor(sum / 1e6) - n, floor(sum / 1e6)].
struct ProfilerAggregate {
  bool any = false;
  int64_t num_tasks = 0;  // every ended task attempt
  int64_t num_failed_or_killed = 0;
  TaskMetricValues sums{};
  int64_t duration_max = 0;
  int64_t duration_min_successful = 0;  // over successful attempts (the model's quantile min)
  int64_t input_bytes_max = 0, peak_memory_max = 0, result_size_max = 0;  // successful attempts
  int64_t shuffle_write_time_ns_max = 0;

  void add(const StageAttempt& s) {
    const int64_t ended = s.tasks_succeeded + s.tasks_failed + s.tasks_killed;
    if (ended == 0) return;
    const bool first = !any;
    any = true;
    num_tasks += ended;
    num_failed_or_killed += s.tasks_failed + s.tasks_killed;
    for (size_t i = 0; i < kTaskMetricCount; ++i) sums[i] += s.metric_sums[i];
    duration_max = std::max(duration_max, s.max_task_duration_ms);
    const auto& d = s.quantile(QuantileMetric::kDurationMs);
    duration_min_successful = first ? d.min : std::min(duration_min_successful, d.min);
    input_bytes_max = std::max(input_bytes_max, s.quantile(QuantileMetric::kInputBytes).max);
    peak_memory_max = std::max(peak_memory_max, s.quantile(QuantileMetric::kPeakExecutionMemoryBytes).max);
    result_size_max = std::max(result_size_max, s.quantile(QuantileMetric::kResultSizeBytes).max);
    shuffle_write_time_ns_max =
        std::max(shuffle_write_time_ns_max, s.quantile(QuantileMetric::kShuffleWriteTimeNs).max);
  }
  int64_t sum(TaskMetric m) const { return sums[index_of(m)]; }
};

// ToolUtils.calculateAverage: BigDecimal HALF_UP to `scale` decimals.
double rounded(double value, int scale) {
  const double factor = std::pow(10.0, scale);
  return std::floor(value * factor + 0.5) / factor;
}

constexpr std::string_view kNsToMsBound =
    "the profiler truncates each task's ns to ms before summing (TaskModel.apply); the model keeps the ns sum, "
    "so the profiler's figure must lie in [floor(sum/1e6) - tasks, floor(sum/1e6)]";

void check_ns_sum_as_ms(FieldTally& tally, const std::string& where, const std::string& field, int64_t oracle_ms,
                        int64_t sum_ns, int64_t tasks) {
  const int64_t high = sum_ns / 1000000;
  const int64_t low = high - tasks;
  tally.check_range(where, field + " (ms, per-task truncation)", oracle_ms, low, high, kNsToMsBound);
}

constexpr std::string_view kSuccessfulOnlyReason =
    "the model keeps max/min of this metric over successful attempts only; the profiler's covers every attempt, "
    "so it is comparable only when every attempt succeeded";

// The columns shared by stage, job and SQL aggregates.
void compare_task_aggregate(FieldTally& tally, const std::string& where, const Row& row, const ProfilerAggregate& a) {
  auto check = [&](std::string_view column, int64_t model) {
    if (row.has(column)) tally.check(where, column, row.integer(column), model);
  };
  const bool all_succeeded = a.num_failed_or_killed == 0;
  auto check_successful_only = [&](std::string_view column, int64_t model) {
    if (!row.has(column)) return;
    if (all_succeeded) {
      tally.check(where, column, row.integer(column), model);
    } else {
      tally.skip(std::string(column), kSuccessfulOnlyReason);
    }
  };
  check("numTasks", a.num_tasks);
  check("diskBytesSpilledSum", a.sum(TaskMetric::kDiskBytesSpilled));
  check("durationSum", a.sum(TaskMetric::kDurationMs));
  check("durationMax", a.duration_max);
  check_successful_only("durationMin", a.duration_min_successful);
  if (row.has("durationAvg")) {
    const double avg =
        a.num_tasks > 0
            ? rounded(static_cast<double>(a.sum(TaskMetric::kDurationMs)) / static_cast<double>(a.num_tasks), 1)
            : 0.0;
    tally.check_near(where, "durationAvg", row.real("durationAvg"), avg, 1e-9);
  }
  if (row.has("executorCPUTimeSum")) {
    check_ns_sum_as_ms(tally, where, "executorCPUTimeSum", row.integer("executorCPUTimeSum"),
                       a.sum(TaskMetric::kExecutorCpuTimeNs), a.num_tasks);
  }
  if (row.has("executorDeserializeCpuTimeSum")) {
    check_ns_sum_as_ms(tally, where, "executorDeserializeCpuTimeSum", row.integer("executorDeserializeCpuTimeSum"),
                       a.sum(TaskMetric::kExecutorDeserializeCpuTimeNs), a.num_tasks);
  }
  check("executorDeserializeTimeSum", a.sum(TaskMetric::kExecutorDeserializeTimeMs));
  check("executorRunTimeSum", a.sum(TaskMetric::kExecutorRunTimeMs));
  check("inputBytesReadSum", a.sum(TaskMetric::kInputBytes));
  check_successful_only("inputBytesReadMax", a.input_bytes_max);
  check("inputRecordsReadSum", a.sum(TaskMetric::kInputRecords));
  check("jvmGCTimeSum", a.sum(TaskMetric::kJvmGcTimeMs));
  check("memoryBytesSpilledSum", a.sum(TaskMetric::kMemoryBytesSpilled));
  check("outputBytesWrittenSum", a.sum(TaskMetric::kOutputBytes));
  check("outputRecordsWrittenSum", a.sum(TaskMetric::kOutputRecords));
  check_successful_only("peakExecutionMemoryMax", a.peak_memory_max);
  check("resultSerializationTimeSum", a.sum(TaskMetric::kResultSerializationTimeMs));
  check_successful_only("resultSizeMax", a.result_size_max);
  check("srFetchWaitTimeSum", a.sum(TaskMetric::kShuffleFetchWaitTimeMs));
  check("srLocalBlocksFetchedSum", a.sum(TaskMetric::kShuffleLocalBlocksFetched));
  check("srcLocalBytesReadSum", a.sum(TaskMetric::kShuffleLocalBytesRead));
  check("srRemoteBlocksFetchSum", a.sum(TaskMetric::kShuffleRemoteBlocksFetched));
  check("srRemoteBytesReadSum", a.sum(TaskMetric::kShuffleRemoteBytesRead));
  check("srRemoteBytesReadToDiskSum", a.sum(TaskMetric::kShuffleRemoteBytesReadToDisk));
  check("srTotalBytesReadSum", a.sum(TaskMetric::kShuffleLocalBytesRead) + a.sum(TaskMetric::kShuffleRemoteBytesRead));
  check("swBytesWrittenSum", a.sum(TaskMetric::kShuffleWriteBytes));
  check("swRecordsWrittenSum", a.sum(TaskMetric::kShuffleWriteRecords));
  if (row.has("swWriteTimeSum")) {
    check_ns_sum_as_ms(tally, where, "swWriteTimeSum", row.integer("swWriteTimeSum"),
                       a.sum(TaskMetric::kShuffleWriteTimeNs), a.num_tasks);
  }
}

// The attempts of one stage id, as the profiler aggregates them (all attempts of the id).
std::vector<const StageAttempt*> attempts_of(const AppModel& m, int64_t stage_id) {
  std::vector<const StageAttempt*> out;
  for (const StageAttempt& s : m.stages) {
    if (s.stage_id == stage_id && (s.submission_time_ms || s.completion_time_ms)) out.push_back(&s);
  }
  return out;
}

ProfilerAggregate aggregate_stages(const AppModel& m, const std::vector<int64_t>& stage_ids) {
  ProfilerAggregate a;
  for (int64_t id : stage_ids) {
    for (const StageAttempt* s : attempts_of(m, id)) a.add(*s);
  }
  return a;
}

void compare_stage_aggregates(FieldTally& tally, const Csv& csv, const AppModel& m) {
  std::set<int64_t> listed;
  for (const auto& cells : csv.rows) {
    const Row row(csv, cells);
    const int64_t stage_id = row.integer("id");
    listed.insert(stage_id);
    const std::string where = "stage " + std::to_string(stage_id);
    const auto attempts = attempts_of(m, stage_id);
    if (attempts.empty()) {
      tally.check(where, "id", stage_id, nullptr);
      continue;
    }
    if (attempts.size() == 1) {
      tally.check(where, "duration", row.integer("duration"), attempts.front()->duration_ms().value_or(0));
    } else {
      tally.skip("duration", "several attempts: how the profiler combines their wall-clock durations is not compared");
    }
    compare_task_aggregate(tally, where, row, aggregate_stages(m, {stage_id}));
  }
  // Every stage the model has tasks for is listed by the profiler too.
  for (const StageAttempt& s : m.stages) {
    if (s.submission_time_ms && listed.count(s.stage_id) == 0) {
      tally.check("stage " + std::to_string(s.stage_id), "listed by the profiler", nullptr, "present");
    }
  }
}

void compare_job_aggregates(FieldTally& tally, const Csv& csv, const AppModel& m) {
  for (const auto& cells : csv.rows) {
    const Row row(csv, cells);
    const int64_t job_id = row.integer("id");
    const std::string where = "job " + std::to_string(job_id);
    const Job* job = m.job(job_id);
    if (job == nullptr) {
      tally.check(where, "id", job_id, nullptr);
      continue;
    }
    tally.check(where, "duration", row.integer("duration"),
                job->duration_ms() ? FieldValue(*job->duration_ms()) : nullptr);
    compare_task_aggregate(tally, where, row, aggregate_stages(m, job->stage_ids));
  }
}

void compare_sql_aggregates(FieldTally& tally, const Csv& csv, const AppModel& m) {
  for (const auto& cells : csv.rows) {
    const Row row(csv, cells);
    const int64_t sql_id = row.integer("sqlId");
    const std::string where = "sql " + std::to_string(sql_id);
    const SqlExecution* sql = m.sql_execution(sql_id);
    if (sql == nullptr) {
      tally.check(where, "sqlId", sql_id, nullptr);
      continue;
    }
    tally.check(where, "appId", row.text("appId"), m.app.id);
    tally.check(where, "description", row.text("description"), sql->description);
    tally.check(where, "duration", row.integer("duration"),
                sql->duration_ms() ? FieldValue(*sql->duration_ms()) : nullptr);
    const ProfilerAggregate a = aggregate_stages(m, sql->stage_ids);
    compare_task_aggregate(tally, where, row, a);
    if (row.has("executorCpuRatio")) {
      // round(sum(cpu ms) / sum(run ms) * 100, 2) with the per-task truncated cpu ms.
      const int64_t run = a.sum(TaskMetric::kExecutorRunTimeMs);
      const int64_t high = a.sum(TaskMetric::kExecutorCpuTimeNs) / 1000000;
      const int64_t low = high - a.num_tasks;
      const double ratio_low = run > 0 ? rounded(100.0 * static_cast<double>(low) / static_cast<double>(run), 2) : 0;
      const double ratio_high = run > 0 ? rounded(100.0 * static_cast<double>(high) / static_cast<double>(run), 2) : 0;
      tally.check_range(where, "executorCpuRatio (from bounded cpu ms)", row.real("executorCpuRatio"), ratio_low,
                        ratio_high, kNsToMsBound);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// SQL plan metrics

// Spark's SparkPlanGraph node ids (what the Spark UI and the profiler show), computed over the
// model's plan tree: ids in preorder, WholeStageCodegen clusters numbered before their body,
// InputAdapter and query-stage wrappers not numbered, a reused exchange or subquery pointing
// to the node already numbered (SparkPlanGraph.buildSparkPlanGraphNode).
class SparkPlanGraphIds {
 public:
  explicit SparkPlanGraphIds(const PlanTree& tree) : tree_(tree), ids_(tree.nodes.size()) {
    if (!tree.nodes.empty()) build(0, false);
  }
  std::optional<int64_t> id_of(int32_t model_node) const { return ids_.at(static_cast<size_t>(model_node)); }

 private:
  bool same_plan(int32_t a, int32_t b) const {
    const PlanNode& x = tree_.nodes[static_cast<size_t>(a)];
    const PlanNode& y = tree_.nodes[static_cast<size_t>(b)];
    if (x.node_name != y.node_name || x.simple_string != y.simple_string || x.metadata != y.metadata ||
        x.children.size() != y.children.size() || x.metrics.size() != y.metrics.size()) {
      return false;
    }
    for (size_t i = 0; i < x.metrics.size(); ++i) {
      if (x.metrics[i].accumulator_id != y.metrics[i].accumulator_id || x.metrics[i].name != y.metrics[i].name)
        return false;
    }
    for (size_t i = 0; i < x.children.size(); ++i) {
      if (!same_plan(x.children[i], y.children[i])) return false;
    }
    return true;
  }
  std::optional<int32_t> registered(int32_t node) const {
    for (int32_t e : exchanges_) {
      if (e == node || same_plan(e, node)) return e;
    }
    return std::nullopt;
  }
  void build(int32_t index, bool in_codegen) {
    const PlanNode& n = tree_.nodes[static_cast<size_t>(index)];
    const std::string& name = n.node_name;
    auto first_child = [&]() { return n.children.empty() ? -1 : n.children.front(); };
    if (name.rfind("WholeStageCodegen", 0) == 0) {
      ids_[static_cast<size_t>(index)] = next_++;
      if (first_child() >= 0) build(first_child(), true);
    } else if (name == "InputAdapter" || name == "TableCacheQueryStage" || name == "ResultQueryStage" ||
               name == "ReusedSubquery") {
      if (first_child() >= 0) build(first_child(), name == "ReusedSubquery" && in_codegen);
    } else if (name == "BroadcastQueryStage" || name == "ShuffleQueryStage") {
      if (first_child() >= 0) {
        if (auto e = registered(first_child())) {
          ids_[static_cast<size_t>(index)] = ids_[static_cast<size_t>(*e)];
        } else {
          build(first_child(), false);
        }
      }
    } else if (name == "Subquery" && registered(index)) {
      ids_[static_cast<size_t>(index)] = ids_[static_cast<size_t>(*registered(index))];
    } else if (name == "ReusedExchange" && first_child() >= 0 && registered(first_child())) {
      ids_[static_cast<size_t>(index)] = ids_[static_cast<size_t>(*registered(first_child()))];
    } else {
      ids_[static_cast<size_t>(index)] = next_++;
      if (name.find("Exchange") != std::string::npos || name == "Subquery") exchanges_.push_back(index);
      for (int32_t child : n.children) build(child, in_codegen && name != "Subquery");
    }
  }

  const PlanTree& tree_;
  std::vector<std::optional<int64_t>> ids_;
  std::vector<int32_t> exchanges_;
  int64_t next_ = 0;
};

std::vector<int64_t> id_list(const std::string& text) {
  std::vector<int64_t> ids;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    int64_t id = 0;
    if (std::from_chars(part.data(), part.data() + part.size(), id).ec == std::errc()) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

struct MetricRef {
  const SqlExecution* sql = nullptr;
  const PlanNode* node = nullptr;
  const PlanMetric* metric = nullptr;
};

MetricRef find_metric(const AppModel& m, int64_t sql_id, int64_t accumulator_id) {
  MetricRef ref;
  ref.sql = m.sql_execution(sql_id);
  if (ref.sql == nullptr) return ref;
  for (const PlanNode& node : ref.sql->plan.nodes) {
    for (const PlanMetric& metric : node.metrics) {
      if (metric.accumulator_id == accumulator_id) {
        ref.node = &node;
        ref.metric = &metric;
        return ref;
      }
    }
  }
  return ref;
}

constexpr std::string_view kPerTaskStatsReason =
    "per-task statistics of an accumulator (min, rolling-mean 'median', max of task updates) are not in the model";

void compare_sql_metrics(FieldTally& tally, const Csv& csv, const AppModel& m) {
  std::map<int64_t, SparkPlanGraphIds> graph_ids;
  for (const auto& cells : csv.rows) {
    const Row row(csv, cells);
    const int64_t sql_id = row.integer("sqlID");
    const int64_t accumulator_id = row.integer("accumulatorId");
    const std::string where = "sql " + std::to_string(sql_id) + " accumulator " + std::to_string(accumulator_id);
    const MetricRef ref = find_metric(m, sql_id, accumulator_id);
    if (ref.metric == nullptr) {
      tally.check(where, "accumulatorId in the final plan", accumulator_id, nullptr);
      continue;
    }
    auto it = graph_ids.find(sql_id);
    if (it == graph_ids.end()) it = graph_ids.emplace(sql_id, SparkPlanGraphIds(ref.sql->plan)).first;
    const auto graph_id = it->second.id_of(ref.node->node_id);
    tally.check(where, "nodeID (SparkPlanGraph numbering)", row.integer("nodeID"),
                graph_id ? FieldValue(*graph_id) : nullptr);
    tally.check(where, "nodeName", row.text("nodeName"), ref.node->node_name);
    tally.check(where, "name", row.text("name"), ref.metric->name);
    tally.check(where, "metricType", row.text("metricType"), ref.metric->metric_type);
    tally.check(where, "total", row.integer("total"), ref.metric->value ? FieldValue(*ref.metric->value) : nullptr);
    // The profiler's stageIds are the node's (ToolsPlanGraph.getNodeStageRawAssignment: every stage
    // whose accumulables carry one of the node's metrics), printed on each of its metric rows.
    tally.check(where, "stageIds (of the node)", id_list(row.text("stageIds")), ref.node->stage_ids);
    for (const char* column : {"min", "median", "max"}) tally.skip(column, kPerTaskStatsReason);
  }
}

// ---------------------------------------------------------------------------------------------
// Diagnostics

std::string node_label(const PlanNode& node, int64_t graph_id) {
  return node.node_name + "(" + std::to_string(graph_id) + ")";
}

void compare_stage_diagnostics(FieldTally& tally, const Csv& csv, const AppModel& m) {
  for (const auto& cells : csv.rows) {
    const Row row(csv, cells);
    const int64_t stage_id = row.integer("stageId");
    const std::string where = "stage " + std::to_string(stage_id);
    const auto attempts = attempts_of(m, stage_id);
    if (attempts.size() != 1) {
      tally.check(where, "one attempt", int64_t{1}, static_cast<int64_t>(attempts.size()));
      continue;
    }
    const StageAttempt& s = *attempts.front();
    tally.check(where, "appId", row.text("appId"), m.app.id);
    tally.check(where, "appName", row.text("appName"), m.app.name);
    tally.check(where, "stageDurationMs", row.integer("stageDurationMs"),
                s.duration_ms() ? FieldValue(*s.duration_ms()) : nullptr);
    tally.check(where, "numTasks", row.integer("numTasks"), s.tasks_succeeded + s.tasks_failed + s.tasks_killed);
    const bool all_succeeded = s.tasks_failed + s.tasks_killed == 0;

    // Column prefix, model metric, its quantile, and how the test prints it (AnalysisSuite
    // createTestStageDiagnosticResult: bytes / 2^20 for the spill columns, ns / 1e6 for times).
    struct Column {
      const char* prefix;
      TaskMetric sum;
      QuantileMetric quantile;
      int64_t divisor;
      bool from_accumulators;  // min/max of non-zero task accumulator updates
    };
    const Column columns[] = {
        {"memoryBytesSpilledMB", TaskMetric::kMemoryBytesSpilled, QuantileMetric::kMemoryBytesSpilled, 1 << 20, true},
        {"diskBytesSpilledMB", TaskMetric::kDiskBytesSpilled, QuantileMetric::kDiskBytesSpilled, 1 << 20, true},
        {"inputBytesRead", TaskMetric::kInputBytes, QuantileMetric::kInputBytes, 1, true},
        {"outputBytesWritten", TaskMetric::kOutputBytes, QuantileMetric::kOutputBytes, 1, true},
        {"shuffleWriteBytes", TaskMetric::kShuffleWriteBytes, QuantileMetric::kShuffleWriteBytes, 1, true},
        {"shuffleReadFetchWaitTime", TaskMetric::kShuffleFetchWaitTimeMs, QuantileMetric::kShuffleFetchWaitTimeMs,
         1000000, true},
        {"shuffleWriteWriteTime", TaskMetric::kShuffleWriteTimeNs, QuantileMetric::kShuffleWriteTimeNs, 1000000, true},
    };
    for (const Column& c : columns) {
      const std::string prefix = c.prefix;
      const Quantiles& q = s.quantile(c.quantile);
      tally.check(where, prefix + "Total", row.integer(prefix + "Total"), s.metric(c.sum) / c.divisor);
      if (!all_succeeded) {
        tally.skip(prefix + "Min/Max", kSuccessfulOnlyReason);
      } else {
        tally.check(where, prefix + "Max", row.integer(prefix + "Max"), q.max / c.divisor);
        // Zero-valued internal metrics are not sent as task accumulator updates, so the profiler's
        // min is over the non-zero values: comparable when no task had 0, or all had.
        if (q.min > 0 || q.max == 0) {
          tally.check(where, prefix + "Min", row.integer(prefix + "Min"), q.min / c.divisor);
        } else {
          tally.skip(prefix + "Min",
                     "the profiler's min skips tasks that sent no update (value 0); the model's "
                     "min includes them");
        }
      }
      tally.skip(prefix + "Median", "a rolling mean of task accumulator updates (AccumInfo), not a median");
    }
    // Shuffle read bytes come from the tasks' metrics (StatisticsMetrics.createFromArr).
    const Quantiles& sr = s.quantile(QuantileMetric::kShuffleReadBytes);
    tally.check(where, "shuffleReadBytesTotal", row.integer("shuffleReadBytesTotal"), s.shuffle_read_bytes());
    if (all_succeeded) {
      tally.check(where, "shuffleReadBytesMin", row.integer("shuffleReadBytesMin"), sr.min);
      tally.check(where, "shuffleReadBytesMax", row.integer("shuffleReadBytesMax"), sr.max);
      // The profiler's median of an even count is the mean of the two middle values
      // (InPlaceMedianArrView.findMedianInPlace); the model keeps the upper one (index n/2) as p50.
      if (sr.count % 2 == 1) {
        tally.check(where, "shuffleReadBytesMedian", row.integer("shuffleReadBytesMedian"), sr.p50);
      } else {
        tally.check_range(where, "shuffleReadBytesMedian", static_cast<double>(row.integer("shuffleReadBytesMedian")),
                          static_cast<double>((sr.p25 + sr.p50) / 2), static_cast<double>(sr.p50),
                          "median of an even count: the profiler averages the two middle values, the model keeps "
                          "the upper one, so the profiler's lies in [(p25 + p50) / 2, p50]");
      }
    }
    tally.skip("gpuSemaphoreWaitTimeTotal",
               "RAPIDS plugin accumulator 'gpuSemaphoreWait' per stage is not a model field");

    // The plan nodes of the stage, by the profiler's stage-to-node mapping.
    std::vector<std::string> expected_nodes;
    {
      // Items are "Name(id)" separated by commas; names may hold commas only inside parentheses.
      int depth = 0;
      std::string current;
      for (char ch : row.text("SQL Nodes(IDs)")) {
        if (ch == '(') ++depth;
        if (ch == ')') --depth;
        if (ch == ',' && depth == 0) {
          expected_nodes.push_back(current);
          current.clear();
        } else {
          current.push_back(ch);
        }
      }
      if (!current.empty()) expected_nodes.push_back(current);
    }
    std::vector<std::string> model_nodes;
    if (auto it = m.stage_plan_nodes.find(stage_id); it != m.stage_plan_nodes.end()) {
      for (const PlanNodeRef& ref : it->second) {
        const SqlExecution* sql = m.sql_execution(ref.execution_id);
        if (sql == nullptr) continue;
        const SparkPlanGraphIds ids(sql->plan);
        const PlanNode& node = sql->plan.nodes.at(static_cast<size_t>(ref.node_id));
        if (auto id = ids.id_of(ref.node_id)) model_nodes.push_back(node_label(node, *id));
      }
    }
    std::sort(expected_nodes.begin(), expected_nodes.end());
    std::sort(model_nodes.begin(), model_nodes.end());
    tally.check(where, "SQL Nodes(IDs)", expected_nodes, model_nodes);
  }
}

void compare_io_diagnostics(FieldTally& tally, const Csv& csv, const AppModel& m) {
  // Metric names the profiler maps to each column (IOAccumDiagnosticMetrics).
  const std::map<std::string, std::set<std::string>> names = {
      {"outputRows", {"number of output rows", "output rows", "join output rows"}},
      {"scanTime", {"scan time"}},
      {"outputBatches", {"number of output batches", "output columnar batches"}},
      {"bufferTime", {"buffer time"}},
      {"shuffleWriteTime", {"shuffle write time", "rs. shuffle write time"}},
      {"fetchWaitTime", {"fetch wait time"}},
      {"gpuDecodeTime", {"GPU decode time"}},
  };
  for (const auto& cells : csv.rows) {
    const Row row(csv, cells);
    const int64_t sql_id = row.integer("sqlId");
    const int64_t stage_id = row.integer("stageId");
    const int64_t graph_node = row.integer("nodeId");
    const std::string where =
        "sql " + std::to_string(sql_id) + " stage " + std::to_string(stage_id) + " node " + std::to_string(graph_node);
    const SqlExecution* sql = m.sql_execution(sql_id);
    const auto attempts = attempts_of(m, stage_id);
    if (sql == nullptr || attempts.size() != 1) {
      tally.check(where, "sql and one stage attempt", "present", nullptr);
      continue;
    }
    const StageAttempt& s = *attempts.front();
    const SparkPlanGraphIds ids(sql->plan);
    const PlanNode* node = nullptr;
    for (const PlanNode& n : sql->plan.nodes) {
      if (ids.id_of(n.node_id) == graph_node) node = &n;
    }
    if (node == nullptr) {
      tally.check(where, "nodeId", graph_node, nullptr);
      continue;
    }
    tally.check(where, "nodeName", row.text("nodeName"), node->node_name);
    tally.check(where, "stageDurationMs", row.integer("stageDurationMs"),
                s.duration_ms() ? FieldValue(*s.duration_ms()) : nullptr);
    for (const auto& [column, metric_names] : names) {
      // The node's accumulators for this column, and their values in this stage's accumulables.
      std::vector<int64_t> values;
      for (const PlanMetric& metric : node->metrics) {
        if (metric_names.count(metric.name) == 0) continue;
        for (const Accumulable& a : s.accumulables) {
          int64_t value = 0;
          const auto [end, ec] = std::from_chars(a.value.data(), a.value.data() + a.value.size(), value);
          if (a.id == metric.accumulator_id && ec == std::errc() && end == a.value.data() + a.value.size()) {
            values.push_back(value);
          }
        }
      }
      if (values.size() > 1) {
        tally.skip(column + "Total",
                   "the node has several metrics of this kind; which one the profiler keeps is "
                   "map-order dependent");
      } else {
        tally.check(where, column + "Total (stage accumulable value)", row.integer(column + "Total"),
                    values.empty() ? int64_t{0} : values.front());
      }
      for (const char* stat : {"Min", "Median", "Max"}) tally.skip(column + stat, kPerTaskStatsReason);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Failures and removals

// How the profiler prints a reason in its CSV (StringUtils.renderStr with doEscapeMetaCharacters,
// maxLength 0): trimmed, with newlines, tabs and carriage returns written as \n, \t, \r.
std::string rendered_reason(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  text = text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  std::string out;
  for (char ch : text) {
    switch (ch) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default: out.push_back(ch);
    }
  }
  return out;
}

// The failure class of a reason: its leading word ("FetchFailed", "ExecutorLostFailure").
std::string failure_class(const std::string& reason) {
  size_t end = 0;
  while (end < reason.size() && (std::isalnum(static_cast<unsigned char>(reason[end])) || reason[end] == '_')) ++end;
  return reason.substr(0, end);
}

void compare_failed_tasks(FieldTally& tally, const Csv& csv, const AppModel& m) {
  // The profiler lists task attempts whose TaskInfo is not successful (HealthCheck.getFailedTasks):
  // a Resubmitted task end carries the original, successful TaskInfo, so it is not listed, while the
  // model (like Spark's AppStatusListener) counts it as failed. The comparable model figure is its
  // failure reasons without "Resubmitted".
  std::map<std::pair<int64_t, int64_t>, std::map<std::string, int64_t>> expected;
  for (const auto& cells : csv.rows) {
    const Row row(csv, cells);
    ++expected[{row.integer("stageId"), row.integer("stageAttemptId")}][failure_class(row.text("failureReason"))];
    for (const std::string& column : csv.header) {
      if (column == "stageId" || column == "stageAttemptId" || column == "failureReason") continue;
      tally.skip(column,
                 "per-task record (task id, attempt, metrics of the failed attempt): the model keeps failure "
                 "counts by reason per stage attempt");
    }
  }
  std::map<std::pair<int64_t, int64_t>, std::map<std::string, int64_t>> model;
  for (const StageAttempt& s : m.stages) {
    for (const auto& f : s.failure_reasons) {
      const std::string cls = failure_class(f.reason);
      if (cls == "Resubmitted") continue;
      model[{s.stage_id, s.attempt_id}][cls] += f.count;
    }
  }
  // One comparison per (stage attempt, failure class) either side knows.
  std::set<std::pair<std::pair<int64_t, int64_t>, std::string>> keys;
  for (const auto* side : {&expected, &model}) {
    for (const auto& [stage, classes] : *side) {
      for (const auto& [cls, count] : classes) keys.insert({stage, cls});
    }
  }
  for (const auto& key : keys) {
    const auto& [stage, cls] = key;
    auto count_in = [&key](const auto& side) -> int64_t {
      auto it = side.find(key.first);
      if (it == side.end()) return 0;
      auto c = it->second.find(key.second);
      return c == it->second.end() ? 0 : c->second;
    };
    tally.check("stage " + std::to_string(stage.first) + "." + std::to_string(stage.second),
                "failed attempts: " + cls + " (Resubmitted excluded)", count_in(expected), count_in(model));
  }
}

void compare_failed_stages(FieldTally& tally, const Csv& csv, const AppModel& m) {
  std::set<std::pair<int64_t, int64_t>> listed;
  for (const auto& cells : csv.rows) {
    const Row row(csv, cells);
    const int64_t stage_id = row.integer("stageId");
    const auto attempt_id = static_cast<int32_t>(row.integer("attemptId"));
    listed.insert({stage_id, attempt_id});
    const std::string where = "stage " + std::to_string(stage_id) + "." + std::to_string(attempt_id);
    const StageAttempt* s = m.stage(stage_id, attempt_id);
    if (s == nullptr) {
      tally.check(where, "present", "present", nullptr);
      continue;
    }
    tally.check(where, "status", std::string("FAILED"), std::string(to_string(s->status)));
    tally.check(where, "name", row.text("name"), s->name);
    tally.check(where, "numTasks", row.integer("numTasks"), int64_t{s->num_tasks});
    tally.check(where, "failureReason (as the profiler prints it)", row.text("failureReason"),
                rendered_reason(s->failure_reason));
  }
  for (const StageAttempt& s : m.stages) {
    if (s.status == StageStatus::kFailed && listed.count({s.stage_id, s.attempt_id}) == 0) {
      tally.check("stage " + std::to_string(s.stage_id) + "." + std::to_string(s.attempt_id), "listed as failed",
                  nullptr, "FAILED");
    }
  }
}

void compare_failed_jobs(FieldTally& tally, const Csv& csv, const AppModel& m) {
  std::set<int64_t> listed;
  for (const auto& cells : csv.rows) {
    const Row row(csv, cells);
    const int64_t job_id = row.integer("jobID");
    listed.insert(job_id);
    const std::string where = "job " + std::to_string(job_id);
    const Job* job = m.job(job_id);
    if (job == nullptr) {
      tally.check(where, "present", "present", nullptr);
      continue;
    }
    tally.check(where, "jobResult",
                row.text("jobResult") == "JobFailed" ? std::string("FAILED") : row.text("jobResult"),
                std::string(to_string(job->status)));
    if (row.has("sqlID")) {
      tally.check(where, "sqlID", row.integer("sqlID"),
                  job->sql_execution_id ? FieldValue(*job->sql_execution_id) : nullptr);
    }
    // Spark rebuilds a JobFailed exception from the log as java.lang.Exception(message)
    // (JsonProtocol.exceptionFromJson) and the profiler prints its toString; the model keeps the message.
    tally.check(where, "failureReason (java.lang.Exception: message)", row.text("failureReason"),
                rendered_reason("java.lang.Exception: " + job->failure_reason));
  }
  for (const Job& job : m.jobs) {
    if (job.status == JobStatus::kFailed && listed.count(job.job_id) == 0) {
      tally.check("job " + std::to_string(job.job_id), "listed as failed", nullptr, "FAILED");
    }
  }
}

void compare_removed_executors(FieldTally& tally, const Csv& csv, const AppModel& m, bool block_managers) {
  std::set<std::string> listed;
  for (const auto& cells : csv.rows) {
    const Row row(csv, cells);
    const std::string id = row.text("executorId");
    listed.insert(id);
    const std::string where = (block_managers ? "block manager " : "executor ") + id;
    const Executor* e = m.executor(id);
    if (e == nullptr) {
      tally.check(where, "present", "present", nullptr);
      continue;
    }
    const auto& time = block_managers ? e->block_manager_remove_time_ms : e->remove_time_ms;
    tally.check(where, "time", row.integer("time"), time ? FieldValue(*time) : nullptr);
    if (!block_managers) tally.check(where, "reason", row.text("reason"), e->remove_reason);
  }
  for (const Executor& e : m.executors) {
    const auto& time = block_managers ? e.block_manager_remove_time_ms : e.remove_time_ms;
    if (time && listed.count(e.id) == 0) tally.check("executor " + e.id, "listed as removed", nullptr, "removed");
  }
}

// ---------------------------------------------------------------------------------------------
// The test

class RapidsProfilerOracle : public ::testing::TestWithParam<ProfilerCase> {};

TEST_P(RapidsProfilerOracle, ModelMatchesTheProfilerCsv) {
  const ProfilerCase& c = GetParam();
  SF_REQUIRE_CORPUS_FILE(csv_path, std::string(kExpectations) + "/" + std::string(c.file));
  if (c.kind == Kind::kNotInCorpus) GTEST_SKIP() << c.file << ": " << c.reason;
  SF_REQUIRE_CORPUS_FILE(log_path, std::string(c.log));
  const auto& loaded = cached_model(log_path);
  ASSERT_TRUE(loaded.has_value()) << c.log << ": " << loaded.error().message();
  const AppModel& m = *loaded;
  const Csv csv = read_csv(csv_path);
  ASSERT_FALSE(csv.header.empty()) << c.file << " is empty";
  std::cout << "[fidelity] " << c.file << " <- " << c.log << "\n";

  FieldTally tally(std::string(kOracle), std::string(c.file));
  switch (c.kind) {
    case Kind::kStageAgg: compare_stage_aggregates(tally, csv, m); break;
    case Kind::kJobAgg: compare_job_aggregates(tally, csv, m); break;
    case Kind::kSqlAgg: compare_sql_aggregates(tally, csv, m); break;
    case Kind::kSqlMetrics: compare_sql_metrics(tally, csv, m); break;
    case Kind::kStageDiagnostics: compare_stage_diagnostics(tally, csv, m); break;
    case Kind::kIoDiagnostics: compare_io_diagnostics(tally, csv, m); break;
    case Kind::kFailedTasks: compare_failed_tasks(tally, csv, m); break;
    case Kind::kFailedStages: compare_failed_stages(tally, csv, m); break;
    case Kind::kFailedJobs: compare_failed_jobs(tally, csv, m); break;
    case Kind::kRemovedExecutors: compare_removed_executors(tally, csv, m, false); break;
    case Kind::kRemovedBlockManagers: compare_removed_executors(tally, csv, m, true); break;
    case Kind::kNotInCorpus: break;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, RapidsProfilerOracle, ::testing::ValuesIn(profiler_cases()),
                         [](const ::testing::TestParamInfo<ProfilerCase>& param_info) {
                           std::string name(param_info.param.file);
                           name = name.substr(0, name.find("_expectation.csv"));
                           return test_name_of(name);
                         });

// Every CSV of the folder is classified above.
TEST(RapidsProfilerOracleCatalog, ClassifiesEveryExpectationFile) {
  const auto root = sf::testing::corpus_dir();
  if (!root) GTEST_SKIP() << sf::testing::corpus_missing_reason();
  const auto dir = *root / std::string(kExpectations);
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << dir << " not found";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".csv") continue;
    const bool listed = std::any_of(profiler_cases().begin(), profiler_cases().end(),
                                    [&](const ProfilerCase& c) { return c.file == name; });
    EXPECT_TRUE(listed) << name << " is not classified in this test";
  }
}

}  // namespace
}  // namespace sf::corpus_testing

// The model of a generated log equals the generator's ground truth, field by field.
//
// The small() application (every feature: failed and retried tasks, speculation, skew, spill,
// executor churn, a fetch failure and stage retry, a failed job, cached RDDs, SQL with AQE) is
// written in every codec and layout, and as an in-progress log whose last line is torn; each is
// loaded with sf::model::load_event_log and compared with the GroundTruth the generator recorded
// while writing it. Quantiles are computed here, independently, from the truth's successful
// task metrics. Also: generation is deterministic, and every feature switch changes the log.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "loggen/log_generator.h"
#include "model/app_model.h"
#include "model/load.h"

namespace sf::loggen {
namespace {

namespace fs = std::filesystem;
using model::AppModel;

// A fresh directory under the system temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = "sf_model_tests_" + std::to_string(::getpid()) + "_" + std::to_string(++counter);
    if (info != nullptr) name += std::string("_") + info->name();
    std::replace(name.begin(), name.end(), '/', '_');
    path_ = fs::temp_directory_path() / name;
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string stage_name(int64_t stage_id, int32_t attempt_id) {
  return "stage " + std::to_string(stage_id) + "." + std::to_string(attempt_id);
}

// Nearest-rank order statistics, computed here without the model's code.
model::Quantiles expected_quantiles(const std::vector<model::TaskMetricValues>& tasks, model::QuantileMetric metric) {
  std::vector<int64_t> values;
  values.reserve(tasks.size());
  for (const auto& task : tasks) values.push_back(model::quantile_metric_value(metric, task));
  std::sort(values.begin(), values.end());
  model::Quantiles q;
  q.count = static_cast<int64_t>(values.size());
  if (values.empty()) return q;
  auto at = [&](double fraction) {
    const auto n = values.size();
    const auto index = std::min(static_cast<size_t>(std::floor(fraction * static_cast<double>(n))), n - 1);
    return values[index];
  };
  q.min = at(0.0);
  q.p5 = at(0.05);
  q.p25 = at(0.25);
  q.p50 = at(0.5);
  q.p75 = at(0.75);
  q.p95 = at(0.95);
  q.max = at(1.0);
  return q;
}

// ---------------------------------------------------------------------------------------------
// Field-by-field comparison of a model with the truth

void expect_app(const AppModel& m, const GroundTruth& t) {
  SCOPED_TRACE("application");
  EXPECT_EQ(m.app.id, t.app.id);
  EXPECT_EQ(m.app.name, t.app.name);
  EXPECT_EQ(m.app.user, t.app.user);
  EXPECT_EQ(m.app.spark_version, t.app.spark_version);
  EXPECT_EQ(m.app.start_time_ms, t.app.start_time_ms);
  EXPECT_EQ(m.app.end_time_ms, t.app.end_time_ms);
  EXPECT_EQ(m.app.last_event_time_ms, t.app.last_event_time_ms);
  EXPECT_EQ(m.app.finished, t.app.finished);
  EXPECT_EQ(m.peak_concurrent_cores, t.peak_concurrent_cores);
  EXPECT_EQ(m.peak_concurrent_executors, t.peak_concurrent_executors);
  EXPECT_FALSE(m.peak_cores_from_executor_count);
}

void expect_executors(const AppModel& m, const GroundTruth& t) {
  ASSERT_EQ(m.executors.size(), t.executors.size()) << "executor count";
  for (size_t i = 0; i < t.executors.size(); ++i) {
    const model::Executor& x = m.executors[i];
    const ExecutorTruth& e = t.executors[i];
    SCOPED_TRACE("executor " + e.id);
    EXPECT_EQ(x.id, e.id);
    EXPECT_EQ(x.host, e.host);
    EXPECT_EQ(x.total_cores, e.total_cores);
    EXPECT_EQ(x.add_time_ms, e.add_time_ms);
    EXPECT_EQ(x.remove_time_ms, e.remove_time_ms);
    EXPECT_EQ(x.remove_reason, e.remove_reason);
    EXPECT_EQ(x.max_memory_bytes, e.max_memory_bytes);
    EXPECT_EQ(x.block_manager_add_time_ms, e.block_manager_add_time_ms);
    EXPECT_EQ(x.tasks_total, e.tasks_total);
    EXPECT_EQ(x.tasks_succeeded, e.tasks_succeeded);
    EXPECT_EQ(x.tasks_failed, e.tasks_failed);
    EXPECT_EQ(x.tasks_killed, e.tasks_killed);
    EXPECT_EQ(x.total_duration_ms, e.total_duration_ms);
    EXPECT_EQ(x.total_gc_time_ms, e.total_gc_time_ms);
    EXPECT_EQ(x.total_input_bytes, e.total_input_bytes);
    EXPECT_EQ(x.total_shuffle_read_bytes, e.total_shuffle_read_bytes);
    EXPECT_EQ(x.total_shuffle_write_bytes, e.total_shuffle_write_bytes);
  }
}

void expect_jobs(const AppModel& m, const GroundTruth& t) {
  ASSERT_EQ(m.jobs.size(), t.jobs.size()) << "job count";
  for (size_t i = 0; i < t.jobs.size(); ++i) {
    const model::Job& j = m.jobs[i];
    const JobTruth& e = t.jobs[i];
    SCOPED_TRACE("job " + std::to_string(e.job_id));
    EXPECT_EQ(j.job_id, e.job_id);
    EXPECT_EQ(j.name, e.name);
    EXPECT_EQ(j.description, e.description);
    EXPECT_EQ(j.job_group, e.job_group);
    EXPECT_EQ(j.submission_time_ms, e.submission_time_ms);
    EXPECT_EQ(j.completion_time_ms, e.completion_time_ms);
    EXPECT_EQ(j.stage_ids, e.stage_ids);
    EXPECT_EQ(model::to_string(j.status), model::to_string(e.status));
    EXPECT_EQ(j.failure_reason, e.failure_reason);
    EXPECT_EQ(j.sql_execution_id, e.sql_execution_id);
    EXPECT_EQ(j.num_tasks, e.num_tasks);
    EXPECT_EQ(j.num_completed_tasks, e.num_completed_tasks);
    EXPECT_EQ(j.num_skipped_tasks, e.num_skipped_tasks);
    EXPECT_EQ(j.num_failed_tasks, e.num_failed_tasks);
    EXPECT_EQ(j.num_killed_tasks, e.num_killed_tasks);
    EXPECT_EQ(j.num_completed_indices, e.num_completed_indices);
    EXPECT_EQ(j.num_active_tasks, e.num_active_tasks);
    EXPECT_EQ(j.num_active_stages, e.num_active_stages);
    EXPECT_EQ(j.num_completed_stages, e.num_completed_stages);
    EXPECT_EQ(j.num_skipped_stages, e.num_skipped_stages);
    EXPECT_EQ(j.num_failed_stages, e.num_failed_stages);
  }
}

void expect_stage(const model::StageAttempt& s, const StageAttemptTruth& e) {
  SCOPED_TRACE(stage_name(e.stage_id, e.attempt_id));
  EXPECT_EQ(s.name, e.name);
  EXPECT_EQ(s.description, e.description);
  EXPECT_EQ(s.num_tasks, e.num_tasks);
  EXPECT_EQ(s.parent_ids, e.parent_ids);
  EXPECT_EQ(s.rdd_ids, e.rdd_ids);
  // MODEL BUILDER BUG (reported to the lead; do not "fix" the truth): for a stage that was never
  // submitted (an AQE stage listed again by a later job, or a stage left pending by a failed job)
  // the builder's finish_stages_and_jobs() looks the listing jobs up through job->out.stage_ids
  // after moving every job's `out` into model.jobs, so it finds none and job_ids is empty. Spark's
  // AppStatusListener.onJobStart adds the job to every listed stage (stage.jobIds += jobId).
  EXPECT_EQ(s.job_ids, e.job_ids);
  // MODEL BUILDER GAP (reported): the builder leaves sql_execution_id unset for never-submitted
  // stages; it takes it from the submission's properties or from the jobs the attempt ran for,
  // and a skipped stage belongs to the SQL execution of the job that lists it.
  EXPECT_EQ(s.sql_execution_id, e.sql_execution_id);
  // MODEL BUILDER BUG (reported), truncated logs only: a stage listed by a job that is still
  // running at the end of the log is PENDING in Spark (onJobEnd is what marks pending stages
  // SKIPPED); the builder shows every never-submitted stage as SKIPPED.
  EXPECT_EQ(model::to_string(s.status), model::to_string(e.status));
  EXPECT_EQ(s.submission_time_ms, e.submission_time_ms);
  EXPECT_EQ(s.first_task_launched_time_ms, e.first_task_launched_time_ms);
  EXPECT_EQ(s.completion_time_ms, e.completion_time_ms);
  EXPECT_EQ(s.failure_reason, e.failure_reason);
  EXPECT_EQ(s.tasks_started, e.tasks_started);
  EXPECT_EQ(s.tasks_succeeded, e.tasks_succeeded);
  EXPECT_EQ(s.tasks_failed, e.tasks_failed);
  EXPECT_EQ(s.tasks_killed, e.tasks_killed);
  EXPECT_EQ(s.tasks_speculative, e.tasks_speculative);
  EXPECT_EQ(s.tasks_active, e.tasks_active);
  EXPECT_EQ(s.completed_indices, e.completed_indices);
  EXPECT_EQ(s.killed_tasks_summary, e.killed_tasks_summary);
  std::vector<std::pair<std::string, int64_t>> failures;
  for (const auto& f : s.failure_reasons) failures.emplace_back(f.reason, f.count);
  std::vector<std::pair<std::string, int64_t>> expected_failures;
  for (const auto& f : e.failure_reasons) expected_failures.emplace_back(f.reason, f.count);
  EXPECT_EQ(failures, expected_failures);
  for (size_t i = 0; i < model::kTaskMetricCount; ++i) {
    EXPECT_EQ(s.metric_sums[i], e.metric_sums[i])
        << "sum of " << model::task_metric_name(static_cast<model::TaskMetric>(i));
  }
  for (size_t i = 0; i < model::kQuantileMetricCount; ++i) {
    const auto metric = static_cast<model::QuantileMetric>(i);
    const model::Quantiles want = expected_quantiles(e.successful_task_metrics, metric);
    const model::Quantiles& got = s.quantiles[i];
    const std::string name(model::quantile_metric_name(metric));
    EXPECT_EQ(got.count, want.count) << name << " count";
    EXPECT_EQ(got.min, want.min) << name << " min";
    EXPECT_EQ(got.p5, want.p5) << name << " p5";
    EXPECT_EQ(got.p25, want.p25) << name << " p25";
    EXPECT_EQ(got.p50, want.p50) << name << " p50";
    EXPECT_EQ(got.p75, want.p75) << name << " p75";
    EXPECT_EQ(got.p95, want.p95) << name << " p95";
    EXPECT_EQ(got.max, want.max) << name << " max";
  }
  EXPECT_EQ(s.max_task_duration_ms, e.max_task_duration_ms);
  EXPECT_EQ(s.max_task_duration_task_id, e.max_task_duration_task_id);
  EXPECT_EQ(s.accumulator_ids, e.accumulator_ids);
  ASSERT_EQ(s.executors.size(), e.executors.size()) << "executors of the stage";
  for (size_t i = 0; i < e.executors.size(); ++i) {
    const model::ExecutorStageSummary& x = s.executors[i];
    const ExecutorStageTruth& w = e.executors[i];
    SCOPED_TRACE("executor " + w.executor_id);
    EXPECT_EQ(x.executor_id, w.executor_id);
    EXPECT_EQ(x.host, w.host);
    EXPECT_EQ(x.tasks_succeeded, w.tasks_succeeded);
    EXPECT_EQ(x.tasks_failed, w.tasks_failed);
    EXPECT_EQ(x.tasks_killed, w.tasks_killed);
    EXPECT_EQ(x.task_time_ms, w.task_time_ms);
    EXPECT_EQ(x.succeeded_task_time_ms, w.succeeded_task_time_ms);
    EXPECT_EQ(x.executor_run_time_ms, w.executor_run_time_ms);
    EXPECT_EQ(x.jvm_gc_time_ms, w.jvm_gc_time_ms);
    EXPECT_EQ(x.input_bytes, w.input_bytes);
    EXPECT_EQ(x.shuffle_read_bytes, w.shuffle_read_bytes);
    EXPECT_EQ(x.shuffle_write_bytes, w.shuffle_write_bytes);
    EXPECT_EQ(x.memory_bytes_spilled, w.memory_bytes_spilled);
    EXPECT_EQ(x.disk_bytes_spilled, w.disk_bytes_spilled);
  }
}

void expect_stages(const AppModel& m, const GroundTruth& t) {
  std::vector<std::string> got;
  std::vector<std::string> want;
  for (const auto& s : m.stages) got.push_back(stage_name(s.stage_id, s.attempt_id));
  for (const auto& s : t.stages) want.push_back(stage_name(s.stage_id, s.attempt_id));
  ASSERT_EQ(got, want) << "stage attempts";
  for (size_t i = 0; i < t.stages.size(); ++i) expect_stage(m.stages[i], t.stages[i]);
}

void expect_plan(const model::PlanTree& plan, const PlanTruth& want) {
  ASSERT_EQ(plan.nodes.size(), want.nodes.size()) << "plan nodes";
  for (size_t i = 0; i < want.nodes.size(); ++i) {
    const model::PlanNode& n = plan.nodes[i];
    const PlanNodeTruth& w = want.nodes[i];
    SCOPED_TRACE("plan node " + std::to_string(i) + " " + w.node_name);
    EXPECT_EQ(n.node_id, static_cast<int32_t>(i));
    EXPECT_EQ(n.node_name, w.node_name);
    EXPECT_EQ(static_cast<int32_t>(n.children.size()), w.child_count);
    std::vector<int64_t> ids;
    std::vector<std::optional<int64_t>> values;
    for (const auto& metric : n.metrics) {
      ids.push_back(metric.accumulator_id);
      values.push_back(metric.value);
    }
    EXPECT_EQ(ids, w.accumulator_ids);
    EXPECT_EQ(values, w.metric_values);
    EXPECT_EQ(n.stage_ids, w.stage_ids);
  }
}

void expect_sql(const AppModel& m, const GroundTruth& t) {
  ASSERT_EQ(m.sql.size(), t.sql.size()) << "SQL executions";
  for (size_t i = 0; i < t.sql.size(); ++i) {
    const model::SqlExecution& x = m.sql[i];
    const SqlExecutionTruth& e = t.sql[i];
    SCOPED_TRACE("SQL execution " + std::to_string(e.execution_id));
    EXPECT_EQ(x.execution_id, e.execution_id);
    EXPECT_EQ(x.root_execution_id, e.root_execution_id);
    EXPECT_EQ(x.description, e.description);
    EXPECT_EQ(x.start_time_ms, e.start_time_ms);
    EXPECT_EQ(x.end_time_ms, e.end_time_ms);
    EXPECT_EQ(x.error_message, e.error_message);
    EXPECT_EQ(x.adaptive_updates, e.adaptive_updates);
    EXPECT_EQ(x.driver_accum_updates, e.driver_accum_updates);
    EXPECT_EQ(x.job_ids, e.job_ids);
    EXPECT_EQ(x.stage_ids, e.stage_ids);
    {
      SCOPED_TRACE("final plan");
      expect_plan(x.plan, e.final_plan);
    }
    ASSERT_EQ(x.earlier_plans.size(), e.earlier_plans.size()) << "earlier plans";
    for (size_t v = 0; v < e.earlier_plans.size(); ++v) {
      SCOPED_TRACE("earlier plan " + std::to_string(v));
      expect_plan(x.earlier_plans[v].plan, e.earlier_plans[v]);
    }
  }
  EXPECT_EQ(m.stage_plan_nodes, t.stage_plan_nodes) << "stage -> plan nodes";
}

void expect_rdds(const AppModel& m, const GroundTruth& t) {
  std::vector<int64_t> ids;
  for (const auto& [id, rdd] : m.rdds) ids.push_back(id);
  EXPECT_EQ(ids, t.rdd_ids) << "RDDs";
  std::vector<const model::RddInfo*> cached;
  for (const auto& [id, rdd] : m.rdds) {
    if (rdd.is_cached()) cached.push_back(&rdd);
  }
  ASSERT_EQ(cached.size(), t.cached_rdds.size()) << "cached RDDs";
  for (size_t i = 0; i < cached.size(); ++i) {
    const CachedRddTruth& e = t.cached_rdds[i];
    SCOPED_TRACE("RDD " + std::to_string(e.rdd_id));
    EXPECT_EQ(cached[i]->rdd_id, e.rdd_id);
    EXPECT_EQ(cached[i]->name, e.name);
    EXPECT_EQ(cached[i]->num_partitions, e.num_partitions);
    EXPECT_EQ(cached[i]->use_memory, e.use_memory);
    EXPECT_EQ(cached[i]->use_disk, e.use_disk);
    EXPECT_EQ(cached[i]->deserialized, e.deserialized);
    EXPECT_EQ(cached[i]->replication, e.replication);
  }
}

void expect_diagnostics(const AppModel& m, const GroundTruth& t) {
  SCOPED_TRACE("diagnostics");
  const auto& d = m.diagnostics;
  EXPECT_EQ(d.malformed_lines, 0u) << (d.malformed.empty() ? std::string()
                                                           : d.malformed.front().part + ":" +
                                                                 std::to_string(d.malformed.front().line_number) + " " +
                                                                 d.malformed.front().reason);
  EXPECT_EQ(d.lines_read, t.complete_lines + (t.truncated_last_line ? 1 : 0));
  EXPECT_EQ(d.events_decoded, t.complete_lines);
  EXPECT_EQ(d.truncated_last_line, t.truncated_last_line);
  EXPECT_EQ(d.incomplete, !t.app.finished);
  EXPECT_FALSE(d.read_error.has_value()) << d.read_error.value_or("");
  EXPECT_TRUE(d.orphan_events.empty()) << "orphan events: " << d.orphan_events.size();
  EXPECT_TRUE(d.unknown_events.empty()) << "unknown events: " << d.unknown_events.size();
}

void expect_model_matches(const AppModel& m, const GroundTruth& t) {
  expect_diagnostics(m, t);
  expect_app(m, t);
  expect_executors(m, t);
  expect_jobs(m, t);
  expect_stages(m, t);
  expect_sql(m, t);
  expect_rdds(m, t);
}

AppModel load(const fs::path& path) {
  auto loaded = model::load_event_log(path.string());
  if (!loaded) {
    ADD_FAILURE() << "cannot load " << path << ": " << loaded.error().message();
    return AppModel{};
  }
  return std::move(*loaded);
}

std::string generate_text(const GeneratorConfig& config, GroundTruth* truth = nullptr) {
  std::string text;
  generate(
      config, [&](std::string_view line) { text.append(line); }, truth);
  return text;
}

// ---------------------------------------------------------------------------------------------
// Every codec and layout

struct CodecLayout {
  io::Codec codec;
  LogLayout layout;
};

std::string case_name(const ::testing::TestParamInfo<CodecLayout>& info) {
  return std::string(io::codec_name(info.param.codec)) +
         (info.param.layout == LogLayout::kRolling ? "_rolling" : "_file");
}

class GeneratedLogTest : public ::testing::TestWithParam<CodecLayout> {};

TEST_P(GeneratedLogTest, ModelEqualsTruth) {
  TempDir dir;
  LogWriteOptions options;
  options.codec = GetParam().codec;
  options.layout = GetParam().layout;
  options.rolling_max_part_bytes = 256 * 1024;
  GroundTruth truth;
  const WrittenLog log = write_event_log(GeneratorConfig::small(), options, dir.path(), &truth);
  EXPECT_EQ(log.lines, truth.complete_lines);
  EXPECT_EQ(log.uncompressed_bytes, truth.bytes);
  EXPECT_FALSE(truth.truncated_last_line);
  if (options.layout == LogLayout::kRolling) {
    EXPECT_GE(log.parts.size(), 3u) << "the rolling log should have several parts";
    EXPECT_TRUE(fs::exists(log.path / ("appstatus_" + truth.app.id)));
  }

  const AppModel m = load(log.path);
  EXPECT_EQ(m.source.parts.size(), log.parts.size());
  EXPECT_EQ(m.source.layout, options.layout == LogLayout::kRolling ? "rolling" : "file");
  EXPECT_FALSE(m.source.in_progress);
  for (size_t i = 0; i < std::min(m.source.parts.size(), log.parts.size()); ++i) {
    EXPECT_EQ(m.source.parts[i].lines, log.parts[i].lines) << "part " << i;
    EXPECT_EQ(m.source.parts[i].uncompressed_bytes, log.parts[i].uncompressed_bytes) << "part " << i;
    EXPECT_EQ(m.source.parts[i].codec, io::codec_name(options.codec)) << "part " << i;
  }
  expect_model_matches(m, truth);
}

std::vector<CodecLayout> all_codecs_and_layouts() {
  std::vector<CodecLayout> cases;
  for (io::Codec codec :
       {io::Codec::kNone, io::Codec::kZstd, io::Codec::kLz4, io::Codec::kSnappy, io::Codec::kLzf, io::Codec::kGzip}) {
    cases.push_back({codec, LogLayout::kSingleFile});
    cases.push_back({codec, LogLayout::kRolling});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(AllCodecsAndLayouts, GeneratedLogTest, ::testing::ValuesIn(all_codecs_and_layouts()),
                         case_name);

// ---------------------------------------------------------------------------------------------
// Logs of an application still running

class InProgressLogTest : public ::testing::TestWithParam<io::Codec> {};

TEST_P(InProgressLogTest, TornLastLine) {
  TempDir dir;
  GroundTruth truth;
  const WrittenLog log = write_in_progress_log(GeneratorConfig::small(), GetParam(), true, dir.path(), &truth);
  EXPECT_EQ(log.path.extension(), ".inprogress");
  EXPECT_TRUE(truth.truncated_last_line);
  EXPECT_FALSE(truth.app.finished);
  EXPECT_GT(truth.bytes, log.uncompressed_bytes - 1) << "the torn line counts in the bytes";
  bool running = false;
  for (const JobTruth& job : truth.jobs) running = running || job.status == model::JobStatus::kRunning;
  EXPECT_TRUE(running) << "the log should stop while a job runs";

  const AppModel m = load(log.path);
  EXPECT_TRUE(m.source.in_progress);
  expect_model_matches(m, truth);
}

std::string codec_case_name(const ::testing::TestParamInfo<io::Codec>& param_info) {
  return std::string(io::codec_name(param_info.param));
}

INSTANTIATE_TEST_SUITE_P(Codecs, InProgressLogTest,
                         ::testing::Values(io::Codec::kNone, io::Codec::kZstd, io::Codec::kLz4), codec_case_name);

TEST(InProgressLog, CutWithoutTornLine) {
  TempDir dir;
  GroundTruth truth;
  GeneratorConfig config = GeneratorConfig::small();
  config.unfinished_cut_fraction = 0.3;
  const WrittenLog log = write_in_progress_log(config, io::Codec::kNone, false, dir.path(), &truth);
  EXPECT_FALSE(truth.truncated_last_line);
  EXPECT_FALSE(truth.app.finished);
  bool active = false;
  for (const StageAttemptTruth& stage : truth.stages) active = active || stage.tasks_active > 0;
  EXPECT_TRUE(active) << "the log should stop while tasks run";
  const AppModel m = load(log.path);
  EXPECT_TRUE(m.source.in_progress);
  expect_model_matches(m, truth);
}

TEST(InProgressLog, FinishedLogWithTornApplicationEnd) {
  TempDir dir;
  GroundTruth truth;
  GeneratorConfig config = GeneratorConfig::small();
  config.cut_last_line = true;
  LogWriteOptions options;
  const WrittenLog log = write_event_log(config, options, dir.path(), &truth);
  EXPECT_TRUE(truth.truncated_last_line);
  EXPECT_FALSE(truth.app.finished) << "the torn ApplicationEnd is not part of the truth";
  const AppModel m = load(log.path);
  expect_model_matches(m, truth);
}

TEST(InProgressLog, RollingDirectory) {
  TempDir dir;
  GroundTruth truth;
  GeneratorConfig config = GeneratorConfig::small();
  config.finished = false;
  LogWriteOptions options;
  options.codec = io::Codec::kSnappy;
  options.layout = LogLayout::kRolling;
  options.rolling_max_part_bytes = 200 * 1024;
  const WrittenLog log = write_event_log(config, options, dir.path(), &truth);
  EXPECT_TRUE(fs::exists(log.path / ("appstatus_" + truth.app.id + ".inprogress")));
  EXPECT_GE(log.parts.size(), 3u);
  const AppModel m = load(log.path);
  EXPECT_TRUE(m.source.in_progress);
  expect_model_matches(m, truth);
}

// ---------------------------------------------------------------------------------------------
// Determinism

TEST(GeneratedLogDeterminism, SameConfigSameBytes) {
  const std::string first = generate_text(GeneratorConfig::small());
  const std::string second = generate_text(GeneratorConfig::small());
  EXPECT_FALSE(first.empty());
  EXPECT_TRUE(first == second) << "two runs of the same config differ";
}

TEST(GeneratedLogDeterminism, OtherSeedOtherBytes) {
  GeneratorConfig other = GeneratorConfig::small();
  other.seed += 1;
  EXPECT_NE(generate_text(GeneratorConfig::small()), generate_text(other));
  EXPECT_NE(application_id(GeneratorConfig::small()), application_id(other));
}

TEST(GeneratedLogDeterminism, RecordingTheTruthDoesNotChangeTheLog) {
  GroundTruth truth;
  const std::string with_truth = generate_text(GeneratorConfig::small(), &truth);
  EXPECT_TRUE(with_truth == generate_text(GeneratorConfig::small()));
  EXPECT_EQ(truth.bytes, with_truth.size());
  EXPECT_EQ(truth.complete_lines, static_cast<uint64_t>(std::count(with_truth.begin(), with_truth.end(), '\n')));
}

TEST(GeneratedLogDeterminism, FileHoldsTheGeneratedBytes) {
  TempDir dir;
  const WrittenLog log = write_event_log(GeneratorConfig::small(), LogWriteOptions{}, dir.path(), nullptr);
  std::ifstream in(log.path, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  GeneratorConfig config = GeneratorConfig::small();
  EXPECT_TRUE(content.str() == generate_text(config)) << "the file differs from generate()'s lines";
  EXPECT_EQ(log.path.filename().string(), application_id(config));
}

// ---------------------------------------------------------------------------------------------
// Every feature switch puts its scenario in the log (and the truth), and only when it is on

template <class Pred>
bool any_stage(const GroundTruth& t, Pred pred) {
  return std::any_of(t.stages.begin(), t.stages.end(), pred);
}

bool has_failure(const StageAttemptTruth& s, std::string_view prefix) {
  return std::any_of(s.failure_reasons.begin(), s.failure_reasons.end(),
                     [&](const model::TaskFailureCount& f) { return f.reason.rfind(prefix, 0) == 0; });
}

struct Feature {
  const char* name;
  bool GeneratorConfig::*flag;
  bool (*present)(const GroundTruth&);
};

const Feature kFeatures[] = {
    {"failed_tasks", &GeneratorConfig::failed_tasks,
     [](const GroundTruth& t) {
       return any_stage(t, [](const StageAttemptTruth& s) {
         return s.status == model::StageStatus::kComplete && has_failure(s, "ExceptionFailure: java.io.IOException");
       });
     }},
    {"speculation", &GeneratorConfig::speculation,
     [](const GroundTruth& t) {
       // Copies of skewed tasks (killed) and of tasks on the slow executor (winning): two stages.
       const auto stages = std::count_if(t.stages.begin(), t.stages.end(), [](const StageAttemptTruth& s) {
         return s.tasks_speculative > 0 && !s.killed_tasks_summary.empty() &&
                s.killed_tasks_summary.front().first == "another attempt succeeded";
       });
       return stages >= 2;
     }},
    {"skew", &GeneratorConfig::skew,
     [](const GroundTruth& t) {
       return any_stage(t, [](const StageAttemptTruth& s) {
         std::vector<int64_t> reads;
         for (const auto& m : s.successful_task_metrics) {
           reads.push_back(model::quantile_metric_value(model::QuantileMetric::kShuffleReadBytes, m));
         }
         if (reads.size() < 4) return false;
         std::sort(reads.begin(), reads.end());
         return reads.back() >= 8 * reads[reads.size() / 2] && reads[reads.size() / 2] > 0;
       });
     }},
    {"spill", &GeneratorConfig::spill,
     [](const GroundTruth& t) {
       return any_stage(t, [](const StageAttemptTruth& s) {
         return s.metric_sums[model::index_of(model::TaskMetric::kMemoryBytesSpilled)] > 0 &&
                s.metric_sums[model::index_of(model::TaskMetric::kDiskBytesSpilled)] > 0;
       });
     }},
    {"sql", &GeneratorConfig::sql,
     [](const GroundTruth& t) {
       const bool adaptive =
           std::any_of(t.sql.begin(), t.sql.end(), [](const SqlExecutionTruth& e) { return e.adaptive_updates > 0; });
       return adaptive && !t.stage_plan_nodes.empty() &&
              any_stage(t, [](const StageAttemptTruth& s) { return s.status == model::StageStatus::kSkipped; });
     }},
    {"executor_churn", &GeneratorConfig::executor_churn,
     [](const GroundTruth& t) {
       bool same_instant = false;  // one removed and another added in the same millisecond
       for (const ExecutorTruth& gone : t.executors) {
         for (const ExecutorTruth& added : t.executors) {
           same_instant = same_instant || (gone.remove_time_ms && added.add_time_ms == gone.remove_time_ms);
         }
       }
       return same_instant &&
              any_stage(t, [](const StageAttemptTruth& s) { return has_failure(s, "ExecutorLostFailure"); });
     }},
    {"stage_retry", &GeneratorConfig::stage_retry,
     [](const GroundTruth& t) {
       return any_stage(t,
                        [](const StageAttemptTruth& s) {
                          return s.status == model::StageStatus::kFailed && has_failure(s, "FetchFailed");
                        }) &&
              any_stage(t, [](const StageAttemptTruth& s) {
                return s.attempt_id == 1 && s.status == model::StageStatus::kComplete;
              });
     }},
    {"failed_job", &GeneratorConfig::failed_job,
     [](const GroundTruth& t) {
       return std::any_of(t.jobs.begin(), t.jobs.end(),
                          [](const JobTruth& j) { return j.status == model::JobStatus::kFailed; }) &&
              std::any_of(t.sql.begin(), t.sql.end(),
                          [](const SqlExecutionTruth& e) { return e.error_message && !e.error_message->empty(); });
     }},
    {"cached_rdds", &GeneratorConfig::cached_rdds, [](const GroundTruth& t) { return !t.cached_rdds.empty(); }},
};

TEST(GeneratedLogFeatures, EveryScenarioIsInTheSmallPreset) {
  GroundTruth truth;
  generate(
      GeneratorConfig::small(), [](std::string_view) {}, &truth);
  for (const Feature& feature : kFeatures) EXPECT_TRUE(feature.present(truth)) << feature.name;
}

class FeatureOffTest : public ::testing::TestWithParam<Feature> {};

TEST_P(FeatureOffTest, ScenarioGoneAndModelStillEqualsTruth) {
  GeneratorConfig config = GeneratorConfig::small();
  config.*(GetParam().flag) = false;
  TempDir dir;
  GroundTruth truth;
  LogWriteOptions options;
  options.codec = io::Codec::kZstd;
  const WrittenLog log = write_event_log(config, options, dir.path(), &truth);
  EXPECT_FALSE(GetParam().present(truth)) << GetParam().name << " is off but its scenario is in the log";
  expect_model_matches(load(log.path), truth);
}

std::string feature_case_name(const ::testing::TestParamInfo<Feature>& param_info) { return param_info.param.name; }

INSTANTIATE_TEST_SUITE_P(EachFeature, FeatureOffTest, ::testing::ValuesIn(kFeatures), feature_case_name);

TEST(GeneratedLogFeatures, NoFeatureAtAll) {
  GeneratorConfig config = GeneratorConfig::small();
  for (const Feature& feature : kFeatures) config.*(feature.flag) = false;
  TempDir dir;
  GroundTruth truth;
  const WrittenLog log = write_event_log(config, LogWriteOptions{}, dir.path(), &truth);
  for (const Feature& feature : kFeatures) EXPECT_FALSE(feature.present(truth)) << feature.name;
  for (const StageAttemptTruth& stage : truth.stages) {
    SCOPED_TRACE(stage_name(stage.stage_id, stage.attempt_id));
    EXPECT_EQ(stage.tasks_failed + stage.tasks_killed, 0);
    EXPECT_EQ(model::to_string(stage.status), "COMPLETE");
  }
  expect_model_matches(load(log.path), truth);
}

// ---------------------------------------------------------------------------------------------
// The other presets and shapes

TEST(GeneratedLogPresets, DemoModelEqualsTruth) {
  TempDir dir;
  GroundTruth truth;
  LogWriteOptions options;
  options.codec = io::Codec::kZstd;
  const WrittenLog log = write_event_log(GeneratorConfig::demo(), options, dir.path(), &truth);
  int64_t attempts = 0;
  for (const StageAttemptTruth& stage : truth.stages) attempts += stage.tasks_started;
  EXPECT_GT(attempts, 2500) << "the demo should have a few thousand tasks";
  for (const Feature& feature : kFeatures) EXPECT_TRUE(feature.present(truth)) << feature.name;
  expect_model_matches(load(log.path), truth);
}

TEST(GeneratedLogPresets, ScaledApplicationModelEqualsTruth) {
  GeneratorConfig config = GeneratorConfig::small();
  config.scale = 3;
  TempDir dir;
  GroundTruth truth;
  const WrittenLog log = write_event_log(config, LogWriteOptions{}, dir.path(), &truth);
  GroundTruth once;
  generate(
      GeneratorConfig::small(), [](std::string_view) {}, &once);
  EXPECT_EQ(truth.jobs.size(), 3 * once.jobs.size());
  EXPECT_EQ(truth.sql.size(), 3 * once.sql.size());
  expect_model_matches(load(log.path), truth);
}

TEST(GeneratedLogPresets, BenchmarkIsTheDemoRepeated) {
  const GeneratorConfig benchmark = GeneratorConfig::benchmark(4);
  const GeneratorConfig demo = GeneratorConfig::demo();
  EXPECT_EQ(benchmark.scale, 4);
  EXPECT_EQ(benchmark.seed, demo.seed);
  EXPECT_EQ(benchmark.tasks_per_stage, demo.tasks_per_stage);
  EXPECT_EQ(benchmark.actions, demo.actions);
}

TEST(GeneratedLogPresets, OtherShapesModelEqualsTruth) {
  struct Shape {
    int actions;
    int stages_per_action;
    int tasks_per_stage;
  };
  for (const Shape shape : {Shape{3, 2, 7}, Shape{1, 1, 5}, Shape{11, 4, 9}, Shape{5, 3, 1}}) {
    SCOPED_TRACE("actions " + std::to_string(shape.actions) + ", stages " + std::to_string(shape.stages_per_action) +
                 ", tasks " + std::to_string(shape.tasks_per_stage));
    GeneratorConfig config = GeneratorConfig::small();
    config.actions = shape.actions;
    config.stages_per_action = shape.stages_per_action;
    config.tasks_per_stage = shape.tasks_per_stage;
    TempDir dir;
    GroundTruth truth;
    const WrittenLog log = write_event_log(config, LogWriteOptions{}, dir.path(), &truth);
    expect_model_matches(load(log.path), truth);
  }
}

}  // namespace
}  // namespace sf::loggen

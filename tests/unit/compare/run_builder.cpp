#include "unit/compare/run_builder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "model/load.h"

namespace sf::compare::testing {

namespace {

using sf::testing::PlanNodeSpec;

// The plan as ScenarioLog writes it, with a metric on every node some stage runs; `stage_acc`
// collects each stage's accumulator ids.
PlanNodeSpec plan_spec(const QueryNode& node, int64_t& next_accumulator, std::vector<std::vector<int64_t>>& stage_acc) {
  PlanNodeSpec spec;
  spec.name = node.name;
  spec.simple_string = node.text.empty() ? node.name : node.text;
  if (node.stage >= 0) {
    const int64_t id = next_accumulator++;
    spec.metrics.push_back({"number of output rows", id, "sum"});
    if (stage_acc.size() <= static_cast<size_t>(node.stage)) stage_acc.resize(static_cast<size_t>(node.stage) + 1);
    stage_acc[static_cast<size_t>(node.stage)].push_back(id);
  }
  for (const auto& child : node.children) spec.children.push_back(plan_spec(child, next_accumulator, stage_acc));
  return spec;
}

}  // namespace

RunBuilder::RunBuilder(std::string app_id, std::string app_name) : app_id_(app_id), log_(std::move(app_id)) {
  log_.app_name(std::move(app_name)).start(0).executor("1", "host-1", 4, 0).executor("2", "host-2", 4, 0);
}

RunBuilder& RunBuilder::property(std::string key, std::string value) {
  log_.property(std::move(key), std::move(value));
  return *this;
}

RunBuilder& RunBuilder::spark_version(std::string version) {
  log_.spark_version(std::move(version));
  return *this;
}

sf::testing::StageSpec RunBuilder::stage_spec(const QueryStage& stage, const std::string& call_site,
                                              const std::vector<int64_t>& accumulators) {
  sf::testing::StageSpec spec;
  spec.stage_id = next_stage_++;
  spec.name = stage.name;
  spec.details = stage.call_site.empty() ? "org.apache.spark.sql.Dataset.count(Dataset.scala:3615)\n" + call_site
                                         : stage.call_site;
  spec.submit_ms = now_ms_;
  for (int t = 0; t < stage.tasks; ++t) {
    sf::testing::TaskSpec task;
    task.launch_ms = now_ms_;
    task.duration_ms = stage.run_ms + 10;
    task.run_time_ms = stage.run_ms;
    task.executor_id = t % 2 == 0 ? "1" : "2";
    task.disk_spill_bytes = stage.disk_spill_bytes;
    task.input_bytes = stage.input_bytes;
    task.memory_spill_bytes = stage.disk_spill_bytes * 2;
    for (int64_t id : accumulators) task.accumulables.emplace_back(id, 10);
    spec.tasks.push_back(std::move(task));
  }
  now_ms_ += stage.run_ms + 20;
  spec.complete_ms = now_ms_;
  now_ms_ += 10;
  return spec;
}

RunBuilder& RunBuilder::query(const Query& query) {
  std::vector<std::vector<int64_t>> stage_acc(query.stages.size());
  sf::testing::SqlSpec sql;
  sql.execution_id = next_execution_++;
  sql.description = query.description;
  sql.details = query.call_site;
  sql.start_ms = now_ms_;
  sql.plan = plan_spec(query.plan, next_accumulator_, stage_acc);
  sf::testing::JobSpec job;
  job.job_id = next_job_++;
  job.submit_ms = now_ms_;
  job.sql_execution_id = sql.execution_id;
  for (size_t i = 0; i < query.stages.size(); ++i)
    job.stages.push_back(stage_spec(query.stages[i], query.call_site, stage_acc[i]));
  job.end_ms = now_ms_;
  sql.end_ms = now_ms_;
  now_ms_ += 10;
  log_.sql(std::move(sql));
  log_.job(std::move(job));
  return *this;
}

RunBuilder& RunBuilder::rdd_job(const std::vector<QueryStage>& stages) {
  sf::testing::JobSpec job;
  job.job_id = next_job_++;
  job.submit_ms = now_ms_;
  for (const auto& stage : stages) job.stages.push_back(stage_spec(stage, "com.acme.Job$.main(Job.scala:99)", {}));
  job.end_ms = now_ms_;
  now_ms_ += 10;
  log_.job(std::move(job));
  return *this;
}

RunBuilder& RunBuilder::skip_stage_ids(int64_t n) {
  next_stage_ += n;
  return *this;
}

model::AppModel RunBuilder::load() const {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info == nullptr ? "run" : std::string(info->test_suite_name()) + "-" + info->name();
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  auto log = log_;
  log.finished(now_ms_ + 100);
  const auto dir = std::filesystem::temp_directory_path() / ("sf-compare-" + std::to_string(::getpid())) / name;
  const auto path = log.write(dir);
  auto loaded = model::load_event_log(path.string());
  if (!loaded) {
    ADD_FAILURE() << "cannot load " << path << ": " << loaded.error().message();
    return {};
  }
  std::filesystem::remove(path);
  return std::move(*loaded);
}

QueryNode scan_chain(const std::string& table, const std::string& column, int stage) {
  QueryNode scan{"Scan parquet " + table,
                 "FileScan parquet " + table + "[" + column +
                     "#1,amount#2] Batched: true, Location: InMemoryFileIndex(1 paths)[s3://lake/" + table + "]",
                 stage,
                 {}};
  QueryNode filter{"Filter", "Filter isnotnull(" + column + "#1)", stage, {scan}};
  QueryNode codegen{"WholeStageCodegen (1)", "", -1, {filter}};
  return {"Exchange",
          "Exchange hashpartitioning(" + column + "#1, 200), ENSURE_REQUIREMENTS, [plan_id=7]",
          stage,
          {codegen}};
}

}  // namespace sf::compare::testing

// configAudit: each rule on a log built to trigger it, just short of it, and a clean log that
// triggers none. Findings are informational: no waste figure, a band set by the rule.
#include <gtest/gtest.h>

#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::PlanNodeSpec;
using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using testing::analyze_scenario;

constexpr int64_t kMiB = 1024 * 1024;

// Every threshold a finding names is one `analyze --config` can set.
void expect_registered_thresholds(const Finding& f) {
  for (const std::string& name : f.thresholds) EXPECT_NE(find_threshold(name), nullptr) << name;
}

ScenarioLog cluster(std::string version = "3.5.1", int32_t cores = 4) {
  ScenarioLog log;
  log.spark_version(std::move(version));
  log.start(0).finished(1000000);
  log.executor("1", "host-a", cores, 100).executor("2", "host-b", cores, 100);
  return log;
}

// `n` tasks of 1 s over the 8 cores, each reading and writing the shuffle bytes given.
StageSpec stage(int64_t id, int64_t start, int n = 8, int64_t read_bytes = 0, int64_t write_bytes = 0) {
  StageSpec s;
  s.stage_id = id;
  s.submit_ms = start;
  s.tasks = ScenarioLog::uniform_tasks(n, start, 1000, {"1", "2"}, 4);
  for (auto& task : s.tasks) {
    task.shuffle_read_bytes = read_bytes;
    task.shuffle_write_bytes = write_bytes;
  }
  s.complete_ms = start + (n + 7) / 8 * 1000 + 100;
  return s;
}

PlanNodeSpec scan(std::string table) {
  return {.name = "Scan parquet " + table, .simple_string = "FileScan parquet " + table + "[k#1]"};
}

PlanNodeSpec exchange(PlanNodeSpec child) {
  return {.name = "Exchange",
          .simple_string = "Exchange hashpartitioning(k#1, 200), ENSURE_REQUIREMENTS, [plan_id=7]",
          .children = {std::move(child)}};
}

PlanNodeSpec aggregate_plan() {
  return {.name = "HashAggregate",
          .simple_string = "HashAggregate(keys=[k#1], functions=[count(1)])",
          .children = {exchange(scan("db.t"))}};
}

PlanNodeSpec join_plan() {
  auto side = [](std::string table) {
    return PlanNodeSpec{.name = "Sort",
                        .simple_string = "Sort [k#1 ASC NULLS FIRST], false, 0",
                        .children = {exchange(scan(std::move(table)))}};
  };
  return {.name = "SortMergeJoin",
          .simple_string = "SortMergeJoin [k#1], [k#2], Inner",
          .children = {side("db.a"), side("db.b")}};
}

PlanNodeSpec adaptive(PlanNodeSpec plan) {
  return {.name = "AdaptiveSparkPlan",
          .simple_string = "AdaptiveSparkPlan isFinalPlan=true",
          .children = {std::move(plan)}};
}

// One SQL execution with `plan`, run by one job with one stage.
void add_sql(ScenarioLog& log, PlanNodeSpec plan, StageSpec run = stage(0, 1000)) {
  log.sql({.execution_id = 0, .start_ms = 500, .end_ms = 60000, .plan = std::move(plan)});
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 59000, .sql_execution_id = 0, .stages = {std::move(run)}});
}

std::vector<const Finding*> audit(const testing::Analyzed& result, std::string_view rule = {}) {
  return result.of_type("configAudit", rule);
}

void expect_informational(const Finding& f, std::string_view rule, ImpactBand band = ImpactBand::kLow) {
  EXPECT_EQ(f.type, "configAudit");
  EXPECT_EQ(f.rule, rule);
  EXPECT_EQ(f.id, "configAudit/" + std::string(rule) + "/app");
  EXPECT_EQ(f.scope, Scope::kConfig);
  EXPECT_EQ(f.impact.basis, Basis::kInformational);
  EXPECT_EQ(f.impact.method, EstimateMethod::kNone);
  EXPECT_FALSE(f.impact.raw_waste);
  EXPECT_FALSE(f.impact.wall_clock);
  EXPECT_EQ(f.band, band);
  EXPECT_FALSE(f.recommendation.empty());
  EXPECT_FALSE(f.settings.empty());
  expect_registered_thresholds(f);
}

TEST(ConfigAudit, CleanLogHasNoConfigFindings) {
  auto log = cluster();
  add_sql(log, adaptive(join_plan()), stage(0, 1000, 8, 10 * kMiB, 10 * kMiB));
  auto result = analyze_scenario(log);
  EXPECT_TRUE(audit(result).empty());
}

// A shuffle AQE would have merged: 200 partitions of 1 MiB on 8 cores, 25 s.
StageSpec many_small_partitions() { return stage(0, 1000, 200, kMiB); }

TEST(ConfigAudit, AdaptiveExecutionOffByDefaultOnSpark31) {
  auto log = cluster("3.1.2");
  add_sql(log, aggregate_plan(), many_small_partitions());
  auto result = analyze_scenario(log);
  auto found = audit(result, "adaptiveExecutionOff");
  ASSERT_EQ(found.size(), 1u);
  expect_informational(*found[0], "adaptiveExecutionOff");
  EXPECT_NE(found[0]->explanation.find("is not set, so Spark 3.1's default (false) applied"), std::string::npos);
  EXPECT_NE(found[0]->explanation.find("true since 3.2.0"), std::string::npos);
  EXPECT_EQ(found[0]->settings[0].key, "spark.sql.adaptive.enabled");
  EXPECT_EQ(found[0]->settings[0].suggested_value, "true");
  EXPECT_EQ(found[0]->settings[0].current_value, "");
  EXPECT_EQ(found[0]->confidence, Confidence::kHigh);
  EXPECT_NE(found[0]->explanation.find("AQE would have acted on 1 of their shuffle stages, which ran 25.1s: 1 cut into "
                                       "partitions of under 16.0 MiB at the median, which it merges."),
            std::string::npos)
      << found[0]->explanation;
}

TEST(ConfigAudit, AdaptiveExecutionTurnedOff) {
  auto log = cluster();
  log.property("spark.sql.adaptive.enabled", "false");
  add_sql(log, aggregate_plan(), many_small_partitions());
  auto result = analyze_scenario(log);
  auto found = audit(result, "adaptiveExecutionOff");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0]->explanation.find("is set to false for the application"), std::string::npos);
  EXPECT_EQ(found[0]->settings[0].current_value, "false");
}

TEST(ConfigAudit, AdaptiveExecutionNearMisses) {
  {  // On by default since 3.2: a plan without AQE there is not the configuration's doing.
    auto log = cluster();
    add_sql(log, aggregate_plan());
    EXPECT_TRUE(audit(analyze_scenario(log), "adaptiveExecutionOff").empty());
  }
  {  // Spark 2 has no AQE of this kind.
    auto log = cluster("2.4.8");
    log.property("spark.sql.adaptive.enabled", "false");
    add_sql(log, aggregate_plan());
    EXPECT_TRUE(audit(analyze_scenario(log), "adaptiveExecutionOff").empty());
  }
  {  // Streaming micro-batches never run with AQE.
    auto log = cluster("3.1.2");
    add_sql(log, {.name = "WriteToDataSourceV2",
                  .simple_string = "WriteToDataSourceV2 org.apache.spark.sql.execution.streaming.sources."
                                   "MicroBatchWrite@27fafcca",
                  .children = {aggregate_plan()}});
    EXPECT_TRUE(audit(analyze_scenario(log), "adaptiveExecutionOff").empty());
  }
  {  // No shuffle: nothing for AQE to adapt.
    auto log = cluster("3.1.2");
    add_sql(log, scan("db.t"));
    EXPECT_TRUE(audit(analyze_scenario(log), "adaptiveExecutionOff").empty());
  }
  {  // Off, but its shuffle was 8 partitions of 10 MiB in 1 s: nothing AQE would have changed
     // (the corpus's small rapids test logs).
    auto log = cluster("3.1.2");
    add_sql(log, aggregate_plan(), stage(0, 1000, 8, 10 * kMiB));
    EXPECT_TRUE(audit(analyze_scenario(log), "adaptiveExecutionOff").empty());
  }
  {  // Many small partitions, but 2 s of them: under stage.minDurationMs.
    auto log = cluster("3.1.2");
    add_sql(log, aggregate_plan(), stage(0, 1000, 16, kMiB));
    EXPECT_TRUE(audit(analyze_scenario(log), "adaptiveExecutionOff").empty());
  }
}

TEST(ConfigAudit, CoalescePartitionsOff) {
  auto log = cluster();
  log.property("spark.sql.adaptive.coalescePartitions.enabled", "false");
  add_sql(log, adaptive(aggregate_plan()));
  auto result = analyze_scenario(log);
  auto found = audit(result, "coalescePartitionsOff");
  ASSERT_EQ(found.size(), 1u);
  expect_informational(*found[0], "coalescePartitionsOff");
  EXPECT_NE(found[0]->explanation.find("default is true since Spark 3.0.0"), std::string::npos);
  EXPECT_EQ(found[0]->settings[0].key, "spark.sql.adaptive.coalescePartitions.enabled");
  EXPECT_EQ(found[0]->settings[0].suggested_value, "true");
  EXPECT_EQ(found[0]->settings[0].current_value, "false");
}

TEST(ConfigAudit, CoalescePartitionsOffWithoutShufflesIsNotReported) {
  auto log = cluster();
  log.property("spark.sql.adaptive.coalescePartitions.enabled", "false");
  add_sql(log, adaptive(scan("db.t")));
  EXPECT_TRUE(audit(analyze_scenario(log), "coalescePartitionsOff").empty());
}

TEST(ConfigAudit, SkewJoinOff) {
  auto log = cluster();
  log.property("spark.sql.adaptive.skewJoin.enabled", "false");
  add_sql(log, adaptive(join_plan()));
  auto result = analyze_scenario(log);
  auto found = audit(result, "skewJoinOff");
  ASSERT_EQ(found.size(), 1u);
  expect_informational(*found[0], "skewJoinOff");
  EXPECT_EQ(found[0]->settings[0].key, "spark.sql.adaptive.skewJoin.enabled");
  EXPECT_EQ(found[0]->evidence.at(1).name, "shuffledJoins");
  EXPECT_EQ(found[0]->evidence.at(1).value, 1);
}

TEST(ConfigAudit, SkewJoinOffWithoutShuffledJoinsIsNotReported) {
  auto log = cluster();
  log.property("spark.sql.adaptive.skewJoin.enabled", "false");
  add_sql(log, adaptive(aggregate_plan()));
  EXPECT_TRUE(audit(analyze_scenario(log), "skewJoinOff").empty());
}

TEST(ConfigAudit, DefaultShufflePartitionsWithABigShuffle) {
  auto log = cluster();
  // 200 tasks reading 200 MiB each: 39 GiB in 200 partitions.
  add_sql(log, adaptive(aggregate_plan()), stage(3, 1000, 200, 200 * kMiB));
  auto result = analyze_scenario(log);
  auto found = audit(result, "defaultShufflePartitions");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  expect_registered_thresholds(f);
  expect_informational(f, "defaultShufflePartitions", ImpactBand::kMedium);
  EXPECT_EQ(f.stage_ids(), std::vector<int64_t>{3});
  EXPECT_EQ(f.sql_execution_id, 0);
  // 40,000 MiB / 128 MiB = 313 partitions, rounded up to whole waves of 8 cores: 320.
  EXPECT_EQ(f.settings[0].key, "spark.sql.shuffle.partitions");
  EXPECT_EQ(f.settings[0].suggested_value, "320");
  EXPECT_EQ(f.evidence.at(0).name, "largestShuffleReadBytes");
  EXPECT_EQ(f.evidence.at(0).value, 40000.0 * kMiB);
  EXPECT_EQ(f.evidence.at(2).name, "shuffleBytesPerTask");
  EXPECT_EQ(f.evidence.at(2).value, 200.0 * kMiB);
  EXPECT_EQ(f.thresholds,
            (std::vector<std::string>{"configAudit.defaultPartitionsMinShuffleBytes", "partitionSizing.targetBytes"}));
  EXPECT_EQ(f.confidence, Confidence::kMedium);  // 200 MiB per task is 1.56x the 128 MiB target
}

TEST(ConfigAudit, DefaultShufflePartitionsNearMisses) {
  {  // 128 MiB per partition: not above partitionSizing.targetBytes.
    auto log = cluster();
    add_sql(log, adaptive(aggregate_plan()), stage(3, 1000, 200, 128 * kMiB));
    EXPECT_TRUE(audit(analyze_scenario(log), "defaultShufflePartitions").empty());
  }
  {  // 60 x 170 MiB = 9.96 GiB: under configAudit.defaultPartitionsMinShuffleBytes.
    auto log = cluster();
    add_sql(log, adaptive(aggregate_plan()), stage(3, 1000, 60, 170 * kMiB));
    EXPECT_TRUE(audit(analyze_scenario(log), "defaultShufflePartitions").empty());
  }
  {  // Set to something else: not the default.
    auto log = cluster();
    log.property("spark.sql.shuffle.partitions", "100");
    add_sql(log, adaptive(aggregate_plan()), stage(3, 1000, 100, 400 * kMiB));
    EXPECT_TRUE(audit(analyze_scenario(log), "defaultShufflePartitions").empty());
  }
}

TEST(ConfigAudit, ExecutorCoresHigh) {
  auto log = cluster("3.5.1", 8);
  log.property("spark.master", "spark://master:7077");
  log.property("spark.executor.instances", "4");
  log.property("spark.executor.memory", "16g");
  add_sql(log, adaptive(aggregate_plan()));
  auto result = analyze_scenario(log);
  auto found = audit(result, "executorCoresHigh");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  expect_registered_thresholds(f);
  expect_informational(f, "executorCoresHigh");
  EXPECT_NE(f.title.find("8 tasks at once, more than 5"), std::string::npos);
  // Same cores and memory per core, in executors of 5 cores: 4 x 8 / 5 = 6.4 -> 7, 16g x 5 / 8 = 10g.
  ASSERT_EQ(f.settings.size(), 3u);
  EXPECT_EQ(f.settings[0].key, "spark.executor.cores");
  EXPECT_EQ(f.settings[0].suggested_value, "5");
  EXPECT_EQ(f.settings[1].key, "spark.executor.instances");
  EXPECT_EQ(f.settings[1].suggested_value, "7");
  EXPECT_EQ(f.settings[2].key, "spark.executor.memory");
  EXPECT_EQ(f.settings[2].suggested_value, "10g");
  EXPECT_EQ(f.thresholds, std::vector<std::string>{"configAudit.maxExecutorCores"});
  EXPECT_EQ(f.confidence, Confidence::kMedium);  // 8 is 1.6x the 5 allowed
}

TEST(ConfigAudit, ExecutorCoresNearMisses) {
  {  // 5 cores: at the limit.
    auto log = cluster("3.5.1", 5);
    log.property("spark.master", "spark://master:7077");
    add_sql(log, adaptive(aggregate_plan()));
    EXPECT_TRUE(audit(analyze_scenario(log), "executorCoresHigh").empty());
  }
  {  // GPU executors are sized by cores per GPU.
    auto log = cluster("3.5.1", 16);
    log.property("spark.executor.resource.gpu.amount", "1");
    add_sql(log, adaptive(aggregate_plan()));
    EXPECT_TRUE(audit(analyze_scenario(log), "executorCoresHigh").empty());
  }
  {  // Local mode has no executors to size.
    auto log = cluster("3.5.1", 16);
    log.property("spark.master", "local[16]");
    add_sql(log, adaptive(aggregate_plan()));
    EXPECT_TRUE(audit(analyze_scenario(log), "executorCoresHigh").empty());
  }
}

// Two RDD jobs (no SQL execution): the first writes 8 x `task_write_bytes` of shuffle.
ScenarioLog rdd_app(int64_t task_write_bytes = 160 * kMiB) {
  auto log = cluster();
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 5000, .stages = {stage(0, 1000, 8, 0, task_write_bytes)}});
  log.job({.job_id = 1, .submit_ms = 6000, .end_ms = 9000, .stages = {stage(1, 6000, 8, task_write_bytes)}});
  return log;
}

TEST(ConfigAudit, JavaSerializerInAnRddApp) {
  auto result = analyze_scenario(rdd_app());
  auto found = audit(result, "javaSerializer");
  ASSERT_EQ(found.size(), 1u);
  expect_informational(*found[0], "javaSerializer");
  EXPECT_NE(found[0]->title.find("1.25 GiB of RDD shuffle writes"), std::string::npos);
  EXPECT_EQ(found[0]->thresholds, std::vector<std::string>{"configAudit.serializerMinBytes"});
  EXPECT_NE(found[0]->explanation.find("JavaSerializer"), std::string::npos);
  EXPECT_EQ(found[0]->settings[0].key, "spark.serializer");
  EXPECT_EQ(found[0]->settings[0].suggested_value, "org.apache.spark.serializer.KryoSerializer");
}

TEST(ConfigAudit, JavaSerializerNearMisses) {
  {
    auto log = rdd_app();
    log.property("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
    EXPECT_TRUE(audit(analyze_scenario(log), "javaSerializer").empty());
  }
  {  // Mostly SQL: one RDD job of three.
    auto log = rdd_app();
    log.sql({.execution_id = 0, .start_ms = 9500, .end_ms = 30000, .plan = adaptive(aggregate_plan())});
    log.job({.job_id = 2, .submit_ms = 10000, .end_ms = 12000, .sql_execution_id = 0, .stages = {stage(2, 10000)}});
    log.job({.job_id = 3, .submit_ms = 13000, .end_ms = 15000, .sql_execution_id = 0, .stages = {stage(3, 13000)}});
    log.job({.job_id = 4, .submit_ms = 16000, .end_ms = 18000, .sql_execution_id = 0, .stages = {stage(4, 16000)}});
    EXPECT_TRUE(audit(analyze_scenario(log), "javaSerializer").empty());
  }
  {  // Just under 1 GiB of RDD shuffle (configAudit.serializerMinBytes): too little to matter.
    EXPECT_TRUE(audit(analyze_scenario(rdd_app(128 * kMiB - 1)), "javaSerializer").empty());
  }
}

// Dynamic allocation on YARN without the shuffle service, on a job that shuffles.
ScenarioLog dynamic_allocation(std::string version) {
  auto log = cluster(std::move(version));
  log.property("spark.master", "yarn");
  log.property("spark.dynamicAllocation.enabled", "true");
  add_sql(log, adaptive(aggregate_plan()), stage(0, 1000, 8, 0, 8 * kMiB));
  return log;
}

TEST(ConfigAudit, DynamicAllocationWithoutShuffleService) {
  auto result = analyze_scenario(dynamic_allocation("3.5.1"));
  auto found = audit(result, "dynamicAllocationWithoutShuffleService");
  ASSERT_EQ(found.size(), 1u);
  expect_informational(*found[0], "dynamicAllocationWithoutShuffleService");
  EXPECT_NE(found[0]->explanation.find("on by default since Spark 3.4.0"), std::string::npos);
  ASSERT_EQ(found[0]->settings.size(), 2u);
  EXPECT_EQ(found[0]->settings[0].key, "spark.shuffle.service.enabled");
  EXPECT_EQ(found[0]->settings[0].suggested_value, "true");
  EXPECT_EQ(found[0]->settings[1].key, "spark.dynamicAllocation.shuffleTracking.timeout");
}

TEST(ConfigAudit, DynamicAllocationOnKubernetesSuggestsDecommissioning) {
  auto log = dynamic_allocation("3.5.1");
  log.property("spark.master", "k8s://https://kubernetes:443");
  auto result = analyze_scenario(log);
  auto found = audit(result, "dynamicAllocationWithoutShuffleService");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->settings.at(0).key, "spark.decommission.enabled");
  EXPECT_EQ(found[0]->settings.at(1).key, "spark.storage.decommission.enabled");
}

TEST(ConfigAudit, DynamicAllocationNearMisses) {
  {
    auto log = dynamic_allocation("3.5.1");
    log.property("spark.shuffle.service.enabled", "true");
    EXPECT_TRUE(audit(analyze_scenario(log), "dynamicAllocationWithoutShuffleService").empty());
  }
  {  // Retention bounded on purpose.
    auto log = dynamic_allocation("3.5.1");
    log.property("spark.dynamicAllocation.shuffleTracking.timeout", "30min");
    EXPECT_TRUE(audit(analyze_scenario(log), "dynamicAllocationWithoutShuffleService").empty());
  }
  {  // Before 3.4 shuffle tracking is off by default, and Spark refuses to start without either.
    EXPECT_TRUE(audit(analyze_scenario(dynamic_allocation("3.3.2")), "dynamicAllocationWithoutShuffleService").empty());
  }
}

TEST(ConfigAudit, SpeculationWithPre40Defaults) {
  auto log = cluster();
  log.property("spark.speculation", "true");
  add_sql(log, adaptive(aggregate_plan()));
  auto result = analyze_scenario(log);
  auto found = audit(result, "speculationUntuned");
  ASSERT_EQ(found.size(), 1u);
  expect_informational(*found[0], "speculationUntuned");
  EXPECT_NE(found[0]->explanation.find("1.5 times longer than the median"), std::string::npos);
  ASSERT_EQ(found[0]->settings.size(), 2u);
  EXPECT_EQ(found[0]->settings[0].key, "spark.speculation.multiplier");
  EXPECT_EQ(found[0]->settings[0].suggested_value, "3");
  EXPECT_EQ(found[0]->settings[1].key, "spark.speculation.quantile");
  EXPECT_EQ(found[0]->settings[1].suggested_value, "0.9");
}

TEST(ConfigAudit, SpeculationNearMisses) {
  {
    auto log = cluster();
    log.property("spark.speculation", "true");
    log.property("spark.speculation.multiplier", "2");
    add_sql(log, adaptive(aggregate_plan()));
    EXPECT_TRUE(audit(analyze_scenario(log), "speculationUntuned").empty());
  }
  {  // Spark 4.0's defaults are the conservative ones.
    auto log = cluster("4.0.0");
    log.property("spark.speculation", "true");
    add_sql(log, adaptive(aggregate_plan()));
    EXPECT_TRUE(audit(analyze_scenario(log), "speculationUntuned").empty());
  }
}

}  // namespace
}  // namespace sf::analysis

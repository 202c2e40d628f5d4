// duplicatePlanSubtree, smallFiles, overBroadcast and underBroadcast on logs built to trigger
// them, just under each threshold, and on a clean log. Plan nodes are tied to stages through
// their metrics' accumulator ids, which the stages' tasks report.
#include <gtest/gtest.h>

#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::PlanNodeSpec;
using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using testing::analyze_scenario;

constexpr int64_t kMiB = 1024 * 1024;
constexpr int64_t kGiB = 1024 * kMiB;

// Every threshold a finding names is one `analyze --config` can set.
void expect_registered_thresholds(const Finding& f) {
  for (const std::string& name : f.thresholds) EXPECT_NE(find_threshold(name), nullptr) << name;
}

ScenarioLog cluster() {
  ScenarioLog log;
  log.start(0).finished(1000000);
  log.executor("1", "host-a", 4, 100).executor("2", "host-b", 4, 100);
  return log;
}

// 8 tasks of 10 s in one wave on the 8 cores, the stage's window `window_ms` long: its floor
// (ceiling) is the 10 s task, so window - 10 s is room a fix could recover. Every task reports
// one update of each accumulator, which ties the plan nodes owning them to this stage.
StageSpec stage(int64_t id, int64_t start, int64_t window_ms, const std::vector<int64_t>& accumulators) {
  StageSpec s;
  s.stage_id = id;
  s.submit_ms = start;
  s.complete_ms = start + window_ms;
  s.tasks = ScenarioLog::uniform_tasks(8, start, 10000, {"1", "2"}, 4);
  for (auto& task : s.tasks) {
    for (int64_t accumulator : accumulators) task.accumulables.push_back({accumulator, 1});
  }
  return s;
}

PlanNodeSpec codegen(int id, PlanNodeSpec child) {
  return {.name = "WholeStageCodegen (" + std::to_string(id) + ")",
          .metrics = {{"duration", 9000 + id, "timing"}},
          .children = {PlanNodeSpec{.name = "InputAdapter", .children = {std::move(child)}}}};
}

PlanNodeSpec parquet_scan(std::string table, int64_t rows_accumulator, std::string columns) {
  return {.name = "Scan parquet " + table,
          .simple_string = "FileScan parquet " + table + "[" + columns +
                           "] Batched: true, Format: Parquet, Location: "
                           "InMemoryFileIndex(1 paths)[s3://bucket/" +
                           table + "], ReadSchema: struct<k:int,v:int>",
          .metrics = {{"number of output rows", rows_accumulator}},
          .metadata = {{"Location", "InMemoryFileIndex(1 paths)[s3://bucket/" + table + "]"},
                       {"ReadSchema", "struct<k:int,v:int>"}}};
}

// The same filtered scan of db.t, with its own expression ids and accumulators: the part a
// self-join computes twice. Project > Filter > Scan is three operators.
PlanNodeSpec filtered_t(int ids, int64_t accumulators, std::string project) {
  const std::string k = "k#" + std::to_string(ids);
  const std::string v = "v#" + std::to_string(ids + 1);
  return {.name = "Project",
          .simple_string = project.empty() ? "Project [" + k + ", " + v + "]" : project,
          .children = {{.name = "Filter",
                        .simple_string = "Filter (isnotnull(" + v + ") AND (" + v + " > 10))",
                        .metrics = {{"number of output rows", accumulators}},
                        .children = {parquet_scan("db.t", accumulators + 1, k + "," + v)}}}};
}

PlanNodeSpec shuffle(std::string partitioning, int64_t size_accumulator, PlanNodeSpec child) {
  return {.name = "Exchange",
          .simple_string =
              "Exchange " + partitioning + ", ENSURE_REQUIREMENTS, [plan_id=" + std::to_string(size_accumulator) + "]",
          .metrics = {{"data size", size_accumulator, "size"}},
          .children = {std::move(child)}};
}

// t joined with itself on different keys: the exchanges differ, so Spark cannot reuse one, and
// Project > Filter > Scan db.t runs once per side. Left side in stage 0, right in stage 1, the
// join in stage 2; each of stages 0 and 1 has a 40 s window.
ScenarioLog self_join(std::string right_project = "") {
  auto log = cluster();
  PlanNodeSpec join{
      .name = "SortMergeJoin",
      .simple_string = "SortMergeJoin [k#1], [v#12], Inner",
      .metrics = {{"number of output rows", 100}},
      .children = {
          {.name = "Sort",
           .simple_string = "Sort [k#1 ASC NULLS FIRST], false, 0",
           .children = {shuffle("hashpartitioning(k#1, 200)", 102, codegen(1, filtered_t(1, 103, "")))}},
          {.name = "Sort",
           .simple_string = "Sort [v#12 ASC NULLS FIRST], false, 0",
           .children = {shuffle("hashpartitioning(v#12, 200)", 112, codegen(2, filtered_t(11, 113, right_project)))}}}};
  log.sql({.execution_id = 0, .description = "self join", .start_ms = 500, .end_ms = 95000, .plan = codegen(3, join)});
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 91000,
           .sql_execution_id = 0,
           .stages = {stage(0, 1000, 40000, {103, 104}), stage(1, 41000, 40000, {113, 114}),
                      stage(2, 81000, 10000, {100})}});
  return log;
}

TEST(SqlPlans, CleanLogHasNoPlanFindings) {
  auto log = cluster();
  PlanNodeSpec plan{.name = "HashAggregate",
                    .simple_string = "HashAggregate(keys=[k#1], functions=[count(1)])",
                    .metrics = {{"number of output rows", 10}},
                    .children = {shuffle("hashpartitioning(k#1, 200)", 11,
                                         {.name = "Scan parquet db.t",
                                          .metrics = {{"number of files read", 12},
                                                      {"size of files read", 13, "size"},
                                                      {"number of output rows", 14}}})}};
  log.sql({.execution_id = 0,
           .start_ms = 500,
           .end_ms = 60000,
           .plan = plan,
           .driver_accum_updates = {{12, 40}, {13, 40 * 256 * kMiB}}});
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 51000,
           .sql_execution_id = 0,
           .stages = {stage(0, 1000, 40000, {14}), stage(1, 41000, 10000, {10})}});
  auto result = analyze_scenario(log);
  for (const char* type : {"duplicatePlanSubtree", "smallFiles", "overBroadcast", "underBroadcast"}) {
    EXPECT_TRUE(result.of_type(type).empty()) << type;
  }
}

TEST(SqlPlans, DuplicatePlanSubtreeInASelfJoin) {
  auto result = analyze_scenario(self_join());
  auto found = result.of_type("duplicatePlanSubtree");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  expect_registered_thresholds(f);
  // Preorder: 0 codegen, 1 input adapter, 2 join, 3 sort, 4 exchange, 5 codegen, 6 adapter, 7 project.
  EXPECT_EQ(f.id, "duplicatePlanSubtree//sql-0.node-7");
  EXPECT_EQ(f.scope, Scope::kSql);
  EXPECT_EQ(f.sql_execution_id, 0);
  // The Filter and Scan of each copy report in stages 0 and 1; the join's stage 2 is not theirs.
  EXPECT_EQ(f.stage_ids(), (std::vector<int64_t>{0, 1}));
  EXPECT_NE(f.title.find("3-operator subtree (Project > Filter > Scan parquet db.t)"), std::string::npos);
  EXPECT_NE(f.explanation.find("appears 2 times"), std::string::npos);
  EXPECT_NE(f.recommendation.find("spark.sql.exchange.reuse"), std::string::npos);
  EXPECT_EQ(f.thresholds, std::vector<std::string>{"duplicatePlanSubtree.minNodes"});
  EXPECT_EQ(f.confidence, Confidence::kLow);  // 3 operators against a minimum of 3
  // Two 40 s stages, half of each redundant: 40 s. Each stage's room is 40 s - 10 s.
  EXPECT_EQ(f.impact.method, EstimateMethod::kMeasured);
  ASSERT_TRUE(f.impact.raw_waste);
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, 40000);
  EXPECT_EQ(f.impact.raw_waste->unit, WasteUnit::kMs);
  ASSERT_TRUE(f.impact.wall_clock);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->low_ms, 40000);
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->high_ms, 40000);
  auto evidence = [&](std::string_view name) {
    for (const auto& e : f.evidence) {
      if (e.name == name) return e.value;
    }
    ADD_FAILURE() << "no evidence " << name;
    return -1.0;
  };
  EXPECT_EQ(evidence("occurrences"), 2);
  EXPECT_EQ(evidence("subtreeOperators"), 3);
  EXPECT_EQ(evidence("stageTimeMs"), 80000);
  EXPECT_EQ(evidence("redundantFraction"), 0.5);
}

TEST(SqlPlans, DuplicateBelowMinNodesIsNotReported) {
  // The right side projects its columns the other way round: only Filter > Scan repeats.
  auto result = analyze_scenario(self_join("Project [v#12, k#11]"));
  EXPECT_TRUE(result.of_type("duplicatePlanSubtree").empty());
}

TEST(SqlPlans, DuplicateWithoutAccumulatorEvidenceFallsBackToTheExecutionsStages) {
  // The self-join again, but no task reports the metrics of the repeated operators.
  auto log = cluster();
  PlanNodeSpec join{.name = "SortMergeJoin",
                    .simple_string = "SortMergeJoin [k#1], [v#12], Inner",
                    .children = {shuffle("hashpartitioning(k#1, 200)", 102, filtered_t(1, 103, "")),
                                 shuffle("hashpartitioning(v#12, 200)", 112, filtered_t(11, 113, ""))}};
  log.sql({.execution_id = 0, .start_ms = 500, .end_ms = 95000, .plan = join});
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 91000,
           .sql_execution_id = 0,
           .stages = {stage(0, 1000, 40000, {}), stage(1, 41000, 40000, {}), stage(2, 81000, 10000, {})}});
  auto result = analyze_scenario(log);
  auto found = result.of_type("duplicatePlanSubtree");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  expect_registered_thresholds(f);
  EXPECT_EQ(f.id, "duplicatePlanSubtree//sql-0.node-2");
  EXPECT_EQ(f.stage_ids(), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(f.confidence, Confidence::kLow);
  EXPECT_NE(f.validation_caveat.find("all the execution's stages"), std::string::npos);
  // Half of (40 + 40 + 10) s. Stage 2's 10 s window is all floor (its 10 s tasks): it recovers
  // nothing, stages 0 and 1 recover their 20 s each.
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, 45000);
  ASSERT_TRUE(f.impact.wall_clock);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->high_ms, 40000);
}

TEST(SqlPlans, ReusedExchangeIsNotADuplicate) {
  auto log = cluster();
  // A union of the same exchange twice: Spark reused it, and the reused copy lists the original
  // (same accumulators) under a ReusedExchange.
  PlanNodeSpec original = shuffle("hashpartitioning(k#1, 200)", 102, filtered_t(1, 103, ""));
  PlanNodeSpec plan{.name = "Union",
                    .children = {original,
                                 {.name = "ReusedExchange",
                                  .simple_string = "ReusedExchange [k#21, v#22], Exchange hashpartitioning(k#1, 200)",
                                  .children = {original}}}};
  log.sql({.execution_id = 0, .start_ms = 500, .end_ms = 60000, .plan = plan});
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 51000,
           .sql_execution_id = 0,
           .stages = {stage(0, 1000, 40000, {102, 103, 104}), stage(1, 41000, 10000, {})}});
  auto result = analyze_scenario(log);
  EXPECT_TRUE(result.of_type("duplicatePlanSubtree").empty());
}

// A scan of `files` files holding `bytes`, reported by the driver; its rows by stage 0's tasks.
ScenarioLog scan_of(int64_t files, int64_t bytes, bool with_job = true) {
  auto log = cluster();
  PlanNodeSpec plan{.name = "HashAggregate",
                    .simple_string = "HashAggregate(keys=[], functions=[count(1)])",
                    .children = {{.name = "Scan parquet db.events",
                                  .simple_string = "FileScan parquet db.events[k#1] Batched: true",
                                  .metrics = {{"number of files read", 201},
                                              {"size of files read", 202, "size"},
                                              {"metadata time", 203, "timing"},
                                              {"number of output rows", 204}},
                                  .metadata = {{"Location", "InMemoryFileIndex(1 paths)[s3://bucket/events]"}}}}};
  log.sql({.execution_id = 1,
           .start_ms = 500,
           .end_ms = 60000,
           .plan = plan,
           .driver_accum_updates = {{201, files}, {202, bytes}, {203, 2500}}});
  if (with_job) {
    log.job({.job_id = 0,
             .submit_ms = 1000,
             .end_ms = 51000,
             .sql_execution_id = 1,
             .stages = {stage(0, 1000, 40000, {204})}});
  }
  return log;
}

TEST(SqlPlans, SmallFiles) {
  auto result = analyze_scenario(scan_of(2000, 2000 * kMiB));
  auto found = result.of_type("smallFiles");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  expect_registered_thresholds(f);
  EXPECT_EQ(f.id, "smallFiles//sql-1.node-1");
  EXPECT_EQ(f.sql_execution_id, 1);
  EXPECT_EQ(f.stage_ids(), std::vector<int64_t>{0});
  EXPECT_NE(f.title.find("2,000 files of 1.00 MiB on average"), std::string::npos);
  EXPECT_NE(f.explanation.find("took 2.5s on the driver"), std::string::npos);
  EXPECT_NE(f.recommendation.find("OPTIMIZE"), std::string::npos);
  ASSERT_EQ(f.settings.size(), 2u);
  EXPECT_EQ(f.settings[0].key, "spark.sql.files.maxPartitionBytes");
  EXPECT_EQ(f.settings[1].key, "spark.sql.files.openCostInBytes");
  EXPECT_EQ(f.thresholds, (std::vector<std::string>{"smallFiles.maxAvgBytes", "smallFiles.minFiles",
                                                    "smallFiles.targetBytes", "impact.fileOpenOverheadMs"}));
  // 2,000 MiB fits in ceil(2000 / 128) = 16 files of 128 MiB: 1,984 extra opens of 10 ms.
  EXPECT_EQ(f.impact.method, EstimateMethod::kModeled);
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, 19840);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->high_ms, 19840);
  EXPECT_EQ(f.confidence, Confidence::kHigh);  // 1 MiB against 32 MiB, 2,000 files against 100
}

TEST(SqlPlans, SmallFilesWithNoStageIsCostOnly) {
  auto result = analyze_scenario(scan_of(2000, 2000 * kMiB, /*with_job=*/false));
  auto found = result.of_type("smallFiles");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(found[0]->stages.empty());
  EXPECT_EQ(found[0]->impact.basis, Basis::kResourceOnly);
  EXPECT_FALSE(found[0]->impact.wall_clock);
  EXPECT_DOUBLE_EQ(found[0]->impact.raw_waste->value, 19840);
  EXPECT_EQ(found[0]->impact.raw_waste->unit, WasteUnit::kMs);
}

TEST(SqlPlans, SmallFilesNearMisses) {
  // 99 files: below smallFiles.minFiles.
  EXPECT_TRUE(analyze_scenario(scan_of(99, 99 * kMiB)).of_type("smallFiles").empty());
  // 32 MiB per file: not below smallFiles.maxAvgBytes.
  EXPECT_TRUE(analyze_scenario(scan_of(2000, 2000 * 32 * kMiB)).of_type("smallFiles").empty());
}

// A broadcast hash join whose BroadcastExchange collected `bytes`; the exchange's metrics are
// driver-side, as Spark reports them, so no stage carries them.
ScenarioLog broadcast_of(int64_t bytes) {
  auto log = cluster();
  PlanNodeSpec plan{
      .name = "BroadcastHashJoin",
      .simple_string = "BroadcastHashJoin [k#1], [k#2], Inner, BuildRight, false",
      .children = {parquet_scan("db.facts", 300, "k#1"),
                   {.name = "BroadcastExchange",
                    .simple_string = "BroadcastExchange HashedRelationBroadcastMode(List(input[0, int, false])), "
                                     "[plan_id=9]",
                    .metrics = {{"data size", 301, "size"},
                                {"time to collect", 302, "timing"},
                                {"time to build", 303, "timing"},
                                {"time to broadcast", 304, "timing"}},
                    .children = {parquet_scan("db.dim", 305, "k#2")}}}};
  log.sql({.execution_id = 2,
           .start_ms = 500,
           .end_ms = 60000,
           .plan = plan,
           .driver_accum_updates = {{301, bytes}, {302, 60000}, {303, 30000}, {304, 90000}}});
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 51000,
           .sql_execution_id = 2,
           .stages = {stage(0, 1000, 40000, {300, 305})}});
  return log;
}

TEST(SqlPlans, OverBroadcast) {
  auto result = analyze_scenario(broadcast_of(kGiB));
  auto found = result.of_type("overBroadcast");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  expect_registered_thresholds(f);
  EXPECT_EQ(f.id, "overBroadcast//sql-2.node-2");
  // The exchange has no task-side metric: the execution's stages stand in.
  EXPECT_EQ(f.stage_ids(), std::vector<int64_t>{0});
  EXPECT_NE(f.validation_caveat.find("all the execution's stages"), std::string::npos);
  EXPECT_NE(f.title.find("1.00 GiB broadcast"), std::string::npos);
  // Above the default 10 MiB threshold it was not the threshold: a hint or a wrong estimate.
  EXPECT_NE(f.explanation.find("the default 10 MiB, below this size"), std::string::npos);
  EXPECT_NE(f.recommendation.find("broadcast hint"), std::string::npos);
  // Kept, it needs twice the 180 s it took.
  ASSERT_EQ(f.settings.size(), 1u);
  EXPECT_EQ(f.settings[0].key, "spark.sql.broadcastTimeout");
  EXPECT_EQ(f.settings[0].suggested_value, "360");
  EXPECT_EQ(f.thresholds, (std::vector<std::string>{"broadcast.overMaxBytes", "impact.broadcastBandwidthBytesPerSec"}));
  // 1 GiB at 125 MB/s.
  const double expected = 1073741824.0 / 125e6 * 1000.0;
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, expected);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->high_ms, expected);
  EXPECT_EQ(f.confidence, Confidence::kMedium);  // 1 GiB is 2x the 512 MiB threshold
}

TEST(SqlPlans, OverBroadcastAllowedByARaisedThreshold) {
  auto log = broadcast_of(kGiB);
  log.property("spark.sql.autoBroadcastJoinThreshold", "2g");
  auto result = analyze_scenario(log);
  auto found = result.of_type("overBroadcast");
  ASSERT_EQ(found.size(), 1u);
  ASSERT_EQ(found[0]->settings.size(), 2u);
  EXPECT_EQ(found[0]->settings[0].key, "spark.sql.autoBroadcastJoinThreshold");
  EXPECT_EQ(found[0]->settings[0].suggested_value, "512m");
  EXPECT_EQ(found[0]->settings[0].current_value, "2g");
}

TEST(SqlPlans, OverBroadcastNearMiss) {
  EXPECT_TRUE(analyze_scenario(broadcast_of(512 * kMiB - 1)).of_type("overBroadcast").empty());
}

// A sort-merge join of a `left`-byte input and a `right`-byte input, each shuffled in its own
// stage; the join runs in stage 2 (a 10 s window over 5 s tasks).
// With `adaptive`, the plan is AQE's final plan: each exchange sits in a query stage read
// through an AQEShuffleRead.
ScenarioLog sort_merge_join(int64_t left, int64_t right, std::string type = "Inner", bool adaptive = false) {
  auto log = cluster();
  auto side = [adaptive](std::string key, int64_t accumulator, PlanNodeSpec scan) {
    PlanNodeSpec exchange = shuffle("hashpartitioning(" + key + ", 200)", accumulator, std::move(scan));
    if (adaptive) {
      exchange = {.name = "InputAdapter",
                  .children = {{.name = "AQEShuffleRead",
                                .simple_string = "AQEShuffleRead coalesced",
                                .children = {{.name = "ShuffleQueryStage",
                                              .simple_string = "ShuffleQueryStage " + std::to_string(accumulator),
                                              .children = {std::move(exchange)}}}}}};
    }
    return PlanNodeSpec{.name = "Sort",
                        .simple_string = "Sort [" + key + " ASC NULLS FIRST], false, 0",
                        .children = {std::move(exchange)}};
  };
  PlanNodeSpec plan{.name = "SortMergeJoin",
                    .simple_string = "SortMergeJoin [k#1], [k#2], " + type,
                    .metrics = {{"number of output rows", 400}},
                    .children = {side("k#1", 401, parquet_scan("db.small", 403, "k#1")),
                                 side("k#2", 402, parquet_scan("db.big", 404, "k#2"))}};
  if (adaptive) {
    plan = {.name = "AdaptiveSparkPlan", .simple_string = "AdaptiveSparkPlan isFinalPlan=true", .children = {plan}};
  }
  log.sql({.execution_id = 3, .start_ms = 500, .end_ms = 95000, .plan = plan});
  StageSpec join = stage(2, 81000, 10000, {400});
  for (auto& task : join.tasks) task.duration_ms = 5000;
  StageSpec small = stage(0, 1000, 40000, {403});
  small.accumulables = {{403, 8}, {401, left}};
  StageSpec big = stage(1, 41000, 40000, {404});
  big.accumulables = {{404, 8}, {402, right}};
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 91000, .sql_execution_id = 3, .stages = {small, big, join}});
  return log;
}

TEST(SqlPlans, UnderBroadcast) {
  auto result = analyze_scenario(sort_merge_join(50 * kMiB, 5 * kGiB));
  auto found = result.of_type("underBroadcast");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  expect_registered_thresholds(f);
  EXPECT_EQ(f.id, "underBroadcast//sql-3.node-0");
  EXPECT_EQ(f.sql_execution_id, 3);
  EXPECT_EQ(f.stage_ids(), std::vector<int64_t>{2});  // the join's own stage
  EXPECT_NE(f.title.find("left side is only 50.0 MiB"), std::string::npos);
  EXPECT_NE(f.explanation.find("spark.sql.autoBroadcastJoinThreshold is the default 10 MiB"), std::string::npos);
  // 50 MiB plus 20%, rounded up to a MiB.
  ASSERT_EQ(f.settings.size(), 1u);
  EXPECT_EQ(f.settings[0].key, "spark.sql.autoBroadcastJoinThreshold");
  EXPECT_EQ(f.settings[0].suggested_value, "60m");
  const double expected = 50.0 * kMiB / 125e6 * 1000.0;
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, expected);
  EXPECT_EQ(f.impact.method, EstimateMethod::kModeled);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->high_ms, expected);
  EXPECT_EQ(f.thresholds,
            (std::vector<std::string>{"broadcast.underMaxBytes", "impact.broadcastBandwidthBytesPerSec"}));
}

TEST(SqlPlans, UnderBroadcastInAnAdaptivePlan) {
  auto result = analyze_scenario(sort_merge_join(50 * kMiB, 5 * kGiB, "Inner", /*adaptive=*/true));
  auto found = result.of_type("underBroadcast");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->id, "underBroadcast//sql-3.node-1");
  EXPECT_EQ(found[0]->stage_ids(), std::vector<int64_t>{2});
  EXPECT_DOUBLE_EQ(found[0]->impact.raw_waste->value, 50.0 * kMiB / 125e6 * 1000.0);
}

TEST(SqlPlans, UnderBroadcastNearMisses) {
  // Just over broadcast.underMaxBytes.
  EXPECT_TRUE(analyze_scenario(sort_merge_join(100 * kMiB + 1, 5 * kGiB)).of_type("underBroadcast").empty());
  // A left outer join keeps every left row: its left side cannot be the broadcast one.
  EXPECT_TRUE(analyze_scenario(sort_merge_join(50 * kMiB, 5 * kGiB, "LeftOuter")).of_type("underBroadcast").empty());
  // At the broadcast threshold the planner, not the size, kept it from broadcasting.
  auto log = sort_merge_join(50 * kMiB, 5 * kGiB);
  log.property("spark.sql.autoBroadcastJoinThreshold", "50m");
  EXPECT_TRUE(analyze_scenario(log).of_type("underBroadcast").empty());
}

TEST(SqlPlans, UnderBroadcastWithBroadcastsTurnedOff) {
  auto log = sort_merge_join(5 * kGiB, 2 * kMiB, "LeftOuter");
  log.property("spark.sql.autoBroadcastJoinThreshold", "-1");
  auto result = analyze_scenario(log);
  auto found = result.of_type("underBroadcast");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0]->title.find("right side is only 2.00 MiB"), std::string::npos);
  EXPECT_EQ(found[0]->settings[0].suggested_value, "3m");
  EXPECT_EQ(found[0]->settings[0].current_value, "-1");
  EXPECT_EQ(found[0]->confidence, Confidence::kLow);
  EXPECT_NE(found[0]->validation_caveat.find("turned off on purpose"), std::string::npos);
}

}  // namespace
}  // namespace sf::analysis

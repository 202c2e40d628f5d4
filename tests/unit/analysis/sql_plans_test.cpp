// duplicatePlanSubtree, smallFiles, overBroadcast, underBroadcast and pythonUdf on logs built to
// trigger them, just under each threshold, and on a clean log; and the plan readers they share
// (metrics stage by stage, the stages of a pipeline). Plan nodes are tied to stages through their
// metrics' accumulator ids, which the stages' tasks report.
//
// Figures are worked by hand in the comments. The usual stage: 8 tasks of 10 s on the 8 cores in
// one wave, each running 9,990 ms (79,920 ms of run time), so its floor (ceiling) is the 10 s
// task; a fix that removes work W from it recovers W / 8 of wall-clock, within its window less
// the post-fix floor 10 s x (1 - W / 79,920).
#include <gtest/gtest.h>

#include "analysis/detectors/plan_text.h"
#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::PlanMetricSpec;
using sf::testing::PlanNodeSpec;
using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using testing::analyze_scenario;
using namespace testing::finding_readers;

constexpr int64_t kMiB = 1024 * 1024;
constexpr int64_t kGiB = 1024 * kMiB;
constexpr double kStageRunMs = 8 * 9990;  // the usual stage's executor run time

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

TEST(PlanText, ReadableTextDropsTheIdsNormalizingEmpties) {
  const std::string text = "Exchange hashpartitioning(customer_id#12L, name#7, 200), ENSURE_REQUIREMENTS, [plan_id=80]";
  EXPECT_EQ(normalized_plan_text(text),
            "Exchange hashpartitioning(customer_id#L, name#, 200), ENSURE_REQUIREMENTS, [plan_id=]");
  EXPECT_EQ(readable_plan_text(text), "Exchange hashpartitioning(customer_id, name, 200), ENSURE_REQUIREMENTS");
  // Spark 3.0-3.3 tagged exchanges with [id=#42].
  EXPECT_EQ(readable_plan_text("Exchange RoundRobinPartitioning(2), REPARTITION_WITH_NUM, [id=#42]"),
            "Exchange RoundRobinPartitioning(2), REPARTITION_WITH_NUM");
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
  // Half the work of the two copies' stages is redundant: 79,920 ms of task time, 39,960 per
  // stage, which over its 8 tasks at once is 4,995 ms of each stage (post-fix floor 5 s: room).
  // Not the stages' 40 s windows: they held only 10 s of work each.
  EXPECT_EQ(f.impact.method, EstimateMethod::kMeasured);
  ASSERT_TRUE(f.impact.raw_waste);
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, kStageRunMs);
  EXPECT_EQ(f.impact.raw_waste->unit, WasteUnit::kCoreMs);
  ASSERT_TRUE(f.impact.wall_clock);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->low_ms, 9990);
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->high_ms, 9990);
  EXPECT_EQ(evidence_of(f, "occurrences"), 2);
  EXPECT_EQ(evidence_of(f, "subtreeOperators"), 3);
  EXPECT_EQ(evidence_of(f, "stageTaskTimeMs"), 2 * kStageRunMs);
  EXPECT_EQ(evidence_of(f, "redundantFraction"), 0.5);
  EXPECT_EQ(evidence_of(f, "redundantTaskTimeMs"), kStageRunMs);
}

TEST(SqlPlans, DuplicateSumsWorkNotQueueInflatedWindows) {
  // The two copies' stages were submitted together: stage 1's tasks waited for stage 0's to
  // free the 8 cores, so both windows are 20 s though each held 10 s of work. Computing the
  // subtree once saves one copy's work: 10 s, not half of 40 s of windows.
  ScenarioLog timed = cluster();
  PlanNodeSpec join{
      .name = "SortMergeJoin",
      .simple_string = "SortMergeJoin [k#1], [v#12], Inner",
      .metrics = {{"number of output rows", 100}},
      .children = {{.name = "Sort",
                    .simple_string = "Sort [k#1 ASC NULLS FIRST], false, 0",
                    .children = {shuffle("hashpartitioning(k#1, 200)", 102, codegen(1, filtered_t(1, 103, "")))}},
                   {.name = "Sort",
                    .simple_string = "Sort [v#12 ASC NULLS FIRST], false, 0",
                    .children = {shuffle("hashpartitioning(v#12, 200)", 112, codegen(2, filtered_t(11, 113, "")))}}}};
  timed.sql({.execution_id = 0, .start_ms = 500, .end_ms = 40000, .plan = codegen(3, join)});
  StageSpec first = stage(0, 1000, 20000, {103, 104});
  StageSpec second = stage(1, 1000, 20000, {});
  second.tasks = ScenarioLog::uniform_tasks(8, 11000, 10000, {"1", "2"}, 4);
  for (auto& task : second.tasks) task.accumulables = {{113, 1}, {114, 1}};
  timed.job({.job_id = 0,
             .submit_ms = 1000,
             .end_ms = 31000,
             .sql_execution_id = 0,
             .stages = {first, second, stage(2, 21000, 10000, {100})}});
  auto result = analyze_scenario(timed);
  auto found = result.of_type("duplicatePlanSubtree");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_DOUBLE_EQ(raw_of(f), kStageRunMs);
  // 4,995 ms from each stage; they shared the cores (gate 0.5), so the floor is half of it.
  EXPECT_EQ(f.impact.basis, Basis::kContended);
  EXPECT_DOUBLE_EQ(high_of(f), 9990);
  EXPECT_NEAR(low_of(f), 4995, 1);
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
  // Half the work of all three stages: 3 x 39,960 ms of task time, 4,995 ms of each stage. Stage
  // 2's 10 s window is all floor before the fix, but half its work goes and its floor with it.
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, 1.5 * kStageRunMs);
  ASSERT_TRUE(f.impact.wall_clock);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->high_ms, 3 * 4995);
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

// The shape of Spark's runtime bloom filter (spark.sql.optimizer.runtime.bloomFilter.enabled, a
// selective join): the filtered dimension is read in the join and again in a subquery that
// aggregates its keys into a bloom filter, which a Filter on the fact side probes. With
// `aggregate` other than a bloom filter, the same shape is a scalar subquery the query wrote.
ScenarioLog runtime_filter_join(const std::string& aggregate) {
  auto log = cluster();
  auto dims = [](int64_t accumulators) {
    return PlanNodeSpec{
        .name = "Project",
        .simple_string = "Project [k#8L]",
        .children = {{.name = "Filter",
                      .simple_string = "Filter ((isnotnull(grp#9L) AND (grp#9L = 7)) AND isnotnull(k#8L))",
                      .metrics = {{"number of output rows", accumulators}},
                      .children = {{.name = "Scan parquet ",
                                    .simple_string = "FileScan parquet [k#8L,grp#9L] Batched: true, Location: "
                                                     "InMemoryFileIndex(1 paths)[file:/data/dims]",
                                    .metrics = {{"number of output rows", accumulators + 1}}}}}}};
  };
  PlanNodeSpec subquery{
      .name = "Subquery",
      .simple_string = "Subquery subquery#19, [id=#78]",
      .metrics = {{"data size", 600, "size"}},
      .children = {{.name = "AdaptiveSparkPlan",
                    .simple_string = "AdaptiveSparkPlan isFinalPlan=true",
                    .children = {{.name = "ObjectHashAggregate",
                                  .simple_string = "ObjectHashAggregate(keys=[], functions=[" + aggregate + "])",
                                  .metrics = {{"number of output rows", 601}},
                                  .children = {shuffle("SinglePartition", 602, dims(603))}}}}}};
  PlanNodeSpec facts{.name = "Filter",
                     .simple_string =
                         "Filter (isnotnull(k#6L) AND might_contain(Subquery subquery#19, [id=#78], "
                         "xxhash64(k#6L, 42)))",
                     .metrics = {{"number of output rows", 610}},
                     .children = {{.name = "Scan parquet ",
                                   .simple_string = "FileScan parquet [k#6L,v#7L] Batched: true, Location: "
                                                    "InMemoryFileIndex(1 paths)[file:/data/facts]",
                                   .metrics = {{"number of output rows", 611}}},
                                  subquery}};
  PlanNodeSpec join{.name = "SortMergeJoin",
                    .simple_string = "SortMergeJoin [k#6L], [k#8L], Inner",
                    .metrics = {{"number of output rows", 620}},
                    .children = {{.name = "Sort",
                                  .simple_string = "Sort [k#6L ASC NULLS FIRST], false, 0",
                                  .children = {shuffle("hashpartitioning(k#6L, 200)", 621, facts)}},
                                 {.name = "Sort",
                                  .simple_string = "Sort [k#8L ASC NULLS FIRST], false, 0",
                                  .children = {shuffle("hashpartitioning(k#8L, 200)", 622, dims(623))}}}};
  log.sql({.execution_id = 0, .start_ms = 500, .end_ms = 170000, .plan = join});
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 41000,
           .sql_execution_id = 0,
           .stages = {stage(0, 1000, 40000, {603, 604})}});
  log.job({.job_id = 1,
           .submit_ms = 41000,
           .end_ms = 161000,
           .sql_execution_id = 0,
           .stages = {stage(1, 41000, 40000, {610, 611}), stage(2, 81000, 40000, {623, 624}),
                      stage(3, 121000, 40000, {620})}});
  return log;
}

TEST(SqlPlans, SparksRuntimeBloomFilterIsNotADuplicate) {
  EXPECT_TRUE(analyze_scenario(runtime_filter_join("bloom_filter_agg(xxhash64(k#8L, 42), 1000000, 8388608, 0, 0)"))
                  .of_type("duplicatePlanSubtree")
                  .empty());
}

TEST(SqlPlans, AScalarSubqueryOverTheSameRowsIsADuplicate) {
  // The same shape with the query's own aggregate: the filtered dimension is read twice.
  auto result = analyze_scenario(runtime_filter_join("max(k#8L)"));
  auto found = result.of_type("duplicatePlanSubtree");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0]->title.find("Project > Filter > Scan parquet"), std::string::npos);
  EXPECT_EQ(found[0]->stage_ids(), (std::vector<int64_t>{0, 2}));
}

// A scan of `files` files holding `bytes`, reported by the driver; its rows by stage 0's tasks,
// and with `scan_time_ms` its task-side "scan time" (a columnar scan's).
ScenarioLog scan_of(int64_t files, int64_t bytes, bool with_job = true, int64_t scan_time_ms = 0) {
  auto log = cluster();
  PlanNodeSpec plan{.name = "HashAggregate",
                    .simple_string = "HashAggregate(keys=[], functions=[count(1)])",
                    .children = {{.name = "Scan parquet db.events",
                                  .simple_string = "FileScan parquet db.events[k#1] Batched: true",
                                  .metrics = {{"number of files read", 201},
                                              {"size of files read", 202, "size"},
                                              {"metadata time", 203, "timing"},
                                              {"number of output rows", 204},
                                              {"scan time", 205, "timing"}},
                                  .metadata = {{"Location", "InMemoryFileIndex(1 paths)[s3://bucket/events]"}}}}};
  log.sql({.execution_id = 1,
           .start_ms = 500,
           .end_ms = 60000,
           .plan = plan,
           .driver_accum_updates = {{201, files}, {202, bytes}, {203, 2500}}});
  if (with_job) {
    StageSpec scan = stage(0, 1000, 40000, {204});
    if (scan_time_ms > 0) scan.accumulables = {{204, 8}, {205, scan_time_ms}};
    log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 51000, .sql_execution_id = 1, .stages = {scan}});
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
  // The packing settings are named in the text, but suggest no value: nothing to set.
  EXPECT_NE(f.recommendation.find("spark.sql.files.maxPartitionBytes"), std::string::npos);
  EXPECT_TRUE(f.settings.empty());
  EXPECT_EQ(f.thresholds, (std::vector<std::string>{"smallFiles.maxAvgBytes", "smallFiles.minFiles",
                                                    "smallFiles.targetBytes", "impact.fileOpenOverheadMs"}));
  // 2,000 MiB fits in ceil(2000 / 128) = 16 files of 128 MiB: 1,984 extra opens of 10 ms of
  // task time, 19,840 ms, within the stage's 79,920 ms of run time; over its 8 tasks at once
  // 2,480 ms of wall-clock.
  EXPECT_EQ(f.impact.method, EstimateMethod::kModeled);
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, 19840);
  EXPECT_EQ(f.impact.raw_waste->unit, WasteUnit::kCoreMs);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->high_ms, 2480);
  EXPECT_NE(f.explanation.find("about 2.5s of wall-clock"), std::string::npos);
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
  EXPECT_EQ(found[0]->impact.raw_waste->unit, WasteUnit::kCoreMs);
}

TEST(SqlPlans, SmallFilesCannotCostMoreThanTheScanTook) {
  // The scan measured 8 s of scan time: the 19,840 ms of modeled opens are held to it, 1 s of
  // wall-clock over the 8 tasks.
  auto result = analyze_scenario(scan_of(2000, 2000 * kMiB, true, 8000));
  auto found = result.of_type("smallFiles");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_DOUBLE_EQ(raw_of(*found[0]), 8000);
  EXPECT_DOUBLE_EQ(high_of(*found[0]), 1000);
  EXPECT_EQ(evidence_of(*found[0], "modeledOpenTaskMs"), 19840);
  EXPECT_NE(found[0]->explanation.find("held to the 8.0s the scan took (its scan time)"), std::string::npos);
}

// Databricks Photon scans name their metrics their own way: "files read", and their scan time
// as "cumulative time" in nanoseconds, reported by the tasks. The same 2,000 files of 1 MiB and
// 8 s of scan time (8e9 ns) as above give the same finding, held to the same 8 s.
TEST(SqlPlans, SmallFilesOnAPhotonScan) {
  auto log = cluster();
  PlanNodeSpec plan{.name = "PhotonAgg",
                    .simple_string = "PhotonAgg(keys=[], functions=[partial_count(1)])",
                    .children = {{.name = "PhotonScan parquet ",
                                  .simple_string = "PhotonScan parquet [k#1] DataFilters: [], Format: parquet",
                                  .metrics = {{"files read", 201},
                                              {"size of files read", 202, "size"},
                                              {"number of output rows", 204},
                                              {"cumulative time", 205, "nsTiming"}},
                                  .metadata = {{"Location", "PreparedDeltaFileIndex(1 paths)[s3://bucket/events]"}}}}};
  log.sql({.execution_id = 1, .start_ms = 500, .end_ms = 60000, .plan = plan});
  StageSpec scan = stage(0, 1000, 40000, {204});
  scan.accumulables = {{201, 2000}, {202, 2000 * kMiB}, {204, 8}, {205, int64_t{8000} * 1000 * 1000}};
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 51000, .sql_execution_id = 1, .stages = {scan}});
  auto result = analyze_scenario(log);
  auto found = result.of_type("smallFiles");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0]->title.find("2,000 files of 1.00 MiB on average"), std::string::npos) << found[0]->title;
  EXPECT_EQ(found[0]->stage_ids(), std::vector<int64_t>{0});
  EXPECT_DOUBLE_EQ(raw_of(*found[0]), 8000);
  EXPECT_DOUBLE_EQ(high_of(*found[0]), 1000);
  EXPECT_NE(found[0]->explanation.find("its scan time"), std::string::npos) << found[0]->explanation;
}

TEST(SqlPlans, SmallFilesNearMisses) {
  // 99 files: below smallFiles.minFiles.
  EXPECT_TRUE(analyze_scenario(scan_of(99, 99 * kMiB)).of_type("smallFiles").empty());
  // 32 MiB per file: not below smallFiles.maxAvgBytes.
  EXPECT_TRUE(analyze_scenario(scan_of(2000, 2000 * 32 * kMiB)).of_type("smallFiles").empty());
}

// A broadcast hash join whose BroadcastExchange collected `bytes`; the exchange's metrics are
// driver-side, as Spark reports them, so no stage carries them.
ScenarioLog broadcast_of(int64_t bytes, bool timed = true) {
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
           .driver_accum_updates =
               timed ? std::vector<std::pair<int64_t, int64_t>>{{301, bytes}, {302, 60000}, {303, 30000}, {304, 90000}}
                     : std::vector<std::pair<int64_t, int64_t>>{{301, bytes}}});
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
  // Spark measured 30 s building and 90 s broadcasting it, which a shuffle join skips: 120 s,
  // within the 30 s of room of stage 0 (40 s window, 10 s floor).
  EXPECT_EQ(f.thresholds, std::vector<std::string>{"broadcast.overMaxBytes"});
  EXPECT_EQ(f.impact.method, EstimateMethod::kMeasured);
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, 120000);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->high_ms, 30000);
  EXPECT_NE(f.explanation.find("skip the building and broadcasting: 2m 00s"), std::string::npos);
  EXPECT_EQ(f.confidence, Confidence::kMedium);  // 1 GiB is 2x the 512 MiB threshold
}

TEST(SqlPlans, OverBroadcastWithoutSparksTimingsIsModeled) {
  auto result = analyze_scenario(broadcast_of(kGiB, /*timed=*/false));
  auto found = result.of_type("overBroadcast");
  ASSERT_EQ(found.size(), 1u);
  // 1 GiB at the modeled 125 MB/s.
  const double expected = 1073741824.0 / 125e6 * 1000.0;
  EXPECT_EQ(found[0]->impact.method, EstimateMethod::kModeled);
  EXPECT_DOUBLE_EQ(raw_of(*found[0]), expected);
  EXPECT_DOUBLE_EQ(high_of(*found[0]), expected);
  EXPECT_TRUE(names_threshold(*found[0], "impact.broadcastBandwidthBytesPerSec"));
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
// With `join_evidence` false, no task reports the join's metric, so nothing ties it to a stage.
// With `retried_left`, the left side's map stage failed once after writing 30 MiB and its second
// attempt completed the 50 MiB: Spark logs the running total, 30 MiB then 50 MiB.
ScenarioLog sort_merge_join(int64_t left, int64_t right, std::string type = "Inner", bool adaptive = false,
                            bool join_evidence = true, bool retried_left = false) {
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
  StageSpec join = stage(2, 81000, 10000, join_evidence ? std::vector<int64_t>{400} : std::vector<int64_t>{});
  for (auto& task : join.tasks) task.duration_ms = 5000;
  StageSpec small = stage(0, 1000, 40000, {403});
  small.accumulables = {{403, 8}, {401, left}};
  StageSpec big = stage(1, 41000, 40000, {404});
  big.accumulables = {{404, 8}, {402, right}};
  std::vector<StageSpec> stages = {small, big, join};
  if (retried_left) {
    StageSpec failed = stage(0, 1000, 20000, {403});
    failed.failure_reason = "FetchFailed";
    failed.accumulables = {{403, 4}, {401, 30 * kMiB}};
    stages[0] = stage(0, 21000, 20000, {403});
    stages[0].attempt_id = 1;
    stages[0].accumulables = {{403, 8}, {401, left}};
    stages.insert(stages.begin(), failed);
  }
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 91000, .sql_execution_id = 3, .stages = stages});
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
  // No shuffle or sort timings in this log, but the join's own stage goes with a broadcast: its
  // 8 tasks ran 4,990 ms each, 39,920 ms of task time, 4,990 ms over the 8 at once, less the
  // 10 ms a task is launched and run in (stage_reshape.h: what is left of a stage is never 0).
  EXPECT_EQ(f.impact.method, EstimateMethod::kMeasured);
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, 8 * 4990);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->high_ms, 4980);
  EXPECT_EQ(f.thresholds, std::vector<std::string>{"broadcast.underMaxBytes"});
}

TEST(SqlPlans, UnderBroadcastWithNothingMeasuredIsModeled) {
  // No timing and no stage of the join's own: the larger input's 5 GiB at the modeled 125 MB/s
  // (42.9 s), spread over the execution's stages by duration and clipped at each one's room.
  auto result = analyze_scenario(sort_merge_join(50 * kMiB, 5 * kGiB, "Inner", false, /*join_evidence=*/false));
  auto found = result.of_type("underBroadcast");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_EQ(f.stage_ids(), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(f.impact.method, EstimateMethod::kModeled);
  EXPECT_DOUBLE_EQ(raw_of(f), 5.0 * kGiB / 125e6 * 1000.0);
  EXPECT_NE(f.explanation.find("no shuffle or sort timings"), std::string::npos);
  EXPECT_NE(f.validation_caveat.find("all the execution's stages"), std::string::npos);
  EXPECT_EQ(f.thresholds, (std::vector<std::string>{"broadcast.underMaxBytes", "impact.shuffleThroughputBytesPerSec"}));
}

// The same join as Spark 3+ times it: the larger input's exchange writes its shuffle in stage 1
// (16 s of task time) and stage 2 waits 8 s fetching it; the sorts take 1 s and 24 s and spill
// 2 GiB in memory, 1 GiB on disk (the tasks' own count). With `another_join`, stage 2 also ran a
// second sort-merge join above this one, so its run time is not this join's alone.
ScenarioLog timed_sort_merge_join(bool another_join = false) {
  auto log = cluster();
  auto side = [](std::string key, int64_t size, int64_t sort_time, int64_t spill, std::vector<PlanMetricSpec> more,
                 PlanNodeSpec scan) {
    PlanNodeSpec exchange = shuffle("hashpartitioning(" + key + ", 200)", size, std::move(scan));
    exchange.metrics.insert(exchange.metrics.end(), more.begin(), more.end());
    return PlanNodeSpec{.name = "Sort",
                        .simple_string = "Sort [" + key + " ASC NULLS FIRST], false, 0",
                        .metrics = {{"sort time", sort_time, "timing"}, {"spill size", spill, "size"}},
                        .children = {std::move(exchange)}};
  };
  PlanNodeSpec join{.name = "SortMergeJoin",
                    .simple_string = "SortMergeJoin [k#1], [k#2], Inner",
                    .metrics = {{"number of output rows", 400}, {"spill size", 411, "size"}},
                    .children = {side("k#1", 401, 407, 408, {}, parquet_scan("db.small", 403, "k#1")),
                                 side("k#2", 402, 409, 410,
                                      {{"shuffle write time", 405, "nsTiming"}, {"fetch wait time", 406, "timing"}},
                                      parquet_scan("db.big", 404, "k#2"))}};
  PlanNodeSpec plan = join;
  if (another_join) {
    plan = {
        .name = "SortMergeJoin",
        .simple_string = "SortMergeJoin [k#1], [k#3], Inner",
        .metrics = {{"number of output rows", 420}},
        .children = {{.name = "Sort", .simple_string = "Sort [k#1 ASC NULLS FIRST], false, 0", .children = {join}},
                     {.name = "Sort",
                      .simple_string = "Sort [k#3 ASC NULLS FIRST], false, 0",
                      .children = {shuffle("hashpartitioning(k#3, 200)", 421, parquet_scan("db.other", 422, "k#3"))}}}};
  }
  log.sql({.execution_id = 3, .start_ms = 500, .end_ms = 125000, .plan = plan});
  StageSpec small = stage(0, 1000, 40000, {403});
  small.accumulables = {{403, 8}, {401, 50 * kMiB}};
  StageSpec big = stage(1, 41000, 40000, {404});
  big.accumulables = {{404, 8}, {402, 5 * kGiB}, {405, 16'000'000'000}};
  StageSpec joined = stage(2, 81000, 40000, {400, 420});
  joined.accumulables = {{400, 8}, {406, 8000}, {407, 1000}, {409, 24000}, {410, 2 * kGiB}};
  if (another_join) joined.accumulables.push_back({420, 8});
  for (auto& task : joined.tasks) {
    task.memory_spill_bytes = 256 * kMiB;
    task.disk_spill_bytes = 128 * kMiB;
  }
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 121000, .sql_execution_id = 3, .stages = {small, big, joined}});
  return log;
}

TEST(SqlPlans, UnderBroadcastFromWhatTheStagesMeasured) {
  auto result = analyze_scenario(timed_sort_merge_join());
  auto found = result.of_type("underBroadcast");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  expect_registered_thresholds(f);
  // The larger input's map stage and the join's stage: both change with the fix.
  EXPECT_EQ(f.stage_ids(), (std::vector<int64_t>{1, 2}));
  // Stage 1 writes no shuffle: 16 s of task time, 2 s over its 8 tasks. Stage 2 goes whole (it
  // writes no shuffle of its own): 79,920 ms, 9,990 ms over its 8 tasks, its floor gone with it.
  EXPECT_EQ(f.impact.method, EstimateMethod::kMeasured);
  EXPECT_DOUBLE_EQ(raw_of(f), 16000 + kStageRunMs);
  EXPECT_EQ(f.impact.raw_waste->unit, WasteUnit::kCoreMs);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(high_of(f), 2000 + 9980);  // the join stage keeps its 10 ms of launch (stage_reshape.h)
  EXPECT_EQ(evidence_of(f, "mapShuffleWriteTaskMs"), 16000);
  EXPECT_EQ(evidence_of(f, "joinStageTaskMs"), kStageRunMs);
  // The join's own operators, the lower bound: 8 s fetching, 25 s sorting, and the 1 GiB spilled.
  EXPECT_EQ(evidence_of(f, "fetchWaitTaskMs"), 8000);
  EXPECT_EQ(evidence_of(f, "sortTaskMs"), 25000);
  EXPECT_EQ(evidence_of(f, "spillDiskBytes"), static_cast<double>(kGiB));
  EXPECT_NE(f.validation_caveat.find("upper bound"), std::string::npos);
  EXPECT_FALSE(names_threshold(f, "impact.shuffleThroughputBytesPerSec"));
}

TEST(SqlPlans, UnderBroadcastInAStageOfSeveralJoinsCountsOnlyItsOwnOperators) {
  auto result = analyze_scenario(timed_sort_merge_join(/*another_join=*/true));
  auto found = result.of_type("underBroadcast");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  // Stage 2: 8 s fetching + 25 s sorting + 1 GiB of spill at the modeled 200 MB/s (5,368.7 ms):
  // 38,368.7 ms of task time, 4,796.1 ms over 8 tasks. Stage 1: 2 s as before.
  const double spill_ms = static_cast<double>(kGiB) / 200e6 * 1000.0;
  EXPECT_EQ(f.impact.method, EstimateMethod::kModeled);
  EXPECT_NEAR(raw_of(f), 16000 + 33000 + spill_ms, 1e-6);
  EXPECT_NEAR(high_of(f), 2000 + (33000 + spill_ms) / 8, 1e-6);
  EXPECT_TRUE(names_threshold(f, "impact.spillIoThroughputBytesPerSec"));
}

TEST(SqlPlans, UnderBroadcastInAnAdaptivePlan) {
  auto result = analyze_scenario(sort_merge_join(50 * kMiB, 5 * kGiB, "Inner", /*adaptive=*/true));
  auto found = result.of_type("underBroadcast");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->id, "underBroadcast//sql-3.node-1");
  EXPECT_EQ(found[0]->stage_ids(), std::vector<int64_t>{2});
  EXPECT_DOUBLE_EQ(found[0]->impact.raw_waste->value, 8 * 4990);
  // Adaptive execution decides again at run time with its own key, which falls back to the
  // planner's: both are raised.
  EXPECT_EQ(suggested(*found[0], "spark.sql.autoBroadcastJoinThreshold"), "60m");
  EXPECT_EQ(suggested(*found[0], "spark.sql.adaptive.autoBroadcastJoinThreshold"), "60m");
}

TEST(SqlPlans, UnderBroadcastSizesARetriedStageOnce) {
  // 30 MiB logged by the failed attempt, 50 MiB (the running total) by the one that completed:
  // the side carried 50 MiB, not their 80 MiB sum.
  auto result = analyze_scenario(sort_merge_join(50 * kMiB, 5 * kGiB, "Inner", false, true, /*retried_left=*/true));
  auto found = result.of_type("underBroadcast");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(evidence_of(*found[0], "smallerSideBytes"), 50.0 * kMiB);
  EXPECT_EQ(suggested(*found[0], "spark.sql.autoBroadcastJoinThreshold"), "60m");
}

TEST(SqlPlans, UnderBroadcastLeavesAKeyThatAlreadyAllowsTheSide) {
  // The planner's key allows 100 MiB; only adaptive execution's own key kept the side out.
  auto log = sort_merge_join(50 * kMiB, 5 * kGiB, "Inner", /*adaptive=*/true);
  log.property("spark.sql.autoBroadcastJoinThreshold", "100m");
  log.property("spark.sql.adaptive.autoBroadcastJoinThreshold", "10m");
  auto result = analyze_scenario(log);
  auto found = result.of_type("underBroadcast");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(suggested(*found[0], "spark.sql.autoBroadcastJoinThreshold"), "<absent>");
  EXPECT_EQ(suggested(*found[0], "spark.sql.adaptive.autoBroadcastJoinThreshold"), "60m");
  EXPECT_EQ(current(*found[0], "spark.sql.adaptive.autoBroadcastJoinThreshold"), "10m");
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

// ---------------------------------------------------------------------------------------------
// The plan readers the detectors share

// Photon's operators play Spark's roles under names of their own: a shuffle is a sink (map side)
// and a source (reduce side), both ending a stage's pipeline; a stage's Photon part is wrapped as
// WholeStageCodegen wraps Spark's.
TEST(PlanText, PhotonOperatorsPlaySparksRoles) {
  const auto node = [](std::string name) { return model::PlanNode{.node_name = std::move(name)}; };
  EXPECT_TRUE(is_source_scan(node("PhotonScan parquet ")));
  EXPECT_TRUE(is_source_scan(node("Scan parquet db.t")));
  EXPECT_TRUE(is_source_scan(node("GpuScan parquet db.t")));
  EXPECT_FALSE(is_source_scan(node("Scan ExistingRDD")));
  EXPECT_TRUE(is_shuffle_exchange(node("PhotonShuffleExchangeSink")));
  EXPECT_FALSE(is_shuffle_exchange(node("PhotonShuffleExchangeSource")));
  EXPECT_FALSE(is_shuffle_exchange(node("PhotonBroadcastExchange")));
  EXPECT_TRUE(is_pipeline_boundary(node("PhotonShuffleExchangeSink")));
  EXPECT_TRUE(is_pipeline_boundary(node("PhotonShuffleExchangeSource")));
  EXPECT_TRUE(is_shuffled_join(node("PhotonShuffledHashJoin")));
  EXPECT_TRUE(is_shuffled_join(node("PhotonShuffleHashJoin")));
  EXPECT_FALSE(is_shuffled_join(node("PhotonBroadcastHashJoin")));
  EXPECT_TRUE(is_photon_stage(node("PhotonShuffleMapStage")));
  EXPECT_TRUE(is_photon_stage(node("PhotonResultStage")));
  EXPECT_FALSE(is_photon_stage(node("PhotonProject")));
}

TEST(PlanText, MetricPartsByStageUndoSparksRunningTotals) {
  // Spark logs a stage's accumulable as the accumulator's running total: 100 after stage 0, 250
  // after stage 1 (which completed later), so stage 1's own part is 150. A nanosecond timing is
  // read in ms.
  model::AppModel app;
  auto stage = [](int64_t id, int64_t completed, std::vector<model::Accumulable> accumulables) {
    model::StageAttempt s;
    s.stage_id = id;
    s.completion_time_ms = completed;
    s.accumulables = std::move(accumulables);
    return s;
  };
  app.stages = {stage(0, 1000, {{.id = 7, .value = "100"}, {.id = 8, .value = "3000000"}}),
                stage(1, 2000, {{.id = 7, .value = "250"}})};
  model::PlanNode node;
  node.metrics = {{.name = "fetch wait time", .accumulator_id = 7, .metric_type = "timing"},
                  {.name = "shuffle write time", .accumulator_id = 8, .metric_type = "nsTiming"}};
  node.stage_ids = {0, 1};  // as the model's plan attribution sets them: the stages carrying its metrics
  const auto fetch = metric_parts_by_stage(app, node, {"fetch wait time"});
  ASSERT_EQ(fetch.size(), 2u);
  EXPECT_EQ(fetch[0].stage, &app.stages[0]);
  EXPECT_DOUBLE_EQ(fetch[0].value, 100);
  EXPECT_EQ(fetch[1].stage, &app.stages[1]);
  EXPECT_DOUBLE_EQ(fetch[1].value, 150);
  const auto write = metric_parts_by_stage(app, node, {"shuffle write time"});
  ASSERT_EQ(write.size(), 1u);
  EXPECT_DOUBLE_EQ(write[0].value, 3);
  EXPECT_TRUE(metric_parts_by_stage(app, node, {"sort time"}).empty());
}

TEST(PlanText, APipelinesStagesStopAtExchanges) {
  // Exchange > Project > BatchEvalPython > Scan: the Python node has no metric of its own; the
  // scan below it ran in stage 3, the exchange above it in stages 3 (writing) and 4 (reading).
  model::PlanTree tree;
  auto node = [](int32_t id, std::string name, std::vector<int32_t> children, std::vector<int64_t> stages) {
    model::PlanNode n;
    n.node_id = id;
    n.node_name = std::move(name);
    n.children = std::move(children);
    n.stage_ids = std::move(stages);
    return n;
  };
  tree.nodes = {node(0, "Exchange", {1}, {3, 4}), node(1, "Project", {2}, {}), node(2, "BatchEvalPython", {3}, {}),
                node(3, "Scan parquet db.t", {}, {3})};
  EXPECT_EQ(pipeline_stage_ids(tree, 2), std::vector<int64_t>{3});
  EXPECT_EQ(pipeline_stage_ids(tree, 0), (std::vector<int64_t>{3, 4}));  // its own evidence
}

// ---------------------------------------------------------------------------------------------
// pythonUdf

struct PythonLog {
  std::string spark_version = "3.5.1";
  std::string node_name = "BatchEvalPython";
  std::string function = "to_upper";
  bool metrics = true;        // Spark 4.1+ times the Python workers on the node
  int64_t python_ms = 60000;  // time to run Python workers
  int64_t start_ms = 2000;
  int64_t init_ms = 3000;
  int64_t function_ms = 20000;
  std::vector<std::pair<std::string, std::string>> properties;
};

// WholeStageCodegen > HashAggregate > Project > BatchEvalPython [f(name)] > Scan, all in stage 0
// (the usual 8 tasks of 10 s, in a 12 s window).
ScenarioLog python_log(const PythonLog& spec) {
  auto log = cluster();
  log.spark_version(spec.spark_version);
  for (const auto& [key, value] : spec.properties) log.property(key, value);
  PlanNodeSpec python{.name = spec.node_name,
                      .simple_string = spec.node_name + " [" + spec.function + "(name#1)#2], [pythonUDF0#7]",
                      .children = {codegen(1, parquet_scan("db.people", 513, "name#1"))}};
  if (spec.metrics) {
    python.metrics = {{"time to run Python workers", 501, "timing"},
                      {"time to start Python workers", 502, "timing"},
                      {"time to initialize Python workers", 503, "timing"},
                      {"time to execute Python code", 504, "timing"},
                      {"data sent to Python workers", 505, "size"},
                      {"data returned from Python workers", 506, "size"},
                      {"number of output rows", 507}};
  }
  PlanNodeSpec plan{.name = "HashAggregate",
                    .simple_string = "HashAggregate(keys=[u#3], functions=[partial_count(1)])",
                    .metrics = {{"number of output rows", 511}},
                    .children = {{.name = "Project",
                                  .simple_string = "Project [pythonUDF0#7 AS u#3]",
                                  .children = {{.name = "InputAdapter", .children = {python}}}}}};
  log.sql({.execution_id = 0, .start_ms = 500, .end_ms = 14000, .plan = codegen(2, plan)});
  StageSpec s = stage(0, 1000, 12000, {511, 513});
  for (auto& task : s.tasks) task.cpu_time_ns = 5'000'000'000;  // 4,990 ms of each task off the CPU
  if (spec.metrics) {
    s.accumulables = {{511, 8},
                      {513, 8},
                      {501, spec.python_ms},
                      {502, spec.start_ms},
                      {503, spec.init_ms},
                      {504, spec.function_ms},
                      {505, 1'000'000},
                      {506, 800'000}};
  }
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 13000, .sql_execution_id = 0, .stages = {s}});
  return log;
}

const Finding* only_python_udf(const testing::Analyzed& result) {
  auto found = result.of_type("pythonUdf");
  EXPECT_EQ(found.size(), 1u);
  return found.empty() ? nullptr : found[0];
}

TEST(PythonUdf, ABuiltinDoesItInTheJvm) {
  auto result = analyze_scenario(python_log({}));
  const Finding* f = only_python_udf(result);
  ASSERT_NE(f, nullptr);
  expect_registered_thresholds(*f);
  EXPECT_EQ(f->id, "pythonUdf/builtinExists/sql-0.node-5");
  EXPECT_EQ(f->rule, "builtinExists");
  EXPECT_EQ(f->stage_ids(), std::vector<int64_t>{0});
  EXPECT_NE(f->recommendation.find("pyspark.sql.functions.upper"), std::string::npos);
  EXPECT_NE(f->validation_caveat.find("inferred from the function's name (to_upper)"), std::string::npos);
  EXPECT_TRUE(f->settings.empty());
  // A builtin removes all 60 s the tasks spent in Python workers: 7.5 s over the 8 tasks, within
  // the 12 s window less its post-fix floor (10 s x (1 - 60,000 / 79,920)).
  EXPECT_EQ(f->impact.method, EstimateMethod::kMeasured);
  EXPECT_DOUBLE_EQ(raw_of(*f), 60000);
  EXPECT_EQ(f->impact.raw_waste->unit, WasteUnit::kCoreMs);
  EXPECT_EQ(f->impact.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(high_of(*f), 7500);
  EXPECT_EQ(evidence_of(*f, "pythonTimeMs"), 60000);
  EXPECT_EQ(evidence_of(*f, "pythonFunctionMs"), 20000);
  EXPECT_EQ(evidence_of(*f, "bytesSentToPython"), 1'000'000);
  EXPECT_NE(f->explanation.find("Spark measured 1m 00s in its Python workers (2.0s of it starting them and 3.0s "
                                "initializing them), 20.0s executing the function; the rest, 35.0s, is rows moving"),
            std::string::npos);
}

TEST(PythonUdf, BuiltinsAreReadFromTheFunctionsName) {
  for (const auto& [function, builtin] : std::vector<std::pair<std::string, std::string>>{
           {"upperCase", "upper"}, {"strip_udf", "trim"}, {"py_len", "length"}, {"regexp_replace", "regexp_replace"}}) {
    auto result = analyze_scenario(python_log({.function = function}));
    const Finding* f = only_python_udf(result);
    ASSERT_NE(f, nullptr) << function;
    EXPECT_EQ(f->rule, "builtinExists") << function;
    EXPECT_NE(f->recommendation.find("pyspark.sql.functions." + builtin), std::string::npos) << function;
  }
  for (const std::string function : {"<lambda>", "normalize_phone", "fiscal_year", "upper_and_trim"}) {
    auto result = analyze_scenario(python_log({.function = function}));
    const Finding* f = only_python_udf(result);
    ASSERT_NE(f, nullptr) << function;
    EXPECT_EQ(f->rule, "rowAtATime") << function;
  }
}

TEST(PythonUdf, ArrowBatchesSaveTheMovingOfRows) {
  // No builtin: Arrow batches cut what is neither starting workers, initializing them nor the
  // function: 60 - 2 - 3 - 20 = 35 s of task time, 4,375 ms over the 8 tasks. Spark 3.5 has
  // Arrow-optimized UDFs, off by default.
  auto result = analyze_scenario(python_log({.function = "score_customer"}));
  const Finding* f = only_python_udf(result);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rule, "rowAtATime");
  EXPECT_EQ(f->impact.method, EstimateMethod::kMeasured);
  EXPECT_DOUBLE_EQ(raw_of(*f), 35000);
  EXPECT_DOUBLE_EQ(high_of(*f), 4375);
  EXPECT_EQ(suggested(*f, "spark.sql.execution.pythonUDF.arrow.enabled"), "true");
  EXPECT_EQ(current(*f, "spark.sql.execution.pythonUDF.arrow.enabled"), "");
  EXPECT_NE(f->recommendation.find("useArrow=True"), std::string::npos);
}

TEST(PythonUdf, PhasesThatDoNotAddUpAreNotSubtracted) {
  // Starting, initializing and running the function sum past the workers' total (Spark times
  // them on both sides of the pipe): the moving of rows is not known, so Arrow's saving is the
  // modeled 40% of the 60 s.
  auto result = analyze_scenario(python_log({.function = "score_customer", .start_ms = 20000, .init_ms = 25000}));
  const Finding* f = only_python_udf(result);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->impact.method, EstimateMethod::kModeled);
  EXPECT_DOUBLE_EQ(raw_of(*f), 60000 * 0.4);
  EXPECT_EQ(f->explanation.find("the rest,"), std::string::npos);
}

TEST(PythonUdf, TheAdviceFollowsTheSparkVersion) {
  {
    // Spark 4.2 turned Arrow on by default: a pickled UDF there fell back (no pyarrow) or opted out.
    auto result = analyze_scenario(python_log({.spark_version = "4.2.0", .function = "score_customer"}));
    const Finding* f = only_python_udf(result);
    ASSERT_NE(f, nullptr);
    EXPECT_TRUE(f->settings.empty());
    EXPECT_NE(f->recommendation.find("Install pyarrow and pandas"), std::string::npos);
  }
  {
    auto result =
        analyze_scenario(python_log({.spark_version = "4.2.0",
                                     .function = "score_customer",
                                     .properties = {{"spark.sql.execution.pythonUDF.arrow.enabled", "false"}}}));
    const Finding* f = only_python_udf(result);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(suggested(*f, "spark.sql.execution.pythonUDF.arrow.enabled"), "true");
    EXPECT_EQ(current(*f, "spark.sql.execution.pythonUDF.arrow.enabled"), "false");
  }
  {
    // Before 3.5 there is no Arrow-optimized UDF: a pandas UDF is the vectorized form.
    auto result = analyze_scenario(python_log({.spark_version = "3.4.1", .function = "score_customer"}));
    const Finding* f = only_python_udf(result);
    ASSERT_NE(f, nullptr);
    EXPECT_TRUE(f->settings.empty());
    EXPECT_NE(f->recommendation.find("pandas_udf"), std::string::npos);
  }
}

TEST(PythonUdf, WithoutPythonMetricsTheTimeIsTheStagesOffCpuTime) {
  // Spark 3.1 puts no metric on the Python node; its stage is found through the scan and the
  // codegen stage around it. Each task ran 9,990 ms with 5,000 ms on the CPU: 39,920 ms off it.
  // The saving of Arrow batches is then modeled at 40% of that: 15,968 ms, 1,996 ms over 8 tasks.
  auto result =
      analyze_scenario(python_log({.spark_version = "3.1.1", .function = "score_customer", .metrics = false}));
  const Finding* f = only_python_udf(result);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->stage_ids(), std::vector<int64_t>{0});
  EXPECT_EQ(evidence_of(*f, "pythonTimeMs"), 39920);
  EXPECT_EQ(f->impact.method, EstimateMethod::kModeled);
  EXPECT_DOUBLE_EQ(raw_of(*f), 39920 * 0.4);
  EXPECT_DOUBLE_EQ(high_of(*f), 39920 * 0.4 / 8);
  EXPECT_TRUE(names_threshold(*f, "pythonUdf.arrowSavingShare"));
  EXPECT_NE(f->validation_caveat.find("estimated from the stages' off-CPU time"), std::string::npos);
  EXPECT_NE(f->recommendation.find("pandas_udf"), std::string::npos);
}

TEST(PythonUdf, AVectorizedUdfWithNoBuiltinSaysWhereTheTimeWent) {
  auto result = analyze_scenario(python_log({.node_name = "ArrowEvalPython", .function = "score_customer"}));
  const Finding* f = only_python_udf(result);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rule, "vectorized");
  EXPECT_EQ(f->impact.basis, Basis::kInformational);
  EXPECT_FALSE(f->impact.wall_clock);
  EXPECT_EQ(evidence_of(*f, "pythonTimeMs"), 60000);
  // 7.5 s of the stage's wall-clock in Python of a 1,000 s application: low.
  EXPECT_EQ(f->band, ImpactBand::kLow);
}

TEST(PythonUdf, NearMisses) {
  // 5 s of 79.9 s of run time in Python workers: under pythonUdf.minOutsideShare (10%).
  EXPECT_TRUE(analyze_scenario(python_log({.python_ms = 5000})).of_type("pythonUdf").empty());
  // With pythonUdf.minOutsideMs above the 60 s the tasks spent in Python, nothing either.
  Thresholds high_floor;
  high_floor.python_udf_min_outside_ms = 60001;
  EXPECT_TRUE(analyze_scenario(python_log({}), high_floor).of_type("pythonUdf").empty());
}

}  // namespace
}  // namespace sf::analysis

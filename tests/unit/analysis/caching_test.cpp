// cachingOpportunity and cacheUtilization on logs built to trigger them, just under each
// threshold, and on a clean log. A subtree computed again is a measured wall-clock claim; input
// read again and a cache that did not fit are cost-only (a re-read cost in ms); a cache read once
// is informational.
#include <gtest/gtest.h>

#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::PlanNodeSpec;
using sf::testing::RddSpec;
using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using testing::analyze_scenario;
using namespace testing::finding_readers;

constexpr int64_t kMiB = 1024 * 1024;

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

// 8 tasks of 10 s on the 8 cores; each reports one update of every accumulator given.
StageSpec stage(int64_t id, int64_t start, const std::vector<int64_t>& accumulators = {}) {
  StageSpec s;
  s.stage_id = id;
  s.name = "stage " + std::to_string(id);
  s.submit_ms = start;
  s.complete_ms = start + 20000;
  s.tasks = ScenarioLog::uniform_tasks(8, start, 10000, {"1", "2"}, 4);
  for (auto& task : s.tasks) {
    for (int64_t accumulator : accumulators) task.accumulables.push_back({accumulator, 1});
  }
  return s;
}

// A scan of s3://bucket/sales with its own expression ids and accumulators: `filter` is the
// data filter, `bytes` what it read (driver-side "size of files read").
PlanNodeSpec sales_scan(int ids, int64_t accumulators, std::string filter = "isnotnull(amount#") {
  const std::string amount = "amount#" + std::to_string(ids);
  const std::string data_filter = "[" + filter + std::to_string(ids) + ")]";
  return {.name = "Scan parquet db.sales",
          .simple_string = "FileScan parquet db.sales[id#" + std::to_string(ids + 1) + "L," + amount +
                           "] Batched: true, DataFilters: " + data_filter,
          .metrics = {{"number of files read", accumulators},
                      {"size of files read", accumulators + 1, "size"},
                      {"number of output rows", accumulators + 2}},
          .metadata = {{"DataFilters", data_filter},
                       {"Format", "Parquet"},
                       {"Location", "InMemoryFileIndex(1 paths)[s3://bucket/sales]"},
                       {"PartitionFilters", "[]"},
                       {"PushedFilters", "[IsNotNull(amount)]"},
                       {"ReadSchema", "struct<id:bigint,amount:double>"}}};
}

// SQL execution `id` aggregating one scan that listed `bytes`, run by job `id` in stage `id`,
// each of whose 8 tasks read `task_input_bytes` (0: the tasks report no input).
void add_read(ScenarioLog& log, int64_t id, PlanNodeSpec scan, int64_t bytes, int64_t task_input_bytes = 0) {
  const int64_t start = 1000 + id * 30000;
  const int64_t accumulator = scan.metrics.front().accumulator_id;
  log.sql({.execution_id = id,
           .description = "report " + std::to_string(id),
           .start_ms = start - 500,
           .end_ms = start + 25000,
           .plan = {.name = "HashAggregate",
                    .simple_string = "HashAggregate(keys=[], functions=[sum(amount)])",
                    .children = {std::move(scan)}},
           .driver_accum_updates = {{accumulator, 40}, {accumulator + 1, bytes}}});
  log.job({.job_id = id, .submit_ms = start, .end_ms = start + 21000, .sql_execution_id = id, .stages = {[&] {
                                                                                                StageSpec s = stage(
                                                                                                    id, start,
                                                                                                    {accumulator + 2});
                                                                                                for (auto& task :
                                                                                                     s.tasks)
                                                                                                  task.input_bytes =
                                                                                                      task_input_bytes;
                                                                                                return s;
                                                                                              }()}});
}

TEST(Caching, CleanLogHasNoCachingFindings) {
  auto log = cluster();
  add_read(log, 0, sales_scan(3, 100), 800 * kMiB);
  StageSpec cached = stage(1, 40000);
  cached.rdds = {
      {.rdd_id = 5, .partitions = 100, .cached_partitions = 100, .use_memory = true, .memory_size = 500 * kMiB}};
  log.job({.job_id = 1, .submit_ms = 40000, .end_ms = 61000, .stages = {cached}});
  auto result = analyze_scenario(log);
  EXPECT_TRUE(result.of_type("cachingOpportunity").empty());
  EXPECT_TRUE(result.of_type("cacheUtilization").empty());
}

TEST(Caching, SameInputReadByTwoExecutions) {
  auto log = cluster();
  add_read(log, 0, sales_scan(3, 100), 800 * kMiB);
  add_read(log, 1, sales_scan(13, 200), 800 * kMiB);  // same data, fresh expression ids
  auto result = analyze_scenario(log);
  auto found = result.of_type("cachingOpportunity");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  expect_registered_thresholds(f);
  EXPECT_EQ(f.id, "cachingOpportunity//scan-sql-0.node-1");
  EXPECT_EQ(f.scope, Scope::kApp);
  EXPECT_FALSE(f.sql_execution_id);
  EXPECT_EQ(f.stage_ids(), std::vector<int64_t>{1});  // the re-read's stage
  EXPECT_NE(f.title.find("read 2 times by 2 SQL executions, 1.56 GiB in all"), std::string::npos);
  EXPECT_NE(f.explanation.find("SQL 0 (800 MiB), SQL 1 (800 MiB)"), std::string::npos);
  EXPECT_NE(f.recommendation.find("persist"), std::string::npos);
  EXPECT_EQ(f.thresholds, (std::vector<std::string>{"cachingOpportunity.minReads", "cachingOpportunity.minBytes",
                                                    "impact.reReadThroughputBytesPerSec"}));
  EXPECT_EQ(evidence_of(f, "totalReadBytes"), 1600.0 * kMiB);
  EXPECT_EQ(evidence_of(f, "reReadBytes"), 800.0 * kMiB);
  // The read after the first, 800 MiB, at 200 MB/s.
  EXPECT_EQ(f.impact.basis, Basis::kResourceOnly);
  EXPECT_EQ(f.impact.method, EstimateMethod::kModeled);
  EXPECT_FALSE(f.impact.wall_clock);
  ASSERT_TRUE(f.impact.raw_waste);
  EXPECT_EQ(f.impact.raw_waste->unit, WasteUnit::kMs);
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, 800.0 * kMiB / 200e6 * 1000.0);
}

TEST(Caching, AShowThenAFullReadIsNotAReRead) {
  // The kubeflow NewYorkTaxiData log: SQL 0 is a show() whose scan lists 1.81 GiB of files and
  // whose one task reads 36 MiB of one; SQL 2 reads it all. A cache filled by the show() would
  // hold the 36 MiB, so the full read reads the rest from storage anyway: no finding. The bytes
  // are what the tasks read, not what the scan listed.
  auto log = cluster();
  add_read(log, 0, sales_scan(3, 100), 1800 * kMiB, 36 * kMiB / 8);
  add_read(log, 1, sales_scan(13, 200), 1800 * kMiB, 1800 * kMiB / 8);
  auto result = analyze_scenario(log);
  EXPECT_TRUE(result.of_type("cachingOpportunity").empty());
  // The same two reads the other way round: the full read first, the show() after it is served
  // by the cache, 36 MiB, under the floor.
  auto reversed = cluster();
  add_read(reversed, 0, sales_scan(3, 100), 1800 * kMiB, 1800 * kMiB / 8);
  add_read(reversed, 1, sales_scan(13, 200), 1800 * kMiB, 36 * kMiB / 8);
  EXPECT_TRUE(analyze_scenario(reversed).of_type("cachingOpportunity").empty());
  // Two full reads: the second is served whole.
  auto twice = cluster();
  add_read(twice, 0, sales_scan(3, 100), 1800 * kMiB, 1800 * kMiB / 8);
  add_read(twice, 1, sales_scan(13, 200), 1800 * kMiB, 1800 * kMiB / 8);
  const auto result_twice = analyze_scenario(twice);
  auto found = result_twice.of_type("cachingOpportunity");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(evidence_of(*found[0], "reReadBytes"), 1800.0 * kMiB);
}

TEST(Caching, ScanWithoutASizeMetricIsMeasuredByItsStagesInput) {
  // Spark 2 scans report no "size of files read": the stage that ran the scan, and nothing else
  // that reads, read 8 x 100 MiB of input.
  auto log = cluster();
  for (int64_t id : {0, 1}) {
    const int64_t start = 1000 + id * 30000;
    const int64_t rows = 100 + id * 10;
    log.sql(
        {.execution_id = id,
         .start_ms = start - 500,
         .end_ms = start + 25000,
         .plan = {.name = "Scan csv ",
                  .simple_string = "FileScan csv [name#" + std::to_string(rows) +
                                   "] Batched: false, Format: CSV, Location: InMemoryFileIndex[s3://bucket/people.csv]",
                  .metrics = {{"number of files", rows + 1}, {"number of output rows", rows}}}});
    StageSpec s = stage(id, start, {rows});
    for (auto& task : s.tasks) task.input_bytes = 100 * kMiB;
    log.job({.job_id = id, .submit_ms = start, .end_ms = start + 21000, .sql_execution_id = id, .stages = {s}});
  }
  auto result = analyze_scenario(log);
  auto found = result.of_type("cachingOpportunity");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(evidence_of(*found[0], "totalReadBytes"), 1600.0 * kMiB);
  EXPECT_DOUBLE_EQ(found[0]->impact.raw_waste->value, 800.0 * kMiB / 200e6 * 1000.0);
}

TEST(Caching, CachingOpportunityNearMisses) {
  {  // Just under cachingOpportunity.minBytes in all.
    auto log = cluster();
    add_read(log, 0, sales_scan(3, 100), 512 * kMiB - 1);
    add_read(log, 1, sales_scan(13, 200), 512 * kMiB);
    EXPECT_TRUE(analyze_scenario(log).of_type("cachingOpportunity").empty());
  }
  {  // A different filter is a different input.
    auto log = cluster();
    add_read(log, 0, sales_scan(3, 100), 800 * kMiB);
    add_read(log, 1, sales_scan(13, 200, "isnull(amount#"), 800 * kMiB);
    EXPECT_TRUE(analyze_scenario(log).of_type("cachingOpportunity").empty());
  }
  {  // One read only, below cachingOpportunity.minReads, however big.
    auto log = cluster();
    add_read(log, 0, sales_scan(3, 100), 8000 * kMiB);
    EXPECT_TRUE(analyze_scenario(log).of_type("cachingOpportunity").empty());
  }
}

TEST(Caching, InputRewrittenBetweenReadsIsNotACachingOpportunity) {
  auto reads = cluster();
  add_read(reads, 0, sales_scan(3, 100), 800 * kMiB);
  add_read(reads, 2, sales_scan(13, 200), 800 * kMiB);
  ASSERT_EQ(analyze_scenario(reads).of_type("cachingOpportunity").size(), 1u) << "the reads alone do fire";

  auto log = cluster();
  add_read(log, 0, sales_scan(3, 100), 800 * kMiB);
  log.sql({.execution_id = 1,
           .start_ms = 30500,
           .end_ms = 31000,
           .plan = {.name = "Execute InsertIntoHadoopFsRelationCommand",
                    .simple_string = "Execute InsertIntoHadoopFsRelationCommand s3://bucket/sales, false, Parquet, "
                                     "[path=s3://bucket/sales], Append, [id, amount]"}});
  add_read(log, 2, sales_scan(13, 200), 800 * kMiB);
  EXPECT_TRUE(analyze_scenario(log).of_type("cachingOpportunity").empty());
}

// A job whose stage reports one RDD's cache state.
ScenarioLog cached_rdd(RddSpec rdd) {
  auto log = cluster();
  StageSpec s = stage(0, 1000);
  s.rdds = {rdd};
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 22000, .stages = {s}});
  return log;
}

TEST(Caching, CachedRddMissingPartitions) {
  // 60 of 100 partitions cached, 600 MiB in memory: 10 MiB each, so 40 missing are ~400 MiB.
  auto result = analyze_scenario(cached_rdd({.rdd_id = 5,
                                             .name = "events",
                                             .partitions = 100,
                                             .cached_partitions = 60,
                                             .use_memory = true,
                                             .memory_size = 600 * kMiB}));
  auto found = result.of_type("cacheUtilization");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  expect_registered_thresholds(f);
  EXPECT_EQ(f.id, "cacheUtilization/missingPartitions/rdd-5");
  EXPECT_EQ(f.rule, "missingPartitions");
  EXPECT_EQ(f.stage_ids(), std::vector<int64_t>{0});
  EXPECT_NE(f.title.find("RDD 5 (events) is cached in only 60 of 100 partitions"), std::string::npos);
  EXPECT_NE(f.explanation.find("40 of its 100 partitions (40.0%)"), std::string::npos);
  EXPECT_EQ(evidence_of(f, "uncachedOrSpilledBytes"), 400.0 * kMiB);
  EXPECT_EQ(f.thresholds,
            (std::vector<std::string>{"cacheUtilization.minMissingFraction", "impact.reReadThroughputBytesPerSec"}));
  // Two executors, 1 GiB heap by default: each needs 200 MiB more storage, / 0.6 -> 2g.
  ASSERT_EQ(f.settings.size(), 2u);
  EXPECT_EQ(f.settings[0].key, "spark.executor.memory");
  EXPECT_EQ(f.settings[0].suggested_value, "2g");
  EXPECT_EQ(f.settings[1].key, "spark.memory.storageFraction");
  EXPECT_EQ(f.impact.basis, Basis::kResourceOnly);
  EXPECT_EQ(f.impact.method, EstimateMethod::kModeled);
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, 400.0 * kMiB / 200e6 * 1000.0);
  EXPECT_EQ(f.impact.raw_waste->unit, WasteUnit::kMs);
  EXPECT_EQ(f.confidence, Confidence::kHigh);  // 40% missing is 4x the 10% threshold
}

TEST(Caching, CachedRddOnDisk) {
  auto result = analyze_scenario(cached_rdd({.rdd_id = 6,
                                             .partitions = 100,
                                             .cached_partitions = 100,
                                             .use_memory = true,
                                             .use_disk = true,
                                             .memory_size = 300 * kMiB,
                                             .disk_size = 200 * kMiB}));
  auto found = result.of_type("cacheUtilization");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->id, "cacheUtilization/onDisk/rdd-6");
  EXPECT_NE(found[0]->title.find("200 MiB of cached RDD 6 (MapPartitionsRDD) sits on disk"), std::string::npos);
  EXPECT_DOUBLE_EQ(found[0]->impact.raw_waste->value, 200.0 * kMiB / 200e6 * 1000.0);
}

TEST(Caching, CachedRddMissingPartitionsAndOnDisk) {
  // 80 of 100 cached, 600 MiB in memory and 200 MiB on disk: 10 MiB per partition, 20 missing
  // (200 MiB) plus the 200 MiB read back from disk.
  auto result = analyze_scenario(cached_rdd({.rdd_id = 7,
                                             .partitions = 100,
                                             .cached_partitions = 80,
                                             .use_memory = true,
                                             .use_disk = true,
                                             .memory_size = 600 * kMiB,
                                             .disk_size = 200 * kMiB}));
  auto found = result.of_type("cacheUtilization");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->rule, "missingPartitions");
  EXPECT_DOUBLE_EQ(found[0]->impact.raw_waste->value, 400.0 * kMiB / 200e6 * 1000.0);
}

TEST(Caching, CacheUtilizationNearMisses) {
  // 9% missing: under cacheUtilization.minMissingFraction.
  EXPECT_TRUE(
      analyze_scenario(
          cached_rdd(
              {.rdd_id = 5, .partitions = 100, .cached_partitions = 91, .use_memory = true, .memory_size = 910 * kMiB}))
          .of_type("cacheUtilization")
          .empty());
  // On disk by choice (DISK_ONLY) is no shortfall.
  EXPECT_TRUE(
      analyze_scenario(
          cached_rdd(
              {.rdd_id = 5, .partitions = 100, .cached_partitions = 100, .use_disk = true, .disk_size = 900 * kMiB}))
          .of_type("cacheUtilization")
          .empty());
  // Logs after Spark 1.x report no cache state (nothing cached, no sizes): nothing to judge.
  EXPECT_TRUE(analyze_scenario(cached_rdd({.rdd_id = 5, .partitions = 100, .use_memory = true}))
                  .of_type("cacheUtilization")
                  .empty());
}

// ---------------------------------------------------------------------------------------------
// A subtree computed again by later executions, and caches read once

// `tasks` tasks of `task_ms` on the 8 cores from `start`; each reports one update of every
// accumulator given.
StageSpec timed_stage(int64_t id, int64_t start, int tasks, int64_t task_ms, const std::vector<int64_t>& accumulators) {
  StageSpec s;
  s.stage_id = id;
  s.submit_ms = start;
  s.complete_ms = start + task_ms * ((tasks + 7) / 8) + 100;
  s.tasks = ScenarioLog::uniform_tasks(tasks, start, task_ms, {"1", "2"}, 4);
  for (auto& task : s.tasks) {
    for (int64_t accumulator : accumulators) task.accumulables.push_back({accumulator, 1});
  }
  return s;
}

// The expensive totals: a final aggregate over the shuffle of a partial one over a derivation of
// a range, with expression ids from `ids` and accumulators from `acc`.
PlanNodeSpec totals_plan(int ids, int64_t acc) {
  const std::string k = "k#" + std::to_string(ids) + "L";
  const std::string h = "h#" + std::to_string(ids + 1);
  PlanNodeSpec range{.name = "Range",
                     .simple_string = "Range (0, 150000, step=1, splits=4)",
                     .metrics = {{"number of output rows", acc + 3}}};
  PlanNodeSpec project{
      .name = "Project",
      .simple_string = "Project [(id#" + std::to_string(ids + 2) + "L % 500) AS " + k + ", sha2(id) AS " + h + "]",
      .children = {std::move(range)}};
  PlanNodeSpec partial{.name = "HashAggregate",
                       .simple_string = "HashAggregate(keys=[" + k + "], functions=[partial_sum(crc32(" + h + "))])",
                       .metrics = {{"number of output rows", acc + 2}},
                       .children = {std::move(project)}};
  PlanNodeSpec exchange{.name = "Exchange",
                        .simple_string = "Exchange hashpartitioning(" + k +
                                         ", 8), ENSURE_REQUIREMENTS, [plan_id=" + std::to_string(ids * 10) + "]",
                        .metrics = {{"shuffle records written", acc + 1}},
                        .children = {std::move(partial)}};
  return {.name = "HashAggregate",
          .simple_string = "HashAggregate(keys=[" + k + "], functions=[sum(crc32(" + h + "))])",
          .metrics = {{"number of output rows", acc}},
          .children = {std::move(exchange)}};
}

// SQL execution `id` applying `top` to what `below` computes: a first stage of 16 tasks of
// `first_task_ms` runs the nodes from the exchange down, a second of 8 short tasks the rest.
void add_use(ScenarioLog& log, int64_t id, PlanNodeSpec top, PlanNodeSpec below, int64_t below_acc, int64_t top_acc,
             int64_t first_task_ms = 30000) {
  const int64_t start = 1000 + id * 100000;
  top.children = {std::move(below)};
  log.sql({.execution_id = id, .start_ms = start - 500, .end_ms = start + 90000, .plan = std::move(top)});
  log.job({.job_id = id,
           .submit_ms = start,
           .end_ms = start + 85000,
           .sql_execution_id = id,
           .stages = {
               timed_stage(id * 2, start, 16, first_task_ms, {below_acc + 1, below_acc + 2, below_acc + 3}),
               timed_stage(id * 2 + 1, start + 2 * first_task_ms + 200, 8, 500, {below_acc + 1, below_acc, top_acc})}});
}

PlanNodeSpec total_of_n(int64_t acc) {
  return {.name = "HashAggregate",
          .simple_string = "HashAggregate(keys=[], functions=[sum(n)])",
          .metrics = {{"number of output rows", acc}}};
}
PlanNodeSpec filter_n(int64_t acc) {
  return {.name = "Filter", .simple_string = "Filter ((n % 3) = 0)", .metrics = {{"number of output rows", acc}}};
}

TEST(Caching, SubtreeComputedAgainByALaterExecution) {
  auto log = cluster();
  add_use(log, 0, total_of_n(10), totals_plan(1, 100), 100, 10);
  add_use(log, 1, filter_n(20), totals_plan(11, 200), 200, 20);  // fresh ids and accumulators
  auto result = analyze_scenario(log);
  auto found = result.of_type("cachingOpportunity", "recomputed");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  expect_registered_thresholds(f);
  EXPECT_EQ(f.id, "cachingOpportunity/recomputed/sql-0.node-1");
  // The later execution's stage that ran nothing but the totals; the one that consumed them stays.
  EXPECT_EQ(f.stage_ids(), std::vector<int64_t>{2});
  EXPECT_NE(f.title.find("5-operator computation (HashAggregate > Exchange > HashAggregate > Project > ...)"),
            std::string::npos)
      << f.title;
  EXPECT_NE(f.explanation.find("the execution after SQL 0 computed it again: its stage (2.0) ran nothing but this "
                               "computation and did 7m 59s of task work"),
            std::string::npos)
      << f.explanation;
  EXPECT_NE(f.explanation.find("A cache filled by SQL 0 would serve"), std::string::npos) << f.explanation;
  EXPECT_NE(f.recommendation.find(".cache()"), std::string::npos);
  EXPECT_NE(f.recommendation.find("HashAggregate(keys=[k#1L], functions=[sum(crc32(h#2))])"), std::string::npos)
      << f.recommendation;
  EXPECT_EQ(evidence_of(f, "executions"), 2.0);
  EXPECT_EQ(evidence_of(f, "recomputedTaskTimeMs"), 16.0 * (30000 - 10));
  // Measured wall-clock: 16 tasks of 30 s in two waves on 8 cores, the stage ran alone.
  EXPECT_EQ(f.impact.method, EstimateMethod::kMeasured);
  ASSERT_TRUE(f.impact.wall_clock);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_GT(f.impact.wall_clock->high_ms, 55000.0);
  EXPECT_LE(f.impact.wall_clock->high_ms, 60200.0);
  EXPECT_EQ(f.impact.raw_waste->unit, WasteUnit::kCoreMs);
  // The computation read no stored input: no re-read finding beside it.
  EXPECT_EQ(result.of_type("cachingOpportunity").size(), 1u);
}

TEST(Caching, CachedSubtreeIsNotComputedAgain) {
  // The twin: both executions read the cache (InMemoryTableScan), whose plan below lists the
  // same accumulators in each; the first filled it.
  auto log = cluster();
  auto cached = [](int64_t scan_acc) {
    return PlanNodeSpec{.name = "InMemoryTableScan",
                        .simple_string = "InMemoryTableScan [k#1L, n#3L]",
                        .metrics = {{"number of output rows", scan_acc}},
                        .children = {totals_plan(1, 100)}};
  };
  add_use(log, 0, total_of_n(10), cached(50), 100, 10);
  add_use(log, 1, filter_n(20), cached(60), 300, 20, 500);  // reads the cache: no accumulator below it
  auto result = analyze_scenario(log);
  EXPECT_TRUE(result.of_type("cachingOpportunity").empty());
  EXPECT_TRUE(result.of_type("cacheUtilization").empty()) << "two queries read the cache";
}

TEST(Caching, RecomputationNearMisses) {
  {  // 4 s of tasks computed again: under cachingOpportunity.minRecomputedMs and 5% of the run.
    auto log = cluster();
    add_use(log, 0, total_of_n(10), totals_plan(1, 100), 100, 10, 2000);
    add_use(log, 1, filter_n(20), totals_plan(11, 200), 200, 20, 2000);
    EXPECT_TRUE(analyze_scenario(log).of_type("cachingOpportunity").empty());
  }
  {  // Another range is another input.
    auto log = cluster();
    add_use(log, 0, total_of_n(10), totals_plan(1, 100), 100, 10);
    PlanNodeSpec other = totals_plan(11, 200);
    other.children[0].children[0].children[0].children[0].simple_string = "Range (0, 999, step=1, splits=4)";
    add_use(log, 1, filter_n(20), std::move(other), 200, 20);
    EXPECT_TRUE(analyze_scenario(log).of_type("cachingOpportunity").empty());
  }
}

TEST(Caching, CacheReadByOneQueryOnly) {
  auto log = cluster();
  // The cache is filled by a stage of its own (Spark 3.5+ AQE: TableCacheQueryStage), then read.
  PlanNodeSpec scan{.name = "InMemoryTableScan",
                    .simple_string = "InMemoryTableScan [k#1L, n#3L]",
                    .metrics = {{"number of output rows", 50}},
                    .children = {totals_plan(1, 100)}};
  add_use(log, 0, total_of_n(10), std::move(scan), 100, 10);
  auto result = analyze_scenario(log);
  auto found = result.of_type("cacheUtilization", "singleUse");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_EQ(f.id, "cacheUtilization/singleUse/sql-0.node-1");
  EXPECT_EQ(f.stage_ids(), std::vector<int64_t>{0});  // the stage that filled it
  EXPECT_EQ(f.impact.basis, Basis::kInformational);
  EXPECT_FALSE(f.impact.wall_clock);
  EXPECT_EQ(evidence_of(f, "fillTaskTimeMs"), 16.0 * (30000 - 10));
  EXPECT_NE(f.recommendation.find("Remove the persist()"), std::string::npos);
}

}  // namespace
}  // namespace sf::analysis

// cachingOpportunity and cacheUtilization on logs built to trigger them, just under each
// threshold, and on a clean log. Both are cost-only: a re-read cost in ms, no wall-clock claim.
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

// SQL execution `id` aggregating one scan that read `bytes`, run by job `id` in stage `id`.
void add_read(ScenarioLog& log, int64_t id, PlanNodeSpec scan, int64_t bytes) {
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
  log.job({.job_id = id,
           .submit_ms = start,
           .end_ms = start + 21000,
           .sql_execution_id = id,
           .stages = {stage(id, start, {accumulator + 2})}});
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

}  // namespace
}  // namespace sf::analysis

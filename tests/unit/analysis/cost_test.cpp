// The cost model: what was held, at a rate card's prices, shared among stages, jobs and SQL
// executions, and what findings' figures cost; the rate card from the analysis config. Figures
// worked by hand in the comments.
#include "analysis/economics/cost.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "analysis/analysis_config.h"
#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::JobSpec;
using sf::testing::ScenarioLog;
using sf::testing::SqlSpec;
using sf::testing::StageSpec;
using testing::analyze_scenario;

constexpr double kHourMs = 3.6e6;

// 1 per core-hour, nothing for memory: costs read as core-hours.
RateCard cores_only() { return {"test", "USD", 1.0, 0.0, "", ""}; }

// A 1 h application; two executors of 4 cores (4 GiB heap) for its second half; the driver.
ScenarioLog one_hour() {
  ScenarioLog log;
  log.property("spark.executor.memory", "4g").start(0).finished(3600000);
  log.executor("1", "host-a", 4, 1800000).executor("2", "host-b", 4, 1800000);
  return log;
}

TEST(Cost, WhatWasHeldAtTheCardsPrices) {
  const auto result = analyze_scenario(one_hour());
  const ClusterShape shape = cluster_shape(result.model);
  // Executor memory: 4 GiB heap + max(384 MiB, 10% of it) = 4.4 GiB. Driver: 1 core, 1 GiB heap
  // + 384 MiB overhead = 1.375 GiB.
  EXPECT_DOUBLE_EQ(shape.executor_memory_gib, 4.4);
  EXPECT_DOUBLE_EQ(shape.driver_cores, 1);
  EXPECT_DOUBLE_EQ(shape.driver_memory_gib, 1.375);
  // Core-hours: driver 1 x 1 h + executors 2 x 4 x 0.5 h = 5.
  const Cost cost = compute_cost(result.model, shape, {}, {}, cores_only());
  EXPECT_DOUBLE_EQ(cost.core_hours, 5);
  EXPECT_DOUBLE_EQ(cost.total, 5);
  EXPECT_DOUBLE_EQ(cost.driver, 1);
  EXPECT_DOUBLE_EQ(cost.executors, 4);
  // GiB-hours: 1.375 + 2 x 4.4 x 0.5 = 5.775; at 2 per GiB-hour and nothing per core: 11.55.
  const Cost memory = compute_cost(result.model, shape, {}, {}, {"mem", "EUR", 0, 2, "", ""});
  EXPECT_NEAR(memory.gib_hours, 5.775, 1e-12);
  EXPECT_NEAR(memory.total, 11.55, 1e-12);
  EXPECT_NEAR(application_cost(result.model, {"mem", "EUR", 0, 2, "", ""}), 11.55, 1e-12);
}

TEST(Cost, SharedAmongTheStagesJobsAndQueriesRunning) {
  // Two executors of 4 cores from 0 s, a 100 s application, 9 cores held in all (the driver's
  // one too): 9 core-seconds a second. Job 0 over [10, 50) s ran stage 0 over [10, 50) s with
  // 4 tasks of 40 s (weight 4) and stage 1 over [30, 50) s with 4 tasks of 20 s (weight 4);
  // SQL 0 over [5, 60) s ran it.
  ScenarioLog log;
  log.start(0).finished(100000).executor("1", "host-a", 4, 0).executor("2", "host-b", 4, 0);
  StageSpec s0{.stage_id = 0,
               .submit_ms = 10000,
               .complete_ms = 50000,
               .tasks = ScenarioLog::uniform_tasks(4, 10000, 40000, {"1"}, 4)};
  StageSpec s1{.stage_id = 1,
               .submit_ms = 30000,
               .complete_ms = 50000,
               .tasks = ScenarioLog::uniform_tasks(4, 30000, 20000, {"2"}, 4)};
  for (auto* s : {&s0, &s1}) {
    for (auto& t : s->tasks) t.run_time_ms = t.duration_ms;  // weights of exactly 4
  }
  log.job({.job_id = 0, .submit_ms = 10000, .end_ms = 50000, .sql_execution_id = 0, .stages = {s0, s1}});
  log.sql({.execution_id = 0, .start_ms = 5000, .end_ms = 60000, .plan = {.name = "Project"}});
  const auto result = analyze_scenario(log, {});
  const Cost cost =
      compute_cost(result.model, cluster_shape(result.model), compute_occupancy(result.model), {}, cores_only());
  const double per_second = 9.0 / 3600;  // core-hours held each second
  // Stage 0 alone for 20 s, then half of the next 20 s (equal weights): 30 s; stage 1: 10 s.
  ASSERT_EQ(cost.stages.size(), 2u);
  EXPECT_NEAR(cost.stages[0].second, 30 * per_second, 1e-12);
  EXPECT_NEAR(cost.stages[1].second, 10 * per_second, 1e-12);
  // Job 0 had its 40 s alone; the other 60 s were driver-only time.
  ASSERT_EQ(cost.jobs.size(), 1u);
  EXPECT_NEAR(cost.jobs[0].second, 40 * per_second, 1e-12);
  EXPECT_NEAR(cost.driver_only, 60 * per_second, 1e-12);
  ASSERT_EQ(cost.sql.size(), 1u);
  EXPECT_NEAR(cost.sql[0].second, 55 * per_second, 1e-12);
  EXPECT_NEAR(cost.total, 100 * per_second, 1e-12);
}

TEST(Cost, WhatAFindingsFigureCosts) {
  const auto result = analyze_scenario(one_hour());
  // A resource-only finding of 3 core-hours costs 3 at 1 per core-hour; 7.2e6 MB-seconds are
  // 7.2e6 / 1024 / 3600 = 1.953125 GiB-hours, at 2 per GiB-hour 3.90625. A finding about no stage
  // that could save 36 minutes costs the application's average: 5 per hour, 3.
  Finding cores, memory, time;
  cores.id = "cores";
  cores.impact = {Basis::kResourceOnly, std::nullopt, EstimateMethod::kMeasured, RawWaste{3, WasteUnit::kCoreHours}};
  memory.id = "memory";
  memory.impact = {Basis::kResourceOnly, std::nullopt, EstimateMethod::kModeled,
                   RawWaste{7.2e6, WasteUnit::kMbSeconds}};
  time.id = "time";
  time.impact = {Basis::kSerial, WallClockRange{2160000, 2160000}, EstimateMethod::kMeasured, std::nullopt};
  const ClusterShape shape = cluster_shape(result.model);
  const Cost cost = compute_cost(result.model, shape, {}, {cores, memory, time}, {"card", "USD", 1, 2, "", ""});
  ASSERT_EQ(cost.findings.size(), 3u);
  EXPECT_DOUBLE_EQ(cost.findings[0].high, 3);
  EXPECT_DOUBLE_EQ(cost.findings[1].high, 3.90625);
  EXPECT_NEAR(cost.findings[2].high, 2160000 * cost.total / kHourMs, 1e-9);
  EXPECT_NEAR(cost.findings[2].low, cost.findings[2].high, 1e-12);
}

std::string write_config(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / ("sf-cost-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

TEST(RateCardConfig, APresetYourOwnPricesOrAClearError) {
  auto preset =
      load_analysis_options(write_config("preset.json", R"({"rateCard": {"preset": "aws-emr-serverless-us-east-1"}})"));
  ASSERT_TRUE(preset) << preset.error().message();
  EXPECT_EQ(preset->rate_card, *find_rate_card_preset("aws-emr-serverless-us-east-1"));

  auto own = load_analysis_options(write_config(
      "own.json",
      R"({"thresholds": {"gc.warnRatio": 0.2}, "rateCard": {"name": "ours", "currency": "EUR", "perCoreHour": 0.03, "perGibHour": 0.004}})"));
  ASSERT_TRUE(own) << own.error().message();
  EXPECT_EQ(own->rate_card.name, "ours");
  EXPECT_EQ(own->rate_card.currency, "EUR");
  EXPECT_DOUBLE_EQ(own->rate_card.per_core_hour, 0.03);
  EXPECT_DOUBLE_EQ(own->rate_card.per_gib_hour, 0.004);
  EXPECT_DOUBLE_EQ(own->thresholds.gc_warn_ratio, 0.2);

  // A preset with one price changed says so.
  auto adjusted = load_analysis_options(
      write_config("adjusted.json", R"({"rateCard": {"preset": "gcp-e2-us-central1", "perGibHour": 0.001}})"));
  ASSERT_TRUE(adjusted);
  EXPECT_EQ(adjusted->rate_card.name, "gcp-e2-us-central1 (adjusted)");
  EXPECT_DOUBLE_EQ(adjusted->rate_card.per_core_hour, find_rate_card_preset("gcp-e2-us-central1")->per_core_hour);

  // No rate card: the default.
  auto none = load_analysis_options(write_config("none.json", "{}"));
  ASSERT_TRUE(none);
  EXPECT_EQ(none->rate_card, default_rate_card());

  auto unknown = load_analysis_options(write_config("unknown.json", R"({"rateCard": {"preset": "cheap"}})"));
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message().find("unknown.json"), std::string::npos);
  EXPECT_NE(unknown.error().message().find("gcp-n2-us-central1"), std::string::npos) << "names the presets";
  auto negative = load_analysis_options(write_config("negative.json", R"({"rateCard": {"perCoreHour": -1}})"));
  ASSERT_FALSE(negative);
  EXPECT_NE(negative.error().message().find("perCoreHour"), std::string::npos);
  auto typo = load_analysis_options(write_config("typo.json", R"({"rateCard": {"perCpuHour": 1}})"));
  ASSERT_FALSE(typo);
  EXPECT_NE(typo.error().message().find("perCpuHour"), std::string::npos);
  auto stray = load_analysis_options(write_config("stray.json", R"({"rates": {}})"));
  ASSERT_FALSE(stray);
}

TEST(RateCardConfig, EveryPresetSaysWhereItsPricesComeFrom) {
  for (const RateCard& card : rate_card_presets()) {
    EXPECT_FALSE(card.source.empty()) << card.name;
    EXPECT_EQ(card.as_of.size(), 7u) << card.name << ": YYYY-MM";
    EXPECT_GT(card.per_core_hour, 0) << card.name;
    EXPECT_GT(card.per_gib_hour, 0) << card.name;
  }
}

}  // namespace
}  // namespace sf::analysis

// coreBound: a run whose stages ran in waves on every core it had, weighed by the what-if's replay
// on up to twice the executors, on logs whose schedules are worked out in the comments.
#include <gtest/gtest.h>

#include <string>

#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using testing::analyze_scenario;

// Two one-core executors from the start; one stage of `tasks` tasks of 10 s in waves from 1 s,
// the job ending 0.5 s after it and the application 1.5 s later. 40 tasks: 20 waves, 201 s of
// stage; four executors run it in 10 waves, 101 s.
ScenarioLog waves_on_two_executors(const std::string& master, int tasks = 40) {
  ScenarioLog log;
  const int64_t stage_end = 1000 + (tasks + 1) / 2 * 10000;
  log.property("spark.master", master)
      .start(0)
      .finished(stage_end + 2000)
      .executor("1", "host-a", 1, 0)
      .executor("2", "host-b", 1, 0);
  StageSpec s{.stage_id = 0,
              .submit_ms = 1000,
              .complete_ms = stage_end,
              .tasks = ScenarioLog::uniform_tasks(tasks, 1000, 10000, {"1", "2"}, 1)};
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = stage_end + 500, .stages = {s}});
  return log;
}

TEST(CoreBound, AStageInWavesOnEveryCoreAsksForMoreExecutors) {
  const auto result = analyze_scenario(waves_on_two_executors("yarn"));
  const Finding* f = result.only("coreBound");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->id, "coreBound//app");
  EXPECT_EQ(f->claim.kind, WasteClaim::Kind::kSerial);
  // 20 waves of 10 s on two executors, 10 on four: 100 s sooner.
  EXPECT_NEAR(f->claim.serial_ms, 100000, 1000);
  ASSERT_EQ(f->settings.size(), 1u);
  EXPECT_EQ(f->settings[0].key, "spark.executor.instances");
  EXPECT_EQ(f->settings[0].suggested_value, "4");
  EXPECT_NE(f->explanation.find("ran 40 tasks in 20.0 waves on 2 cores"), std::string::npos) << f->explanation;
  EXPECT_NE(f->explanation.find("the stages shorten as much as the executors grow"), std::string::npos)
      << f->explanation;
}

TEST(CoreBound, OnAStandaloneMasterTheCoresMaxOrMoreWorkers) {
  // Without spark.cores.max the application took every core the workers had: no setting adds one.
  const auto every_core = analyze_scenario(waves_on_two_executors("spark://master:7077"));
  const Finding* f = every_core.only("coreBound");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->settings.empty());
  EXPECT_NE(f->recommendation.find("add workers"), std::string::npos) << f->recommendation;

  ScenarioLog capped = waves_on_two_executors("spark://master:7077");
  capped.property("spark.cores.max", "2");
  const auto result = analyze_scenario(capped);
  f = result.only("coreBound");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->settings.size(), 1u);
  EXPECT_EQ(f->settings[0].key, "spark.cores.max");
  EXPECT_EQ(f->settings[0].suggested_value, "4");
}

TEST(CoreBound, NoMoreExecutorsInLocalModeOrForAStageOfOneWave) {
  EXPECT_EQ(analyze_scenario(waves_on_two_executors("local[2]")).of_type("coreBound").size(), 0u)
      << "local mode: the cores are the driver machine's";
  // Two tasks, one wave: more executors would sit idle.
  EXPECT_EQ(analyze_scenario(waves_on_two_executors("yarn", 2)).of_type("coreBound").size(), 0u);
}

TEST(CoreBound, ARunThatGainsUnderTheThresholdsIsNotReported) {
  // Four tasks: two waves, 20 s; four executors end it 10 s sooner, under coreBound.minGainMs.
  EXPECT_EQ(analyze_scenario(waves_on_two_executors("yarn", 4)).of_type("coreBound").size(), 0u);
  Thresholds t = testing::detector_thresholds();
  t.core_bound_min_gain_ms = 5000;
  const auto result = analyze_scenario(waves_on_two_executors("yarn", 4), t);
  const Finding* f = result.only("coreBound");
  ASSERT_NE(f, nullptr);
  EXPECT_NEAR(f->claim.serial_ms, 10000, 1000);
}

TEST(CoreBound, AStageSubmittedBeforeItsExecutorsRegisteredRanOnTheCoresThatCame) {
  // Real Spark on local-cluster: the job's stage was submitted 2.5 s before the one executor
  // registered. Averaged over the stage's window the run held under one core; its tasks ran in
  // waves on the one that came, and the wait is a cold start's, not fewer cores.
  ScenarioLog log;
  log.property("spark.master", "yarn").start(0).finished(245000).executor("1", "host-a", 1, 4000);
  StageSpec s{.stage_id = 0,
              .submit_ms = 1000,
              .complete_ms = 244000,
              .tasks = ScenarioLog::uniform_tasks(24, 4000, 10000, {"1"}, 1)};
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 244500, .stages = {s}});
  const auto result = analyze_scenario(log);
  const Finding* f = result.only("coreBound");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->explanation.find("ran 24 tasks in 24.0 waves on 1 core"), std::string::npos) << f->explanation;
}

TEST(CoreBound, SaysWhereALongLastWaveClaimsTheSameTime) {
  // Eight one-core executors, 17 tasks of 60 s: two full waves and one task alone, a 180 s stage
  // whose last wave ran 52.5 s past its task time spread over the cores (longLastWave). Sixteen
  // executors run it in two waves, 60 s sooner, for 34% more executor time; its cores were busy
  // 71% of the stage (1,020 of 1,440 core-seconds). Both are allowed here.
  ScenarioLog log;
  std::vector<std::string> executors;
  for (int e = 1; e <= 8; ++e) executors.push_back(std::to_string(e));
  log.property("spark.master", "yarn").start(0).finished(183000);
  for (const std::string& e : executors) log.executor(e, "host-" + e, 1, 0);
  StageSpec s{.stage_id = 0,
              .submit_ms = 1000,
              .complete_ms = 181000,
              .tasks = ScenarioLog::uniform_tasks(17, 1000, 60000, executors, 1)};
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 181500, .stages = {s}});
  Thresholds t = testing::detector_thresholds();
  t.core_bound_max_extra_hours = 0.5;
  t.core_bound_min_busy_share = 0.7;
  const auto result = analyze_scenario(log, t);
  ASSERT_EQ(result.detected("stageShape", "longLastWave").size(), 1u);
  const Finding* f = result.only("coreBound");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->explanation.find("long last wave of stage 0.0"), std::string::npos) << f->explanation;
  EXPECT_NE(f->explanation.find("do not add up"), std::string::npos) << f->explanation;
}

}  // namespace
}  // namespace sf::analysis

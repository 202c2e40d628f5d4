// Dynamic allocation's ramp: the what-if's replays of it (what_if.h) and the allocationRamp
// finding that reads them, on logs whose schedule is worked out by hand in the comments as
// Spark's ExecutorAllocationManager would have run it.
#include <gtest/gtest.h>

#include "analysis/models/what_if.h"
#include "analysis/settings/cluster_shape.h"
#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::JobSpec;
using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using sf::testing::TaskSpec;
using testing::analyze_scenario;

const SettingChange* suggested(const Finding& f, std::string_view key) {
  for (const SettingChange& s : f.settings) {
    if (s.key == key) return &s;
  }
  return nullptr;
}

// executorAllocationRatio 0.25 of at most 4 one-core executors. The stage of 8 tasks of 10 s is
// submitted at 1 s; two executors, asked for together, register at 3 s (the ratio's 8 x 0.25).
// Four waves: 3 to 43 s; the job ends at 43.5 s, the application at 45 s.
ScenarioLog capped_by_the_ratio() {
  ScenarioLog log;
  log.property("spark.dynamicAllocation.enabled", "true")
      .property("spark.dynamicAllocation.maxExecutors", "4")
      .property("spark.dynamicAllocation.executorAllocationRatio", "0.25")
      .start(0)
      .finished(45000)
      .executor("1", "host-a", 1, 3000)
      .executor("2", "host-a", 1, 3000);
  StageSpec s{.stage_id = 0,
              .submit_ms = 1000,
              .complete_ms = 43000,
              .tasks = ScenarioLog::uniform_tasks(8, 3000, 10000, {"1", "2"}, 1)};
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 43500, .stages = {s}});
  return log;
}

// sustainedSchedulerBacklogTimeout 20s, at most 4 one-core executors, the first registered at
// 0.5 s. The stage of 8 tasks of 10 s is submitted at 1 s; the first round (1 s later) asks for
// one more, which registers at 3 s; the next round, 20 s after it, for two more, which register
// at 23 s. Executor 1 runs tasks from 1, 11 and 21 s, executor 2 from 3, 13 and 23 s, executors
// 3 and 4 one each from 23 s: the stage ends at 33 s, the job at 33.5 s, the application at 35 s.
ScenarioLog rounds_far_apart() {
  ScenarioLog log;
  log.property("spark.dynamicAllocation.enabled", "true")
      .property("spark.dynamicAllocation.maxExecutors", "4")
      .property("spark.dynamicAllocation.sustainedSchedulerBacklogTimeout", "20s")
      .start(0)
      .finished(35000)
      .executor("1", "host-a", 1, 500)
      .executor("2", "host-a", 1, 3000)
      .executor("3", "host-a", 1, 23000)
      .executor("4", "host-a", 1, 23000);
  auto task = [](int64_t launch, const char* executor) {
    return TaskSpec{.launch_ms = launch, .duration_ms = 10000, .executor_id = executor};
  };
  StageSpec s{.stage_id = 0,
              .submit_ms = 1000,
              .complete_ms = 33000,
              .tasks = {task(1000, "1"), task(3000, "2"), task(11000, "1"), task(13000, "2"), task(21000, "1"),
                        task(23000, "2"), task(23000, "3"), task(23000, "4")}};
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 33500, .stages = {s}});
  return log;
}

TEST(AllocationRamp, TheRatioCapsTheExecutorsTheReplayAsksFor) {
  const auto result = analyze_scenario(capped_by_the_ratio());
  const ClusterShape shape = cluster_shape(result.model);
  EXPECT_DOUBLE_EQ(shape.dynamic_allocation.allocation_ratio, 0.25);
  // Asked for once the 1 s backlog timeout had passed, at 2 s: 1 s of startup.
  EXPECT_DOUBLE_EQ(shape.executor_startup_ms, 1000);
  const auto w = what_if(result.model, shape);
  ASSERT_TRUE(w);
  // Today's size is what the ratio fills (8 x 0.25 = 2), not maxExecutors.
  EXPECT_EQ(w->today_executors, 2);
  EXPECT_EQ(w->peak_executors, 2);
  EXPECT_DOUBLE_EQ(w->today_simulated_ms, 45000);
  ASSERT_TRUE(w->ramp);
  const AllocationRamp& ramp = *w->ramp;
  // The replays run on the 4 executors the default ratio fills (8 tasks, maxExecutors 4).
  EXPECT_EQ(ramp.executors, 4);
  EXPECT_DOUBLE_EQ(ramp.settings_ms, 45000);
  // Default ramp: the two initial executors at 3 s; the round at 2 s raises the target to 3
  // (asked then, registered at 3 s), the round at 3 s to 4 (registered at 4 s). Tasks run from
  // 3, 3, 3 and 4 s, then 13, 13, 13 and 14 s: the stage ends at 24 s, the application 2 s later.
  EXPECT_DOUBLE_EQ(ramp.default_ms, 26000);
  EXPECT_DOUBLE_EQ(ramp.default_ratio_ms, ramp.default_ms) << "the ratio is the only slow setting";
  EXPECT_DOUBLE_EQ(ramp.default_rounds_ms, ramp.settings_ms);

  const Finding* f = result.only("allocationRamp");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->id, "allocationRamp//app");
  EXPECT_EQ(f->claim.kind, WasteClaim::Kind::kSerial);
  EXPECT_DOUBLE_EQ(f->claim.serial_ms, 19000);
  ASSERT_EQ(f->settings.size(), 1u);
  const SettingChange* ratio = suggested(*f, "spark.dynamicAllocation.executorAllocationRatio");
  ASSERT_NE(ratio, nullptr);
  EXPECT_EQ(ratio->suggested_value, "1");
  EXPECT_EQ(ratio->current_value, "0.25");
  EXPECT_NE(f->explanation.find("25% of the tasks waiting and running"), std::string::npos) << f->explanation;
}

TEST(AllocationRamp, RoundsFarApartHoldTheExecutorsBack) {
  const auto result = analyze_scenario(rounds_far_apart());
  const ClusterShape shape = cluster_shape(result.model);
  EXPECT_DOUBLE_EQ(shape.dynamic_allocation.sustained_backlog_timeout_ms, 20000);
  // The first registration after the submission at 1 s, less the backlog timeout; executors 3
  // and 4 came in the same backlog and measure nothing.
  EXPECT_DOUBLE_EQ(shape.executor_startup_ms, 1000);
  const auto w = what_if(result.model, shape);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->today_executors, 4);
  EXPECT_DOUBLE_EQ(w->today_simulated_ms, 35000);
  ASSERT_TRUE(w->ramp);
  EXPECT_DOUBLE_EQ(w->ramp->settings_ms, 35000);
  // Rounds 1 s apart: the round at 2 s asks for one more (registered at 3 s), the round at 3 s
  // for two (registered at 4 s). Tasks from 1, 3, 4 and 4 s, then 11, 13, 14 and 14 s: the stage
  // ends at 24 s, the application 2 s later.
  EXPECT_DOUBLE_EQ(w->ramp->default_ms, 26000);

  const Finding* f = result.only("allocationRamp");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(f->claim.serial_ms, 9000);
  ASSERT_EQ(f->settings.size(), 1u);
  const SettingChange* rounds = suggested(*f, "spark.dynamicAllocation.sustainedSchedulerBacklogTimeout");
  ASSERT_NE(rounds, nullptr);
  EXPECT_EQ(rounds->suggested_value, "1s");
  EXPECT_EQ(rounds->current_value, "20s");
}

TEST(AllocationRamp, OnlyTheSettingThatHoldsTheExecutorsBackIsSuggested) {
  // The same rounds 20 s apart, with a ratio of 0.9 as well: the tasks waiting and running fill
  // the 4 executors at that ratio at every round (8 x 0.9 at 2 s, 5 x 0.9 at 22 s), so the ratio
  // holds nothing back and only the rounds are named. (At 0.5 the second round would have asked
  // for 3, not the log's 4: the replay would miss the run and weigh nothing.)
  ScenarioLog log = rounds_far_apart();
  log.property("spark.dynamicAllocation.executorAllocationRatio", "0.9");
  const auto result = analyze_scenario(log);
  const auto w = what_if(result.model, cluster_shape(result.model));
  ASSERT_TRUE(w && w->ramp);
  EXPECT_DOUBLE_EQ(w->ramp->default_ratio_ms, w->ramp->settings_ms);
  EXPECT_LT(w->ramp->default_rounds_ms, w->ramp->settings_ms);
  const Finding* f = result.only("allocationRamp");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->settings.size(), 1u);
  EXPECT_EQ(f->settings.front().key, "spark.dynamicAllocation.sustainedSchedulerBacklogTimeout");
  EXPECT_NE(f->explanation.find("Alone, a ratio of 1 wins 0 ms"), std::string::npos) << f->explanation;
}

TEST(AllocationRamp, NoReplayOfTheDefaultRampWithoutASlowerOne) {
  // The default ratio and rounds, or no dynamic allocation at all: nothing to replay.
  ScenarioLog log = capped_by_the_ratio();
  log.property("spark.dynamicAllocation.executorAllocationRatio", "1");
  const auto result = analyze_scenario(log);
  const auto w = what_if(result.model, cluster_shape(result.model));
  ASSERT_TRUE(w);
  EXPECT_FALSE(w->ramp);
  EXPECT_TRUE(result.of_type("allocationRamp").empty());

  ScenarioLog fixed = capped_by_the_ratio();
  fixed.property("spark.dynamicAllocation.enabled", "false");
  const auto static_result = analyze_scenario(fixed);
  EXPECT_TRUE(static_result.of_type("allocationRamp").empty());
}

TEST(AllocationRamp, AWinUnderTheThresholdsIsNotReported) {
  // The ratio's 19 s is 42% of the application: a floor of 20 s, or a share of half, keeps it out.
  Thresholds t = testing::detector_thresholds();
  t.ramp_min_gain_ms = 20000;
  EXPECT_TRUE(analyze_scenario(capped_by_the_ratio(), t).of_type("allocationRamp").empty());
  t = testing::detector_thresholds();
  t.ramp_min_share = 0.5;
  EXPECT_TRUE(analyze_scenario(capped_by_the_ratio(), t).of_type("allocationRamp").empty());
  t = testing::detector_thresholds();
  t.ramp_min_gain_ms = 18000;
  EXPECT_EQ(analyze_scenario(capped_by_the_ratio(), t).of_type("allocationRamp").size(), 1u);
}

TEST(AllocationRamp, AReplayThatMissesTodaysWallClockWeighsNothing) {
  // The ratio of 0.25 again, but the cluster was slow to give the second executor: asked for at
  // 2 s, it registered at 30 s. Executor 1 runs tasks from 3, 13, 23, 33 and 43 s, executor 2
  // from 30, 40 and 50 s: the stage ends at 60 s, the application at 62 s. The replays take each
  // executor the measured 1 s after asking (45 s, as above): 27% short of the run, which a
  // replay trusted within 20% cannot weigh; the cluster held the run back, not the ratio.
  ScenarioLog log;
  log.property("spark.dynamicAllocation.enabled", "true")
      .property("spark.dynamicAllocation.maxExecutors", "4")
      .property("spark.dynamicAllocation.executorAllocationRatio", "0.25")
      .start(0)
      .finished(62000)
      .executor("1", "host-a", 1, 3000)
      .executor("2", "host-a", 1, 30000);
  auto task = [](int64_t launch, const char* executor) {
    return TaskSpec{.launch_ms = launch, .duration_ms = 10000, .executor_id = executor};
  };
  StageSpec s{.stage_id = 0,
              .submit_ms = 1000,
              .complete_ms = 60000,
              .tasks = {task(3000, "1"), task(13000, "1"), task(23000, "1"), task(30000, "2"), task(33000, "1"),
                        task(40000, "2"), task(43000, "1"), task(50000, "2")}};
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 60500, .stages = {s}});
  const auto result = analyze_scenario(log);
  const auto w = what_if(result.model, cluster_shape(result.model));
  ASSERT_TRUE(w && w->ramp);
  EXPECT_DOUBLE_EQ(w->ramp->settings_ms, 45000);
  EXPECT_TRUE(result.of_type("allocationRamp").empty());
  Thresholds t = testing::detector_thresholds();
  t.what_if_max_replay_error = 0.3;
  EXPECT_EQ(analyze_scenario(log, t).of_type("allocationRamp").size(), 1u);
}

}  // namespace
}  // namespace sf::analysis

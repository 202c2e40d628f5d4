// The what-if curve: which executor counts it tries, that it never rises, today's size on it,
// and the knee. Figures worked by hand in the comments.
#include "analysis/models/what_if.h"

#include <gtest/gtest.h>

#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::JobSpec;
using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using testing::analyze_scenario;

// Two executors of 2 cores; one stage of 16 tasks of 10 s from 1 s: four waves, done at 41 s;
// the job ends at 42 s and the application at 44 s.
ScenarioLog sixteen_tasks() {
  ScenarioLog log;
  log.start(0).finished(44000).executor("1", "host-a", 2, 0).executor("2", "host-b", 2, 0);
  StageSpec s{.stage_id = 0,
              .submit_ms = 1000,
              .complete_ms = 41000,
              .tasks = ScenarioLog::uniform_tasks(16, 1000, 10000, {"1", "2"}, 2)};
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 42000, .stages = {s}});
  return log;
}

TEST(WhatIf, TheCurveTheKneeAndTodaysSize) {
  const auto result = analyze_scenario(sixteen_tasks());
  const auto w = what_if(result.model, cluster_shape(result.model));
  ASSERT_TRUE(w);
  EXPECT_EQ(w->today_executors, 2);
  EXPECT_EQ(w->cores_per_executor, 2);
  EXPECT_DOUBLE_EQ(w->measured_ms, 44000);
  EXPECT_DOUBLE_EQ(w->today_simulated_ms, 44000);
  EXPECT_DOUBLE_EQ(w->today_error, 0);
  // The range ends where the 16 tasks run at once, 8 executors (within 2 and 16 times today's):
  // 1, 2, 3, 4, 6, 8. Waves of 10 s: ceil(16 / (2N)); 1 s before the stage and 3 s after it.
  ASSERT_EQ(w->curve.size(), 6u);
  const int32_t executors[] = {1, 2, 3, 4, 6, 8};
  const double wall_ms[] = {84000, 44000, 34000, 24000, 24000, 14000};
  for (size_t i = 0; i < w->curve.size(); ++i) {
    EXPECT_EQ(w->curve[i].executors, executors[i]);
    EXPECT_DOUBLE_EQ(w->curve[i].predicted_ms, wall_ms[i]) << executors[i] << " executors";
    if (i > 0) {
      EXPECT_LE(w->curve[i].predicted_ms, w->curve[i - 1].predicted_ms);
    }
  }
  // The best is 14 s; the smallest count within 5% of it (14.7 s) is 8.
  EXPECT_DOUBLE_EQ(w->best_ms, 14000);
  EXPECT_EQ(w->knee_executors, 8);
  // Executors held: 8 executors from 0 s to the end at 14 s.
  EXPECT_NEAR(w->curve.back().executor_hours, 8 * 14000 / 3.6e6, 1e-12);
}

// A log may claim any core count: the simulation holds no more slots per executor than the
// largest stage has tasks (here 16), so 2^31 - 1 cores per executor cost no more than 16.
TEST(WhatIf, AnExecutorClaimingBillionsOfCoresRunsAsManyTasksAsAStageHas) {
  ScenarioLog log;
  log.start(0).finished(44000).executor("1", "host-a", 2147483647, 0);
  StageSpec s{.stage_id = 0,
              .submit_ms = 1000,
              .complete_ms = 11000,
              .tasks = ScenarioLog::uniform_tasks(16, 1000, 10000, {"1"}, 16)};
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 42000, .stages = {s}});
  const auto result = analyze_scenario(log);
  const ClusterShape shape = cluster_shape(result.model);
  EXPECT_EQ(shape.cores_per_executor, 2147483647);
  EXPECT_EQ(simulated_cluster(shape, 1, 16).slots_per_executor, 16);
  const auto w = what_if(result.model, shape);
  ASSERT_TRUE(w);
  // One executor runs the 16 tasks at once: today's wall-clock back, and no size does better.
  EXPECT_DOUBLE_EQ(w->today_simulated_ms, 44000);
  EXPECT_DOUBLE_EQ(w->best_ms, 44000);
}

// The stages' task durations are worked out and the sizes simulated on the threads given: the
// same curve, to the bit, on one thread and on three. Stages of skewed tasks, so each stage's
// duration search ends at a shape of its own.
TEST(WhatIf, TheCurveIsTheSameOnOneThreadAndOnSeveral) {
  ScenarioLog log;
  log.start(0).finished(400000).executor("1", "host-a", 2, 0).executor("2", "host-b", 2, 0);
  std::vector<StageSpec> stages;
  int64_t at = 1000;
  for (int64_t stage = 0; stage < 12; ++stage) {
    std::vector<sf::testing::TaskSpec> tasks;
    int64_t end = at;
    for (int task = 0; task < 40; ++task) {
      sf::testing::TaskSpec t;
      t.launch_ms = at + (task / 4) * 500;
      t.duration_ms = 100 + (task * task * (stage + 1)) % 3000;
      t.executor_id = task % 2 == 0 ? "1" : "2";
      end = std::max(end, t.launch_ms + t.duration_ms);
      tasks.push_back(t);
    }
    stages.push_back({.stage_id = stage, .submit_ms = at, .complete_ms = end, .tasks = tasks});
    at = end + 100;
  }
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = at, .stages = stages});
  const auto result = analyze_scenario(log);
  const ClusterShape shape = cluster_shape(result.model);
  const auto one = what_if(result.model, shape, 1);
  const auto three = what_if(result.model, shape, 3);
  ASSERT_TRUE(one && three);
  ASSERT_EQ(one->curve.size(), three->curve.size());
  for (size_t i = 0; i < one->curve.size(); ++i) {
    EXPECT_EQ(one->curve[i].simulated_ms, three->curve[i].simulated_ms) << one->curve[i].executors << " executors";
    EXPECT_EQ(one->curve[i].executor_hours, three->curve[i].executor_hours);
  }
  EXPECT_EQ(one->today_simulated_ms, three->today_simulated_ms);
}

TEST(WhatIf, NothingWithoutAnApplicationStart) {
  model::AppModel empty;
  EXPECT_FALSE(what_if(empty, cluster_shape(empty)));
}

}  // namespace
}  // namespace sf::analysis

// The critical path (the least wall-clock with unlimited executors) and the ideal time (today's
// cores, no skew) on a log built by hand. Figures worked by hand in the comments.
#include "analysis/models/critical_path.h"

#include <gtest/gtest.h>

#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::JobSpec;
using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using sf::testing::TaskSpec;
using testing::analyze_scenario;

StageSpec stage(int64_t id, int64_t submit_ms, int64_t complete_ms, std::vector<TaskSpec> tasks,
                std::vector<int64_t> parents = {}) {
  StageSpec s;
  s.stage_id = id;
  s.submit_ms = submit_ms;
  s.complete_ms = complete_ms;
  s.parent_ids = std::move(parents);
  for (size_t i = 0; i < tasks.size(); ++i) tasks[i].index = static_cast<int32_t>(i);
  s.tasks = std::move(tasks);
  return s;
}

// One executor of 4 cores; a 100 s application.
//   job 0 over [1, 55) s:
//     stage 0 submitted at 2 s, tasks of 10, 10, 10 and 20 s launched at 3 s: done at 23 s
//     stage 1 submitted at 2 s beside it, 2 tasks of 5 s launched at 13 s (cores were busy)
//     stage 2 (parents 0 and 1) submitted at 24 s, one task of 30 s launched at 24.5 s
//   job 1 over [60, 70) s: stage 3 submitted at 61 s, one task of 8 s at once
ScenarioLog three_stages_then_one() {
  ScenarioLog log;
  log.start(0).finished(100000).executor("1", "host-a", 4, 0);
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 55000,
           .stages = {stage(0, 2000, 23000,
                            {{.launch_ms = 3000, .duration_ms = 10000},
                             {.launch_ms = 3000, .duration_ms = 10000},
                             {.launch_ms = 3000, .duration_ms = 10000},
                             {.launch_ms = 3000, .duration_ms = 20000}}),
                      stage(1, 2000, 18000,
                            {{.launch_ms = 13000, .duration_ms = 5000}, {.launch_ms = 13000, .duration_ms = 5000}}),
                      stage(2, 24000, 54500, {{.launch_ms = 24500, .duration_ms = 30000}}, {0, 1})}});
  log.job({.job_id = 1,
           .submit_ms = 60000,
           .end_ms = 70000,
           .stages = {stage(3, 61000, 69000, {{.launch_ms = 61000, .duration_ms = 8000}})}});
  return log;
}

TEST(CriticalPath, DriverTimePlusTheLongestChainOfStageFloors) {
  const auto result = analyze_scenario(three_stages_then_one());
  const auto path = critical_path(result.model);
  ASSERT_TRUE(path);
  // Driver alone: 1 s before job 0, 5 s between the jobs (55 to 60), 30 s after job 1: 36 s.
  EXPECT_DOUBLE_EQ(path->wall_clock_ms, 100000);
  EXPECT_DOUBLE_EQ(path->driver_only_ms, 36000);
  // Floors: stage 0 waited 1 s for its first task and its longest ran 20 s: 21 s. Stage 1 was
  // submitted while stage 0 ran, so its 11 s wait was for cores: 0 + 5 s. Stage 2: 0.5 + 30 s.
  // Stage 3: 8 s. Chain: max(21, 5) + 30.5 = 51.5 s through job 0, then job 1 (submitted after
  // job 0 completed) adds 8 s: 59.5 s.
  EXPECT_DOUBLE_EQ(path->chain_ms, 59500);
  EXPECT_DOUBLE_EQ(path->length_ms, 95500);
  ASSERT_EQ(path->stages.size(), 3u);
  EXPECT_EQ(path->stages[0].stage.stage_id, 0);
  EXPECT_DOUBLE_EQ(path->stages[0].wait_ms, 1000);
  EXPECT_DOUBLE_EQ(path->stages[0].longest_task_ms, 20000);
  EXPECT_DOUBLE_EQ(path->stages[0].floor_ms, 21000);
  EXPECT_EQ(path->stages[1].stage.stage_id, 2);
  EXPECT_EQ(path->stages[2].stage.stage_id, 3);
  // Ideal on today's 4 cores with every task at its stage's mean: stage 0 has 4 tasks averaging
  // 12.5 s, one wave: 1 + 12.5 = 13.5 s; stage 2 30.5 s; stage 3 8 s: 52 s, plus 36 s: 88 s.
  EXPECT_DOUBLE_EQ(path->cores, 4);
  EXPECT_DOUBLE_EQ(path->ideal_chain_ms, 52000);
  EXPECT_DOUBLE_EQ(path->ideal_ms, 88000);
}

TEST(CriticalPath, NeverMoreThanTheWallClock) {
  // A stage whose longest task is its whole window, in a job that is the whole application: the
  // path is the wall-clock, not more.
  ScenarioLog log;
  log.start(0).finished(10000).executor("1", "host-a", 1, 0);
  log.job({.job_id = 0,
           .submit_ms = 0,
           .end_ms = 10000,
           .stages = {stage(0, 0, 10000, {{.launch_ms = 0, .duration_ms = 10000}})}});
  const auto path = critical_path(analyze_scenario(log).model);
  ASSERT_TRUE(path);
  EXPECT_DOUBLE_EQ(path->length_ms, 10000);
  EXPECT_LE(path->ideal_ms, 10000);
}

TEST(CriticalPath, ConcurrentJobsAreNotChained) {
  // Two jobs over the same [1, 21) s window, each one stage with a 15 s task: neither waited for
  // the other, so the chain is one stage, 15 s, not 30; with the 1 s before the jobs, 16 s.
  // (Not at 0 s: the log's times are epoch milliseconds, and 0 reads as a time not logged.)
  ScenarioLog log;
  log.start(0).finished(21000).executor("1", "host-a", 2, 0);
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 21000,
           .stages = {stage(0, 1000, 16000, {{.launch_ms = 1000, .duration_ms = 15000}})}});
  log.job({.job_id = 1,
           .submit_ms = 1000,
           .end_ms = 21000,
           .stages = {stage(1, 1000, 16000, {{.launch_ms = 1000, .duration_ms = 15000}})}});
  const auto path = critical_path(analyze_scenario(log).model);
  ASSERT_TRUE(path);
  EXPECT_DOUBLE_EQ(path->driver_only_ms, 1000);
  EXPECT_DOUBLE_EQ(path->chain_ms, 15000);
  EXPECT_DOUBLE_EQ(path->length_ms, 16000);
}

}  // namespace
}  // namespace sf::analysis

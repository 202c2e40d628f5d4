// A stage's task durations rebuilt from the model's quantiles, count and sums: the order
// statistics stay at their ranks, the sum is kept, and failed, killed and lost attempts are
// replayed as the simulation needs them. Figures worked by hand in the comments.
#include "analysis/models/task_durations.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::JobSpec;
using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using sf::testing::TaskSpec;
using testing::analyze_scenario;

double sum_of(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

TEST(TaskDurations, QuantilesStayAtTheirRanksAndTheSumIsKept) {
  // A real stage of the corpus (dsAndDf_eventlog stage 3): 200 tasks, most under 100 ms, the top
  // 5% near 4.7 s, 70,780 ms in all. Ranks by nearest rank, floor(q x 200): min 0, p5 10, p25 50,
  // p50 100, p75 150, p95 190; max 199.
  model::Quantiles q{200, 39, 43, 54, 66, 99, 4677, 4711};
  const std::vector<double> d = durations_from_quantiles(q, 70780);
  ASSERT_EQ(d.size(), 200u);
  EXPECT_TRUE(std::is_sorted(d.begin(), d.end()));
  EXPECT_DOUBLE_EQ(d[0], 39);
  EXPECT_DOUBLE_EQ(d[10], 43);
  EXPECT_DOUBLE_EQ(d[50], 54);
  EXPECT_DOUBLE_EQ(d[100], 66);
  EXPECT_DOUBLE_EQ(d[150], 99);
  EXPECT_DOUBLE_EQ(d[190], 4677);
  EXPECT_DOUBLE_EQ(d[199], 4711);
  EXPECT_NEAR(sum_of(d), 70780, 1);
  // The ten values from rank 190 hold ~46.9 s; the 39 between p75 and p95 must hold about
  // 70,780 - 46,900 - 9,000 (the first 151) ~ 14.9 s: a straight line from 99 to 4,677 ms would
  // hold ~93 s, so the shape bends and most stay near 99 ms with a few long ones.
  EXPECT_LT(d[170], 500) << "the middle of the p75-p95 segment stays near its lower anchor";
  EXPECT_GT(d[189], 2000) << "the top of it rises toward p95";
}

// The shape search sums each segment on 256 samples, whatever the stage's task count (the time
// limit of docs/limits.md): a stage of a million tasks is rebuilt with its quantiles at their
// ranks and its sum within a fraction of a percent. The straight line from anchor to anchor would
// sum to 334 million ms; 180 million needs the shape to bend.
TEST(TaskDurations, AMillionTasksAreRebuiltFromSampledSums) {
  const model::Quantiles q{1'000'000, 10, 20, 50, 100, 200, 1000, 5000};
  const std::vector<double> d = durations_from_quantiles(q, 180e6);
  ASSERT_EQ(d.size(), 1'000'000u);
  EXPECT_TRUE(std::is_sorted(d.begin(), d.end()));
  EXPECT_DOUBLE_EQ(d[500'000], 100);
  EXPECT_DOUBLE_EQ(d[950'000], 1000);
  EXPECT_DOUBLE_EQ(d.back(), 5000);
  EXPECT_NEAR(sum_of(d), 180e6, 180e6 * 0.002);
}

TEST(TaskDurations, FewTasksAreTheirQuantiles) {
  // One task: every quantile is it.
  EXPECT_EQ(durations_from_quantiles({1, 700, 700, 700, 700, 700, 700, 700}, 700), std::vector<double>{700});
  // Two tasks: ranks floor(q x 2) are 0 for min, p5, p25 and 1 for p50 and up.
  EXPECT_EQ(durations_from_quantiles({2, 100, 100, 100, 900, 900, 900, 900}, 1000), (std::vector<double>{100, 900}));
  // A sum the anchors cannot reach is not forced: the values stay between their anchors.
  const std::vector<double> d = durations_from_quantiles({5, 10, 10, 10, 20, 30, 30, 40}, 1e6);
  for (double v : d) {
    EXPECT_GE(v, 10);
    EXPECT_LE(v, 40);
  }
  EXPECT_TRUE(durations_from_quantiles({}, 0).empty());
}

TEST(TaskDurations, EveryAttemptThatHeldASlotIsReplayedButTheLostOnes) {
  // Stage 0: three successes of 1, 2 and 3 s; one ExceptionFailure of 600 ms; one attempt lost
  // with its executor (1 s); one killed speculative copy of 400 ms. Replayed: the three
  // successes, the failed attempt at the failed attempts' mean (1,600 / 2 = 800 ms, one of the two
  // being lost), the killed one at 400 ms; the lost attempt is the simulation's to make again.
  ScenarioLog log;
  log.start(0).finished(20000).executor("1", "host-a", 4, 100).executor("2", "host-b", 4, 100);
  StageSpec s;
  s.stage_id = 0;
  s.submit_ms = 1000;
  s.complete_ms = 6000;
  s.num_tasks = 3;
  s.tasks = {{.launch_ms = 1000, .duration_ms = 1000, .index = 0},
             {.launch_ms = 1000, .duration_ms = 2000, .index = 1},
             {.launch_ms = 1000, .duration_ms = 3000, .index = 2},
             {.launch_ms = 1000,
              .duration_ms = 600,
              .executor_id = "2",
              .reason = "ExceptionFailure",
              .failure_detail = "java.lang.RuntimeException",
              .index = 0,
              .attempt = 1},
             {.launch_ms = 1100,
              .duration_ms = 1000,
              .executor_id = "2",
              .reason = "ExecutorLostFailure",
              .failure_detail = "Container marked as failed",
              .index = 1,
              .attempt = 1},
             {.launch_ms = 1200,
              .duration_ms = 400,
              .executor_id = "2",
              .reason = "TaskKilled",
              .failure_detail = "another attempt succeeded",
              .index = 2,
              .attempt = 1,
              .speculative = true}};
  log.job({.job_id = 0, .submit_ms = 900, .end_ms = 6500, .stages = {s}});
  const auto result = analyze_scenario(log);
  ASSERT_EQ(result.model.stages.size(), 1u);
  const model::StageAttempt& stage = result.model.stages[0];
  EXPECT_DOUBLE_EQ(succeeded_task_time_ms(stage), 6000);

  std::vector<double> replayed = replay_task_durations(stage);
  EXPECT_EQ(replayed, replay_task_durations(stage)) << "the same stage replays in the same order";
  std::sort(replayed.begin(), replayed.end());
  EXPECT_EQ(replayed, (std::vector<double>{400, 800, 1000, 2000, 3000}));
}

}  // namespace
}  // namespace sf::analysis

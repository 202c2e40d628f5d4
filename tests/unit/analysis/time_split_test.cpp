// The time split: a window cut by the windows of the work it started, for the application, its
// jobs and its SQL executions. Figures worked by hand in the comments.
#include "analysis/models/time_split.h"

#include <gtest/gtest.h>

#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::JobSpec;
using sf::testing::ScenarioLog;
using sf::testing::SqlSpec;
using sf::testing::StageSpec;
using testing::analyze_scenario;

TEST(TimeSplit, AWindowIsCutByWhatRanInsideIt) {
  // [0, 100 s) with inner windows [10, 30), [20, 40), [60, 70) s: they cover 30 + 10 = 40 s;
  // 10 s before the first, one gap of 20 s (40 to 60), 30 s after the last.
  const WindowSplit s = split_window({0, 100000}, {{10000, 30000}, {20000, 40000}, {60000, 70000}});
  EXPECT_DOUBLE_EQ(s.duration_ms, 100000);
  EXPECT_DOUBLE_EQ(s.before_first_ms, 10000);
  EXPECT_DOUBLE_EQ(s.inside_ms, 40000);
  EXPECT_DOUBLE_EQ(s.between_ms, 20000);
  EXPECT_DOUBLE_EQ(s.after_last_ms, 30000);
  EXPECT_DOUBLE_EQ(s.outside_ms(), 60000);
  EXPECT_EQ(s.gaps_over_one_second, 1);
  EXPECT_DOUBLE_EQ(s.longest_gap_ms, 20000);
}

TEST(TimeSplit, InnerWindowsAreClippedAndAnUnknownEndLeavesNothingAfter) {
  // [-5, 20) is clipped to [0, 20); [90, 130) to [90, 100). Inside 20 + 10 = 30 s, between 70 s.
  const WindowSplit clipped = split_window({0, 100000}, {{-5000, 20000}, {90000, 130000}});
  EXPECT_DOUBLE_EQ(clipped.before_first_ms, 0);
  EXPECT_DOUBLE_EQ(clipped.inside_ms, 30000);
  EXPECT_DOUBLE_EQ(clipped.between_ms, 70000);
  EXPECT_DOUBLE_EQ(clipped.after_last_ms, 0);
  // A log cut short: what followed the last window is unknown, not driver time.
  const WindowSplit cut = split_window({0, 100000}, {{10000, 30000}}, /*end_known=*/false);
  EXPECT_DOUBLE_EQ(cut.after_last_ms, 0);
  EXPECT_DOUBLE_EQ(cut.outside_ms(), 10000);
  // Nothing ran inside: all of it is before the (missing) first window.
  const WindowSplit empty = split_window({0, 100000}, {});
  EXPECT_DOUBLE_EQ(empty.before_first_ms, 100000);
  EXPECT_DOUBLE_EQ(empty.inside_ms, 0);
}

// 100 s application; SQL execution 0 over [2, 95) s runs job 0 over [5, 35) s (stage 0 over
// [6, 20) s, stage 1 over [22, 34) s) and job 1 over [50, 90) s (stage 2 over [52, 88) s).
ScenarioLog two_jobs_in_one_query() {
  ScenarioLog log;
  log.start(0).finished(100000).executor("1", "host-a", 4, 500);
  auto stage = [](int64_t id, int64_t submit, int64_t end) {
    StageSpec s;
    s.stage_id = id;
    s.submit_ms = submit;
    s.complete_ms = end;
    s.tasks = ScenarioLog::uniform_tasks(1, submit, end - submit, {"1"}, 4);
    return s;
  };
  log.job({.job_id = 0,
           .submit_ms = 5000,
           .end_ms = 35000,
           .sql_execution_id = 0,
           .stages = {stage(0, 6000, 20000), stage(1, 22000, 34000)}});
  log.job(
      {.job_id = 1, .submit_ms = 50000, .end_ms = 90000, .sql_execution_id = 0, .stages = {stage(2, 52000, 88000)}});
  log.sql({.execution_id = 0, .start_ms = 2000, .end_ms = 95000, .plan = {.name = "Project"}});
  return log;
}

TEST(TimeSplit, TheApplicationItsJobsAndItsSqlExecutions) {
  const auto result = analyze_scenario(two_jobs_in_one_query());
  const model::AppModel& model = result.model;

  // Application: 5 s before job 0, jobs 30 + 40 = 70 s, 15 s between them, 10 s after job 1:
  // the driver alone 30 s.
  const auto app = app_time_split(model);
  ASSERT_TRUE(app);
  EXPECT_DOUBLE_EQ(app->before_first_ms, 5000);
  EXPECT_DOUBLE_EQ(app->inside_ms, 70000);
  EXPECT_DOUBLE_EQ(app->between_ms, 15000);
  EXPECT_DOUBLE_EQ(app->after_last_ms, 10000);
  EXPECT_DOUBLE_EQ(app->outside_ms(), 30000);

  // Job 0 over [5, 35) s: 1 s before stage 0, stages 14 + 12 = 26 s, 2 s between, 1 s after.
  const auto jobs = job_time_splits(model);
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].job_id, 0);
  EXPECT_DOUBLE_EQ(jobs[0].split.duration_ms, 30000);
  EXPECT_DOUBLE_EQ(jobs[0].split.before_first_ms, 1000);
  EXPECT_DOUBLE_EQ(jobs[0].split.inside_ms, 26000);
  EXPECT_DOUBLE_EQ(jobs[0].split.between_ms, 2000);
  EXPECT_DOUBLE_EQ(jobs[0].split.after_last_ms, 1000);

  // SQL 0 over [2, 95) s: 3 s of planning before job 0, jobs 70 s, 15 s between, 5 s after.
  const auto sql = sql_time_splits(model);
  ASSERT_EQ(sql.size(), 1u);
  EXPECT_DOUBLE_EQ(sql[0].split.duration_ms, 93000);
  EXPECT_DOUBLE_EQ(sql[0].split.before_first_ms, 3000);
  EXPECT_DOUBLE_EQ(sql[0].split.inside_ms, 70000);
  EXPECT_DOUBLE_EQ(sql[0].split.between_ms, 15000);
  EXPECT_DOUBLE_EQ(sql[0].split.after_last_ms, 5000);

  // The analysis carries the same split.
  ASSERT_TRUE(result.analysis.economics.time_split);
  EXPECT_DOUBLE_EQ(result.analysis.economics.time_split->outside_ms(), 30000);
}

}  // namespace
}  // namespace sf::analysis

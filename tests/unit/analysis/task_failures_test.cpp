// retryWaste, speculationWaste, stageFailed, failures and jobFailureRate on logs built to
// trigger them, and their silence on a clean log.
#include <gtest/gtest.h>

#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::JobSpec;
using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using sf::testing::TaskSpec;
using testing::analyze_scenario;
using namespace testing::finding_readers;

ScenarioLog cluster() {
  ScenarioLog log;
  log.start(0).finished(1000000);
  log.executor("1", "host-a", 4, 100).executor("2", "host-b", 4, 100);
  return log;
}

// 40 tasks of 10 s on 8 cores: 5 waves, a 50 s stage.
StageSpec clean_stage(int64_t id, int64_t start) {
  StageSpec s;
  s.stage_id = id;
  s.name = "clean " + std::to_string(id);
  s.submit_ms = start;
  s.tasks = ScenarioLog::uniform_tasks(40, start, 10000, {"1", "2"}, 4);
  s.complete_ms = start + 50000;
  return s;
}

TEST(TaskFailures, CleanLogHasNoFailureFindings) {
  auto log = cluster();
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 60000, .stages = {clean_stage(0, 1000)}});
  auto result = analyze_scenario(log);
  for (const char* type : {"retryWaste", "speculationWaste", "stageFailed", "failures", "jobFailureRate"}) {
    EXPECT_TRUE(result.of_type(type).empty()) << type;
  }
}

TEST(TaskFailures, FailedStageAttemptThatWasRetried) {
  auto log = cluster();
  StageSpec failed = clean_stage(1, 1000);
  failed.complete_ms = 41000;  // ran 40 s, then a fetch failure failed it
  failed.failure_reason = "org.apache.spark.shuffle.FetchFailedException: Failed to connect to host-b";
  failed.tasks.resize(32);
  failed.tasks.back().reason = "FetchFailed";
  StageSpec retry = clean_stage(1, 42000);
  retry.attempt_id = 1;
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 100000, .stages = {failed, retry}});
  auto result = analyze_scenario(log);

  auto retries = result.of_type("retryWaste", "failedStageAttempt");
  ASSERT_EQ(retries.size(), 1u);
  const Finding& f = *retries[0];
  EXPECT_EQ(f.id, "retryWaste/failedStageAttempt/stage-1.0");
  ASSERT_EQ(f.stages.size(), 1u);
  EXPECT_EQ(f.stages[0].attempt_id, 0);
  ASSERT_TRUE(f.impact.raw_waste);
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, 40000);
  ASSERT_TRUE(f.impact.wall_clock);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  // The whole failed attempt disappears with its cause: no floor of its own clips it.
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->high_ms, 40000);
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->low_ms, 40000);
  EXPECT_NE(f.recommendation.find("shuffle"), std::string::npos);
  ASSERT_FALSE(f.settings.empty());
  EXPECT_EQ(f.settings[0].key, "spark.shuffle.service.enabled");

  auto failed_stage = result.of_type("stageFailed");
  ASSERT_EQ(failed_stage.size(), 1u);
  EXPECT_EQ(failed_stage[0]->band, ImpactBand::kLow) << "the job survived";
  EXPECT_EQ(failed_stage[0]->impact.basis, Basis::kInformational);
  EXPECT_EQ(result.of_type("failures").size(), 1u);
}

TEST(TaskFailures, FailedTasksInsideAStage) {
  auto log = cluster();
  StageSpec stage = clean_stage(0, 1000);
  stage.complete_ms = 81000;
  // 16 attempts ran 20 s each before an OOM: their retries follow.
  for (int i = 0; i < 16; ++i) {
    TaskSpec t;
    t.launch_ms = 51000;
    t.duration_ms = 20000;
    t.executor_id = i % 2 == 0 ? "1" : "2";
    t.reason = "ExceptionFailure";
    t.failure_detail = "java.lang.OutOfMemoryError";
    t.index = i;
    stage.tasks.push_back(t);
  }
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 90000, .stages = {stage}});
  auto result = analyze_scenario(log);
  auto retries = result.of_type("retryWaste", "failedTasks");
  ASSERT_EQ(retries.size(), 1u);
  const Finding& f = *retries[0];
  // 320 s of failed time; 720 s of task time over an 80 s stage is 9 in flight: 35.6 s.
  EXPECT_NEAR(f.impact.raw_waste->value, 320000.0 / 9.0, 1e-6);
  EXPECT_NE(f.explanation.find("OutOfMemoryError"), std::string::npos);
  EXPECT_NE(f.recommendation.find("memory"), std::string::npos);
  auto failures = result.of_type("failures");
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0]->rule, "ExceptionFailure");
  EXPECT_EQ(failures[0]->band, ImpactBand::kMedium);
}

TEST(TaskFailures, SpeculativeDuplicatesThatLost) {
  auto log = cluster();
  StageSpec stage = clean_stage(0, 1000);
  for (int i = 0; i < 8; ++i) {
    TaskSpec t;
    t.launch_ms = 31000;
    t.duration_ms = 15000;
    t.executor_id = "2";
    t.reason = "TaskKilled";
    t.speculative = true;
    t.attempt = 1;
    t.index = 32 + i;
    stage.tasks.push_back(t);
  }
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 60000, .stages = {stage}});
  auto result = analyze_scenario(log);
  auto spec = result.of_type("speculationWaste");
  ASSERT_EQ(spec.size(), 1u);
  const Finding& f = *spec[0];
  // 120 s killed; 520 s of task time over 50 s is 10.4 in flight: 11.5 s.
  EXPECT_NEAR(f.impact.raw_waste->value, 120000.0 / 10.4, 1e-6);
  EXPECT_EQ(f.settings.at(0).key, "spark.speculation.multiplier");
}

TEST(TaskFailures, FailedJobs) {
  auto log = cluster();
  StageSpec doomed = clean_stage(0, 1000);
  doomed.complete_ms = 51000;
  doomed.failure_reason = "Job aborted due to stage failure: Task 3 in stage 0.0 failed 4 times";
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 51000, .succeeded = false, .stages = {doomed}});
  log.job({.job_id = 1, .submit_ms = 60000, .end_ms = 110000, .stages = {clean_stage(1, 60000)}});
  auto result = analyze_scenario(log);
  auto rate = result.of_type("jobFailureRate");
  ASSERT_EQ(rate.size(), 1u);
  EXPECT_EQ(rate[0]->impact.basis, Basis::kResourceOnly);
  ASSERT_TRUE(rate[0]->impact.raw_waste);
  EXPECT_EQ(rate[0]->impact.raw_waste->unit, WasteUnit::kCoreHours);
  // The failed job's 40 tasks of 10 s ran 400 core-seconds; its 50 s of wall-clock is evidence.
  EXPECT_NEAR(rate[0]->impact.raw_waste->value, 40 * 10000.0 / 3.6e6, 1e-12);
  EXPECT_DOUBLE_EQ(evidence_of(*rate[0], "failedJobTimeMs"), 50000);
  auto failed_stage = result.of_type("stageFailed");
  ASSERT_EQ(failed_stage.size(), 1u);
  EXPECT_EQ(failed_stage[0]->band, ImpactBand::kHigh) << "its job failed";
}

}  // namespace
}  // namespace sf::analysis

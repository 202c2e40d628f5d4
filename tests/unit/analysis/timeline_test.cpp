// coldStart, stageSlowness, utilization and autoscalingChurn on logs built to trigger each
// rule, near misses just under each threshold, and their silence on a clean log. Expected
// figures are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/settings/cluster_shape.h"
#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::JobSpec;
using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using testing::analyze_scenario;
using namespace testing::finding_readers;
using testing::Analyzed;

std::vector<const Finding*> timeline_findings(const Analyzed& result) {
  std::vector<const Finding*> found;
  for (const char* type : {"coldStart", "stageSlowness", "utilization", "autoscalingChurn"}) {
    for (const Finding* f : result.of_type(type)) found.push_back(f);
  }
  return found;
}

// n tasks of task_ms on the two 4-core executors, all launched at `start` when n <= 8.
StageSpec stage_of(int64_t id, int64_t start, int n, int64_t task_ms, int64_t complete_ms) {
  StageSpec s;
  s.stage_id = id;
  s.name = "work " + std::to_string(id);
  s.submit_ms = start;
  s.tasks = ScenarioLog::uniform_tasks(n, start, task_ms, {"1", "2"}, 4);
  s.complete_ms = complete_ms;
  return s;
}

ScenarioLog cluster(int64_t app_end_ms, int64_t executors_added_ms = 100) {
  ScenarioLog log;
  log.start(0).finished(app_end_ms);
  log.executor("1", "host-a", 4, executors_added_ms).executor("2", "host-b", 4, executors_added_ms);
  return log;
}

// Executors registering at `executors_ms`, one job submitted at `job_ms` and ending at
// `job_end_ms`, its 8 tasks of 10 s all launched at `first_task_ms`.
ScenarioLog first_task_at(int64_t app_end_ms, int64_t executors_ms, int64_t job_ms, int64_t first_task_ms,
                          int64_t job_end_ms) {
  auto log = cluster(app_end_ms, executors_ms);
  StageSpec s = stage_of(0, job_ms, 8, 10000, job_end_ms - 1000);
  for (auto& t : s.tasks) t.launch_ms = first_task_ms;
  log.job({.job_id = 0, .submit_ms = job_ms, .end_ms = job_end_ms, .stages = {s}});
  return log;
}

TEST(Timeline, CleanLogHasNoFindings) {
  // 100 s application, its one stage starting after 1 s and lasting 50 s.
  auto log = cluster(100000);
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 60000, .stages = {stage_of(0, 1000, 40, 10000, 51000)}});
  EXPECT_TRUE(timeline_findings(analyze_scenario(log)).empty());
}

// --- driverTime ------------------------------------------------------------------------------

// A 10 s application whose one job runs from 1 s to 3 s: 7 s after it, 70% of the app, well past
// driverTime.minShare (15%) and significant for so short an app.
ScenarioLog driver_after_job(bool job_succeeded) {
  auto log = cluster(10000);
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 3000,
           .succeeded = job_succeeded,
           .stages = {stage_of(0, 1000, 8, 1500, 2900)}});
  return log;
}

TEST(Timeline, DriverTimeAfterTheLastJob) {
  auto result = analyze_scenario(driver_after_job(true));
  ASSERT_EQ(result.of_type("driverTime").size(), 1u);
  const Finding& f = *result.of_type("driverTime")[0];
  EXPECT_EQ(f.id, "driverTime/outsideJobs/app");
  EXPECT_DOUBLE_EQ(high_of(f), 7000);
}

TEST(Timeline, DriverTimeAfterAFailedLastJobIsTheFailuresNotTheDrivers) {
  // The same application ending on a failed job: the 7 s after it are the driver handling the
  // failure and stopping, so nothing is left to claim.
  auto result = analyze_scenario(driver_after_job(false));
  EXPECT_TRUE(result.of_type("driverTime").empty());
}

TEST(Timeline, DriverTimeBetweenJobsCountsWhenTheLastJobFailed) {
  // Jobs at 1-2 s and 6-7 s, the second failing, app ends at 8 s: 4 s between the jobs (50%) is
  // still the driver's; the 1 s after the failed one is not claimed.
  auto log = cluster(8000);
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 2000, .stages = {stage_of(0, 1000, 8, 800, 1900)}});
  log.job({.job_id = 1,
           .submit_ms = 6000,
           .end_ms = 7000,
           .succeeded = false,
           .stages = {stage_of(1, 6000, 8, 800, 6900)}});
  auto result = analyze_scenario(log);
  ASSERT_EQ(result.of_type("driverTime").size(), 1u);
  const Finding& f = *result.of_type("driverTime")[0];
  EXPECT_DOUBLE_EQ(high_of(f), 4000);
  EXPECT_NE(f.explanation.find("not counted: the last job failed"), std::string::npos) << f.explanation;
}

TEST(Timeline, DriverTimeInsideAQueryIsSparksNotTheDriversCode) {
  // Two queries, each an SQL execution around its job: 1-2 s (job 1-2 s) and 2.5-9 s (job 8-9 s,
  // the 5.5 s before it planning, broadcasting, a subquery), app ends at 10 s. Outside jobs
  // after the first: 6 s between them, 1 s after; of those, 0.5 s (2-2.5 s) and the 1 s after
  // are the driver's own code, 5.5 s is inside the second execution and not claimed.
  auto log = cluster(10000);
  log.sql({.execution_id = 0, .start_ms = 1000, .end_ms = 2000});
  log.sql({.execution_id = 1, .start_ms = 2500, .end_ms = 9000});
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 2000,
           .sql_execution_id = 0,
           .stages = {stage_of(0, 1000, 8, 800, 1900)}});
  log.job({.job_id = 1,
           .submit_ms = 8000,
           .end_ms = 9000,
           .sql_execution_id = 1,
           .stages = {stage_of(1, 8000, 8, 800, 8900)}});
  auto result = analyze_scenario(log);
  ASSERT_EQ(result.of_type("driverTime").size(), 1u);
  const Finding& f = *result.of_type("driverTime")[0];
  EXPECT_DOUBLE_EQ(high_of(f), 1500);
  EXPECT_NE(f.explanation.find("5.5s passed inside SQL executions"), std::string::npos) << f.explanation;
}

TEST(Timeline, ASubExecutionsJobsAreItsRootsInTheTimeSplitAndTheCost) {
  // The rapids db_subExecution_id log's shape: root execution 0 from 1 s to 60 s runs no job of
  // its own; its sub-execution 1 runs the job from 5 s to 58 s. The root was not "without a job"
  // for 59 s, and it carries the sub-execution's cost rather than splitting it.
  auto log = cluster(100000);
  log.sql({.execution_id = 0, .start_ms = 1000, .end_ms = 60000});
  log.sql({.execution_id = 1, .start_ms = 4000, .end_ms = 59000, .root_execution_id = 0});
  log.job({.job_id = 0,
           .submit_ms = 5000,
           .end_ms = 58000,
           .sql_execution_id = 1,
           .stages = {stage_of(0, 5000, 8, 50000, 57000)}});
  const auto result = analyze_scenario(log);
  const auto& splits = result.analysis.economics.sql;
  ASSERT_EQ(splits.size(), 1u) << "the sub-execution is inside its root";
  EXPECT_EQ(splits[0].execution_id, 0);
  EXPECT_LE(splits[0].split.outside_ms(), 6000.0) << "4 s before the job, 2 s after";
  ASSERT_EQ(result.analysis.economics.cost.sql.size(), 1u);
  EXPECT_EQ(result.analysis.economics.cost.sql[0].first, 0);
}

// --- coldStart -------------------------------------------------------------------------------

TEST(Timeline, ColdStartWaitingForExecutors) {
  // Executors register at 40 s; the job was submitted at 2 s; the first task launches at 45 s.
  // 200 s application: gap 45 s >= 30 s and >= 5% (10 s). On YARN, whose scheduler waits for
  // 0.8 of the executors asked for unless told otherwise.
  auto result = analyze_scenario(first_task_at(200000, 40000, 2000, 45000, 57000).property("spark.master", "yarn"));
  auto found = timeline_findings(result);
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_EQ(f.id, "coldStart//app");
  EXPECT_EQ(f.scope, Scope::kApp);
  EXPECT_TRUE(f.stages.empty());
  // Measured, serial, unclipped, no raw figure.
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_EQ(f.impact.method, EstimateMethod::kMeasured);
  ASSERT_TRUE(f.impact.wall_clock);
  EXPECT_DOUBLE_EQ(low_of(f), 45000);
  EXPECT_DOUBLE_EQ(high_of(f), 45000);
  EXPECT_FALSE(f.impact.raw_waste);
  EXPECT_DOUBLE_EQ(evidence_of(f, "firstExecutorAfterMs"), 40000);
  EXPECT_DOUBLE_EQ(evidence_of(f, "firstJobAfterMs"), 2000);
  EXPECT_NE(f.explanation.find("waiting for executors"), std::string::npos) << f.explanation;
  // The first task waited 5 s after the first executor: for a share of the others.
  ASSERT_NE(find_setting(f, "spark.scheduler.minRegisteredResourcesRatio"), nullptr);
  EXPECT_NE(f.recommendation.find("waited 5.0s after the first executor"), std::string::npos) << f.recommendation;
  EXPECT_EQ(find_setting(f, "spark.dynamicAllocation.initialExecutors"), nullptr) << "dynamic allocation is off";
}

// A standalone master starts tasks as soon as any executor registered
// (spark.scheduler.minRegisteredResourcesRatio is 0 there unless set): lowering it is no advice.
TEST(Timeline, ColdStartOnAStandaloneMasterNamesNoRegistrationRatio) {
  auto result = analyze_scenario(
      first_task_at(200000, 40000, 2000, 45000, 57000).property("spark.master", "spark://master:7077"));
  auto found = timeline_findings(result);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(find_setting(*found[0], "spark.scheduler.minRegisteredResourcesRatio"), nullptr);
  // Set above a half, it is the application's own wait, on any master.
  result = analyze_scenario(first_task_at(200000, 40000, 2000, 45000, 57000)
                                .property("spark.master", "spark://master:7077")
                                .property("spark.scheduler.minRegisteredResourcesRatio", "1.0"));
  found = timeline_findings(result);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(find_setting(*found[0], "spark.scheduler.minRegisteredResourcesRatio"), nullptr);
}

TEST(Timeline, ColdStartWhoseFirstExecutorCameLateAsksNothingOfTheRegisteredShare) {
  // The corpus's kubeflow NewYorkTaxiData log (Spark 3.5.3 on Kubernetes): the first job at 34 s,
  // the first executor at 69.3 s and the first task 0.1 s later. Scheduling waited for no share of
  // the executors, so spark.scheduler.minRegisteredResourcesRatio would change nothing.
  auto result = analyze_scenario(first_task_at(300000, 69300, 34000, 69400, 91000));
  auto cold = result.of_type("coldStart");
  ASSERT_EQ(cold.size(), 1u);
  EXPECT_NE(cold[0]->explanation.find("waiting for executors"), std::string::npos) << cold[0]->explanation;
  EXPECT_EQ(find_setting(*cold[0], "spark.scheduler.minRegisteredResourcesRatio"), nullptr);
  EXPECT_NE(cold[0]->recommendation.find("as soon as the first executor registered"), std::string::npos)
      << cold[0]->recommendation;
}

TEST(Timeline, ColdStartOnKubernetesNamesWhatMakesPodsLate) {
  // The kubeflow log's shape on Kubernetes: the executors' pods came 35 s after the first job.
  // The remedies are the pods' (the image pull, where they are placed, how fast they are asked
  // for), not the driver's work.
  auto log = first_task_at(300000, 69300, 34000, 69400, 91000);
  log.property("spark.master", "k8s://https://172.20.0.1:443")
      .property("spark.kubernetes.container.image", "spark:3.5.3")
      .property("spark.kubernetes.container.image.pullPolicy", "Always")
      .property("spark.kubernetes.allocation.batch.size", "1");
  const auto result = analyze_scenario(log);
  auto cold = result.of_type("coldStart");
  ASSERT_EQ(cold.size(), 1u);
  const Finding& f = *cold[0];
  EXPECT_NE(f.recommendation.find("an executor is a pod"), std::string::npos) << f.recommendation;
  EXPECT_NE(f.recommendation.find("Keep the image (spark:3.5.3) small"), std::string::npos) << f.recommendation;
  EXPECT_NE(f.recommendation.find("spark.kubernetes.executor.podTemplateFile"), std::string::npos) << f.recommendation;
  EXPECT_EQ(suggested(f, "spark.kubernetes.container.image.pullPolicy"), "IfNotPresent");
  EXPECT_EQ(suggested(f, "spark.kubernetes.allocation.batch.size"), "2");  // its 2 executors, 1 pod a round
  EXPECT_EQ(f.recommendation.find("Shorten the driver's work"), std::string::npos) << "the driver did not wait";
}

TEST(Timeline, ColdStartOnYarnNamesTheQueue) {
  auto log = first_task_at(300000, 69300, 34000, 69400, 91000);
  log.property("spark.master", "yarn").property("spark.yarn.queue", "etl");
  const auto result = analyze_scenario(log);
  auto cold = result.of_type("coldStart");
  ASSERT_EQ(cold.size(), 1u);
  EXPECT_NE(cold[0]->recommendation.find("free capacity of the queue (etl)"), std::string::npos)
      << cold[0]->recommendation;
}

TEST(Timeline, ColdStartOnTheDriver) {
  // Executors are there after 0.1 s, but the driver submits its first job at 44 s.
  auto log = cluster(200000);
  log.property("spark.dynamicAllocation.enabled", "true");
  log.job({.job_id = 0, .submit_ms = 44000, .end_ms = 60000, .stages = {stage_of(0, 44000, 8, 10000, 55000)}});
  auto result = analyze_scenario(log);
  auto cold = result.of_type("coldStart");
  ASSERT_EQ(cold.size(), 1u);
  EXPECT_DOUBLE_EQ(high_of(*cold[0]), 44000);
  EXPECT_NE(cold[0]->explanation.find("driver-side work"), std::string::npos) << cold[0]->explanation;
  EXPECT_EQ(cold[0]->claim.kind, WasteClaim::Kind::kSerial);
}

TEST(Timeline, ColdStartInAShellIsSomeoneTyping) {
  // The same driver-side gap as above, in spark-shell: the REPL waited for its first query.
  auto log = cluster(200000);
  log.property("spark.repl.class.uri", "spark://driver:40000/classes");
  log.job({.job_id = 0, .submit_ms = 44000, .end_ms = 60000, .stages = {stage_of(0, 44000, 8, 10000, 55000)}});
  EXPECT_TRUE(analyze_scenario(log).of_type("coldStart").empty());
  // Waiting for executors still counts in a shell: the cluster, not the person, was slow.
  auto waiting = first_task_at(200000, 40000, 2000, 45000, 57000);
  waiting.property("spark.repl.class.uri", "spark://driver:40000/classes");
  EXPECT_EQ(analyze_scenario(waiting).of_type("coldStart").size(), 1u);
}

TEST(Timeline, ColdStartWhoseExecutorsCameAfterTheFirstJobIsTheDriverS) {
  // The corpus's spark-events application_1578436911597_0052, a spark-shell: the first query at
  // 1m 42s, executors (asked for by dynamic allocation then) 4.5 s later. The executors came late
  // in the run, but only 4.5 s after there was anything for them to do: the gap is the driver's
  // (here a person typing), not the cluster's.
  auto batch = first_task_at(200000, 106000, 102000, 107000, 121000);
  auto result = analyze_scenario(batch);
  auto cold = result.of_type("coldStart");
  ASSERT_EQ(cold.size(), 1u);
  EXPECT_NE(cold[0]->explanation.find("driver-side work"), std::string::npos) << cold[0]->explanation;
  auto shell = batch;
  shell.app_name("Spark shell");
  EXPECT_TRUE(analyze_scenario(shell).of_type("coldStart").empty());
}

TEST(Timeline, ADatabricksNotebookIsASessionAndAJobsRunIsNot) {
  // Every Databricks cluster's application is "Databricks Shell"; the job group says which kind.
  // A notebook command's group (as in both Databricks logs of the corpus): someone typing.
  auto notebook = cluster(200000).app_name("Databricks Shell");
  notebook.job({.job_id = 0,
                .submit_ms = 44000,
                .end_ms = 60000,
                .job_group = "6625579578828059606_6540318825399155002_5922f96d0d444be0b53fbdc3b3ad6708",
                .stages = {stage_of(0, 44000, 8, 10000, 55000)}});
  EXPECT_TRUE(analyze_scenario(notebook).of_type("coldStart").empty());
  // A Jobs run's group: a batch application, whose 44 s before the first job is driver-side work.
  auto run = cluster(200000).app_name("Databricks Shell");
  run.job({.job_id = 0,
           .submit_ms = 44000,
           .end_ms = 60000,
           .job_group = "job-912-run-3071-action-5520",
           .stages = {stage_of(0, 44000, 8, 10000, 55000)}});
  EXPECT_EQ(analyze_scenario(run).of_type("coldStart").size(), 1u);
  // A job cluster says so in its source tag, whatever the groups.
  auto tagged = cluster(200000).app_name("Databricks Shell");
  tagged.property("spark.databricks.clusterUsageTags.clusterSource", "JOB");
  tagged.job({.job_id = 0, .submit_ms = 44000, .end_ms = 60000, .stages = {stage_of(0, 44000, 8, 10000, 55000)}});
  EXPECT_EQ(analyze_scenario(tagged).of_type("coldStart").size(), 1u);
}

TEST(Timeline, ColdStartNearMisses) {
  // A 29.999 s gap in a 200 s application.
  auto log = cluster(200000);
  log.job({.job_id = 0, .submit_ms = 29999, .end_ms = 60000, .stages = {stage_of(0, 29999, 8, 10000, 41000)}});
  EXPECT_TRUE(analyze_scenario(log).of_type("coldStart").empty());
  // A 31 s gap, just under 5% of a 620.001 s application (31,000.05 ms).
  auto long_log = cluster(620001);
  long_log.job({.job_id = 0, .submit_ms = 31000, .end_ms = 60000, .stages = {stage_of(0, 31000, 8, 10000, 42000)}});
  EXPECT_TRUE(analyze_scenario(long_log).of_type("coldStart").empty());
}

// --- stageSlowness ---------------------------------------------------------------------------

TEST(Timeline, StageSlowness) {
  // 600 s application; 8 tasks of 390 s on 8 cores in a stage from 1 s to 400 s (399 s): past
  // 300 s and past a quarter of the application (150 s). Task time 3,120 s of 4,800 core-s: busy.
  auto log = cluster(600000);
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 401000, .stages = {stage_of(0, 1000, 8, 390000, 400000)}});
  auto result = analyze_scenario(log);
  auto found = timeline_findings(result);
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_EQ(f.id, "stageSlowness//stage-0.0");
  ASSERT_EQ(f.stages.size(), 1u);
  EXPECT_EQ(f.stages[0], (StageRef{0, 0}));
  // waste = 399,000 - 300,000 = 99,000 ms; ceiling = max(390,000, 8 x 389,990 / 8) = 390,000:
  // room 9,000 ms; the stage ran alone: serial 9,000.
  EXPECT_EQ(f.impact.method, EstimateMethod::kModeled);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(high_of(f), 9000);
  EXPECT_DOUBLE_EQ(low_of(f), 9000);
  EXPECT_EQ(f.impact.raw_waste->unit, WasteUnit::kMs);
  EXPECT_DOUBLE_EQ(raw_of(f), 99000);
  EXPECT_DOUBLE_EQ(evidence_of(f, "stageDurationMs"), 399000);
  EXPECT_DOUBLE_EQ(evidence_of(f, "appShare"), 399000.0 / 600000.0);
  EXPECT_DOUBLE_EQ(evidence_of(f, "maxTaskMs"), 390000);
}

TEST(Timeline, StageSlownessNearMisses) {
  // 299.999 s: under stageSlowness.infoMinMs.
  auto log = cluster(600000);
  StageSpec s = stage_of(0, 1000, 8, 290000, 300999);
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 301000, .stages = {s, stage_of(1, 301000, 8, 200000, 501000)}});
  EXPECT_TRUE(analyze_scenario(log).of_type("stageSlowness").empty());
  // 310 s, but the application ran 1,300 s: 23.8% < 25%.
  auto long_log = cluster(1300000);
  long_log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 311000, .stages = {stage_of(0, 1000, 8, 300000, 311000)}});
  EXPECT_TRUE(analyze_scenario(long_log).of_type("stageSlowness").empty());
}

// --- utilization -----------------------------------------------------------------------------

// 599.9 s on 8 cores (the executors register at 100 ms) = 4,799,200 core-ms held; 8 tasks x
// 100 s = 800,000 ms of task time: 1/6 busy.
ScenarioLog idle_cluster(ScenarioLog log) {
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 102000, .stages = {stage_of(0, 1000, 8, 100000, 101500)}});
  return log;
}

TEST(Timeline, Utilization) {
  auto result = analyze_scenario(idle_cluster(cluster(600000)));
  auto found = timeline_findings(result);
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_EQ(f.id, "utilization//app");
  EXPECT_DOUBLE_EQ(evidence_of(f, "utilizationFraction"), 800000.0 / 4799200.0);
  // 4,799,200 - 800,000 core-ms idle = 1.111 core-hours; the idle is the core time held, never more.
  EXPECT_EQ(f.impact.basis, Basis::kResourceOnly);
  EXPECT_EQ(f.impact.raw_waste->unit, WasteUnit::kCoreHours);
  EXPECT_NEAR(raw_of(f), (4799200.0 - 800000.0) / 3.6e6, 1e-12);
  EXPECT_NEAR(evidence_of(f, "heldCoreHours"), 4799200.0 / 3.6e6, 1e-12);
  // Only 101.4 s of the 600 s had a job running: the idle is the driver's time, not the stage's.
  EXPECT_GT(evidence_of(f, "idleOutsideJobsShare"), 0.8);
  EXPECT_NE(f.recommendation.find("while no job ran"), std::string::npos) << f.recommendation;
  // 800,000 / 600,000 / 4 = 0.33 executors busy on average: dynamic allocation up to the 2 there
  // were, or floor(0.33 / 0.5) = 0 -> at least 1 executor statically. No floor is raised.
  EXPECT_EQ(suggested(f, "spark.dynamicAllocation.enabled"), "true");
  EXPECT_EQ(suggested(f, "spark.dynamicAllocation.minExecutors"), "<absent>");
  EXPECT_EQ(suggested(f, "spark.dynamicAllocation.maxExecutors"), "2");
  EXPECT_EQ(suggested(f, "spark.executor.instances"), "1");
}

// Under dynamic allocation the capacity is the executors alive, not the peak over the whole run:
// the sparklint junoHourly log held 71 core-hours yet was told 84 sat idle at its 200-core peak.
TEST(Timeline, UtilizationCountsOnlyTheCoresHeldUnderDynamicAllocation) {
  ScenarioLog log;
  log.start(0).finished(600000);
  log.property("spark.dynamicAllocation.enabled", "true");
  log.property("spark.dynamicAllocation.minExecutors", "4");
  // Eight executors of 4 cores for the first 100 s, then one for the rest.
  for (int i = 1; i <= 8; ++i) {
    log.executor(std::to_string(i), "host-" + std::to_string(i), 4, 100,
                 i == 1 ? std::nullopt : std::optional<int64_t>(101000));
  }
  std::vector<std::string> all;
  for (int i = 1; i <= 8; ++i) all.push_back(std::to_string(i));
  StageSpec busy = stage_of(0, 1000, 0, 0, 0);
  busy.tasks = ScenarioLog::uniform_tasks(32, 1000, 99000, all, 4);
  busy.complete_ms = 100500;
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 100600, .stages = {busy}});
  auto result = analyze_scenario(log);
  // Held: 32 cores x 100.9 s + 4 cores x 499 s = 5,224,800 core-ms; tasks 3,168,000: 60.6% busy,
  // where the peak over the run (32 x 600 s) made it 16.5%.
  EXPECT_TRUE(result.of_type("utilization").empty());

  // The same with the last executor kept for 1,200 s more: now idle, and the advice never raises
  // the floor; its floor of 4 is above the 1 busy on average, so it is lowered.
  log.finished(1800000);
  auto idle = analyze_scenario(log);
  auto found = idle.of_type("utilization");
  ASSERT_EQ(found.size(), 1u);
  const double held = 28.0 * 100900 + 4.0 * 1799900;  // seven executors for 100.9 s, one throughout
  EXPECT_NEAR(evidence_of(*found[0], "heldCoreHours"), held / 3.6e6, 1e-9);
  EXPECT_LE(evidence_of(*found[0], "idleCoreHours"), evidence_of(*found[0], "heldCoreHours"));
  EXPECT_EQ(suggested(*found[0], "spark.dynamicAllocation.minExecutors"), "1");
  EXPECT_EQ(suggested(*found[0], "spark.dynamicAllocation.executorIdleTimeout"), "30s");
}

TEST(Timeline, UtilizationOnDatabricksIsTheClusterSAutoscaling) {
  // The same idle cluster on Databricks (the corpus's xgboost log was told
  // spark.dynamicAllocation.enabled=true and spark.executor.instances): workers, not settings.
  auto databricks = cluster(600000);
  databricks.property("spark.databricks.clusterUsageTags.clusterNodeType", "m5d.2xlarge");
  auto result = analyze_scenario(idle_cluster(databricks));
  auto found = result.of_type("utilization");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(found[0]->settings.empty());
  EXPECT_NE(found[0]->recommendation.find("autoscale between 1 worker"), std::string::npos) << found[0]->recommendation;
}

TEST(Timeline, UtilizationNearMisses) {
  // 16 tasks x 150,001 ms = 2,400,016 of 4,800,000: just over half busy.
  auto log = cluster(600000);
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 310000,
           .stages = {stage_of(0, 1000, 8, 150001, 152000), stage_of(1, 152000, 8, 150001, 303000)}});
  EXPECT_TRUE(analyze_scenario(log).of_type("utilization").empty());
  // Idle, but the application is 299.999 s: not judged.
  auto short_log = cluster(299999);
  short_log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 12000, .stages = {stage_of(0, 1000, 8, 10000, 11500)}});
  EXPECT_TRUE(analyze_scenario(short_log).of_type("utilization").empty());
}

TEST(Timeline, UtilizationWithoutExecutorsIsSilent) {
  ScenarioLog log;
  log.start(0).finished(600000);
  EXPECT_TRUE(timeline_findings(analyze_scenario(log)).empty());
}

// --- autoscalingChurn ------------------------------------------------------------------------

// Executor 1 lives the whole 600 s; executors 2..(1 + short_lived) live `lifetime_ms` each.
ScenarioLog churning(int short_lived, int64_t lifetime_ms, bool dynamic_allocation = true,
                     const std::string& remove_reason = "Executor idle timeout") {
  ScenarioLog log;
  log.start(0).finished(600000);
  if (dynamic_allocation) log.property("spark.dynamicAllocation.enabled", "true");
  log.executor("1", "host-a", 4, 100);
  for (int i = 0; i < short_lived; ++i) {
    log.executor(std::to_string(2 + i), "host-b", 4, 10000, 10000 + lifetime_ms, int64_t{4} << 30, remove_reason);
  }
  // Keep the long-lived executor's 4 cores busy: two stages of 4 tasks x 290 s.
  StageSpec busy;
  busy.stage_id = 0;
  busy.submit_ms = 1000;
  busy.tasks = ScenarioLog::uniform_tasks(4, 1000, 290000, {"1"}, 4);
  busy.complete_ms = 291500;
  StageSpec more = busy;
  more.stage_id = 1;
  more.submit_ms = 292000;
  more.tasks = ScenarioLog::uniform_tasks(4, 292000, 290000, {"1"}, 4);
  more.complete_ms = 582500;
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 590000, .stages = {busy, more}});
  return log;
}

TEST(Timeline, AutoscalingChurn) {
  auto result = analyze_scenario(churning(3, 60000));
  auto churn = result.of_type("autoscalingChurn");
  ASSERT_EQ(churn.size(), 1u);
  const Finding& f = *churn[0];
  EXPECT_EQ(f.id, "autoscalingChurn//app");
  EXPECT_DOUBLE_EQ(evidence_of(f, "shortLivedExecutors"), 3);
  EXPECT_DOUBLE_EQ(evidence_of(f, "meanShortLifetimeMs"), 60000);
  // 3 x 30,000 ms / 3.6e6 = 0.025 core-hours.
  EXPECT_EQ(f.impact.basis, Basis::kResourceOnly);
  EXPECT_EQ(f.impact.raw_waste->unit, WasteUnit::kCoreHours);
  EXPECT_DOUBLE_EQ(raw_of(f), 3 * 30000.0 / 3.6e6);
  // Idle timeout: max(2 x 60 s default, 120 s) = 120 s. The fleet averaged
  // (599,900 + 3 x 60,000) / 600,000 = 1.3 executors: a floor of 1.
  EXPECT_EQ(suggested(f, "spark.dynamicAllocation.executorIdleTimeout"), "120s");
  EXPECT_EQ(suggested(f, "spark.dynamicAllocation.minExecutors"), "1");
  EXPECT_EQ(suggested(f, "spark.dynamicAllocation.schedulerBacklogTimeout"), "5s");
  EXPECT_NE(f.explanation.find("Executor idle timeout"), std::string::npos) << f.explanation;
}

// Dynamic allocation with a 1 s idle timeout: each of three executors works 10 s and is removed;
// stages 1 and 2 are submitted after the removal and wait 10 s each for a new executor. With
// `removal_logged_late_ms`, the removals of executors 1 and 2 reach the log that much later: after
// the next stage's first task, as when an executor's process is slow to end on a loaded machine.
ScenarioLog scaled_away_and_back(int64_t removal_logged_late_ms = 0) {
  ScenarioLog log;
  log.start(0).finished(100000);
  log.property("spark.dynamicAllocation.enabled", "true").property("spark.dynamicAllocation.executorIdleTimeout", "1s");
  log.executor("1", "host-a", 4, 1000, 15000 + removal_logged_late_ms, int64_t{4} << 30, "Executor killed by driver.");
  log.executor("2", "host-a", 4, 30000, 45000 + removal_logged_late_ms, int64_t{4} << 30, "Executor killed by driver.");
  log.executor("3", "host-a", 4, 60000, 75000, int64_t{4} << 30, "Executor killed by driver.");
  const int64_t submitted[] = {2000, 20000, 50000};
  const int64_t first_task[] = {2000, 30000, 60000};
  for (int i = 0; i < 3; ++i) {
    StageSpec stage;
    stage.stage_id = i;
    stage.submit_ms = submitted[i];
    stage.tasks = ScenarioLog::uniform_tasks(4, first_task[i], 10000, {std::to_string(i + 1)}, 4);
    stage.complete_ms = first_task[i] + 10000;
    log.job({.job_id = i, .submit_ms = submitted[i], .end_ms = first_task[i] + 10000, .stages = {stage}});
  }
  return log;
}

TEST(Timeline, AutoscalingChurnCostsTheWaitForNewExecutors) {
  auto result = analyze_scenario(scaled_away_and_back());
  auto churn = result.of_type("autoscalingChurn");
  ASSERT_EQ(churn.size(), 1u);
  const Finding& f = *churn[0];
  // Stage 0 started on an executor it found; stages 1 and 2 waited 10 s each for one asked for anew.
  EXPECT_DOUBLE_EQ(evidence_of(f, "stagesWaitingForExecutors"), 2);
  EXPECT_DOUBLE_EQ(evidence_of(f, "waitForExecutorsMs"), 20000);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
  EXPECT_EQ(f.impact.method, EstimateMethod::kMeasured);
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->high_ms, 20000);
  // The timeout raised from the 1 s in effect; the executors all worked, so the backlog timeout
  // (how soon executors are asked for) is not what went wrong and is left alone.
  EXPECT_EQ(suggested(f, "spark.dynamicAllocation.executorIdleTimeout"), "120s");
  EXPECT_EQ(suggested(f, "spark.dynamicAllocation.minExecutors"), "1");
  for (const auto& s : f.settings) EXPECT_NE(s.key, "spark.dynamicAllocation.schedulerBacklogTimeout");
}

// Idle through the next stage's wait, an executor whose removal is logged late was on its way out:
// the waits count as before.
ScenarioLog removed_late() { return scaled_away_and_back(22000); }

TEST(Timeline, AutoscalingChurnCountsTheWaitWhenAnIdleExecutorsRemovalIsLoggedLate) {
  auto result = analyze_scenario(removed_late());
  auto churn = result.of_type("autoscalingChurn");
  ASSERT_EQ(churn.size(), 1u);
  const Finding& f = *churn[0];
  EXPECT_DOUBLE_EQ(evidence_of(f, "stagesWaitingForExecutors"), 2);
  EXPECT_DOUBLE_EQ(evidence_of(f, "waitForExecutorsMs"), 20000);
  EXPECT_EQ(f.impact.basis, Basis::kSerial);
}

// The same, but an older executor (never removed) ran another stage's tasks through the waits:
// the stages waited for its slots, not for executors asked for anew.
TEST(Timeline, AutoscalingChurnDoesNotCountAWaitForABusyExecutorsSlots) {
  ScenarioLog log = removed_late();
  log.executor("9", "host-c", 4, 500);
  StageSpec busy;
  busy.stage_id = 7;
  busy.submit_ms = 1000;
  busy.tasks = ScenarioLog::uniform_tasks(4, 1000, 90000, {"9"}, 4);
  busy.complete_ms = 91500;
  log.job({.job_id = 7, .submit_ms = 1000, .end_ms = 92000, .stages = {busy}});
  auto result = analyze_scenario(log);
  auto churn = result.of_type("autoscalingChurn");
  ASSERT_EQ(churn.size(), 1u);
  EXPECT_EQ(churn[0]->impact.basis, Basis::kResourceOnly) << "no stage waited for executors";
}

TEST(Timeline, AutoscalingChurnNearMisses) {
  EXPECT_TRUE(analyze_scenario(churning(2, 60000)).of_type("autoscalingChurn").empty()) << "only 2 short-lived";
  EXPECT_TRUE(analyze_scenario(churning(3, 120000)).of_type("autoscalingChurn").empty()) << "lived exactly 2 minutes";
}

TEST(Timeline, ChurnWithoutDynamicAllocationPointsAtLostExecutors) {
  const auto result = analyze_scenario(churning(3, 60000, false));
  auto churn = result.of_type("autoscalingChurn");
  ASSERT_EQ(churn.size(), 1u);
  EXPECT_TRUE(churn[0]->settings.empty());
  EXPECT_NE(churn[0]->recommendation.find("Dynamic allocation is off"), std::string::npos);
}

// A real log (a collect_list on Spark 4.3 out of heap) lost 4 executors with exit code 52 in a
// minute: the failures finding names them with their count and exit code; churn would say it twice.
TEST(Timeline, ExecutorsThatDiedWithAnExitCodeAreTheFailuresFindingsNotChurn) {
  EXPECT_TRUE(
      analyze_scenario(churning(4, 30000, false, "Command exited with code 52")).of_type("autoscalingChurn").empty());
  EXPECT_EQ(analyze_scenario(churning(4, 30000, false, "Executor heartbeat timed out after 140054 ms"))
                .of_type("autoscalingChurn")
                .size(),
            1u)
      << "a loss without an exit code is not counted by the failures finding";
}

}  // namespace
}  // namespace sf::analysis

namespace sf::analysis {
namespace {

// Kubernetes under dynamic allocation: four executor pods asked for at 1 s (Spark 3.4+ writes each
// one's "Request Time" and "Registration Time" in its ExecutorAdded, JsonProtocol.executorInfoToJson);
// the first registers at 3 s, the other three only at 61 s, while the stage's 392 tasks wait.
ScenarioLog slow_pods(const std::string& master, bool with_request_times) {
  ScenarioLog log;
  log.spark_version("3.5.1").start(0).finished(80000);
  log.property("spark.master", master).property("spark.dynamicAllocation.enabled", "true");
  log.executor("1", "10.0.0.1", 4, 3000);
  for (const char* id : {"2", "3", "4"}) log.executor(id, std::string("10.0.0.") + id, 4, 61000);
  if (with_request_times) {
    for (const char* id : {"1", "2", "3", "4"}) log.requested(id, 1000);
  }
  StageSpec stage;
  stage.stage_id = 0;
  stage.name = "scan";
  stage.submit_ms = 2000;
  stage.tasks = ScenarioLog::uniform_tasks(232, 3000, 1000, {"1"}, 4);
  for (auto& task : ScenarioLog::uniform_tasks(160, 61000, 1000, {"1", "2", "3", "4"}, 4)) {
    task.index = static_cast<int>(stage.tasks.size());
    stage.tasks.push_back(task);
  }
  stage.complete_ms = 71000;
  log.job({.job_id = 0, .submit_ms = 2000, .end_ms = 71000, .stages = {stage}});
  return log;
}

TEST(Timeline, SlowExecutorPodsWhileTasksWaited) {
  const Analyzed result = analyze_scenario(slow_pods("k8s://https://k8s.example:443", true));
  auto found = result.detected("executorStartup");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_DOUBLE_EQ(evidence_of(f, "executorsWithRequestTime"), 4);
  EXPECT_DOUBLE_EQ(evidence_of(f, "lateExecutors"), 3);
  EXPECT_DOUBLE_EQ(evidence_of(f, "medianStartupMs"), 60000);
  // From 11 s (asked for at 1 s, plus the 10 s a pod is expected to take) to 61 s, 12 of the 16
  // cores the stage could have had were still starting: 3/4 of 50 s.
  EXPECT_NEAR(evidence_of(f, "waitingStagesCostMs"), 37500, 1);
  EXPECT_NE(f.recommendation.find("cannot say where the time went"), std::string::npos) << f.recommendation;
  EXPECT_NE(f.recommendation.find("spark.kubernetes.executor.podTemplateFile"), std::string::npos) << f.recommendation;

  EXPECT_TRUE(analyze_scenario(slow_pods("k8s://https://k8s.example:443", false)).detected("executorStartup").empty())
      << "without Spark 3.4+'s request times there is nothing to measure";
  EXPECT_TRUE(analyze_scenario(slow_pods("yarn", true)).detected("executorStartup").empty())
      << "the pod-side advice is Kubernetes'";
}

TEST(Timeline, TheReplaysStartUpIsTheLoggedRequestToRegistration) {
  // The same pods: asked for at 1 s, one registered at 3 s, three at 61 s. The inference from
  // submissions sees one ramp after the stage's submission at 2 s and measures 1 s less the
  // backlog timeout; the logged times say what the replay must wait: 60 s (the median).
  const Analyzed logged = analyze_scenario(slow_pods("k8s://https://k8s.example:443", true));
  EXPECT_DOUBLE_EQ(cluster_shape(logged.model).executor_startup_ms, 60000);
  const Analyzed inferred = analyze_scenario(slow_pods("k8s://https://k8s.example:443", false));
  EXPECT_LT(cluster_shape(inferred.model).executor_startup_ms, 60000);
}

}  // namespace
}  // namespace sf::analysis

// retryWaste, speculationWaste, stageFailed, failures and jobFailureRate on logs built to
// trigger them, and their silence on a clean log. The failure texts are shaped as Spark 1.x, 3.x
// and 4.x wrote them in real logs (../shared/corpus, tests/spark), read through the whole path:
// decoder, model builder (each attempt's root cause) and detectors.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::JobSpec;
using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using sf::testing::TaskSpec;
using testing::analyze_scenario;
using testing::Analyzed;
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
    EXPECT_TRUE(result.detected(type).empty()) << type;
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

  auto retries = result.detected("retryWaste", "failedStageAttempt");
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

  auto failed_stage = result.detected("stageFailed");
  ASSERT_EQ(failed_stage.size(), 1u);
  EXPECT_EQ(failed_stage[0]->band, ImpactBand::kLow) << "the job survived";
  EXPECT_EQ(failed_stage[0]->impact.basis, Basis::kInformational);
  EXPECT_EQ(result.detected("failures").size(), 1u);
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
    t.executor_id = std::to_string(1 + i % 2);  // "1" or "2" (a literal here trips g++ 12 -Wrestrict)
    t.reason = "ExceptionFailure";
    t.failure_detail = "java.lang.OutOfMemoryError";
    t.index = i;
    stage.tasks.push_back(t);
  }
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 90000, .stages = {stage}});
  auto result = analyze_scenario(log);
  auto retries = result.detected("retryWaste", "failedTasks");
  ASSERT_EQ(retries.size(), 1u);
  const Finding& f = *retries[0];
  // 320 s of failed time; 720 s of task time over an 80 s stage is 9 in flight: 35.6 s.
  EXPECT_NEAR(f.impact.raw_waste->value, 320000.0 / 9.0, 1e-6);
  EXPECT_NE(f.explanation.find("OutOfMemoryError"), std::string::npos);
  EXPECT_NE(f.recommendation.find("memory"), std::string::npos);
  auto failures = result.detected("failures");
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0]->rule, "ExceptionFailure");
  EXPECT_EQ(failures[0]->band, ImpactBand::kMedium);
}

// Stage 0: 8 tasks of 10 s, then 4 of 20 s on executor 1; at 23 s their speculative copies take
// executor 2's free slots and lose at 31 s, when the originals finish. With `waiting`, stage 1 (8
// tasks of 10 s) is submitted at 24 s and waits for a slot until 31 s. A 50 s application.
// A stage whose 4 speculative copies lose the race, from `at`: 8 tasks of 10 s, then 4 of 20 s
// copied at 23 s for 8 s each; when `waiting`, a stage submitted beside them waits for slots.
void add_copies_that_lose(ScenarioLog& log, int64_t at, int64_t stage_id, bool waiting) {
  StageSpec stage;
  stage.stage_id = stage_id;
  stage.submit_ms = at + 1000;
  stage.tasks = ScenarioLog::uniform_tasks(8, at + 1000, 10000, {"1", "2"}, 4);
  for (int i = 0; i < 4; ++i) {
    TaskSpec original;
    original.launch_ms = at + 11000;
    original.duration_ms = 20000;
    original.executor_id = "1";
    original.index = 8 + i;
    stage.tasks.push_back(original);
    TaskSpec copy = original;
    copy.launch_ms = at + 23000;
    copy.duration_ms = 8000;
    copy.executor_id = "2";
    copy.reason = "TaskKilled";  // "another attempt succeeded"
    copy.speculative = true;
    copy.attempt = 1;
    stage.tasks.push_back(copy);
  }
  stage.complete_ms = at + 31000;
  log.job({.job_id = stage_id, .submit_ms = at + 1000, .end_ms = at + 31000, .stages = {stage}});
  if (waiting) {
    StageSpec next;
    next.stage_id = stage_id + 1;
    next.submit_ms = at + 24000;
    next.tasks = ScenarioLog::uniform_tasks(8, at + 31000, 10000, {"1", "2"}, 4);
    next.complete_ms = at + 41000;
    log.job({.job_id = stage_id + 1, .submit_ms = at + 24000, .end_ms = at + 41000, .stages = {next}});
  }
}

ScenarioLog copies_that_lose(bool waiting, int rounds = 1) {
  ScenarioLog log;
  log.start(0).finished(50000 * rounds);
  log.executor("1", "host-a", 4, 100).executor("2", "host-b", 4, 100);
  for (int round = 0; round < rounds; ++round) add_copies_that_lose(log, 50000 * round, 2 * round, waiting);
  return log;
}

TEST(TaskFailures, SpeculativeCopiesThatLostCostTheWorkThatWaited) {
  auto result = analyze_scenario(copies_that_lose(true));
  auto spec = result.detected("speculationWaste");
  ASSERT_EQ(spec.size(), 1u);
  const Finding& f = *spec[0];
  EXPECT_EQ(f.id, "speculationWaste//app");
  // The 4 copies held slots 8 s each; stage 1 waited for 7 s of each: 28 s of slot time, on the
  // 8 cores stage 0 held, 3.5 s of wall-clock, claimed on stage 1.
  EXPECT_DOUBLE_EQ(evidence_of(f, "killedTaskTimeMs"), 32000);
  EXPECT_DOUBLE_EQ(evidence_of(f, "contendedSlotMs"), 28000);
  EXPECT_DOUBLE_EQ(evidence_of(f, "killedCopies"), 4);
  EXPECT_NEAR(raw_of(f), 3500, 1e-6);
  ASSERT_EQ(f.claim.stages.size(), 1u);
  EXPECT_EQ(f.claim.stages[0].stage.stage_id, 1);
  // 3.5 s is significant in a 50 s application (5% of it), under the 10 s floor for long ones.
  EXPECT_GT(f.impact.wall_clock->high_ms, 0);
  // Copies later: the multiplier and quantile raised from the defaults in effect (1.5, 0.75).
  EXPECT_EQ(suggested(f, "spark.speculation.multiplier"), "3");
  EXPECT_EQ(suggested(f, "spark.speculation.quantile"), "0.9");
}

TEST(TaskFailures, SpeculativeCopiesThatLoseAgainAndAgainAreOneFinding) {
  // Five rounds of those copies in a 250 s application: 3.5 s each, under the 10 s floor alone,
  // 17.5 s together. Speculation is one setting, so its waste is judged as one.
  auto result = analyze_scenario(copies_that_lose(true, 5));
  auto spec = result.detected("speculationWaste");
  ASSERT_EQ(spec.size(), 1u);
  const Finding& f = *spec[0];
  EXPECT_NEAR(raw_of(f), 5 * 3500, 1e-6);
  EXPECT_DOUBLE_EQ(evidence_of(f, "stagesWithLosingCopies"), 5);
  EXPECT_DOUBLE_EQ(evidence_of(f, "killedCopies"), 20);
  ASSERT_EQ(f.claim.stages.size(), 5u);
  for (const auto& claim : f.claim.stages) EXPECT_EQ(claim.stage.stage_id % 2, 1) << "the waiting stages";
  EXPECT_EQ(f.stages.size(), 10u) << "the copying stages and the waiting ones";
}

TEST(TaskFailures, SpeculativeCopiesOnSlotsNobodyWantedCostNoWallClock) {
  // The same losing copies in the tail of a stage that ran alone: they held slots no task waited for.
  EXPECT_TRUE(analyze_scenario(copies_that_lose(false)).of_type("speculationWaste").empty());
}

TEST(TaskFailures, FailedJobs) {
  auto log = cluster();
  StageSpec doomed = clean_stage(0, 1000);
  doomed.complete_ms = 51000;
  doomed.failure_reason = "Job aborted due to stage failure: Task 3 in stage 0.0 failed 4 times";
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 51000, .succeeded = false, .stages = {doomed}});
  log.job({.job_id = 1, .submit_ms = 60000, .end_ms = 110000, .stages = {clean_stage(1, 60000)}});
  auto result = analyze_scenario(log);
  auto rate = result.detected("jobFailureRate");
  ASSERT_EQ(rate.size(), 1u);
  EXPECT_EQ(rate[0]->impact.basis, Basis::kResourceOnly);
  ASSERT_TRUE(rate[0]->impact.raw_waste);
  EXPECT_EQ(rate[0]->impact.raw_waste->unit, WasteUnit::kCoreHours);
  // The failed job's 40 tasks of 10 s ran 400 core-seconds; its 50 s of wall-clock is evidence.
  EXPECT_NEAR(rate[0]->impact.raw_waste->value, 40 * 10000.0 / 3.6e6, 1e-12);
  EXPECT_DOUBLE_EQ(evidence_of(*rate[0], "failedJobTimeMs"), 50000);
  auto failed_stage = result.detected("stageFailed");
  ASSERT_EQ(failed_stage.size(), 1u);
  EXPECT_EQ(failed_stage[0]->band, ImpactBand::kHigh) << "its job failed";
  EXPECT_DOUBLE_EQ(evidence_of(*failed_stage[0], "failedJobTaskTimeMs"), 40 * 10000.0);
  EXPECT_NE(failed_stage[0]->explanation.find("6m 40s of task time (0.11 core-hours), lost with it"), std::string::npos)
      << failed_stage[0]->explanation;
  // One job failed of one stage attempt: the stage's failure says why, and the rate is the same
  // event counted again (local-1422981780767: "1 of 3 jobs failed" beside "stage 2.0 failed").
  const Finding* entry = result.entry_of(rate[0]->id);
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->type, "stageFailed");
  EXPECT_TRUE(result.of_type("jobFailureRate").empty());
}

TEST(TaskFailures, JobsFailedOfSeveralStagesKeepTheirRate) {
  // Two jobs, each failed of a stage of its own: the rate is a pattern no one stage says.
  auto log = cluster();
  for (int job = 0; job < 2; ++job) {
    StageSpec doomed = clean_stage(job, 1000 + job * 60000);
    doomed.complete_ms = 51000 + job * 60000;
    doomed.failure_reason = "Job aborted due to stage failure: Task 3 failed 4 times";
    log.job({.job_id = job,
             .submit_ms = 1000 + job * 60000,
             .end_ms = 51000 + job * 60000,
             .succeeded = false,
             .stages = {doomed}});
  }
  log.job({.job_id = 2, .submit_ms = 120000, .end_ms = 170000, .stages = {clean_stage(2, 120000)}});
  auto result = analyze_scenario(log);
  const Finding* rate = result.only("jobFailureRate");
  ASSERT_NE(rate, nullptr) << "the rate keeps its entry";
  EXPECT_EQ(rate->stages.size(), 2u) << "it names the two stage attempts that failed the jobs";
  EXPECT_EQ(result.detected("stageFailed").size(), 2u);
}

// ---------------------------------------------------------------------------------------------
// Root causes

// A failed attempt of `stage` with an exception's full stack trace.
TaskSpec exception_attempt(int index, const std::string& exception_class, const std::string& trace,
                           const std::string& executor = "1") {
  TaskSpec t;
  t.launch_ms = 2000;
  t.duration_ms = 800;
  t.executor_id = executor;
  t.reason = "ExceptionFailure";
  t.failure_detail = exception_class;
  t.stack_trace = trace;
  t.index = index;
  return t;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Spark 4.x writing a table: an error class and a SQLSTATE on the outer exceptions, the cause two
// levels down, its own frames ending in the JDK's before "... 4 more" hands over to the trace
// around it.
const std::string kNestedJavaTrace =
    "org.apache.spark.SparkException: [TASK_WRITE_FAILED] Task failed while writing rows to file:/data/out. "
    "SQLSTATE: 58030\n"
    "\tat "
    "org.apache.spark.sql.errors.QueryExecutionErrors$.taskFailedWhileWritingRowsError(QueryExecutionErrors.scala:774)"
    "\n"
    "\tat org.apache.spark.sql.execution.datasources.FileFormatWriter$.executeTask(FileFormatWriter.scala:421)\n"
    "\tat org.apache.spark.scheduler.ResultTask.runTask(ResultTask.scala:93)\n"
    "\tat java.base/java.lang.Thread.run(Thread.java:840)\n"
    "Caused by: org.apache.spark.SparkRuntimeException: [FAILED_EXECUTE_UDF] User defined function (`ParseAmount`) "
    "failed due to: java.lang.NumberFormatException: For input string: \"x17\". SQLSTATE: 39000\n"
    "\tat com.acme.etl.ParseAmount.apply(ParseAmount.java:42)\n"
    "\t... 3 more\n"
    "Caused by: java.lang.NumberFormatException: For input string: \"x17\"\n"
    "\tat java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)\n"
    "\tat java.base/java.lang.Integer.parseInt(Integer.java:668)\n"
    "\t... 4 more\n";

TEST(TaskFailures, InnermostJavaCauseNamesTheFailureTheStageAndTheJob) {
  auto log = cluster();
  StageSpec stage = clean_stage(0, 1000);
  stage.tasks.resize(8);
  for (int attempt = 0; attempt < 4; ++attempt) {
    std::string trace = kNestedJavaTrace;
    trace.replace(trace.find("x17"), 3, "x" + std::to_string(17 + attempt));  // another row, the same cause
    stage.tasks.push_back(exception_attempt(7, "org.apache.spark.SparkException", trace));
  }
  // Spark 3.x quotes the last attempt after "(TID n) (host executor id): " and appends the driver's trace.
  stage.failure_reason =
      "Job aborted due to stage failure: Task 7 in stage 0.0 failed 4 times, most recent failure: "
      "Lost task 7.3 in stage 0.0 (TID 11) (host-a executor 1): " +
      kNestedJavaTrace + "\nDriver stacktrace:";
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 60000,
           .succeeded = false,
           .failure_message = *stage.failure_reason,
           .stages = {stage}});
  auto result = analyze_scenario(log);

  auto failures = result.detected("failures");
  ASSERT_EQ(failures.size(), 1u) << "four attempts, one cause: their messages differ only in the row";
  const Finding& f = *failures[0];
  EXPECT_EQ(f.rule, "ExceptionFailure");
  EXPECT_DOUBLE_EQ(evidence_of(f, "failedAttempts"), 4);
  EXPECT_TRUE(contains(f.title, "java.lang.NumberFormatException: For input string: \"x17\"")) << f.title;
  EXPECT_FALSE(contains(f.title, "SparkException")) << "the outermost exception is not the cause: " << f.title;
  // Located past the JDK's frames, in the code that called it; the wrapper is named as such.
  EXPECT_TRUE(contains(f.explanation, "at com.acme.etl.ParseAmount.apply(ParseAmount.java:42)")) << f.explanation;
  EXPECT_TRUE(contains(f.explanation, "under org.apache.spark.SparkException (2 levels down)")) << f.explanation;

  auto failed_stage = result.detected("stageFailed");
  ASSERT_EQ(failed_stage.size(), 1u);
  EXPECT_TRUE(contains(failed_stage[0]->explanation, "java.lang.NumberFormatException"))
      << failed_stage[0]->explanation;
  EXPECT_FALSE(contains(failed_stage[0]->explanation, "Driver stacktrace"));
  EXPECT_EQ(failed_stage[0]->band, ImpactBand::kHigh);
  auto rate = result.detected("jobFailureRate");
  ASSERT_EQ(rate.size(), 1u);
  EXPECT_TRUE(contains(rate[0]->explanation, "job 0 (java.lang.NumberFormatException")) << rate[0]->explanation;
  // A failed stage that no attempt saved has no retry to win back: its loss is the job's.
  EXPECT_TRUE(result.detected("retryWaste").empty());
}

// Spark 4.x: the PythonException's description carries an error class, the traceback with
// Python 3.11's caret lines, and a SQLSTATE; the raise is two calls deep in the user's code.
const std::string kSpark4PythonTrace =
    "org.apache.spark.api.python.PythonException: [PYTHON_EXCEPTION] An exception was thrown from the Python worker: "
    "Traceback (most recent call last):\n"
    "  File \"/app/etl.py\", line 31, in amount\n"
    "    return normalize(text)\n"
    "           ^^^^^^^^^^^^^^^\n"
    "  File \"/app/etl.py\", line 27, in normalize\n"
    "    return parse_amount(text.strip(\"$\"))\n"
    "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    "  File \"/app/etl.py\", line 23, in parse_amount\n"
    "    raise ValueError(f\"not an amount: {text!r}\")\n"
    "ValueError: not an amount: 'n/a'\n"
    " SQLSTATE: 38000\n"
    "\tat org.apache.spark.api.python.BasePythonRunner$ReaderIterator.handlePythonException(PythonRunner.scala:1097)\n"
    "\tat org.apache.spark.sql.execution.python.BasePythonUDFRunner$$anon$2.read(PythonUDFRunner.scala:133)\n";

TEST(TaskFailures, PythonTracebackLastFrameAndExceptionSpark4) {
  auto log = cluster().spark_version("4.3.0");
  StageSpec stage = clean_stage(0, 1000);
  stage.tasks.resize(8);
  for (int attempt = 0; attempt < 4; ++attempt) {
    stage.tasks.push_back(exception_attempt(3, "org.apache.spark.api.python.PythonException", kSpark4PythonTrace));
  }
  // Spark 4 fails the stage and the job with the exception's own message: no "Job aborted" prefix.
  const std::string message = kSpark4PythonTrace.substr(kSpark4PythonTrace.find("[PYTHON_EXCEPTION]"));
  stage.failure_reason = message.substr(0, message.find("\tat "));
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 60000,
           .succeeded = false,
           .failure_message = *stage.failure_reason,
           .stages = {stage}});
  auto result = analyze_scenario(log);

  auto failures = result.detected("failures");
  ASSERT_EQ(failures.size(), 1u);
  const Finding& f = *failures[0];
  EXPECT_TRUE(contains(f.title, "ValueError: not an amount: 'n/a'")) << f.title;
  EXPECT_FALSE(contains(f.title, "SQLSTATE")) << f.title;
  EXPECT_TRUE(contains(f.explanation, "File \"/app/etl.py\", line 23, in parse_amount")) << f.explanation;
  EXPECT_TRUE(contains(f.recommendation, "Python code raised ValueError at File \"/app/etl.py\", line 23"))
      << f.recommendation;
  auto failed_stage = result.detected("stageFailed");
  ASSERT_EQ(failed_stage.size(), 1u);
  EXPECT_TRUE(contains(failed_stage[0]->explanation, "ValueError: not an amount: 'n/a' (File \"/app/etl.py\", line 23"))
      << failed_stage[0]->explanation;
}

// Spark 3.x: the traceback is the PythonException's message as it is; two different raises in one
// stage are two causes, though Spark names both by the same exception class.
TEST(TaskFailures, TwoPythonRaisesInOneStageAreTwoFindings) {
  const auto trace = [](int line, const std::string& function, const std::string& message) {
    return "org.apache.spark.api.python.PythonException: Traceback (most recent call last):\n"
           "  File \"/opt/spark/python/lib/pyspark.zip/pyspark/worker.py\", line 3386, in main\n"
           "    process()\n"
           "  File \"/app/generate_events.py\", line " +
           std::to_string(line) + ", in " + function +
           "\n"
           "    raise Exception(message)\n"
           "Exception: " +
           message +
           "\n\n"
           "\tat "
           "org.apache.spark.api.python.BasePythonRunner$ReaderIterator.handlePythonException(PythonRunner.scala:645)"
           "\n";
  };
  auto log = cluster();
  StageSpec stage = clean_stage(0, 1000);
  stage.tasks.resize(8);
  for (int i = 0; i < 3; ++i) {
    stage.tasks.push_back(
        exception_attempt(i, "org.apache.spark.api.python.PythonException",
                          trace(37, "flaky_partition", "transient failure for partition " + std::to_string(i))));
  }
  stage.tasks.push_back(exception_attempt(5, "org.apache.spark.api.python.PythonException",
                                          trace(51, "fail_udf", "deliberate permanent failure")));
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 60000, .stages = {stage}});
  auto result = analyze_scenario(log);

  auto failures = result.detected("failures");
  ASSERT_EQ(failures.size(), 2u);
  std::map<std::string, double> attempts_by_function;
  for (const Finding* f : failures) {
    for (const char* function : {"flaky_partition", "fail_udf"}) {
      if (contains(f->explanation, function)) attempts_by_function[function] = evidence_of(*f, "failedAttempts");
    }
  }
  EXPECT_NE(failures[0]->id, failures[1]->id);
  EXPECT_EQ(attempts_by_function["flaky_partition"], 3);
  EXPECT_EQ(attempts_by_function["fail_udf"], 1);
}

// Spark 1.0 logged no Full Stack Trace: the class and description still name the cause.
TEST(TaskFailures, ClassAndDescriptionWithoutAStackTrace) {
  auto log = cluster().spark_version("1.0.2");
  StageSpec stage = clean_stage(0, 1000);
  stage.tasks.resize(8);
  stage.tasks.push_back(exception_attempt(2, "java.lang.RuntimeException", ""));
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 60000, .stages = {stage}});
  auto result = analyze_scenario(log);
  auto failures = result.detected("failures");
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_TRUE(contains(failures[0]->title, "java.lang.RuntimeException: scenario failure")) << failures[0]->title;
}

// The corpus's YARN log (apache spark-events application_1538416563558_0014): eight containers,
// each lost with exit status 56 in its own words, across four stages. One cause: one finding.
TEST(TaskFailures, ExecutorsLostWithOneExitCodeAreOneFindingWithACount) {
  ScenarioLog log;
  log.start(0).finished(1000000);
  const auto loss = [](int container) {
    return "Container marked as failed: container_1538416563558_0014_01_00000" + std::to_string(container) +
           " on host: worker-" + std::to_string(container % 2) +
           ".example.com. Exit status: 56. Diagnostics: "
           "Exception from container-launch.\nExit code: 56\n";
  };
  for (int e = 1; e <= 8; ++e) {
    log.executor(std::to_string(e), "worker-" + std::to_string(e % 2), 1, 100 + e, 50000 + 10000 * e, int64_t{4} << 30,
                 loss(e + 1));
  }
  std::vector<StageSpec> stages;
  int executor = 1;
  for (int s = 0; s < 4; ++s) {
    StageSpec stage = clean_stage(s, 60000 * s + 1000);
    stage.tasks = ScenarioLog::uniform_tasks(4, stage.submit_ms, 1000, {"1"}, 1);
    for (int k = 0; k < 2; ++k, ++executor) {
      TaskSpec t;
      t.launch_ms = stage.submit_ms + 100;
      t.duration_ms = 400;
      t.executor_id = std::to_string(executor);
      t.reason = "ExecutorLostFailure";
      t.failure_detail = loss(executor + 1);
      t.index = 4 + k;
      stage.tasks.push_back(t);
    }
    stage.complete_ms = stage.submit_ms + 10000;
    stages.push_back(stage);
  }
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 250000, .stages = stages});
  auto result = analyze_scenario(log);

  auto failures = result.detected("failures");
  ASSERT_EQ(failures.size(), 1u) << "not one per container or per stage";
  const Finding& f = *failures[0];
  EXPECT_EQ(f.rule, "ExecutorLostFailure");
  EXPECT_EQ(f.scope, Scope::kApp);
  EXPECT_EQ(f.stage_ids(), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_DOUBLE_EQ(evidence_of(f, "executorsLost"), 8);
  EXPECT_DOUBLE_EQ(evidence_of(f, "exitCode"), 56);
  EXPECT_DOUBLE_EQ(evidence_of(f, "failedAttempts"), 8);
  EXPECT_TRUE(contains(f.title, "8 executors lost with exit code 56")) << f.title;
  EXPECT_TRUE(contains(f.explanation, "could not send heartbeats to the driver")) << f.explanation;
  EXPECT_TRUE(f.settings.empty()) << "exit code 56 is not a memory limit: no memory setting to suggest";
}

// Kubernetes: executors lost with their pods, each reason as ExecutorPodsLifecycleManager writes it
// (Spark 3.3+ exitReasonMessage: a leading line break, describeExitCode's gloss, the pod's reason,
// KubernetesUtils.containersDescription's container lines). Two stages lose two pods each.
Analyzed lost_pods(const std::string& spark_version, const std::function<std::string(int)>& reason) {
  ScenarioLog log;
  log.spark_version(spark_version).start(0).finished(400000);
  log.property("spark.master", "k8s://https://kubernetes.default.svc:443").property("spark.executor.memory", "8g");
  log.executor("1", "10.0.0.1", 4, 100);
  for (int e = 2; e <= 5; ++e) {
    log.executor(std::to_string(e), "10.0.0." + std::to_string(e), 4, 100, 60000 * e, int64_t{4} << 30, reason(e));
  }
  std::vector<StageSpec> stages;
  for (int s = 0; s < 2; ++s) {
    StageSpec stage = clean_stage(s, 100000 * s + 1000);
    stage.tasks = ScenarioLog::uniform_tasks(8, stage.submit_ms, 1000, {"1"}, 4);
    for (int k = 0; k < 2; ++k) {
      const int executor = 2 + 2 * s + k;
      TaskSpec t;
      t.launch_ms = stage.submit_ms + 100;
      t.duration_ms = 5000;
      t.executor_id = std::to_string(executor);
      t.reason = "ExecutorLostFailure";
      t.failure_detail = reason(executor);
      t.index = 8 + k;
      stage.tasks.push_back(t);
    }
    stage.complete_ms = stage.submit_ms + 20000;
    stages.push_back(stage);
  }
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 300000, .stages = stages});
  return analyze_scenario(log);
}

std::string pod_exit(int executor, int code, const std::string& gloss, const std::string& pod_reason,
                     const std::string& container_reason) {
  return "\nThe executor with id " + std::to_string(executor) + " exited with exit code " + std::to_string(code) +
         gloss + ".\n" + (pod_reason.empty() ? "" : "The API gave the following brief reason: " + pod_reason) +
         "\n\n\nThe API gave the following container statuses:\n\n\n\t container name: spark-kubernetes-executor\n"
         "\t container image: img\n\t container state: terminated\n\t exit code: " +
         std::to_string(code) + "\n\t termination reason: " + container_reason + "\n      ";
}

TEST(TaskFailures, KubernetesPodsKilledAtTheirMemoryLimit) {
  const auto result =
      lost_pods("3.5.1", [](int e) { return pod_exit(e, 137, "(SIGKILL, possible container OOM)", "", "OOMKilled"); });
  auto failures = result.detected("failures", "ExecutorLostFailure");
  ASSERT_EQ(failures.size(), 1u);
  const Finding& f = *failures[0];
  EXPECT_TRUE(contains(f.title, "4 executor pods lost with exit code 137 (OOMKilled)")) << f.title;
  EXPECT_TRUE(contains(f.explanation, "Kubernetes killed the executor's container at the pod's memory limit"))
      << f.explanation;
  EXPECT_TRUE(contains(f.explanation, "Spark logged: \"The executor with id")) << f.explanation;
  EXPECT_TRUE(contains(f.recommendation, "spark.executor.memoryOverheadFactor (Spark 3.3+")) << f.recommendation;
  // 8 GiB of heap: the overhead in effect is 0.1 of it, 819.2 MiB; twice that is suggested.
  EXPECT_EQ(suggested(f, "spark.executor.memoryOverhead"), "1638m");
  EXPECT_EQ(suggested(f, "spark.executor.memory"), "<absent>") << "the heap did not run out";

  // Before Spark 3.3 the share-of-heap setting was Kubernetes' own.
  const auto old = lost_pods("3.2.1", [](int e) { return pod_exit(e, 137, "", "", "OOMKilled"); });
  ASSERT_EQ(old.detected("failures", "ExecutorLostFailure").size(), 1u);
  EXPECT_TRUE(contains(old.detected("failures", "ExecutorLostFailure")[0]->recommendation,
                       "spark.kubernetes.memoryOverheadFactor (Spark before 3.3"));
}

TEST(TaskFailures, KubernetesPodsStoppedOrDeletedAreNotMemory) {
  const auto evicted = lost_pods("3.5.1", [](int e) { return pod_exit(e, 143, "(unexpected)", "Evicted", "Error"); });
  auto failures = evicted.detected("failures", "ExecutorLostFailure");
  ASSERT_EQ(failures.size(), 1u);
  const Finding& f = *failures[0];
  EXPECT_TRUE(contains(f.title, "4 executor pods lost with exit code 143 (Evicted)")) << f.title;
  EXPECT_TRUE(contains(f.explanation, "Kubernetes evicted the pod")) << f.explanation;
  EXPECT_EQ(suggested(f, "spark.decommission.enabled"), "true");
  EXPECT_EQ(suggested(f, "spark.storage.decommission.enabled"), "true");
  // Moving shuffle and cached blocks is on by default once storage decommissioning is: not named again.
  EXPECT_EQ(suggested(f, "spark.storage.decommission.shuffleBlocks.enabled"), "<absent>");
  EXPECT_EQ(suggested(f, "spark.storage.decommission.rddBlocks.enabled"), "<absent>");
  EXPECT_EQ(suggested(f, "spark.executor.memoryOverhead"), "<absent>") << "143 is never Kubernetes' memory kill";
  EXPECT_TRUE(contains(f.recommendation, "PodDisruptionBudget")) << f.recommendation;

  const auto deleted = lost_pods("3.0.3", [](int e) {
    return "The executor with id " + std::to_string(e) + " was deleted by a user or the framework.";
  });
  failures = deleted.detected("failures", "ExecutorLostFailure");
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_TRUE(contains(failures[0]->explanation, "the executor's pod was deleted")) << failures[0]->explanation;
  EXPECT_TRUE(contains(failures[0]->recommendation, "decommissioning is Spark 3.1+")) << failures[0]->recommendation;
  EXPECT_EQ(suggested(*failures[0], "spark.decommission.enabled"), "<absent>") << "Spark 3.0 has no such setting";
}

// Spark 4.3 in local mode, a job stopped from another thread: the stage is cancelled with its
// running tasks never ending; nothing failed in them.
TEST(TaskFailures, StageCancelledBySparkContextShutdown) {
  auto log = cluster().spark_version("4.3.0");
  StageSpec stage = clean_stage(0, 1000);
  stage.tasks = ScenarioLog::uniform_tasks(2, 1000, 1500, {"1"}, 2);
  for (int i = 0; i < 2; ++i) {
    TaskSpec t;
    t.launch_ms = 2600;
    t.ends = false;
    t.index = 2 + i;
    stage.tasks.push_back(t);
  }
  stage.num_tasks = 4;
  stage.complete_ms = 3000;
  stage.failure_reason = "Stage cancelled because SparkContext was shut down";
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 3010,
           .succeeded = false,
           .failure_message = "Job 0 cancelled because SparkContext was shut down",
           .stages = {stage}});
  auto result = analyze_scenario(log);

  auto cancelled = result.detected("stageFailed", "cancelledByShutdown");
  ASSERT_EQ(cancelled.size(), 1u);
  const Finding& f = *cancelled[0];
  EXPECT_EQ(f.band, ImpactBand::kLow);
  EXPECT_TRUE(contains(f.title, "cancelled by the SparkContext shutting down with 2 tasks running")) << f.title;
  EXPECT_DOUBLE_EQ(evidence_of(f, "runningTasksAbandoned"), 2);
  EXPECT_TRUE(contains(f.recommendation, "the tasks did not fail of their own")) << f.recommendation;
  EXPECT_TRUE(f.settings.empty());
  EXPECT_TRUE(result.detected("failures").empty());
  auto rate = result.detected("jobFailureRate");
  ASSERT_EQ(rate.size(), 1u);
  EXPECT_TRUE(contains(rate[0]->title, "all cancelled by the SparkContext shutting down")) << rate[0]->title;
  EXPECT_DOUBLE_EQ(evidence_of(*rate[0], "cancelledByShutdown"), 1);
  // One shutdown, one entry: the cancelled stage is the job failure rate's evidence.
  EXPECT_EQ(result.entry_of(f.id), rate[0]);
  EXPECT_TRUE(result.of_type("stageFailed").empty());
}

// groupon sparklint's event_log_1 (Spark 1.6 on YARN): the application's end is logged, then a
// task fails with "Filesystem closed" as the executors' shutdown closes HDFS under it.
TEST(TaskFailures, TaskFailingAfterTheApplicationEndIsNamedAsTheShutdown) {
  ScenarioLog log;
  log.spark_version("1.6.1").start(0).finished(10000);
  log.executor("1", "host-a", 4, 100);
  StageSpec stage = clean_stage(0, 1000);
  stage.tasks = ScenarioLog::uniform_tasks(4, 1000, 1000, {"1"}, 4);
  stage.tasks.push_back(exception_attempt(4, "java.io.IOException",
                                          "java.io.IOException: Filesystem closed\n"
                                          "\tat org.apache.hadoop.hdfs.DFSClient.checkOpen(DFSClient.java:795)\n"));
  stage.tasks.back().launch_ms = 8000;
  stage.tasks.back().duration_ms = 2080;
  stage.complete_ms = 10180;
  stage.failure_reason = "Stage cancelled because SparkContext was shut down";
  log.job({.job_id = 3,
           .submit_ms = 1000,
           .end_ms = 10181,
           .succeeded = false,
           .failure_message = "Job cancelled because SparkContext was shut down",
           .stages = {stage}});
  auto result = analyze_scenario(log);

  auto failures = result.detected("failures");
  ASSERT_EQ(failures.size(), 1u);
  const Finding& f = *failures[0];
  EXPECT_TRUE(
      contains(f.title, "failed while the SparkContext was shutting down: java.io.IOException: Filesystem closed"))
      << f.title;
  EXPECT_TRUE(contains(f.recommendation, "the tasks did not fail of their own"))
      << "not a bug to fix in the task: " << f.recommendation;
  EXPECT_EQ(f.band, ImpactBand::kLow);
  EXPECT_EQ(result.detected("stageFailed", "cancelledByShutdown").size(), 1u);
}

// The corpus's rapids tasks_executors_fail log: a stage failed on a fetch failure (a lost
// executor's shuffle index file is gone) and would have been retried, but the SparkContext shut
// down first. The job was lost to the shutdown, not to the fetch failure.
TEST(TaskFailures, FetchFailedStageCutShortByShutdownIsNotBlamedForTheJob) {
  const std::string fetch_failure =
      "org.apache.spark.shuffle.FetchFailedException: /disk0/blockmgr-86c3/2d/shuffle_54_8347_0.index\n"
      "\tat "
      "org.apache.spark.storage.ShuffleBlockFetcherIterator.throwFetchFailedException(ShuffleBlockFetcherIterator."
      "scala:770)\n"
      "\tat org.apache.spark.rdd.RDD.iterator(RDD.scala:337)\n"
      "Caused by: java.nio.file.NoSuchFileException: /disk0/blockmgr-86c3/2d/shuffle_54_8347_0.index\n"
      "\tat sun.nio.fs.UnixException.translateToIOException(UnixException.java:86)\n"
      "\tat org.apache.spark.shuffle.IndexShuffleBlockResolver.getBlockData(IndexShuffleBlockResolver.scala:349)\n"
      "\t... 2 more\n";
  auto log = cluster();
  StageSpec stage = clean_stage(0, 1000);
  stage.tasks.resize(8);
  for (int i = 0; i < 2; ++i) {
    TaskSpec t;
    t.launch_ms = 2000;
    t.duration_ms = 30;
    t.executor_id = "2";
    t.reason = "FetchFailed";
    t.failure_detail = fetch_failure;
    t.index = 8 + i;
    stage.tasks.push_back(t);
  }
  stage.failure_reason = fetch_failure;
  log.job({.job_id = 79,
           .submit_ms = 1000,
           .end_ms = 60000,
           .succeeded = false,
           .failure_message = "Job 79 cancelled because SparkContext was shut down",
           .stages = {stage}});
  auto result = analyze_scenario(log);

  auto failed_stage = result.detected("stageFailed");
  ASSERT_EQ(failed_stage.size(), 1u);
  const Finding& f = *failed_stage[0];
  EXPECT_EQ(f.rule, "");
  EXPECT_EQ(f.band, ImpactBand::kLow) << "the stage's failure did not fail the job";
  EXPECT_TRUE(contains(f.title, "not retried: the SparkContext shut down")) << f.title;
  EXPECT_FALSE(contains(f.title, "its job failed")) << f.title;
  EXPECT_TRUE(contains(f.explanation, "java.nio.file.NoSuchFileException")) << f.explanation;
  EXPECT_TRUE(contains(f.explanation, "Job 79 cancelled because SparkContext was shut down")) << f.explanation;
  auto fetch = result.detected("failures", "FetchFailed");
  ASSERT_EQ(fetch.size(), 1u);
  EXPECT_TRUE(contains(fetch[0]->title, "java.nio.file.NoSuchFileException")) << fetch[0]->title;
  EXPECT_TRUE(contains(
      fetch[0]->explanation,
      "at org.apache.spark.shuffle.IndexShuffleBlockResolver.getBlockData(IndexShuffleBlockResolver.scala:349)"))
      << fetch[0]->explanation;
}

// NVIDIA's tasks_executors_fail log, in small: a shell stopped while stage 0 ran. Executor 2's
// process was lost 300 ms before the application's end; its running task failed
// (ExecutorLostFailure), two of its finished tasks were resubmitted, and two fetches from its
// shuffle files failed on executor 1, failing the stage; the job was cancelled by the shutdown.
// One low, informational entry says the application was stopped: no failure finding of its own.
ScenarioLog stopped_while_running(int64_t loss_before_end_ms) {
  constexpr int64_t kEnd = 100000;
  ScenarioLog log;
  log.start(0).finished(kEnd);
  log.executor("1", "host-a", 4, 100)
      .executor("2", "host-b", 4, 100, kEnd - loss_before_end_ms, int64_t{4} << 30, "Executor Process Lost");
  StageSpec stage;
  stage.stage_id = 0;
  stage.name = "show";
  stage.submit_ms = kEnd - 3000;
  stage.tasks = ScenarioLog::uniform_tasks(8, kEnd - 3000, 500, {"1", "2"}, 4);
  auto failed = [&](const char* reason, const char* executor, int64_t at, int32_t index) {
    TaskSpec t;
    t.launch_ms = at - 30;
    t.duration_ms = 30;
    t.executor_id = executor;
    t.reason = reason;
    t.failure_detail = std::string(reason) == "FetchFailed"
                           ? "org.apache.spark.shuffle.FetchFailedException: "
                             "java.nio.file.NoSuchFileException: /disk0/blockmgr/x.index"
                           : "Executor Process Lost";
    t.index = index;
    stage.tasks.push_back(t);
  };
  const int64_t lost_at = kEnd - loss_before_end_ms;
  failed("ExecutorLostFailure", "2", lost_at, 8);
  failed("Resubmitted", "2", lost_at, 9);
  failed("Resubmitted", "2", lost_at, 10);
  failed("FetchFailed", "1", lost_at + 100, 11);
  failed("FetchFailed", "1", lost_at + 110, 12);
  stage.complete_ms = lost_at + 120;
  stage.failure_reason = "org.apache.spark.shuffle.FetchFailedException: java.nio.file.NoSuchFileException";
  log.job({.job_id = 79,
           .submit_ms = kEnd - 3000,
           .end_ms = kEnd + 40,
           .succeeded = false,
           .failure_message = "Job 79 cancelled because SparkContext was shut down",
           .stages = {stage}});
  return log;
}

TEST(TaskFailures, FailuresAsTheApplicationStoppedAreTheStopsNotTheJobs) {
  const auto result = analyze_scenario(stopped_while_running(300));
  auto stop = result.detected("failures", "stoppedWhileRunning");
  ASSERT_EQ(stop.size(), 1u);
  const Finding& f = *stop[0];
  EXPECT_EQ(f.band, ImpactBand::kLow);
  EXPECT_EQ(f.claim.kind, WasteClaim::Kind::kInformational);
  EXPECT_DOUBLE_EQ(f.evidence[0].value, 5) << "failedAttempts";
  EXPECT_TRUE(contains(f.title, "The application was stopped while stage 0.0")) << f.title;
  EXPECT_TRUE(contains(f.explanation, "1 ExecutorLostFailure")) << f.explanation;
  EXPECT_TRUE(contains(f.explanation, "2 FetchFailed")) << f.explanation;
  EXPECT_TRUE(contains(f.explanation, "2 Resubmitted")) << f.explanation;
  EXPECT_TRUE(contains(f.explanation, "in the last 300 ms")) << f.explanation;
  for (const char* reason : {"ExecutorLostFailure", "FetchFailed", "Resubmitted"}) {
    EXPECT_TRUE(result.detected("failures", reason).empty()) << reason;
  }
  // The stage's failure and the stop are one entry.
  auto failed_stage = result.detected("stageFailed");
  ASSERT_EQ(failed_stage.size(), 1u);
  EXPECT_EQ(result.entry_of(f.id), result.entry_of(failed_stage[0]->id));
}

TEST(TaskFailures, AnExecutorLostLongBeforeTheEndIsAFailureOfItsOwn) {
  // The same, with executor 2 lost 5 s before the end: outside the stop's 2 s, a loss the job
  // met on its own, reported as such.
  const auto result = analyze_scenario(stopped_while_running(5000));
  EXPECT_TRUE(result.detected("failures", "stoppedWhileRunning").empty());
  EXPECT_EQ(result.detected("failures", "ExecutorLostFailure").size(), 1u);
}

// ---------------------------------------------------------------------------------------------
// retryWaste's shares: the stage's and the application's, over a floor

// One stage of `tasks` tasks of `task_ms` on two executors of `cores` each, over `window_ms`, in an
// application of `app_ms`; `failed` of its tasks fail after `failed_ms` on their first attempt and
// are run again.
struct RetriedStage {
  int64_t app_ms = 0;
  int tasks = 16;
  int cores = 4;
  int64_t task_ms = 1000;
  int64_t window_ms = 0;
  int failed = 0;
  int64_t failed_ms = 0;
};

Analyzed retried_tasks(const RetriedStage& shape, const Thresholds& thresholds = {}) {
  ScenarioLog log;
  log.start(0).finished(shape.app_ms);
  log.executor("1", "host-a", shape.cores, 100).executor("2", "host-b", shape.cores, 100);
  StageSpec stage;
  stage.stage_id = 0;
  stage.submit_ms = 1000;
  stage.tasks = ScenarioLog::uniform_tasks(shape.tasks, 1000, shape.task_ms, {"1", "2"}, shape.cores);
  for (int i = 0; i < shape.failed; ++i) {
    TaskSpec t = exception_attempt(i, "java.lang.IllegalStateException",
                                   "java.lang.IllegalStateException: flaky\n\tat com.acme.Step.run(Step.java:9)\n",
                                   i % 2 == 0 ? "1" : "2");
    t.launch_ms = 3000;
    t.duration_ms = shape.failed_ms;
    stage.tasks.push_back(t);
  }
  stage.complete_ms = 1000 + shape.window_ms;
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 1000 + shape.window_ms, .stages = {stage}});
  return analyze_scenario(log, thresholds);
}

TEST(TaskFailures, RetryWasteCountsInAShortApplication) {
  // Eight attempts failed 0.9 s into their 1 s: 7.2 s of the stage's 23.2 s of task time over
  // its 10 s (2.32 in flight), about 3.1 s of a 20 s application: far under the old 10 s floor.
  auto result = retried_tasks({.app_ms = 20000, .window_ms = 10000, .failed = 8, .failed_ms = 900});
  auto retries = result.detected("retryWaste", "failedTasks");
  ASSERT_EQ(retries.size(), 1u);
  EXPECT_NEAR(raw_of(*retries[0]), 7200.0 / (23200.0 / 10000.0), 1e-6);
  EXPECT_TRUE(names_threshold(*retries[0], "retryWaste.minAppShare"));
  EXPECT_TRUE(
      contains(retries[0]->explanation, "java.lang.IllegalStateException: flaky at com.acme.Step.run(Step.java:9)"))
      << retries[0]->explanation;
  // The thresholds are the user's to move.
  Thresholds strict;
  strict.retry_min_app_share = 0.5;
  EXPECT_TRUE(retried_tasks({.app_ms = 20000, .window_ms = 10000, .failed = 8, .failed_ms = 900}, strict)
                  .of_type("retryWaste")
                  .empty());
}

// The task_retries scenario's shape: 8 tasks of 1 s on 2 slots, the first attempt of 4 of them
// failing 0.9 s in, the stage busy throughout. Run time 8 x 990 + 4 x 890 = 11,480 ms over 2 cores
// is 5,740 ms of the 5,800 ms window: clipped at that floor, 1.8 s of retries would show as 60 ms.
// Without the failed attempts' run time (3,600 ms of task time x 11,480 / 11,600) the floor is
// 3,959 ms, and the 3,600 / 2 = 1,800 ms claim stands.
TEST(TaskFailures, RetryWasteIsClippedAtTheFloorWithoutTheFailures) {
  auto result =
      retried_tasks({.app_ms = 12000, .tasks = 8, .cores = 1, .window_ms = 5800, .failed = 4, .failed_ms = 900});
  auto retries = result.detected("retryWaste", "failedTasks");
  ASSERT_EQ(retries.size(), 1u);
  EXPECT_NEAR(raw_of(*retries[0]), 1800, 1e-6);
  EXPECT_NEAR(high_of(*retries[0]), 1800, 1e-6);
  EXPECT_EQ(retries[0]->impact.basis, Basis::kSerial);
}

TEST(TaskFailures, RetryWasteKeepsNoiseOut) {
  // The same 3.1 s in a two-hour application: a rounding error of its wall-clock.
  EXPECT_TRUE(retried_tasks({.app_ms = 7200000, .window_ms = 10000, .failed = 8, .failed_ms = 900})
                  .of_type("retryWaste")
                  .empty());
  // One attempt failing 200 ms in: about 120 ms of wall-clock, under the floor.
  EXPECT_TRUE(retried_tasks({.app_ms = 20000, .window_ms = 10000, .failed = 1, .failed_ms = 200})
                  .of_type("retryWaste")
                  .empty());
  // 1.8 s of wall-clock and 3% of the application, but 3.6% of a long stage's task time: the
  // stage's share keeps one stray failure in a big stage out.
  EXPECT_TRUE(retried_tasks({.app_ms = 60000, .task_ms = 25000, .window_ms = 50000, .failed = 1, .failed_ms = 15000})
                  .of_type("retryWaste")
                  .empty());
  EXPECT_EQ(retried_tasks({.app_ms = 60000, .task_ms = 25000, .window_ms = 50000, .failed = 3, .failed_ms = 15000})
                .of_type("retryWaste")
                .size(),
            1u)
      << "three such failures are 10% of the stage";
}

}  // namespace
}  // namespace sf::analysis

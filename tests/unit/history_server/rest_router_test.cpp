// The router over a directory of generated logs (a zstd file and a plain rolling directory):
// the application list from the logs' first and last events, task-level endpoints read on
// demand against the generator's ground truth, parameters, and the History Server's error codes.
#include "history_server/rest_router.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "history_server/history_server_json.h"
#include "loggen/log_generator.h"

namespace sf::history_server {
namespace {

namespace fs = std::filesystem;
using model::TaskMetric;
using nlohmann::json;

class RestRouterTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("sf_server_tests_" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    first_ = new loggen::GroundTruth();
    second_ = new loggen::GroundTruth();
    loggen::LogWriteOptions zstd_file;
    zstd_file.codec = io::Codec::kZstd;
    loggen::write_event_log(loggen::GeneratorConfig::small(), zstd_file, *dir_, first_);
    loggen::GeneratorConfig other = loggen::GeneratorConfig::small();
    other.seed = 2;
    loggen::LogWriteOptions rolling;
    rolling.layout = loggen::LogLayout::kRolling;
    rolling.rolling_max_part_bytes = 64 << 10;  // several parts
    loggen::write_event_log(other, rolling, *dir_, second_);
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(*dir_, ec);
    delete dir_;
    delete first_;
    delete second_;
  }

  void SetUp() override {
    logs_ = catalog_of(*dir_, 1);  // every switch between the two logs reloads: exercises eviction
    auto scan = logs_->rescan();
    ASSERT_TRUE(scan.has_value()) << scan.error().message();
    ASSERT_TRUE(scan->unreadable.empty()) << scan->unreadable.front();
    router_ = std::make_unique<RestRouter>(*logs_);
  }

  static std::unique_ptr<catalog::LogCatalog> catalog_of(const fs::path& dir, size_t max_loaded_logs = 8) {
    catalog::CatalogOptions options;
    options.root = *io::PathConfinement::to(dir.string());
    options.max_loaded_logs = max_loaded_logs;
    return std::make_unique<catalog::LogCatalog>(options);
  }

  json get_json(const std::string& target) {
    const RestResponse r = router_->handle("GET", target);
    EXPECT_EQ(r.status, 200) << target << ": " << r.body;
    EXPECT_EQ(r.content_type, "application/json") << target;
    return r.status == 200 ? json::parse(r.body) : json();
  }

  static fs::path* dir_;
  static loggen::GroundTruth* first_;
  static loggen::GroundTruth* second_;
  std::unique_ptr<catalog::LogCatalog> logs_;
  std::unique_ptr<RestRouter> router_;
};

fs::path* RestRouterTest::dir_ = nullptr;
loggen::GroundTruth* RestRouterTest::first_ = nullptr;
loggen::GroundTruth* RestRouterTest::second_ = nullptr;

TEST_F(RestRouterTest, ApplicationsComeFromEachLogsFirstAndLastEvents) {
  const json apps = get_json("/api/v1/applications");
  ASSERT_EQ(apps.size(), 2u);
  for (const loggen::GroundTruth* truth : {first_, second_}) {
    auto it = std::find_if(apps.begin(), apps.end(), [&](const json& a) { return a["id"] == truth->app.id; });
    ASSERT_NE(it, apps.end()) << truth->app.id << " is not listed";
    const json& attempt = (*it)["attempts"][0];
    EXPECT_EQ((*it)["name"], truth->app.name);
    EXPECT_EQ(attempt["sparkUser"], truth->app.user);
    EXPECT_EQ(attempt["appSparkVersion"], truth->app.spark_version);
    EXPECT_EQ(attempt["startTimeEpoch"], *truth->app.start_time_ms);
    EXPECT_EQ(attempt["completed"], truth->app.finished);
    if (truth->app.finished) {
      EXPECT_EQ(attempt["endTimeEpoch"], *truth->app.end_time_ms);
      EXPECT_EQ(attempt["duration"], *truth->app.end_time_ms - *truth->app.start_time_ms);
    }
  }
  EXPECT_EQ(get_json("/api/v1/applications?limit=1").size(), 1u);
  EXPECT_EQ(get_json("/api/v1/applications?status=running").size(), 0u);
  EXPECT_EQ(get_json("/api/v1/applications?minDate=3000-01-01").size(), 0u);
}

TEST_F(RestRouterTest, TaskListHoldsEveryTaskAttemptOfEachStage) {
  for (const loggen::GroundTruth* truth : {first_, second_}) {
    for (const auto& stage : truth->stages) {
      const std::string base = "applications/" + truth->app.id + "/stages/" + std::to_string(stage.stage_id) + "/" +
                               std::to_string(stage.attempt_id);
      const json tasks = get_json(base + "/taskList?length=1000000");
      ASSERT_TRUE(tasks.is_array());
      EXPECT_EQ(static_cast<int64_t>(tasks.size()), stage.tasks_started) << base;
      auto count = [&](const char* status) {
        return std::count_if(tasks.begin(), tasks.end(), [&](const json& t) { return t["status"] == status; });
      };
      EXPECT_EQ(count("SUCCESS"), stage.tasks_succeeded) << base;
      EXPECT_EQ(count("FAILED"), stage.tasks_failed) << base;
      EXPECT_EQ(count("KILLED"), stage.tasks_killed) << base;
      int64_t run_time_ms = 0;
      for (const json& t : tasks) {
        if (t.contains("taskMetrics")) run_time_ms += t["taskMetrics"]["executorRunTime"].get<int64_t>();
      }
      EXPECT_EQ(run_time_ms, stage.metric_sums[model::index_of(TaskMetric::kExecutorRunTimeMs)]) << base;
    }
  }
}

// Spark 3.4 and later log "errorMessage":"" for an execution that succeeded: it is COMPLETED, and
// only a message that says something is FAILED (every such execution was reported FAILED). Without
// a message (older logs), an ended execution is FAILED when one of its jobs failed.
TEST_F(RestRouterTest, SqlStatusIsTheHistoryServers) {
  const json executions = get_json("applications/" + first_->app.id + "/sql?length=100000");
  ASSERT_FALSE(executions.empty());
  int completed = 0;
  for (const json& x : executions) {
    const auto* truth = first_->sql_execution(x["id"].get<int64_t>());
    ASSERT_NE(truth, nullptr) << x["id"];
    const bool a_job_failed = std::any_of(truth->job_ids.begin(), truth->job_ids.end(), [&](int64_t id) {
      return std::any_of(first_->jobs.begin(), first_->jobs.end(),
                         [&](const auto& job) { return job.job_id == id && job.status == model::JobStatus::kFailed; });
    });
    const std::string want = truth->error_message  ? (truth->error_message->empty() ? "COMPLETED" : "FAILED")
                             : !truth->end_time_ms ? "RUNNING"
                             : a_job_failed        ? "FAILED"
                                                   : "COMPLETED";
    EXPECT_EQ(x["status"], want) << "execution " << x["id"];
    // As Spark's ExecutionData: the message as logged, left out when the log has none.
    EXPECT_EQ(x.contains("errorMessage"), truth->error_message.has_value()) << "execution " << x["id"];
    if (truth->error_message) {
      EXPECT_EQ(x["errorMessage"], *truth->error_message);
    }
    EXPECT_EQ(x["rootExecutionId"], truth->root_execution_id.value_or(truth->execution_id));
    completed += want == "COMPLETED";
  }
  EXPECT_GT(completed, 0) << "the log has successful executions";
}

// The kubeflow History Server MCP client sends "quantiles=0.05, 0.25, ..."; Spark reads each with
// toDouble, which trims, and answers 200.
TEST_F(RestRouterTest, TaskSummaryQuantilesAreTrimmedAsSparkTrimsThem) {
  for (const auto& stage : first_->stages) {
    if (stage.successful_task_metrics.empty()) continue;
    const std::string base = "applications/" + first_->app.id + "/stages/" + std::to_string(stage.stage_id) + "/" +
                             std::to_string(stage.attempt_id) + "/taskSummary?quantiles=";
    const json spaced = get_json(base + "0.05,%200.25,%200.5%20,%090.95");
    EXPECT_EQ(spaced["quantiles"], json({0.05, 0.25, 0.5, 0.95}));
    EXPECT_EQ(spaced, get_json(base + "0.05,0.25,0.5,0.95"));
    return;
  }
  FAIL() << "no stage with successful tasks";
}

TEST_F(RestRouterTest, TaskSummaryQuantilesAreTheGroundTruths) {
  int checked = 0;
  for (const auto& stage : first_->stages) {
    if (stage.successful_task_metrics.empty()) continue;
    std::vector<int64_t> run_times;
    for (const auto& m : stage.successful_task_metrics)
      run_times.push_back(m[model::index_of(TaskMetric::kExecutorRunTimeMs)]);
    std::sort(run_times.begin(), run_times.end());
    const json summary = get_json("applications/" + first_->app.id + "/stages/" + std::to_string(stage.stage_id) + "/" +
                                  std::to_string(stage.attempt_id) + "/taskSummary?quantiles=0,0.5,1");
    ASSERT_EQ(summary["quantiles"], json({0.0, 0.5, 1.0}));
    const auto n = run_times.size();
    EXPECT_EQ(summary["executorRunTime"][0].get<double>(), run_times.front());
    EXPECT_EQ(summary["executorRunTime"][1].get<double>(), run_times[std::min(n / 2, n - 1)]);
    EXPECT_EQ(summary["executorRunTime"][2].get<double>(), run_times.back());
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST_F(RestRouterTest, TaskListPagesAndSorts) {
  const auto& stage = *std::max_element(first_->stages.begin(), first_->stages.end(),
                                        [](const auto& a, const auto& b) { return a.tasks_started < b.tasks_started; });
  const std::string base = "applications/" + first_->app.id + "/stages/" + std::to_string(stage.stage_id) + "/" +
                           std::to_string(stage.attempt_id) + "/taskList";
  const json all = get_json(base + "?length=1000000");
  const json page = get_json(base + "?offset=2&length=3");
  ASSERT_EQ(page.size(), 3u);
  EXPECT_EQ(page[0]["taskId"], all[2]["taskId"]);
  const json slowest = get_json(base + "?sortBy=-runtime&length=1000000");
  for (size_t i = 1; i < slowest.size(); ++i) {
    auto run = [](const json& t) {
      return t.contains("taskMetrics") ? t["taskMetrics"]["executorRunTime"].get<int64_t>() : int64_t{-1};
    };
    EXPECT_GE(run(slowest[i - 1]), run(slowest[i]));
  }
  const json failed = get_json(base + "?status=failed&length=1000000");
  for (const json& t : failed) EXPECT_EQ(t["status"], "FAILED");
}

TEST_F(RestRouterTest, StatusFiltersKeepOnlyThatStatus) {
  const json failed = get_json("applications/" + first_->app.id + "/jobs?status=FAILED");
  const auto expected = std::count_if(first_->jobs.begin(), first_->jobs.end(),
                                      [](const auto& j) { return j.status == model::JobStatus::kFailed; });
  EXPECT_EQ(static_cast<int64_t>(failed.size()), expected);
  for (const json& job : failed) EXPECT_EQ(job["status"], "FAILED");
  const json all = get_json("applications/" + first_->app.id + "/jobs");
  EXPECT_EQ(all.size(), first_->jobs.size());
}

TEST_F(RestRouterTest, ErrorsHaveTheHistoryServerStatusCodesAndSayWhat) {
  const std::string app = "applications/" + first_->app.id;
  struct Case {
    std::string method, target;
    int status;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"GET", "applications/nope/jobs", 404, "no such app: nope"},
      {"GET", "applications/nope", 404, "no such app: nope"},
      {"GET", app + "/jobs/999999", 404, "unknown job: 999999"},
      {"GET", app + "/jobs/x", 404, "unknown job: x"},
      {"GET", app + "/stages/999999", 404, "unknown stage: 999999"},
      {"GET", app + "/stages/0/77", 404, "unknown attempt for stage 0"},
      {"GET", app + "/jobs?status=bogus", 400, "\"status\""},
      {"GET", app + "/stages/0/0/taskSummary?quantiles=NaN", 400, "\"quantiles\""},
      {"GET", app + "/stages/0/0/taskSummary?quantiles=0.5,nan", 400, "\"quantiles\""},
      {"GET", app + "/stages/0/0/taskSummary?quantiles=inf", 400, "\"quantiles\""},
      {"GET", app + "/stages/0/0/taskList?length=0", 400, "\"length\""},
      {"GET", app + "/stages/0/0/taskList?offset=x", 400, "\"offset\""},
      {"GET", "applications?limit=x", 400, "\"limit\""},
      {"GET", app + "/stages/0/0/taskList?sortBy=fastest", 400, "\"sortBy\""},
      {"GET", "applications?minDate=soon", 400, "\"minDate\""},
      {"GET", app + "/storage/rdd/999999", 404, "no rdd found w/ id 999999"},
      {"GET", app + "/sql/999999", 404, "unknown query execution id: 999999"},
      // A History Server has no executor to ask for a thread dump.
      {"GET", app + "/executors/1/threads", 503, "Thread dumps not available through the history server."},
      {"GET", app + "/executors/driver/threads", 503, "Thread dumps not available"},
      // As in the History Server, a segment after the id that is no resource names an attempt.
      {"GET", app + "/nothing", 404, "attempt: nothing"},
      {"GET", app + "/jobs/0/extra", 404, "unknown resource"},
      {"GET", "/api/v1/nothing", 404, "unknown resource"},
      {"POST", app + "/jobs", 405, "read-only"},
  };
  for (const Case& c : cases) {
    const RestResponse r = router_->handle(c.method, c.target);
    EXPECT_EQ(r.status, c.status) << c.method << " " << c.target << ": " << r.body;
    EXPECT_NE(r.body.find(c.message), std::string::npos) << c.target << ": " << r.body;
  }
}

TEST_F(RestRouterTest, EveryEndpointAnswersJson) {
  const std::string app = "applications/" + first_->app.id;
  for (const std::string& path :
       {std::string("version"), app, app + "/jobs/0", app + "/stages?details=true&withSummaries=true",
        app + "/stages/0", app + "/stages/0/0?withSummaries=true&quantiles=0.1,0.9", app + "/executors",
        app + "/allexecutors", app + "/storage/rdd", app + "/environment", app + "/sql",
        app + "/sql?details=false&offset=1&length=1", app + "/allmiscellaneousprocess"}) {
    get_json(path);
  }
  const json sql = get_json(app + "/sql");
  ASSERT_FALSE(sql.empty());
  EXPECT_FALSE(get_json(app + "/sql/" + std::to_string(sql[0]["id"].get<int64_t>()))["nodes"].empty());
  const RestResponse zip = with_body_written(router_->handle("GET", app + "/logs"));
  EXPECT_EQ(zip.status, 200);
  EXPECT_EQ(zip.body.substr(0, 2), "PK");
}

// The download is the log decompressed and redacted: read back (a History Server zip is a log
// layout this program reads), it answers every endpoint as the log it came from does.
TEST_F(RestRouterTest, TheLogsDownloadReadsBackAsTheSameApplication) {
  const fs::path downloads = *dir_ / ".." / ("sf_server_downloads_" + std::to_string(::getpid()));
  fs::create_directories(downloads);
  for (const loggen::GroundTruth* truth : {first_, second_}) {
    const std::string app = "applications/" + truth->app.id;
    const RestResponse zip = with_body_written(router_->handle("GET", app + "/logs"));
    ASSERT_EQ(zip.status, 200) << zip.body;
    std::ofstream(downloads / (truth->app.id + ".zip"), std::ios::binary) << zip.body;
  }
  auto downloaded = catalog_of(downloads);
  auto scan = downloaded->rescan();
  ASSERT_TRUE(scan.has_value());
  ASSERT_TRUE(scan->unreadable.empty()) << scan->unreadable.front();
  RestRouter router(*downloaded);
  for (const loggen::GroundTruth* truth : {first_, second_}) {
    const std::string app = "/api/v1/applications/" + truth->app.id;
    for (const std::string endpoint : {"/jobs", "/stages?details=true", "/executors", "/environment", "/sql"}) {
      const RestResponse original = router_->handle("GET", app + endpoint);
      const RestResponse copy = router.handle("GET", app + endpoint);
      ASSERT_EQ(copy.status, 200) << endpoint << ": " << copy.body;
      EXPECT_EQ(json::parse(copy.body), json::parse(original.body)) << truth->app.id << endpoint;
    }
  }
  fs::remove_all(downloads);
}

// Without an attempt id, the History Server's /logs of an application of several attempts is one
// zip of every attempt's log; with one, that attempt's log alone.
TEST(RestRouterLogs, AnApplicationOfSeveralAttemptsDownloadsEveryAttempt) {
  const fs::path dir = fs::temp_directory_path() / ("sf_server_attempts_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const std::string attempt : {"1", "2"}) {
    std::ofstream(dir / ("app-7_" + attempt))
        << "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.0\"}\n"
        << "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"a\",\"App ID\":\"app-7\","
        << "\"Timestamp\":" << (attempt == "1" ? 1000 : 5000) << ",\"User\":\"u\",\"App Attempt ID\":\"" << attempt
        << "\"}\n"
        << "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":" << (attempt == "1" ? 2000 : 6000)
        << ",\"ExitCode\":" << (attempt == "1" ? 1 : 0) << "}\n";
  }
  catalog::CatalogOptions options;
  options.root = *io::PathConfinement::to(dir.string());
  catalog::LogCatalog logs(options);
  ASSERT_TRUE(logs.rescan().has_value());
  RestRouter router(logs);

  const RestResponse every = with_body_written(router.handle("GET", "applications/app-7/logs"));
  ASSERT_EQ(every.status, 200) << every.body;
  EXPECT_NE(every.body.find("app-7_1"), std::string::npos);
  EXPECT_NE(every.body.find("app-7_2"), std::string::npos);
  const RestResponse one = with_body_written(router.handle("GET", "applications/app-7/2/logs"));
  ASSERT_EQ(one.status, 200) << one.body;
  EXPECT_EQ(one.body.find("app-7_1"), std::string::npos);
  EXPECT_NE(one.body.find("app-7_2"), std::string::npos);

  // The exit code each attempt's end logged (Spark 4.1+), as the History Server lists it.
  const json app = json::parse(router.handle("GET", "applications/app-7").body);
  ASSERT_EQ(app["attempts"].size(), 2u);
  for (const json& attempt : app["attempts"]) {
    EXPECT_EQ(attempt["exitCode"], attempt["attemptId"] == "1" ? 1 : 0) << attempt.dump();
  }
  fs::remove_all(dir);
}

// A stage the SparkContext's shutdown cancelled while two of its tasks ran: the log holds their
// starts and no end. Spark's listener counts them as running until the log's lastUpdated (its
// modification time), and the summary's duration index holds them beside the successful tasks
// while its count is the successful ones: the real History Server's quantiles of this stage are
// the running tasks' 10 and 16 ms, not the 1,500 and 1,520 ms of the tasks that ended.
TEST(RestRouterLogs, ATaskWithoutAnEndRunsUntilTheLogsLastUpdate) {
  const fs::path dir = fs::temp_directory_path() / ("sf_server_unended_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto task_info = [](int id, int64_t launch, int64_t finish) {
    return "{\"Task ID\":" + std::to_string(id) + ",\"Index\":" + std::to_string(id) +
           ",\"Attempt\":0,\"Partition ID\":" + std::to_string(id) + ",\"Launch Time\":" + std::to_string(launch) +
           ",\"Executor ID\":\"driver\",\"Host\":\"localhost\",\"Locality\":\"PROCESS_LOCAL\",\"Speculative\":false,"
           "\"Getting Result Time\":0,\"Finish Time\":" +
           std::to_string(finish) + ",\"Failed\":false,\"Killed\":false,\"Accumulables\":[]}";
  };
  auto start = [&](int id, int64_t launch) {
    return "{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":0,\"Stage Attempt ID\":0,\"Task Info\":" +
           task_info(id, launch, 0) + "}\n";
  };
  auto end = [&](int id, int64_t launch, int64_t finish) {
    return "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":0,\"Task Type\":\"ResultTask\","
           "\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Info\":" +
           task_info(id, launch, finish) + "}\n";
  };
  const std::string stage_info =
      "{\"Stage ID\":0,\"Stage Attempt ID\":0,\"Stage Name\":\"collect\",\"Number of Tasks\":4,\"RDD Info\":[],"
      "\"Parent IDs\":[],\"Details\":\"\",\"Submission Time\":900,\"Accumulables\":[]";
  const fs::path log = dir / "local-1";
  std::ofstream(log) << "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"4.0.0\"}\n"
                     << "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"a\",\"App ID\":\"local-1\","
                        "\"Timestamp\":500,\"User\":\"u\"}\n"
                     << "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":" << stage_info << "}}\n"
                     << start(0, 1000) << start(1, 1000) << start(2, 2584) << end(0, 1000, 2500) << start(3, 2590)
                     << end(1, 1000, 2520) << "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":" << stage_info
                     << ",\"Completion Time\":2598,\"Failure Reason\":\"Stage cancelled because SparkContext was shut "
                        "down\"}}\n"
                     << "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":2600}\n";
  const struct timespec modified[2] = {{2, 600'000'000}, {2, 600'000'000}};  // 2,600 ms after the epoch
  ASSERT_EQ(::utimensat(AT_FDCWD, log.c_str(), modified, 0), 0);
  catalog::CatalogOptions options;
  options.root = *io::PathConfinement::to(dir.string());
  catalog::LogCatalog logs(options);
  ASSERT_TRUE(logs.rescan().has_value());
  RestRouter router(logs);

  const RestResponse list = router.handle("GET", "applications/local-1/stages/0/0/taskList");
  ASSERT_EQ(list.status, 200) << list.body;
  std::map<int64_t, int64_t> durations;
  for (const json& t : json::parse(list.body)) durations[t["taskId"].get<int64_t>()] = t.value("duration", -1);
  EXPECT_EQ(durations, (std::map<int64_t, int64_t>{{0, 1500}, {1, 1520}, {2, 16}, {3, 10}}));

  const RestResponse summary = router.handle("GET", "applications/local-1/stages/0/0/taskSummary?quantiles=0,1");
  ASSERT_EQ(summary.status, 200) << summary.body;
  const json distributions = json::parse(summary.body);
  EXPECT_EQ(distributions["duration"], json::parse("[10.0, 16.0]"));
  EXPECT_EQ(distributions["executorRunTime"], json::parse("[0.0, 0.0]"));  // the successful tasks only

  // A modification time (a coarse clock) 3 ms before the last launch the log holds: task 3 ran
  // -3 ms, which the History Server's duration index leaves out, so the quantiles are task 2's 3 ms
  // and the first successful task's 1,500 (a real Spark run of shutdown_during_job showed it).
  const struct timespec earlier[2] = {{2, 587'000'000}, {2, 587'000'000}};
  ASSERT_EQ(::utimensat(AT_FDCWD, log.c_str(), earlier, 0), 0);
  ASSERT_TRUE(logs.rescan().has_value());
  const RestResponse before = router.handle("GET", "applications/local-1/stages/0/0/taskSummary?quantiles=0,1");
  ASSERT_EQ(before.status, 200) << before.body;
  EXPECT_EQ(json::parse(before.body)["duration"], json::parse("[3.0, 1500.0]"));
  const RestResponse relisted = router.handle("GET", "applications/local-1/stages/0/0/taskList");
  durations.clear();
  for (const json& t : json::parse(relisted.body)) durations[t["taskId"].get<int64_t>()] = t.value("duration", -1);
  EXPECT_EQ(durations, (std::map<int64_t, int64_t>{{0, 1500}, {1, 1520}, {2, 3}, {3, -1}}));  // -1: none shown
  fs::remove_all(dir);
}

// Two jobs of one SQL execution submitted at once from two threads: the DAGScheduler handled job
// 1 first (its result stage is 0), so its start was logged first and the History Server's map of
// the execution's jobs lists it first: successJobIds [1, 0], as a real Spark run showed.
TEST(RestRouterLogs, AnExecutionsJobsAreListedInTheOrderTheyStarted) {
  const fs::path dir = fs::temp_directory_path() / ("sf_server_job_order_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto job = [](int id, int stage, int64_t submitted) {
    return "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":" + std::to_string(id) +
           ",\"Submission Time\":" + std::to_string(submitted) + ",\"Stage Infos\":[],\"Stage IDs\":[" +
           std::to_string(stage) + "],\"Properties\":{\"spark.sql.execution.id\":\"0\"}}\n";
  };
  auto job_end = [](int id, int64_t ended) {
    return "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":" + std::to_string(id) +
           ",\"Completion Time\":" + std::to_string(ended) + ",\"Job Result\":{\"Result\":\"JobSucceeded\"}}\n";
  };
  std::ofstream(dir / "local-2")
      << "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"4.0.0\"}\n"
      << "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"a\",\"App ID\":\"local-2\",\"Timestamp\":500,"
         "\"User\":\"u\"}\n"
      << "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\",\"executionId\":0,"
         "\"description\":\"d\",\"details\":\"\",\"physicalPlanDescription\":\"\",\"sparkPlanInfo\":{\"nodeName\":"
         "\"X\",\"simpleString\":\"X\",\"children\":[],\"metadata\":{},\"metrics\":[]},\"time\":1000,"
         "\"modifiedConfigs\":{}}\n"
      << job(1, 0, 1100) << job(0, 1, 1100) << job_end(1, 1500) << job_end(0, 1600)
      << "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd\",\"executionId\":0,"
         "\"time\":1700}\n"
      << "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":2000}\n";
  catalog::CatalogOptions options;
  options.root = *io::PathConfinement::to(dir.string());
  catalog::LogCatalog logs(options);
  ASSERT_TRUE(logs.rescan().has_value());
  RestRouter router(logs);

  const RestResponse execution = router.handle("GET", "applications/local-2/sql/0");
  ASSERT_EQ(execution.status, 200) << execution.body;
  EXPECT_EQ(json::parse(execution.body)["successJobIds"], json::parse("[1, 0]"));
  fs::remove_all(dir);
}

TEST_F(RestRouterTest, RescanPicksUpNewAndRemovedLogsAndReportsUnreadableOnes) {
  const fs::path extra = *dir_ / "later";
  fs::create_directories(extra);
  loggen::GeneratorConfig third = loggen::GeneratorConfig::small();
  third.seed = 3;
  loggen::GroundTruth truth;
  const loggen::WrittenLog written = loggen::write_event_log(third, {}, extra, &truth);
  const fs::path moved = *dir_ / written.path.filename();
  fs::rename(written.path, moved);
  std::ofstream(*dir_ / "not-a-log.txt") << "hello\n";

  auto scan = logs_->rescan();
  ASSERT_TRUE(scan.has_value());
  EXPECT_EQ(scan->read, 2u);  // the new log and the text file; the two known logs are not read again
  ASSERT_EQ(scan->unreadable.size(), 1u);
  EXPECT_NE(scan->unreadable[0].find("not-a-log.txt"), std::string::npos) << scan->unreadable[0];
  EXPECT_EQ(get_json("applications").size(), 3u);
  get_json("applications/" + truth.app.id + "/jobs");

  fs::remove(moved);
  fs::remove(*dir_ / "not-a-log.txt");
  fs::remove_all(extra);
  scan = logs_->rescan();
  ASSERT_TRUE(scan.has_value());
  EXPECT_EQ(scan->removed, 1u);
  EXPECT_EQ(get_json("applications").size(), 2u);
  EXPECT_EQ(router_->handle("GET", "applications/" + truth.app.id + "/jobs").status, 404);
}

// Parameters as Spark's History Server reads them (JAX-RS and Spark's own parsing), each checked
// against the real History Server by tests/history_server.
TEST_F(RestRouterTest, BooleansAreTrueOnlyWhenTheySayTrue) {
  const std::string stage = "applications/" + first_->app.id + "/stages/0/0";
  EXPECT_TRUE(get_json(stage).contains("tasks"));  // details=true is one stage's default
  EXPECT_TRUE(get_json(stage + "?details=TRUE").contains("tasks"));
  for (const char* value : {"maybe", "1", "yes", ""}) {
    EXPECT_FALSE(get_json(stage + "?details=" + value).contains("tasks")) << value;
  }
}

TEST_F(RestRouterTest, QuantilesAreSortedAndAnyNumberPicksAValue) {
  const auto& stage = *std::find_if(first_->stages.begin(), first_->stages.end(),
                                    [](const auto& s) { return !s.successful_task_metrics.empty(); });
  const std::string base = "applications/" + first_->app.id + "/stages/" + std::to_string(stage.stage_id) + "/" +
                           std::to_string(stage.attempt_id) + "/taskSummary?quantiles=";
  const json reversed = get_json(base + "1,0");
  EXPECT_EQ(reversed["quantiles"], json({0.0, 1.0}));
  EXPECT_EQ(reversed, get_json(base + "0,1"));
  // Above 1 is the largest value, below 0 the smallest (Spark's index min(q * n, n - 1)).
  const json outside = get_json(base + "-0.5,1.5");
  EXPECT_EQ(outside["executorRunTime"], reversed["executorRunTime"]);
}

TEST_F(RestRouterTest, ANegativeLimitListsNoApplicationAndANegativeOffsetSkipsNoTask) {
  EXPECT_EQ(get_json("applications?limit=-1"), json::array());
  EXPECT_EQ(get_json("applications?limit=0"), json::array());
  const std::string tasks = "applications/" + first_->app.id + "/stages/0/0/taskList";
  EXPECT_EQ(get_json(tasks + "?offset=-1&length=3"), get_json(tasks + "?length=3"));
}

TEST_F(RestRouterTest, TheSqlListIsWholeUnlessALengthAboveZeroPagesIt) {
  const std::string sql = "applications/" + first_->app.id + "/sql?details=false";
  const json all = get_json(sql);
  ASSERT_GT(all.size(), 2u) << "the generated log has several executions";
  EXPECT_EQ(all.size(), first_->sql.size());
  EXPECT_EQ(get_json(sql + "&length=-1"), all);
  EXPECT_EQ(get_json(sql + "&length=0&offset=1"), all);
  const json page = get_json(sql + "&offset=1&length=2");
  ASSERT_EQ(page.size(), 2u);
  EXPECT_EQ(page[0]["id"], all[1]["id"]);
  EXPECT_EQ(get_json(sql + "&offset=-1&length=1")[0]["id"], all[0]["id"]);
}

TEST_F(RestRouterTest, VersionAndLogSourceAreTheHistoryServers) {
  EXPECT_EQ(get_json("version"), json({{"spark", std::string(kHistoryServerVersion)}}));
  for (const json& app : get_json("applications")) {
    for (const json& attempt : app["attempts"]) {
      EXPECT_EQ(attempt["logSourceName"], dir_->string());
      EXPECT_EQ(attempt["logSourceFullPath"], dir_->string());
    }
  }
}

// With details, a stage none of whose tasks has a status asked for is left out (Spark 3.4+).
TEST_F(RestRouterTest, TaskStatusLeavesOutStagesWithoutSuchTasks) {
  const std::string stages = "applications/" + first_->app.id + "/stages?details=true&taskStatus=";
  const json failed = get_json(stages + "FAILED");
  const auto with_failures =
      std::count_if(first_->stages.begin(), first_->stages.end(), [](const auto& s) { return s.tasks_failed > 0; });
  EXPECT_EQ(static_cast<int64_t>(failed.size()), with_failures);
  for (const json& stage : failed) {
    ASSERT_FALSE(stage["tasks"].empty());
    for (const auto& [id, task] : stage["tasks"].items()) EXPECT_EQ(task["status"], "FAILED") << id;
  }
  // Without details there are no tasks to filter: every stage is listed.
  EXPECT_EQ(get_json("applications/" + first_->app.id + "/stages?taskStatus=FAILED").size(), first_->stages.size());
}

// The History Server sorts on its run-time index, where a failed or killed task's run time is
// stored negated (-(run time) - 1): they come first, the longest first, then the successful ones.
TEST_F(RestRouterTest, RuntimeOrderPutsUnsuccessfulTasksFirstAsSparksIndexDoes) {
  for (const auto& stage : first_->stages) {
    if (stage.tasks_failed == 0 || stage.tasks_succeeded == 0) continue;
    const std::string base = "applications/" + first_->app.id + "/stages/" + std::to_string(stage.stage_id) + "/" +
                             std::to_string(stage.attempt_id) + "/taskList?length=1000000&sortBy=";
    auto key = [](const json& t) {
      const int64_t run = t["taskMetrics"]["executorRunTime"].get<int64_t>();
      return t["status"] == "SUCCESS" ? run : -run - 1;
    };
    const json increasing = get_json(base + "runtime");
    ASSERT_EQ(static_cast<int64_t>(increasing.size()), stage.tasks_started);
    EXPECT_NE(increasing.front()["status"], "SUCCESS");
    for (size_t i = 1; i < increasing.size(); ++i) EXPECT_LE(key(increasing[i - 1]), key(increasing[i])) << i;
    const json decreasing = get_json(base + "-runtime");
    EXPECT_EQ(decreasing.front()["status"], "SUCCESS");
    for (size_t i = 1; i < decreasing.size(); ++i) EXPECT_GE(key(decreasing[i - 1]), key(decreasing[i])) << i;
    return;
  }
  FAIL() << "no stage with failed and successful tasks";
}

// Spark reads a task end without "Task Metrics" as zero metrics: every ended task shows them.
TEST_F(RestRouterTest, EveryEndedTaskShowsMetrics) {
  for (const auto& stage : first_->stages) {
    const std::string base = "applications/" + first_->app.id + "/stages/" + std::to_string(stage.stage_id) + "/" +
                             std::to_string(stage.attempt_id);
    for (const json& t : get_json(base + "/taskList?length=1000000")) {
      EXPECT_EQ(t.contains("taskMetrics"), t["status"] != "RUNNING") << base << " task " << t["taskId"];
    }
  }
}

}  // namespace
}  // namespace sf::history_server

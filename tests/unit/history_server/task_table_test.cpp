// The DataTables endpoints of Spark's UI, over small hand-written logs whose answers are known:
// the stage page's taskTable (sorted by a column header either way, ties by task id, searched,
// paged) and the SQL page's sqlTable (grouped under root executions or flat, filtered, searched,
// sorted, paged, summarized); also the Spark UI texts the search matches against.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "history_server/rest_path.h"
#include "history_server/rest_router.h"
#include "history_server/task_table.h"

namespace sf::history_server {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A task's info as Spark logs it.
std::string task_info(int id, int index, int attempt, const std::string& executor, const std::string& host,
                      int64_t launch, int64_t finish, bool failed) {
  return "{\"Task ID\":" + std::to_string(id) + ",\"Index\":" + std::to_string(index) +
         ",\"Attempt\":" + std::to_string(attempt) + ",\"Partition ID\":" + std::to_string(index) +
         ",\"Launch Time\":" + std::to_string(launch) + ",\"Executor ID\":\"" + executor + "\",\"Host\":\"" + host +
         "\",\"Locality\":\"PROCESS_LOCAL\",\"Speculative\":false,\"Getting Result Time\":0,\"Finish Time\":" +
         std::to_string(finish) + ",\"Failed\":" + (failed ? "true" : "false") +
         ",\"Killed\":false,\"Accumulables\":[]}";
}

struct LoggedTask {
  int id, index, attempt;
  std::string executor, host;
  int64_t launch;
  std::optional<int64_t> finish;  // none: still running
  int64_t run_ms;
  bool failed;
};

std::string task_lines(const LoggedTask& t) {
  std::string out = "{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":0,\"Stage Attempt ID\":0,\"Task Info\":" +
                    task_info(t.id, t.index, t.attempt, t.executor, t.host, t.launch, 0, false) + "}\n";
  if (!t.finish) return out;
  const std::string reason =
      t.failed ? "{\"Reason\":\"ExceptionFailure\",\"Class Name\":\"java.lang.RuntimeException\",\"Description\":"
                 "\"boom\",\"Stack Trace\":[],\"Full Stack Trace\":\"java.lang.RuntimeException: boom\"}"
               : "{\"Reason\":\"Success\"}";
  out +=
      "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":0,\"Task Type\":\"ResultTask\","
      "\"Task End Reason\":" +
      reason +
      ",\"Task Info\":" + task_info(t.id, t.index, t.attempt, t.executor, t.host, t.launch, *t.finish, t.failed) +
      ",\"Task Metrics\":{\"Executor Deserialize Time\":0,\"Executor Run Time\":" + std::to_string(t.run_ms) +
      ",\"Result Size\":0,\"JVM GC Time\":0,\"Result Serialization Time\":0}}\n";
  return out;
}

std::string sql_start(int id, std::optional<int> root, const std::string& description, int64_t time) {
  return "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\",\"executionId\":" +
         std::to_string(id) + (root ? ",\"rootExecutionId\":" + std::to_string(*root) : std::string()) +
         ",\"description\":\"" + description +
         "\",\"details\":\"\",\"physicalPlanDescription\":\"\",\"sparkPlanInfo\":{\"nodeName\":\"X\","
         "\"simpleString\":\"X\",\"children\":[],\"metadata\":{},\"metrics\":[]},\"time\":" +
         std::to_string(time) + ",\"modifiedConfigs\":{}}\n";
}

std::string sql_end(int id, int64_t time, const std::optional<std::string>& error) {
  return "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd\",\"executionId\":" +
         std::to_string(id) + ",\"time\":" + std::to_string(time) +
         (error ? ",\"errorMessage\":\"" + *error + "\"" : std::string()) + "}\n";
}

// One application: stage 0 with five task attempts, and five SQL executions.
//   task 0: executor 1, host b, 200 ms, succeeded     task 1: executor 2, host a, 200 ms, succeeded
//   task 2: executor 1, host a, 50 ms, failed (boom)   task 3: executor 2, still running
//   task 4: index 2 again (attempt 1), executor 2, 1,100 ms, succeeded
//   execution 0 (root, "select a", 500 ms, its job succeeded), 1 (a sub-execution of 0, 100 ms),
//   2 ("insert b", failed: oops, 600 ms), 3 ("select c", no end), 4 (its root 9 is not logged, 100 ms)
class DataTablesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("sf_data_tables_" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    fs::create_directories(*dir_);
    const std::vector<LoggedTask> tasks = {
        {0, 0, 0, "1", "b", 1000, 1300, 200, false},  {1, 1, 0, "2", "a", 1000, 1400, 200, false},
        {2, 2, 0, "1", "a", 1100, 1200, 50, true},    {3, 3, 0, "2", "a", 1200, std::nullopt, 0, false},
        {4, 2, 1, "2", "a", 1250, 2500, 1100, false},
    };
    const std::string stage_info =
        "{\"Stage ID\":0,\"Stage Attempt ID\":0,\"Stage Name\":\"collect\",\"Number of Tasks\":4,\"RDD Info\":[],"
        "\"Parent IDs\":[],\"Details\":\"\",\"Submission Time\":900,\"Accumulables\":[]}";
    std::ofstream log(*dir_ / "local-1");
    log << "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"4.0.0\"}\n"
        << "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"a\",\"App ID\":\"local-1\","
           "\"Timestamp\":500,\"User\":\"u\"}\n"
        << sql_start(0, 0, "select a", 1000)
        << "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":0,\"Submission Time\":1000,\"Stage Infos\":[],"
           "\"Stage IDs\":[0],\"Properties\":{\"spark.sql.execution.id\":\"0\"}}\n"
        << "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":" << stage_info << "}\n";
    for (const LoggedTask& t : tasks) log << task_lines(t);
    log << "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":1450,"
           "\"Job Result\":{\"Result\":\"JobSucceeded\"}}\n"
        << sql_start(1, 0, "sub query", 1100) << sql_end(1, 1200, std::nullopt) << sql_end(0, 1500, std::nullopt)
        << sql_start(2, std::nullopt, "insert b", 2000) << sql_end(2, 2600, "oops") << sql_start(3, 3, "select c", 3000)
        << sql_start(4, 9, "orphan", 4000) << sql_end(4, 4100, std::nullopt);
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(*dir_, ec);
    delete dir_;
  }

  void SetUp() override {
    catalog::CatalogOptions options;
    options.root = *io::PathConfinement::to(dir_->string());
    logs_ = std::make_unique<catalog::LogCatalog>(options);
    ASSERT_TRUE(logs_->rescan().has_value());
    router_ = std::make_unique<RestRouter>(*logs_);
  }

  json get_json(const std::string& target) {
    const RestResponse r = router_->handle("GET", "applications/local-1/" + target);
    EXPECT_EQ(r.status, 200) << target << ": " << r.body;
    return r.status == 200 ? json::parse(r.body) : json();
  }
  RestResponse get(const std::string& target) { return router_->handle("GET", "applications/local-1/" + target); }

  // The task ids of a taskTable page sorted by `column` (URL-encoded) in `direction`.
  std::vector<int64_t> task_ids(const std::string& column, const std::string& direction,
                                const std::string& more = "&start=0&length=100") {
    const json table = get_json("stages/0/0/taskTable?numTasks=5&columnNameToSort=" + column +
                                "&order%5B0%5D%5Bdir%5D=" + direction + more);
    std::vector<int64_t> out;
    for (const json& t : table.value("aaData", json::array())) out.push_back(t["taskId"].get<int64_t>());
    return out;
  }

  static std::vector<int64_t> ids_of_tasks(const json& rows) {
    std::vector<int64_t> out;
    for (const json& t : rows) out.push_back(t["taskId"].get<int64_t>());
    return out;
  }

  // The execution ids of a sqlTable page's rows.
  static std::vector<int64_t> ids_of(const json& rows) {
    std::vector<int64_t> out;
    for (const json& row : rows) out.push_back(row["id"].get<int64_t>());
    return out;
  }

  static fs::path* dir_;
  std::unique_ptr<catalog::LogCatalog> logs_;
  std::unique_ptr<RestRouter> router_;
};

fs::path* DataTablesTest::dir_ = nullptr;

using Ids = std::vector<int64_t>;

// Duration is the run-time index: the failed task's -(50) - 1 first, then the running task's -1;
// the tie of tasks 0 and 1 (200 ms) goes by task id, reversed descending.
TEST_F(DataTablesTest, TaskTableSortsByTheColumnsIndexTiesByTaskIdReversedDescending) {
  EXPECT_EQ(task_ids("Duration", "asc"), (Ids{2, 3, 0, 1, 4}));
  EXPECT_EQ(task_ids("Duration", "desc"), (Ids{4, 1, 0, 3, 2}));
  EXPECT_EQ(task_ids("Executor+ID", "asc"), (Ids{0, 2, 1, 3, 4}));
  EXPECT_EQ(task_ids("Executor%20ID", "desc"), (Ids{4, 3, 1, 2, 0}));
  EXPECT_EQ(task_ids("Host", "asc"), (Ids{1, 2, 3, 4, 0}));
  EXPECT_EQ(task_ids("ID", "desc"), (Ids{4, 3, 2, 1, 0}));
  EXPECT_EQ(task_ids("ID", "ASC"), (Ids{0, 1, 2, 3, 4}));  // "asc" in any case
  // "Index" is the partition id's index; "Logs" sorts as "Index".
  EXPECT_EQ(task_ids("Index", "asc"), (Ids{0, 1, 2, 4, 3}));
  EXPECT_EQ(task_ids("Logs", "desc"), (Ids{3, 4, 2, 1, 0}));
  EXPECT_EQ(task_ids("Errors", "asc"), (Ids{0, 1, 3, 4, 2}));
  EXPECT_EQ(task_ids("Status", "asc"), (Ids{2, 3, 0, 1, 4}));  // FAILED, RUNNING, SUCCESS
  // Anything but "asc" is descending, a missing direction too.
  EXPECT_EQ(task_ids("Launch%20Time", "up"), (Ids{4, 3, 2, 1, 0}));
  // A header encoded twice is decoded twice, as Spark's decodeURLParameter does.
  EXPECT_EQ(task_ids("Executor%2520ID", "asc"), (Ids{0, 2, 1, 3, 4}));
}

TEST_F(DataTablesTest, TaskTablePagesAndEchoesTheTaskCountAsText) {
  const json page = get_json("stages/0/0/taskTable?numTasks=5&columnNameToSort=ID&order[0][dir]=asc&start=1&length=2");
  EXPECT_EQ(page["recordsTotal"], "5");
  EXPECT_EQ(page["recordsFiltered"], "5");
  EXPECT_EQ(task_ids("ID", "asc", "&start=1&length=2"), (Ids{1, 2}));
  EXPECT_EQ(task_ids("ID", "asc", "&start=-3&length=2"), (Ids{0, 1}));  // a negative start skips nothing
  // Each row is the task as taskList shows it.
  const json list = get_json("stages/0/0/taskList?offset=1&length=2");
  EXPECT_EQ(page["aaData"], list);
}

TEST_F(DataTablesTest, TaskTableSearchesTheFirstNumTasksTasksAsThePageShowsThem) {
  auto search = [&](const std::string& value, const std::string& more = "&start=0&length=10") {
    return get_json("stages/0/0/taskTable?numTasks=5&columnNameToSort=ID&order[0][dir]=asc&search[value]=" + value +
                    more);
  };
  const json boom = search("BOOM");  // the failed task's error message, whatever the case
  EXPECT_EQ(ids_of_tasks(boom["aaData"]), Ids{2});
  EXPECT_EQ(boom["recordsTotal"], "5");
  EXPECT_EQ(boom["recordsFiltered"], "1");
  // Times as the page writes them, rounded half up as Java does: 200 ms (the run time of tasks 0
  // and 1) and 150 ms (the scheduler delay of task 4) are both "0.2 s".
  EXPECT_EQ(ids_of_tasks(search("0.2%20s")["aaData"]), (Ids{0, 1, 4}));
  // The found tasks are paged: the successful ones are 0, 1 and 4.
  const json succeeded = search("success", "&start=1&length=1");
  EXPECT_EQ(succeeded["recordsFiltered"], "3");
  EXPECT_EQ(ids_of_tasks(succeeded["aaData"]), Ids{1});
  // Only the first numTasks tasks in the sort's order are searched.
  const json first_two = get_json(
      "stages/0/0/taskTable?numTasks=2&columnNameToSort=ID&order[0][dir]=asc&search[value]=success&start=0&length=9");
  EXPECT_EQ(ids_of_tasks(first_two["aaData"]), (Ids{0, 1}));
  EXPECT_EQ(first_two["recordsTotal"], "2");
  // Nothing found: no rows, and no start or length needed.
  const json none = get_json("stages/0/0/taskTable?numTasks=5&columnNameToSort=ID&search[value]=nothing-like-it");
  EXPECT_EQ(none["aaData"], json::array());
  EXPECT_EQ(none["recordsFiltered"], "0");
}

TEST_F(DataTablesTest, TaskTableRefusesWhatTheHistoryServerFailsOnNamingTheParameter) {
  const std::string base = "stages/0/0/taskTable?order[0][dir]=asc";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"&columnNameToSort=ID&start=0&length=5", "numTasks"},
      {"&numTasks=five&columnNameToSort=ID&start=0&length=5", "numTasks"},
      {"&numTasks=5&start=0&length=5", "columnNameToSort"},
      {"&numTasks=5&columnNameToSort=Nope&start=0&length=5", "columnNameToSort"},
      {"&numTasks=5&columnNameToSort=ID&length=5", "start"},
      {"&numTasks=5&columnNameToSort=ID&start=0", "length"},
      {"&numTasks=5&columnNameToSort=ID&start=0&length=0", "length"},
      {"&numTasks=5&columnNameToSort=ID&start=0&length=99999999999", "length"},
      {"&numTasks=5&columnNameToSort=ID&start=0&length=5&search[value]=100%25", "search[value]"},
  };
  for (const auto& [query, parameter] : cases) {
    const RestResponse r = get(base + query);
    EXPECT_EQ(r.status, 400) << query << ": " << r.body;
    EXPECT_NE(r.body.find(parameter), std::string::npos) << query << ": " << r.body;
  }
}

TEST_F(DataTablesTest, SqlTableGroupsSubExecutionsUnderTheirRoot) {
  const json table = get_json("sql/sqlTable?draw=3");
  EXPECT_EQ(table["draw"], 3);
  // Newest first; execution 1 is under 0, execution 4's root is not logged so it is a row itself.
  EXPECT_EQ(ids_of(table["aaData"]), (Ids{4, 3, 2, 0}));
  EXPECT_EQ(table["recordsTotal"], 4);
  EXPECT_EQ(table["recordsFiltered"], 4);
  const json& root = table["aaData"][3];
  EXPECT_EQ(ids_of(root["subExecutions"]), Ids{1});
  EXPECT_EQ(root["status"], "COMPLETED");
  EXPECT_EQ(root["description"], "select a");
  EXPECT_EQ(root["submissionTime"], format_history_server_time(1000));
  EXPECT_EQ(root["duration"], 500);
  EXPECT_EQ(root["jobIds"], json::parse("[0]"));
  EXPECT_FALSE(root.contains("queryId"));  // left out when the log has none, as a null is by Spark's mapper
  EXPECT_FALSE(root.contains("errorMessage"));
  EXPECT_EQ(root["rootExecutionId"], 0);
  EXPECT_EQ(table["aaData"][0]["subExecutions"], json::array());
  EXPECT_EQ(table["aaData"][0]["rootExecutionId"], 9);
  EXPECT_EQ(table["aaData"][2]["status"], "FAILED");
  EXPECT_EQ(table["aaData"][2]["errorMessage"], "oops");
  // An execution without an end lasts 0 ms, as in serve's sql list.
  EXPECT_EQ(table["aaData"][1]["status"], "RUNNING");
  EXPECT_EQ(table["aaData"][1]["duration"], 0);
  EXPECT_EQ(table["aaData"][1]["duration"], get_json("sql/3")["duration"]);
  // The summary is over the rows: (100 + 0 + 600 + 500) / 4 ms on average, one of four failed.
  EXPECT_EQ(table["summary"], json::parse(R"({"totalQueries": 4, "averageDuration": 300, "runningQueries": 1,
                                              "failedQueries": 1, "failureRate": 0.25})"));
}

TEST_F(DataTablesTest, SqlTableFlatListsEveryExecution) {
  const json table = get_json("sql/sqlTable?groupSubExecution=false");
  EXPECT_EQ(table["draw"], 0);
  EXPECT_EQ(ids_of(table["aaData"]), (Ids{4, 3, 2, 1, 0}));
  EXPECT_EQ(table["recordsTotal"], 5);
  EXPECT_EQ(table["recordsFiltered"], 5);
  EXPECT_FALSE(table["aaData"][0].contains("subExecutions"));
  EXPECT_EQ(table["summary"]["totalQueries"], 5);
  // What is not a boolean is the default: grouped.
  EXPECT_EQ(ids_of(get_json("sql/sqlTable?groupSubExecution=perhaps")["aaData"]), (Ids{4, 3, 2, 0}));
}

TEST_F(DataTablesTest, SqlTableFiltersByStatusAndSearch) {
  // Grouped: the totals count the roots of every execution, the filtered count the rows shown.
  const json completed = get_json("sql/sqlTable?status=completed");
  EXPECT_EQ(ids_of(completed["aaData"]), (Ids{4, 0}));
  EXPECT_EQ(ids_of(completed["aaData"][1]["subExecutions"]), Ids{1});
  EXPECT_EQ(completed["recordsTotal"], 4);
  EXPECT_EQ(completed["recordsFiltered"], 2);
  EXPECT_EQ(completed["summary"]["totalQueries"], 2);
  EXPECT_EQ(completed["summary"]["failureRate"], 0.0);
  // A sub-execution found without its root is a row of its own.
  const json sub = get_json("sql/sqlTable?search%5Bvalue%5D=SUB");
  EXPECT_EQ(ids_of(sub["aaData"]), Ids{1});
  EXPECT_EQ(sub["aaData"][0]["subExecutions"], json::array());
  // The search reads the description, the status and the id.
  EXPECT_EQ(ids_of(get_json("sql/sqlTable?search[value]=fail")["aaData"]), Ids{2});
  EXPECT_EQ(ids_of(get_json("sql/sqlTable?search[value]=3")["aaData"]), Ids{3});
  const json flat = get_json("sql/sqlTable?groupSubExecution=false&status=COMPLETED");
  EXPECT_EQ(ids_of(flat["aaData"]), (Ids{4, 1, 0}));
  EXPECT_EQ(flat["recordsTotal"], 5);
  EXPECT_EQ(flat["recordsFiltered"], 3);
  EXPECT_EQ(get_json("sql/sqlTable?status=nothing")["summary"],
            json::parse(R"({"totalQueries": 0, "averageDuration": 0, "runningQueries": 0, "failedQueries": 0,
                            "failureRate": 0.0})"));
}

TEST_F(DataTablesTest, SqlTableSortsByTheNamedColumnAndPages) {
  auto sorted = [&](const std::string& column, const std::string& direction) {
    return ids_of(get_json("sql/sqlTable?order[0][column]=2&columns[2][name]=" + column +
                           "&order[0][dir]=" + direction)["aaData"]);
  };
  EXPECT_EQ(sorted("duration", "asc"), (Ids{3, 4, 0, 2}));
  EXPECT_EQ(sorted("duration", "desc"), (Ids{2, 0, 4, 3}));
  EXPECT_EQ(sorted("description", "asc"), (Ids{2, 4, 0, 3}));
  EXPECT_EQ(sorted("status", "asc"), (Ids{0, 4, 2, 3}));   // ties keep the id order
  EXPECT_EQ(sorted("status", "desc"), (Ids{3, 2, 4, 0}));  // reversed whole
  EXPECT_EQ(sorted("submissionTime", "asc"), (Ids{0, 2, 3, 4}));
  EXPECT_EQ(sorted("unknown", "asc"), (Ids{0, 2, 3, 4}));  // by id
  EXPECT_EQ(ids_of(get_json("sql/sqlTable?start=1&length=2")["aaData"]), (Ids{3, 2}));
  EXPECT_EQ(ids_of(get_json("sql/sqlTable?start=1&length=0")["aaData"]), (Ids{4, 3, 2, 0}));  // 0: every row
  for (const std::string query : {"draw=x", "start=1.5", "length=ten", "search[value]=%25zz"}) {
    const RestResponse r = get("sql/sqlTable?" + query);
    EXPECT_EQ(r.status, 400) << query << ": " << r.body;
    EXPECT_NE(r.body.find(query.substr(0, query.find('='))), std::string::npos) << r.body;
  }
}

TEST(SparkUiTexts, DurationsSizesAndDatesAreWrittenAsSparksUiWritesThem) {
  EXPECT_EQ(spark_ui_duration(0), "0 ms");
  EXPECT_EQ(spark_ui_duration(99), "99 ms");
  EXPECT_EQ(spark_ui_duration(250), "0.3 s");  // Java rounds 0.25 half up
  EXPECT_EQ(spark_ui_duration(1250), "1 s");
  EXPECT_EQ(spark_ui_duration(1500), "2 s");
  EXPECT_EQ(spark_ui_duration(90'000), "1.5 min");
  EXPECT_EQ(spark_ui_duration(30 * 60'000), "30 min");
  EXPECT_EQ(spark_ui_duration(90 * 60'000), "1.5 h");
  EXPECT_EQ(spark_ui_bytes(0), "0.0 B");
  EXPECT_EQ(spark_ui_bytes(2047), "2047.0 B");
  EXPECT_EQ(spark_ui_bytes(2048), "2.0 KiB");
  EXPECT_EQ(spark_ui_bytes(2560 * 1024), "2.5 MiB");
  EXPECT_EQ(spark_ui_bytes(2304), "2.3 KiB");  // 2.25: Java rounds half up
  EXPECT_EQ(spark_ui_date(1'706'745'599'000), "2024/01/31 23:59:59");
  EXPECT_EQ(java_date_string(1'706'745'599'000), "Wed Jan 31 23:59:59 UTC 2024");
  EXPECT_EQ(java_date_string(0), "Thu Jan 01 00:00:00 UTC 1970");
  EXPECT_EQ(decode_url_parameter("a%2520b+c"), "a b c");
  EXPECT_EQ(decode_url_parameter("100%"), std::nullopt);
  EXPECT_EQ(decode_url_parameter("%zz"), std::nullopt);
}

}  // namespace
}  // namespace sf::history_server

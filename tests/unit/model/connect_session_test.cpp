// Spark Connect in the model: the server's session and operation events (lines as Spark 4.3's
// Connect server wrote them in a real run of a pyspark client, statements shortened) become
// sessions and operations; each operation's jobs are found by its job tag among the jobs' tags,
// its statement and error are redacted as SQL text is, and its statement reads as a line.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>

#include "model/load.h"

namespace sf::model {
namespace {

AppModel load_lines(const std::string& text, unsigned threads = 1) {
  const auto path = std::filesystem::temp_directory_path() / ("sf-connect-" + std::to_string(::getpid()));
  std::ofstream(path) << text;
  LoadOptions options;
  options.threads = threads;
  auto model = load_event_log(path.string(), options);
  EXPECT_TRUE(model.has_value()) << (model ? "" : model.error().message());
  return model ? std::move(*model) : AppModel{};
}

constexpr char kTag[] =
    "SparkConnect_OperationTag_User__Session_7fa27653-e350-4ff1-a3e3-e9561e20b4c0_Operation_0b177c45-a110-4f59-9cd9-"
    "78978153024d";

const std::string kLines =
    std::string(R"({"Event":"SparkListenerLogStart","Spark Version":"4.3.0"}
{"Event":"SparkListenerApplicationStart","App Name":"connect-test","App ID":"local-1796656176499","Timestamp":1796656170000,"User":"u"}
{"Event":"SparkListenerEnvironmentUpdate","Spark Properties":{"spark.sql.redaction.string.regex":"(?i)secret_[a-z0-9]+"}}
{"Event":"org.apache.spark.sql.connect.service.SparkListenerConnectServiceStarted","hostAddress":"localhost","bindingPort":15002,"eventTime":1796656176399}
{"Event":"org.apache.spark.sql.connect.service.SparkListenerConnectSessionStarted","sessionId":"7fa27653-e350-4ff1-a3e3-e9561e20b4c0","userId":"","eventTime":1796656181675,"extraTags":{}}
{"Event":"org.apache.spark.sql.connect.service.SparkListenerConnectOperationStarted","jobTag":")") +
    kTag +
    R"(","operationId":"0b177c45-a110-4f59-9cd9-78978153024d","eventTime":1796656182545,"sessionId":"7fa27653-e350-4ff1-a3e3-e9561e20b4c0","userId":"","userName":"","statementText":"common {\n  plan_id: 4\n}\nlimit {\n  input {\n    common {\n      plan_id: 3\n    }\n    sort {\n      input {\n        common {\n          plan_id: 2\n        }\n        aggregate {\n          input {\n            common {\n            }\n            range {\n            }\n          }\n        }\n      }\n    }\n  }\n}\n","sparkSessionTags":["nightly-report"],"extraTags":{}}
{"Event":"org.apache.spark.sql.connect.service.SparkListenerConnectOperationAnalyzed","jobTag":")" +
    kTag + R"(","operationId":"0b177c45-a110-4f59-9cd9-78978153024d","eventTime":1796656184536,"extraTags":{}}
{"Event":"org.apache.spark.sql.connect.service.SparkListenerConnectOperationReadyForExecution","jobTag":")" +
    kTag + R"(","operationId":"0b177c45-a110-4f59-9cd9-78978153024d","eventTime":1796656185770,"extraTags":{}}
{"Event":"SparkListenerJobStart","Job ID":0,"Submission Time":1796656188074,"Stage Infos":[],"Stage IDs":[],"Properties":{"spark.sql.execution.id":"0","spark.job.tags":")" +
    kTag + R"(,SparkConnect_SessionTag_User__Session_7fa27653-e350-4ff1-a3e3-e9561e20b4c0_Tag_nightly-report"}}
{"Event":"SparkListenerJobEnd","Job ID":0,"Completion Time":1796656190500,"Job Result":{"Result":"JobSucceeded"}}
{"Event":"SparkListenerJobStart","Job ID":1,"Submission Time":1796656190584,"Stage Infos":[],"Stage IDs":[],"Properties":{"spark.sql.execution.id":"0","spark.job.tags":")" +
    kTag + R"("}}
{"Event":"SparkListenerJobEnd","Job ID":1,"Completion Time":1796656191500,"Job Result":{"Result":"JobSucceeded"}}
{"Event":"SparkListenerJobStart","Job ID":2,"Submission Time":1796656191600,"Stage Infos":[],"Stage IDs":[],"Properties":{"spark.job.tags":"someone-elses-tag"}}
{"Event":"SparkListenerJobEnd","Job ID":2,"Completion Time":1796656191700,"Job Result":{"Result":"JobSucceeded"}}
{"Event":"org.apache.spark.sql.connect.service.SparkListenerConnectOperationFinished","jobTag":")" +
    kTag +
    R"(","operationId":"0b177c45-a110-4f59-9cd9-78978153024d","eventTime":1796656191629,"producedRowCount":3,"extraTags":{}}
{"Event":"org.apache.spark.sql.connect.service.SparkListenerConnectOperationClosed","jobTag":")" +
    kTag +
    R"(","operationId":"0b177c45-a110-4f59-9cd9-78978153024d","eventTime":1796656191839,"extraTags":{}}
{"Event":"org.apache.spark.sql.connect.service.SparkListenerConnectOperationStarted","jobTag":"SparkConnect_OperationTag_User__Session_7fa27653-e350-4ff1-a3e3-e9561e20b4c0_Operation_6ea2a184","operationId":"6ea2a184","eventTime":1796656193300,"sessionId":"7fa27653-e350-4ff1-a3e3-e9561e20b4c0","userId":"","userName":"","statementText":"sql_command {\n  input {\n    common {\n      plan_id: 7\n    }\n    sql {\n      query: \"select * from t where key = 'secret_abc123'\"\n    }\n  }\n}\n","sparkSessionTags":[],"extraTags":{}}
{"Event":"org.apache.spark.sql.connect.service.SparkListenerConnectOperationFailed","jobTag":"SparkConnect_OperationTag_User__Session_7fa27653-e350-4ff1-a3e3-e9561e20b4c0_Operation_6ea2a184","operationId":"6ea2a184","eventTime":1796656193635,"errorMessage":"INTERNAL: [TABLE_OR_VIEW_NOT_FOUND] The table or view `t` cannot be found (secret_abc123).","extraTags":{}}
{"Event":"org.apache.spark.sql.connect.service.SparkListenerConnectSessionClosed","sessionId":"7fa27653-e350-4ff1-a3e3-e9561e20b4c0","userId":"","eventTime":1796656193945,"extraTags":{}}
{"Event":"org.apache.spark.sql.connect.service.SparkListenerConnectServiceEnd","hostAddress":"localhost","bindingPort":15002,"eventTime":1796656193987}
{"Event":"SparkListenerApplicationEnd","Timestamp":1796656194000}
)";

TEST(ConnectSessions, OperationsAreTiedToTheirJobsByTheirJobTag) {
  for (unsigned threads : {1u, 2u}) {
    const AppModel m = load_lines(kLines, threads);
    ASSERT_EQ(m.connect_sessions.size(), 1u);
    const ConnectSession& session = m.connect_sessions[0];
    EXPECT_EQ(session.session_id, "7fa27653-e350-4ff1-a3e3-e9561e20b4c0");
    EXPECT_EQ(session.start_ms, int64_t{1796656181675});
    EXPECT_EQ(session.end_ms, int64_t{1796656193945});
    EXPECT_EQ(session.operations, 2);

    ASSERT_EQ(m.connect_operations.size(), 2u);
    const ConnectOperation& query = m.connect_operations[0];
    EXPECT_EQ(query.operation_id, "0b177c45-a110-4f59-9cd9-78978153024d");
    EXPECT_EQ(query.status, ConnectOperationStatus::kFinished);
    EXPECT_EQ(query.session_tags, std::vector<std::string>{"nightly-report"});
    EXPECT_EQ(query.job_ids, (std::vector<int64_t>{0, 1})) << "job 2 carries another operation's tag";
    EXPECT_EQ(query.sql_execution_ids, std::vector<int64_t>{0});
    EXPECT_EQ(query.produced_rows, int64_t{3});
    EXPECT_EQ(query.duration_ms(), int64_t{1796656191839 - 1796656182545});
    EXPECT_EQ(query.statement_summary(), "limit < sort < aggregate < range");

    const ConnectOperation& failed = m.connect_operations[1];
    EXPECT_EQ(failed.status, ConnectOperationStatus::kFailed);
    EXPECT_TRUE(failed.job_ids.empty());
    EXPECT_EQ(failed.statement.find("secret_abc123"), std::string::npos) << failed.statement;
    EXPECT_EQ(failed.error.find("secret_abc123"), std::string::npos) << failed.error;
    EXPECT_NE(failed.statement_summary().find("select * from t where key ="), std::string::npos)
        << failed.statement_summary();
    EXPECT_FALSE(failed.closed_ms);
    for (const auto& [name, count] : m.diagnostics.unknown_events) {
      EXPECT_TRUE(name.find("ConnectOperation") == std::string::npos &&
                  name.find("ConnectSession") == std::string::npos)
          << name << " is modeled now";
    }
  }
}

}  // namespace
}  // namespace sf::model

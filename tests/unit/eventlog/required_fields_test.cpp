// The decoder's contract on required fields (issue 15): for every modeled event, a sample line
// with every required field decodes; the same line with any one required field taken out is
// malformed and its message names the field; a field the table does not list may be absent.
// The table is the decoder's own (required_fields()), so a field added to it is tested here.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "eventlog/decoder.h"

namespace sf::eventlog {
namespace {

using nlohmann::json;

// One line per modeled event, shaped as Spark's JsonProtocol writes it, with every field the
// table requires (and a few it does not, which must be optional).
const std::map<std::string, json>& samples() {
  static const std::map<std::string, json> lines = [] {
    const json stage_info = {
        {"Stage ID", 3},        {"Stage Attempt ID", 0},        {"Stage Name", "count at A.scala:1"},
        {"Number of Tasks", 8}, {"RDD Info", json::array()},    {"Parent IDs", json::array()},
        {"Details", ""},        {"Accumulables", json::array()}};
    const json task_info = {{"Task ID", 11},        {"Index", 2},
                            {"Attempt", 0},         {"Partition ID", 2},
                            {"Launch Time", 1000},  {"Executor ID", "1"},
                            {"Host", "host-a"},     {"Locality", "PROCESS_LOCAL"},
                            {"Speculative", false}, {"Getting Result Time", 0},
                            {"Finish Time", 2000},  {"Failed", false},
                            {"Killed", false},      {"Accumulables", json::array()}};
    const json plan = {
        {"nodeName", "Scan parquet"},
        {"simpleString", "FileScan parquet"},
        {"children", json::array()},
        {"metadata", json::object()},
        {"metrics", json::array({{{"name", "number of output rows"}, {"accumulatorId", 7}, {"metricType", "sum"}}})}};
    std::map<std::string, json> m;
    m["SparkListenerLogStart"] = {{"Spark Version", "3.5.1"}};
    m["SparkListenerApplicationStart"] = {{"App Name", "app"}, {"App ID", "app-1"}, {"Timestamp", 1}, {"User", "u"}};
    m["SparkListenerApplicationEnd"] = {{"Timestamp", 9}};
    m["SparkListenerEnvironmentUpdate"] = {{"JVM Information", {{"Java Version", "17.0.9"}}},
                                           {"Spark Properties", {{"spark.master", "local"}}},
                                           {"System Properties", json::object()},
                                           {"Classpath Entries", json::object()}};
    m["SparkListenerResourceProfileAdded"] = {{"Resource Profile Id", 0},
                                              {"Executor Resource Requests", json::object()},
                                              {"Task Resource Requests", json::object()}};
    m["SparkListenerExecutorAdded"] = {
        {"Timestamp", 5}, {"Executor ID", "1"}, {"Executor Info", {{"Host", "host-a"}, {"Total Cores", 4}}}};
    m["SparkListenerExecutorRemoved"] = {{"Timestamp", 8}, {"Executor ID", "1"}, {"Removed Reason", "idle"}};
    m["SparkListenerBlockManagerAdded"] = {
        {"Block Manager ID", {{"Executor ID", "1"}, {"Host", "host-a"}, {"Port", 1}}},
        {"Maximum Memory", 1024},
        {"Timestamp", 5}};
    m["SparkListenerBlockManagerRemoved"] = {{"Block Manager ID", {{"Executor ID", "1"}, {"Host", "host-a"}}},
                                             {"Timestamp", 8}};
    m["SparkListenerJobStart"] = {{"Job ID", 4},
                                  {"Submission Time", 100},
                                  {"Stage Infos", json::array({stage_info})},
                                  {"Stage IDs", json::array({3})},
                                  {"Properties", json::object()}};
    m["SparkListenerJobEnd"] = {{"Job ID", 4}, {"Completion Time", 200}, {"Job Result", {{"Result", "JobSucceeded"}}}};
    m["SparkListenerStageSubmitted"] = {{"Stage Info", stage_info}, {"Properties", json::object()}};
    m["SparkListenerStageCompleted"] = {{"Stage Info", stage_info}};
    m["SparkListenerStageExecutorMetrics"] = {
        {"Executor ID", "1"}, {"Stage ID", 3}, {"Stage Attempt ID", 0}, {"Executor Metrics", {{"JVMHeapMemory", 1}}}};
    m["SparkListenerTaskStart"] = {{"Stage ID", 3}, {"Stage Attempt ID", 0}, {"Task Info", task_info}};
    m["SparkListenerTaskEnd"] = {{"Stage ID", 3},
                                 {"Stage Attempt ID", 0},
                                 {"Task Type", "ResultTask"},
                                 {"Task End Reason", {{"Reason", "Success"}}},
                                 {"Task Info", task_info},
                                 {"Task Metrics", {{"Executor Run Time", 900}}}};
    m["SparkListenerUnpersistRDD"] = {{"RDD ID", 2}};
    m["SparkListenerExecutorExcluded"] = {{"time", 1}, {"executorId", "1"}, {"taskFailures", 2}};
    m["SparkListenerExecutorExcludedForStage"] = {
        {"time", 1}, {"executorId", "1"}, {"taskFailures", 2}, {"stageId", 3}, {"stageAttemptId", 0}};
    m["SparkListenerExecutorUnexcluded"] = {{"time", 1}, {"executorId", "1"}};
    m["SparkListenerNodeExcluded"] = {{"time", 1}, {"hostId", "host-a"}, {"executorFailures", 2}};
    m["SparkListenerNodeExcludedForStage"] = {
        {"time", 1}, {"hostId", "host-a"}, {"executorFailures", 2}, {"stageId", 3}, {"stageAttemptId", 0}};
    m["SparkListenerNodeUnexcluded"] = {{"time", 1}, {"hostId", "host-a"}};
    m["SparkListenerMiscellaneousProcessAdded"] = {
        {"time", 1}, {"processId", "yarn-am"}, {"info", {{"hostPort", "h:1"}, {"cores", 1}}}};
    m["SparkListenerSQLExecutionStart"] = {{"executionId", 0},
                                           {"description", "q"},
                                           {"details", ""},
                                           {"physicalPlanDescription", ""},
                                           {"sparkPlanInfo", plan},
                                           {"time", 50},
                                           {"modifiedConfigs", json::object()}};
    m["SparkListenerSQLExecutionEnd"] = {{"executionId", 0}, {"time", 300}};
    m["SparkListenerSQLAdaptiveExecutionUpdate"] = {
        {"executionId", 0}, {"physicalPlanDescription", ""}, {"sparkPlanInfo", plan}};
    m["SparkListenerSQLAdaptiveSQLMetricUpdates"] = {
        {"executionId", 0},
        {"sqlPlanMetrics", json::array({{{"name", "rows"}, {"accumulatorId", 9}, {"metricType", "sum"}}})}};
    m["SparkListenerDriverAccumUpdates"] = {{"executionId", 0}, {"accumUpdates", json::array({json::array({7, 5})})}};
    // Structured Streaming's events, as Spark 4 writes them (Jackson: camelCase, ISO times).
    m["StreamingQueryListener$QueryStartedEvent"] = {{"id", "q"},
                                                     {"runId", "r"},
                                                     {"name", nullptr},
                                                     {"timestamp", "2026-12-07T14:14:51.229Z"},
                                                     {"jobTags", json::array()}};
    m["StreamingQueryListener$QueryProgressEvent"] = {
        {"progress",
         {{"id", "q"},
          {"runId", "r"},
          {"name", "agg"},
          {"timestamp", "2026-12-07T14:14:51.756Z"},
          {"batchId", 0},
          {"batchDuration", 8459},
          {"durationMs", {{"triggerExecution", 8448}, {"addBatch", 6355}}},
          {"eventTime", {{"watermark", "1970-01-01T00:00:00.000Z"}}},
          {"stateOperators", json::array({{{"numRowsTotal", 1}, {"memoryUsedBytes", 776}}})},
          {"sources", json::array({{{"description", "rate"}, {"numInputRows", 3}, {"inputRowsPerSecond", "NaN"}}})},
          {"sink", {{"description", "MemorySink"}, {"numOutputRows", -1}}}}}};
    m["StreamingQueryListener$QueryIdleEvent"] = {
        {"id", "q"}, {"runId", "r"}, {"timestamp", "2026-12-07T14:15:01.000Z"}};
    m["StreamingQueryListener$QueryTerminatedEvent"] = {
        {"id", "q"}, {"runId", "r"}, {"exception", nullptr}, {"errorClassOnException", nullptr}};
    // Spark Connect's server events, as Spark 4.3 writes them.
    for (const char* event : {"SparkListenerConnectSessionStarted", "SparkListenerConnectSessionClosed"}) {
      m[event] = {{"sessionId", "s"}, {"userId", ""}, {"eventTime", 1796656181675}, {"extraTags", json::object()}};
    }
    const json operation = {{"jobTag", "SparkConnect_OperationTag_User__Session_s_Operation_o"},
                            {"operationId", "o"},
                            {"eventTime", 1796656182545},
                            {"extraTags", json::object()}};
    for (const char* event : {"SparkListenerConnectOperationAnalyzed", "SparkListenerConnectOperationReadyForExecution",
                              "SparkListenerConnectOperationCanceled", "SparkListenerConnectOperationClosed"}) {
      m[event] = operation;
    }
    m["SparkListenerConnectOperationStarted"] = operation;
    m["SparkListenerConnectOperationStarted"].update({{"sessionId", "s"},
                                                      {"userId", ""},
                                                      {"userName", ""},
                                                      {"statementText", "sql_command {}"},
                                                      {"sparkSessionTags", json::array({"nightly"})}});
    m["SparkListenerConnectOperationFinished"] = operation;
    m["SparkListenerConnectOperationFinished"]["producedRowCount"] = 3;
    m["SparkListenerConnectOperationFailed"] = operation;
    m["SparkListenerConnectOperationFailed"]["errorMessage"] = "INTERNAL: [TABLE_OR_VIEW_NOT_FOUND]";
    return m;
  }();
  return lines;
}

// The event names as Spark logs them: SQL events by their fully qualified class names.
std::string logged_name(const std::string& simple_name) {
  if (simple_name.find("SQL") != std::string::npos || simple_name == "SparkListenerDriverAccumUpdates") {
    return "org.apache.spark.sql.execution.ui." + simple_name;
  }
  return simple_name;
}

// Spark writes "Event" first; the task events' fast path reads them from that prefix.
std::string line_of(const std::string& event, const json& fields) {
  std::string line = R"({"Event":)" + json(logged_name(event)).dump();
  for (const auto& [key, value] : fields.items()) {
    line += ',';
    line += json(key).dump();
    line += ':';
    line += value.dump();
  }
  line += '}';
  return line;
}

DecodeResult decode_line(const std::string& line) {
  struct Ignore : EventHandler {
    using EventHandler::on;
  } handler;
  Decoder decoder;
  std::string padded = line;
  const size_t length = padded.size();
  padded.append(kLinePadding, ' ');
  return decoder.decode(std::string_view(padded.data(), length), handler);
}

// Removes the field at `path` ("A/[]/B": B of every element of array A). False when not there.
bool strip(json& object, const std::string& path) {
  const size_t slash = path.find('/');
  if (slash == std::string::npos) return object.is_object() && object.erase(path) > 0;
  const std::string head = path.substr(0, slash);
  const std::string rest = path.substr(slash + 1);
  if (head == "[]") {
    bool any = false;
    for (json& element : object) any = strip(element, rest) || any;
    return any;
  }
  return object.is_object() && object.contains(head) && strip(object[head], rest);
}

TEST(RequiredFields, EveryModeledEventHasASampleThatDecodes) {
  std::set<std::string> events;
  for (const RequiredField& field : required_fields()) events.emplace(field.event);
  for (const std::string& event : events) {
    ASSERT_TRUE(samples().count(event)) << "no sample line for " << event;
    const DecodeResult result = decode_line(line_of(event, samples().at(event)));
    EXPECT_EQ(result.outcome, DecodeOutcome::kEvent) << event << ": " << result.error;
  }
}

TEST(RequiredFields, ALineWithoutARequiredFieldIsMalformedAndSaysWhichField) {
  size_t checked = 0;
  for (const RequiredField& field : required_fields()) {
    json fields = samples().at(std::string(field.event));
    ASSERT_TRUE(strip(fields, field.path)) << field.event << ": the sample has no " << field.path;
    const DecodeResult result = decode_line(line_of(std::string(field.event), fields));
    EXPECT_EQ(result.outcome, DecodeOutcome::kMalformed) << field.event << " without " << field.path;
    EXPECT_NE(result.error.find(std::string(field.event) + " has no \"" + field.path + "\""), std::string::npos)
        << field.event << " without " << field.path << ": " << result.error;
    ++checked;
  }
  EXPECT_GE(checked, 60u);
}

TEST(RequiredFields, AFieldTheTableDoesNotListMayBeAbsent) {
  std::map<std::string, std::set<std::string>> required_top;
  for (const RequiredField& field : required_fields()) {
    if (field.path.find('/') == std::string::npos) required_top[std::string(field.event)].insert(field.path);
  }
  for (const auto& [event, sample] : samples()) {
    for (const auto& [key, value] : sample.items()) {
      if (required_top[event].count(key)) continue;
      json fields = sample;
      fields.erase(key);
      const DecodeResult result = decode_line(line_of(event, fields));
      EXPECT_EQ(result.outcome, DecodeOutcome::kEvent) << event << " without " << key << ": " << result.error;
    }
  }
}

}  // namespace
}  // namespace sf::eventlog

// Spark Connect in the model: the client sessions the application's Connect server served and
// the operations (queries and commands) each client sent, with the jobs and SQL executions each
// ran, found by the operation's job tag among the jobs' tags.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sf::model {

struct ConnectSession {
  std::string session_id;
  std::string user_id;
  std::optional<int64_t> start_ms;
  std::optional<int64_t> end_ms;
  int64_t operations = 0;
};

enum class ConnectOperationStatus { kRunning, kFinished, kFailed, kCanceled };
std::string_view to_string(ConnectOperationStatus status);  // RUNNING, FINISHED, FAILED, CANCELED

struct ConnectOperation {
  std::string operation_id;
  std::string session_id;
  std::string job_tag;  // SparkConnect_OperationTag_User_<user>_Session_<session>_Operation_<id>
  std::string user_id;
  std::string user_name;
  std::string statement;                  // the plan or SQL the client sent (protobuf text), redacted
  std::vector<std::string> session_tags;  // the client's SparkSession.addTag tags
  // Its phases, as the server timed them: started, analyzed, ready for execution, finished (its
  // results produced; or failed, canceled), closed (its results sent).
  std::optional<int64_t> started_ms, analyzed_ms, ready_ms, finished_ms, closed_ms;
  ConnectOperationStatus status = ConnectOperationStatus::kRunning;
  std::string error;  // a failed operation's message, redacted
  std::optional<int64_t> produced_rows;
  std::vector<int64_t> job_ids;            // sorted
  std::vector<int64_t> sql_execution_ids;  // sorted

  // Started to closed (or to its last phase the log has); nullopt without a start.
  std::optional<int64_t> duration_ms() const;
  // What the client sent, in a line: a SQL command's text, else the plan's relations from the
  // root down ("limit < sort < aggregate < project < range"); "" when the statement says neither.
  std::string statement_summary() const;
};

}  // namespace sf::model

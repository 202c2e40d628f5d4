// The MCP server: one JSON-RPC message in, zero or more messages out.
//
// Lifecycle (protocol revision 2025-11-25; 2025-06-18, 2025-03-26 and 2024-11-05 are accepted
// too): `initialize` negotiates the version (the client's when this server speaks it, else the
// newest this server speaks) and answers with the capabilities (tools, logging); until then
// only `ping` is answered, any other request is refused (-32600). Then `tools/list`,
// `tools/call`, `logging/setLevel` and `ping`; `notifications/cancelled` stops a running call
// (its answer is then never sent), `notifications/initialized` is noted.
//
// A tool call runs on its own thread, so the reader stays free for pings and cancellations; at
// most kMaxRunningCalls run at once, the others wait in order of arrival (a call cancelled while
// it waits never runs). Progress (when the request carries _meta.progressToken)
// and log messages are sent from those threads. Bad input never stops the server: a line that
// is not JSON gets -32700, an unknown method -32601, bad params -32602, and a tool that fails
// answers with isError and a message saying what to do.
//
// Thread-safety: handle_line() is called from one thread; `write` is called with the server's
// own lock held, one whole line at a time, from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <semaphore>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "mcp/json_rpc.h"
#include "mcp/session.h"
#include "mcp/tool.h"

namespace sf::mcp {

inline constexpr std::string_view kLatestProtocolVersion = "2025-11-25";
inline constexpr size_t kMaxRunningCalls = 4;    // tool calls running at once; more wait their turn
inline constexpr size_t kMaxAcceptedCalls = 64;  // calls running or waiting; past it a call is refused

class ProtocolServer {
 public:
  // `write` receives each outgoing message as one line without its newline.
  ProtocolServer(ServerOptions options, std::function<void(const std::string& line)> write);
  // Cancels the calls still running and waits for them.
  ~ProtocolServer();
  ProtocolServer(const ProtocolServer&) = delete;
  ProtocolServer& operator=(const ProtocolServer&) = delete;

  void handle_line(std::string_view line);
  // Answers a line the transport could not read (too long) with a parse error.
  void refuse_line(std::string_view reason);
  // Blocks until no tool call is running (at the end of input, answers are still sent).
  void wait_for_calls();
  // The same for at most `timeout`; true when no call is running.
  bool wait_for_calls(std::chrono::milliseconds timeout);
  // Cancels every running call (no answer goes out for it), as notifications/cancelled does.
  void cancel_calls();

  // Which protocol versions this server speaks, newest first.
  static const std::vector<std::string>& supported_protocol_versions();

 private:
  struct RunningCall {
    std::shared_ptr<std::atomic<bool>> cancel;
  };

  void handle_request(const Message& message);
  void handle_notification(const Message& message);
  Json initialize(const Json& params, std::string& error);
  Json tools_list() const;
  void start_tool_call(const Json& id, const Json& params);
  void run_tool_call(const Tool& tool, Json id, Json arguments, Json progress_token,
                     std::shared_ptr<std::atomic<bool>> cancel);
  void finish_call(const std::string& key, const std::string& line);
  void send(const std::string& line);
  void log(LogLevel level, const std::string& message);
  void join_finished_threads();

  McpSession session_;
  std::function<void(const std::string&)> write_;
  std::mutex write_mutex_;
  bool initialized_ = false;  // reader thread only
  std::atomic<int> min_log_level_;

  std::mutex calls_mutex_;
  std::condition_variable calls_changed_;
  std::map<std::string, RunningCall> running_;  // accepted calls, by the request id's JSON text
  std::counting_semaphore<kMaxRunningCalls> run_slots_{kMaxRunningCalls};
  std::map<uint64_t, std::thread> threads_;
  std::vector<uint64_t> finished_threads_;
  uint64_t next_thread_ = 0;
};

}  // namespace sf::mcp

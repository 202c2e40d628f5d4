// An in-process MCP client for the protocol tests: feeds lines to a ProtocolServer and collects
// what it writes, with waits bounded in time so a broken server fails the test instead of
// hanging it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "mcp/protocol_server.h"

namespace sf::mcp::testing {

class McpHarness {
 public:
  explicit McpHarness(ServerOptions options = {});

  // Called with every message the server writes, on the thread that writes it, before the
  // harness records it (the cancellation test cancels from inside a progress notification).
  std::function<void(const Json& message)> on_message;

  void send_line(const std::string& line) { server_.handle_line(line); }
  void send(const Json& message) { send_line(message.dump()); }
  // A request with a fresh integer id; returns the id.
  int64_t request(const std::string& method, Json params = Json::object());
  void notify(const std::string& method, Json params = Json::object());

  // The response to request `id`, waiting up to `timeout`; nullopt when none came.
  std::optional<Json> response(const Json& id, std::chrono::seconds timeout = std::chrono::seconds(120));
  // A request and its response; fails the test when none comes.
  Json call(const std::string& method, Json params = Json::object());
  // initialize + notifications/initialized.
  Json initialize(const std::string& version = "2025-06-18");
  // tools/call and its result object.
  Json call_tool(const std::string& name, Json arguments, std::optional<Json> progress_token = std::nullopt);

  // Every message written so far.
  std::vector<Json> messages();
  std::vector<Json> notifications(const std::string& method);
  void wait_for_calls() { server_.wait_for_calls(); }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Json> messages_;
  int64_t next_id_ = 1;
  ProtocolServer server_;
};

}  // namespace sf::mcp::testing

#include "mcp_harness.h"

#include <gtest/gtest.h>

namespace sf::mcp::testing {

McpHarness::McpHarness(ServerOptions options)
    : server_(std::move(options), [this](const std::string& line) {
        Json message = Json::parse(line);  // every line the server writes must be JSON
        if (on_message) on_message(message);
        std::lock_guard lock(mutex_);
        messages_.push_back(std::move(message));
        changed_.notify_all();
      }) {}

int64_t McpHarness::request(const std::string& method, Json params) {
  const int64_t id = next_id_++;
  send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
  return id;
}

void McpHarness::notify(const std::string& method, Json params) {
  send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

std::optional<Json> McpHarness::response(const Json& id, std::chrono::seconds timeout) {
  std::unique_lock lock(mutex_);
  std::optional<Json> found;
  changed_.wait_for(lock, timeout, [&] {
    for (const auto& m : messages_) {
      if (m.contains("id") && m["id"] == id && !m.contains("method")) {
        found = m;
        return true;
      }
    }
    return false;
  });
  return found;
}

Json McpHarness::call(const std::string& method, Json params) {
  const int64_t id = request(method, std::move(params));
  auto answer = response(id);
  EXPECT_TRUE(answer.has_value()) << "no response to " << method;
  return answer.value_or(Json::object());
}

Json McpHarness::initialize(const std::string& version) {
  Json answer = call("initialize", {{"protocolVersion", version},
                                    {"capabilities", Json::object()},
                                    {"clientInfo", {{"name", "protocol-test"}, {"version", "1"}}}});
  notify("notifications/initialized");
  return answer;
}

Json McpHarness::call_tool(const std::string& name, Json arguments, std::optional<Json> progress_token) {
  Json params = {{"name", name}, {"arguments", std::move(arguments)}};
  if (progress_token) params["_meta"] = {{"progressToken", *progress_token}};
  Json answer = call("tools/call", std::move(params));
  EXPECT_TRUE(answer.contains("result")) << answer.dump();
  return answer.contains("result") ? answer["result"] : Json::object();
}

std::vector<Json> McpHarness::messages() {
  std::lock_guard lock(mutex_);
  return messages_;
}

std::vector<Json> McpHarness::notifications(const std::string& method) {
  std::vector<Json> out;
  for (auto& m : messages()) {
    if (m.contains("method") && m["method"] == method) out.push_back(m);
  }
  return out;
}

}  // namespace sf::mcp::testing

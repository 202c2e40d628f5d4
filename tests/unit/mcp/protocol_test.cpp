// The MCP lifecycle and JSON-RPC error handling, driven in process: what a client that sends
// bad input gets back, and that the server answers the next good message all the same.
#include <gtest/gtest.h>

#include <set>

#include "mcp/tool.h"
#include "mcp_harness.h"

namespace sf::mcp {
namespace {

using testing::McpHarness;

int error_code(const Json& answer) { return answer.contains("error") ? answer["error"]["code"].get<int>() : 0; }

// The one error answer the server wrote with a null id after `before` messages.
Json last_message(McpHarness& harness) {
  auto all = harness.messages();
  return all.empty() ? Json::object() : all.back();
}

TEST(McpProtocol, MalformedJsonGetsAParseErrorAndTheServerGoesOn) {
  McpHarness harness;
  for (const std::string line : {"{not json", "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ", "\x01\x02", "[1,2"}) {
    const size_t before = harness.messages().size();
    harness.send_line(line);
    ASSERT_EQ(harness.messages().size(), before + 1) << line;
    const Json answer = last_message(harness);
    EXPECT_EQ(error_code(answer), kParseError) << answer.dump();
    EXPECT_TRUE(answer["id"].is_null());
  }
  // Still alive, and initialization still works.
  EXPECT_TRUE(harness.call("ping").contains("result"));
  EXPECT_TRUE(harness.initialize().contains("result"));
}

TEST(McpProtocol, InvalidRequestsAreRefusedWithTheirId) {
  McpHarness harness;
  harness.initialize();
  harness.send_line(R"({"jsonrpc": "1.0", "id": 7, "method": "ping"})");
  EXPECT_EQ(error_code(*harness.response(7)), kInvalidRequest);
  harness.send_line(R"({"jsonrpc": "2.0", "id": 8, "method": 12})");
  EXPECT_EQ(error_code(*harness.response(8)), kInvalidRequest);
  harness.send_line(R"([{"jsonrpc": "2.0", "id": 9, "method": "ping"}])");
  EXPECT_EQ(error_code(last_message(harness)), kInvalidRequest);
  harness.send_line(R"({"jsonrpc": "2.0", "id": 10, "method": "ping", "params": [1]})");
  EXPECT_EQ(error_code(*harness.response(10)), kInvalidParams);
  harness.send_line(R"("just a string")");
  EXPECT_EQ(error_code(last_message(harness)), kInvalidRequest);
}

TEST(McpProtocol, UnknownMethodGetsMethodNotFound) {
  McpHarness harness;
  harness.initialize();
  EXPECT_EQ(error_code(harness.call("resources/list")), kMethodNotFound);
  EXPECT_EQ(error_code(harness.call("no/such/method")), kMethodNotFound);
  // An unknown notification is not answered at all.
  const size_t before = harness.messages().size();
  harness.notify("notifications/whatever");
  EXPECT_EQ(harness.messages().size(), before);
}

TEST(McpProtocol, RequestsBeforeInitializeAreRefusedExceptPing) {
  McpHarness harness;
  EXPECT_EQ(error_code(harness.call("tools/list")), kInvalidRequest);
  EXPECT_EQ(error_code(harness.call("tools/call", {{"name", "get_slowest"}, {"arguments", Json::object()}})),
            kInvalidRequest);
  EXPECT_TRUE(harness.call("ping")["result"].is_object());
  ASSERT_TRUE(harness.initialize().contains("result"));
  EXPECT_TRUE(harness.call("tools/list").contains("result"));
  // A second initialize is refused.
  EXPECT_EQ(error_code(harness.initialize()), kInvalidRequest);
}

TEST(McpProtocol, InitializeNegotiatesTheVersionAndDeclaresCapabilities) {
  for (const auto& version : ProtocolServer::supported_protocol_versions()) {
    McpHarness harness;
    const Json answer = harness.initialize(version);
    EXPECT_EQ(answer["result"]["protocolVersion"], version);
  }
  McpHarness harness;
  const Json answer = harness.initialize("1999-01-01");
  ASSERT_TRUE(answer.contains("result"));
  const Json& result = answer["result"];
  EXPECT_EQ(result["protocolVersion"], std::string(kLatestProtocolVersion));
  EXPECT_TRUE(result["capabilities"].contains("tools"));
  EXPECT_TRUE(result["capabilities"].contains("logging"));
  EXPECT_EQ(result["serverInfo"]["name"], "sparkforensics");

  McpHarness missing_version;
  EXPECT_EQ(error_code(missing_version.call("initialize", {{"capabilities", Json::object()}})), kInvalidParams);
}

TEST(McpProtocol, BadParamsGetInvalidParams) {
  McpHarness harness;
  harness.initialize();
  EXPECT_EQ(error_code(harness.call("tools/call", Json::object())), kInvalidParams);
  EXPECT_EQ(error_code(harness.call("tools/call", {{"name", "no_such_tool"}})), kInvalidParams);
  EXPECT_EQ(error_code(harness.call("tools/call", {{"name", "get_slowest"}, {"arguments", "kind=stages"}})),
            kInvalidParams);
  EXPECT_EQ(error_code(harness.call("logging/setLevel", {{"level", "loud"}})), kInvalidParams);
  EXPECT_EQ(error_code(harness.call("tools/list", {{"cursor", "page-2"}})), kInvalidParams);
}

TEST(McpProtocol, BadToolArgumentsAreToolErrorsNamingTheArgument) {
  McpHarness harness;
  harness.initialize();
  struct Case {
    std::string tool;
    Json arguments;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"get_slowest", {{"path", "x"}}, "\"kind\" is required"},
      {"get_slowest", {{"path", "x"}, {"kind", "tasks"}}, "one of stages, jobs, sql"},
      {"get_slowest", {{"path", "x"}, {"kind", "stages"}, {"limit", 0}}, "from 1 to 100"},
      {"get_findings", {{"path", "x"}, {"impactBand", {"urgent"}}}, "impactBand"},
      {"get_findings", {{"path", "x"}, {"colour", "red"}}, "unknown argument \"colour\""},
      {"analyze_event_log", {{"path", 42}}, "\"path\": expected a string"},
      {"analyze_event_log", Json::object(), "exactly one of"},
      {"analyze_event_log", {{"path", "-"}}, "standard input"},
      {"analyze_event_log", {{"analysisId", "log-99"}}, "call analyze_event_log first"},
      {"analyze_event_log",
       {{"historyServer", {{"baseUrl", "ftp://shs/"}, {"appId", "application_1_2"}}}},
       "[invalid-base-url]"},
      {"analyze_event_log",
       {{"historyServer", {{"baseUrl", "http://shs:18080/"}, {"appId", "../etc"}}}},
       "[invalid-app-id]"},
      {"compare_runs", {{"baseline", {{"path", "a"}}}, {"candidate", {{"path", "b"}}}, {"normalizePath", {"("}}}, "("},
      {"verdict", {{"mode", "history"}}, "needs \"target\""},
  };
  for (const auto& c : cases) {
    const Json result = harness.call_tool(c.tool, c.arguments);
    EXPECT_TRUE(result.value("isError", false)) << c.tool << " " << c.arguments.dump() << " -> " << result.dump();
    ASSERT_TRUE(result.contains("content")) << result.dump();
    const std::string text = result["content"][0]["text"].get<std::string>();
    EXPECT_NE(text.find(c.expected), std::string::npos) << c.tool << " " << c.arguments.dump() << " -> " << text;
    EXPECT_FALSE(result.contains("structuredContent"));
  }
  EXPECT_TRUE(harness.call("ping").contains("result"));
}

TEST(McpProtocol, ToolsListDeclaresEveryToolWithBothSchemas) {
  McpHarness harness;
  harness.initialize();
  const Json answer = harness.call("tools/list");
  ASSERT_TRUE(answer.contains("result"));
  std::set<std::string> names;
  for (const auto& tool : answer["result"]["tools"]) {
    names.insert(tool["name"].get<std::string>());
    EXPECT_EQ(tool["inputSchema"]["type"], "object") << tool["name"];
    EXPECT_EQ(tool["outputSchema"]["type"], "object") << tool["name"];
    EXPECT_FALSE(tool["description"].get<std::string>().empty());
  }
  const std::set<std::string> expected = {
      "list_applications", "analyze_event_log", "get_findings", "explain_finding",   "get_economics",
      "get_stage",         "get_sql_execution", "get_slowest",  "streaming_queries", "connect_operations",
      "compare_runs",      "store_ingest",      "verdict"};
  EXPECT_EQ(names, expected);
}

TEST(McpProtocol, LoggingLevelIsSetAndResponsesCarryTheirIds) {
  McpHarness harness;
  harness.initialize();
  EXPECT_TRUE(harness.call("logging/setLevel", {{"level", "debug"}})["result"].is_object());
  harness.send_line(R"({"jsonrpc": "2.0", "id": "text-id", "method": "ping"})");
  ASSERT_TRUE(harness.response("text-id").has_value());
  // Responses from the client (to requests this server never sends) are ignored, not answered.
  const size_t before = harness.messages().size();
  harness.send_line(R"({"jsonrpc": "2.0", "id": 99, "result": {}})");
  EXPECT_EQ(harness.messages().size(), before);
}

}  // namespace
}  // namespace sf::mcp

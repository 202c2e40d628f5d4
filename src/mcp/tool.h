// What a tool is to the server: a name, its parameters (which give its inputSchema), the schema
// of its structuredContent, and the function that runs it. Tools hold no analysis logic: each
// calls the same library functions as the CLI command it mirrors and shapes their documents.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "mcp/json_rpc.h"
#include "mcp/tool_parameters.h"

namespace sf::mcp {

class McpSession;

// MCP's log levels (RFC 5424 severities), least severe first.
enum class LogLevel { kDebug, kInfo, kNotice, kWarning, kError, kCritical, kAlert, kEmergency };
std::string_view to_string(LogLevel level);
std::optional<LogLevel> parse_log_level(std::string_view text);

// A tool's answer: structuredContent (matching the tool's outputSchema) and a short text summary
// for the model to read; or, when is_error, only the message, which says what to do instead.
struct ToolResult {
  Json structured = Json::object();
  std::string summary;
  bool is_error = false;

  static ToolResult error(std::string message) { return {Json::object(), std::move(message), true}; }
};

// What a running tool may use. Called from the tool's own thread; every member is safe there.
struct ToolContext {
  McpSession& session;
  // Set when the client cancels the call; long loads stop soon after.
  const std::atomic<bool>* cancel = nullptr;
  // Reports progress when the client asked for it (a progressToken); otherwise does nothing.
  // `progress` only grows; `total` is the value it reaches at the end.
  std::function<void(double progress, double total, const std::string& message)> report_progress;
  // A notifications/message to the client, when `level` passes the client's logging level.
  std::function<void(LogLevel level, const std::string& message)> log;

  bool cancelled() const { return cancel != nullptr && cancel->load(); }
};

struct Tool {
  std::string name;
  std::string title;
  std::string description;
  std::vector<Parameter> parameters;
  Json output_schema;  // a JSON Schema of type object
  bool read_only = true;
  std::function<ToolResult(const ToolArguments& arguments, ToolContext& context)> run;
};

// Every tool this server offers, in the order tools/list gives them (tool_table.cpp).
const std::vector<Tool>& all_tools();

// The most bytes a tool's structuredContent may take, serialized; past it the call is refused
// with a message saying how to ask for less (a smaller page, a narrower section).
inline constexpr size_t kMaxToolResultBytes = 256 * 1024;

}  // namespace sf::mcp

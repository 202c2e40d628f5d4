#include "mcp/protocol_server.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>

namespace sf::mcp {

namespace {

constexpr std::string_view kInstructions =
    "SparkForensics reads Apache Spark event logs and says what wasted time, how much, and what to change. "
    "Start with list_applications (the logs under --log-dir) or analyze_event_log (a path or a History Server "
    "application); it returns an analysisId that get_findings, explain_finding, get_stage, get_sql_execution and "
    "get_slowest take. compare_runs compares a baseline with a candidate run; store_ingest and verdict keep runs in "
    "a result store and say whether performance changed beyond noise.";

std::string id_key(const Json& id) { return id.dump(); }

Json tool_result_json(const ToolResult& result) {
  Json out;
  out["content"] = Json::array({{{"type", "text"}, {"text", result.summary}}});
  if (!result.is_error) out["structuredContent"] = result.structured;
  out["isError"] = result.is_error;
  return out;
}

}  // namespace

std::string_view to_string(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return "debug";
    case LogLevel::kInfo: return "info";
    case LogLevel::kNotice: return "notice";
    case LogLevel::kWarning: return "warning";
    case LogLevel::kError: return "error";
    case LogLevel::kCritical: return "critical";
    case LogLevel::kAlert: return "alert";
    case LogLevel::kEmergency: return "emergency";
  }
  return "info";
}

std::optional<LogLevel> parse_log_level(std::string_view text) {
  for (int i = 0; i <= static_cast<int>(LogLevel::kEmergency); ++i) {
    if (to_string(static_cast<LogLevel>(i)) == text) return static_cast<LogLevel>(i);
  }
  return std::nullopt;
}

const std::vector<std::string>& ProtocolServer::supported_protocol_versions() {
  static const std::vector<std::string> versions = {std::string(kLatestProtocolVersion), "2025-06-18", "2025-03-26",
                                                    "2024-11-05"};
  return versions;
}

ProtocolServer::ProtocolServer(ServerOptions options, std::function<void(const std::string&)> write)
    : session_(std::move(options)),
      write_(std::move(write)),
      // Until the client says otherwise, only warnings and worse are sent.
      min_log_level_(static_cast<int>(LogLevel::kWarning)) {}

ProtocolServer::~ProtocolServer() {
  cancel_calls();
  wait_for_calls();
  // Every call has answered; their threads are ending, whether or not they said so yet.
  std::map<uint64_t, std::thread> threads;
  {
    std::lock_guard lock(calls_mutex_);
    threads.swap(threads_);
  }
  for (auto& [serial, thread] : threads) thread.join();
}

void ProtocolServer::send(const std::string& line) {
  std::lock_guard lock(write_mutex_);
  write_(line);
}

void ProtocolServer::log(LogLevel level, const std::string& message) {
  if (static_cast<int>(level) < min_log_level_.load()) return;
  send(notification_line("notifications/message",
                         {{"level", std::string(to_string(level))}, {"logger", "sparkforensics"}, {"data", message}}));
}

void ProtocolServer::handle_line(std::string_view line) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;  // blank lines carry nothing
  try {
    join_finished_threads();
    ParsedMessage parsed = parse_message(line);
    if (parsed.error) {
      send(error_line(parsed.error->id, parsed.error->code, parsed.error->message));
      return;
    }
    const Message& message = *parsed.message;
    switch (message.kind) {
      case MessageKind::kRequest: handle_request(message); break;
      case MessageKind::kNotification: handle_notification(message); break;
      case MessageKind::kResponse: break;  // this server sends no requests
    }
  } catch (const std::exception& e) {
    // Nothing here should throw; if something does, the client hears of it and the loop goes on.
    send(error_line(nullptr, kInternalError, std::string("Internal error: ") + e.what()));
  }
}

void ProtocolServer::refuse_line(std::string_view reason) { send(error_line(nullptr, kParseError, reason)); }

Json ProtocolServer::initialize(const Json& params, std::string& error) {
  if (!params.is_object() || !params.contains("protocolVersion") || !params["protocolVersion"].is_string()) {
    error = "Invalid params: initialize needs \"protocolVersion\" (a string), \"capabilities\" and \"clientInfo\"";
    return nullptr;
  }
  const std::string requested = params["protocolVersion"].get<std::string>();
  const auto& versions = supported_protocol_versions();
  const bool spoken = std::find(versions.begin(), versions.end(), requested) != versions.end();
  Json result;
  result["protocolVersion"] = spoken ? requested : versions.front();
  result["capabilities"] = {{"tools", {{"listChanged", false}}}, {"logging", Json::object()}};
  result["serverInfo"] = {{"name", "sparkforensics"}, {"title", "SparkForensics"}, {"version", "0.1.0"}};
  result["instructions"] = std::string(kInstructions);
  return result;
}

Json ProtocolServer::tools_list() const {
  Json tools = Json::array();
  for (const Tool& tool : all_tools()) {
    tools.push_back({{"name", tool.name},
                     {"title", tool.title},
                     {"description", tool.description},
                     {"inputSchema", input_schema(tool.parameters)},
                     {"outputSchema", tool.output_schema},
                     {"annotations",
                      {{"title", tool.title},
                       {"readOnlyHint", tool.read_only},
                       {"destructiveHint", false},
                       {"idempotentHint", true},
                       {"openWorldHint", false}}}});
  }
  return {{"tools", std::move(tools)}};
}

void ProtocolServer::handle_request(const Message& message) {
  const Json& id = message.id;
  const Json& params = message.params;
  if (message.method == "ping") {
    send(response_line(id, Json::object()));
    return;
  }
  if (message.method == "initialize") {
    if (initialized_) {
      send(error_line(id, kInvalidRequest, "Invalid Request: the session is already initialized"));
      return;
    }
    std::string error;
    Json result = initialize(params, error);
    if (!error.empty()) {
      send(error_line(id, kInvalidParams, error));
      return;
    }
    initialized_ = true;
    send(response_line(id, std::move(result)));
    return;
  }
  if (!initialized_) {
    send(error_line(id, kInvalidRequest,
                    fmt::format("Invalid Request: \"{}\" before initialize; send initialize first", message.method)));
    return;
  }
  if (message.method == "tools/list") {
    if (params.is_object() && params.contains("cursor") &&
        !(params["cursor"].is_string() && params["cursor"].get<std::string>().empty())) {
      // Every tool fits one page, so no cursor was ever handed out.
      send(error_line(id, kInvalidParams, "Invalid params: unknown cursor"));
      return;
    }
    send(response_line(id, tools_list()));
    return;
  }
  if (message.method == "tools/call") {
    start_tool_call(id, params);
    return;
  }
  if (message.method == "logging/setLevel") {
    const auto level = params.is_object() && params.contains("level") && params["level"].is_string()
                           ? parse_log_level(params["level"].get<std::string>())
                           : std::nullopt;
    if (!level) {
      send(error_line(id, kInvalidParams,
                      "Invalid params: \"level\" must be one of debug, info, notice, warning, error, critical, alert, "
                      "emergency"));
      return;
    }
    min_log_level_.store(static_cast<int>(*level));
    send(response_line(id, Json::object()));
    return;
  }
  send(error_line(id, kMethodNotFound, fmt::format("Method not found: {}", message.method)));
}

void ProtocolServer::handle_notification(const Message& message) {
  if (message.method == "notifications/cancelled") {
    if (!message.params.is_object() || !message.params.contains("requestId")) return;
    std::lock_guard lock(calls_mutex_);
    auto it = running_.find(id_key(message.params["requestId"]));
    if (it != running_.end()) it->second.cancel->store(true);
    return;
  }
  // notifications/initialized and anything unknown: nothing to answer (notifications never are).
}

void ProtocolServer::start_tool_call(const Json& id, const Json& params) {
  if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
    send(error_line(id, kInvalidParams, "Invalid params: tools/call needs \"name\" (a string)"));
    return;
  }
  const std::string name = params["name"].get<std::string>();
  const auto& tools = all_tools();
  auto tool = std::find_if(tools.begin(), tools.end(), [&](const Tool& t) { return t.name == name; });
  if (tool == tools.end()) {
    send(error_line(id, kInvalidParams,
                    fmt::format("Invalid params: unknown tool \"{}\"; tools/list names them", name)));
    return;
  }
  Json arguments = params.contains("arguments") ? params["arguments"] : Json(nullptr);
  if (!arguments.is_null() && !arguments.is_object()) {
    send(error_line(id, kInvalidParams, "Invalid params: \"arguments\" must be an object"));
    return;
  }
  Json progress_token = nullptr;
  if (params.contains("_meta") && params["_meta"].is_object() && params["_meta"].contains("progressToken")) {
    progress_token = params["_meta"]["progressToken"];
  }

  auto cancel = std::make_shared<std::atomic<bool>>(false);
  std::lock_guard lock(calls_mutex_);
  if (running_.count(id_key(id)) != 0) {
    send(error_line(id, kInvalidRequest, "Invalid Request: a call with this id is still running"));
    return;
  }
  if (running_.size() >= kMaxAcceptedCalls) {
    send(response_line(id, tool_result_json(ToolResult::error(fmt::format(
                               "{} tool calls are running or waiting already; wait for one to finish and call again",
                               kMaxAcceptedCalls)))));
    return;
  }
  running_[id_key(id)] = RunningCall{cancel};
  const uint64_t serial = next_thread_++;
  threads_[serial] = std::thread([this, &tool = *tool, id, arguments, progress_token, cancel, serial] {
    run_slots_.acquire();
    run_tool_call(tool, id, arguments, progress_token, cancel);
    run_slots_.release();
    std::lock_guard done(calls_mutex_);
    finished_threads_.push_back(serial);
  });
}

void ProtocolServer::run_tool_call(const Tool& tool, Json id, Json arguments, Json progress_token,
                                   std::shared_ptr<std::atomic<bool>> cancel) {
  double last_progress = -1;
  ToolContext context{session_, cancel.get(), nullptr, nullptr};
  context.report_progress = [&](double progress, double total, const std::string& message) {
    // Progress only ever grows, and a cancelled call says nothing more.
    if (progress_token.is_null() || cancel->load() || progress <= last_progress) return;
    last_progress = progress;
    send(notification_line(
        "notifications/progress",
        {{"progressToken", progress_token}, {"progress", progress}, {"total", total}, {"message", message}}));
  };
  context.log = [this](LogLevel level, const std::string& message) { log(level, message); };

  ToolResult result;
  if (cancel->load()) {
    result = ToolResult::error("cancelled before it started");  // never sent: the call was cancelled
  } else if (Status checked = check_arguments(tool.parameters, arguments); !checked.ok()) {
    result = ToolResult::error(fmt::format("{}: {}", tool.name, checked.message()));
  } else {
    try {
      result = tool.run(ToolArguments(arguments), context);
    } catch (const std::exception& e) {
      result = ToolResult::error(fmt::format("{}: internal error: {}", tool.name, e.what()));
    }
  }
  if (!result.is_error) {
    const size_t bytes = result.structured.dump(-1, ' ', false, Json::error_handler_t::replace).size();
    if (bytes > kMaxToolResultBytes) {
      result = ToolResult::error(fmt::format(
          "{}: the answer would be {} bytes, more than the {} byte limit; ask for less (a smaller \"limit\", a "
          "later \"offset\", or fewer sections)",
          tool.name, bytes, kMaxToolResultBytes));
    }
  }
  finish_call(id_key(id), response_line(id, tool_result_json(result)));
}

void ProtocolServer::finish_call(const std::string& key, const std::string& line) {
  bool cancelled = false;
  {
    std::lock_guard lock(calls_mutex_);
    auto it = running_.find(key);
    cancelled = it != running_.end() && it->second.cancel->load();
    // The answer goes out before the call stops counting as running, so wait_for_calls() means
    // every answer has been written.
    if (!cancelled) send(line);
    running_.erase(key);
  }
  calls_changed_.notify_all();
}

void ProtocolServer::wait_for_calls() {
  std::unique_lock lock(calls_mutex_);
  calls_changed_.wait(lock, [this] { return running_.empty(); });
}

bool ProtocolServer::wait_for_calls(std::chrono::milliseconds timeout) {
  std::unique_lock lock(calls_mutex_);
  return calls_changed_.wait_for(lock, timeout, [this] { return running_.empty(); });
}

void ProtocolServer::cancel_calls() {
  std::lock_guard lock(calls_mutex_);
  for (auto& [key, call] : running_) call.cancel->store(true);
}

void ProtocolServer::join_finished_threads() {
  std::vector<std::thread> done;
  {
    std::lock_guard lock(calls_mutex_);
    for (uint64_t serial : finished_threads_) {
      auto it = threads_.find(serial);
      if (it == threads_.end()) continue;
      done.push_back(std::move(it->second));
      threads_.erase(it);
    }
    finished_threads_.clear();
  }
  for (auto& thread : done) thread.join();
}

}  // namespace sf::mcp

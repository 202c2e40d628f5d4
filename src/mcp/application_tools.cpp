// list_applications: the event logs under --log-dir, each with its application's name, id,
// duration and whether it finished, one page at a time, from the catalogue's listing (what
// serve's application list shows).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/units.h"
#include "mcp/paging.h"
#include "mcp/session.h"
#include "mcp/tools.h"

namespace sf::mcp {

namespace fs = std::filesystem;

Tool list_applications_tool() {
  Tool tool;
  tool.name = "list_applications";
  tool.title = "List the applications under --log-dir";
  tool.description =
      "The Spark event logs in the log directory the server was started with (--log-dir), or in a directory inside "
      "it, sorted by name: each with its path (to pass to analyze_event_log), application id and name, duration and "
      "status (finished, incomplete, or unreadable with the reason). Each log on the page is read for its first and "
      "last events (once until it changes), not analyzed.";
  tool.parameters = {text_parameter("directory", "A directory inside the log directory (default: the log directory)")};
  for (auto& p : paging_parameters(20, 100)) tool.parameters.push_back(std::move(p));
  Json schema = Json::parse(R"({"type": "object", "required": ["directory", "page", "applications"],
    "properties": {"directory": {"type": "string"}, "page": {}, "refused": {"type": "array", "items": {"type": "string"}},
      "applications": {"type": "array", "items": {"type": "object",
        "required": ["path", "status", "appId", "appName", "attemptId", "sparkVersion", "durationMs", "error"],
        "properties": {"path": {"type": "string"}, "status": {"enum": ["finished", "incomplete", "unreadable"]},
                       "appId": {"type": ["string", "null"]}, "appName": {"type": ["string", "null"]},
                       "attemptId": {"type": ["string", "null"]}, "sparkVersion": {"type": ["string", "null"]},
                       "durationMs": {"type": ["integer", "null"]}, "error": {"type": ["string", "null"]}}}}}})");
  schema["properties"]["page"] = page_schema();
  tool.output_schema = std::move(schema);
  tool.run = [](const ToolArguments& arguments, ToolContext& context) {
    catalog::LogCatalog& catalog = context.session.catalog();
    const io::PathConfinement& log_root = catalog.confinement();
    const auto directory_argument = arguments.optional_string("directory");
    if (!log_root.root() && !directory_argument) {
      return ToolResult::error(
          "the server was started without --log-dir; give \"directory\", or restart it with --log-dir DIR");
    }
    auto directory = catalog.resolve(directory_argument.value_or(log_root.root()->string()));
    if (!directory) return ToolResult::error(directory.error().message());
    auto listing = catalog.list_logs(directory->string());
    if (!listing) return ToolResult::error(listing.error().message());
    const std::vector<std::string>& logs = listing->logs;
    const PageWindow window = page_window(logs.size(), arguments, 20);
    const fs::path shown_from = log_root.root().value_or(*directory);

    ToolResult result;
    Json applications = Json::array();
    size_t finished = 0;
    for (size_t i = window.begin; i < window.end; ++i) {
      if (context.cancelled()) return ToolResult::error("cancelled");
      const std::string& path = logs[i];
      const std::string shown = fs::relative(path, shown_from).string();
      auto app = catalog.listing(path);
      context.report_progress(static_cast<double>(i - window.begin + 1), static_cast<double>(window.end - window.begin),
                              "read " + shown);
      Json entry = {{"path", shown}};
      if (!app) {
        entry.update({{"status", "unreadable"},
                      {"appId", nullptr},
                      {"appName", nullptr},
                      {"attemptId", nullptr},
                      {"sparkVersion", nullptr},
                      {"durationMs", nullptr},
                      {"error", app.error().message()}});
        result.summary += fmt::format("\n- {}: unreadable: {}", shown, app.error().message());
      } else {
        const std::optional<int64_t> duration = app->duration_ms();
        finished += app->completed ? 1 : 0;
        entry.update({{"status", app->completed ? "finished" : "incomplete"},
                      {"appId", app->app_id},
                      {"appName", app->app_name},
                      {"attemptId", app->attempt_id ? Json(*app->attempt_id) : Json(nullptr)},
                      {"sparkVersion", app->spark_version},
                      {"durationMs", duration ? Json(*duration) : Json(nullptr)},
                      {"error", nullptr}});
        result.summary +=
            fmt::format("\n- {}: {} \"{}\" {} {}", shown, app->app_id, app->app_name,
                        units::format_optional_duration(duration), app->completed ? "finished" : "incomplete");
      }
      applications.push_back(std::move(entry));
    }
    result.summary = fmt::format("{} event log(s) in {}; {} to {} ({} finished):", window.total, directory->string(),
                                 window.begin + (window.end > window.begin ? 1 : 0), window.end, finished) +
                     result.summary;
    if (window.end < window.total) result.summary += fmt::format("\nmore from offset {}", window.end);
    // Named, never read: each resolves outside the log directory (a symlink out of it).
    Json refused = Json::array();
    for (const std::string& why : listing->refused) refused.push_back(why);
    if (!listing->refused.empty()) {
      result.summary += fmt::format("\n{} entr{} refused: {}", listing->refused.size(),
                                    listing->refused.size() == 1 ? "y" : "ies", fmt::join(listing->refused, "; "));
    }
    result.structured = {{"directory", directory->string()},
                         {"page", page_json(window)},
                         {"applications", std::move(applications)},
                         {"refused", std::move(refused)}};
    return result;
  };
  return tool;
}

}  // namespace sf::mcp

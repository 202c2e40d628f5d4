#include "mcp/log_reference.h"

#include "fetch/history_server_request.h"

namespace sf::mcp {

std::vector<Parameter> log_reference_parameters() {
  return {
      text_parameter("path",
                     "An event log: a file (plain or compressed), a rolling eventlog_v2_* directory, a Databricks log "
                     "directory or a History Server .zip; relative paths are read from --log-dir"),
      text_parameter("analysisId", "The analysisId a previous analyze_event_log call returned"),
      object_parameter(
          "historyServer", "A Spark History Server to download the application's logs from",
          {text_parameter("baseUrl",
                          "The History Server's base URL, e.g. http://history:18080/ (a reverse-proxy path prefix is "
                          "kept; no credentials, query or fragment)",
                          true),
           text_parameter("appId", "application_<timestamp>_<n>, local-<timestamp> or app-<identifier>", true),
           text_parameter("attemptId", "The attempt id, e.g. 1 (YARN cluster mode); omit for the only attempt")}),
  };
}

Parameter log_reference_object(std::string name, std::string description) {
  return object_parameter(std::move(name), std::move(description), log_reference_parameters(), true);
}

Result<LogReference> log_reference_from(const ToolArguments& arguments) {
  LogReference reference;
  reference.path = arguments.string("path");
  reference.analysis_id = arguments.string("analysisId");
  if (arguments.has("historyServer")) {
    const ToolArguments server = arguments.object("historyServer");
    auto request = fetch::validate_history_server_request(server.string("baseUrl"), server.string("appId"),
                                                          server.string("attemptId"));
    if (!request) return fail(request.error());
    reference.history_server = std::move(*request);
  }
  return reference;
}

Result<NamedLog> load_named_log(const ToolArguments& arguments, ToolContext& context, ProgressSpan span) {
  auto reference = log_reference_from(arguments);
  if (!reference) return fail(reference.error());
  return context.session.load(*reference, context, span);
}

}  // namespace sf::mcp

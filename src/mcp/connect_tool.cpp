// connect_operations: which Spark Connect client operation of one log cost what, costliest first,
// as the dashboard's Connect page lists them; or one operation with its statement and the ids of
// the findings about it. Every entry is the analysis document's ("connectOperations" and
// "connect"), so it reads as `analyze -f json` and GET logs/L/connect say it; the lines are the
// text report's (report/connect_text.h).
#include <fmt/format.h>

#include "mcp/log_reference.h"
#include "mcp/paging.h"
#include "mcp/session.h"
#include "mcp/tools.h"
#include "report/connect_json.h"
#include "report/connect_text.h"

namespace sf::mcp {

namespace {

constexpr int64_t kDefaultOperations = 20;
constexpr int64_t kMaxOperations = 100;

// The operation's entry without its statement (protobuf text, often kilobytes): the list keeps
// the one-line statementSummary; the operation's own answer has the whole.
Json listed_operation(const Json& operation) {
  Json out = operation;
  out.erase("statement");
  return out;
}

}  // namespace

Tool connect_operations_tool() {
  Tool tool;
  tool.name = "connect_operations";
  tool.title = "Spark Connect operations";
  tool.description =
      "Which Spark Connect client operation of an analyzed log cost what, costliest first: each operation (a query or "
      "command a client sent through a session: its session, user, session tags, status, times, rows, jobs and SQL "
      "executions, what it sent in a line) with its summary (jobs, the stage attempts that ran for them, task time, "
      "cost in the rate card's currency, time by server phase, the ids of the findings about it). With operationId: "
      "that operation with its whole statement.";
  tool.parameters = log_reference_parameters();
  tool.parameters.push_back(text_parameter(
      "operationId", "An operation's operationId (from the list): answer with that operation and its statement"));
  for (auto& p : paging_parameters(kDefaultOperations, kMaxOperations)) tool.parameters.push_back(std::move(p));
  tool.output_schema = Json::parse(R"({"type": "object", "required": ["analysisId"],
    "properties": {"analysisId": {"type": "string"}, "page": {}, "sessions": {"type": "integer"},
                   "operations": {"type": "array", "items": {"type": "object", "required": ["operation", "summary"],
                                  "properties": {"operation": {"type": "object"}, "summary": {"type": "object"}}}},
                   "operation": {"type": "object"}, "summary": {"type": "object"},
                   "findingIds": {"type": "array", "items": {"type": "string"}}}})");
  tool.output_schema["properties"]["page"] = page_schema();
  tool.run = [](const ToolArguments& arguments, ToolContext& context) {
    auto loaded = load_named_log(arguments, context);
    if (!loaded) return ToolResult::error(loaded.error().message());
    const NamedLog& log = *loaded;
    const model::AppModel& model = log.model();
    const analysis::Analysis& analysis = log.analysis();
    const std::string& currency = analysis.economics.cost.rate_card.currency;
    const Json& doc = log.document();
    ToolResult result;
    Json& out = result.structured;
    out["analysisId"] = log.analysis_id;
    const std::string operation_id = arguments.string("operationId");
    if (operation_id.empty()) {
      const auto ranked = report::costliest_operations(analysis);
      const PageWindow window = page_window(ranked.size(), arguments, kDefaultOperations);
      out["page"] = page_json(window);
      out["sessions"] = model.connect_sessions.size();
      Json operations = Json::array();
      result.summary = fmt::format("{} Spark Connect operation{} from {} session{}, the costliest first", ranked.size(),
                                   ranked.size() == 1 ? "" : "s", model.connect_sessions.size(),
                                   model.connect_sessions.size() == 1 ? "" : "s");
      if (ranked.empty()) result.summary = "this application served no Spark Connect operation";
      for (size_t i = window.begin; i < window.end; ++i) {
        const analysis::ConnectOperationSummary& s = *ranked[i];
        operations.push_back({{"operation", listed_operation(doc["connectOperations"][s.operation_index])},
                              {"summary", doc["connect"][s.operation_index]}});
        result.summary +=
            "\n- " + report::connect_operation_line(model.connect_operations[s.operation_index], s, currency);
      }
      if (window.end < window.total) result.summary += fmt::format("\nmore from offset {}", window.end);
      if (!ranked.empty()) result.summary += "\nconnect_operations with an operationId gives one with its statement.";
      out["operations"] = std::move(operations);
      return result;
    }
    const analysis::ConnectOperationSummary* found = report::find_connect_operation(analysis, operation_id);
    if (found == nullptr) {
      return ToolResult::error(fmt::format(
          "no Spark Connect operation \"{}\" in {} ({} operations); connect_operations without operationId lists them",
          operation_id, log.analysis_id, analysis.connect.size()));
    }
    const model::ConnectOperation& op = model.connect_operations[found->operation_index];
    out["operation"] = doc["connectOperations"][found->operation_index];
    out["summary"] = doc["connect"][found->operation_index];
    out["findingIds"] = found->finding_ids;
    result.summary = report::connect_operation_line(op, *found, currency);
    if (const std::string sent = op.statement_summary(); !sent.empty()) result.summary += "\nsent: " + sent;
    if (!op.error.empty()) result.summary += "\nfailed: " + op.error.substr(0, op.error.find('\n'));
    if (!found->finding_ids.empty()) {
      result.summary += fmt::format("\n{} finding(s), explain_finding explains one: {}", found->finding_ids.size(),
                                    out["findingIds"].dump());
    }
    return result;
  };
  return tool;
}

}  // namespace sf::mcp

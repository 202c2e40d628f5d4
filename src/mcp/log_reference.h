// How a tool names the log it works on, the same way in every tool: "path" (an event log, inside
// --log-dir when one is given), "analysisId" (returned by analyze_event_log) or "historyServer"
// (a Spark History Server base URL, an application id and an optional attempt id).
#pragma once

#include <vector>

#include "common/status.h"
#include "mcp/session.h"
#include "mcp/tool_parameters.h"

namespace sf::mcp {

// The three parameters, for a tool's parameter list.
std::vector<Parameter> log_reference_parameters();
// The same three as one object parameter named `name` (compare_runs' baseline and candidate).
Parameter log_reference_object(std::string name, std::string description);

// Reads them; a History Server request is validated here (its errors carry the stable code).
Result<LogReference> log_reference_from(const ToolArguments& arguments);

// The log the arguments name, loaded through the session (from memory when it is unchanged).
Result<NamedLog> load_named_log(const ToolArguments& arguments, ToolContext& context, ProgressSpan span = {});

}  // namespace sf::mcp

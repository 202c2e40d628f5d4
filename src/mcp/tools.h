// The tools, one factory each; tool_table.cpp lists them for tools/list and tools/call.
#pragma once

#include "mcp/tool.h"

namespace sf::mcp {

Tool list_applications_tool();  // application_tools.cpp
Tool analyze_event_log_tool();  // analysis_tools.cpp
Tool get_findings_tool();
Tool explain_finding_tool();
Tool get_economics_tool();  // economics_tool.cpp
Tool get_stage_tool();      // model_tools.cpp
Tool get_sql_execution_tool();
Tool get_slowest_tool();
Tool streaming_queries_tool();   // streaming_tool.cpp
Tool connect_operations_tool();  // connect_tool.cpp
Tool compare_runs_tool();        // compare_tool.cpp
Tool store_ingest_tool();        // store_tools.cpp
Tool verdict_tool();

}  // namespace sf::mcp

#include "mcp/tools.h"

namespace sf::mcp {

const std::vector<Tool>& all_tools() {
  static const std::vector<Tool> tools = {
      list_applications_tool(), analyze_event_log_tool(),  get_findings_tool(),      explain_finding_tool(),
      get_economics_tool(),     get_stage_tool(),          get_sql_execution_tool(), get_slowest_tool(),
      streaming_queries_tool(), connect_operations_tool(), compare_runs_tool(),      store_ingest_tool(),
      verdict_tool(),
  };
  return tools;
}

}  // namespace sf::mcp

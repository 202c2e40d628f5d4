// Spark Connect in the analysis document: "connectSessions" and "connectOperations", as the
// model holds them (model part), and "connect", what each operation cost (economics/connect_cost.h).
// docs/analysis-schema.md lists every field. The dashboard API's and MCP's Connect answers are
// written from the same pieces (one operation, one summary).
#pragma once

#include <string_view>
#include <vector>

#include "analysis/analyzer.h"
#include "analysis/economics/connect_cost.h"
#include "model/app_model.h"

namespace sf {
class JsonWriter;
}

namespace sf::report {

void write_connect_sessions(JsonWriter& w, const std::vector<model::ConnectSession>& sessions);
void write_connect_operations(JsonWriter& w, const std::vector<model::ConnectOperation>& operations);
void write_connect_summaries(JsonWriter& w, const std::vector<analysis::ConnectOperationSummary>& summaries);

// The summary of the operation whose id is `operation_id`, or null: how the dashboard and MCP
// find the operation asked for.
const analysis::ConnectOperationSummary* find_connect_operation(const analysis::Analysis& analysis,
                                                                std::string_view operation_id);

// One entry of "connectOperations", and one of "connect".
void write_connect_operation(JsonWriter& w, const model::ConnectOperation& op);
void write_connect_summary(JsonWriter& w, const analysis::ConnectOperationSummary& summary);

}  // namespace sf::report

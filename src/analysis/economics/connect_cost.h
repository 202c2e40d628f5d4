// What each Spark Connect operation cost: the client operation (a query or command a client sent
// through a session), its jobs' task time and money (the cost model's per-job figures), and how
// its time split between the server's phases. The reports, the dashboard and MCP read these; none
// works them out again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/economics/cost.h"
#include "model/app_model.h"

namespace sf::analysis {

struct ConnectOperationSummary {
  size_t operation_index = 0;  // its place in AppModel::connect_operations
  std::string operation_id;
  int64_t jobs = 0;
  int64_t task_time_ms = 0;  // the task attempts of its jobs' stages
  double cost = 0;           // its jobs' cost, in the rate card's currency
  // started -> analyzed -> ready for execution -> finished -> closed, where the log has both ends.
  std::optional<int64_t> analysis_ms, planning_ms, execution_ms, result_ms;
};

// Every operation in the model's order; `cost` is the application's (Economics::cost).
std::vector<ConnectOperationSummary> summarize_connect(const model::AppModel& model, const Cost& cost);

}  // namespace sf::analysis

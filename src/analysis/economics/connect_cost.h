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
  // The stage attempts that ran for its jobs, sorted: a stage another operation's job ran and
  // this one's skipped (its shuffle output reused) is not this operation's.
  std::vector<StageRef> stages;
  int64_t task_time_ms = 0;  // the task attempts of those stage attempts
  double cost = 0;           // its jobs' cost, in the rate card's currency
  // The findings (ids, in the analysis's order) about those stage attempts or its SQL executions.
  std::vector<std::string> finding_ids;
  // started -> analyzed -> ready for execution -> finished -> closed, where the log has both ends.
  std::optional<int64_t> analysis_ms, planning_ms, execution_ms, result_ms;
};

// Every operation in the model's order; `cost` is the application's (Economics::cost) and
// `findings` the analysis's, final.
std::vector<ConnectOperationSummary> summarize_connect(const model::AppModel& model, const Cost& cost,
                                                       const std::vector<Finding>& findings);

}  // namespace sf::analysis

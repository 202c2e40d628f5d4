// The longest stage attempts, jobs and SQL executions of an application: what the text report's
// "Top stages by duration" and the MCP get_slowest tool both list. Longest first; equal
// durations keep the model's order (by id); entries with no duration (never finished) are left
// out. Pointers into `model`, valid as long as it is.
#pragma once

#include <cstddef>
#include <vector>

#include "model/app_model.h"

namespace sf::model {

std::vector<const StageAttempt*> slowest_stages(const AppModel& model, size_t limit);
std::vector<const Job*> slowest_jobs(const AppModel& model, size_t limit);
std::vector<const SqlExecution*> slowest_sql_executions(const AppModel& model, size_t limit);

}  // namespace sf::model

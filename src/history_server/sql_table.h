// The SQL page's table (Spark 4.3.0's SqlResource.sqlTable, the DataTables endpoint of
// allexecutionspage.js): the executions searched, filtered by status, grouped under their root
// execution or not, sorted by a column, paged, with a summary of the rows before paging.
//
// Statuses, durations and job ids are the sql endpoint's (history_server_json.h): in particular
// an execution without an end lasts 0 ms here as there, where the History Server counts it up to
// the moment it answers.
//
// Pure function of the model and the query; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/json_writer.h"
#include "model/app_model.h"

namespace sf::history_server {

// The table's parameters, as SqlResource reads them (after UIUtils.decodeURLParameter).
struct SqlTableQuery {
  int32_t draw = 0;                     // echoed
  bool group_sub_executions = true;     // spark.ui.groupSQLSubExecutionEnabled's default
  std::string search;                   // "" for none
  std::string status;                   // "" for any; else compared ignoring case
  std::string sort_column = "id";       // id, status, description, submissionTime, duration; else id
  std::string sort_direction = "desc";  // "asc" ascending, anything else descending
  int32_t start = 0;
  int32_t length = 20;  // 0 or below: every row
};

// {"draw", "aaData", "recordsTotal", "recordsFiltered", "summary"} as SqlResource answers, its
// members sorted by name as every answer's (history_server_json.h).
void write_sql_table(JsonWriter& w, const model::AppModel& m, const SqlTableQuery& query);

}  // namespace sf::history_server

#include "history_server/sql_table.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <vector>

#include "history_server/history_server_json.h"
#include "history_server/task_table.h"

namespace sf::history_server {

namespace {

using Executions = std::vector<const model::SqlExecution*>;

// An execution with what the table reads of it, computed once.
struct Row {
  const model::SqlExecution* execution;
  std::string status;
  int64_t duration_ms;
};

int64_t root_of(const model::SqlExecution& x) { return x.root_execution_id.value_or(x.execution_id); }

bool matches(const Row& row, const SqlTableQuery& query, const std::string& search_lower_case) {
  const model::SqlExecution& x = *row.execution;
  const bool found = search_lower_case.empty() ||
                     java_lower_case(x.description).find(search_lower_case) != std::string::npos ||
                     java_lower_case(row.status).find(search_lower_case) != std::string::npos ||
                     std::to_string(x.execution_id).find(search_lower_case) != std::string::npos;
  const bool status_ok = query.status.empty() || java_lower_case(row.status) == java_lower_case(query.status);
  return found && status_ok;
}

// SqlResource.partitionRoots: the rows shown at the top level are the roots, and the
// sub-executions whose root is not among `rows` (so that they do not disappear).
std::vector<const Row*> roots_among(const std::vector<const Row*>& rows) {
  std::set<int64_t> ids;
  for (const Row* r : rows) ids.insert(r->execution->execution_id);
  std::vector<const Row*> out;
  for (const Row* r : rows) {
    const model::SqlExecution& x = *r->execution;
    if (root_of(x) == x.execution_id || !ids.contains(root_of(x))) out.push_back(r);
  }
  return out;
}

// SqlResource.sortExecs: a stable sort by the column, reversed as a whole unless "asc".
void sort_rows(std::vector<const Row*>& rows, const std::string& column, const std::string& direction) {
  auto by = [&rows](auto key) {
    std::stable_sort(rows.begin(), rows.end(), [&key](const Row* a, const Row* b) { return key(a) < key(b); });
  };
  if (column == "status") {
    by([](const Row* r) { return r->status; });
  } else if (column == "description") {
    by([](const Row* r) { return r->execution->description; });
  } else if (column == "submissionTime") {
    by([](const Row* r) { return r->execution->start_time_ms.value_or(0); });
  } else if (column == "duration") {
    by([](const Row* r) { return r->duration_ms; });
  } else {
    by([](const Row* r) { return r->execution->execution_id; });
  }
  if (direction != "asc") std::reverse(rows.begin(), rows.end());
}

// The page shown: every row unless a length above 0 asks for a slice.
std::vector<const Row*> page_of(const std::vector<const Row*>& rows, int32_t start, int32_t length) {
  if (length <= 0) return rows;
  const auto [first, last] = scala_slice(rows.size(), start, length);
  return {rows.begin() + static_cast<std::ptrdiff_t>(first), rows.begin() + static_cast<std::ptrdiff_t>(last)};
}

// SqlResource.executionSummary over the rows before paging.
void write_summary(JsonWriter& w, const std::vector<const Row*>& rows) {
  const auto total = static_cast<int64_t>(rows.size());
  int64_t running = 0, failed = 0, duration_sum_ms = 0;
  for (const Row* r : rows) {
    if (r->status == "RUNNING") ++running;
    if (r->status == "FAILED") ++failed;
    duration_sum_ms += r->duration_ms;
  }
  SortedObject out(w);
  out.field("totalQueries", total);
  out.field("averageDuration", total > 0 ? duration_sum_ms / total : 0);
  out.field("runningQueries", running);
  out.field("failedQueries", failed);
  out.field("failureRate", total > 0 ? static_cast<double>(failed) / static_cast<double>(total) : 0.0);
  out.write();
}

void write_rows(JsonWriter& w, const model::AppModel& m, const std::vector<const Row*>& page,
                const std::vector<const Row*>& filtered, bool group_sub_executions) {
  w.array([&] {
    for (const Row* r : page) {
      SortedObject row(w);
      add_sql_table_row(row, m, *r->execution);
      if (group_sub_executions) {
        // Its sub-executions among the filtered ones, by id ascending.
        row.member("subExecutions", [&m, &filtered, r](JsonWriter& sw) {
          sw.array([&] {
            for (const Row* sub : filtered) {
              const model::SqlExecution& x = *sub->execution;
              if (root_of(x) == r->execution->execution_id && x.execution_id != r->execution->execution_id) {
                SortedObject shown(sw);
                add_sql_table_row(shown, m, x);
                shown.write();
              }
            }
          });
        });
      }
      row.write();
    }
  });
}

}  // namespace

void write_sql_table(JsonWriter& w, const model::AppModel& m, const SqlTableQuery& query) {
  std::vector<Row> all;
  all.reserve(m.sql.size());
  for (const model::SqlExecution& x : m.sql)
    all.push_back({&x, sql_execution_status(m, x), sql_execution_duration_ms(x)});
  std::sort(all.begin(), all.end(),
            [](const Row& a, const Row& b) { return a.execution->execution_id < b.execution->execution_id; });
  std::vector<const Row*> every, filtered;
  const std::string search = java_lower_case(query.search);
  for (const Row& r : all) {
    every.push_back(&r);
    if (matches(r, query, search)) filtered.push_back(&r);
  }
  const bool filtering = !query.search.empty() || !query.status.empty();

  std::vector<const Row*> top = query.group_sub_executions ? roots_among(filtered) : filtered;
  sort_rows(top, query.sort_column, query.sort_direction);
  const std::vector<const Row*> page = page_of(top, query.start, query.length);

  // Grouped, the totals count root rows (the unfiltered set's when filtering); flat, every execution.
  const auto records_total = static_cast<int64_t>(
      query.group_sub_executions ? (filtering ? roots_among(every).size() : top.size()) : every.size());
  SortedObject out(w);
  out.field("draw", query.draw);
  out.member("aaData", [&m, &page, &filtered, &query](JsonWriter& rw) {
    write_rows(rw, m, page, filtered, query.group_sub_executions);
  });
  out.field("recordsTotal", records_total);
  out.field("recordsFiltered", static_cast<int64_t>(top.size()));
  out.member("summary", [&top](JsonWriter& sw) { write_summary(sw, top); });
  out.write();
}

}  // namespace sf::history_server

// The values the History Server shows for an SQL execution's plan metrics (sql?details=true), as
// Spark's SQLAppStatusListener aggregates them while it replays the log, read on demand.
//
// The analysis model keeps one total per metric; Spark shows a metric several tasks reported as
// "total (min, med, max (stageId: taskId))" over each task's last update, so its value depends on
// the tasks one by one, on the stage attempt that is current, and on which stages the listener was
// tracking when each task ended. load_sql_metric_values re-reads the log (its job, stage, task and
// SQL events; other lines are skipped after a cheap prefix check) and folds the events as the
// listener does:
// - an execution's metrics are those of its plan's SparkPlanGraph nodes (AQE updates add theirs);
// - a job of an execution starts tracking each of its stages afresh (attempt 0, one slot per
//   task index, the execution's metrics as the job starts), also a stage an earlier job ran;
// - a stage submitted with another attempt number starts over; a task counts only when its start
//   was seen in the tracked attempt, its last update per index is kept until one succeeds;
// - the driver's updates of a live execution are kept, every one (each counts as a value);
// - when the execution ends its values are made (SQLMetrics.stringValue) and frozen, and the
//   stages no other live execution tracks are dropped; an execution still live when the log ends
//   gets its values then (the History Server's flush).
// Memory while reading: one value per task index and metric of the stages tracked; the result is
// one text per metric that has a value.
//
// Pure function of the log's bytes; safe from several threads. SqlMetricValueCache keeps the
// results serve reads, and is thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "catalog/loaded_log.h"
#include "catalog/lru_loading_cache.h"
#include "common/status.h"
#include "io/path_confinement.h"

namespace sf::history_server {

// The task that reported a metric's largest value (Spark names it beside the max).
struct SqlMetricMaxTask {
  int64_t stage_id = 0;
  int64_t stage_attempt_id = 0;
  int64_t task_id = 0;
};

// Spark's SQLMetrics.stringValue: the text of a metric of `metric_type` from every value reported
// (a task's or the driver's), and the task with the largest (none: "(driver)"). A sum is the
// grouped total; an average, size or time reported once (or never) is that value in its unit, more
// often "total (min, med, max (stageId: taskId))\n<sum> (<min>, <med>, <max> (stage S.A: task T))"
// (an average without its total); a DataSource V2 custom metric is "N/A" (the History Server
// cannot load its class).
std::string spark_metric_text(std::string_view metric_type, std::vector<int64_t> values,
                              const std::optional<SqlMetricMaxTask>& max_task);

// Metric texts by accumulator id, as SQLExecutionUIData.metricValues holds them.
using SqlMetricTexts = std::unordered_map<int64_t, std::string>;

struct SqlMetricValues {
  std::unordered_map<int64_t, SqlMetricTexts> by_execution;  // execution id -> its metrics' texts
  // What ended the read early (a corrupt block): the events before it are counted, as in the model.
  std::optional<std::string> read_error;

  // The texts of an execution, nullptr when it has none.
  const SqlMetricTexts* of(int64_t execution_id) const {
    auto it = by_execution.find(execution_id);
    return it == by_execution.end() ? nullptr : &it->second;
  }
};

// Reads the SQL metric values of every execution of the log at `log_path` (any layout or codec
// load_event_log reads), its parts inside `confinement`. Errors name the log.
Result<SqlMetricValues> load_sql_metric_values(const std::string& log_path, const std::atomic<bool>* cancel = nullptr,
                                               const io::PathConfinement& confinement = {});

// The SQL metric values of the logs requests asked for, each read once per version of the log's
// files (the version its model was loaded from), and at most `max_logs` kept.
class SqlMetricValueCache {
 public:
  explicit SqlMetricValueCache(size_t max_logs = 4) : values_(max_logs) {}

  Result<std::shared_ptr<const SqlMetricValues>> get(const catalog::LoadedLog& log,
                                                     const io::PathConfinement& confinement) {
    return values_.get(log.path(), log.files(),
                       [&] { return load_sql_metric_values(log.path(), nullptr, confinement); });
  }

 private:
  catalog::LruLoadingCache<std::string, SqlMetricValues, catalog::LogFileIdentity> values_;
};

}  // namespace sf::history_server

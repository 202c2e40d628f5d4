// The History Server's REST documents (Spark's status/api/v1/api.scala), written from the
// model and from on-demand task records, with the History Server's field names and shapes.
//
// Conventions of Spark's JSON mapper that the writers follow: an absent Option is left out
// (not null); dates are "yyyy-MM-ddTHH:mm:ss.SSSGMT" strings in GMT; maps are JSON objects.
// Each writer is a pure function of its arguments; safe from any thread.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/app_model.h"
#include "server/sql_metric_values.h"
#include "catalog/app_listing.h"
#include "server/stage_tasks.h"

namespace sf::server {

// The Spark version whose History Server the REST API answers as (/version): the pinned pyspark
// the History Server oracle test runs (tests/history_server), whose answers these documents follow.
inline constexpr std::string_view kHistoryServerVersion = "4.3.0";

// One application of the list: its id, name and attempts (newest first). `log_source` is the log
// directory (its real path), which Spark 4 names in every attempt (logSourceName).
nlohmann::json application_json(const catalog::ApplicationListing& app, const std::string& log_source);

// The metric sums a stage document shows, by their REST names, and the model metric each one is
// (shuffleReadBytes, local + remote, is written besides these).
struct StageMetricField {
  const char* name;
  model::TaskMetric metric;
};
std::span<const StageMetricField> stage_metric_fields();

// A job's killed tasks by reason: the model keeps them per stage attempt, a job's are those of
// the attempts run for it. One pass over the stages for every job.
using KilledTasksByJob = std::map<int64_t, std::map<std::string, int64_t>>;
KilledTasksByJob killed_tasks_by_job(const model::AppModel& m);

nlohmann::json job_json(const model::Job& job, const KilledTasksByJob& killed);

// What a stage document shows beyond the stage's own figures.
struct StageDetail {
  const StageTasks* tasks = nullptr;       // per-task records; required for the options below
  bool with_tasks = false;                 // "tasks": every task, keyed by task id
  std::vector<std::string> task_statuses;  // keep only these statuses in "tasks" (empty: all)
  bool with_executor_summary = false;      // "executorSummary" (and "speculationSummary")
  bool with_summaries = false;             // "taskMetricsDistributions", "executorMetricsDistributions"
  std::vector<double> quantiles = {0.0, 0.25, 0.5, 0.75, 1.0};
};
nlohmann::json stage_json(const model::AppModel& m, const model::StageAttempt& stage, const StageDetail& detail);

nlohmann::json task_json(const model::AppModel& m, const TaskRecord& task);

// The metric distributions over the stage's successful tasks that reported metrics, at the
// given quantiles; nullopt when there are none (the History Server's 404).
std::optional<nlohmann::json> task_metric_distributions_json(const StageTasks& tasks,
                                                             const std::vector<double>& quantiles);

nlohmann::json executor_json(const model::AppModel& m, const model::Executor& executor);
nlohmann::json environment_json(const model::AppModel& m);
nlohmann::json miscellaneous_process_json(const model::MiscellaneousProcess& process);
nlohmann::json rdd_storage_json(const model::RddInfo& rdd);
// SQLExecutionUIData.executionStatus: RUNNING, COMPLETED or FAILED.
std::string sql_execution_status(const model::AppModel& m, const model::SqlExecution& execution);
// An execution's duration as serve shows it everywhere: what the log holds, its end minus its
// start, 0 while it has no end. (The History Server counts an execution without an end up to the
// moment it answers; serve's answers do not depend on the clock.)
int64_t sql_execution_duration_ms(const model::SqlExecution& execution);
// `metric_values`: the execution's plan metric texts (sql_metric_values.h), nullptr for none.
nlohmann::json sql_execution_json(const model::AppModel& m, const model::SqlExecution& execution, bool details,
                                  bool plan_description, const SqlMetricTexts* metric_values);

// One row of the SQL page's table (SqlResource.sqlTable's execToRow), without its sub-executions.
nlohmann::json sql_table_row_json(const model::AppModel& m, const model::SqlExecution& execution);

// Keys in the order a Scala immutable Map or Set of Ints iterates them (the History Server's order
// of an execution's jobs and stages): up to four in insertion order, more in hash order.
std::vector<int64_t> scala_map_order(const std::vector<int64_t>& keys_in_insertion_order);

}  // namespace sf::server

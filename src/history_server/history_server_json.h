// The History Server's REST documents (Spark's status/api/v1/api.scala), written from the
// model and from on-demand task records, with the History Server's field names and shapes.
//
// Conventions of Spark's JSON mapper that the writers follow: an absent Option is left out
// (not null); dates are "yyyy-MM-ddTHH:mm:ss.SSSGMT" strings in GMT; maps are JSON objects.
// Each writer writes one document into a JsonWriter as it walks its arguments, with every
// object's members sorted by name (SortedObject); it is a pure function of its arguments, safe
// from any thread.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "catalog/app_listing.h"
#include "common/json_writer.h"
#include "history_server/sql_metric_values.h"
#include "history_server/stage_tasks.h"
#include "model/app_model.h"

namespace sf::history_server {

// One object of an answer. Its members are given in the order Spark declares them (api.scala),
// which the writers are read against, and written sorted by name, byte by byte: the order the
// answers have always had (they were nlohmann::json objects, std::maps), which clients and the
// tests' recorded answers hold. Of two members of one name the last given is written, as when a
// member was assigned again. Nothing is written before write(): a member's name, a string it
// views and whatever its WriteValue refers to must live until then.
class SortedObject {
 public:
  using WriteValue = std::function<void(JsonWriter&)>;

  explicit SortedObject(JsonWriter& w) : w_(w) {}

  // A number, a boolean or a string (a std::string given as an rvalue is kept, any other string
  // viewed); anything else JsonWriter::value writes (a vector) is referred to.
  template <typename T>
  void field(std::string_view name, T&& value);
  // A member whose value `write` writes: an object or an array.
  void member(std::string_view name, WriteValue write) { members_.push_back({name, std::move(write)}); }
  // The object, its members sorted by name.
  void write();

 private:
  struct Member {
    std::string_view name;
    WriteValue write;
  };
  JsonWriter& w_;
  std::vector<Member> members_;
};

template <typename T>
void SortedObject::field(std::string_view name, T&& value) {
  using V = std::remove_cvref_t<T>;
  if constexpr (std::is_arithmetic_v<V>) {
    member(name, [value](JsonWriter& w) { w.value(value); });
  } else if constexpr (std::is_same_v<V, std::string> && !std::is_lvalue_reference_v<T>) {
    member(name, [kept = std::move(value)](JsonWriter& w) { w.string(kept); });
  } else if constexpr (std::is_convertible_v<const V&, std::string_view>) {
    member(name, [viewed = std::string_view(value)](JsonWriter& w) { w.string(viewed); });
  } else {
    static_assert(std::is_lvalue_reference_v<T>, "SortedObject::field refers to its value: give one that lives");
    member(name, [referred = &value](JsonWriter& w) { w.value(*referred); });
  }
}

// The Spark version whose History Server the REST API answers as (/version): the pinned pyspark
// the History Server oracle test runs (tests/history_server), whose answers these documents follow.
inline constexpr std::string_view kHistoryServerVersion = "4.3.0";

// One application of the list: its id, name and attempts (newest first). `log_source` is the log
// directory (its real path), which Spark 4 names in every attempt (logSourceName).
void write_application(JsonWriter& w, const catalog::ApplicationListing& app, const std::string& log_source);
// One attempt of it (applications/<id>/<attempt>).
void write_application_attempt(JsonWriter& w, const catalog::AttemptListing& attempt, const std::string& log_source);

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

void write_job(JsonWriter& w, const model::Job& job, const KilledTasksByJob& killed);

// What a stage document shows beyond the stage's own figures.
struct StageDetail {
  const StageTasks* tasks = nullptr;       // per-task records; required for the options below
  bool with_tasks = false;                 // "tasks": every task, keyed by task id
  std::vector<std::string> task_statuses;  // keep only these statuses in "tasks" (empty: all)
  bool with_executor_summary = false;      // "executorSummary" (and "speculationSummary")
  bool with_summaries = false;             // "taskMetricsDistributions", "executorMetricsDistributions"
  std::vector<double> quantiles = {0.0, 0.25, 0.5, 0.75, 1.0};

  // Whether the document's "tasks" shows `task`: its status is one asked for, or none is.
  bool shows(const TaskRecord& task) const;
  // Whether the document has "tasks" with a task in it.
  bool shows_a_task() const;
};
void write_stage(JsonWriter& w, const model::AppModel& m, const model::StageAttempt& stage, const StageDetail& detail);

void write_task(JsonWriter& w, const model::AppModel& m, const TaskRecord& task);

// The metric distributions over the stage's successful tasks that reported metrics, at the
// given quantiles: only a stage one of whose tasks succeeded with metrics has them (of another,
// the History Server answers 404).
bool has_task_metric_distributions(const StageTasks& tasks);
void write_task_metric_distributions(JsonWriter& w, const StageTasks& tasks, const std::vector<double>& quantiles);

void write_executor(JsonWriter& w, const model::AppModel& m, const model::Executor& executor);
void write_environment(JsonWriter& w, const model::AppModel& m);
void write_miscellaneous_process(JsonWriter& w, const model::MiscellaneousProcess& process);
void write_rdd_storage(JsonWriter& w, const model::RddInfo& rdd);

// SQLExecutionUIData.executionStatus: RUNNING, COMPLETED or FAILED.
std::string sql_execution_status(const model::AppModel& m, const model::SqlExecution& execution);
// An execution's duration as serve shows it everywhere: what the log holds, its end minus its
// start, 0 while it has no end. (The History Server counts an execution without an end up to the
// moment it answers; serve's answers do not depend on the clock.)
int64_t sql_execution_duration_ms(const model::SqlExecution& execution);
// `metric_values`: the execution's plan metric texts (sql_metric_values.h), nullptr for none.
void write_sql_execution(JsonWriter& w, const model::AppModel& m, const model::SqlExecution& execution, bool details,
                         bool plan_description, const SqlMetricTexts* metric_values);

// One row of the SQL page's table (SqlResource.sqlTable's execToRow), without its sub-executions.
// `o` is the row's object, for the caller to add to (subExecutions) and write.
void add_sql_table_row(SortedObject& o, const model::AppModel& m, const model::SqlExecution& execution);

// Keys in the order a Scala immutable Map or Set of Ints iterates them (the History Server's order
// of an execution's jobs and stages): up to four in insertion order, more in hash order.
std::vector<int64_t> scala_map_order(const std::vector<int64_t>& keys_in_insertion_order);

}  // namespace sf::history_server

#include "history_server/sql_metric_values.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <unordered_set>

#include "eventlog/decoder.h"
#include "history_server/history_server_json.h"
#include "history_server/matching_lines.h"
#include "history_server/spark_plan_graph.h"
#include "io/log_source.h"

namespace sf::history_server {

namespace {

namespace ev = eventlog;

// SQLMetrics.metricNeedsMax: every type but a sum names the task with the largest value.
bool needs_max(std::string_view metric_type) { return metric_type != "sum"; }

// One stage attempt as SQLAppStatusListener's LiveStageMetrics tracks it: per metric the last
// update of each task index, and the task with the largest.
struct LiveStageMetrics {
  int64_t stage_id = 0;
  int64_t attempt_id = 0;
  int64_t num_tasks = 0;
  std::shared_ptr<const std::unordered_map<int64_t, std::string>> metric_types;  // as the job started
  std::unordered_map<int64_t, int32_t> task_indices;                             // task id -> index
  std::unordered_set<int32_t> completed_indices;
  std::map<int64_t, std::vector<int64_t>> task_values;            // metric -> value per index
  std::map<int64_t, std::pair<int64_t, int64_t>> max_task_value;  // metric -> (value, task id)
};

struct LiveExecution {
  std::unordered_map<int64_t, std::string> metric_types;  // exec.metrics: accumulator id -> type
  std::vector<int64_t> stages_in_order;                   // exec.stages, in insertion order
  std::unordered_set<int64_t> stages;
  // exec.driverAccumUpdates: every update in log order, a Seq (an accumulator the driver updated
  // several times counts as several values, as the History Server shows them).
  std::vector<std::pair<int64_t, int64_t>> driver_updates;
  std::unordered_set<int64_t> jobs;
  size_t end_events = 0;
  std::optional<SqlMetricTexts> values;  // exec.metricsValues: set when the execution ended
};

std::optional<int64_t> as_long(std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

class SqlMetricFold final : public ev::EventHandler {
 public:
  using EventHandler::on;

  void on(const ev::SqlExecutionStart& e) override {
    LiveExecution& x = live_or_new(e.execution_id);
    x.metric_types.clear();
    add_plan_metrics(x, e.plan);
    update(e.execution_id, x);
  }

  void on(const ev::SqlAdaptiveExecutionUpdate& e) override {
    LiveExecution& x = live_or_new(e.execution_id);
    add_plan_metrics(x, e.plan);
    update(e.execution_id, x);
  }

  void on(const ev::SqlAdaptiveMetricUpdates& e) override {
    LiveExecution& x = live_or_new(e.execution_id);
    for (const model::PlanMetric& metric : e.metrics) x.metric_types[metric.accumulator_id] = metric.metric_type;
    update(e.execution_id, x);
  }

  void on(const ev::DriverAccumUpdates& e) override {
    auto it = live_.find(e.execution_id);
    if (it == live_.end()) return;
    auto& updates = it->second.driver_updates;
    updates.insert(updates.end(), e.updates.begin(), e.updates.end());
  }

  void on(const ev::SqlExecutionEnd& e) override {
    auto it = live_.find(e.execution_id);
    if (it == live_.end()) return;
    LiveExecution& x = it->second;
    if (!x.values) x.values = aggregate(x);
    remove_stale_stage_metrics(e.execution_id);
    ++x.end_events;
    update(e.execution_id, x);
  }

  void on(const ev::JobStart& e) override {
    if (!e.properties.sql_execution_id) return;
    const int64_t execution_id = *e.properties.sql_execution_id;
    auto it = live_.find(execution_id);
    if (it == live_.end()) {
      // An execution already ended and written comes back as it was stored, values and all.
      auto done = done_.find(execution_id);
      it = live_.emplace(execution_id, LiveExecution{}).first;
      if (done != done_.end()) {
        it->second = std::move(done->second);
        done_.erase(done);
        it->second.end_events = it->second.jobs.size() + 1;
      }
    }
    LiveExecution& x = it->second;
    if (!x.metric_types.empty()) {
      auto types = std::make_shared<const std::unordered_map<int64_t, std::string>>(x.metric_types);
      for (const ev::StageInfo& stage : e.stage_infos) {
        LiveStageMetrics tracked;
        tracked.stage_id = stage.stage_id;
        tracked.num_tasks = stage.num_tasks;
        tracked.metric_types = types;
        stage_metrics_[stage.stage_id] = std::move(tracked);
      }
    }
    x.jobs.insert(e.job_id);
    for (int64_t stage_id : e.stage_ids) {
      if (x.stages.insert(stage_id).second) x.stages_in_order.push_back(stage_id);
    }
    update(execution_id, x);
  }

  void on(const ev::JobEnd& e) override {
    std::vector<int64_t> touched;
    for (auto& [id, x] : live_) {
      if (x.jobs.count(e.job_id) != 0) {
        ++x.end_events;
        touched.push_back(id);
      }
    }
    for (int64_t id : touched) {
      auto it = live_.find(id);
      if (it != live_.end()) update(id, it->second);
    }
  }

  void on(const ev::StageSubmitted& e) override {
    if (!is_sql_stage(e.info.stage_id)) return;
    auto it = stage_metrics_.find(e.info.stage_id);
    if (it == stage_metrics_.end() || it->second.attempt_id == e.info.attempt_id) return;
    LiveStageMetrics fresh;
    fresh.stage_id = e.info.stage_id;
    fresh.attempt_id = e.info.attempt_id;
    fresh.num_tasks = it->second.num_tasks;
    fresh.metric_types = it->second.metric_types;
    it->second = std::move(fresh);
  }

  void on(const ev::TaskStart& e) override {
    auto it = stage_metrics_.find(e.stage_id);
    if (it == stage_metrics_.end() || it->second.attempt_id != e.stage_attempt_id) return;
    it->second.task_indices[e.info.task_id] = e.info.index;
  }

  void on(const ev::TaskEnd& e) override {
    if (!is_sql_stage(e.stage_id)) return;
    auto it = stage_metrics_.find(e.stage_id);
    if (it == stage_metrics_.end()) return;
    LiveStageMetrics& stage = it->second;
    if (stage.attempt_id != e.stage_attempt_id) return;
    auto index_it = stage.task_indices.find(e.info.task_id);
    if (index_it == stage.task_indices.end()) return;  // its start was not seen
    const int32_t index = index_it->second;
    if (stage.completed_indices.count(index) != 0) return;
    const bool has_update = std::any_of(e.accumulables.begin(), e.accumulables.end(), [&](const auto& a) {
      return !a.update.empty() && stage.metric_types->count(a.id) != 0;
    });
    // Spark's values are one array slot per index of the tasks the job announced: a task with a
    // larger index fails its update (the listener bus drops the event), succeeded or not.
    if (has_update && (index < 0 || index >= stage.num_tasks)) return;
    for (const ev::TaskAccumulable& a : e.accumulables) {
      if (a.update.empty()) continue;
      auto type = stage.metric_types->find(a.id);
      if (type == stage.metric_types->end()) continue;
      const auto value = as_long(a.update);
      if (!value) continue;
      auto& values = stage.task_values[a.id];
      if (values.empty()) values.assign(static_cast<size_t>(stage.num_tasks), 0);
      values[static_cast<size_t>(index)] = *value;
      if (needs_max(type->second)) {
        auto [max, inserted] = stage.max_task_value.try_emplace(a.id, *value, e.info.task_id);
        if (!inserted && *value > max->second.first) max->second = {*value, e.info.task_id};
      }
    }
    const bool succeeded = e.info.finish_time_ms != 0 && !e.info.failed && !e.info.killed;
    if (succeeded) stage.completed_indices.insert(index);
  }

  // The History Server's flush when the replay ends: an execution still live gets its values.
  SqlMetricValues finish() {
    SqlMetricValues out;
    for (auto& [id, x] : live_) {
      if (!x.values) x.values = aggregate(x);
      done_[id] = std::move(x);
    }
    live_.clear();
    for (auto& [id, x] : done_) {
      if (x.values && !x.values->empty()) out.by_execution[id] = std::move(*x.values);
    }
    return out;
  }

 private:
  LiveExecution& live_or_new(int64_t execution_id) {
    auto it = live_.find(execution_id);
    if (it != live_.end()) return it->second;
    return live_[execution_id];
  }

  // SparkPlanGraph(plan).allNodes' metrics, by accumulator id: an operator the graph does not draw
  // (an InputAdapter, a query stage wrapper) adds none.
  static void add_plan_metrics(LiveExecution& x, const model::PlanTree& plan) {
    if (plan.empty()) return;
    for (const SparkPlanGraphNode& node : spark_plan_graph(plan).nodes) {
      for (const model::PlanMetric& metric : node.plan->metrics)
        x.metric_types[metric.accumulator_id] = metric.metric_type;
    }
  }

  bool is_sql_stage(int64_t stage_id) const {
    return std::any_of(live_.begin(), live_.end(), [&](const auto& x) { return x.second.stages.count(stage_id) != 0; });
  }

  // SQLAppStatusListener.update: an execution whose jobs and itself all ended is written and no
  // longer live, and the stages no other live execution tracks are dropped.
  void update(int64_t execution_id, LiveExecution& x) {
    if (x.end_events < x.jobs.size() + 1) return;
    remove_stale_stage_metrics(execution_id);
    done_[execution_id] = std::move(x);
    live_.erase(execution_id);
  }

  void remove_stale_stage_metrics(int64_t execution_id) {
    std::unordered_set<int64_t> active;
    for (const auto& [id, x] : live_) {
      if (id != execution_id) active.insert(x.stages.begin(), x.stages.end());
    }
    std::erase_if(stage_metrics_, [&](const auto& entry) { return active.count(entry.first) == 0; });
  }

  // SQLAppStatusListener.aggregateMetrics.
  SqlMetricTexts aggregate(const LiveExecution& x) const {
    SqlMetricTexts out;
    if (x.metric_types.empty()) return out;
    std::map<int64_t, std::vector<int64_t>> all_values;
    std::map<int64_t, SqlMetricMaxTask> max_tasks;
    std::map<int64_t, int64_t> max_values;
    // The stages in exec.stages' order (a Scala Set): a tie for the largest value names the first.
    for (int64_t stage_id : scala_map_order(x.stages_in_order)) {
      auto it = stage_metrics_.find(stage_id);
      if (it == stage_metrics_.end()) continue;
      const LiveStageMetrics& stage = it->second;
      for (const auto& [id, values] : stage.task_values) {
        if (x.metric_types.count(id) == 0) continue;
        auto& all = all_values[id];
        all.insert(all.end(), values.begin(), values.end());
      }
      for (const auto& [id, max] : stage.max_task_value) {
        if (x.metric_types.count(id) == 0) continue;
        auto known = max_values.find(id);
        if (known == max_values.end() || max.first > known->second) {
          max_values[id] = max.first;
          max_tasks[id] = {stage.stage_id, stage.attempt_id, max.second};
        }
      }
    }
    for (const auto& [id, value] : x.driver_updates) {
      if (x.metric_types.count(id) == 0) continue;
      auto all = all_values.find(id);
      if (all != all_values.end()) {
        // A driver value above every task's: Spark names no task ("(driver)").
        auto known = max_values.find(id);
        if (known != max_values.end() && value > known->second) {
          max_values.erase(known);
          max_tasks.erase(id);
        }
        all->second.push_back(value);
      } else {
        all_values[id] = {value};
      }
    }
    for (auto& [id, values] : all_values) {
      auto max = max_tasks.find(id);
      out[id] = spark_metric_text(x.metric_types.at(id), std::move(values),
                                  max == max_tasks.end() ? std::nullopt : std::optional(max->second));
    }
    return out;
  }

  std::unordered_map<int64_t, LiveExecution> live_;
  std::map<int64_t, LiveExecution> done_;
  std::unordered_map<int64_t, LiveStageMetrics> stage_metrics_;
};

// Whether a line may be an event the fold reads: Spark writes the event name first
// (`{"Event":"SparkListenerTaskEnd",...`); a line that does not start so is handed to the decoder.
bool may_be_sql_metric_event(std::string_view line) {
  constexpr std::string_view kEvent = "{\"Event\":\"";
  if (!line.starts_with(kEvent)) return true;
  const std::string_view name = line.substr(kEvent.size(), 96);
  return name.starts_with("SparkListenerTaskStart") || name.starts_with("SparkListenerTaskEnd") ||
         name.starts_with("SparkListenerJob") || name.starts_with("SparkListenerStageSubmitted") ||
         name.starts_with("org.apache.spark.sql.execution.ui.");
}

std::string with_max_task(const std::optional<SqlMetricMaxTask>& max_task) {
  if (!max_task) return "(driver)";
  std::string out = "(stage ";
  out += std::to_string(max_task->stage_id);
  out += '.';
  out += std::to_string(max_task->stage_attempt_id);
  out += ": task ";
  out += std::to_string(max_task->task_id);
  out += ')';
  return out;
}

}  // namespace

std::string spark_metric_text(std::string_view metric_type, std::vector<int64_t> values,
                              const std::optional<SqlMetricMaxTask>& max_task) {
  if (metric_type == "sum") {
    int64_t total = 0;
    for (int64_t v : values) total += v;
    return format_sql_metric_value(metric_type, total);
  }
  if (metric_type.starts_with("v2Custom_")) return format_sql_metric_value(metric_type, 0);
  // An average counts the values above 0; a size or time those of 0 and more (-1 is unset).
  const bool average = metric_type == "average";
  std::erase_if(values, [&](int64_t v) { return average ? v <= 0 : v < 0; });
  if (values.size() <= 1) return format_sql_metric_value(metric_type, values.empty() ? 0 : values.front());
  std::sort(values.begin(), values.end());
  const std::string min = format_sql_metric_value(metric_type, values.front());
  const std::string med = format_sql_metric_value(metric_type, values[values.size() / 2]);
  const std::string max = format_sql_metric_value(metric_type, values.back());
  std::string out;
  if (average) {
    out = "(min, med, max (stageId: taskId)):\n(";
  } else {
    int64_t total = 0;
    for (int64_t v : values) total += v;
    out = "total (min, med, max (stageId: taskId))\n";
    out += format_sql_metric_value(metric_type, total);
    out += " (";
  }
  out += min;
  out += ", ";
  out += med;
  out += ", ";
  out += max;
  out += ' ';
  out += with_max_task(max_task);
  out += ')';
  return out;
}

Result<SqlMetricValues> load_sql_metric_values(const std::string& log_path, const std::atomic<bool>* cancel,
                                               const io::PathConfinement& confinement) {
  SqlMetricFold fold;
  auto read = decode_matching_lines(log_path, confinement, cancel, fold, may_be_sql_metric_event, [] { return false; });
  if (!read) return fail(read.error());
  if (read->cancelled) return fail(Status::Cancelled(log_path + ": reading SQL metrics was cancelled"));
  SqlMetricValues out = fold.finish();
  if (read->read_error) out.read_error = read->read_error->message();
  return out;
}

}  // namespace sf::history_server

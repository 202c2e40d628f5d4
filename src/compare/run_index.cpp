#include "compare/run_index.h"

#include <algorithm>
#include <map>

#include "analysis/detectors/plan_text.h"
#include "compare/plan_fingerprint.h"

namespace sf::compare {

namespace {

bool ran(const model::StageAttempt& attempt) {
  return attempt.tasks_started > 0 ||
         (attempt.status != model::StageStatus::kSkipped && attempt.status != model::StageStatus::kPending);
}

// The attributed node ids of a stage within its own execution's final plan.
std::vector<int32_t> attributed_node_ids(const model::AppModel& model, int64_t stage_id, int64_t execution_id) {
  std::vector<int32_t> ids;
  const auto it = model.stage_plan_nodes.find(stage_id);
  if (it == model.stage_plan_nodes.end()) return ids;
  for (const auto& ref : it->second) {
    if (ref.execution_id == execution_id) ids.push_back(ref.node_id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<const model::PlanNode*> nodes_of(const model::SqlExecution& sql, const std::vector<int32_t>& ids) {
  std::vector<const model::PlanNode*> nodes;
  for (int32_t id : ids) {
    if (id >= 0 && static_cast<size_t>(id) < sql.plan.nodes.size())
      nodes.push_back(&sql.plan.nodes[static_cast<size_t>(id)]);
  }
  return nodes;
}

std::string joined_frames(std::string_view call_site) {
  std::string text;
  for (const auto& frame : user_frames(call_site)) text += frame + "\n";
  return text;
}

// The exact-key recipe, with the given text normalizer.
std::string exact_key_of(const model::StageAttempt& latest, const model::SqlExecution* sql,
                         const std::vector<const model::PlanNode*>& nodes, const TextNormalizer& normalize) {
  const std::string name = normalize_stage_name(normalize(latest.name));
  if (sql == nullptr) return name + "|site:" + fingerprint(normalize(joined_frames(latest.details)));
  if (!nodes.empty()) return name + "|nodes:" + attributed_nodes_fingerprint(nodes, normalize);
  return name + "|plan:" + plan_tree_fingerprint(sql->plan, normalize);
}

bool is_bookkeeping(const model::SqlExecution* sql, const std::vector<const model::PlanNode*>& nodes) {
  if (sql == nullptr) return false;
  std::vector<const model::PlanNode*> scans;
  auto collect = [&](const model::PlanNode& node) {
    if (analysis::is_source_scan(node)) scans.push_back(&node);
  };
  if (!nodes.empty()) {
    for (const auto* node : nodes) collect(*node);
  } else {
    for (const auto& node : sql->plan.nodes) collect(node);
  }
  return !scans.empty() && std::all_of(scans.begin(), scans.end(), [](const auto* n) { return is_delta_log_read(*n); });
}

StageTotals totals_of(const model::StageAttempt& attempt) {
  using model::TaskMetric;
  StageTotals t;
  t.executor_run_time_ms = attempt.metric(TaskMetric::kExecutorRunTimeMs);
  t.executor_cpu_time_ms = attempt.metric(TaskMetric::kExecutorCpuTimeNs) / 1'000'000;
  t.task_time_ms = attempt.metric(TaskMetric::kDurationMs);
  t.jvm_gc_time_ms = attempt.metric(TaskMetric::kJvmGcTimeMs);
  t.input_bytes = attempt.metric(TaskMetric::kInputBytes);
  t.output_bytes = attempt.metric(TaskMetric::kOutputBytes);
  t.shuffle_read_bytes = attempt.shuffle_read_bytes();
  t.shuffle_write_bytes = attempt.metric(TaskMetric::kShuffleWriteBytes);
  t.memory_spill_bytes = attempt.metric(TaskMetric::kMemoryBytesSpilled);
  t.disk_spill_bytes = attempt.metric(TaskMetric::kDiskBytesSpilled);
  t.tasks = attempt.tasks_succeeded + attempt.tasks_failed + attempt.tasks_killed + attempt.tasks_active;
  t.failed_tasks = attempt.tasks_failed;
  return t;
}

std::optional<double> skew_of(const model::StageAttempt& attempt) {
  const auto& q = attempt.quantile(model::QuantileMetric::kDurationMs);
  if (q.count < 2 || q.p50 <= 0) return std::nullopt;
  return static_cast<double>(q.max) / static_cast<double>(q.p50);
}

bool is_framework_frame(std::string_view frame) {
  static constexpr std::string_view kPrefixes[] = {
      "org.apache.spark.", "scala.", "java.", "javax.", "sun.", "jdk.", "py4j.", "java.base/", "com.databricks.",
  };
  return std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                     [&](std::string_view p) { return frame.starts_with(p); });
}

// Each stage's height in its job's graph: 0 for a stage with no parent, else one more than its
// tallest parent. Spark numbers a parent before its children, so one pass in stage-id order sees
// every parent first; skipped parents count, as their place in the graph is the same.
std::map<int64_t, int32_t> stage_heights(const model::AppModel& model) {
  std::map<int64_t, int32_t> height;
  for (const model::StageAttempt& attempt : model.stages) {
    int32_t h = 0;
    for (int64_t parent : attempt.parent_ids) {
      if (const auto it = height.find(parent); it != height.end()) h = std::max(h, it->second + 1);
    }
    height[attempt.stage_id] = std::max(height[attempt.stage_id], h);
  }
  return height;
}

}  // namespace

StageTotals& StageTotals::operator+=(const StageTotals& o) {
  executor_run_time_ms += o.executor_run_time_ms;
  executor_cpu_time_ms += o.executor_cpu_time_ms;
  task_time_ms += o.task_time_ms;
  duration_ms += o.duration_ms;
  jvm_gc_time_ms += o.jvm_gc_time_ms;
  input_bytes += o.input_bytes;
  output_bytes += o.output_bytes;
  shuffle_read_bytes += o.shuffle_read_bytes;
  shuffle_write_bytes += o.shuffle_write_bytes;
  memory_spill_bytes += o.memory_spill_bytes;
  disk_spill_bytes += o.disk_spill_bytes;
  tasks += o.tasks;
  failed_tasks += o.failed_tasks;
  return *this;
}

std::vector<std::string> user_frames(std::string_view call_site) {
  std::vector<std::string> frames;
  size_t start = 0;
  while (start < call_site.size()) {
    size_t end = call_site.find('\n', start);
    if (end == std::string_view::npos) end = call_site.size();
    std::string_view line = call_site.substr(start, end - start);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.starts_with("at ")) line.remove_prefix(3);
    // A frame is "function(File:line)"; the short call site ("count at X.scala:12") is not one.
    if (!line.empty() && line.find('(') != std::string_view::npos && !is_framework_frame(line)) {
      frames.push_back(normalize_stage_name(line));
    }
    start = end + 1;
  }
  std::sort(frames.begin(), frames.end());
  frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
  return frames;
}

RunIndex index_run(const model::AppModel& model, const ComparisonNormalizer& normalizer, TokenDictionary& dictionary) {
  RunIndex index;
  const std::map<int64_t, int32_t> heights = stage_heights(model);
  const TextNormalizer normalize = [&normalizer](std::string_view text) { return normalizer.normalize(text); };

  // Attempts of one stage are adjacent (stages are sorted by stage id, then attempt).
  for (size_t begin = 0; begin < model.stages.size();) {
    size_t end = begin;
    while (end < model.stages.size() && model.stages[end].stage_id == model.stages[begin].stage_id) ++end;
    const model::StageAttempt& latest = model.stages[end - 1];
    StageRecord stage;
    stage.stage_id = latest.stage_id;
    bool any_ran = false;
    for (size_t k = begin; k < end; ++k) {
      if (!ran(model.stages[k])) continue;
      any_ran = true;
      ++stage.attempts;
      stage.totals += totals_of(model.stages[k]);
    }
    begin = end;
    if (!any_ran) continue;
    stage.totals.duration_ms = latest.duration_ms().value_or(0);
    stage.totals.task_skew = skew_of(latest);
    stage.name = latest.name;
    stage.height = heights.at(stage.stage_id);

    const model::SqlExecution* sql = latest.sql_execution_id ? model.sql_execution(*latest.sql_execution_id) : nullptr;
    if (sql != nullptr) stage.execution_id = sql->execution_id;
    const std::vector<int32_t> node_ids =
        sql ? attributed_node_ids(model, stage.stage_id, sql->execution_id) : std::vector<int32_t>{};
    const std::vector<const model::PlanNode*> nodes =
        sql ? nodes_of(*sql, node_ids) : std::vector<const model::PlanNode*>{};
    stage.has_plan_nodes = !nodes.empty();
    stage.exact_key = exact_key_of(latest, sql, nodes, normalize);
    if (sql != nullptr) stage.structural_key = structural_forest_key(sql->plan, node_ids);
    std::string detail = normalize_stage_name(normalize(latest.name));
    // Appended piecewise: g++ 12 misreads `" " + std::string` here (-Wrestrict false positive).
    if (sql == nullptr) {
      detail += ' ';
      detail += normalize(joined_frames(latest.details));
    } else {
      for (const auto* node : nodes) {
        detail += ' ';
        detail += normalize(node->simple_string.empty() ? node->node_name : node->simple_string);
      }
    }
    stage.tokens = text_tokens(detail);
    stage.delta_bookkeeping = is_bookkeeping(sql, nodes);
    index.stages.push_back(std::move(stage));
  }

  std::map<int64_t, ExecutionRecord> by_execution;
  for (size_t i = 0; i < index.stages.size(); ++i) {
    const StageRecord& stage = index.stages[i];
    if (stage.delta_bookkeeping) {
      index.bookkeeping.push_back(i);
      continue;
    }
    index.total_run_time_ms += stage.totals.executor_run_time_ms;
    if (!stage.execution_id) {
      index.outside.stages.push_back(i);
      continue;
    }
    ExecutionRecord& execution = by_execution[*stage.execution_id];
    execution.execution_id = stage.execution_id;
    execution.stages.push_back(i);
  }

  for (auto& [id, execution] : by_execution) {
    const model::SqlExecution& sql = *model.sql_execution(id);
    std::vector<std::string> frames = user_frames(sql.details);
    for (size_t i : execution.stages) {
      const model::StageAttempt* latest = model.latest_attempt(index.stages[i].stage_id);
      if (latest == nullptr) continue;
      const auto more = user_frames(latest->details);
      frames.insert(frames.end(), more.begin(), more.end());
    }
    execution.profile.structure = dictionary.ids(plan_structure_tokens(sql.plan));
    execution.profile.frames = dictionary.ids(frames);
    execution.profile.description = dictionary.ids(text_tokens(normalizer.normalize(sql.description)));
    index.executions.push_back(std::move(execution));
  }
  return index;
}

std::string stage_identity(const model::AppModel& model, int64_t stage_id) {
  const model::StageAttempt* latest = model.latest_attempt(stage_id);
  if (latest == nullptr) return "";
  const TextNormalizer normalize = [](std::string_view text) { return analysis::normalized_plan_text(text); };
  const model::SqlExecution* sql = latest->sql_execution_id ? model.sql_execution(*latest->sql_execution_id) : nullptr;
  const auto nodes = sql ? nodes_of(*sql, attributed_node_ids(model, stage_id, sql->execution_id))
                         : std::vector<const model::PlanNode*>{};
  return exact_key_of(*latest, sql, nodes, normalize);
}

}  // namespace sf::compare

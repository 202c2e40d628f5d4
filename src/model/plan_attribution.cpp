#include "model/plan_attribution.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>

#include "model/sort_unique.h"

namespace sf::model {

namespace {

struct AccumulatorEvidence {
  std::vector<int64_t> stage_ids;
  std::optional<int64_t> total;
};

std::optional<int64_t> parse_int(std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

void add(std::optional<int64_t>& total, int64_t value) { total = total.value_or(0) + value; }

void attribute_tree(PlanTree& tree, const std::unordered_map<int64_t, AccumulatorEvidence>& evidence,
                    const std::unordered_map<int64_t, int64_t>& driver_values) {
  for (PlanNode& node : tree.nodes) {
    node.stage_ids.clear();
    for (PlanMetric& metric : node.metrics) {
      metric.value.reset();
      if (auto it = evidence.find(metric.accumulator_id); it != evidence.end()) {
        node.stage_ids.insert(node.stage_ids.end(), it->second.stage_ids.begin(), it->second.stage_ids.end());
        metric.value = it->second.total;
      }
      if (auto it = driver_values.find(metric.accumulator_id); it != driver_values.end()) add(metric.value, it->second);
    }
    sort_unique(node.stage_ids);
  }
}

}  // namespace

void attribute_plan_nodes(AppModel& model) {
  // Only accumulators that some plan names matter; collect those ids first so the evidence
  // map stays small on logs with many non-SQL accumulators.
  std::unordered_map<int64_t, AccumulatorEvidence> evidence;
  auto want = [&](const PlanTree& tree) {
    for (const PlanNode& node : tree.nodes) {
      for (const PlanMetric& metric : node.metrics) evidence.try_emplace(metric.accumulator_id);
    }
  };
  for (const SqlExecution& sql : model.sql) {
    want(sql.plan);
    for (const PlanVersion& version : sql.earlier_plans) want(version.plan);
  }
  if (evidence.empty()) return;

  for (const StageAttempt& stage : model.stages) {
    for (int64_t id : stage.accumulator_ids) {
      auto it = evidence.find(id);
      if (it == evidence.end()) continue;
      auto& ids = it->second.stage_ids;
      if (ids.empty() || ids.back() != stage.stage_id) ids.push_back(stage.stage_id);
    }
    for (const Accumulable& accumulable : stage.accumulables) {
      auto it = evidence.find(accumulable.id);
      if (it == evidence.end()) continue;
      if (auto value = parse_int(accumulable.value)) add(it->second.total, *value);
    }
  }
  for (auto& [id, e] : evidence) sort_unique(e.stage_ids);

  model.stage_plan_nodes.clear();
  for (SqlExecution& sql : model.sql) {
    std::unordered_map<int64_t, int64_t> driver_values(sql.driver_accum_updates.begin(),
                                                       sql.driver_accum_updates.end());
    attribute_tree(sql.plan, evidence, driver_values);
    for (PlanVersion& version : sql.earlier_plans) attribute_tree(version.plan, evidence, driver_values);
    for (const PlanNode& node : sql.plan.nodes) {
      for (int64_t stage_id : node.stage_ids) {
        model.stage_plan_nodes[stage_id].push_back(PlanNodeRef{sql.execution_id, node.node_id});
      }
    }
  }
}

}  // namespace sf::model

#include "report/plan_diff_json.h"

#include <nlohmann/json.hpp>

#include "compare/plan_diff.h"

namespace sf::report {

namespace {

using DiffJson = nlohmann::ordered_json;

DiffJson plan_side_json(const model::SqlExecution& x, const std::vector<compare::NodeChange>& changes,
               const std::vector<std::optional<int32_t>>& counterparts) {
  DiffJson nodes = DiffJson::array();
  for (size_t i = 0; i < x.plan.nodes.size(); ++i) {
    const model::PlanNode& n = x.plan.nodes[i];
    nodes.push_back({{"nodeId", n.node_id},
                     {"nodeName", n.node_name},
                     {"simpleString", n.simple_string},
                     {"children", n.children},
                     {"stageIds", n.stage_ids},
                     {"change", compare::to_string(changes[i])},
                     {"counterpart", counterparts[i] ? DiffJson(*counterparts[i]) : DiffJson(nullptr)}});
  }
  const auto duration = x.duration_ms();
  return {{"executionId", x.execution_id}, {"durationMs", duration ? DiffJson(*duration) : DiffJson(nullptr)}, {"nodes", nodes}};
}

DiffJson one_plan_diff_json(const model::SqlExecution& base, const model::SqlExecution& cand,
               const compare::ComparisonNormalizer& normalizer) {
  const compare::PlanDiff d = compare::diff_plans(base.plan, cand.plan, normalizer);
  // The candidate's counterparts, from the baseline's.
  std::vector<std::optional<int32_t>> cand_counterparts(cand.plan.nodes.size());
  for (size_t b = 0; b < d.base_counterpart.size(); ++b) {
    if (d.base_counterpart[b]) cand_counterparts[static_cast<size_t>(*d.base_counterpart[b])] = static_cast<int32_t>(b);
  }
  return {{"baselineExecutionId", base.execution_id},
          {"candidateExecutionId", cand.execution_id},
          {"description", base.description},
          {"counts", {{"same", d.same}, {"changed", d.changed}, {"removed", d.removed}, {"added", d.added}}},
          {"baseline", plan_side_json(base, d.base, d.base_counterpart)},
          {"candidate", plan_side_json(cand, d.cand, cand_counterparts)}};
}

}  // namespace

std::string plan_diff_json(const model::SqlExecution& base, const model::SqlExecution& cand,
                           const compare::ComparisonNormalizer& normalizer) {
  return one_plan_diff_json(base, cand, normalizer).dump();
}

std::string plan_diffs_json(const compare::Comparison& comparison, const model::AppModel& base,
                            const model::AppModel& cand, const compare::ComparisonNormalizer& normalizer,
                            size_t max_pairs) {
  DiffJson out = DiffJson::array();
  for (const compare::ExecutionPair& p : comparison.alignment.executions.pairs) {
    if (out.size() >= max_pairs) break;
    const model::SqlExecution* b = base.sql_execution(p.base_execution_id);
    const model::SqlExecution* c = cand.sql_execution(p.cand_execution_id);
    if (b != nullptr && c != nullptr) out.push_back(one_plan_diff_json(*b, *c, normalizer));
  }
  return out.dump();
}

}  // namespace sf::report

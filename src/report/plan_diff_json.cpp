#include "report/plan_diff_json.h"

#include "common/json_writer.h"
#include "compare/plan_diff.h"
#include "report/document_kind.h"

namespace sf::report {

namespace {

void write_plan_side(JsonWriter& w, std::string_view name, const model::SqlExecution& x,
                     const std::vector<compare::NodeChange>& changes,
                     const std::vector<std::optional<int32_t>>& counterparts) {
  w.object_field(name, [&] {
    w.field("executionId", x.execution_id);
    w.field("durationMs", x.duration_ms());
    w.array_field("nodes", [&] {
      for (size_t i = 0; i < x.plan.nodes.size(); ++i) {
        const model::PlanNode& n = x.plan.nodes[i];
        w.object([&] {
          w.field("nodeId", n.node_id);
          w.field("nodeName", n.node_name);
          w.field("simpleString", n.simple_string);
          w.field("children", n.children);
          w.field("stageIds", n.stage_ids);
          w.field("change", compare::to_string(changes[i]));
          w.field("counterpart", counterparts[i]);
        });
      }
    });
  });
}

// `as_document`: the object is a document of its own (the dashboard's plan diff), not one of a list.
void write_plan_diff(JsonWriter& w, const model::SqlExecution& base, const model::SqlExecution& cand,
                     const compare::ComparisonNormalizer& normalizer, bool as_document) {
  const compare::PlanDiff d = compare::diff_plans(base.plan, cand.plan, normalizer);
  // The candidate's counterparts, from the baseline's.
  std::vector<std::optional<int32_t>> cand_counterparts(cand.plan.nodes.size());
  for (size_t b = 0; b < d.base_counterpart.size(); ++b) {
    if (d.base_counterpart[b]) cand_counterparts[static_cast<size_t>(*d.base_counterpart[b])] = static_cast<int32_t>(b);
  }
  w.object([&] {
    if (as_document) write_document_kind(w, kPlanDiffDocument);
    w.field("baselineExecutionId", base.execution_id);
    w.field("candidateExecutionId", cand.execution_id);
    w.field("description", base.description);
    w.object_field("counts", [&] {
      w.field("same", d.same);
      w.field("changed", d.changed);
      w.field("removed", d.removed);
      w.field("added", d.added);
    });
    write_plan_side(w, "baseline", base, d.base, d.base_counterpart);
    write_plan_side(w, "candidate", cand, d.cand, cand_counterparts);
  });
}

}  // namespace

std::string plan_diff_json(const model::SqlExecution& base, const model::SqlExecution& cand,
                           const compare::ComparisonNormalizer& normalizer) {
  std::string out;
  JsonWriter w(out);
  write_plan_diff(w, base, cand, normalizer, true);
  return out;
}

std::string plan_diffs_json(const compare::Comparison& comparison, const model::AppModel& base,
                            const model::AppModel& cand, const compare::ComparisonNormalizer& normalizer,
                            size_t max_pairs) {
  std::string out;
  JsonWriter w(out);
  size_t written = 0;
  w.array([&] {
    for (const compare::ExecutionPair& p : comparison.alignment.executions.pairs) {
      if (written >= max_pairs) break;
      const model::SqlExecution* b = base.sql_execution(p.base_execution_id);
      const model::SqlExecution* c = cand.sql_execution(p.cand_execution_id);
      if (b != nullptr && c != nullptr) {
        write_plan_diff(w, *b, *c, normalizer, false);
        ++written;
      }
    }
  });
  return out;
}

}  // namespace sf::report

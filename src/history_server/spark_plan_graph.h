// An SQL execution's plan as the History Server draws and serves it (sql/[id]?details=true): Spark's
// SparkPlanGraph of the plan tree, and SQL metric values in the text Spark shows them in.
//
// The graph numbers its nodes as SparkPlanGraph.buildSparkPlanGraphNode does, in one preorder
// walk: a WholeStageCodegen operator becomes a cluster node holding the operators it fused; an
// InputAdapter, a query stage wrapper (BroadcastQueryStage, ShuffleQueryStage, TableCacheQueryStage,
// ResultQueryStage) and a ReusedSubquery are not drawn, their child is; a ReusedExchange (and a
// reused query stage or Subquery) is an edge to the exchange it reuses, found by equal subtree
// (operator name, description and children); edges run from child to parent.
//
// Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/app_model.h"

namespace sf::history_server {

struct SparkPlanGraphNode {
  int64_t id = 0;
  const model::PlanNode* plan = nullptr;  // the operator it draws (a cluster: the WholeStageCodegen)
  // The codegen stage of an operator inside a WholeStageCodegen cluster ("WholeStageCodegen (3)": 3).
  std::optional<int64_t> whole_stage_codegen_id;
};

struct SparkPlanGraphEdge {
  int64_t from_id = 0;  // the child
  int64_t to_id = 0;    // the parent
};

struct SparkPlanGraph {
  std::vector<SparkPlanGraphNode> nodes;  // every node and cluster, by id
  std::vector<SparkPlanGraphEdge> edges;  // in the order Spark adds them
};

SparkPlanGraph spark_plan_graph(const model::PlanTree& plan);

// A metric's value as Spark shows one value of it: a sum with US digit grouping ("100,000"), a
// size in binary units ("1024.1 KiB"), a time ("37 ms", "1.7 s", "2.5 m", "1.25 h"; nsTiming in
// nanoseconds, shown in milliseconds), an average in tenths ("1.5"), an unset value (-1) of these
// as 0, a DataSource V2 custom metric "N/A" (Spark shows it through its class, "N/A" when it
// cannot load it), any other type (Databricks' "count") as "[unknown] 127", as Spark does.
std::string format_sql_metric_value(std::string_view metric_type, int64_t value);

}  // namespace sf::history_server

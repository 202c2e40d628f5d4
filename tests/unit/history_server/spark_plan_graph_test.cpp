// The SQL plan graph and metric text of sql/[id]?details=true, against what Spark's History Server
// answered for the same plans (the corpus's app-20200706201101-0003, execution 0; the rest from
// SparkPlanGraph's rules and Spark's Utils formatting).
#include "history_server/spark_plan_graph.h"
#include "history_server/sql_metric_values.h"

#include <gtest/gtest.h>

namespace sf::history_server {
namespace {

// A plan tree in preorder from (name, children) pairs.
model::PlanTree plan_of(const std::vector<std::pair<std::string, std::vector<int32_t>>>& operators) {
  model::PlanTree tree;
  for (size_t i = 0; i < operators.size(); ++i) {
    model::PlanNode node;
    node.node_id = static_cast<int32_t>(i);
    node.node_name = operators[i].first;
    node.simple_string = operators[i].first + " #" + std::to_string(i);
    node.children = operators[i].second;
    tree.nodes.push_back(node);
  }
  return tree;
}

std::vector<std::pair<int64_t, int64_t>> edges_of(const SparkPlanGraph& graph) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const SparkPlanGraphEdge& e : graph.edges) out.emplace_back(e.from_id, e.to_id);
  return out;
}

TEST(SparkPlanGraph, CodegenClustersAndInputAdaptersAsTheHistoryServerDrawsThem) {
  const model::PlanTree plan = plan_of({
      {"DeserializeToObject", {1}},    // 0
      {"WholeStageCodegen (2)", {2}},  // 1
      {"BroadcastHashJoin", {3, 11}},  // 2
      {"InputAdapter", {4}},           // 3
      {"BroadcastExchange", {5}},      // 4
      {"WholeStageCodegen (1)", {6}},  // 5
      {"BroadcastHashJoin", {7, 8}},   // 6
      {"LocalTableScan", {}},          // 7
      {"InputAdapter", {9}},           // 8
      {"BroadcastExchange", {10}},     // 9
      {"LocalTableScan", {}},          // 10
      {"LocalTableScan", {}},          // 11
  });
  const SparkPlanGraph graph = spark_plan_graph(plan);
  // Spark's answer: ids 0..9, the clusters 1 and 4, each operator's codegen stage.
  struct Expected {
    int64_t id;
    std::string name;
    std::optional<int64_t> codegen;
  };
  const std::vector<Expected> expected = {
      {0, "DeserializeToObject", std::nullopt},
      {1, "WholeStageCodegen (2)", std::nullopt},
      {2, "BroadcastHashJoin", 2},
      {3, "BroadcastExchange", std::nullopt},
      {4, "WholeStageCodegen (1)", std::nullopt},
      {5, "BroadcastHashJoin", 1},
      {6, "LocalTableScan", 1},
      {7, "BroadcastExchange", std::nullopt},
      {8, "LocalTableScan", std::nullopt},
      {9, "LocalTableScan", 2},
  };
  ASSERT_EQ(graph.nodes.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(graph.nodes[i].id, expected[i].id);
    EXPECT_EQ(graph.nodes[i].plan->node_name, expected[i].name) << i;
    EXPECT_EQ(graph.nodes[i].whole_stage_codegen_id, expected[i].codegen) << i;
  }
  const std::vector<std::pair<int64_t, int64_t>> spark_edges = {{2, 0}, {3, 2}, {5, 3}, {6, 5}, {7, 5}, {8, 7}, {9, 2}};
  EXPECT_EQ(edges_of(graph), spark_edges);
}

TEST(SparkPlanGraph, AReusedExchangeIsAnEdgeToTheExchangeItReuses) {
  const model::PlanTree plan = plan_of({
      {"SortMergeJoin", {1, 4}},  // 0
      {"ShuffleExchange", {2}},   // 1
      {"Project", {3}},           // 2
      {"Scan", {}},               // 3
      {"ReusedExchange", {5}},    // 4
      {"ShuffleExchange", {6}},   // 5: equal to 1's subtree (names and descriptions below differ)
      {"Project", {7}},           // 6
      {"Scan", {}},               // 7
  });
  model::PlanTree reused = plan;
  for (size_t i : {5, 6, 7}) reused.nodes[i].simple_string = plan.nodes[i - 4].simple_string;
  const SparkPlanGraph graph = spark_plan_graph(reused);
  EXPECT_EQ(graph.nodes.size(), 4u);
  const std::vector<std::pair<int64_t, int64_t>> edges = {{1, 0}, {2, 1}, {3, 2}, {1, 0}};
  EXPECT_EQ(edges_of(graph), edges);
  // A ReusedExchange whose exchange was not drawn is drawn itself, with its subtree.
  EXPECT_EQ(spark_plan_graph(plan).nodes.size(), 8u);
}

TEST(SparkPlanGraph, QueryStagesAndReusedSubqueriesAreNotDrawnTheirChildrenAre) {
  const model::PlanTree plan = plan_of({
      {"AdaptiveSparkPlan", {1}},  // 0
      {"ShuffleQueryStage", {2}},  // 1
      {"Exchange", {3}},           // 2
      {"ReusedSubquery", {4}},     // 3
      {"Subquery", {}},            // 4
  });
  const SparkPlanGraph graph = spark_plan_graph(plan);
  ASSERT_EQ(graph.nodes.size(), 3u);
  EXPECT_EQ(graph.nodes[1].plan->node_name, "Exchange");
  EXPECT_EQ(graph.nodes[2].plan->node_name, "Subquery");
  const std::vector<std::pair<int64_t, int64_t>> edges = {{1, 0}, {2, 1}};
  EXPECT_EQ(edges_of(graph), edges);
}

TEST(SqlMetricText, OneValueAsSparkFormatsIt) {
  // From the History Server's answer for the plan above, and Spark's Utils formatting rules.
  EXPECT_EQ(format_sql_metric_value("sum", 6000000), "6,000,000");
  EXPECT_EQ(format_sql_metric_value("sum", 20), "20");
  EXPECT_EQ(format_sql_metric_value("size", 1048678), "1024.1 KiB");
  EXPECT_EQ(format_sql_metric_value("size", 2047), "2047.0 B");
  EXPECT_EQ(format_sql_metric_value("size", 2048), "2.0 KiB");
  EXPECT_EQ(format_sql_metric_value("size", 5LL << 30), "5.0 GiB");
  EXPECT_EQ(format_sql_metric_value("timing", 37), "37 ms");
  // Spark divides the time as a Float: 1.65f is 1.6499999761581420 (the History Server showed
  // 1150 ms as "1.1 s"); half up on the digits of that.
  EXPECT_EQ(format_sql_metric_value("timing", 1650), "1.6 s");
  EXPECT_EQ(format_sql_metric_value("timing", 1150), "1.1 s");
  EXPECT_EQ(format_sql_metric_value("timing", 1651), "1.7 s");
  EXPECT_EQ(format_sql_metric_value("timing", 1649), "1.6 s");
  EXPECT_EQ(format_sql_metric_value("timing", 59'999), "60.0 s");
  EXPECT_EQ(format_sql_metric_value("timing", 90000), "1.5 m");
  EXPECT_EQ(format_sql_metric_value("timing", 5400000), "1.50 h");
  EXPECT_EQ(format_sql_metric_value("nsTiming", 2'500'000'000), "2.5 s");
  EXPECT_EQ(format_sql_metric_value("average", 15), "1.5");
  EXPECT_EQ(format_sql_metric_value("average", 123450), "12,345");
  EXPECT_EQ(format_sql_metric_value("size", -1), "0.0 B");  // unset
  EXPECT_EQ(format_sql_metric_value("sum", -1), "-1");
  EXPECT_EQ(format_sql_metric_value("count", 127), "[unknown] 127");
  EXPECT_EQ(format_sql_metric_value("v2Custom_org.example.Metric", 3), "N/A");
}

// SQLMetrics.stringValue over every value reported, in the texts the History Server answered for
// the corpus's logs (tests/history_server compares them all).
TEST(SparkMetricText, OneValueIsShownAloneSeveralWithTheirSpread) {
  const SqlMetricMaxTask task19{1, 0, 19};
  EXPECT_EQ(spark_metric_text("sum", {1, 2, 3, 0}, std::nullopt), "6");
  EXPECT_EQ(spark_metric_text("timing", {37}, task19), "37 ms");
  EXPECT_EQ(spark_metric_text("timing", {}, std::nullopt), "0 ms");
  // Unset (-1) values do not count: one value left is shown alone.
  EXPECT_EQ(spark_metric_text("size", {-1, -1, 2048}, task19), "2.0 KiB");
  EXPECT_EQ(spark_metric_text("timing", {20, 21, 0, 20}, task19),
            "total (min, med, max (stageId: taskId))\n61 ms (0 ms, 20 ms, 21 ms (stage 1.0: task 19))");
  EXPECT_EQ(spark_metric_text("timing", {5, 7}, std::nullopt),
            "total (min, med, max (stageId: taskId))\n12 ms (5 ms, 7 ms, 7 ms (driver))");
  // An average counts values above 0 only, and shows no total.
  EXPECT_EQ(spark_metric_text("average", {10, 0, 10, 10}, SqlMetricMaxTask{0, 0, 6}),
            "(min, med, max (stageId: taskId)):\n(1, 1, 1 (stage 0.0: task 6))");
  EXPECT_EQ(spark_metric_text("average", {0, 15}, task19), "1.5");
  EXPECT_EQ(spark_metric_text("v2Custom_org.example.Metric", {1, 2}, task19), "N/A");
}

}  // namespace
}  // namespace sf::history_server

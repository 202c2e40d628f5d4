// diff_plans: which operators of two final plans are the same, changed, removed or added.
#include "compare/plan_diff.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace sf::compare {
namespace {

struct Spec {
  std::string name;
  std::string text;
  std::vector<Spec> children;
};

// Preorder node ids, as the model numbers them.
int32_t add(model::PlanTree& tree, const Spec& spec) {
  const int32_t id = static_cast<int32_t>(tree.nodes.size());
  tree.nodes.push_back({});
  tree.nodes.back().node_id = id;
  tree.nodes.back().node_name = spec.name;
  tree.nodes.back().simple_string = spec.text.empty() ? spec.name : spec.text;
  std::vector<int32_t> children;
  for (const Spec& child : spec.children) children.push_back(add(tree, child));
  tree.nodes[static_cast<size_t>(id)].children = children;
  return id;
}

model::PlanTree tree_of(const Spec& root) {
  model::PlanTree tree;
  add(tree, root);
  return tree;
}

// Each node's change by its name (names are unique in these plans).
std::map<std::string, NodeChange> by_name(const model::PlanTree& tree, const std::vector<NodeChange>& changes) {
  std::map<std::string, NodeChange> out;
  for (size_t i = 0; i < tree.nodes.size(); ++i) out[tree.nodes[i].node_name] = changes[i];
  return out;
}

Spec scan(const std::string& table, int id) {
  return {"Scan parquet " + table, "FileScan parquet " + table + "[k#" + std::to_string(id) + "]", {}};
}

TEST(PlanDiff, ASortMergeJoinThatBecameABroadcastHashJoin) {
  const model::PlanTree base = tree_of(
      {"HashAggregate",
       "HashAggregate(keys=[r#6])",
       {{"SortMergeJoin",
         "SortMergeJoin [k#1], [k#5], Inner",
         {{"Sort", "Sort [k#1 ASC]", {{"Exchange", "Exchange hashpartitioning(k#1, 200)", {scan("orders", 1)}}}},
          {"Sort (right)",
           "Sort [k#5 ASC]",
           {{"Exchange (right)", "Exchange hashpartitioning(k#5, 200)", {scan("customers", 5)}}}}}}}});
  // Expression ids renumber between runs: the normalizer takes them out.
  const model::PlanTree cand =
      tree_of({"HashAggregate",
               "HashAggregate(keys=[r#16])",
               {{"BroadcastHashJoin",
                 "BroadcastHashJoin [k#11], [k#15], Inner, BuildRight",
                 {scan("orders", 11),
                  {"BroadcastExchange", "BroadcastExchange HashedRelationBroadcastMode", {scan("customers", 15)}}}}}});
  const PlanDiff d = diff_plans(base, cand);
  const auto b = by_name(base, d.base);
  const auto c = by_name(cand, d.cand);
  EXPECT_EQ(b.at("HashAggregate"), NodeChange::kSame);
  EXPECT_EQ(b.at("SortMergeJoin"), NodeChange::kRemoved);
  EXPECT_EQ(b.at("Sort"), NodeChange::kRemoved);
  EXPECT_EQ(b.at("Exchange"), NodeChange::kRemoved);
  EXPECT_EQ(b.at("Scan parquet orders"), NodeChange::kSame);
  EXPECT_EQ(b.at("Scan parquet customers"), NodeChange::kSame);
  EXPECT_EQ(c.at("BroadcastHashJoin"), NodeChange::kAdded);
  EXPECT_EQ(c.at("BroadcastExchange"), NodeChange::kAdded);
  EXPECT_EQ(c.at("Scan parquet orders"), NodeChange::kSame);
  EXPECT_EQ(d.removed, 5u);  // the join, two sorts, two exchanges
  EXPECT_EQ(d.added, 2u);
  EXPECT_EQ(d.same, 3u);
  EXPECT_EQ(d.changed, 0u);
  // Counterparts point at the node of the same operator.
  ASSERT_TRUE(d.base_counterpart[0].has_value());
  EXPECT_EQ(cand.nodes[static_cast<size_t>(*d.base_counterpart[0])].node_name, "HashAggregate");
}

TEST(PlanDiff, AChangedFilterIsChangedNotRemovedAndAdded) {
  const model::PlanTree base = tree_of({"Project", "", {{"Filter", "Filter (amount#2 > 10)", {scan("sales", 2)}}}});
  const model::PlanTree cand = tree_of({"Project", "", {{"Filter", "Filter (amount#2 > 20)", {scan("sales", 2)}}}});
  const PlanDiff d = diff_plans(base, cand);
  EXPECT_EQ(by_name(base, d.base).at("Filter"), NodeChange::kChanged);
  EXPECT_EQ(by_name(cand, d.cand).at("Filter"), NodeChange::kChanged);
  EXPECT_EQ(d.changed, 1u);
  EXPECT_EQ(d.same, 2u);
  EXPECT_EQ(d.removed + d.added, 0u);
}

TEST(PlanDiff, TheSamePlanIsTheSameAndCodegenIdsDoNotCount) {
  const Spec plan{"Project", "", {{"WholeStageCodegen (3)", "", {{"Filter", "Filter (x#1 > 1)", {scan("t", 1)}}}}}};
  Spec renumbered = plan;
  renumbered.children[0].name = "WholeStageCodegen (7)";
  renumbered.children[0].text = "WholeStageCodegen (7)";
  const PlanDiff d = diff_plans(tree_of(plan), tree_of(renumbered));
  EXPECT_EQ(d.same, 4u);
  EXPECT_EQ(d.changed + d.removed + d.added, 0u);
}

TEST(PlanDiff, EmptyPlansAndOneSidedOnes) {
  const model::PlanTree none;
  const model::PlanTree one = tree_of(scan("t", 1));
  EXPECT_EQ(diff_plans(none, none).same, 0u);
  const PlanDiff d = diff_plans(none, one);
  EXPECT_EQ(d.added, 1u);
  EXPECT_EQ(d.cand[0], NodeChange::kAdded);
}

}  // namespace
}  // namespace sf::compare

#include "analysis/detectors/plan_fingerprints.h"

#include <algorithm>
#include <map>
#include <set>

#include "analysis/detectors/plan_text.h"

namespace sf::analysis {

namespace {

using model::PlanMetric;
using model::PlanNode;
using model::PlanTree;

// Spark's own runtime filters read the filtering side of a join a second time by design: a
// bloom-filter subquery (InjectRuntimeFilter, Spark 3.3+) aggregates the filtered side into a
// bloom filter, and a dynamic partition pruning subquery (SubqueryBroadcast) collects its keys.
// What they repeat is not the user's duplication and is not reported.
bool is_runtime_filter_subquery(const PlanTree& tree, const PlanNode& node, int32_t subtree_end) {
  const std::string_view name = node.node_name;
  if (name == "SubqueryBroadcast") return true;
  if (!name.starts_with("Subquery")) return false;
  for (int32_t id = node.node_id; id < subtree_end; ++id) {
    if (tree.nodes[static_cast<size_t>(id)].simple_string.find("bloom_filter_agg(") != std::string::npos) return true;
  }
  return false;
}

// Leaves whose text names their data only by expression ids: an RDD ("Scan[obj#7]", "Scan
// ExistingRDD[id#0L]") or local rows ("LocalTableScan [a#1]"). Two of them with normalized ids
// may read different data, and the same one used twice gets fresh ids, so their ids stay.
bool identified_by_expression_ids(const PlanNode& node) {
  const std::string_view name = node.node_name;
  return node.children.empty() && (name == "Scan" || name.starts_with("Scan ExistingRDD") || name == "LocalTableScan" ||
                                   name == "ExternalRDDScan");
}

}  // namespace

bool is_wrapper(const PlanNode& node) {
  const std::string_view name = node.node_name;
  return node.children.size() == 1 &&
         (name.starts_with("WholeStageCodegen") || name == "InputAdapter" || name == "AdaptiveSparkPlan" ||
          name.ends_with("QueryStage") || name == "ColumnarToRow" || name == "RowToColumnar" || is_photon_stage(node));
}

PlanFingerprints::PlanFingerprints(const PlanTree& tree, PlanShapes& shapes) : tree_(tree) {
  const size_t n = tree.nodes.size();
  shape_.assign(n, 0);
  work_nodes_.assign(n, 0);
  subtree_end_.assign(n, 0);
  below_reuse_ = nodes_below_reuse(tree);
  in_runtime_filter_.assign(n, false);
  // Preorder ids: children come after their parent, so a reverse sweep sees children first.
  for (size_t i = n; i-- > 0;) {
    const PlanNode& node = tree.nodes[i];
    int32_t end = static_cast<int32_t>(i) + 1;
    for (int32_t child : node.children) end = std::max(end, subtree_end_[static_cast<size_t>(child)]);
    subtree_end_[i] = end;
    if (is_wrapper(node)) {
      const auto child = static_cast<size_t>(node.children.front());
      shape_[i] = shape_[child];
      work_nodes_[i] = work_nodes_[child];
      continue;
    }
    const std::string text =
        identified_by_expression_ids(node) ? node.simple_string : normalized_plan_text(node.simple_string);
    std::string key = node.node_name + '\x1f' + text + '\x1f';
    int32_t work = 1;
    for (int32_t child : node.children) {
      key += std::to_string(shape_[static_cast<size_t>(child)]) + ',';
      if (!is_reuse_boundary(node)) work += work_nodes_[static_cast<size_t>(child)];
    }
    shape_[i] = shapes.try_emplace(std::move(key), static_cast<int32_t>(shapes.size())).first->second;
    work_nodes_[i] = work;
  }
  for (size_t i = 0; i < n; ++i) {
    if (in_runtime_filter_[i] || !is_runtime_filter_subquery(tree, tree.nodes[i], subtree_end_[i])) continue;
    for (int32_t id = static_cast<int32_t>(i); id < subtree_end_[i]; ++id) {
      in_runtime_filter_[static_cast<size_t>(id)] = true;
    }
  }
}

bool PlanFingerprints::counts_as_work(int32_t node, double min_nodes) const {
  return !is_wrapper(tree_.nodes[static_cast<size_t>(node)]) && !below_reuse(node) && !in_runtime_filter(node) &&
         work_nodes(node) >= min_nodes;
}

std::vector<int32_t> PlanFingerprints::working_nodes(int32_t root) const {
  std::vector<int32_t> nodes;
  for (int32_t id = root; id < subtree_end(root); ++id) {
    const auto i = static_cast<size_t>(id);
    const auto r = static_cast<size_t>(root);
    if ((!below_reuse_[i] || below_reuse_[r]) && (!in_runtime_filter_[i] || in_runtime_filter_[r])) nodes.push_back(id);
  }
  return nodes;
}

std::vector<int64_t> PlanFingerprints::accumulators(int32_t root) const {
  std::vector<int64_t> ids;
  for (int32_t id : working_nodes(root)) {
    for (const PlanMetric& metric : tree_.nodes[static_cast<size_t>(id)].metrics) ids.push_back(metric.accumulator_id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<RepeatedSubtree> repeated_subtrees(const std::vector<const PlanFingerprints*>& plans, double min_nodes) {
  std::map<int32_t, RepeatedSubtree> by_shape;
  for (size_t plan = 0; plan < plans.size(); ++plan) {
    for (const PlanNode& node : plans[plan]->tree().nodes) {
      const int32_t id = node.node_id;
      if (!plans[plan]->counts_as_work(id, min_nodes)) continue;
      RepeatedSubtree& group = by_shape[plans[plan]->shape(id)];
      group.work_nodes = plans[plan]->work_nodes(id);
      group.occurrences.push_back({plan, id});
    }
  }
  std::vector<RepeatedSubtree> groups;
  for (auto& [shape, group] : by_shape) {
    std::set<std::vector<int64_t>> instances;
    std::vector<SubtreeOccurrence> distinct;
    for (const SubtreeOccurrence& at : group.occurrences) {
      std::vector<int64_t> ids = plans[at.plan]->accumulators(at.root);
      if (ids.empty() || instances.insert(std::move(ids)).second) distinct.push_back(at);
    }
    if (distinct.size() < 2) continue;
    group.occurrences = std::move(distinct);
    groups.push_back(std::move(group));
  }
  std::sort(groups.begin(), groups.end(), [](const RepeatedSubtree& a, const RepeatedSubtree& b) {
    if (a.work_nodes != b.work_nodes) return a.work_nodes > b.work_nodes;
    return a.occurrences.front() < b.occurrences.front();
  });
  // Report the largest and only those smaller ones that still repeat outside it.
  std::vector<std::vector<bool>> covered;
  for (const PlanFingerprints* plan : plans) covered.emplace_back(plan->tree().nodes.size(), false);
  std::vector<RepeatedSubtree> kept;
  for (RepeatedSubtree& group : groups) {
    std::erase_if(group.occurrences,
                  [&](const SubtreeOccurrence& at) { return covered[at.plan][static_cast<size_t>(at.root)]; });
    if (group.occurrences.size() < 2) continue;
    for (const SubtreeOccurrence& at : group.occurrences) {
      for (int32_t id = at.root; id < plans[at.plan]->subtree_end(at.root); ++id) {
        covered[at.plan][static_cast<size_t>(id)] = true;
      }
    }
    kept.push_back(std::move(group));
  }
  return kept;
}

std::string subtree_outline(const PlanTree& tree, int32_t root) {
  std::string outline;
  int32_t id = root;
  for (int depth = 0; depth < 4; ++depth) {
    const PlanNode* node = &tree.nodes[static_cast<size_t>(id)];
    while (is_wrapper(*node)) node = &tree.nodes[static_cast<size_t>(node->children.front())];
    if (!outline.empty()) outline += " > ";
    outline += shortened_plan_text(node->node_name, 40);
    if (node->children.empty()) return outline;
    if (node->children.size() > 1 || depth == 3) return outline + " > ...";
    id = node->children.front();
  }
  return outline;
}

}  // namespace sf::analysis

// Which subtrees of SQL plans compute the same thing: a structural fingerprint per plan node,
// shared by the detectors of repeated work (duplicatePlanSubtree within one plan,
// cachingOpportunity across the executions of an application).
//
// A node's fingerprint is its name, its text with expression ids normalized, and its children's
// fingerprints in order, interned to a small integer in a PlanShapes table: fingerprints of two
// trees interned in one table compare across the trees. Wrappers take their child's
// fingerprint, so "WholeStageCodegen (3) > Filter" and a bare "Filter" match. Nodes below a
// reuse boundary are part of their boundary's fingerprint (so two scans of different caches
// differ) but are not work done here and never count.
//
// A PlanFingerprints refers to its tree and does not own it; it is immutable once built.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/app_model.h"

namespace sf::analysis {

// Nodes that only wrap their child for code generation, AQE bookkeeping or a columnar
// transition: they describe no work of their own.
bool is_wrapper(const model::PlanNode& node);

// The interned fingerprints: one table for the trees whose subtrees are compared.
using PlanShapes = std::unordered_map<std::string, int32_t>;

class PlanFingerprints {
 public:
  PlanFingerprints(const model::PlanTree& tree, PlanShapes& shapes);

  const model::PlanTree& tree() const { return tree_; }

  int32_t shape(int32_t node) const { return shape_[static_cast<size_t>(node)]; }
  // Operators of the subtree that run here: wrappers and reused or cached parts excluded.
  int32_t work_nodes(int32_t node) const { return work_nodes_[static_cast<size_t>(node)]; }
  // The subtree of a node is [node, subtree_end(node)) in preorder.
  int32_t subtree_end(int32_t node) const { return subtree_end_[static_cast<size_t>(node)]; }
  bool below_reuse(int32_t node) const { return below_reuse_[static_cast<size_t>(node)]; }
  // Inside a runtime filter's subquery: Spark's repetition, not the query's.
  bool in_runtime_filter(int32_t node) const { return in_runtime_filter_[static_cast<size_t>(node)]; }
  // A node that can stand for a repeated computation: not a wrapper, not below a reuse, not
  // in a runtime filter, and at least `min_nodes` operators that run here.
  bool counts_as_work(int32_t node, double min_nodes) const;

  // The nodes of a subtree that run here (wrappers included: they carry the codegen stages);
  // reused or cached parts and runtime-filter subqueries below it are not its work.
  std::vector<int32_t> working_nodes(int32_t root) const;

  // The accumulator ids of a subtree's working nodes: two occurrences with the same non-empty
  // set are one node instance listed twice, not two computations.
  std::vector<int64_t> accumulators(int32_t root) const;

 private:
  const model::PlanTree& tree_;
  std::vector<int32_t> shape_;
  std::vector<int32_t> work_nodes_;
  std::vector<int32_t> subtree_end_;
  std::vector<bool> below_reuse_;
  std::vector<bool> in_runtime_filter_;
};

// One occurrence of a subtree: the plan it is in (an index into the plans given) and its root.
struct SubtreeOccurrence {
  size_t plan = 0;
  int32_t root = 0;
  auto operator<=>(const SubtreeOccurrence&) const = default;
};

struct RepeatedSubtree {
  int32_t work_nodes = 0;
  std::vector<SubtreeOccurrence> occurrences;  // by plan, then preorder
};

// The subtrees of at least `min_nodes` operators that occur more than once in `plans` (their
// fingerprints interned in one PlanShapes), each occurrence a distinct computation, largest
// first. A repeated subtree contains smaller repeated subtrees: only the occurrences outside the
// larger ones are kept, and a group left with one is dropped, so each group is one repetition.
std::vector<RepeatedSubtree> repeated_subtrees(const std::vector<const PlanFingerprints*>& plans, double min_nodes);

// "Project > Filter > Scan parquet": the first operators of a subtree, wrappers skipped.
std::string subtree_outline(const model::PlanTree& tree, int32_t root);

}  // namespace sf::analysis

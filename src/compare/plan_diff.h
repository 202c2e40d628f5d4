// The plan diff of a paired SQL execution: which operators of the two final plans are the same,
// which changed, and which exist on one side only (a sort-merge join that became a broadcast
// hash join: the join, its sorts and exchanges removed, the broadcast join and its broadcast
// exchange added, the scans under them the same).
//
// Nodes are compared as the stage alignment compares them: the name with digit runs collapsed
// (normalize_stage_name) and the text through the ComparisonNormalizer (expression ids,
// staging directories, dates, IN lists, the caller's patterns). Two passes:
//   1. identical subtrees (name, text and every descendant alike) pair whole, largest first
//      (preorder), each with the first unpaired identical subtree of the candidate;
//   2. from every pair, top down: the unpaired children of a pair of nodes pair by name, in
//      order (longest common subsequence of their names); a node paired here whose text differs
//      is "changed".
// Whatever is left is "removed" (baseline only) or "added" (candidate only). WholeStageCodegen
// and InputAdapter wrappers are never "changed": their ids renumber whenever the plan does.
// Pure function; the two trees are read, not kept.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "compare/normalize.h"
#include "model/app_model.h"

namespace sf::compare {

enum class NodeChange { kSame, kChanged, kRemoved, kAdded };
std::string_view to_string(NodeChange change);  // same, changed, removed, added

struct PlanDiff {
  std::vector<NodeChange> base;                          // by baseline node id
  std::vector<NodeChange> cand;                          // by candidate node id
  std::vector<std::optional<int32_t>> base_counterpart;  // the candidate node each baseline node paired with
  size_t same = 0;
  size_t changed = 0;
  size_t removed = 0;
  size_t added = 0;
};

PlanDiff diff_plans(const model::PlanTree& base, const model::PlanTree& cand,
                    const ComparisonNormalizer& normalizer = {});

}  // namespace sf::compare

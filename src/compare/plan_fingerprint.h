// Fingerprints of SQL plan nodes: what the stage keys and the execution profiles are made of.
//
// Stable across processes and platforms (FNV-1a over normalized text, written as 16 hex
// digits), so the same plans give the same keys in every run of the program.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/app_model.h"

namespace sf::compare {

using TextNormalizer = std::function<std::string(std::string_view)>;

// 64-bit FNV-1a of `text`, as 16 lowercase hex digits.
std::string fingerprint(std::string_view text);

// The final-plan nodes the stage's tasks were attributed to, in node-id order (empty when the
// stage has no attribution).
std::vector<const model::PlanNode*> plan_nodes_of_stage(const model::AppModel& model, int64_t stage_id);

// WholeStageCodegen and InputAdapter wrap operators without being work of their own.
bool is_codegen_or_input_adapter(const model::PlanNode& node);

// Attribute names a node's text mentions ("name#12" references, without the id), sorted and
// distinct. Literals never enter: only names followed by an expression id count.
std::vector<std::string> attribute_names(std::string_view text);

// Fingerprint of the attributed nodes' normalized text, in node-id order.
std::string attributed_nodes_fingerprint(const std::vector<const model::PlanNode*>& nodes,
                                         const TextNormalizer& normalize);

// Bottom-up structural fingerprint of a whole plan tree: each node's normalized name and its
// children's fingerprints.
std::string plan_tree_fingerprint(const model::PlanTree& plan, const TextNormalizer& normalize);

// The structural key of a set of nodes of `plan`: the forest they form (each node's nearest
// kept ancestor is its parent), every node as its name without digits, its sorted attribute
// names and its children's digests; codegen and input-adapter nodes skipped. "" when `node_ids`
// is empty.
std::string structural_forest_key(const model::PlanTree& plan, const std::vector<int32_t>& node_ids);

// Operator and attribute tokens of a whole plan ("op:filter", "attr:customer_id"), codegen and
// input-adapter nodes skipped: the structure part of an execution profile.
std::vector<std::string> plan_structure_tokens(const model::PlanTree& plan);

// A scan of the Delta transaction log or its checkpoints (DeltaLogFileIndex, a _delta_log path).
bool is_delta_log_read(const model::PlanNode& node);

}  // namespace sf::compare

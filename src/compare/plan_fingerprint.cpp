#include "compare/plan_fingerprint.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "analysis/detectors/plan_text.h"
#include "compare/normalize.h"

namespace sf::compare {

namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$'; }

// The digests of the forest that the kept nodes under `node_id` (itself included) form.
void forest_digests(const model::PlanTree& plan, int32_t node_id, const std::set<int32_t>& kept,
                    std::vector<std::string>& out) {
  if (node_id < 0 || static_cast<size_t>(node_id) >= plan.nodes.size()) return;
  const model::PlanNode& node = plan.nodes[static_cast<size_t>(node_id)];
  std::vector<std::string> children;
  for (int32_t child : node.children) forest_digests(plan, child, kept, children);
  if (!kept.count(node_id) || is_codegen_or_input_adapter(node)) {
    out.insert(out.end(), children.begin(), children.end());
    return;
  }
  std::string text = normalize_stage_name(node.node_name) + "[";
  for (const auto& name : attribute_names(node.simple_string)) text += name + ",";
  text += "](";
  for (const auto& child : children) text += child + ",";
  text += ")";
  out.push_back(fingerprint(text));
}

std::string tree_digest(const model::PlanTree& plan, int32_t node_id, const TextNormalizer& normalize, int depth) {
  if (node_id < 0 || static_cast<size_t>(node_id) >= plan.nodes.size() || depth > 10'000) return "";
  const model::PlanNode& node = plan.nodes[static_cast<size_t>(node_id)];
  std::string text = normalize(node.node_name) + "(";
  for (int32_t child : node.children) text += tree_digest(plan, child, normalize, depth + 1) + ",";
  return fingerprint(text + ")");
}

}  // namespace

std::string fingerprint(std::string_view text) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return fmt::format("{:016x}", hash);
}

std::vector<const model::PlanNode*> plan_nodes_of_stage(const model::AppModel& model, int64_t stage_id) {
  std::vector<const model::PlanNode*> nodes;
  const auto it = model.stage_plan_nodes.find(stage_id);
  if (it == model.stage_plan_nodes.end()) return nodes;
  for (const auto& ref : it->second) {
    const model::SqlExecution* sql = model.sql_execution(ref.execution_id);
    if (sql == nullptr || ref.node_id < 0 || static_cast<size_t>(ref.node_id) >= sql->plan.nodes.size()) continue;
    nodes.push_back(&sql->plan.nodes[static_cast<size_t>(ref.node_id)]);
  }
  return nodes;
}

bool is_codegen_or_input_adapter(const model::PlanNode& node) {
  const std::string_view name = node.node_name;
  return name.starts_with("WholeStageCodegen") || name == "InputAdapter" || name.starts_with("GpuWholeStageCodegen");
}

std::vector<std::string> attribute_names(std::string_view text) {
  std::set<std::string> names;
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    if (text[i] != '#' || !std::isdigit(static_cast<unsigned char>(text[i + 1]))) continue;
    size_t start = i;
    while (start > 0 && is_name_char(text[start - 1])) --start;
    if (start < i) names.emplace(text.substr(start, i - start));
  }
  return {names.begin(), names.end()};
}

std::string attributed_nodes_fingerprint(const std::vector<const model::PlanNode*>& nodes,
                                         const TextNormalizer& normalize) {
  std::string text;
  for (const model::PlanNode* node : nodes) {
    text += normalize(node->simple_string.empty() ? node->node_name : node->simple_string);
    text += '\n';
  }
  return fingerprint(text);
}

std::string plan_tree_fingerprint(const model::PlanTree& plan, const TextNormalizer& normalize) {
  if (plan.empty()) return fingerprint("");
  return tree_digest(plan, 0, normalize, 0);
}

std::string structural_forest_key(const model::PlanTree& plan, const std::vector<int32_t>& node_ids) {
  if (node_ids.empty() || plan.empty()) return "";
  const std::set<int32_t> kept(node_ids.begin(), node_ids.end());
  std::vector<std::string> roots;
  forest_digests(plan, 0, kept, roots);
  if (roots.empty()) return "";
  std::string text;
  for (const auto& root : roots) text += root + ";";
  return fingerprint(text);
}

std::vector<std::string> plan_structure_tokens(const model::PlanTree& plan) {
  std::set<std::string> tokens;
  for (const auto& node : plan.nodes) {
    if (is_codegen_or_input_adapter(node)) continue;
    tokens.insert("op:" + normalize_stage_name(node.node_name));
    for (const auto& name : attribute_names(node.simple_string)) tokens.insert("attr:" + name);
  }
  return {tokens.begin(), tokens.end()};
}

bool is_delta_log_read(const model::PlanNode& node) {
  if (!analysis::is_source_scan(node)) return false;
  auto mentions_log = [](std::string_view text) {
    return text.find("DeltaLogFileIndex") != std::string_view::npos ||
           text.find("_delta_log") != std::string_view::npos;
  };
  if (mentions_log(node.node_name) || mentions_log(node.simple_string)) return true;
  const std::string* location = analysis::metadata_value(node, "Location");
  return location != nullptr && mentions_log(*location);
}

}  // namespace sf::compare

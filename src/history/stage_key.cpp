#include "history/stage_key.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cctype>
#include <vector>

#include "analysis/plan_text.h"

namespace sf::history {

namespace {

bool is_hex(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

std::string short_hash(const std::string& text) {
  return fmt::format("{:012x}", XXH3_64bits(text.data(), text.size()) >> 16);
}

std::string node_identity(const model::PlanNode& node) {
  return node.node_name + '\x1f' + analysis::normalized_plan_text(node.simple_string);
}

// Bottom-up structure of the whole tree: each node's identity with its children's, in order.
std::string tree_fingerprint_text(const model::PlanTree& tree) {
  std::vector<std::string> text(tree.nodes.size());
  for (size_t i = tree.nodes.size(); i-- > 0;) {
    const model::PlanNode& node = tree.nodes[i];
    std::string t = node_identity(node) + '(';
    for (int32_t child : node.children) {
      if (child >= 0 && static_cast<size_t>(child) < text.size()) t += text[static_cast<size_t>(child)] + ',';
    }
    text[i] = t + ')';
  }
  return text.empty() ? std::string() : text.front();
}

}  // namespace

std::string normalized_stage_name(std::string_view name) {
  std::string out;
  for (size_t i = 0; i < name.size();) {
    // A run of 8+ hex characters with a digit in it is an id (a hash, a uuid piece).
    size_t j = i;
    bool digit = false;
    while (j < name.size() && is_hex(name[j])) digit |= std::isdigit(static_cast<unsigned char>(name[j++])) != 0;
    if (j - i >= 8 && digit) {
      out += '#';
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(name[i])) != 0) {
      while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])) != 0) ++i;
      out += '#';
      continue;
    }
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(name[i++])));
  }
  return out;
}

std::string stage_key(const model::StageAttempt& stage, const model::AppModel& app) {
  const std::string name = normalized_stage_name(stage.name);
  const model::SqlExecution* execution = stage.sql_execution_id ? app.sql_execution(*stage.sql_execution_id) : nullptr;
  if (execution == nullptr) return name + "@noplan";
  std::vector<std::string> attributed;
  if (auto it = app.stage_plan_nodes.find(stage.stage_id); it != app.stage_plan_nodes.end()) {
    for (const model::PlanNodeRef& ref : it->second) {
      if (ref.execution_id != execution->execution_id || ref.node_id < 0) continue;
      const auto index = static_cast<size_t>(ref.node_id);
      if (index < execution->plan.nodes.size()) attributed.push_back(node_identity(execution->plan.nodes[index]));
    }
  }
  std::sort(attributed.begin(), attributed.end());
  std::string identity;
  for (const std::string& a : attributed) identity += a + '\x1e';
  if (identity.empty()) identity = tree_fingerprint_text(execution->plan);
  return identity.empty() ? name + "@noplan" : name + "@" + short_hash(identity);
}

std::string sql_execution_key(const model::SqlExecution& execution) {
  std::string description = normalized_stage_name(execution.description);
  if (description.size() > 60) description.resize(60);
  const std::string plan = tree_fingerprint_text(execution.plan);
  return description + "@" + (plan.empty() ? std::string("noplan") : short_hash(plan));
}

}  // namespace sf::history

#include "analysis/plan_text.h"

#include <algorithm>
#include <cctype>

namespace sf::analysis {

std::string normalized_plan_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const char c = text[i++];
    out += c;
    if (c == '#' || (c == '=' && out.ends_with("plan_id="))) {
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    }
  }
  return out;
}

bool is_source_scan(const model::PlanNode& node) {
  const std::string_view name = node.node_name;
  if (name.starts_with("Scan ExistingRDD") || name.starts_with("Scan OneRowRelation")) return false;
  return name.starts_with("Scan ") || name.starts_with("GpuScan ") || name.starts_with("BatchScan");
}

bool is_shuffle_exchange(const model::PlanNode& node) {
  const std::string_view name = node.node_name;
  return name.ends_with("Exchange") && !name.ends_with("BroadcastExchange") && !name.starts_with("Reused");
}

bool is_shuffled_join(const model::PlanNode& node) {
  const std::string_view name = node.node_name;
  return name.ends_with("SortMergeJoin") || name.ends_with("ShuffledHashJoin");
}

bool is_adaptive(const model::PlanTree& plan) {
  return std::any_of(plan.nodes.begin(), plan.nodes.end(),
                     [](const model::PlanNode& node) { return node.node_name == "AdaptiveSparkPlan"; });
}

std::optional<int64_t> metric_value(const model::PlanNode& node, std::initializer_list<std::string_view> names) {
  for (std::string_view name : names) {
    for (const model::PlanMetric& metric : node.metrics) {
      if (metric.name == name && metric.value) return metric.value;
    }
  }
  return std::nullopt;
}

const std::string* metadata_value(const model::PlanNode& node, std::string_view key) {
  for (const auto& [k, v] : node.metadata) {
    if (k == key) return &v;
  }
  return nullptr;
}

}  // namespace sf::analysis

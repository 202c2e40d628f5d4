#include "analysis/detectors/plan_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

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

std::string readable_plan_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text.substr(i).starts_with(", [plan_id=") || text.substr(i).starts_with(", [id=#")) {
      const size_t close = text.find(']', i);
      if (close != std::string_view::npos) {
        i = close + 1;
        continue;
      }
    }
    const char c = text[i++];
    if (c != '#') {
      out += c;
      continue;
    }
    // An expression id: #, digits, and the L a long id ends with.
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i < text.size() && text[i] == 'L') ++i;
  }
  return out;
}

std::string shortened_plan_text(std::string_view text, size_t limit) {
  std::string out(text.substr(0, text.find('\n')));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.size() > limit) out = out.substr(0, limit - 1) + "~";
  return out;
}

namespace {

// Photon's operators are Spark's with a prefix ("PhotonScan parquet ", "PhotonShuffledHashJoin");
// a shuffle is two nodes, the writing sink and the reading source.
constexpr std::string_view kPhoton = "Photon";
constexpr std::string_view kPhotonShuffleSink = "ShuffleExchangeSink";
constexpr std::string_view kPhotonShuffleSource = "ShuffleExchangeSource";

bool is_photon_shuffle_side(std::string_view name) {
  return name.starts_with(kPhoton) && (name.ends_with(kPhotonShuffleSink) || name.ends_with(kPhotonShuffleSource));
}

}  // namespace

bool is_source_scan(const model::PlanNode& node) {
  std::string_view name = node.node_name;
  if (name.starts_with("Gpu")) name.remove_prefix(3);
  if (name.starts_with(kPhoton)) name.remove_prefix(kPhoton.size());
  if (name.starts_with("Scan ExistingRDD") || name.starts_with("Scan OneRowRelation")) return false;
  return name.starts_with("Scan ") || name.starts_with("BatchScan");
}

bool is_photon_stage(const model::PlanNode& node) {
  const std::string_view name = node.node_name;
  return name.starts_with(kPhoton) && (name.ends_with("MapStage") || name.ends_with("ResultStage"));
}

bool is_shuffle_exchange(const model::PlanNode& node) {
  const std::string_view name = node.node_name;
  if (name.starts_with(kPhoton) && name.ends_with(kPhotonShuffleSink)) return true;
  return name.ends_with("Exchange") && !name.ends_with("BroadcastExchange") && !name.starts_with("Reused");
}

bool is_shuffled_join(const model::PlanNode& node) {
  const std::string_view name = node.node_name;
  return name.ends_with("SortMergeJoin") || name.ends_with("ShuffledHashJoin") || name == "PhotonShuffleHashJoin";
}

bool is_adaptive(const model::PlanTree& plan) {
  return std::any_of(plan.nodes.begin(), plan.nodes.end(),
                     [](const model::PlanNode& node) { return node.node_name == "AdaptiveSparkPlan"; });
}

bool is_streaming_batch(const model::SqlExecution& sql) {
  if (sql.description.find("runId = ") != std::string::npos) return true;
  return std::any_of(sql.plan.nodes.begin(), sql.plan.nodes.end(), [](const model::PlanNode& node) {
    return node.node_name.starts_with("MicroBatchScan") || node.node_name.starts_with("StateStore") ||
           node.simple_string.find("MicroBatchWrite") != std::string::npos;
  });
}

std::optional<int64_t> metric_value(const model::PlanNode& node, MetricNames names) {
  for (std::string_view name : names) {
    for (const model::PlanMetric& metric : node.metrics) {
      if (metric.name == name && metric.value) return metric.value;
    }
  }
  return std::nullopt;
}

std::optional<int64_t> metric_accumulator(const model::PlanNode& node, MetricNames names) {
  for (std::string_view name : names) {
    for (const model::PlanMetric& metric : node.metrics) {
      if (metric.name == name) return metric.accumulator_id;
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

bool is_reuse_boundary(const model::PlanNode& node) {
  const std::string_view name = node.node_name;
  return name.starts_with("Reused") || name == "InMemoryTableScan";
}

std::vector<bool> nodes_below_reuse(const model::PlanTree& tree) {
  // Preorder ids: a parent comes before its children.
  std::vector<bool> below(tree.nodes.size(), false);
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    const model::PlanNode& node = tree.nodes[i];
    for (int32_t child : node.children) below[static_cast<size_t>(child)] = below[i] || is_reuse_boundary(node);
  }
  return below;
}

bool is_pipeline_boundary(const model::PlanNode& node) {
  const std::string_view name = node.node_name;
  return name.ends_with("Exchange") || name.ends_with("QueryStage") || name.starts_with("Subquery") ||
         name.starts_with("ReusedSubquery") || is_photon_shuffle_side(name);
}

std::vector<int64_t> pipeline_stage_ids(const model::PlanTree& tree, int32_t node_id) {
  const auto& nodes = tree.nodes;
  if (node_id < 0 || static_cast<size_t>(node_id) >= nodes.size()) return {};
  const model::PlanNode& node = nodes[static_cast<size_t>(node_id)];
  if (!node.stage_ids.empty()) return node.stage_ids;
  std::vector<int32_t> parent(nodes.size(), -1);
  for (const model::PlanNode& n : nodes) {
    for (int32_t child : n.children) parent[static_cast<size_t>(child)] = n.node_id;
  }
  std::vector<int64_t> ids;
  auto take = [&](const model::PlanNode& n) { ids.insert(ids.end(), n.stage_ids.begin(), n.stage_ids.end()); };
  // Down: the node's inputs in the same pipeline.
  std::vector<int32_t> pending(node.children.begin(), node.children.end());
  while (!pending.empty()) {
    const model::PlanNode& n = nodes[static_cast<size_t>(pending.back())];
    pending.pop_back();
    if (is_pipeline_boundary(n)) continue;
    take(n);
    pending.insert(pending.end(), n.children.begin(), n.children.end());
  }
  // Up: the operators that consume it in the same pipeline.
  for (int32_t up = parent[static_cast<size_t>(node_id)]; up >= 0; up = parent[static_cast<size_t>(up)]) {
    const model::PlanNode& n = nodes[static_cast<size_t>(up)];
    if (is_pipeline_boundary(n)) break;
    take(n);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

namespace {

// The first of `names` the node has a metric for (whether or not anything reported it).
const model::PlanMetric* first_metric(const model::PlanNode& node, MetricNames names) {
  for (std::string_view name : names) {
    for (const model::PlanMetric& m : node.metrics) {
      if (m.name == name) return &m;
    }
  }
  return nullptr;
}

// Spark's nanosecond timings, read in ms like its other timings.
double unit_of(const model::PlanMetric& metric) { return metric.metric_type == "nsTiming" ? 1e-6 : 1.0; }

}  // namespace

std::vector<StageMetricPart> metric_parts_by_stage(const model::AppModel& model, const model::PlanNode& node,
                                                   MetricNames names) {
  const model::PlanMetric* metric = first_metric(node, names);
  if (metric == nullptr) return {};
  struct Logged {
    int64_t completed_ms;
    const model::StageAttempt* stage;
    int64_t running_total;
  };
  std::vector<Logged> logged;
  auto log_value = [&](const model::StageAttempt& stage) {
    auto it = std::lower_bound(stage.accumulables.begin(), stage.accumulables.end(), metric->accumulator_id,
                               [](const model::Accumulable& a, int64_t id) { return a.id < id; });
    if (it == stage.accumulables.end() || it->id != metric->accumulator_id) return;
    int64_t value = 0;
    const std::string& text = it->value;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return;
    // An attempt that never completed logged its value last.
    logged.push_back({stage.completion_time_ms.value_or(std::numeric_limits<int64_t>::max()), &stage, value});
  };
  // Only the stages the node's metrics were attributed to carry their accumulables (a stage's own
  // accumulables are among the ids it is attributed by, plan_attribution.h): looked up in the
  // stages' order, not searched for among every stage of a long application, once per node.
  for (int64_t stage_id : node.stage_ids) {
    for (const model::StageAttempt& attempt : model.attempts_of(stage_id)) log_value(attempt);
  }
  std::stable_sort(logged.begin(), logged.end(),
                   [](const Logged& a, const Logged& b) { return a.completed_ms < b.completed_ms; });
  const double unit = unit_of(*metric);
  std::vector<StageMetricPart> parts;
  int64_t before = 0;
  for (const Logged& l : logged) {
    const int64_t part = l.running_total - before;
    before = std::max(before, l.running_total);
    if (part > 0) parts.push_back({l.stage, static_cast<double>(part) * unit});
  }
  return parts;
}

std::optional<int64_t> metric_as_ran(const model::AppModel& model, const model::SqlExecution& sql,
                                     const model::PlanNode& node, MetricNames names) {
  const model::PlanMetric* metric = first_metric(node, names);
  if (metric == nullptr) return std::nullopt;
  std::optional<double> total;
  for (const StageMetricPart& part : metric_parts_by_stage(model, node, names)) total = total.value_or(0) + part.value;
  // Driver-side metrics (scan file counts, broadcast sizes and timings) are not stage work.
  for (const auto& [id, value] : sql.driver_accum_updates) {
    if (id == metric->accumulator_id) total = total.value_or(0) + static_cast<double>(value) * unit_of(*metric);
  }
  if (!total) return std::nullopt;
  return static_cast<int64_t>(std::llround(*total));
}

double stage_part(const std::vector<StageMetricPart>& parts, const model::StageAttempt* stage) {
  double sum = 0;
  for (const StageMetricPart& part : parts) sum += part.stage == stage ? part.value : 0.0;
  return sum;
}

}  // namespace sf::analysis

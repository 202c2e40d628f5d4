#include "history_server/spark_plan_graph.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>

namespace sf::history_server {

namespace {

using model::PlanNode;

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// "WholeStageCodegen (3)" -> 3, as SqlResource.getWholeStageCodegenId reads it.
std::optional<int64_t> codegen_id_of(std::string_view cluster_name) {
  constexpr std::string_view kPrefix = "WholeStageCodegen (";
  if (!starts_with(cluster_name, kPrefix) || cluster_name.size() < kPrefix.size() + 2 || cluster_name.back() != ')') {
    return std::nullopt;
  }
  const std::string_view digits = cluster_name.substr(kPrefix.size(), cluster_name.size() - kPrefix.size() - 1);
  int64_t id = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    id = id * 10 + (c - '0');
  }
  return id;
}

class GraphBuilder {
 public:
  explicit GraphBuilder(const model::PlanTree& plan) : plan_(plan) {}

  SparkPlanGraph build() {
    if (!plan_.nodes.empty()) visit(0, std::nullopt, std::nullopt);
    std::map<int64_t, SparkPlanGraphNode> by_id;
    for (SparkPlanGraphNode& node : nodes_) by_id.emplace(node.id, node);
    SparkPlanGraph out;
    for (auto& [id, node] : by_id) out.nodes.push_back(node);
    out.edges = std::move(edges_);
    return out;
  }

 private:
  const PlanNode& at(int32_t index) const { return plan_.nodes[static_cast<size_t>(index)]; }

  // SparkPlanInfo's equality: the same operator name and description, and equal children.
  bool same_subtree(int32_t a, int32_t b) const {
    const PlanNode& x = at(a);
    const PlanNode& y = at(b);
    if (x.node_name != y.node_name || x.simple_string != y.simple_string || x.children.size() != y.children.size()) {
      return false;
    }
    for (size_t i = 0; i < x.children.size(); ++i) {
      if (!same_subtree(x.children[i], y.children[i])) return false;
    }
    return true;
  }

  // The graph node of an exchange (or Subquery) equal to the subtree at `index`, if one was drawn.
  std::optional<int64_t> drawn_exchange(int32_t index) const {
    for (const auto& [subtree, node_id] : exchanges_) {
      if (same_subtree(subtree, index)) return node_id;
    }
    return std::nullopt;
  }

  void edge(int64_t from, std::optional<int64_t> to) {
    if (to) edges_.push_back({from, *to});
  }

  // `cluster` is the graph id of the WholeStageCodegen cluster the operator is drawn in, if any.
  void visit(int32_t index, std::optional<int64_t> parent, std::optional<int64_t> cluster) {
    const PlanNode& node = at(index);
    const std::string& name = node.node_name;
    const auto first_child = [&]() -> std::optional<int32_t> {
      if (node.children.empty()) return std::nullopt;
      return node.children.front();
    };
    if (starts_with(name, "WholeStageCodegen")) {
      const int64_t id = next_id_++;
      nodes_.push_back({id, &node, std::nullopt});
      codegen_ids_[id] = codegen_id_of(name);
      if (auto child = first_child()) visit(*child, parent, id);
      return;
    }
    if (name == "InputAdapter" || name == "TableCacheQueryStage" || name == "ResultQueryStage") {
      if (auto child = first_child()) visit(*child, parent, std::nullopt);
      return;
    }
    if (name == "BroadcastQueryStage" || name == "ShuffleQueryStage") {
      auto child = first_child();
      if (!child) return;
      if (auto reused = drawn_exchange(*child)) {
        edge(*reused, parent);
      } else {
        visit(*child, parent, std::nullopt);
      }
      return;
    }
    if (name == "Subquery" && cluster) {  // a subquery is never drawn inside a codegen cluster
      visit(index, parent, std::nullopt);
      return;
    }
    if (name == "Subquery") {
      if (auto reused = drawn_exchange(index)) {
        const bool known = std::any_of(edges_.begin(), edges_.end(), [&](const SparkPlanGraphEdge& e) {
          return parent && e.from_id == *reused && e.to_id == *parent;
        });
        if (!known) edge(*reused, parent);
        return;
      }
    }
    if (name == "ReusedSubquery") {
      if (auto child = first_child()) visit(*child, parent, cluster);
      return;
    }
    if (name == "ReusedExchange") {
      if (auto child = first_child()) {
        if (auto reused = drawn_exchange(*child)) {
          edge(*reused, parent);
          return;
        }
      }
    }
    const int64_t id = next_id_++;
    nodes_.push_back({id, &node, cluster ? codegen_ids_[*cluster] : std::nullopt});
    if (name.find("Exchange") != std::string::npos || name == "Subquery") exchanges_.emplace_back(index, id);
    edge(id, parent);
    for (int32_t child : node.children) visit(child, id, cluster);
  }

  const model::PlanTree& plan_;
  int64_t next_id_ = 0;
  std::vector<SparkPlanGraphNode> nodes_;
  std::vector<SparkPlanGraphEdge> edges_;
  std::vector<std::pair<int32_t, int64_t>> exchanges_;     // plan index of a drawn exchange, its graph id
  std::map<int64_t, std::optional<int64_t>> codegen_ids_;  // cluster graph id -> its codegen stage
};

// Digits of a non-negative number grouped by thousands ("1,234,567"), as NumberFormat(Locale.US).
std::string grouped(uint64_t value) {
  std::string digits = std::to_string(value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string with_sign(int64_t value, const std::string& magnitude) { return value < 0 ? "-" + magnitude : magnitude; }

uint64_t magnitude_of(int64_t value) {
  return value < 0 ? static_cast<uint64_t>(-(value + 1)) + 1 : static_cast<uint64_t>(value);
}

// `numerator / denominator` rounded half up to `decimals` (1 or 2) places, as Java's Formatter
// rounds a value's decimal expansion ("%.1f").
std::string fixed(uint64_t numerator, uint64_t denominator, int decimals) {
  const uint64_t scale = decimals == 1 ? 10 : 100;
  const uint64_t whole = numerator / denominator;
  const uint64_t rest = numerator % denominator;
  // rest < denominator <= 2^60, so rest * scale fits when denominator <= 2^57; larger in long double.
  uint64_t fraction = 0;
  if (denominator <= (uint64_t{1} << 57)) {
    fraction = (rest * scale + denominator / 2) / denominator;
  } else {
    fraction = static_cast<uint64_t>(static_cast<long double>(rest) * scale / denominator + 0.5L);
  }
  const uint64_t total = whole * scale + fraction;
  char text[64];
  std::snprintf(text, sizeof text, decimals == 1 ? "%llu.%01llu" : "%llu.%02llu",
                static_cast<unsigned long long>(total / scale), static_cast<unsigned long long>(total % scale));
  return text;
}

// Spark's Utils.bytesToString: binary units from twice the unit up, one decimal.
std::string bytes_text(int64_t bytes) {
  const uint64_t size = magnitude_of(bytes);
  static constexpr std::pair<int, const char*> kUnits[] = {{60, "EiB"}, {50, "PiB"}, {40, "TiB"},
                                                           {30, "GiB"}, {20, "MiB"}, {10, "KiB"}};
  for (const auto& [shift, unit] : kUnits) {
    if (size >= (uint64_t{2} << shift)) return with_sign(bytes, fixed(size, uint64_t{1} << shift, 1) + " " + unit);
  }
  return with_sign(bytes, fixed(size, 1, 1) + " B");
}

// Java's "%.Nf" of a Float (Spark's Utils.msDurationToString divides t.toFloat): the float is
// widened to a double, whose shortest decimal digits are rounded half up. So 1150 ms is 1.15f,
// 1.149999976158142 as a double: "1.1 s", where the exact 1.15 would give "1.2 s".
std::string java_float_fixed(int64_t value, int64_t unit, int decimals) {
  const double widened = static_cast<float>(value) / static_cast<float>(unit);
  char digits[64];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, widened, std::chars_format::fixed);
  if (ec != std::errc()) return "0";
  std::string text(digits, end);
  const size_t point = text.find('.');
  if (point == std::string::npos) return text + "." + std::string(static_cast<size_t>(decimals), '0');
  text += std::string(static_cast<size_t>(decimals), '0');  // at least `decimals` digits after the point
  const bool round_up =
      text.size() > point + 1 + static_cast<size_t>(decimals) && text[point + 1 + static_cast<size_t>(decimals)] >= '5';
  text.resize(point + 1 + static_cast<size_t>(decimals));
  if (round_up) {
    for (size_t i = text.size(); i-- > 0;) {
      if (text[i] == '.') continue;
      if (text[i] != '9') {
        ++text[i];
        break;
      }
      text[i] = '0';
      if (i == 0) text.insert(text.begin(), '1');
    }
  }
  return text;
}

// Spark's Utils.msDurationToString.
std::string duration_text(int64_t ms) {
  if (ms < 1000) return std::to_string(ms) + " ms";
  if (ms < 60'000) return java_float_fixed(ms, 1000, 1) + " s";
  if (ms < 3'600'000) return java_float_fixed(ms, 60'000, 1) + " m";
  return java_float_fixed(ms, 3'600'000, 2) + " h";
}

}  // namespace

SparkPlanGraph spark_plan_graph(const model::PlanTree& plan) { return GraphBuilder(plan).build(); }

std::string format_sql_metric_value(std::string_view metric_type, int64_t value) {
  if (metric_type == "sum") return with_sign(value, grouped(magnitude_of(value)));
  // Spark shows a custom (DataSource V2) metric through its class, "N/A" when it cannot load it,
  // as it cannot here.
  if (starts_with(metric_type, "v2Custom_")) return "N/A";
  // The other types count only values set (an unset metric is -1): none is 0.
  value = std::max<int64_t>(value, 0);
  if (metric_type == "size") return bytes_text(value);
  if (metric_type == "timing") return duration_text(value);
  if (metric_type == "nsTiming") return duration_text(value / 1'000'000);
  if (metric_type == "average") {
    // NumberFormat(Locale.US) of value / 10: grouped, a tenth shown only when there is one.
    const uint64_t magnitude = magnitude_of(value);
    std::string text = grouped(magnitude / 10);
    if (magnitude % 10 != 0) text += "." + std::to_string(magnitude % 10);
    return with_sign(value, text);
  }
  // Any other type (Databricks' "count") Spark shows grouped, behind "[unknown]".
  return "[unknown] " + with_sign(value, grouped(magnitude_of(value)));
}

}  // namespace sf::history_server

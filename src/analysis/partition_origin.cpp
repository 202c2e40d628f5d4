#include "analysis/partition_origin.h"

#include <algorithm>
#include <charconv>

#include "analysis/plan_text.h"

namespace sf::analysis {

namespace {

using model::PlanNode;

bool contains(std::string_view text, std::string_view what) { return text.find(what) != std::string_view::npos; }

bool in_stage(const PlanNode& node, const model::StageAttempt& stage) {
  return std::binary_search(node.stage_ids.begin(), node.stage_ids.end(), stage.stage_id) ||
         std::find(node.stage_ids.begin(), node.stage_ids.end(), stage.stage_id) != node.stage_ids.end();
}

// The exchange's read-side metrics are updated by the stage that reads it; its write-side ones
// by the stage before.
bool read_by(const PlanNode& exchange, const model::StageAttempt& stage) {
  for (const model::PlanMetric& m : exchange.metrics) {
    const bool read_metric = m.name == "records read" || m.name == "local bytes read" ||
                             m.name == "remote bytes read" || m.name == "fetch wait time" ||
                             m.name == "local blocks read" || m.name == "remote blocks read";
    if (read_metric && std::binary_search(stage.accumulator_ids.begin(), stage.accumulator_ids.end(), m.accumulator_id)) {
      return true;
    }
  }
  return false;
}

// The last integer argument of "RoundRobinPartitioning(8)" or "hashpartitioning(k#1, 200)".
std::optional<int64_t> partition_count(std::string_view text) {
  if (contains(text, "SinglePartition")) return 1;
  for (std::string_view scheme : {"RoundRobinPartitioning(", "hashpartitioning(", "rangepartitioning("}) {
    const size_t at = text.find(scheme);
    if (at == std::string_view::npos) continue;
    const size_t close = text.find(')', at);
    if (close == std::string_view::npos) continue;
    size_t start = text.rfind(' ', close);
    start = (start == std::string_view::npos || start < at) ? at + scheme.size() : start + 1;
    int64_t n = 0;
    auto [end, ec] = std::from_chars(text.data() + start, text.data() + close, n);
    if (ec == std::errc() && end == text.data() + close) return n;
  }
  return std::nullopt;
}

}  // namespace

PartitionOrigin partition_origin(const model::AppModel& model, const model::StageAttempt& stage) {
  PartitionOrigin origin;
  if (!stage.sql_execution_id) {
    origin.source = PartitionSource::kRdd;
    return origin;
  }
  const model::SqlExecution* sql = model.sql_execution(*stage.sql_execution_id);
  if (sql == nullptr) return origin;
  bool scans = false;
  for (const PlanNode& node : sql->plan.nodes) {
    if (!in_stage(node, stage)) continue;
    const std::string text = normalized_plan_text(node.simple_string);
    if (node.node_name == "AQEShuffleRead" && contains(text, "coalesced")) {
      origin = {PartitionSource::kAdaptiveCoalesced, text, std::nullopt};
      return origin;
    }
    if (node.node_name == "Coalesce") {
      // "Coalesce 1"
      int64_t n = 0;
      const size_t space = text.rfind(' ');
      const bool read = space != std::string::npos &&
                        std::from_chars(text.data() + space + 1, text.data() + text.size(), n).ec == std::errc();
      origin = {PartitionSource::kCoalesce, text, read ? std::optional<int64_t>(n) : std::nullopt};
      return origin;
    }
    if (is_shuffle_exchange(node) && read_by(node, stage)) {
      origin.node_text = text;
      origin.partitions = partition_count(text);
      if (contains(text, "REPARTITION_BY_NUM")) {
        origin.source = PartitionSource::kRepartitionByNumber;
      } else if (contains(text, "SinglePartition")) {
        origin.source = PartitionSource::kSinglePartition;
      } else {
        origin.source = PartitionSource::kShufflePartitions;
      }
      return origin;
    }
    if (is_source_scan(node)) scans = true;
  }
  if (scans) origin.source = PartitionSource::kFileScan;
  return origin;
}

}  // namespace sf::analysis

#include "analysis/detectors/partition_origin.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "analysis/detectors/plan_text.h"
#include "analysis/findings/figure_words.h"
#include "common/units.h"

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
    if (read_metric &&
        std::binary_search(stage.accumulator_ids.begin(), stage.accumulator_ids.end(), m.accumulator_id)) {
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

PartitionedData partitioned_data(const model::StageAttempt& stage) {
  if (const int64_t shuffle = stage.shuffle_read_bytes(); shuffle > 0) {
    return {shuffle, "shuffle read", model::QuantileMetric::kShuffleReadBytes};
  }
  return {stage.metric(model::TaskMetric::kInputBytes), "input", model::QuantileMetric::kInputBytes};
}

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
    const std::string text = readable_plan_text(node.simple_string);
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
      // repartition(n): REPARTITION_WITH_NUM until Spark 3.1, REPARTITION_BY_NUM since 3.2.
      if (contains(text, "REPARTITION_BY_NUM") || contains(text, "REPARTITION_WITH_NUM")) {
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

// A scan's splits: spark.sql.files.maxPartitionBytes sizes them, unless the files cannot be split
// (a task already read more than that setting), when only a repartition after the read helps.
static PartitionAdvice scan_split_advice(const DetectorContext& context, const model::StageAttempt& stage,
                                         int64_t partitions, const std::string& named) {
  const double input_bytes = static_cast<double>(stage.metric(model::TaskMetric::kInputBytes));
  const double per_task = input_bytes / static_cast<double>(std::max<int64_t>(1, stage.num_tasks));
  const std::optional<std::string> split = context.effective_value("spark.sql.files.maxPartitionBytes");
  const std::optional<int64_t> split_bytes = split ? parse_size_bytes(*split) : std::nullopt;
  if (split_bytes && per_task > 1.5 * static_cast<double>(*split_bytes)) {
    return {
        fmt::format("Each task read {} against splits of {} (spark.sql.files.maxPartitionBytes){}: the files cannot "
                    "be split (gzip, a single JSON or CSV document, or one big file per task). Write them in a "
                    "splittable format (Parquet, ORC, bzip2 or uncompressed text), or repartition({}) right after "
                    "reading.",
                    units::format_bytes(static_cast<int64_t>(per_task)), units::format_bytes(*split_bytes), named,
                    partitions),
        {}};
  }
  return {fmt::format("The scan's splits come from the files' sizes{}: smaller splits give more tasks.", named),
          {context.lower_setting("spark.sql.files.maxPartitionBytes",
                                 mib_setting(input_bytes / static_cast<double>(std::max<int64_t>(1, partitions))))}};
}

// How to give a stage `partitions` tasks: through the knob that set its count (partition_origin.h).
bool shuffle_setting_leaves_count(PartitionSource source) {
  switch (source) {
    case PartitionSource::kRepartitionByNumber:
    case PartitionSource::kCoalesce:
    case PartitionSource::kSinglePartition:
    case PartitionSource::kAdaptiveCoalesced: return true;
    default: return false;
  }
}

PartitionAdvice partition_count_advice(const DetectorContext& context, const model::StageAttempt& stage,
                                       int64_t partitions) {
  return partition_count_advice(context, stage, partitions, partition_origin(context.model(), stage));
}

PartitionAdvice partition_count_advice(const DetectorContext& context, const model::StageAttempt& stage,
                                       int64_t partitions, const PartitionOrigin& origin) {
  const std::string count = std::to_string(partitions);
  const std::string named = origin.node_text.empty() ? "" : fmt::format(" (the plan: {})", origin.node_text);
  switch (origin.source) {
    case PartitionSource::kRepartitionByNumber:
      return {fmt::format("The code sets the count: an explicit repartition({}){}. Change it to repartition({}); no "
                          "setting overrides it.",
                          origin.partitions ? std::to_string(*origin.partitions) : "n", named, count),
              {}};
    case PartitionSource::kCoalesce:
      return {fmt::format("The code sets the count: coalesce({}){} runs everything before it in that many tasks. Use "
                          "repartition({}) instead (a shuffle after the expensive work), or coalesce only where the "
                          "output is written.",
                          origin.partitions ? std::to_string(*origin.partitions) : "n", named, count),
              {}};
    case PartitionSource::kSinglePartition:
      return {fmt::format("The operator needs every row in one task{}: a global aggregate, a sort or limit over all "
                          "rows, or a window without partitionBy. Partition the window, aggregate in two steps "
                          "(per key, then the total), or sort within partitions.",
                          named),
              {}};
    case PartitionSource::kAdaptiveCoalesced:
      return {fmt::format("Adaptive execution merged the shuffle's partitions into too few{}: let it keep more with a "
                          "smaller target size.",
                          named),
              {context.lower_setting("spark.sql.adaptive.advisoryPartitionSizeInBytes",
                                     mib_setting(static_cast<double>(stage.shuffle_read_bytes()) /
                                                 static_cast<double>(std::max<int64_t>(1, partitions))))}};
    case PartitionSource::kFileScan: return scan_split_advice(context, stage, partitions, named);
    case PartitionSource::kShufflePartitions:
      return {fmt::format("The shuffle's partition count is spark.sql.shuffle.partitions{}.", named),
              {context.setting("spark.sql.shuffle.partitions", count)}};
    case PartitionSource::kRdd:
    case PartitionSource::kUnknown: break;
  }
  if (stage.sql_execution_id.has_value() && stage.shuffle_read_bytes() == 0 &&
      stage.metric(model::TaskMetric::kInputBytes) > 0) {
    // A scan the plan does not name: its splits still come from the files' sizes.
    return scan_split_advice(context, stage, partitions, "");
  }
  // Without a plan to say, a setting is named only when the count is its value.
  const auto is_value_of = [&](std::string_view key) {
    const std::optional<std::string> value = context.effective_value(key);
    return value && *value == std::to_string(stage.num_tasks);
  };
  if (stage.sql_execution_id.has_value() && is_value_of("spark.sql.shuffle.partitions")) {
    return {"", {context.setting("spark.sql.shuffle.partitions", count)}};
  }
  if (!stage.sql_execution_id.has_value() && is_value_of("spark.default.parallelism")) {
    return {"", {context.setting("spark.default.parallelism", count)}};
  }
  return {
      fmt::format("Its {} tasks are not what a setting gives here, so the code or the input sets the count: a "
                  "repartition({}) or coalesce({}), the partitions of the RDD it starts from, or the input's files. "
                  "Raise it there (numPartitions, repartition({})).",
                  stage.num_tasks, stage.num_tasks, stage.num_tasks, count),
      {}};
}

}  // namespace sf::analysis

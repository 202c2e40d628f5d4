// Where a stage's task count came from: advice to change it must name the knob that set it
// (issue: an explicit repartition(n) is not fixed by spark.sql.shuffle.partitions).
//
// Read from the SQL plan nodes attributed to the stage: the shuffle exchange it reads (its
// partitioning and why Spark added it: REPARTITION_BY_NUM is repartition(n) in the code,
// REPARTITION_BY_COL repartition(col) with the shuffle partitions setting, SinglePartition with
// ENSURE_REQUIREMENTS an operator that needs all rows in one task), an adaptive read that
// coalesced partitions, a Coalesce node, or a file scan. A stage without a SQL execution takes
// its partitions from its RDDs (spark.default.parallelism, or the code).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "analysis/detectors/detector_context.h"
#include "model/app_model.h"

namespace sf::analysis {

enum class PartitionSource {
  kUnknown,
  kRepartitionByNumber,  // repartition(n) / repartition(n, cols): the code sets n
  kCoalesce,             // coalesce(n): the code sets n, and the work before it runs in n tasks
  kSinglePartition,      // a global aggregate, sort, limit or window without partitionBy
  kShufflePartitions,    // spark.sql.shuffle.partitions (a join, an aggregate, repartition(col))
  kAdaptiveCoalesced,    // adaptive execution merged the shuffle's partitions
  kFileScan,             // spark.sql.files.maxPartitionBytes and the files' sizes
  kRdd,                  // an RDD stage: spark.default.parallelism or the code
};

struct PartitionOrigin {
  PartitionSource source = PartitionSource::kUnknown;
  std::string node_text;              // the plan node that says so, without per-run ids
  std::optional<int64_t> partitions;  // the count the node names, when it names one
};

PartitionOrigin partition_origin(const model::AppModel& model, const model::StageAttempt& stage);

// The code (repartition(n), coalesce(n)), an operator (a single partition) or adaptive execution
// set the count: spark.sql.shuffle.partitions does not change it.
bool shuffle_setting_leaves_count(PartitionSource source);

// What a stage's partitions cut: the shuffle it reads, else its input (0 bytes when it reads
// neither), with the quantile of it per task.
struct PartitionedData {
  int64_t bytes = 0;
  std::string_view what;  // "shuffle read" or "input"
  model::QuantileMetric per_task = model::QuantileMetric::kInputBytes;
  bool from_shuffle() const { return per_task == model::QuantileMetric::kShuffleReadBytes; }
};

PartitionedData partitioned_data(const model::StageAttempt& stage);

// How to give a stage `partitions` tasks, through the knob that set its count: the code (named,
// with no setting), a setting of the log's Spark, or the input's files.
struct PartitionAdvice {
  std::string text;  // a sentence or two; "" when the setting says it all
  std::vector<SettingChange> settings;
};
PartitionAdvice partition_count_advice(const DetectorContext& context, const model::StageAttempt& stage,
                                       int64_t partitions);
// The same, for an origin the caller already found.
PartitionAdvice partition_count_advice(const DetectorContext& context, const model::StageAttempt& stage,
                                       int64_t partitions, const PartitionOrigin& origin);

}  // namespace sf::analysis

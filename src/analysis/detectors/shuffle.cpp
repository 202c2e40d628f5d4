// Detectors of data moved between stages and of how it is cut into partitions: shuffle,
// partitionSizing (rules maxPartitionTooBig, shufflePartitionSkew, lowShuffleParallelism).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>
#include <string>

#include "analysis/detectors/detectors.h"
#include "analysis/detectors/partition_origin.h"
#include "analysis/detectors/skew_join_settings.h"
#include "analysis/findings/figure_words.h"
#include "analysis/findings/finding_types.h"
#include "common/units.h"

namespace sf::analysis {

namespace {

using model::QuantileMetric;
using model::Quantiles;
using model::StageAttempt;
using model::TaskMetric;
using units::format_bytes;
using units::format_count;
using units::format_duration_ms;
using units::format_percent;

// A partition count rounded up to whole waves of the cluster's cores, so no wave runs half empty.
int64_t whole_waves(int64_t partitions, int32_t cores) {
  const int64_t per_wave = std::max(1, cores);
  return std::max<int64_t>(1, (partitions + per_wave - 1) / per_wave * per_wave);
}

int64_t partitions_of(const StageAttempt& stage) {
  return stage.num_tasks > 0 ? stage.num_tasks : std::max<int64_t>(1, stage.tasks_started);
}

// Cutting a stage's shuffle into `partitions`, through the knob that set its count
// (partition_origin.h): spark.sql.shuffle.partitions, or adaptive execution's advisory size, only
// for a shuffle that setting cut; the code, the RDD's partitioning or the input otherwise (a
// repartition(2) before a write in the kubeflow NewYorkTaxiData log; junoHourly's Spark 1.6 stage
// whose 40 partitions no setting gave). Appends the how to `f`.
void set_partition_count(const DetectorContext& context, const StageAttempt& stage, int64_t partitions,
                         int64_t unrounded, Finding& f) {
  const Thresholds& t = context.thresholds();
  const std::string count =
      fmt::format("about {} partitions ({} rounded up to whole waves of the {} cores)", format_count(partitions),
                  format_count(unrounded), format_count(context.total_cores()));
  const PartitionOrigin origin = partition_origin(context.model(), stage);
  if (origin.source == PartitionSource::kShufflePartitions) {
    f.recommendation += fmt::format("Cut the shuffle into {}, or let adaptive execution size them at {}.", count,
                                    format_bytes(as_int(t.partition_target_bytes)));
    f.settings.push_back(context.setting("spark.sql.shuffle.partitions", std::to_string(partitions)));
    f.settings.push_back(
        context.setting("spark.sql.adaptive.advisoryPartitionSizeInBytes", mib_setting(t.partition_target_bytes)));
    return;
  }
  PartitionAdvice advice = partition_count_advice(context, stage, partitions, origin);
  f.recommendation += fmt::format("Cut the shuffle into {}.{}", count, advice.text.empty() ? "" : " " + advice.text);
  std::move(advice.settings.begin(), advice.settings.end(), std::back_inserter(f.settings));
}

// ---------------------------------------------------------------------------------------------
// shuffle

// What a stage's tasks measured of moving shuffle data: waiting for blocks to arrive (fetch wait)
// and writing their own shuffle output (write time). Bytes alone say nothing of the cost: a
// stage can read 67 GiB and wait half a second for it, its tasks busy computing meanwhile.
void shuffle(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const StageAttempt* stage : context.ran_stages()) {
    if (!context.ran_long_enough(*stage)) continue;
    const double bytes = static_cast<double>(stage->shuffle_read_bytes());
    if (bytes <= 0 || bytes < t.shuffle_min_read_bytes) continue;
    const double run_time = static_cast<double>(stage->metric(TaskMetric::kExecutorRunTimeMs));
    if (run_time <= 0) continue;
    const double fetch_wait = static_cast<double>(stage->metric(TaskMetric::kShuffleFetchWaitTimeMs));
    const double write_time = static_cast<double>(stage->metric(TaskMetric::kShuffleWriteTimeNs)) / 1e6;
    const double share = std::min(1.0, (fetch_wait + write_time) / run_time);
    if (share < t.shuffle_min_measured_share) continue;
    const double duration = context.occupancy(*stage).duration_ms;
    // The tasks ran side by side, so their shuffle time takes the stage's duration in the share
    // it took of their run time.
    const double waste = share * duration;
    const double remote = static_cast<double>(stage->metric(TaskMetric::kShuffleRemoteBytesRead));

    Finding f = DetectorContext::stage_finding(*stage, finding_type::kShuffle);
    f.title = fmt::format("{} spent {} of its task time moving shuffle data ({} read)",
                          DetectorContext::stage_label(*stage), format_percent(share), format_bytes(as_int(bytes)));
    f.explanation = fmt::format(
        "The stage read {} from the previous stages' shuffle output ({} of it from other hosts). Its tasks waited {} "
        "in all for shuffle blocks to arrive and spent {} writing their own shuffle output: {} of their {} of run "
        "time, about {} of the stage's {}.",
        format_bytes(as_int(bytes)), format_bytes(as_int(remote)), format_duration_ms(as_int(fetch_wait)),
        format_duration_ms(as_int(write_time)), format_percent(share), format_duration_ms(as_int(run_time)),
        format_duration_ms(as_int(waste)), format_duration_ms(as_int(duration)));
    f.recommendation = fmt::format(
        "Shuffle less: broadcast the small side of joins instead of shuffling both (raise "
        "spark.sql.autoBroadcastJoinThreshold up to {} for sides that small), aggregate or filter before the "
        "shuffle, and select only the columns needed downstream. Keep shuffle output compressed, with zstd for a "
        "better ratio than the default lz4.",
        format_bytes(as_int(t.broadcast_under_max_bytes)));
    f.settings = {context.setting("spark.sql.autoBroadcastJoinThreshold", mib_setting(t.broadcast_under_max_bytes)),
                  context.setting("spark.shuffle.compress", "true"),
                  context.setting("spark.io.compression.codec", "zstd")};
    f.evidence = {{"shuffleReadBytes", bytes, "bytes"},         {"shuffleRemoteReadBytes", remote, "bytes"},
                  {"shuffleFetchWaitTimeMs", fetch_wait, "ms"}, {"shuffleWriteTimeMs", write_time, "ms"},
                  {"shuffleShareOfRunTime", share, "fraction"}, {"stageDurationMs", duration, "ms"}};
    f.thresholds = {"shuffle.minReadBytes", "shuffle.minMeasuredShare", "stage.minDurationMs"};
    f.confidence = std::min(context.confidence_above(bytes, t.shuffle_min_read_bytes),
                            context.confidence_above(share, t.shuffle_min_measured_share));
    f.validation_caveat =
        "The time is what the tasks measured waiting for shuffle blocks and writing shuffle output, spread over "
        "the stage in the share it took of their run time. Shuffling less removes part of it; what remains of a "
        "smaller shuffle is not modeled.";
    f.claim.kind = WasteClaim::Kind::kStages;
    f.claim.method = EstimateMethod::kMeasured;
    f.claim.stages = {{DetectorContext::ref(*stage), waste}};
    f.claim.raw = RawWaste{bytes, WasteUnit::kBytes};
    findings.push_back(std::move(f));
  }
}

// ---------------------------------------------------------------------------------------------
// partitionSizing

Finding partition_finding(const StageAttempt& stage, std::string rule) {
  return DetectorContext::stage_finding(stage, finding_type::kPartitionSizing, std::move(rule));
}

// lowShuffleParallelism: the stage's shuffle is cut into too few partitions for its size.
bool low_shuffle_parallelism(const DetectorContext& context, const StageAttempt& stage,
                             std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const double bytes = static_cast<double>(stage.shuffle_read_bytes());
  if (bytes <= 0 || bytes < t.partition_min_shuffle_bytes || t.partition_target_bytes <= 0) return false;
  const int64_t tasks = partitions_of(stage);
  const double per_task = bytes / static_cast<double>(tasks);
  const double limit = t.partition_low_parallelism_factor * t.partition_target_bytes;
  if (per_task < limit) return false;
  const auto target_tasks = static_cast<int64_t>(std::ceil(bytes / t.partition_target_bytes));
  if (target_tasks <= tasks) return false;
  const double duration = context.occupancy(stage).duration_ms;
  const int64_t suggested = whole_waves(target_tasks, static_cast<int64_t>(std::round(context.reshape_cores(stage))));

  Finding f = partition_finding(stage, finding_rule::kLowShuffleParallelism);
  f.title =
      fmt::format("{} read {} of shuffle data in only {} partitions ({} each)", DetectorContext::stage_label(stage),
                  format_bytes(as_int(bytes)), format_count(tasks), format_bytes(as_int(per_task)));
  f.explanation = fmt::format(
      "The stage's {} partitions held {} of shuffle data each on average, {:.1f} times the {} a partition should "
      "hold. At that size the stage needs {} partitions; with {} its tasks were long and few, and the stage ran {}.",
      format_count(tasks), format_bytes(as_int(per_task)), per_task / t.partition_target_bytes,
      format_bytes(as_int(t.partition_target_bytes)), format_count(target_tasks), format_count(tasks),
      format_duration_ms(as_int(duration)));
  set_partition_count(context, stage, suggested, target_tasks, f);
  f.evidence = {{"shuffleReadBytes", bytes, "bytes"},
                {"partitions", static_cast<double>(tasks), "count"},
                {"bytesPerPartition", per_task, "bytes"},
                {"targetPartitions", static_cast<double>(target_tasks), "count"},
                {"stageDurationMs", duration, "ms"}};
  f.thresholds = {"partitionSizing.minShuffleBytes", "partitionSizing.lowParallelismFactor",
                  "partitionSizing.targetBytes", "stage.minDurationMs"};
  f.confidence = context.confidence_above(per_task, limit);
  f.validation_caveat =
      "The estimate spreads the stage's measured task time over the suggested partitions on the cores it could "
      "have (stage_reshape.h); time that big partitions lost to spill and GC would come back too, and is not "
      "counted.";
  context.claim_reshaped_stage(f, stage, static_cast<double>(suggested), 1.0, EstimateMethod::kModeled);
  findings.push_back(std::move(f));
  return true;
}

// The largest partition of a stage against the median: what maxPartitionTooBig and
// shufflePartitionSkew judge. Shuffle read bytes for a stage that reads shuffle, else input.
struct PartitionSpread {
  PartitionedData data;  // what the partitions cut: shuffle read or input
  int64_t tasks = 0;
  double max = 0;
  double median = 0;
  double excess = 0;        // max - median
  double ratio = 0;         // max / median; infinite when the median partition is empty
  bool material = false;    // the excess is worth a whole target partition
  std::string ratio_words;  // "12.5 times", "far above"
};

std::optional<PartitionSpread> partition_spread(const DetectorContext& context, const StageAttempt& stage) {
  const Thresholds& t = context.thresholds();
  PartitionSpread p;
  p.data = partitioned_data(stage);
  if (p.data.bytes <= 0) return std::nullopt;
  const Quantiles& q = stage.quantile(p.data.per_task);
  if (q.count == 0 || q.max <= 0) return std::nullopt;
  p.tasks = q.count;
  p.max = static_cast<double>(q.max);
  p.median = static_cast<double>(q.p50);
  p.excess = p.max - p.median;
  p.ratio = p.median > 0 ? p.max / p.median : std::numeric_limits<double>::infinity();
  p.material = p.excess >= t.partition_min_skew_excess_bytes;
  p.ratio_words = std::isfinite(p.ratio) ? fmt::format("{:.1f} times", p.ratio) : "far above";
  return p;
}

// What maxPartitionTooBig and shufflePartitionSkew share: the evidence, and the claim of a fix that
// cuts the stage's data into `tasks_after` even partitions: the stage's measured task time spread
// over them on the cores it could have (stage_reshape.h), so the longest task shrinks with the
// fix. Returns the stage's time saved. A fix that only splits the outlier (skew) is `measured`:
// the stage keeps its work and task count; one that changes the count is `modeled`.
double add_spread_evidence_and_claim(const DetectorContext& context, const StageAttempt& stage,
                                     const PartitionSpread& p, double tasks_after, EstimateMethod method, Finding& f) {
  f.evidence = {{"maxPartitionBytes", p.max, "bytes"},
                {"medianPartitionBytes", p.median, "bytes"},
                {"excessBytes", p.excess, "bytes"},
                {"tasks", static_cast<double>(p.tasks), "count"},
                {"stageDurationMs", context.occupancy(stage).duration_ms, "ms"}};
  if (std::isfinite(p.ratio)) f.evidence.push_back({"maxToMedianRatio", p.ratio, "ratio"});
  f.validation_caveat =
      "The estimate spreads the stage's measured task time evenly over the partitions after the fix, on the cores "
      "it could have (stage_reshape.h); time a big partition lost to spill and GC would come back too, and is not "
      "counted.";
  return context.claim_reshaped_stage(f, stage, tasks_after, 1.0, method);
}

// The partitions a skewed stage's data is cut into once the outliers are split: as many as it had,
// and enough to fill the cores it could have.
double evened_out(const DetectorContext& context, const StageAttempt& stage, const PartitionSpread& p) {
  return std::max(static_cast<double>(p.tasks), context.reshape_cores(stage));
}

// maxPartitionTooBig: one task's partition past partitionSizing.maxBytes. Even partitions that
// are all too big are left to lowShuffleParallelism when it fired on the stage.
bool max_partition_too_big(const DetectorContext& context, const StageAttempt& stage, const PartitionSpread& p,
                           bool low_parallelism_fired, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  if (p.max < t.partition_max_bytes || (!p.material && low_parallelism_fired)) return false;
  Finding f = partition_finding(stage, finding_rule::kMaxPartitionTooBig);
  f.title = fmt::format("{}: one task's {} was {}", DetectorContext::stage_label(stage), p.data.what,
                        format_bytes(as_int(p.max)));
  const double target = std::max(1.0, t.partition_target_bytes);
  double saved = 0;
  std::string fix;  // what the fix cuts the data into, for the explanation
  if (!p.data.from_shuffle()) {
    const double splits = std::max(std::ceil(static_cast<double>(stage.metric(TaskMetric::kInputBytes)) / target),
                                   static_cast<double>(partitions_of(stage)));
    f.recommendation = fmt::format(
        "Read the input in smaller splits ({} each). A file that cannot be split (gzip, a single large Parquet row "
        "group) stays one task whatever the setting: recompress it splittably or repartition after reading.",
        format_bytes(as_int(t.partition_target_bytes)));
    f.settings = {context.setting("spark.sql.files.maxPartitionBytes", mib_setting(t.partition_target_bytes))};
    saved = add_spread_evidence_and_claim(context, stage, p, splits, EstimateMethod::kModeled, f);
    fix = fmt::format("read in {} splits", format_count(static_cast<int64_t>(splits)));
  } else if (p.ratio >= t.partition_skew_ratio) {
    f.recommendation =
        "The big partition is a skewed key: let adaptive execution split it in joins, or salt the hot key (add a "
        "random suffix, aggregate twice) for aggregations, which adaptive execution does not split.";
    f.settings = skew_join_settings(context, as_int(p.max), as_int(p.median));
    saved =
        add_spread_evidence_and_claim(context, stage, p, evened_out(context, stage, p), EstimateMethod::kMeasured, f);
    fix = "with the skewed partition split";
  } else {
    const auto needed =
        std::max(static_cast<int64_t>(std::ceil(static_cast<double>(stage.shuffle_read_bytes()) / target)),
                 partitions_of(stage));
    const int64_t partitions = whole_waves(needed, context.total_cores());
    f.recommendation = "Partitions are big across the board. ";
    set_partition_count(context, stage, partitions, needed, f);
    saved =
        add_spread_evidence_and_claim(context, stage, p, static_cast<double>(partitions), EstimateMethod::kModeled, f);
    fix = fmt::format("cut into {} partitions", format_count(partitions));
  }
  const std::string consequence =
      p.material ? fmt::format(
                       "A partition that big strains memory, spills, and keeps its task running after the "
                       "others finish: {}, the stage's measured task time would run about {} shorter.",
                       fix, format_duration_ms(as_int(saved)))
                 : fmt::format(
                       "Partitions are that big across the board rather than one outlier: {}, its measured task "
                       "time spread over the cores it had, the stage would run about {} shorter. The memory "
                       "pressure and spill of big partitions would ease too, which this figure does not price.",
                       fix, format_duration_ms(as_int(saved)));
  f.explanation = fmt::format(
      "The largest task of the stage read {} of {}, past the {} a partition can hold comfortably; the median task "
      "read {} ({} the median). {} The stage ran {}.",
      format_bytes(as_int(p.max)), p.data.what, format_bytes(as_int(t.partition_max_bytes)),
      format_bytes(as_int(p.median)), p.ratio_words, consequence,
      format_duration_ms(as_int(context.occupancy(stage).duration_ms)));
  f.thresholds = {"partitionSizing.maxBytes", "partitionSizing.targetBytes", "stage.minDurationMs"};
  f.confidence = context.confidence_above(p.max, t.partition_max_bytes);
  findings.push_back(std::move(f));
  return true;
}

// shufflePartitionSkew: the largest shuffle partition far past the median, by a material excess.
void shuffle_partition_skew(const DetectorContext& context, const StageAttempt& stage, const PartitionSpread& p,
                            std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  if (!p.data.from_shuffle() || static_cast<double>(p.tasks) < t.skew_min_tasks || p.ratio < t.partition_skew_ratio ||
      !p.material) {
    return;
  }
  Finding f = partition_finding(stage, finding_rule::kShufflePartitionSkew);
  f.title = fmt::format("{}: the largest shuffle partition was {} the median", DetectorContext::stage_label(stage),
                        p.ratio_words);
  const double saved =
      add_spread_evidence_and_claim(context, stage, p, evened_out(context, stage, p), EstimateMethod::kMeasured, f);
  f.explanation = fmt::format(
      "The largest task of the stage read {} of shuffle data against a median of {} ({} the median, {} more). Its "
      "task keeps running after the others finish: with the skewed partition split, the stage's measured task time "
      "would run about {} shorter. The stage ran {}.",
      format_bytes(as_int(p.max)), format_bytes(as_int(p.median)), p.ratio_words, format_bytes(as_int(p.excess)),
      format_duration_ms(as_int(saved)), format_duration_ms(as_int(context.occupancy(stage).duration_ms)));
  f.recommendation =
      "A few keys hold much of the data. In joins, let adaptive execution split the skewed partitions; in "
      "aggregations, salt the hot keys (add a random suffix, aggregate twice) or filter out null and default keys "
      "before the shuffle.";
  f.settings = skew_join_settings(context, as_int(p.max), as_int(p.median));
  f.thresholds = {"partitionSizing.skewRatio", "partitionSizing.minSkewExcessBytes", "skew.minTasks",
                  "stage.minDurationMs"};
  f.confidence = std::isfinite(p.ratio) ? context.confidence_above(p.ratio, t.partition_skew_ratio) : Confidence::kHigh;
  findings.push_back(std::move(f));
}

void partition_sizing(const DetectorContext& context, std::vector<Finding>& findings) {
  for (const StageAttempt* stage : context.ran_stages()) {
    if (!context.ran_long_enough(*stage)) continue;
    const bool low_parallelism = low_shuffle_parallelism(context, *stage, findings);
    // One finding per stage for the largest partition: too big takes precedence over skewed.
    const auto spread = partition_spread(context, *stage);
    if (spread && !max_partition_too_big(context, *stage, *spread, low_parallelism, findings)) {
      shuffle_partition_skew(context, *stage, *spread, findings);
    }
  }
}

}  // namespace

void detect_shuffle(const DetectorContext& context, std::vector<Finding>& findings) {
  shuffle(context, findings);
  partition_sizing(context, findings);
}

}  // namespace sf::analysis

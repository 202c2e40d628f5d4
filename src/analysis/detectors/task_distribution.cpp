// Detectors of how a stage's work is spread over its tasks: skew, straggler, stageShape
// (lowParallelism, dataExplosion, taskStageSkew, longLastWave) and tinyTask.
//
// All of them read the per-stage distributions the model keeps (exact quantiles over a stage
// attempt's successful tasks) and the stage's sums; none needs per-task records.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
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

// value / median with the median floored at 1 (ms or byte): a stage whose median task read
// nothing, or took 0 ms, still gets a finite ratio, and the excess thresholds keep such stages
// from firing on noise.
double ratio_to_median(int64_t value, int64_t median) {
  return static_cast<double>(value) / static_cast<double>(std::max<int64_t>(1, median));
}

bool is_sql(const StageAttempt& stage) { return stage.sql_execution_id.has_value(); }

// A wall-clock claim on one stage; raw keeps the pre-clip figure in ms.
void claim_stage_ms(Finding& f, const StageAttempt& stage, double waste_ms, EstimateMethod method) {
  f.claim.kind = WasteClaim::Kind::kStages;
  f.claim.method = method;
  f.claim.stages = {{DetectorContext::ref(stage), waste_ms}};
  f.claim.raw = RawWaste{waste_ms, WasteUnit::kMs};
}

// A cost with no wall-clock claim (stageShape): measured fields, raw in its own unit.
void claim_resource(Finding& f, double value, WasteUnit unit) {
  f.claim.kind = WasteClaim::Kind::kResourceOnly;
  f.claim.method = EstimateMethod::kMeasured;
  f.claim.raw = RawWaste{value, unit};
}

// How unevenly one byte metric is spread over the stage's successful tasks.
struct BytesSpread {
  std::string_view what;  // "shuffle read", "input"
  int64_t max_bytes = 0;
  int64_t median_bytes = 0;
  double ratio = 0;
  double excess_bytes = 0;
  bool skewed = false;  // past both skew byte thresholds
};

BytesSpread bytes_spread(const StageAttempt& stage, QuantileMetric metric, std::string_view what, const Thresholds& t) {
  const Quantiles& q = stage.quantile(metric);
  BytesSpread spread{what, q.max, q.p50, ratio_to_median(q.max, q.p50), static_cast<double>(q.max - q.p50), false};
  spread.skewed =
      q.max > 0 && spread.ratio >= t.skew_bytes_max_to_median_ratio && spread.excess_bytes >= t.skew_min_bytes_excess;
  return spread;
}

// The data a stage's tasks process: its shuffle read when it has one, else its input.
BytesSpread data_spread(const StageAttempt& stage, const Thresholds& t) {
  const BytesSpread shuffle = bytes_spread(stage, QuantileMetric::kShuffleReadBytes, "shuffle read", t);
  if (shuffle.max_bytes > 0) return shuffle;
  return bytes_spread(stage, QuantileMetric::kInputBytes, "input", t);
}

// "13.0x the median 2.0 GiB", or, when the median task read nothing, says so (a ratio to
// zero means nothing to a reader).
std::string against_median(double ratio, int64_t median_bytes) {
  if (median_bytes == 0) return "while the median task read nothing";
  return fmt::format("{:.1f}x the median {}", ratio, format_bytes(median_bytes));
}

std::string spread_sentence(const BytesSpread& spread) {
  if (spread.max_bytes == 0) return fmt::format("no task read any {} data", spread.what);
  return fmt::format("the largest {} was {}, {}", spread.what, format_bytes(spread.max_bytes),
                     against_median(spread.ratio, spread.median_bytes));
}

// A speculation multiplier that would have copied this outlier early: a copy started at
// m x median finishes near (m + 1) x median, well before a task at ratio x median when
// m = ratio / 2; kept within [1.5 (Spark's default), 3].
double speculation_multiplier(double ratio) { return std::round(std::clamp(ratio / 2, 1.5, 3.0) * 10) / 10; }

// With speculation off, the multiplier to turn it on with. With it on, copies earlier, never later:
// at a lower multiplier already the copy was not held back by it, and a higher one would only
// contradict speculationWaste.
std::vector<SettingChange> speculation_settings(const DetectorContext& context, double ratio) {
  // Spark never runs a copy of a task on the host an attempt of it runs on: in local mode, one
  // host, no copy ever starts.
  if (context.local_master()) return {};
  const std::string multiplier = fmt::format("{:g}", speculation_multiplier(ratio));
  const bool on = context.bool_property("spark.speculation").value_or(false);  // off by default in every Spark
  return {context.setting("spark.speculation", "true"),
          on ? context.lower_setting("spark.speculation.multiplier", multiplier)
             : context.setting("spark.speculation.multiplier", multiplier)};
}

// What to do about a stage held up by its longest tasks, by what their cause looks like.
struct Advice {
  std::string text;
  std::vector<SettingChange> settings;
};

// The stage's slow tasks come with a partition well past the median (as far past it as the
// p95 rule asks of times): the data explains the time, even under the byte thresholds sized for
// large clusters. (Whether the task that ran longest is the one that read most is not in the
// per-stage distributions; with both this skewed, it is the likely reading.)
BytesSpread explaining(BytesSpread data, const Thresholds& t) {
  if (!data.skewed && data.max_bytes > 0 && data.ratio >= t.skew_p95_to_median_ratio) data.skewed = true;
  return data;
}

Advice uneven_tasks_advice(const DetectorContext& context, const StageAttempt& stage, BytesSpread data,
                           double time_ratio) {
  data = explaining(data, context.thresholds());
  if (data.skewed && data.what == "shuffle read") {
    if (is_sql(stage)) {
      return {fmt::format("Let adaptive execution split the oversized partitions ({}): turn on AQE and its skew-join "
                          "handling, with a skew factor below the observed {:.1f}x. AQE splits skewed partitions of "
                          "sort-merge joins; for an aggregation or window on the hot key, salt the key instead.",
                          spread_sentence(data), data.ratio),
              skew_join_settings(context, data.max_bytes, data.median_bytes)};
    }
    return {fmt::format("Spread the hot key ({}): salt it (append a random suffix, aggregate or join in two steps) or "
                        "repartition on a better-distributed key, so no partition holds many times the median.",
                        spread_sentence(data)),
            {}};
  }
  if (data.skewed) {
    return {fmt::format("The input splits are uneven ({}): usually an unsplittable file (gzip, one large JSON or CSV) "
                        "or very uneven file sizes. Write the input in a splittable format or in even files, or "
                        "repartition right after reading.",
                        spread_sentence(data)),
            {}};
  }
  return {fmt::format("The slow tasks did not get more data ({}), so their size does not explain them: look for a "
                      "few keys with costly rows, a slow host, or GC pauses (the straggler and slowHost findings). "
                      "Partition-size remedies such as AQE's skew join will not see this{}.",
                      spread_sentence(data),
                      context.local_master() ? "" : "; speculation starts copies of outliers on other executors"),
          speculation_settings(context, time_ratio)};
}

// --- executor warm-up ------------------------------------------------------------------------

// The longest successful task the stage's work can be judged by. A first-wave task (it started
// before its executor had finished any) runs on a JVM still loading classes and compiling code:
// on a real Spark 4.3 cluster the first 9 of 72 tasks ran 2.7-3.6 s against a median of 0.93 s,
// each with about a second of deserialization. When the longest task is such a one, the stage
// also ran warmed tasks and the data does not make the task big, the longest warmed task is
// what says whether the stage's work has an outlier.
int64_t judged_longest_ms(const StageAttempt& stage, const Quantiles& d, bool data_explains) {
  if (data_explains || stage.first_wave_tasks_succeeded == 0 || !stage.max_warmed_task_duration_ms) return d.max;
  return std::min(d.max, *stage.max_warmed_task_duration_ms);
}

std::string warm_up_sentence(const StageAttempt& stage, const Quantiles& d) {
  return fmt::format(
      " The {} tasks that ran first on their executors (up to {}) are left out: they ran while the executor's JVM "
      "was warming up.",
      format_count(stage.first_wave_tasks_succeeded), format_duration_ms(d.max));
}

// --- skew ------------------------------------------------------------------------------------

// The strongest skew signal of a stage: its rule, figures and the waste in task-duration terms.
struct SkewSignal {
  std::string rule;
  std::string ratio_name;  // the evidence name of `ratio`
  double ratio = 0;
  double ratio_threshold = 0;
  double excess = 0;  // ms for the duration rules, bytes for the data rules
  double excess_threshold = 0;
  double waste_ms = 0;
  // The longest task judged (a duration rule leaves executor warm-up out) and the 95th
  // percentile at most that; a data rule's are the stage's as they ran.
  int64_t longest_ms = 0;
  int64_t p95_ms = 0;
};

std::optional<SkewSignal> strongest_skew(const DetectorContext& context, const StageAttempt& stage) {
  const Thresholds& t = context.thresholds();
  const Quantiles& d = stage.quantile(QuantileMetric::kDurationMs);
  // Executor warm-up is not skew: a tail of first-wave tasks is judged by the warmed ones.
  const int64_t longest = judged_longest_ms(stage, d, explaining(data_spread(stage, t), t).skewed);
  const int64_t p95 = std::min(d.p95, longest);
  const double max_ratio = ratio_to_median(longest, d.p50);
  const double max_excess = static_cast<double>(longest - d.p50);
  const double p95_ratio = ratio_to_median(p95, d.p50);
  const double p95_excess = static_cast<double>(p95 - d.p50);
  // The longest task's excess is the stronger claim, so it wins when both branches hold.
  if (max_ratio >= t.skew_max_to_median_ratio && context.significant_ms(max_excess, t.skew_min_excess_ms)) {
    return SkewSignal{.rule = finding_rule::kDurationMax,
                      .ratio_name = "maxToMedianRatio",
                      .ratio = max_ratio,
                      .ratio_threshold = t.skew_max_to_median_ratio,
                      .excess = max_excess,
                      .excess_threshold = t.skew_min_excess_ms,
                      .waste_ms = max_excess,
                      .longest_ms = longest,
                      .p95_ms = p95};
  }
  if (p95_ratio >= t.skew_p95_to_median_ratio && context.significant_ms(p95_excess, t.skew_min_excess_ms)) {
    return SkewSignal{.rule = finding_rule::kDurationP95,
                      .ratio_name = "p95ToMedianRatio",
                      .ratio = p95_ratio,
                      .ratio_threshold = t.skew_p95_to_median_ratio,
                      .excess = p95_excess,
                      .excess_threshold = t.skew_min_excess_ms,
                      .waste_ms = p95_excess,
                      .longest_ms = longest,
                      .p95_ms = p95};
  }
  // Data skew without a time skew past the thresholds: its cost is still what the longest
  // task ran past the median.
  for (const auto& [metric, rule] : {std::pair{QuantileMetric::kShuffleReadBytes, finding_rule::kShuffleReadMax},
                                     std::pair{QuantileMetric::kInputBytes, finding_rule::kInputMax}}) {
    const BytesSpread spread = bytes_spread(stage, metric, "", t);
    if (spread.skewed) {
      return SkewSignal{.rule = rule,
                        .ratio_name = "bytesMaxToMedianRatio",
                        .ratio = spread.ratio,
                        .ratio_threshold = t.skew_bytes_max_to_median_ratio,
                        .excess = spread.excess_bytes,
                        .excess_threshold = t.skew_min_bytes_excess,
                        .waste_ms = max_excess,
                        .longest_ms = d.max,
                        .p95_ms = d.p95};
    }
  }
  return std::nullopt;
}

// The skew finding's title and explanation, in the terms of its rule.
void describe_skew(Finding& f, const StageAttempt& stage, const SkewSignal& signal, const BytesSpread& data) {
  const Quantiles& d = stage.quantile(QuantileMetric::kDurationMs);
  const std::string label = DetectorContext::stage_label(stage);
  if (signal.rule == finding_rule::kDurationMax) {
    f.title = fmt::format("{}: the longest task ran {}, {:.1f}x the median {}", label,
                          format_duration_ms(signal.longest_ms), signal.ratio, format_duration_ms(d.p50));
    f.explanation = fmt::format(
        "Of {} successful tasks the median ran {} and the longest {}: {} past the median, "
        "which the whole stage waited for.",
        format_count(d.count), format_duration_ms(d.p50), format_duration_ms(signal.longest_ms),
        duration_text(signal.waste_ms));
  } else if (signal.rule == finding_rule::kDurationP95) {
    f.title = fmt::format("{}: the slowest 5% of tasks ran {} or more, {:.1f}x the median {}", label,
                          format_duration_ms(signal.p95_ms), signal.ratio, format_duration_ms(d.p50));
    f.explanation = fmt::format(
        "Of {} successful tasks the median ran {} but the 95th percentile {} (the longest {}): "
        "a tail of slow tasks {} past the median.",
        format_count(d.count), format_duration_ms(d.p50), format_duration_ms(signal.p95_ms),
        format_duration_ms(signal.longest_ms), duration_text(signal.waste_ms));
  } else {
    f.title = fmt::format("{}: the largest {} partition is {}, {}", label, data.what, format_bytes(data.max_bytes),
                          against_median(signal.ratio, data.median_bytes));
    f.explanation = fmt::format(
        "Of {} successful tasks the largest {} was {} against a median of {} ({} more); the "
        "longest task ran {} against a median of {}, {} past it.",
        format_count(d.count), data.what, format_bytes(data.max_bytes), format_bytes(data.median_bytes),
        bytes_text(data.excess_bytes), format_duration_ms(d.max), format_duration_ms(d.p50),
        duration_text(signal.waste_ms));
  }
  const bool duration_rule = signal.rule == finding_rule::kDurationMax || signal.rule == finding_rule::kDurationP95;
  if (duration_rule && signal.longest_ms < d.max) f.explanation += warm_up_sentence(stage, d);
  if (duration_rule) {
    f.explanation += data.skewed ? fmt::format(" The data is skewed too: {}.", spread_sentence(data))
                                 : fmt::format(" The data is not: {}.", spread_sentence(data));
  }
}

void skew(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const StageAttempt* stage : context.ran_stages()) {
    if (!context.ran_long_enough(*stage)) continue;
    const Quantiles& d = stage->quantile(QuantileMetric::kDurationMs);
    if (static_cast<double>(d.count) < t.skew_min_tasks) continue;
    const std::optional<SkewSignal> signal = strongest_skew(context, *stage);
    if (!signal) continue;
    const BytesSpread shuffle = bytes_spread(*stage, QuantileMetric::kShuffleReadBytes, "shuffle read", t);
    const BytesSpread input = bytes_spread(*stage, QuantileMetric::kInputBytes, "input", t);
    // The data the rule is about; for the duration rules, the data the stage's tasks process.
    const BytesSpread data = signal->rule == finding_rule::kInputMax         ? input
                             : signal->rule == finding_rule::kShuffleReadMax ? shuffle
                                                                             : explaining(data_spread(*stage, t), t);

    Finding f = DetectorContext::stage_finding(*stage, finding_type::kSkew, signal->rule);
    describe_skew(f, *stage, *signal, data);
    const Advice advice = uneven_tasks_advice(context, *stage, data, ratio_to_median(signal->longest_ms, d.p50));
    f.recommendation = advice.text;
    f.settings = advice.settings;
    f.evidence = {{"successfulTasks", static_cast<double>(d.count), "count"},
                  {"taskDurationP50Ms", static_cast<double>(d.p50), "ms"},
                  {"taskDurationP95Ms", static_cast<double>(d.p95), "ms"},
                  {evidence_key::kTaskDurationMaxMs, static_cast<double>(d.max), "ms"},
                  {"shuffleReadMaxBytes", static_cast<double>(shuffle.max_bytes), "bytes"},
                  {"shuffleReadP50Bytes", static_cast<double>(shuffle.median_bytes), "bytes"},
                  {"inputMaxBytes", static_cast<double>(input.max_bytes), "bytes"},
                  {"inputP50Bytes", static_cast<double>(input.median_bytes), "bytes"},
                  {signal->ratio_name, signal->ratio, "ratio"},
                  {evidence_key::kDataMaxToMedianRatio, data.ratio, "ratio"}};
    f.thresholds = {"stage.minDurationMs", "skew.minTasks"};
    if (signal->rule == finding_rule::kDurationMax) {
      f.thresholds.insert(f.thresholds.end(), {"skew.maxToMedianRatio", "skew.minExcessMs"});
    } else if (signal->rule == finding_rule::kDurationP95) {
      f.thresholds.insert(f.thresholds.end(), {"skew.p95ToMedianRatio", "skew.minExcessMs"});
    }
    f.thresholds.insert(f.thresholds.end(), {"skew.bytesMaxToMedianRatio", "skew.minBytesExcess"});
    f.confidence = std::min(context.confidence_above(signal->ratio, signal->ratio_threshold),
                            context.confidence_above(signal->excess, signal->excess_threshold));
    // Fixed, the stage's work is spread evenly over its tasks: the longest task shrinks too.
    context.claim_reshaped_stage(f, *stage, std::max(static_cast<double>(d.count), context.reshape_cores(*stage)), 1.0,
                                 EstimateMethod::kMeasured);
    findings.push_back(std::move(f));
  }
}

// --- straggler -------------------------------------------------------------------------------

void straggler(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const StageAttempt* stage : context.ran_stages()) {
    if (!context.ran_long_enough(*stage)) continue;
    const Quantiles& d = stage->quantile(QuantileMetric::kDurationMs);
    if (static_cast<double>(d.count) < t.skew_min_tasks) continue;
    const BytesSpread data = explaining(data_spread(*stage, t), t);
    const int64_t longest = judged_longest_ms(*stage, d, data.skewed);
    const double ratio = ratio_to_median(longest, d.p50);
    const double excess = static_cast<double>(longest - d.p50);
    if (ratio < t.straggler_max_to_median_ratio || !context.significant_ms(excess, t.straggler_min_excess_ms)) continue;
    // A copy on another host ran for medians and the original still finished first: the outliers
    // are slow wherever they run (their work, or what they call), so neither a healthier host nor
    // speculation wins the excess back. speculationWaste says what the copies cost; skew's
    // duration rules say what the uneven work costs.
    if (static_cast<double>(stage->longest_lost_copy_ms) >=
        t.straggler_lost_copy_to_median_ratio * static_cast<double>(d.p50)) {
      continue;
    }

    Finding f = DetectorContext::stage_finding(*stage, finding_type::kStraggler, finding_rule::kNone);
    f.title = fmt::format("{}: one task ran {} against a median of {} ({:.1f}x)", DetectorContext::stage_label(*stage),
                          format_duration_ms(longest), format_duration_ms(d.p50), ratio);
    f.explanation = fmt::format(
        "The longest of {} successful tasks ran {} past the median; the stage could not finish "
        "before it.",
        format_count(d.count), duration_text(excess));
    if (longest < d.max) f.explanation += warm_up_sentence(*stage, d);
    if (data.skewed) {
      f.explanation += fmt::format(
          " The data is skewed ({}), so the outlier is most likely a big partition: the skew "
          "finding on this stage covers that cause.",
          spread_sentence(data));
      f.recommendation =
          "Fix the partition skew (see the skew finding on this stage). Speculation does not help a task "
          "that is slow because it is big: its copy has the same data to process.";
      if (is_sql(*stage) && data.what == "shuffle read")
        f.settings = skew_join_settings(context, data.max_bytes, data.median_bytes);
    } else {
      f.explanation += fmt::format(
          " The data is not skewed ({}), so this is a time outlier: a slow or overloaded host, "
          "GC pauses, or a slow read, not a bigger share of the work.",
          spread_sentence(data));
      f.recommendation =
          context.local_master()
              ? std::string(
                    "Check the GC time of the task and what its rows held: in local mode every task runs in "
                    "the driver's JVM, and speculation never starts a copy (Spark runs none on the host of "
                    "the attempt).")
              : fmt::format(
                    "Check the slowHost findings for this stage and the GC time of the executor that ran the "
                    "task. Speculation starts a copy of a task running past multiplier x the median elsewhere; "
                    "a multiplier of {} would have copied this one at about {}.",
                    speculation_multiplier(ratio),
                    duration_text(speculation_multiplier(ratio) * static_cast<double>(d.p50)));
      f.settings = speculation_settings(context, ratio);
    }
    f.evidence = {{"successfulTasks", static_cast<double>(d.count), "count"},
                  {"taskDurationP50Ms", static_cast<double>(d.p50), "ms"},
                  {evidence_key::kTaskDurationMaxMs, static_cast<double>(longest), "ms"},
                  {"maxToMedianRatio", ratio, "ratio"},
                  {evidence_key::kDataMaxToMedianRatio, data.ratio, "ratio"}};
    if (longest < d.max) {
      f.evidence.push_back({"firstWaveTaskDurationMaxMs", static_cast<double>(d.max), "ms"});
      f.evidence.push_back({"firstWaveTasks", static_cast<double>(stage->first_wave_tasks_succeeded), "count"});
    }
    f.thresholds = {"stage.minDurationMs",        "skew.minTasks",
                    "straggler.maxToMedianRatio", "straggler.minExcessMs",
                    "skew.bytesMaxToMedianRatio", "skew.minBytesExcess"};
    f.confidence = std::min(context.confidence_above(ratio, t.straggler_max_to_median_ratio),
                            context.confidence_above(excess, t.straggler_min_excess_ms));
    claim_stage_ms(f, *stage, excess, EstimateMethod::kMeasured);
    findings.push_back(std::move(f));
  }
}

// --- stageShape ------------------------------------------------------------------------------

std::vector<SettingChange> partition_count_settings(const DetectorContext& context, const StageAttempt& stage,
                                                    int64_t partitions) {
  return partition_count_advice(context, stage, partitions).settings;
}

// Spark working out a DataFrame's schema before any query runs: `spark.read.parquet(path)` without
// a schema reads a footer in a job of its own (one task unless mergeSchema), JSON and CSV with an
// inferred schema read the data once more. Outside any SQL execution, its call site is the
// reader (org.apache.spark.sql.DataFrameReader, org.apache.spark.sql.classic.DataFrameReader
// since Spark 4). Its task count follows the files read for the schema, not a partitioning.
bool schema_discovery(const StageAttempt& stage) {
  if (stage.sql_execution_id) return false;
  const std::string_view call_site = std::string_view(stage.details).substr(0, stage.details.find('\n'));
  return call_site.starts_with("org.apache.spark.sql.DataFrameReader.") ||
         call_site.starts_with("org.apache.spark.sql.classic.DataFrameReader.");
}

void low_parallelism(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const StageAttempt* stage : context.ran_stages()) {
    // A stage whose tasks never started (cancelled while it waited) ran nothing: more tasks change nothing.
    if (stage->tasks_started == 0 || schema_discovery(*stage)) continue;
    // Before its first task the stage waited, and its few tasks kept no core from anything.
    const double duration = context.occupancy(*stage).running_ms();
    const double tasks = static_cast<double>(stage->num_tasks);
    const double cores = std::max(1.0, std::round(context.reshape_cores(*stage)));
    const double task_floor = t.low_parallelism_task_ratio * cores;
    if (!context.significant_ms(duration, t.shape_min_duration_ms) || tasks <= 0 || tasks >= task_floor) continue;
    // Spark's tuning guide: 2-3 tasks per core; the low end keeps tasks from getting tiny. No more
    // than the records the stage read, though: beyond one a task the rest would run empty (a
    // streaming batch of 3 Kafka records). A stage that makes its rows (reading none) is not capped.
    const int64_t records_read =
        stage->metric(TaskMetric::kInputRecords) + stage->metric(TaskMetric::kShuffleRecordsRead);
    const bool record_bound = records_read > 0 && records_read < static_cast<int64_t>(2 * cores);
    // A micro-batch of a few records is as big as its trigger made it: no partitioning of the
    // stage's own would give its cores work, and its time is the batch's fixed cost (a Kafka
    // consumer's start, a state store's load), not records to spread.
    if (record_bound && context.micro_batch_stage(*stage)) continue;
    const int64_t suggested = record_bound ? records_read : static_cast<int64_t>(2 * cores);
    if (suggested <= stage->num_tasks) continue;
    const double idle_cores = std::max(0.0, cores - tasks);

    Finding f = DetectorContext::stage_finding(*stage, finding_type::kStageShape, finding_rule::kLowParallelism);
    f.title = fmt::format("{} ran {} for {} {}", DetectorContext::stage_label(*stage),
                          units::format_counted(stage->num_tasks, "task"), duration_text(duration),
                          context.stage_cores_words(*stage));
    if (context.could_hold_more_cores(*stage)) {
      // Dynamic allocation asks for executors by pending tasks: the stage's few tasks are why it
      // never had more cores (junoHourly's stage 1.0: 40 tasks, about 34 cores of 200).
      f.explanation = fmt::format(
          "The stage had {} tasks. Dynamic allocation asks for executors by the tasks waiting to run, so while they "
          "ran the application held about {} cores; with more tasks it could have held {}, the most it held in this "
          "run, and at least {} of them would have had work of this stage for the {} its tasks ran.",
          format_count(stage->num_tasks), format_count(as_int(context.occupancy(*stage).window_cores)),
          format_count(static_cast<int64_t>(cores)), format_count(static_cast<int64_t>(idle_cores)),
          duration_text(duration));
    } else {
      f.explanation = fmt::format(
          "The stage had {} tasks while the application held {} cores, so at least {} cores had nothing of this "
          "stage to run for the {} its tasks ran.",
          format_count(stage->num_tasks), format_count(static_cast<int64_t>(cores)),
          format_count(static_cast<int64_t>(idle_cores)), duration_text(duration));
    }
    const PartitionAdvice advice = partition_count_advice(context, *stage, suggested);
    const std::string why = record_bound ? std::string("one for each record it read")
                                         : fmt::format("2-3 per core over {} cores", static_cast<int64_t>(cores));
    f.recommendation = fmt::format("Give the stage about {} tasks ({}).{}{}", suggested, why,
                                   advice.text.empty() ? "" : " ", advice.text);
    f.settings = advice.settings;
    f.evidence = {{"tasks", tasks, "count"},
                  {"totalCores", cores, "count"},
                  {"idleCores", idle_cores, "count"},
                  {"tasksRunningMs", duration, "ms"},
                  {"stageDurationMs", context.occupancy(*stage).duration_ms, "ms"}};
    f.thresholds = {"stageShape.lowParallelismTaskRatio", "stageShape.minDurationMs", "significance.appShare"};
    f.confidence = context.confidence_below(tasks, task_floor);
    f.validation_caveat =
        "The estimate spreads the stage's measured task time evenly over the suggested tasks; a partition that "
        "stays big (one hot key) keeps its time.";
    const double waste =
        context.claim_reshaped_stage(f, *stage, static_cast<double>(suggested), 1.0, EstimateMethod::kModeled);
    // More tasks that would not finish sooner are no finding.
    if (waste < t.significance_min_ms) continue;
    findings.push_back(std::move(f));
  }
}

void data_explosion(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const StageAttempt* stage : context.ran_stages()) {
    const double in_bytes = static_cast<double>(stage->metric(TaskMetric::kInputBytes) + stage->shuffle_read_bytes());
    const double out_bytes =
        static_cast<double>(stage->metric(TaskMetric::kOutputBytes) + stage->metric(TaskMetric::kShuffleWriteBytes));
    // A stage that reads nothing (a generated range) has no ratio to speak of.
    if (in_bytes <= 0 || out_bytes < t.data_explosion_min_output_bytes) continue;
    const double ratio = out_bytes / in_bytes;
    if (ratio < t.data_explosion_ratio) continue;
    const double in_records =
        static_cast<double>(stage->metric(TaskMetric::kInputRecords) + stage->metric(TaskMetric::kShuffleRecordsRead));
    const double out_records = static_cast<double>(stage->metric(TaskMetric::kOutputRecords) +
                                                   stage->metric(TaskMetric::kShuffleWriteRecords));

    Finding f = DetectorContext::stage_finding(*stage, finding_type::kStageShape, finding_rule::kDataExplosion);
    f.title = fmt::format("{} wrote {} from {} read ({:.1f}x)", DetectorContext::stage_label(*stage),
                          bytes_text(out_bytes), bytes_text(in_bytes), ratio);
    f.explanation = fmt::format(
        "The stage read {} (input and shuffle) and wrote {} (output and shuffle), {:.1f}x as "
        "much{}; every later stage carries the {} it added.",
        bytes_text(in_bytes), bytes_text(out_bytes), ratio,
        in_records > 0 ? fmt::format(", turning {} rows into {}", format_count(static_cast<int64_t>(in_records)),
                                     format_count(static_cast<int64_t>(out_records)))
                       : "",
        bytes_text(out_bytes - in_bytes));
    f.recommendation =
        "Find the operator that multiplies rows: a join on keys duplicated on both sides (every pair of "
        "matches is a row), a cartesian product or a join missing a condition, or explode()/flatMap. "
        "Deduplicate or pre-aggregate the join sides, add the missing condition, filter before exploding.";
    if (is_sql(*stage)) {
      f.recommendation += " With cross joins disallowed, an accidental cartesian product fails instead of running.";
      f.settings = {context.setting("spark.sql.crossJoin.enabled", "false")};
    }
    f.evidence = {{"inputBytes", static_cast<double>(stage->metric(TaskMetric::kInputBytes)), "bytes"},
                  {"shuffleReadBytes", static_cast<double>(stage->shuffle_read_bytes()), "bytes"},
                  {"outputBytes", static_cast<double>(stage->metric(TaskMetric::kOutputBytes)), "bytes"},
                  {"shuffleWriteBytes", static_cast<double>(stage->metric(TaskMetric::kShuffleWriteBytes)), "bytes"},
                  {"outputToInputRatio", ratio, "ratio"},
                  {"recordsIn", in_records, "count"},
                  {"recordsOut", out_records, "count"}};
    f.thresholds = {"stageShape.dataExplosionRatio", "stageShape.dataExplosionMinOutputBytes"};
    f.confidence = context.confidence_above(ratio, t.data_explosion_ratio);
    claim_resource(f, out_bytes - in_bytes, WasteUnit::kBytes);
    findings.push_back(std::move(f));
  }
}

void task_stage_skew(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const int32_t cores = context.total_cores();
  for (const StageAttempt* stage : context.ran_stages()) {
    const double duration = context.occupancy(*stage).duration_ms;
    const Quantiles& d = stage->quantile(QuantileMetric::kDurationMs);
    if (duration < t.shape_min_duration_ms || d.count < 2) continue;
    const double share = static_cast<double>(d.max) / duration;
    // Tasks that are all long (max == median) are too few tasks, not one dominating task:
    // lowParallelism's case.
    // A stage whose tasks are all about as long as the stage (a barrier stage, one wave of
    // equal tasks) passes the share test without any one task dominating: the longest task
    // must also run well past the median, by the skew family's noise floor.
    const double tail_ms = static_cast<double>(d.max - d.p50);
    if (share <= t.task_stage_skew_ratio || tail_ms < t.task_stage_skew_min_excess_ms) continue;
    // The longest task held the stage only if it still ran near the stage's end: one that ended a
    // median task's time (or a tenth of the stage) before it left the stage to the tasks that
    // came after (sparklint's junoHourly stage 0.0: its longest task ran from 4 s to 846 s of a
    // 1,354 s stage that a late wave of tasks, launched up to 672 s, ended).
    if (stage->max_task_duration_finish_ms && stage->max_task_duration_ms == d.max) {
      const double ended_before =
          context.occupancy(*stage).window.end_ms - static_cast<double>(*stage->max_task_duration_finish_ms);
      if (ended_before > std::max(static_cast<double>(d.p50), 0.1 * duration)) continue;
    }
    const int64_t task_count = stage->num_tasks > 0 ? stage->num_tasks : d.count;
    const double concurrency = std::min<double>(cores, static_cast<double>(task_count));
    const double idle_core_ms = std::max(0.0, concurrency - 1) * tail_ms;
    const BytesSpread data = data_spread(*stage, t);

    Finding f = DetectorContext::stage_finding(*stage, finding_type::kStageShape, finding_rule::kTaskStageSkew);
    // Said as the tail past the median: "one task took 99% of the stage" reads as one task doing
    // the stage's work, where in one wave of 14-minute tasks (junoHourly stage 1.0) every task
    // took most of it and the longest only held its end.
    f.title = fmt::format("{}: its longest task ran {} of the stage's {}, {} past the median task's {}",
                          DetectorContext::stage_label(*stage), format_duration_ms(d.max), duration_text(duration),
                          duration_text(tail_ms), format_duration_ms(d.p50));
    f.explanation = fmt::format(
        "The longest task ran {} of the stage's {} ({}); the median task ran {}. For the {} "
        "the longest task ran past the median, up to {} other cores had nothing left of this "
        "stage to run.",
        format_duration_ms(d.max), duration_text(duration), units::format_percent(share), format_duration_ms(d.p50),
        duration_text(tail_ms), format_count(static_cast<int64_t>(concurrency) - 1));
    const Advice advice = uneven_tasks_advice(context, *stage, data, ratio_to_median(d.max, d.p50));
    f.recommendation = advice.text;
    f.settings = advice.settings;
    f.evidence = {{evidence_key::kTaskDurationMaxMs, static_cast<double>(d.max), "ms"},
                  {"taskDurationP50Ms", static_cast<double>(d.p50), "ms"},
                  {"stageDurationMs", duration, "ms"},
                  {"taskToStageRatio", share, "ratio"},
                  {"concurrentCores", concurrency, "count"}};
    f.thresholds = {"stageShape.taskStageSkewRatio", "stageShape.minDurationMs", "stageShape.taskStageSkewMinExcessMs",
                    "skew.bytesMaxToMedianRatio", "skew.minBytesExcess"};
    f.confidence = context.confidence_above(share, t.task_stage_skew_ratio);
    claim_resource(f, idle_core_ms, WasteUnit::kCoreMs);
    findings.push_back(std::move(f));
  }
}

// --- stageShape/longLastWave -----------------------------------------------------------------

// A stage of several waves whose end its last wave set: its task time spread over its cores
// would have ended it well before it did, its data was even (skew's case otherwise), its longest
// task no time outlier (straggler's, at straggler.maxToMedianRatio), and the
// time past that is no more than its longest task (list scheduling ends within one task of the
// even spread; a longer gap is some other wait), nor the stage longer than its waves of its
// longest task. Long tasks still running when the rest had
// finished held it: smaller tasks end closer together (sparklint's junoHourly stage 0.0: 544
// tasks of 34 s to 14 min over 200 cores, 14m 28s of task time a core, 22m 44s long).
//
// Split so that the longest task, split alike, is at most this share of the even spread: the
// end it can still hold is a quarter of the stage's ideal.
constexpr double kLongestShareAfterSplit = 0.25;
constexpr int64_t kMostSplitWays = 8;

void long_last_wave(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const StageAttempt* stage : context.ran_stages()) {
    if (stage->tasks_started == 0 || schema_discovery(*stage)) continue;
    const double duration = context.occupancy(*stage).duration_ms;
    if (!context.significant_ms(duration, t.shape_min_duration_ms)) continue;
    const Quantiles& d = stage->quantile(QuantileMetric::kDurationMs);
    const StageWork work = context.work(*stage);
    if (work.cores < 2 || work.tasks <= work.cores || d.max <= 0) continue;
    const double spread_ms = work.slot_ms / work.cores + work.residual_ms;
    const double past_ms = duration - spread_ms;
    const auto longest = static_cast<double>(d.max);
    if (past_ms < t.last_wave_min_share * duration || past_ms > longest) continue;
    // Its waves account for its time: no longer than as many waves of its longest task as its
    // tasks fill. Beyond that the stage waited between tasks (a locality wait, a lost executor),
    // which smaller tasks do not remove.
    if (duration > work.residual_ms + std::ceil(work.tasks / work.cores) * longest) continue;
    // Skewed data is skew's; a longest task that is a time outlier is straggler's (its fix is the
    // host or a copy, not smaller tasks). A long last wave is typical tasks that started late.
    if (data_spread(*stage, t).skewed || ratio_to_median(d.max, d.p50) >= t.straggler_max_to_median_ratio) continue;
    const double ideal_ms = work.slot_ms / work.cores;
    const int64_t ways = std::clamp<int64_t>(
        static_cast<int64_t>(std::ceil(longest / (kLongestShareAfterSplit * ideal_ms))), 2, kMostSplitWays);
    const int64_t partitions = stage->num_tasks > 0 ? stage->num_tasks : static_cast<int64_t>(work.tasks);
    const int64_t suggested = partitions * ways;
    const double waves = work.tasks / work.cores;

    Finding f = DetectorContext::stage_finding(*stage, finding_type::kStageShape, finding_rule::kLongLastWave);
    f.title = fmt::format("{}: its last tasks ran {} past the rest of its work", DetectorContext::stage_label(*stage),
                          duration_text(past_ms));
    f.explanation = fmt::format(
        "The stage's {} tasks ran in {:.1f} waves on about {} cores: {} of task time, {} a core, yet the stage took "
        "{}. Its tasks were long (median {}, longest {}) and its data even, so the ones that started last were still "
        "running long after the others had finished, on a few cores while the rest had nothing of this stage left.",
        format_count(partitions), waves, format_count(as_int(work.cores)), duration_text(work.slot_ms),
        duration_text(ideal_ms), duration_text(duration), format_duration_ms(d.p50), format_duration_ms(d.max));
    const PartitionAdvice advice = partition_count_advice(context, *stage, suggested);
    f.recommendation = fmt::format(
        "Cut the stage's work into smaller tasks, about {} ({} ways): a longest task of about {} then ends close to "
        "the others.{}{}",
        format_count(suggested), ways, duration_text(longest / static_cast<double>(ways)),
        advice.text.empty() ? "" : " ", advice.text);
    f.settings = advice.settings;
    f.evidence = {{"tasks", work.tasks, "count"},
                  {"cores", work.cores, "count"},
                  {"waves", waves, "count"},
                  {"taskTimePerCoreMs", ideal_ms, "ms"},
                  {"pastTheSpreadMs", past_ms, "ms"},
                  {evidence_key::kTaskDurationMaxMs, longest, "ms"},
                  {"taskDurationP50Ms", static_cast<double>(d.p50), "ms"},
                  {"splitWays", static_cast<double>(ways), "count"},
                  {"stageDurationMs", duration, "ms"}};
    f.thresholds = {"stageShape.lastWaveMinShare", "stageShape.minDurationMs", "skew.bytesMaxToMedianRatio",
                    "straggler.maxToMedianRatio", "significance.appShare"};
    f.confidence = context.confidence_above(past_ms / duration, t.last_wave_min_share);
    f.validation_caveat = fmt::format(
        "The estimate spreads the stage's task time evenly over the smaller tasks; the longest of them (about {}) can "
        "still end after the rest, so the stage may gain up to that much less.",
        duration_text(longest / static_cast<double>(ways)));
    const double waste =
        context.claim_reshaped_stage(f, *stage, static_cast<double>(suggested), 1.0, EstimateMethod::kModeled);
    if (waste < t.significance_min_ms) continue;
    findings.push_back(std::move(f));
  }
}

// --- tinyTask --------------------------------------------------------------------------------

// How many partitions a stage of tiny tasks needs, and what that went by: enough for its data at
// partitionSizing.targetBytes each, and at least one per core, since fewer would leave cores idle.
// A stage that reads nothing is cut to a tenth, the spec's model. Never more than it had.
struct TinyTaskCut {
  int64_t partitions = 0;
  std::string reason;
};

TinyTaskCut tiny_task_cut(const StageAttempt& stage, const Thresholds& t, int32_t cores) {
  const int64_t tasks = stage.quantile(QuantileMetric::kDurationMs).count;
  const int64_t at_least = std::min<int64_t>(cores, tasks);
  const PartitionedData data = partitioned_data(stage);
  if (data.bytes <= 0 || t.partition_target_bytes <= 0) {
    return {std::max<int64_t>(at_least, static_cast<int64_t>(std::ceil(static_cast<double>(tasks) / 10))),
            "a tenth of them, one per core at least"};
  }
  const auto by_data = static_cast<int64_t>(std::ceil(static_cast<double>(data.bytes) / t.partition_target_bytes));
  return {std::clamp<int64_t>(by_data, at_least, tasks),
          fmt::format("its {} of {} at {} a partition, one per core at least", format_bytes(data.bytes), data.what,
                      format_bytes(static_cast<int64_t>(t.partition_target_bytes)))};
}

void tiny_task(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const int32_t cores = context.total_cores();
  for (const StageAttempt* stage : context.ran_stages()) {
    // A micro-batch's partitions are the stateful operators' (streamingShufflePartitions owns
    // them: fixed by the checkpoint) or the source's, and adaptive execution, which tinyTask's
    // advice leans on, does not run on micro-batches.
    if (!context.ran_long_enough(*stage) || context.micro_batch_stage(*stage)) continue;
    const Quantiles& d = stage->quantile(QuantileMetric::kDurationMs);
    const double tasks = static_cast<double>(d.count);
    if (tasks < t.tiny_task_min_tasks || static_cast<double>(d.p50) >= t.tiny_task_max_median_ms) continue;
    const TinyTaskCut cut = tiny_task_cut(*stage, t, cores);
    const int64_t suggested = cut.partitions;
    const double excess_tasks = tasks - static_cast<double>(suggested);
    const double overhead_ms = context.work(*stage).overhead_ms;
    const double waste_ms = excess_tasks * overhead_ms;

    Finding f = DetectorContext::stage_finding(*stage, finding_type::kTinyTask, finding_rule::kNone);
    f.title = fmt::format("{}: {} tasks with a median of {}", DetectorContext::stage_label(*stage),
                          format_count(d.count), format_duration_ms(d.p50));
    f.explanation = fmt::format(
        "The median task ran {}, little more than the cost of scheduling, launching and "
        "collecting a task (about {} each, as measured here). {} tasks would do the same work ({}); the {} extra "
        "ones cost about {} of task time in overhead.",
        format_duration_ms(d.p50), duration_text(overhead_ms), format_count(suggested), cut.reason,
        format_count(static_cast<int64_t>(excess_tasks)), duration_text(waste_ms));
    if (is_sql(*stage) && stage->shuffle_read_bytes() > 0) {
      const bool adaptive = context.effective_value("spark.sql.adaptive.enabled").value_or("false") == "true";
      const bool coalescing =
          adaptive &&
          context.effective_value("spark.sql.adaptive.coalescePartitions.enabled").value_or("true") == "true";
      f.recommendation = coalescing
                             ? fmt::format("Use fewer shuffle partitions: about {}.", suggested)
                             : fmt::format(
                                   "Let adaptive execution coalesce the small partitions after the shuffle (it was off "
                                   "here), or use fewer shuffle partitions: about {}.",
                                   suggested);
      f.settings = {context.setting("spark.sql.adaptive.enabled", "true"),
                    context.setting("spark.sql.adaptive.coalescePartitions.enabled", "true"),
                    context.lower_setting("spark.sql.shuffle.partitions", std::to_string(suggested))};
    } else {
      f.recommendation = fmt::format(
          "Use fewer, larger partitions: about {} (coalesce({}) on the input, or the "
          "setting below).",
          suggested, suggested);
      f.settings = partition_count_settings(context, *stage, suggested);
    }
    f.evidence = {{"successfulTasks", tasks, "count"},
                  {"taskDurationP50Ms", static_cast<double>(d.p50), "ms"},
                  {"excessTasks", excess_tasks, "count"},
                  {"taskOverheadMs", overhead_ms, "ms"},
                  {"suggestedPartitions", static_cast<double>(suggested), "count"}};
    f.thresholds = {"stage.minDurationMs", "tinyTask.maxMedianMs", "tinyTask.minTasks"};
    f.confidence = std::min(context.confidence_below(static_cast<double>(d.p50), t.tiny_task_max_median_ms),
                            context.confidence_above(tasks, t.tiny_task_min_tasks));
    f.validation_caveat =
        "The per-task overhead is measured (deserialization, scheduler delay, result handling and the shortest run), "
        "and the rest of the task time is taken to scale with the data; tasks this small are mostly overhead, so the "
        "estimate is the low side of what fewer tasks save.";
    const double waste =
        context.claim_reshaped_stage(f, *stage, static_cast<double>(suggested), 1.0, EstimateMethod::kModeled);
    if (waste < t.significance_min_ms) continue;
    findings.push_back(std::move(f));
  }
}

}  // namespace

void detect_task_distribution(const DetectorContext& context, std::vector<Finding>& findings) {
  skew(context, findings);
  straggler(context, findings);
  low_parallelism(context, findings);
  data_explosion(context, findings);
  task_stage_skew(context, findings);
  long_last_wave(context, findings);
  tiny_task(context, findings);
}

}  // namespace sf::analysis

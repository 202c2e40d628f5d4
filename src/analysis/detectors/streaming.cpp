// Structured Streaming: a query whose batches fall behind (longer than its trigger, or processing
// rows slower than they arrive), whose state grows without bound, whose stateful operators split
// each small batch into far more tasks than the cores run at once, or whose file sink writes many
// small files every batch. The figures are the
// query's summary (streaming_summary.h). A streaming application's wall-clock is the stream's
// life, which no fix shortens: these findings are informational, banded by how far past their
// thresholds they sit, and their cost is in their evidence (latency, rows, bytes).
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "analysis/detectors/detectors.h"
#include "analysis/findings/finding_types.h"
#include "common/units.h"

namespace sf::analysis {

namespace {

using model::StreamingPhase;

// A finding about one query run, its id ending with the run's key (StreamingQuerySummary::
// finding_key): the query's id, which restarts from one checkpoint keep, so runs compare.
Finding query_finding(const StreamingQuerySummary& s, std::string type, std::string rule) {
  Finding f;
  f.type = std::move(type);
  f.rule = std::move(rule);
  f.scope = Scope::kApp;
  f.id = DetectorContext::finding_id(f.type, f.rule, s.finding_key);
  f.claim.kind = WasteClaim::Kind::kInformational;
  return f;
}

std::string query_words(const StreamingQuerySummary& s) { return fmt::format("Streaming query \"{}\"", s.label); }

ImpactBand band_for(Confidence confidence) {
  switch (confidence) {
    case Confidence::kHigh: return ImpactBand::kHigh;
    case Confidence::kMedium: return ImpactBand::kMedium;
    case Confidence::kLow: return ImpactBand::kLow;
  }
  return ImpactBand::kLow;
}

// The usual interval a batch of this length fits in with a tenth to spare, for the trigger to
// suggest.
int64_t interval_that_fits(int64_t duration_ms) {
  constexpr int64_t kIntervalsMs[] = {1000,  2000,  3000,  5000,   10000,  15000,
                                      20000, 30000, 60000, 120000, 300000, 600000};
  const int64_t needed = duration_ms * 11 / 10;
  for (int64_t interval : kIntervalsMs) {
    if (interval >= needed) return interval;
  }
  return ((needed + 59999) / 60000) * 60000;
}

std::string seconds_words(int64_t ms) {
  if (ms % 60000 == 0) return fmt::format("{} minute{}", ms / 60000, ms == 60000 ? "" : "s");
  if (ms % 1000 == 0) return fmt::format("{} second{}", ms / 1000, ms == 1000 ? "" : "s");
  return fmt::format("{} milliseconds", ms);
}

// The phase of a batch that took the most time, in words with its share.
std::string slowest_phase_words(const StreamingQuerySummary& s) {
  if (s.phases.empty()) return "";
  const StreamingPhaseTotal& top = s.phases.front();
  return fmt::format("{} takes {} of the batches' time", model::streaming_phase_name(top.phase),
                     units::format_percent(top.share));
}

double phase_share(const StreamingQuerySummary& s, StreamingPhase phase) {
  for (const auto& p : s.phases) {
    if (p.phase == phase) return p.share;
  }
  return 0;
}

// What to change when batches overrun, by where their time goes.
std::string falling_behind_advice(const DetectorContext& context, const StreamingQuerySummary& s) {
  std::string advice;
  const double checkpoint_share =
      phase_share(s, StreamingPhase::kWalCommit) + phase_share(s, StreamingPhase::kCommitOffsets);
  if (checkpoint_share >= 0.3) {
    advice = fmt::format(
        "Writing the checkpoint (walCommit and commitOffsets) takes {} of each batch: put the checkpoint location on "
        "storage with low write latency (HDFS, or a local file system for a test), not an object store",
        units::format_percent(checkpoint_share));
    const auto version = context.spark_version();
    if (version && *version >= std::pair{3, 4}) {
      advice +=
          "; with a Kafka sink, asyncProgressTrackingEnabled=true (Spark 3.4+) takes the offset log off the "
          "batch's path";
    }
    advice += ". ";
  } else if (phase_share(s, StreamingPhase::kLatestOffset) + phase_share(s, StreamingPhase::kGetBatch) >= 0.3) {
    advice =
        "Most of each batch is spent asking the source for its offsets and data (latestOffset, getBatch): for a file "
        "source, a directory of many files is listed at every trigger (cleanSource, or fewer and larger files); for "
        "Kafka, check the brokers' latency. ";
  } else if (phase_share(s, StreamingPhase::kQueryPlanning) >= 0.3) {
    advice =
        "Planning takes a large share of every batch: a wide query (hundreds of columns, many unions) is planned again "
        "each trigger; fewer, longer batches spread that cost. ";
  } else {
    advice =
        "The batches' own work (addBatch: their Spark jobs and the sink, a foreachBatch function's own code included) "
        "takes their time: give the query more cores, or bound each batch's input "
        "(maxOffsetsPerTrigger for Kafka, maxFilesPerTrigger for files) so a batch fits the trigger. ";
  }
  return advice;
}

void falling_behind(const DetectorContext& context, const StreamingQuerySummary& s, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  if (static_cast<double>(s.batches) < t.streaming_min_batches) return;

  if (s.trigger_interval_ms) {
    const double late_share = static_cast<double>(s.batches_over_trigger) / static_cast<double>(s.batches);
    if (late_share >= t.streaming_over_trigger_share) {
      Finding f = query_finding(s, finding_type::kStreamingFallingBehind, finding_rule::kBatchOverTrigger);
      const int64_t interval = *s.trigger_interval_ms;
      f.title = fmt::format("{}: {} of {} batches ran longer than the {} trigger", query_words(s),
                            units::format_count(s.batches_over_trigger), units::format_count(s.batches),
                            units::format_duration_ms(interval));
      f.explanation = fmt::format(
          "The trigger interval is {} (read from the batches' start times: those that waited began on its multiples). "
          "A batch that runs longer starts the next one late, so results trail their input by more than the interval: "
          "the median batch took {}, the 95th percentile {}, the longest {}; {} in all past the trigger.{}",
          units::format_duration_ms(interval), units::format_duration_ms(s.duration_p50_ms),
          units::format_duration_ms(s.duration_p95_ms), units::format_duration_ms(s.duration_max_ms),
          units::format_duration_ms(s.time_over_trigger_ms),
          s.phases.empty() ? "" : " Where the time goes: " + slowest_phase_words(s) + ".");
      const int64_t fits = interval_that_fits(s.steady_duration_p90_ms);
      f.recommendation = falling_behind_advice(context, s) +
                         fmt::format(
                             "If the latency allows it, a trigger nine batches in ten fit in: "
                             "trigger(processingTime=\"{}\") (the 90th percentile batch after the first, {}, "
                             "and a tenth to spare).",
                             seconds_words(fits), units::format_duration_ms(s.steady_duration_p90_ms));
      f.evidence = {{"triggerIntervalMs", static_cast<double>(interval), "ms"},
                    {"batchesOverTrigger", static_cast<double>(s.batches_over_trigger), "count"},
                    {"batches", static_cast<double>(s.batches), "count"},
                    {"batchDurationP50Ms", static_cast<double>(s.duration_p50_ms), "ms"},
                    {"batchDurationP95Ms", static_cast<double>(s.duration_p95_ms), "ms"},
                    {"timeOverTriggerMs", static_cast<double>(s.time_over_trigger_ms), "ms"},
                    {"suggestedTriggerMs", static_cast<double>(fits), "ms"}};
      f.thresholds = {"streaming.minBatches", "streaming.overTriggerShare"};
      f.confidence = context.confidence_above(late_share, t.streaming_over_trigger_share);
      f.band = band_for(f.confidence);
      f.validation_caveat =
          "The interval is inferred from when batches started; a trigger changed while the query ran, or a clock that "
          "drifts, would mislead it.";
      findings.push_back(std::move(f));
      return;
    }
  }

  if (!s.recent_input_rows_per_second || !s.recent_processed_rows_per_second) return;
  if (static_cast<double>(s.batches_with_input) < t.streaming_min_batches) return;
  const double ratio = *s.recent_processed_rows_per_second / *s.recent_input_rows_per_second;
  if (ratio >= t.streaming_processed_to_input_ratio) return;
  Finding f = query_finding(s, finding_type::kStreamingFallingBehind, finding_rule::kInputOutpacesProcessing);
  f.title = fmt::format("{}: rows arrive faster than its batches process them ({:.0f}/s in, {:.0f}/s processed)",
                        query_words(s), *s.recent_input_rows_per_second, *s.recent_processed_rows_per_second);
  f.explanation = fmt::format(
      "Over the later half of its {} batches with input, rows arrived at {:.0f} a second and the batches processed "
      "{:.0f} a second ({} of the arrival rate): each batch finds more waiting than the last, so the backlog and the "
      "latency grow until the input slows down.{}",
      units::format_count(s.batches_with_input), *s.recent_input_rows_per_second, *s.recent_processed_rows_per_second,
      units::format_percent(ratio), s.phases.empty() ? "" : " Where the time goes: " + slowest_phase_words(s) + ".");
  f.recommendation = falling_behind_advice(context, s) +
                     "A query that must keep up needs its processing rate above its input rate with room to spare.";
  f.evidence = {{"inputRowsPerSecond", *s.recent_input_rows_per_second, "rows/s"},
                {"processedRowsPerSecond", *s.recent_processed_rows_per_second, "rows/s"},
                {"processedToInputRatio", ratio, "ratio"},
                {"batchesWithInput", static_cast<double>(s.batches_with_input), "count"}};
  f.thresholds = {"streaming.minBatches", "streaming.processedToInputRatio"};
  f.confidence = context.confidence_below(ratio, t.streaming_processed_to_input_ratio);
  f.band = band_for(f.confidence);
  findings.push_back(std::move(f));
}

// What bounds the state of each kind of stateful operator, in this log's Spark.
std::string state_bound_advice(const DetectorContext& context, const model::StreamingQuery& query) {
  const auto version = context.spark_version();
  const bool spark35 = version && *version >= std::pair{3, 5};
  const bool spark40 = version && *version >= std::pair{4, 0};
  std::vector<std::string> advice;
  for (const std::string& op : query.state_operators) {
    if (op == "dedupe") {
      advice.push_back(spark35 ? "for dropDuplicates, dropDuplicatesWithinWatermark (Spark 3.5+) after withWatermark, "
                                 "or the event-time column among the keys with a watermark on it"
                               : "for dropDuplicates, the event-time column among the keys, with withWatermark on it");
    } else if (op == "symmetricHashJoin") {
      advice.push_back("for the stream-stream join, a watermark on both sides and a time-range condition between them");
    } else if (op.find("GroupsWithState") != std::string::npos) {
      advice.push_back("for (flat)mapGroupsWithState, a GroupStateTimeout that removes idle keys");
    } else if (op.find("transformWithState") != std::string::npos) {
      advice.push_back("for transformWithState, a TTL on its state variables (TTLConfig)");
    } else {
      advice.push_back(
          "for the aggregation, withWatermark on the event-time column before the groupBy, grouped by a "
          "window of it, in append or update mode");
    }
  }
  std::sort(advice.begin(), advice.end());
  advice.erase(std::unique(advice.begin(), advice.end()), advice.end());
  std::string words = "Bound the state: ";
  for (size_t i = 0; i < advice.size(); ++i) words += (i ? "; " : "") + advice[i];
  words += ". Spark then drops the rows older than the watermark after each batch.";
  if (spark40 && words.find("transformWithState") == std::string::npos) {
    words += " State that no watermark can bound belongs in transformWithState with a TTL (Spark 4.0+).";
  }
  return words;
}

void state_growth(const DetectorContext& context, const StreamingQuerySummary& s, const model::StreamingQuery& query,
                  std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  if (!s.stateful || static_cast<double>(s.batches) < t.streaming_state_min_batches) return;
  if (static_cast<double>(s.state_rows_last) < t.streaming_state_min_rows || s.state_rows_per_batch <= 0) return;
  if (s.state_growth_fit < t.streaming_state_growth_fit) return;
  // Rows leave the state only when a watermark (or a timeout) evicts them: a query that evicted
  // any is bounded, however its state grew in the run seen.
  if (s.state_rows_removed.value_or(0) > 0) return;
  if (s.state_rows_last < 2 * std::max<int64_t>(s.state_rows_first, 1)) return;

  Finding f = query_finding(s, finding_type::kStreamingStateGrowth, finding_rule::kUnbounded);
  f.title = fmt::format("{}: its state grew to {} rows ({}) and nothing leaves it", query_words(s),
                        units::format_count(s.state_rows_last), units::format_bytes(s.state_memory_last_bytes));
  f.explanation = fmt::format(
      "Over {} batches the state of its {} grew from {} to {} rows, about {} rows a batch on a straight line (r "
      "squared "
      "{:.2f}), and no batch removed a row{}. State that only grows is kept by every batch, checkpointed with it and "
      "held in the executors' memory: it runs out of memory, or each batch's state commit slows, as the stream goes "
      "on.",
      units::format_count(s.batches), query.state_operators.size() == 1 ? "stateful operator" : "stateful operators",
      units::format_count(s.state_rows_first), units::format_count(s.state_rows_last),
      units::format_count(static_cast<int64_t>(std::llround(s.state_rows_per_batch))), s.state_growth_fit,
      s.has_watermark() ? " although the query has a watermark (its operators do not use it)"
                        : " (the query sets no watermark)");
  f.recommendation = state_bound_advice(context, query);
  const auto version = context.spark_version();
  const auto provider = context.effective_value("spark.sql.streaming.stateStore.providerClass");
  if (version && *version >= std::pair{3, 2} && provider && provider->find("RocksDB") == std::string::npos &&
      static_cast<double>(s.state_memory_max_bytes) >= t.streaming_rocksdb_min_state_bytes) {
    f.recommendation +=
        " Until it is bounded, RocksDB keeps the state off the executors' heap (Spark 3.2+; like the partition count, "
        "the provider is the checkpoint's: it takes effect with a new checkpoint location).";
    f.settings.push_back(context.setting("spark.sql.streaming.stateStore.providerClass",
                                         "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"));
  }
  f.evidence = {{"stateRowsFirst", static_cast<double>(s.state_rows_first), "count"},
                {"stateRowsLast", static_cast<double>(s.state_rows_last), "count"},
                {"stateRowsPerBatch", s.state_rows_per_batch, "count"},
                {"stateGrowthFit", s.state_growth_fit, "fraction"},
                {"stateMemoryBytes", static_cast<double>(s.state_memory_last_bytes), "bytes"}};
  f.thresholds = {"streaming.stateMinBatches", "streaming.stateMinRows", "streaming.stateGrowthFit",
                  "streaming.rocksDbMinStateBytes"};
  f.confidence = context.confidence_above(static_cast<double>(s.batches), t.streaming_state_min_batches);
  f.band = band_for(f.confidence);
  f.validation_caveat =
      "A run this short shows the growth, not its end: state bounded by a watermark far behind (hours) also grows "
      "until the watermark catches up, and then removes rows.";
  findings.push_back(std::move(f));
}

// The median task of the query's micro-batch stages that ran `partitions` tasks (its stateful
// operators' stages), the median over those stages; nullopt when the log has none.
std::optional<double> state_task_median_ms(const DetectorContext& context, const model::StreamingQuery& query,
                                           int32_t partitions) {
  std::vector<int64_t> medians;
  for (const model::StageAttempt* stage : context.ran_stages()) {
    if (stage->num_tasks != partitions) continue;
    const bool of_query = std::any_of(stage->job_ids.begin(), stage->job_ids.end(), [&](int64_t id) {
      const model::Job* job = context.model().job(id);
      return job != nullptr && job->streaming_batch_id && job->job_group == query.run_id;
    });
    const auto& d = stage->quantile(model::QuantileMetric::kDurationMs);
    if (of_query && d.count > 0) medians.push_back(d.p50);
  }
  if (medians.empty()) return std::nullopt;
  std::nth_element(medians.begin(), medians.begin() + static_cast<std::ptrdiff_t>(medians.size() / 2), medians.end());
  return static_cast<double>(medians[medians.size() / 2]);
}

void shuffle_partitions(const DetectorContext& context, const StreamingQuerySummary& s,
                        const model::StreamingQuery& query, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  if (!s.stateful || !s.shuffle_partitions || static_cast<double>(s.batches) < t.streaming_min_batches) return;
  const int32_t partitions = *s.shuffle_partitions;
  const int32_t cores = context.total_cores();
  if (static_cast<double>(partitions) < t.streaming_partitions_per_core * cores) return;
  const double rows_per_partition = static_cast<double>(s.rows_per_batch_p50) / partitions;
  if (rows_per_partition >= t.streaming_min_rows_per_partition) return;

  // Each partition is a task of every batch that loads, updates and commits its part of the
  // state. The batches' stages of that many tasks measure what one costs (their median task); the
  // tasks past the cores' count run in waves of the cores. Without those stages in the log, a
  // task is taken to cost impact.taskOverheadMs.
  const int32_t suggested = std::max(cores, 1);
  const std::optional<double> measured_task_ms = state_task_median_ms(context, query, partitions);
  const double task_ms = measured_task_ms.value_or(t.task_overhead_ms);
  const double overhead_ms = static_cast<double>(partitions - suggested) / cores * task_ms;
  Finding f = query_finding(s, finding_type::kStreamingShufflePartitions, finding_rule::kTooManyForBatch);
  f.title = fmt::format("{}: {} state partitions for batches of about {} rows, on {} cores", query_words(s), partitions,
                        units::format_count(s.rows_per_batch_p50), cores);
  f.explanation = fmt::format(
      "Its stateful operators split every batch into {} partitions, each a task that loads and commits its part of the "
      "state, on {} cores: {} rows a partition in the median batch (of {} rows). A state task takes {} ({}): the "
      "tasks past one for each core cost about {} of every batch (the median batch took {}){}.",
      partitions, cores, fmt::format("{:.0f}", rows_per_partition), units::format_count(s.rows_per_batch_p50),
      units::format_duration_ms(static_cast<int64_t>(task_ms)),
      measured_task_ms ? "the median task of the batches' state stages" : "impact.taskOverheadMs, taken for a task",
      units::format_duration_ms(static_cast<int64_t>(overhead_ms)), units::format_duration_ms(s.duration_p50_ms),
      s.tasks_per_batch_p50 > 0 ? fmt::format("; its batches ran {} tasks in the median", s.tasks_per_batch_p50) : "");
  f.recommendation = fmt::format(
      "Run the query with spark.sql.shuffle.partitions={} (the cores). A stateful query keeps the partition count its "
      "checkpoint was created with: the setting takes effect with a new checkpoint location (the state starts empty), "
      "not on a restart from this one.",
      suggested);
  f.settings.push_back(context.lower_setting("spark.sql.shuffle.partitions", std::to_string(suggested)));
  f.evidence = {{"shufflePartitions", static_cast<double>(partitions), "count"},
                {"cores", static_cast<double>(cores), "count"},
                {"rowsPerBatchP50", static_cast<double>(s.rows_per_batch_p50), "count"},
                {"stateTaskMedianMs", task_ms, "ms"},
                {"taskOverheadPerBatchMs", overhead_ms, "ms"},
                {"batchDurationP50Ms", static_cast<double>(s.duration_p50_ms), "ms"}};
  f.thresholds = {"streaming.partitionsPerCore", "streaming.minRowsPerPartition", "impact.taskOverheadMs"};
  f.confidence = context.confidence_above(static_cast<double>(partitions) / cores, t.streaming_partitions_per_core);
  f.band = overhead_ms >= 0.25 * static_cast<double>(std::max<int64_t>(s.duration_p50_ms, 1)) ? band_for(f.confidence)
                                                                                              : ImpactBand::kLow;
  findings.push_back(std::move(f));
}

// A sink that writes files: Spark's own (FileSink[path]) and Delta Lake's (DeltaSink[path]).
bool file_sink(const model::StreamingQuery& query) {
  return query.sink.starts_with("FileSink[") || query.sink.starts_with("DeltaSink[");
}

void small_files(const DetectorContext& context, const StreamingQuerySummary& s, const model::StreamingQuery& query,
                 std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  if (!file_sink(query) || static_cast<double>(s.batches_with_output) < t.streaming_min_batches) return;
  if (static_cast<double>(s.output_tasks_per_batch_p50) < t.streaming_min_files_per_batch) return;
  if (static_cast<double>(s.output_bytes_per_task) >= t.streaming_small_file_bytes) return;
  const bool delta = query.sink.starts_with("DeltaSink[");
  // Files a day at the observed pace: the trigger's, else the batches' own.
  const double batch_every_ms = s.trigger_interval_ms ? static_cast<double>(*s.trigger_interval_ms)
                                                      : static_cast<double>(std::max<int64_t>(s.total_batch_ms, 1)) /
                                                            static_cast<double>(s.batches);
  const double files_a_day = static_cast<double>(s.output_tasks_per_batch_p50) * 86'400'000.0 / batch_every_ms;

  Finding f = query_finding(s, finding_type::kStreamingSmallFiles, finding_rule::kFilesPerBatch);
  f.title = fmt::format("{}: each batch writes about {} files of {} on average to {}", query_words(s),
                        s.output_tasks_per_batch_p50, units::format_bytes(s.output_bytes_per_task),
                        delta ? "its Delta table" : "its file sink");
  f.explanation = fmt::format(
      "In the median of its {} batches that wrote output, {} tasks wrote, each a file of its own (one a task, more "
      "with partitionBy), of {} on average. At this pace that is about {} files a day: every reader lists and opens "
      "them all{}.",
      units::format_count(s.batches_with_output), s.output_tasks_per_batch_p50,
      units::format_bytes(s.output_bytes_per_task), units::format_count(static_cast<int64_t>(files_a_day)),
      delta ? ", and the table's log grows with every one"
            : ", and the sink's _spark_metadata log, which every reader of the directory reads first, grows with every "
              "one");
  f.recommendation =
      "Write fewer, larger files: coalesce the batch before the sink (df.coalesce(n) with n such that each file holds "
      "tens of MiB: one, for batches this small), and a longer trigger so each batch holds more rows.";
  if (delta) {
    f.recommendation +=
        " Delta Lake can do this itself: optimized writes (delta.autoOptimize.optimizeWrite, "
        "spark.databricks.delta.optimizeWrite.enabled) and auto compaction (delta.autoOptimize.autoCompact), or "
        "OPTIMIZE on a schedule.";
  } else {
    f.recommendation +=
        " A plain file sink cannot compact what it wrote (its metadata log lists every file): a table format "
        "(Delta Lake, Iceberg) can.";
  }
  f.evidence = {{"filesPerBatchP50", static_cast<double>(s.output_tasks_per_batch_p50), "count"},
                {"bytesPerFile", static_cast<double>(s.output_bytes_per_task), "bytes"},
                {"batchesWithOutput", static_cast<double>(s.batches_with_output), "count"},
                {"filesPerDay", files_a_day, "count"}};
  f.thresholds = {"streaming.minBatches", "streaming.minFilesPerBatch", "streaming.smallFileBytes"};
  f.confidence = context.confidence_below(static_cast<double>(std::max<int64_t>(s.output_bytes_per_task, 1)),
                                          t.streaming_small_file_bytes);
  f.band = band_for(f.confidence);
  f.validation_caveat =
      "Files are counted as the writing tasks (one a task without partitionBy); Spark logs no count of the files a "
      "streaming sink wrote.";
  findings.push_back(std::move(f));
}

}  // namespace

void detect_streaming(const DetectorContext& context, std::vector<Finding>& findings) {
  const auto& queries = context.model().streaming_queries;
  for (const StreamingQuerySummary& s : context.streaming()) {
    const model::StreamingQuery& query = queries[s.query_index];
    falling_behind(context, s, findings);
    state_growth(context, s, query, findings);
    shuffle_partitions(context, s, query, findings);
    small_files(context, s, query, findings);
  }
}

}  // namespace sf::analysis

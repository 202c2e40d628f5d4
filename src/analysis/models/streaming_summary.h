// What a Structured Streaming query's batches add up to: its trigger (inferred: the log does not
// name it), how its batches kept up with it and with their input, its state over time, its
// watermark's lag, and where a batch's time goes. The streaming detectors, the reports and the
// dashboard's query page read these figures; none works them out again.
//
// The trigger interval: Spark's ProcessingTimeExecutor starts a batch that finished in time at
// the next multiple of the interval since the epoch, and one that overran at once. So the batches
// that waited before they started (a gap after the previous batch's end) start on the interval's
// grid, and the interval is the longest of the usual ones on which every one of them falls. A
// query whose batches never wait ran back to back: the default trigger, or every batch overran.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/streaming_query.h"

namespace sf::analysis {

enum class TriggerBasis {
  kAlignedStarts,  // batches that waited start on the interval's grid
  kBackToBack,     // no batch waited: the default trigger (or every batch overran its interval)
  kUnknown,        // too few batches, or starts on no grid
};
std::string_view to_string(TriggerBasis basis);  // alignedStarts, backToBack, unknown

// As Spark UI's Structured Streaming tab says it: a run the log holds no termination of is active.
enum class StreamingRunStatus { kRunning, kFinished, kFailed };
std::string_view to_string(StreamingRunStatus status);  // RUNNING, FINISHED, FAILED

struct StreamingPhaseTotal {
  model::StreamingPhase phase;
  int64_t ms = 0;
  double share = 0;  // of the batches' triggerExecution time
};

struct StreamingQuerySummary {
  // Which run: its place in AppModel::streaming_queries, and its ids (a summary outlives no model,
  // but is read beside it).
  size_t query_index = 0;
  std::string run_id;
  std::string label;  // the query's name, else its id
  // What a streaming finding about this run ends its id with ("query-<id>", and "-run-<index>"
  // when the log holds several runs of that id): how a front end finds a run's findings (a
  // finding's id is "<type>/<rule>/<key>"). Set by summarize_streaming, which sees every run.
  std::string finding_key;
  StreamingRunStatus status = StreamingRunStatus::kRunning;
  // From the run's start to the end of its last batch (the log does not time a termination), and
  // the id of that batch: the tab's Duration and Latest Batch. Absent without a start or a batch.
  std::optional<int64_t> run_duration_ms;
  std::optional<int64_t> latest_batch_id;
  int64_t batches = 0;
  int64_t batches_with_input = 0;
  std::optional<int64_t> trigger_interval_ms;
  TriggerBasis trigger_basis = TriggerBasis::kUnknown;
  int64_t batches_over_trigger = 0;  // longer than the interval, when there is one
  int64_t time_over_trigger_ms = 0;  // their time past it
  // Batch durations, by nearest rank.
  int64_t duration_p50_ms = 0, duration_p95_ms = 0, duration_max_ms = 0;
  // The 90th percentile of the batches after the first (which plans and compiles the query).
  int64_t steady_duration_p90_ms = 0;
  int64_t total_batch_ms = 0;
  int64_t input_rows = 0;
  // Rows per second: arrived, over the time between the triggers of the batches with input;
  // processed, over those batches' own time. Absent without the figures.
  std::optional<double> input_rows_per_second;
  std::optional<double> processed_rows_per_second;
  // The same over the later half of the batches with input: whether the query falls behind now.
  std::optional<double> recent_input_rows_per_second;
  std::optional<double> recent_processed_rows_per_second;
  int64_t rows_per_batch_p50 = 0;
  int64_t tasks_per_batch_p50 = 0;
  // What the batches wrote: those that wrote anything, the median of their writing tasks (a file
  // sink's files, one a task without partitionBy), and the bytes a writing task wrote on average.
  int64_t batches_with_output = 0;
  int64_t output_tasks_per_batch_p50 = 0;
  int64_t output_bytes_per_task = 0;
  // State (stateful queries): rows and memory at the first and last batch, the growth per batch
  // fitted over all of them (least squares) and how well a line fits it (r squared), and the rows
  // removed over the run (absent when Spark did not report removals).
  bool stateful = false;
  int64_t state_rows_first = 0, state_rows_last = 0, state_rows_max = 0;
  int64_t state_memory_last_bytes = 0, state_memory_max_bytes = 0;
  double state_rows_per_batch = 0;
  double state_growth_fit = 0;
  std::optional<int64_t> state_rows_removed;
  std::optional<int64_t> rows_dropped_by_watermark;
  std::optional<int32_t> shuffle_partitions;
  // Watermark (queries that set one): how far behind the batch's own start it stood, at the last
  // batch and at most.
  std::optional<int64_t> watermark_lag_last_ms;
  std::optional<int64_t> watermark_lag_max_ms;
  // Where the batches' time went, by phase, largest first; the phases Spark timed only.
  std::vector<StreamingPhaseTotal> phases;

  bool has_watermark() const { return watermark_lag_last_ms.has_value(); }
};

StreamingQuerySummary summarize(const model::StreamingQuery& query, size_t query_index = 0);

// The summaries of every query run in the model, in its order.
std::vector<StreamingQuerySummary> summarize_streaming(const std::vector<model::StreamingQuery>& queries);

}  // namespace sf::analysis

#include "analysis/models/streaming_summary.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "model/quantiles.h"

namespace sf::analysis {

namespace {

using model::StreamingBatch;
using model::StreamingPhase;

// The intervals people set (Trigger.ProcessingTime("1 second"), "30 seconds", "5 minutes"...).
constexpr int64_t kUsualIntervalsMs[] = {100,   200,   250,   500,    1000,   2000,   3000,   5000,    10000,  15000,
                                         20000, 30000, 60000, 120000, 300000, 600000, 900000, 1800000, 3600000};
// A batch that started this long after the previous one ended waited for its trigger.
constexpr int64_t kWaitedMs = 20;
// How late after its grid point a waited batch may start: the trigger loop wakes, then the batch
// takes its start time. A few milliseconds on a quiet driver, whatever the interval.
int64_t start_tolerance_ms(int64_t interval_ms) { return std::clamp<int64_t>(interval_ms / 20, 10, 100); }
// Waited starts an interval needs before it is believed: a short interval's grid is dense, so
// starts that fall on it by chance need more of them to be told apart.
size_t starts_needed(int64_t interval_ms) { return interval_ms < 1000 ? 5 : 3; }

struct TriggerGuess {
  std::optional<int64_t> interval_ms;
  TriggerBasis basis = TriggerBasis::kUnknown;
};

// Whether every pair of consecutive batches is what Spark's trigger loop does with `interval`.
// The loop sets the next trigger at the grid point after a batch's start (start / interval *
// interval + interval). A batch that ended before that point waits for it, so the next batch
// starts on the grid (at that point, or a later one if the source had nothing new then). One
// that ran past it triggers again at once: the next batch starts right after it, or, when that
// trigger found nothing new, on a later grid point. `waited` counts the batches that started on
// the grid after one that ended in time: the starts that show the interval.
bool schedule_fits(const std::vector<StreamingBatch>& batches, int64_t interval, size_t& waited) {
  const int64_t tolerance = start_tolerance_ms(interval);
  const int64_t at_once = std::clamp<int64_t>(interval / 4, 20, 250);
  waited = 0;
  for (size_t i = 1; i < batches.size(); ++i) {
    const StreamingBatch& previous = batches[i - 1];
    const StreamingBatch& batch = batches[i];
    if (!previous.start_ms || !batch.start_ms) continue;
    const int64_t next_point = *previous.start_ms / interval * interval + interval;
    const int64_t previous_end = *previous.start_ms + previous.duration_ms;
    const bool overran = previous_end + tolerance >= next_point;
    const bool on_grid = *batch.start_ms % interval <= tolerance && *batch.start_ms + tolerance >= next_point;
    if (on_grid) {
      waited += overran ? 0 : 1;
      continue;
    }
    if (!overran || *batch.start_ms - previous_end > at_once) return false;
  }
  return true;
}

TriggerGuess infer_trigger(const std::vector<StreamingBatch>& batches) {
  size_t pairs = 0, waited_pairs = 0;
  for (size_t i = 1; i < batches.size(); ++i) {
    if (!batches[i - 1].start_ms || !batches[i].start_ms) continue;
    ++pairs;
    if (*batches[i].start_ms - (*batches[i - 1].start_ms + batches[i - 1].duration_ms) > kWaitedMs) ++waited_pairs;
  }
  if (waited_pairs == 0) return pairs >= 2 ? TriggerGuess{std::nullopt, TriggerBasis::kBackToBack} : TriggerGuess{};
  // The longest usual interval the schedule fits: a multiple of the real one can fit the waited
  // starts, but not the batches that waited for a point between its own.
  for (auto it = std::rbegin(kUsualIntervalsMs); it != std::rend(kUsualIntervalsMs); ++it) {
    size_t waited = 0;
    if (schedule_fits(batches, *it, waited) && waited >= starts_needed(*it)) {
      return {*it, TriggerBasis::kAlignedStarts};
    }
  }
  return {};
}

int64_t nearest_rank(std::vector<int64_t> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return model::quantile_of_sorted(values, q);
}

struct Rates {
  std::optional<double> input, processed;
};

// Rows per second over a run of batches: arrived (each batch's rows over the time its rate
// implies) and processed (over the batches' own time).
Rates rates_of(const std::vector<const StreamingBatch*>& batches) {
  double rows_with_input_rate = 0, arrival_seconds = 0, rows = 0, batch_seconds = 0;
  for (const StreamingBatch* b : batches) {
    const auto input_rows = static_cast<double>(b->input_rows);
    if (b->input_rows_per_second && *b->input_rows_per_second > 0) {
      rows_with_input_rate += input_rows;
      arrival_seconds += input_rows / *b->input_rows_per_second;
    }
    rows += input_rows;
    batch_seconds += static_cast<double>(b->duration_ms) / 1000.0;
  }
  Rates r;
  if (arrival_seconds > 0) r.input = rows_with_input_rate / arrival_seconds;
  if (batch_seconds > 0 && rows > 0) r.processed = rows / batch_seconds;
  return r;
}

void summarize_state(const std::vector<StreamingBatch>& batches, StreamingQuerySummary& s) {
  const auto n = static_cast<double>(batches.size());
  s.state_rows_first = batches.front().state_rows;
  s.state_rows_last = batches.back().state_rows;
  s.state_memory_last_bytes = batches.back().state_memory_bytes;
  double mean_x = (n - 1) / 2, mean_y = 0;
  for (const StreamingBatch& b : batches) mean_y += static_cast<double>(b.state_rows) / n;
  double sxx = 0, syy = 0, sxy = 0;
  for (size_t i = 0; i < batches.size(); ++i) {
    const StreamingBatch& b = batches[i];
    s.state_rows_max = std::max(s.state_rows_max, b.state_rows);
    s.state_memory_max_bytes = std::max(s.state_memory_max_bytes, b.state_memory_bytes);
    if (b.state_rows_removed) s.state_rows_removed = s.state_rows_removed.value_or(0) + *b.state_rows_removed;
    if (b.rows_dropped_by_watermark) {
      s.rows_dropped_by_watermark = s.rows_dropped_by_watermark.value_or(0) + *b.rows_dropped_by_watermark;
    }
    if (b.shuffle_partitions) s.shuffle_partitions = std::max(s.shuffle_partitions.value_or(0), *b.shuffle_partitions);
    const double dx = static_cast<double>(i) - mean_x, dy = static_cast<double>(b.state_rows) - mean_y;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  if (sxx > 0) s.state_rows_per_batch = sxy / sxx;
  if (sxx > 0 && syy > 0) s.state_growth_fit = sxy * sxy / (sxx * syy);
}

void summarize_phases(const std::vector<StreamingBatch>& batches, StreamingQuerySummary& s) {
  std::array<int64_t, model::kStreamingPhaseCount> totals{};
  std::array<bool, model::kStreamingPhaseCount> timed{};
  for (const StreamingBatch& b : batches) {
    for (size_t p = 0; p < model::kStreamingPhaseCount; ++p) {
      if (!b.phase_ms[p]) continue;
      totals[p] += *b.phase_ms[p];
      timed[p] = true;
    }
  }
  const auto whole = static_cast<size_t>(StreamingPhase::kTriggerExecution);
  const double denominator = static_cast<double>(totals[whole] > 0 ? totals[whole] : s.total_batch_ms);
  for (size_t p = 0; p < model::kStreamingPhaseCount; ++p) {
    if (p == whole || !timed[p]) continue;
    s.phases.push_back({static_cast<StreamingPhase>(p), totals[p],
                        denominator > 0 ? static_cast<double>(totals[p]) / denominator : 0});
  }
  std::stable_sort(s.phases.begin(), s.phases.end(), [](const auto& a, const auto& b) { return a.ms > b.ms; });
}

}  // namespace

std::string_view to_string(TriggerBasis basis) {
  switch (basis) {
    case TriggerBasis::kAlignedStarts: return "alignedStarts";
    case TriggerBasis::kBackToBack: return "backToBack";
    case TriggerBasis::kUnknown: return "unknown";
  }
  return "unknown";
}

std::string_view to_string(StreamingRunStatus status) {
  switch (status) {
    case StreamingRunStatus::kRunning: return "RUNNING";
    case StreamingRunStatus::kFinished: return "FINISHED";
    case StreamingRunStatus::kFailed: return "FAILED";
  }
  return "RUNNING";
}

StreamingQuerySummary summarize(const model::StreamingQuery& query, size_t query_index) {
  StreamingQuerySummary s;
  s.query_index = query_index;
  s.run_id = query.run_id;
  s.label = std::string(query.label());
  if (query.terminated) s.status = query.exception ? StreamingRunStatus::kFailed : StreamingRunStatus::kFinished;
  const auto& batches = query.batches;
  s.batches = static_cast<int64_t>(batches.size());
  if (batches.empty()) return s;
  s.latest_batch_id = batches.back().batch_id;
  std::optional<int64_t> end_ms;
  for (const StreamingBatch& b : batches) {
    if (b.start_ms) end_ms = std::max(end_ms.value_or(*b.start_ms + b.duration_ms), *b.start_ms + b.duration_ms);
  }
  if (query.start_ms && end_ms) s.run_duration_ms = std::max<int64_t>(0, *end_ms - *query.start_ms);

  const TriggerGuess trigger = infer_trigger(batches);
  s.trigger_interval_ms = trigger.interval_ms;
  s.trigger_basis = trigger.basis;

  std::vector<int64_t> durations, rows_per_batch, tasks_per_batch, output_tasks;
  int64_t output_bytes = 0, all_output_tasks = 0;
  std::vector<const StreamingBatch*> with_input;
  for (const StreamingBatch& b : batches) {
    durations.push_back(b.duration_ms);
    s.total_batch_ms += b.duration_ms;
    s.input_rows += b.input_rows;
    if (s.trigger_interval_ms && b.duration_ms > *s.trigger_interval_ms) {
      ++s.batches_over_trigger;
      s.time_over_trigger_ms += b.duration_ms - *s.trigger_interval_ms;
    }
    if (b.input_rows > 0) {
      with_input.push_back(&b);
      rows_per_batch.push_back(b.input_rows);
    }
    if (b.jobs > 0) tasks_per_batch.push_back(b.tasks);
    if (b.output_tasks > 0) {
      output_tasks.push_back(b.output_tasks);
      output_bytes += b.output_bytes;
      all_output_tasks += b.output_tasks;
    }
    if (b.watermark_ms && b.start_ms) {
      const int64_t lag = std::max<int64_t>(0, *b.start_ms - *b.watermark_ms);
      s.watermark_lag_last_ms = lag;
      s.watermark_lag_max_ms = std::max(s.watermark_lag_max_ms.value_or(0), lag);
    }
  }
  s.batches_with_input = static_cast<int64_t>(with_input.size());
  s.duration_p50_ms = nearest_rank(durations, 0.5);
  s.duration_p95_ms = nearest_rank(durations, 0.95);
  s.duration_max_ms = *std::max_element(durations.begin(), durations.end());
  // The first batch plans and compiles the query for the first time: the steady state is after it.
  s.steady_duration_p90_ms = durations.size() > 1
                                 ? nearest_rank(std::vector<int64_t>(durations.begin() + 1, durations.end()), 0.9)
                                 : durations.front();
  s.rows_per_batch_p50 = nearest_rank(rows_per_batch, 0.5);
  s.tasks_per_batch_p50 = nearest_rank(tasks_per_batch, 0.5);
  s.batches_with_output = static_cast<int64_t>(output_tasks.size());
  s.output_tasks_per_batch_p50 = nearest_rank(output_tasks, 0.5);
  if (all_output_tasks > 0) s.output_bytes_per_task = output_bytes / all_output_tasks;

  const Rates all = rates_of(with_input);
  s.input_rows_per_second = all.input;
  s.processed_rows_per_second = all.processed;
  const std::vector<const StreamingBatch*> recent(
      with_input.begin() + static_cast<std::ptrdiff_t>(with_input.size() / 2), with_input.end());
  const Rates later = rates_of(recent);
  s.recent_input_rows_per_second = later.input;
  s.recent_processed_rows_per_second = later.processed;

  s.stateful = !query.state_operators.empty();
  if (s.stateful) summarize_state(batches, s);
  summarize_phases(batches, s);
  return s;
}

std::vector<StreamingQuerySummary> summarize_streaming(const std::vector<model::StreamingQuery>& queries) {
  std::vector<StreamingQuerySummary> out;
  out.reserve(queries.size());
  std::map<std::string_view, int> runs_of_id;
  for (const auto& query : queries) ++runs_of_id[query.id];
  for (size_t i = 0; i < queries.size(); ++i) {
    out.push_back(summarize(queries[i], i));
    out.back().finding_key = "query-" + queries[i].id;
    if (runs_of_id[queries[i].id] > 1) out.back().finding_key += "-run-" + std::to_string(i);
  }
  return out;
}

}  // namespace sf::analysis

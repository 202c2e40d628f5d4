#include "model/streaming_builder.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include <fmt/format.h>

namespace sf::model {

namespace {

// What a progress event claims, bounded: no real batch counts or takes 10^12 of anything (rows,
// milliseconds), and sums of bounded figures over the model's batches cannot overflow.
constexpr int64_t kMaxFigure = 1'000'000'000'000;
int64_t bounded(int64_t v) { return std::clamp<int64_t>(v, 0, kMaxFigure); }
std::optional<int64_t> bounded(std::optional<int64_t> v) {
  if (v) return bounded(*v);
  return std::nullopt;
}
// A sum over a hostile line's many operators or sources stops at kMaxFigure.
void add_bounded(int64_t& sum, int64_t v) { sum = std::min(kMaxFigure, sum + bounded(v)); }
void add_bounded(std::optional<int64_t>& sum, std::optional<int64_t> v) {
  if (!v) return;
  int64_t total = sum.value_or(0);
  add_bounded(total, *v);
  sum = total;
}

// Spark writes the watermark as 1970-01-01T00:00:00Z until the first batch with event times
// moves it: that is "no watermark yet", not a watermark fifty years behind.
std::optional<int64_t> real_watermark(std::optional<int64_t> watermark_ms) {
  if (watermark_ms && *watermark_ms > 0) return watermark_ms;
  return std::nullopt;
}

StreamingBatch batch_of(const eventlog::StreamingQueryProgress& e) {
  StreamingBatch b;
  b.batch_id = e.batch_id;
  b.start_ms = e.timestamp_ms;
  for (const auto& [name, ms] : e.durations_ms) {
    if (auto phase = streaming_phase_of(name)) b.phase_ms[static_cast<size_t>(*phase)] = bounded(ms);
  }
  b.duration_ms = bounded(e.batch_duration_ms.value_or(b.phase(StreamingPhase::kTriggerExecution).value_or(0)));
  for (const auto& source : e.sources) {
    add_bounded(b.input_rows, source.input_rows);
    if (source.input_rows_per_second) {
      b.input_rows_per_second = b.input_rows_per_second.value_or(0) + *source.input_rows_per_second;
    }
    if (source.processed_rows_per_second) {
      b.processed_rows_per_second = b.processed_rows_per_second.value_or(0) + *source.processed_rows_per_second;
    }
  }
  for (const auto& op : e.state_operators) {
    add_bounded(b.state_rows, op.rows_total);
    add_bounded(b.state_rows_updated, op.rows_updated);
    add_bounded(b.state_memory_bytes, op.memory_used_bytes);
    add_bounded(b.state_rows_removed, op.rows_removed);
    add_bounded(b.rows_dropped_by_watermark, op.rows_dropped_by_watermark);
    if (op.shuffle_partitions)
      b.shuffle_partitions = std::max(b.shuffle_partitions.value_or(0), *op.shuffle_partitions);
  }
  b.watermark_ms = real_watermark(e.watermark_ms);
  b.event_time_max_ms = e.event_time_max_ms;
  b.output_rows = bounded(e.sink_output_rows);
  return b;
}

}  // namespace

StreamingQuery& StreamingBuilder::run(const std::string& id, const std::string& run_id) {
  StreamingQuery& query = runs_[run_id];
  if (query.run_id.empty()) {
    query.run_id = run_id;
    query.id = id;
  }
  return query;
}

void StreamingBuilder::on(const eventlog::StreamingQueryStarted& e) {
  StreamingQuery& query = run(e.id, e.run_id);
  query.name = e.name;
  query.start_ms = e.timestamp_ms;
  query.job_tags = e.job_tags;
}

void StreamingBuilder::on(const eventlog::StreamingQueryProgress& e) {
  StreamingQuery& query = run(e.id, e.run_id);
  if (query.name.empty()) query.name = e.name;
  if (!query.start_ms) query.start_ms = e.timestamp_ms;
  if (query.sources.empty()) {
    for (const auto& source : e.sources) query.sources.push_back(source.description);
  }
  if (query.sink.empty()) query.sink = e.sink_description;
  if (query.state_operators.empty()) {
    for (const auto& op : e.state_operators) query.state_operators.push_back(op.operator_name);
  }
  if (kept_ >= max_batches_) {
    ++query.batches_not_kept;
    return;
  }
  ++kept_;
  query.batches.push_back(batch_of(e));
}

void StreamingBuilder::on(const eventlog::StreamingQueryIdle& e) { ++run(e.id, e.run_id).idle_events; }

void StreamingBuilder::on(const eventlog::StreamingQueryTerminated& e) {
  StreamingQuery& query = run(e.id, e.run_id);
  query.terminated = true;
  query.exception = e.exception;
  query.error_class = e.error_class;
}

std::vector<StreamingQuery> StreamingBuilder::finish(const AppModel& model, const Redaction& redaction,
                                                     std::set<std::string>& notes) {
  // (run id, batch id) -> the batch, for the jobs to find theirs.
  std::map<std::pair<std::string_view, int64_t>, StreamingBatch*> batch_at;
  for (auto& [run_id, query] : runs_) {
    for (StreamingBatch& batch : query.batches) batch_at[{query.run_id, batch.batch_id}] = &batch;
  }
  for (const Job& job : model.jobs) {
    if (!job.streaming_batch_id) continue;
    auto found = batch_at.find({job.job_group, *job.streaming_batch_id});
    if (found == batch_at.end()) continue;
    StreamingBatch& batch = *found->second;
    ++batch.jobs;
    batch.tasks += job.num_completed_tasks + job.num_failed_tasks + job.num_killed_tasks;
    // What the batch wrote: its stages' output, and the tasks that wrote it (a file sink's task
    // writes a file of each partition it has rows for: one, without partitionBy).
    for (int64_t stage_id : job.stage_ids) {
      for (const StageAttempt& attempt : model.attempts_of(stage_id)) {
        const int64_t bytes = attempt.metric(TaskMetric::kOutputBytes);
        if (bytes <= 0) continue;
        batch.output_bytes = std::min(kMaxFigure, batch.output_bytes + bytes);
        batch.output_tasks += attempt.tasks_succeeded;
      }
    }
  }

  std::vector<StreamingQuery> out;
  out.reserve(runs_.size());
  for (auto& [run_id, query] : runs_) {
    for (std::string& source : query.sources) redaction.redact_text(source);
    redaction.redact_text(query.sink);
    if (query.exception) redaction.redact_text(*query.exception);
    if (query.batches_not_kept > 0) {
      notes.insert(fmt::format("streaming query {}: {} batches past the model's limit of {} were counted, not kept",
                               query.label(), query.batches_not_kept, max_batches_));
    }
    out.push_back(std::move(query));
  }
  std::sort(out.begin(), out.end(), [](const StreamingQuery& a, const StreamingQuery& b) {
    return std::tie(a.start_ms, a.run_id) < std::tie(b.start_ms, b.run_id);
  });
  return out;
}

}  // namespace sf::model

// Structured Streaming in the model: each run of a streaming query (a start from its checkpoint,
// to its end) and its micro-batches, as the query's progress events report them, with the jobs
// and tasks each batch ran (the jobs carry the query's run id and the batch id as properties).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sf::model {

// The phases of a micro-batch Spark times ("durationMs"). triggerExecution is the whole batch;
// the others are parts of it (they need not add up: Spark leaves some work untimed).
enum class StreamingPhase {
  kTriggerExecution,
  kLatestOffset,
  kGetBatch,
  kQueryPlanning,
  kAddBatch,
  kWalCommit,
  kCommitOffsets,
};
inline constexpr size_t kStreamingPhaseCount = 7;
// Spark's names: "triggerExecution", "latestOffset", "getBatch", ... (as the log writes them).
std::string_view streaming_phase_name(StreamingPhase phase);
std::optional<StreamingPhase> streaming_phase_of(std::string_view name);

struct StreamingBatch {
  int64_t batch_id = 0;
  std::optional<int64_t> start_ms;  // when its trigger started
  int64_t duration_ms = 0;          // batchDuration (Spark 3.1+), else triggerExecution
  std::array<std::optional<int64_t>, kStreamingPhaseCount> phase_ms{};
  // Over the query's sources: rows read, and the rates Spark worked out (input: rows that arrived
  // per second since the previous trigger; processed: rows per second of this batch's time).
  int64_t input_rows = 0;
  std::optional<double> input_rows_per_second;
  std::optional<double> processed_rows_per_second;
  // Over the query's stateful operators, after the batch.
  int64_t state_rows = 0;
  int64_t state_rows_updated = 0;
  std::optional<int64_t> state_rows_removed;
  int64_t state_memory_bytes = 0;
  std::optional<int64_t> rows_dropped_by_watermark;
  std::optional<int32_t> shuffle_partitions;  // the most any stateful operator uses
  std::optional<int64_t> watermark_ms;        // absent when the query sets none (or it is still 0)
  std::optional<int64_t> event_time_max_ms;
  std::optional<int64_t> output_rows;
  // The batch's Spark jobs (found by their properties), and their task attempts that ended.
  int32_t jobs = 0;
  int64_t tasks = 0;
  // What those jobs' stages wrote (a sink's output), and their successful tasks that wrote it.
  int64_t output_bytes = 0;
  int64_t output_tasks = 0;

  std::optional<int64_t> phase(StreamingPhase p) const { return phase_ms[static_cast<size_t>(p)]; }
};

struct StreamingQuery {
  std::string id;      // the same across restarts from one checkpoint
  std::string run_id;  // this run's
  std::string name;    // "" when the query has none
  std::optional<int64_t> start_ms;
  bool terminated = false;
  std::optional<std::string> exception;  // what ended it, redacted; absent when it stopped cleanly
  std::optional<std::string> error_class;
  std::vector<std::string> sources;  // descriptions, as the first batch named them
  std::string sink;
  std::vector<std::string> state_operators;  // operator names ("stateStoreSave", ...), "" when unnamed
  std::vector<std::string> job_tags;
  std::vector<StreamingBatch> batches;  // in log order
  int64_t idle_events = 0;
  // Batches past the model's limit (BuilderLimits::max_streaming_batches): counted, not kept.
  int64_t batches_not_kept = 0;

  // The name when it has one, else the id.
  std::string_view label() const { return name.empty() ? std::string_view(id) : std::string_view(name); }
};

}  // namespace sf::model

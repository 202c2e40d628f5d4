// The decoders of the modeled events, one function an event, in one file a family: tasks,
// jobs and stages, executors, the application, SQL, streaming, Spark Connect (decode_*.cpp). Decoder::decode
// (decoder.cpp) finds an event's decoder in its table by the event's name and calls it with the line's document,
// already rewound, and the handler; the decoder reads the whole object, checks the line ends there,
// and calls the handler only when the event decoded whole. A required field it lacks is left in
// DecodeState::missing for the malformed-line message.
//
// Private to the eventlog layer.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "eventlog/decoder.h"
#include "eventlog/events.h"
#include "eventlog/json_reading.h"
#include "eventlog/required_fields.h"

namespace sf::eventlog::decoding {

// The accumulator ids last handed over per stage attempt, for omit_repeated_accumulator_ids:
// a few entries, least recently used replaced (stages that run at once are few).
class HandedAccumulatorIds {
 public:
  // Empties `e.accumulator_ids` when they repeat what was last handed over for its stage attempt.
  void omit_repeats(TaskEnd& e);

 private:
  struct Entry {
    int64_t stage_id = -1;
    int32_t attempt_id = -1;
    uint64_t last_use = 0;
    std::vector<int64_t> ids;
  };
  std::array<Entry, 8> entries_;
  uint64_t clock_ = 0;
};

// What the decoders keep from line to line: one per Decoder, so, like it, not thread-safe.
struct DecodeState {
  explicit DecodeState(const DecoderOptions& o) : options(o) {}

  const DecoderOptions options;
  // The required field the line being decoded lacks, for its malformed-line message.
  MissingField missing;
  // Over-long strings of the line's task event, cut, for the views the event holds.
  json::CutStrings cut;
  // Reused across lines so the hot events allocate nothing once warmed up.
  TaskEnd task_end;
  TaskStart task_start;
  HandedAccumulatorIds handed_ids;
};

// Every event's decoder has this type; the functions below are declared by it.
using DecodeFunction = json::error_code(simdjson::ondemand::document& doc, DecodeState& state, EventHandler& handler);
using EventDecoder = DecodeFunction*;

// decode_tasks.cpp: nearly every line of a log.
DecodeFunction decode_task_start, decode_task_end;

// decode_jobs_stages.cpp
DecodeFunction decode_job_start, decode_job_end, decode_stage_submitted, decode_stage_completed,
    decode_stage_executor_metrics, decode_unpersist_rdd;

// decode_executors.cpp: executors, their block managers, their exclusion, other processes.
DecodeFunction decode_executor_added, decode_executor_removed, decode_block_manager_added, decode_block_manager_removed,
    decode_executor_excluded, decode_executor_unexcluded, decode_node_excluded, decode_node_unexcluded,
    decode_miscellaneous_process_added;

// decode_application.cpp: the log, the application and its configuration.
DecodeFunction decode_log_start, decode_databricks_metadata, decode_application_start, decode_application_end,
    decode_environment_update, decode_resource_profile_added;

// decode_sql.cpp: SQL executions, their plans and metrics.
DecodeFunction decode_sql_execution_start, decode_sql_execution_end, decode_sql_adaptive_execution_update,
    decode_sql_adaptive_metric_updates, decode_driver_accum_updates;

// decode_streaming.cpp: Structured Streaming queries and their micro-batches.
DecodeFunction decode_streaming_query_started, decode_streaming_query_progress, decode_streaming_query_idle,
    decode_streaming_query_terminated;

// decode_connect.cpp: Spark Connect's sessions and the operations their clients send.
DecodeFunction decode_connect_session_started, decode_connect_session_closed, decode_connect_operation_started,
    decode_connect_operation_analyzed, decode_connect_operation_ready, decode_connect_operation_finished,
    decode_connect_operation_failed, decode_connect_operation_canceled, decode_connect_operation_closed;

}  // namespace sf::eventlog::decoding

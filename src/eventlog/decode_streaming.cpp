// Structured Streaming's listener events, which Spark logs by the listener's nested class names
// (StreamingQueryListener$QueryStartedEvent, ...): a query's start, each micro-batch's progress,
// its idle spells and its end. Spark writes these with Jackson, not JsonProtocol: camelCase keys,
// ISO 8601 times, and rates it could not compute as the strings "NaN" and "Infinity".
#include <cmath>
#include <utility>

#include "common/utc_time.h"
#include "eventlog/event_decoders.h"
#include "eventlog/field_readers.h"

namespace sf::eventlog::decoding {

namespace {

// A time as Spark's streaming events write it; a time that does not read as one is left absent
// rather than failing the event (the figures of the batch are still good).
error_code read_iso_time(od::value& value, std::optional<int64_t>& out) {
  if (is_null(value)) return SUCCESS;
  std::string_view text;
  if (auto error = read_string_view(value, text)) return error;
  out = utc::parse_iso8601_ms(text);
  return SUCCESS;
}

// A rate: a number, or a string Spark wrote for a rate it could not compute; only a finite one
// is kept.
error_code read_rate(od::value& value, std::optional<double>& out) {
  if (is_null(value)) return SUCCESS;
  double rate = 0;
  if (json::read_double(value, rate) != SUCCESS) return SUCCESS;
  if (std::isfinite(rate)) out = rate;
  return SUCCESS;
}

error_code read_state_operator(od::value& value, StreamingStateOperator& op) {
  return for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    if (key == "operatorName") return read_string(v, op.operator_name, kMaxNameBytes);
    if (key == "numRowsTotal") return read_int(v, op.rows_total);
    if (key == "numRowsUpdated") return read_int(v, op.rows_updated);
    if (key == "numRowsRemoved") return read_optional_int(v, op.rows_removed);
    if (key == "memoryUsedBytes") return read_int(v, op.memory_used_bytes);
    if (key == "numRowsDroppedByWatermark" || key == "numLateInputs") {
      return read_optional_int(v, op.rows_dropped_by_watermark);
    }
    if (key == "numShufflePartitions") return read_optional_int(v, op.shuffle_partitions);
    if (key == "commitTimeMs") return read_optional_int(v, op.commit_time_ms);
    return SUCCESS;
  });
}

error_code read_source(od::value& value, StreamingSource& source) {
  return for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    if (key == "description") return read_string(v, source.description, kMaxTextBytes);
    if (key == "numInputRows") return read_int(v, source.input_rows);
    if (key == "inputRowsPerSecond") return read_rate(v, source.input_rows_per_second);
    if (key == "processedRowsPerSecond") return read_rate(v, source.processed_rows_per_second);
    return SUCCESS;
  });
}

error_code read_event_time(od::value& value, StreamingQueryProgress& e) {
  return for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    if (key == "watermark") return read_iso_time(v, e.watermark_ms);
    if (key == "max") return read_iso_time(v, e.event_time_max_ms);
    return SUCCESS;
  });
}

error_code read_sink(od::value& value, StreamingQueryProgress& e) {
  return for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    if (key == "description") return read_string(v, e.sink_description, kMaxTextBytes);
    if (key == "numOutputRows") {
      std::optional<int64_t> rows;
      if (auto error = read_optional_int(v, rows)) return error;
      if (rows && *rows >= 0) e.sink_output_rows = rows;
      return SUCCESS;
    }
    return SUCCESS;
  });
}

error_code read_progress(od::value& value, StreamingQueryProgress& e, MissingField& missing) {
  return read_object("progress", value, kStreamingProgressRequired, missing,
                     [&](std::string_view key, od::value& v) -> error_code {
                       if (key == "id") return read_string(v, e.id, kMaxNameBytes);
                       if (key == "runId") return read_string(v, e.run_id, kMaxNameBytes);
                       if (key == "name") return read_string(v, e.name, kMaxNameBytes);
                       if (key == "timestamp") return read_iso_time(v, e.timestamp_ms);
                       if (key == "batchId") return read_int(v, e.batch_id);
                       if (key == "batchDuration") return read_optional_int(v, e.batch_duration_ms);
                       if (key == "durationMs") {
                         return for_each_field(v, [&](std::string_view phase, od::value& ms) -> error_code {
                           int64_t value_ms = 0;
                           if (auto error = read_int(ms, value_ms)) return error;
                           e.durations_ms.emplace_back(text::cut_text(phase, kMaxNameBytes), value_ms);
                           return SUCCESS;
                         });
                       }
                       if (key == "eventTime") return read_event_time(v, e);
                       if (key == "stateOperators") {
                         return for_each_element(v, [&](od::value& element) -> error_code {
                           StreamingStateOperator op;
                           if (auto error = read_state_operator(element, op)) return error;
                           e.state_operators.push_back(std::move(op));
                           return SUCCESS;
                         });
                       }
                       if (key == "sources") {
                         return for_each_element(v, [&](od::value& element) -> error_code {
                           StreamingSource source;
                           if (auto error = read_source(element, source)) return error;
                           e.sources.push_back(std::move(source));
                           return SUCCESS;
                         });
                       }
                       if (key == "sink") return read_sink(v, e);
                       return SUCCESS;
                     });
}

}  // namespace

error_code decode_streaming_query_started(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<StreamingQueryStarted>(
      doc, handler, kStreamingQueryEventRequired, state.missing,
      [](std::string_view key, od::value& v, StreamingQueryStarted& e) -> error_code {
        if (key == "id") return read_string(v, e.id, kMaxNameBytes);
        if (key == "runId") return read_string(v, e.run_id, kMaxNameBytes);
        if (key == "name") return read_string(v, e.name, kMaxNameBytes);
        if (key == "timestamp") return read_iso_time(v, e.timestamp_ms);
        if (key == "jobTags") return read_names(v, e.job_tags);
        return SUCCESS;
      });
}

error_code decode_streaming_query_progress(od::document& doc, DecodeState& state, EventHandler& handler) {
  MissingField& missing = state.missing;
  return decode_and_emit<StreamingQueryProgress>(
      doc, handler, kStreamingProgressEventRequired, missing,
      [&](std::string_view key, od::value& v, StreamingQueryProgress& e) -> error_code {
        if (key == "progress") return read_progress(v, e, missing);
        return SUCCESS;
      });
}

error_code decode_streaming_query_idle(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<StreamingQueryIdle>(
      doc, handler, kStreamingQueryEventRequired, state.missing,
      [](std::string_view key, od::value& v, StreamingQueryIdle& e) -> error_code {
        if (key == "id") return read_string(v, e.id, kMaxNameBytes);
        if (key == "runId") return read_string(v, e.run_id, kMaxNameBytes);
        if (key == "timestamp") return read_iso_time(v, e.timestamp_ms);
        return SUCCESS;
      });
}

error_code decode_streaming_query_terminated(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<StreamingQueryTerminated>(
      doc, handler, kStreamingQueryEventRequired, state.missing,
      [](std::string_view key, od::value& v, StreamingQueryTerminated& e) -> error_code {
        if (key == "id") return read_string(v, e.id, kMaxNameBytes);
        if (key == "runId") return read_string(v, e.run_id, kMaxNameBytes);
        if (key == "exception") return json::read_optional_string(v, e.exception, kMaxTextBytes);
        if (key == "errorClassOnException") return json::read_optional_string(v, e.error_class, kMaxNameBytes);
        return SUCCESS;
      });
}

}  // namespace sf::eventlog::decoding

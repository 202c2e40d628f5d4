// Spark Connect's server events, logged by fully qualified class name
// (org.apache.spark.sql.connect.service.SparkListenerConnect*): sessions and the operations
// clients send through them. Like Structured Streaming's, these are written with Jackson:
// camelCase keys, times as epoch milliseconds in "eventTime".
#include <utility>

#include "eventlog/event_decoders.h"
#include "eventlog/field_readers.h"

namespace sf::eventlog::decoding {

namespace {

using Phase = ConnectOperationEvent::Phase;

error_code decode_session(od::document& doc, DecodeState& state, EventHandler& handler, bool started) {
  ConnectSessionEvent e;
  e.started = started;
  auto error = decode_fields(doc, e, kConnectSessionRequired, state.missing,
                             [](std::string_view key, od::value& v, ConnectSessionEvent& event) -> error_code {
                               if (key == "sessionId") return read_string(v, event.session_id, kMaxNameBytes);
                               if (key == "userId") return read_string(v, event.user_id, kMaxNameBytes);
                               if (key == "eventTime") return read_optional_int(v, event.time_ms);
                               return SUCCESS;
                             });
  if (error) return error;
  handler.on(e);
  return SUCCESS;
}

error_code decode_operation(od::document& doc, DecodeState& state, EventHandler& handler, Phase phase) {
  ConnectOperationEvent e;
  e.phase = phase;
  auto error = decode_fields(doc, e, kConnectOperationRequired, state.missing,
                             [](std::string_view key, od::value& v, ConnectOperationEvent& event) -> error_code {
                               if (key == "jobTag") return read_string(v, event.job_tag, kMaxNameBytes);
                               if (key == "operationId") return read_string(v, event.operation_id, kMaxNameBytes);
                               if (key == "eventTime") return read_optional_int(v, event.time_ms);
                               if (key == "sessionId") return read_string(v, event.session_id, kMaxNameBytes);
                               if (key == "userId") return read_string(v, event.user_id, kMaxNameBytes);
                               if (key == "userName") return read_string(v, event.user_name, kMaxNameBytes);
                               if (key == "statementText") return read_string(v, event.statement, kMaxTextBytes);
                               if (key == "sparkSessionTags") return read_names(v, event.session_tags);
                               if (key == "producedRowCount") return read_optional_int(v, event.produced_rows);
                               if (key == "errorMessage") return read_string(v, event.error_message, kMaxTextBytes);
                               return SUCCESS;
                             });
  if (error) return error;
  handler.on(e);
  return SUCCESS;
}

}  // namespace

error_code decode_connect_session_started(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_session(doc, state, handler, true);
}
error_code decode_connect_session_closed(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_session(doc, state, handler, false);
}
error_code decode_connect_operation_started(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_operation(doc, state, handler, Phase::kStarted);
}
error_code decode_connect_operation_analyzed(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_operation(doc, state, handler, Phase::kAnalyzed);
}
error_code decode_connect_operation_ready(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_operation(doc, state, handler, Phase::kReadyForExecution);
}
error_code decode_connect_operation_finished(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_operation(doc, state, handler, Phase::kFinished);
}
error_code decode_connect_operation_failed(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_operation(doc, state, handler, Phase::kFailed);
}
error_code decode_connect_operation_canceled(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_operation(doc, state, handler, Phase::kCanceled);
}
error_code decode_connect_operation_closed(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_operation(doc, state, handler, Phase::kClosed);
}

}  // namespace sf::eventlog::decoding

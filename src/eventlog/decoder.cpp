// Decoder::decode: a line's event, found by its name in one table of decoders, one an event. The
// decoders are by family in decode_*.cpp (event_decoders.h); what is here is what every line goes
// through: the parse, the task events' fast path, the walk over an event the model does not use,
// and the wording of a malformed line's reason.
#include "eventlog/decoder.h"

#include <string>

#include "common/text.h"
#include "eventlog/event_decoders.h"
#include "eventlog/field_readers.h"

namespace sf::eventlog::decoding {

namespace {

struct EventEntry {
  std::string_view simple_name;  // the class name without its package
  EventDecoder decode;
};

// Most frequent first: task events are almost every line of a log. Spark 3.1 renamed the
// Blacklisted events Excluded; logs of either name are read alike.
constexpr EventEntry kEventDecoders[] = {
    {"SparkListenerTaskEnd", decode_task_end},
    {"SparkListenerTaskStart", decode_task_start},
    {"SparkListenerStageSubmitted", decode_stage_submitted},
    {"SparkListenerStageCompleted", decode_stage_completed},
    {"SparkListenerJobStart", decode_job_start},
    {"SparkListenerJobEnd", decode_job_end},
    {"SparkListenerStageExecutorMetrics", decode_stage_executor_metrics},
    {"SparkListenerDriverAccumUpdates", decode_driver_accum_updates},
    {"SparkListenerSQLExecutionStart", decode_sql_execution_start},
    {"SparkListenerSQLExecutionEnd", decode_sql_execution_end},
    {"SparkListenerSQLAdaptiveExecutionUpdate", decode_sql_adaptive_execution_update},
    {"SparkListenerSQLAdaptiveSQLMetricUpdates", decode_sql_adaptive_metric_updates},
    {"SparkListenerExecutorAdded", decode_executor_added},
    {"SparkListenerExecutorRemoved", decode_executor_removed},
    {"SparkListenerBlockManagerAdded", decode_block_manager_added},
    {"SparkListenerBlockManagerRemoved", decode_block_manager_removed},
    {"SparkListenerUnpersistRDD", decode_unpersist_rdd},
    {"SparkListenerLogStart", decode_log_start},
    {"DBCEventLoggingListenerMetadata", decode_databricks_metadata},
    {"SparkListenerApplicationStart", decode_application_start},
    {"SparkListenerApplicationEnd", decode_application_end},
    {"SparkListenerEnvironmentUpdate", decode_environment_update},
    {"SparkListenerResourceProfileAdded", decode_resource_profile_added},
    {"SparkListenerExecutorExcluded", decode_executor_excluded},
    {"SparkListenerExecutorBlacklisted", decode_executor_excluded},
    {"SparkListenerExecutorExcludedForStage", decode_executor_excluded},
    {"SparkListenerExecutorBlacklistedForStage", decode_executor_excluded},
    {"SparkListenerExecutorUnexcluded", decode_executor_unexcluded},
    {"SparkListenerExecutorUnblacklisted", decode_executor_unexcluded},
    {"SparkListenerNodeExcluded", decode_node_excluded},
    {"SparkListenerNodeBlacklisted", decode_node_excluded},
    {"SparkListenerNodeExcludedForStage", decode_node_excluded},
    {"SparkListenerNodeBlacklistedForStage", decode_node_excluded},
    {"SparkListenerNodeUnexcluded", decode_node_unexcluded},
    {"SparkListenerNodeUnblacklisted", decode_node_unexcluded},
    {"SparkListenerMiscellaneousProcessAdded", decode_miscellaneous_process_added},
    {"StreamingQueryListener$QueryProgressEvent", decode_streaming_query_progress},
    {"StreamingQueryListener$QueryIdleEvent", decode_streaming_query_idle},
    {"StreamingQueryListener$QueryStartedEvent", decode_streaming_query_started},
    {"StreamingQueryListener$QueryTerminatedEvent", decode_streaming_query_terminated},
    {"SparkListenerConnectOperationStarted", decode_connect_operation_started},
    {"SparkListenerConnectOperationAnalyzed", decode_connect_operation_analyzed},
    {"SparkListenerConnectOperationReadyForExecution", decode_connect_operation_ready},
    {"SparkListenerConnectOperationFinished", decode_connect_operation_finished},
    {"SparkListenerConnectOperationFailed", decode_connect_operation_failed},
    {"SparkListenerConnectOperationCanceled", decode_connect_operation_canceled},
    {"SparkListenerConnectOperationClosed", decode_connect_operation_closed},
    {"SparkListenerConnectSessionStarted", decode_connect_session_started},
    {"SparkListenerConnectSessionClosed", decode_connect_session_closed},
};

// Core events are logged by simple name, SQL and scheduler extras by fully qualified class
// name; both are matched by the simple name. nullptr for an event the model does not use.
EventDecoder find_decoder(std::string_view event_name) {
  if (auto dot = event_name.rfind('.'); dot != std::string_view::npos) event_name.remove_prefix(dot + 1);
  for (const EventEntry& entry : kEventDecoders) {
    if (entry.simple_name == event_name) return entry.decode;
  }
  return nullptr;
}

std::string describe(error_code error) {
  switch (error) {
    case simdjson::TAPE_ERROR:
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT: return "invalid or truncated JSON";
    case simdjson::INCORRECT_TYPE: return "a field has the wrong type";
    case simdjson::NUMBER_ERROR:
    case simdjson::NUMBER_OUT_OF_RANGE: return "a number is malformed or out of range";
    case simdjson::DEPTH_ERROR: return "nesting is too deep";
    case simdjson::UTF8_ERROR: return "invalid UTF-8";
    case simdjson::NO_SUCH_FIELD: return "a required field is missing";
    case simdjson::TRAILING_CONTENT: return "text after the JSON object";
    default: return simdjson::error_message(error);
  }
}

constexpr std::string_view kTaskEndPrefix = R"({"Event":"SparkListenerTaskEnd")";
constexpr std::string_view kTaskStartPrefix = R"({"Event":"SparkListenerTaskStart")";

// The parser capacity kept between lines (see Decoder::decode).
constexpr size_t kKeptParserCapacityBytes = size_t{16} << 20;

// The outcome of decoding a modeled event; a required field it lacked is named with its event.
DecodeResult finish_decode(error_code error, std::string_view event_name, const MissingField& missing) {
  if (error == simdjson::NO_SUCH_FIELD && !missing.path.empty()) {
    std::string message(event_name);
    message += " has no \"";
    message += missing.path;
    message += "\" (a required field)";
    return {DecodeOutcome::kMalformed, std::move(message)};
  }
  if (error) return {DecodeOutcome::kMalformed, describe(error)};
  return {DecodeOutcome::kEvent, {}};
}

// An event the model does not use, named `name`: the rest of the line is walked so a damaged line
// is counted as malformed, not as an unknown event. Unknown events are rare; the walk costs
// nothing that matters.
DecodeResult pass_unknown_event(od::document& doc, const std::string& name, EventHandler& handler) {
  doc.rewind();
  std::string_view raw;
  if (auto error = doc.raw_json().get(raw)) return {DecodeOutcome::kMalformed, describe(error)};
  if (!at_end(doc)) return {DecodeOutcome::kMalformed, describe(simdjson::TRAILING_CONTENT)};
  handler.on_unknown_event(name);
  return {DecodeOutcome::kUnknownEvent, {}};
}

}  // namespace
}  // namespace sf::eventlog::decoding

namespace sf::eventlog {

struct Decoder::Impl {
  explicit Impl(const DecoderOptions& options) : state(options) {}

  simdjson::ondemand::parser parser;
  decoding::DecodeState state;
};

Decoder::Decoder(const DecoderOptions& options) : impl_(std::make_unique<Impl>(options)) {}
Decoder::~Decoder() = default;

DecodeResult Decoder::decode(std::string_view line, EventHandler& handler) {
  using namespace decoding;
  line = text::trim(line);
  if (line.empty()) return {DecodeOutcome::kBlank, {}};
  // simdjson keeps the buffers of the longest line it parsed (its string buffer is touched as
  // far as a long escaped string went): after a long line they go back before an ordinary one,
  // rather than stay for the rest of the log.
  if (impl_->parser.capacity() > kKeptParserCapacityBytes && line.size() <= kKeptParserCapacityBytes) [[unlikely]] {
    // Should it fail, the parser is left empty and the next parse allocates what it needs.
    [[maybe_unused]] const error_code released = impl_->parser.allocate(kKeptParserCapacityBytes);
  }
  DecodeState& state = impl_->state;
  state.cut.clear();

  // Spark writes "Event" first. The task events, nearly every line of a log, are recognized from
  // the line's first bytes and decoded in one pass, without looking "Event" up and rewinding;
  // what the prefix says is exactly what finding "Event" would say (its closing quote follows a
  // letter, so it is not escaped). Whether the line is valid JSON is still simdjson's to say.
  const bool task_end = line.starts_with(kTaskEndPrefix);
  const bool task_start = !task_end && line.starts_with(kTaskStartPrefix);

  od::document doc;
  if (auto error = impl_->parser.iterate(line.data(), line.size(), line.size() + kLinePadding).get(doc)) {
    return {DecodeOutcome::kMalformed, describe(error)};
  }
  state.missing.path.clear();
  if (task_end) return finish_decode(decode_task_end(doc, state, handler), "SparkListenerTaskEnd", state.missing);
  if (task_start) {
    return finish_decode(decode_task_start(doc, state, handler), "SparkListenerTaskStart", state.missing);
  }

  std::string_view event_name;
  if (auto error = doc.find_field_unordered("Event").get_string().get(event_name)) {
    return {DecodeOutcome::kMalformed, error == simdjson::NO_SUCH_FIELD ? "no \"Event\" field" : describe(error)};
  }
  const EventDecoder decode_event = find_decoder(event_name);
  if (decode_event == nullptr) return pass_unknown_event(doc, text::cut_text(event_name, kMaxNameBytes), handler);
  const std::string name(event_name.substr(event_name.rfind('.') + 1));  // rewinding invalidates the view
  doc.rewind();
  return finish_decode(decode_event(doc, state, handler), name, state.missing);
}

}  // namespace sf::eventlog

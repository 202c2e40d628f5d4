// What the event decoders of several families share (decode_*.cpp): the walk over a modeled
// event's object that checks its required keys, the same for a nested object, and the readers of
// the objects more than one family of events carries (executor metric peaks, accumulables,
// objects of objects by name such as resources).
//
// Private to the eventlog layer; like json_reading.h, which it builds on, it keeps simdjson out
// of every other layer's headers. The functions hold no state: safe to call from any thread.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "common/text.h"
#include "eventlog/events.h"
#include "eventlog/json_reading.h"
#include "eventlog/required_fields.h"

namespace sf::eventlog::decoding {

namespace od = simdjson::ondemand;
using json::for_each_element;
using json::for_each_field;
using json::for_each_known_field;
using json::read_bool;
using json::read_int;
using json::read_optional_int;
using json::read_string;
using json::read_string_view;
using simdjson::error_code;
using simdjson::SUCCESS;

// True for a JSON null; false for anything else, and for a value simdjson cannot type.
inline bool is_null(od::value& value) {
  bool null = false;
  return value.is_null().get(null) == SUCCESS && null;
}

// True when nothing but whitespace follows what has been consumed of the line.
inline bool at_end(od::document& doc) {
  const char* location = nullptr;
  return doc.current_location().get(location) != SUCCESS;
}

// A modeled event's object, field by field, to on_field(key, value, event) ("Event", read
// already, skipped); then a check that the line ends there and that it had every required key.
template <class Event, class F>
error_code decode_fields(od::document& doc, Event& event, RequiredList required_keys, MissingField& missing,
                         F&& on_field) {
  od::object object;
  if (auto error = doc.get_object().get(object)) return error;
  RequiredKeys required(required_keys);
  for (auto field_result : object) {
    od::field field;
    if (auto error = std::move(field_result).get(field)) return error;
    const std::string_view key = json::key_view(field);
    if (key == "Event") continue;
    required.note(key);
    if (auto error = on_field(key, field.value(), event)) return error;
  }
  if (!at_end(doc)) return simdjson::TRAILING_CONTENT;
  if (auto key = required.missing(); !key.empty()) return missing.report(key);
  return SUCCESS;
}

// decode_fields into a new Event, which the handler gets only when the whole line decoded.
template <class Event, class F>
error_code decode_and_emit(od::document& doc, EventHandler& handler, RequiredList required, MissingField& missing,
                           F&& on_field) {
  Event event;
  if (auto error = decode_fields(doc, event, required, missing, on_field)) return error;
  handler.on(event);
  return SUCCESS;
}

// A nested object at `key`: its fields to on_field(key, value), then its required keys checked.
template <class F>
error_code read_object(std::string_view key, od::value& value, RequiredList required_keys, MissingField& missing,
                       F&& on_field) {
  RequiredKeys required(required_keys);
  auto error = for_each_field(value, [&](std::string_view k, od::value& v) -> error_code {
    required.note(k);
    return on_field(k, v);
  });
  if (error) return error;
  if (auto k = required.missing(); !k.empty()) return missing.within(key, missing.report(k));
  return SUCCESS;
}

// An object of objects by name ("gpu": {...}, as resources are logged) into `out`, sorted by name:
// each element named by its key, then its fields to on_field(field, value, element), which may
// name it again.
template <class Named, class F>
error_code read_named_objects(od::value& value, std::vector<Named>& out, F&& on_field) {
  auto error = for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    Named named;
    named.name = text::cut_text(key, kMaxNameBytes);
    auto e = for_each_field(v, [&](std::string_view field, od::value& fv) { return on_field(field, fv, named); });
    if (e) return e;
    out.push_back(std::move(named));
    return SUCCESS;
  });
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return error;
}

// An array of names (job tags, a session's tags), each cut at kMaxNameBytes; null reads as none.
error_code read_names(od::value& value, std::vector<std::string>& out);

// Executor metric peaks by name (TaskEnd's "Task Executor Metrics", StageExecutorMetrics' own).
error_code read_executor_metrics(od::value& value, spark::ExecutorMetricPeaks& peaks);

// An accumulables array in full: a stage's (Stage Info) or a task's (Task Info, which also has
// each one's update). An object without "ID" is not an accumulable the model can use: skipped.
error_code read_accumulables(od::value& value, std::vector<spark::Accumulable>& out);
error_code read_accumulables(od::value& value, std::vector<TaskAccumulable>& out);

}  // namespace sf::eventlog::decoding

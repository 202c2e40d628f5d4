// Decoder: one JSON line of a Spark event log -> one typed event, handed to an EventHandler.
//
// Built on simdjson's On-Demand API: the line is indexed once and only the fields the model
// uses are materialized; everything else is skipped in place. A line that is not valid JSON,
// or whose known event lacks a required field or has one of the wrong type, is reported as
// malformed with a reason and the handler is not called, so a half-decoded event never
// reaches the model.
//
// A Decoder owns its parser and buffers; reuse one per thread for every line (no allocation
// per line once warmed up). Not thread-safe.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "eventlog/events.h"

namespace sf::eventlog {

// The bytes a line's buffer must stay readable past the end of the line (simdjson reads ahead).
inline constexpr size_t kLinePadding = 64;

enum class DecodeOutcome {
  kEvent,         // a modeled event, handed to the handler
  kUnknownEvent,  // a valid event line of a type the model does not use (handler told)
  kBlank,         // an empty or whitespace-only line
  kMalformed,     // not JSON, or a modeled event with a missing or mistyped required field
};

struct DecodeResult {
  DecodeOutcome outcome = DecodeOutcome::kBlank;
  std::string error;  // for kMalformed: what was wrong
};

struct DecoderOptions {
  // Leaves TaskEnd::accumulator_ids empty when this decoder has already handed over the same ids,
  // in the same order, for the same stage attempt (tasks of a stage repeat them): for a handler
  // that only takes their union per stage attempt, as the model builder does, this changes
  // nothing and saves a set insertion per id.
  bool omit_repeated_accumulator_ids = false;
  // Reads each task's accumulables in full (name, update, value) into TaskEnd::accumulables: what
  // the History Server's task list shows. Off for the analysis, which needs only their ids.
  bool task_accumulables = false;
};

// A field a modeled event must carry, or the line is malformed ("SparkListenerJobStart has no
// \"Job ID\" (a required field)"): a default in its place (job 0, stage 0, accumulator 0) would
// put the line's figures on another job's. `path` runs from the event's object, nested objects
// separated by '/', every element of an array as "[]" ("Stage Infos/[]/Stage ID"). Fields not
// listed may be absent.
struct RequiredField {
  std::string_view event;  // the event's class name without its package
  std::string path;
};

// Every required field of every modeled event, the decoder's own table.
std::vector<RequiredField> required_fields();

class Decoder {
 public:
  explicit Decoder(const DecoderOptions& options = {});
  ~Decoder();
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  // `line` must be followed by kLinePadding readable bytes (their content does not matter).
  DecodeResult decode(std::string_view line, EventHandler& handler);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sf::eventlog

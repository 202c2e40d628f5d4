// Reading one part of an event log into the model builder: the loop load_event_log runs per part.
//
// The part's bytes come as batches of whole lines (io::LineBatcher). Each batch is decoded line
// by line; what the lines gave besides events (counts, malformed lines, a cut last line) is
// kept per batch and added to the diagnostics in log order, so line numbers and the list of
// malformed lines come out the same however the batches were decoded.
//
//   threads <= 1: batches are read, decoded and folded on the calling thread.
//   threads >= 2: one thread reads (and decompresses) batches; `threads` threads decode them
//                 into EventBatches: threads - 1 of their own, and the calling thread, which
//                 replays them into the builder in log order and decodes whatever batch is
//                 waiting while the next one to fold is not ready. Batches in flight are bounded
//                 (a few per decoding thread), so memory does not grow with the log.
// Either way the builder receives the same events in the same order: the model is the same.
//
// Internal to the model layer (load.cpp); not thread-safe itself.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "eventlog/decoder.h"
#include "io/line_batches.h"
#include "model/app_model.h"
#include "model/model_builder.h"

namespace sf::model {

struct PartReadOptions {
  unsigned threads = 1;
  size_t max_line_bytes = size_t{1} << 30;
  bool omit_repeated_accumulator_ids = true;
  uint64_t progress_interval_bytes = 8 << 20;  // of source bytes, between on_source_bytes calls
  const std::atomic<bool>* cancel = nullptr;
};

// What a batch's lines gave besides events, with line numbers relative to the batch. Its size
// does not follow the batch's malformed lines: the diagnostics list only the first
// Diagnostics::kMaxMalformedKept of a whole log, so a batch keeps no more than that many with
// their reasons and counts the rest (a batch of one-byte lines is half a million of them, and
// every batch in flight has its outcome).
struct BatchOutcome {
  static constexpr size_t kMaxMalformedKept = Diagnostics::kMaxMalformedKept;
  struct Problem {
    uint64_t line_index = 0;
    uint64_t byte_offset = 0;
    uint64_t length = 0;  // of the cut-short line
    std::string reason;
  };
  uint64_t lines = 0;
  uint64_t events = 0;
  uint64_t blank = 0;
  uint64_t malformed_count = 0;    // all of the batch's malformed lines
  std::vector<Problem> malformed;  // the first kMaxMalformedKept of them, in line order
  // The unterminated last line of the log, when it did not decode: what an in-progress or cut
  // log ends with, reported but not counted as malformed.
  std::optional<Problem> cut_short;

  void clear();
  void add_malformed(uint64_t line_index, uint64_t byte_offset, std::string reason);
};

// Decodes every line of `batch` (split as io::split_lines does at `max_line_bytes`), handing its
// events to `handler` and adding the rest to `out`.
void decode_batch(const io::LineBatch& batch, size_t max_line_bytes, eventlog::Decoder& decoder,
                  eventlog::EventHandler& handler, BatchOutcome& out);

// Reads every batch of `batcher` into `builder`, filling `part` (lines, uncompressed bytes) and
// the builder's diagnostics (an error the batcher ends with is left to the caller's scan). on_source_bytes(n) is called
// from the calling thread with the source bytes consumed so far, at most every progress_interval_bytes and once at the
// end. Returns false when the load was cancelled.
bool read_part(io::LineBatcher& batcher, ModelBuilder& builder, SourcePart& part, const PartReadOptions& options,
               const std::function<void(uint64_t)>& on_source_bytes);

}  // namespace sf::model

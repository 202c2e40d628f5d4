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
#include <string>

#include "io/line_batches.h"
#include "model/app_model.h"
#include "model/model_builder.h"

namespace sf::model {

struct PartReadOptions {
  unsigned threads = 1;
  size_t max_line_bytes = size_t{1} << 30;
  bool omit_repeated_accumulator_ids = true;
  uint64_t progress_interval_bytes = 8 << 20;   // of source bytes, between on_source_bytes calls
  const std::atomic<bool>* cancel = nullptr;
};

// Reads every batch of `batcher` into `builder`, filling `part` (lines, uncompressed bytes) and
// the builder's diagnostics (an error the batcher ends with is left to the caller's scan). on_source_bytes(n) is called from the calling thread with the
// source bytes consumed so far, at most every progress_interval_bytes and once at the end.
// Returns false when the load was cancelled.
bool read_part(io::LineBatcher& batcher, ModelBuilder& builder, SourcePart& part, const PartReadOptions& options,
               const std::function<void(uint64_t)>& on_source_bytes);

}  // namespace sf::model

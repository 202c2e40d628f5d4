// Reading only the lines of one log that a request needs, decoded in place on the calling
// thread: what serve's on-demand readers (a stage's task table, the SQL metric values) share.
// The read stops when `cancel` is set or `stop_after_batch` says so; a part that ends early keeps
// what was read and reports why (read_error), as the model's load does.
#pragma once

#include <atomic>
#include <optional>
#include <string>

#include "common/status.h"
#include "eventlog/decoder.h"
#include "io/line_batches.h"
#include "io/log_scan.h"
#include "io/log_source.h"

namespace sf::history_server {

struct MatchingLinesRead {
  bool cancelled = false;  // `cancel` was set before the end
  bool stopped = false;    // `stop_after_batch` returned true
  std::optional<Status> read_error;
};

// Decodes into `handler` each line of the log at `log_path` (resolved within `confinement`) for
// which `keep(text)` is true, with the tasks' accumulables, which every on-demand reader needs.
// Every batch's text is followed by readable padding (LineBatcher's promise), so lines are
// decoded where they lie.
template <typename Keep, typename StopAfterBatch>
Result<MatchingLinesRead> decode_matching_lines(const std::string& log_path, const io::PathConfinement& confinement,
                                                const std::atomic<bool>* cancel, eventlog::EventHandler& handler,
                                                Keep&& keep, StopAfterBatch&& stop_after_batch) {
  auto input = io::resolve_log_input(log_path, confinement);
  if (!input) return fail(input.error());
  eventlog::DecoderOptions decoder_options;
  decoder_options.task_accumulables = true;
  eventlog::Decoder decoder(decoder_options);
  const io::ScanOptions scan_options;
  MatchingLinesRead read;
  auto scanned = io::scan_log(*input, scan_options, [&](io::ScannedPart& part) {
    io::LineBatch batch;
    while (part.batcher.next(batch)) {
      if (cancel != nullptr && cancel->load()) {
        read.cancelled = true;
        return io::ScanControl::kStop;
      }
      io::split_lines(batch, scan_options.max_line_bytes, [&](const io::BatchLine& line) {
        if (!line.too_long && keep(line.text)) decoder.decode(line.text, handler);
      });
      part.batcher.recycle(batch);
      if (stop_after_batch()) {
        read.stopped = true;
        return io::ScanControl::kStop;
      }
    }
    return io::ScanControl::kNextPart;
  });
  if (!scanned) return fail(scanned.error());
  read.read_error = scanned->read_error;
  return read;
}

}  // namespace sf::history_server

// The one loop that reads an event log: each part in order, opened through the configured limits,
// read through a memory mapping when it is a plain file and as its decompressed stream
// otherwise, cut into batches of whole lines for a visitor. The model load, the History Server
// listing and task tables, the /logs download and the benchmark all read logs through it, so a
// limit or a read error is handled one way everywhere.
//
// Errors: a first part that cannot be opened is an error (there is no log). After that, what ends
// the read early (a later part that cannot be opened, a corrupt or truncated block, a read that
// fails) is the outcome's read_error, never dropped: everything before it was handed over.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>

#include "common/status.h"
#include "io/line_batches.h"
#include "io/log_source.h"

namespace sf::io {

struct ScanOptions {
  size_t max_line_bytes = size_t{1} << 30;  // a longer line is handed over as too_long, not buffered
  size_t batch_bytes = LineBatcher::kDefaultBatchBytes;
  bool map_plain_files = true;
  DecompressLimits decompress_limits;
};

// What a visitor gets for one part. The references live until the visitor returns.
struct ScannedPart {
  const LogPart& part;
  size_t index;               // in LogInput::parts
  Codec codec;                // as the part's first bytes confirmed it
  LineBatcher& batcher;       // the visitor drains it (or stops early)
  const ByteStream& stream;   // the opened (decompressed) stream: bytes consumed, for stdin
  const MappedFile* mapping;  // the plain file's mapping when it is read through one, else null
};

enum class ScanControl { kNextPart, kStop };

struct ScanOutcome {
  size_t parts_visited = 0;
  bool stopped = false;              // the visitor said kStop
  std::optional<Status> read_error;  // what ended the read early (see above)
};

using PartVisitor = std::function<ScanControl(ScannedPart&)>;

// Every part of `input` in order.
Result<ScanOutcome> scan_log(const LogInput& input, const ScanOptions& options, const PartVisitor& visit);

// Only the parts at `indices` (in that order), each as scan_log would read it; the first of them
// that cannot be opened is the error.
Result<ScanOutcome> scan_log_parts(const LogInput& input, const std::vector<size_t>& indices,
                                   const ScanOptions& options, const PartVisitor& visit);

// Every line of a visited part, in order, as split_lines gives them; recycles each batch.
template <class OnLine>
void for_each_line(ScannedPart& scanned, size_t max_line_bytes, OnLine&& on_line) {
  LineBatch batch;
  while (scanned.batcher.next(batch)) {
    split_lines(batch, max_line_bytes, on_line);
    scanned.batcher.recycle(batch);
  }
}

}  // namespace sf::io

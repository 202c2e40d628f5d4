// Loading an event log into an AppModel: the one call every front end makes.
//
// load_event_log resolves the input (a file, an .inprogress file, a compressed file, a rolling
// eventlog_v2_* directory, a Databricks eventlog directory, a History Server .zip, or "-" for
// stdin), decompresses it, decodes every line and folds the events into a model.
//
// A fatal problem (the path does not exist, is not an event log, claims a codec its bytes do
// not confirm) is an error Status naming the file. A problem part-way through (a corrupt
// block, a truncated stream) is not fatal: the model keeps everything read before it and
// diagnostics.read_error says what stopped the read and where. Malformed lines are counted in
// diagnostics and never stop the load.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "common/status.h"
#include "io/codec.h"
#include "model/app_model.h"

namespace sf::model {

struct LoadProgress {
  uint64_t source_bytes_done = 0;   // compressed bytes consumed, over all parts
  uint64_t source_bytes_total = 0;  // 0 when unknown (stdin)
  uint64_t lines = 0;
};

struct LoadOptions {
  // Called from the loading thread at most every `progress_interval_bytes` of input.
  std::function<void(const LoadProgress&)> on_progress;
  uint64_t progress_interval_bytes = 8 << 20;
  // A line longer than this is reported as malformed and skipped, not buffered.
  size_t max_line_bytes = size_t{1} << 30;
  io::DecompressLimits decompress_limits;
  // Set to true from another thread to stop the load; it returns a Cancelled status.
  const std::atomic<bool>* cancel = nullptr;
};

Result<AppModel> load_event_log(const std::string& path, const LoadOptions& options = {});

}  // namespace sf::model

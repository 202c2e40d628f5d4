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
#include "io/path_confinement.h"
#include "model/app_model.h"
#include "model/model_builder.h"

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
  BuilderLimits builder_limits;
  // Where the log and each of its parts must lie once symlinks are resolved (a front end's
  // --log-dir); no confinement by default.
  io::PathConfinement confinement;
  // Set to true from another thread to stop the load; it returns a Cancelled status.
  const std::atomic<bool>* cancel = nullptr;

  // Threads that decode. 0: the default, the hardware's concurrency but at most 2 (more rarely
  // pays: folding into the model stays on one thread). 1: read, decode and fold on the calling
  // thread only. N >= 2: one more thread reads (and decompresses) batches of lines, N threads
  // decode them (N - 1 of their own and the calling thread), and the calling thread folds them
  // in log order. The model is the same, byte for byte, whatever the count; on_progress is still
  // called from the calling thread.
  unsigned threads = 0;

  // Tuning and test knobs; the defaults are what the benchmarks measured best.
  size_t batch_bytes = 0;       // lines per batch, in bytes (0: 1 MiB)
  bool map_plain_files = true;  // read uncompressed files through a memory mapping
  // Task accumulator ids repeated within a stage attempt are not handed to the builder again
  // (it only takes their union per stage attempt); tests turn this off to check that.
  bool omit_repeated_accumulator_ids = true;
};

Result<AppModel> load_event_log(const std::string& path, const LoadOptions& options = {});

// The threads a load with `options` decodes on (`threads`, its 0 resolved).
unsigned load_threads(const LoadOptions& options);

}  // namespace sf::model

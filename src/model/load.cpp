#include "model/load.h"

#include <algorithm>
#include <memory>
#include <thread>

#include "io/log_scan.h"
#include "io/log_source.h"
#include "model/model_builder.h"
#include "model/part_reader.h"

namespace sf::model {

unsigned load_threads(const LoadOptions& options) {
  return options.threads != 0 ? options.threads : std::clamp(std::thread::hardware_concurrency(), 1u, 2u);
}

Result<AppModel> load_event_log(const std::string& path, const LoadOptions& options) {
  auto input = io::resolve_log_input(path, options.confinement);
  if (!input) return fail(input.error());

  ModelBuilder builder(options.builder_limits);
  Diagnostics& diagnostics = builder.diagnostics();
  diagnostics.missing_parts = input->missing_parts;

  SourceInfo source;
  source.path = path;
  source.layout = std::string(io::layout_name(input->layout));
  source.in_progress = input->in_progress;

  LoadProgress progress;
  progress.source_bytes_total = input->total_stored_bytes();
  PartReadOptions part_options;
  part_options.threads = load_threads(options);
  part_options.max_line_bytes = options.max_line_bytes;
  part_options.omit_repeated_accumulator_ids = options.omit_repeated_accumulator_ids;
  part_options.progress_interval_bytes = options.progress_interval_bytes;
  part_options.cancel = options.cancel;
  io::ScanOptions scan_options;
  scan_options.max_line_bytes = options.max_line_bytes;
  if (options.batch_bytes != 0) scan_options.batch_bytes = options.batch_bytes;
  scan_options.map_plain_files = options.map_plain_files;
  scan_options.decompress_limits = options.decompress_limits;

  bool cancelled = false;
  auto scanned = io::scan_log(*input, scan_options, [&](io::ScannedPart& scanned_part) {
    SourcePart source_part;
    source_part.name = scanned_part.part.name;
    source_part.codec = std::string(io::codec_name(scanned_part.codec));
    source_part.stored_bytes = scanned_part.part.stored_bytes;
    const uint64_t done_before = progress.source_bytes_done;
    auto on_bytes = [&](uint64_t part_bytes) {
      progress.source_bytes_done = done_before + part_bytes;
      progress.lines = diagnostics.lines_read;
      if (options.on_progress) options.on_progress(progress);
    };
    if (!read_part(scanned_part.batcher, builder, source_part, part_options, on_bytes)) {
      cancelled = true;
      return io::ScanControl::kStop;
    }
    if (input->layout == io::LogLayout::kStdin) source_part.stored_bytes = scanned_part.stream.source_bytes_consumed();
    source.parts.push_back(std::move(source_part));
    return io::ScanControl::kNextPart;
  });
  // The first part is the log; without it there is nothing.
  if (!scanned) return fail(scanned.error());
  if (cancelled) return fail(Status::Cancelled(path + ": loading was cancelled"));
  if (scanned->read_error) {
    const Status& error = *scanned->read_error;
    if (input->in_progress && io::is_truncated_stream(error)) {
      // A compressed log still being written ends inside its last block: expected, not damage.
      diagnostics.truncated_last_line = true;
      diagnostics.notes.push_back(error.message() + " (the application was still running)");
    } else {
      // Everything before it is kept: the model says how far the read got.
      diagnostics.read_error = error.message();
    }
  }

  if (diagnostics.events_decoded == 0) {
    // What stopped the read (a decompression bomb, a corrupt first block) is why there is no
    // event: say that, not what the bytes decoded before it look like ("the only line is cut
    // short" was all a zstd bomb of zeros said).
    if (scanned->read_error && diagnostics.read_error) return fail(*scanned->read_error);
    if (diagnostics.lines_read == diagnostics.blank_lines && !diagnostics.truncated_last_line) {
      std::string why = diagnostics.read_error ? " (" + *diagnostics.read_error + ")" : "";
      return fail(Status::InvalidArgument(path + ": empty event log: no events" + why));
    }
    std::string first = diagnostics.malformed.empty()
                            ? std::string("the only line is cut short")
                            : "line " + std::to_string(diagnostics.malformed.front().line_number) + ": " +
                                  diagnostics.malformed.front().reason;
    return fail(Status::InvalidArgument(path + ": not a Spark event log: none of its " +
                                        std::to_string(diagnostics.lines_read) + " lines is a Spark listener event (" +
                                        first + ")"));
  }
  return builder.finish(std::move(source));
}

}  // namespace sf::model

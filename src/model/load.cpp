#include "model/load.h"

#include <algorithm>
#include <memory>
#include <thread>

#include "io/line_batches.h"
#include "io/log_source.h"
#include "model/model_builder.h"
#include "model/part_reader.h"

namespace sf::model {

namespace {

unsigned default_threads() {
  const unsigned hardware = std::thread::hardware_concurrency();
  return std::clamp(hardware, 1u, 2u);
}

}  // namespace

Result<AppModel> load_event_log(const std::string& path, const LoadOptions& options) {
  auto input = io::resolve_log_input(path, options.confinement);
  if (!input) return fail(input.error());

  ModelBuilder builder(options.builder_limits);
  Diagnostics& diagnostics = builder.diagnostics();
  diagnostics.notes = input->warnings;

  SourceInfo source;
  source.path = path;
  source.layout = std::string(io::layout_name(input->layout));
  source.in_progress = input->in_progress;

  LoadProgress progress;
  progress.source_bytes_total = input->total_stored_bytes();
  PartReadOptions part_options;
  part_options.threads = options.threads == 0 ? default_threads() : options.threads;
  part_options.max_line_bytes = options.max_line_bytes;
  part_options.omit_repeated_accumulator_ids = options.omit_repeated_accumulator_ids;
  part_options.in_progress = input->in_progress;
  part_options.progress_interval_bytes = options.progress_interval_bytes;
  part_options.cancel = options.cancel;
  const size_t batch_bytes = options.batch_bytes == 0 ? io::LineBatcher::kDefaultBatchBytes : options.batch_bytes;

  for (size_t i = 0; i < input->parts.size(); ++i) {
    const io::LogPart& part = input->parts[i];
    auto opened = io::open_log_part(*input, part, options.decompress_limits);
    if (!opened) {
      // The first part is the log; without it there is nothing. A later part that cannot be
      // opened ends the read, and the model keeps what came before.
      if (i == 0) return fail(opened.error());
      diagnostics.read_error = opened.error().message();
      break;
    }
    SourcePart source_part;
    source_part.name = part.name;
    source_part.codec = std::string(io::codec_name(opened->codec));
    source_part.stored_bytes = part.stored_bytes;
    const uint64_t done_before = progress.source_bytes_done;
    auto on_bytes = [&](uint64_t part_bytes) {
      progress.source_bytes_done = done_before + part_bytes;
      progress.lines = diagnostics.lines_read;
      if (options.on_progress) options.on_progress(progress);
    };
    // A plain file is read through a mapping (no copy); anything else as the opened stream.
    std::unique_ptr<io::MappedFile> mapped;
    if (opened->codec == io::Codec::kNone && input->layout != io::LogLayout::kStdin && part.zip_entry.empty() &&
        !part.path.empty() && options.map_plain_files) {
      if (auto file = io::MappedFile::open(part.path)) mapped = std::move(*file);
    }
    std::unique_ptr<io::LineBatcher> batcher =
        mapped != nullptr ? std::make_unique<io::LineBatcher>(*mapped, options.max_line_bytes, batch_bytes)
                          : std::make_unique<io::LineBatcher>(*opened->stream, options.max_line_bytes, batch_bytes);
    if (!read_part(*batcher, builder, source_part, part_options, on_bytes)) {
      return fail(Status::Cancelled(path + ": loading was cancelled"));
    }
    if (input->layout == io::LogLayout::kStdin) source_part.stored_bytes = opened->stream->source_bytes_consumed();
    source.parts.push_back(std::move(source_part));
    if (diagnostics.read_error) break;
  }

  if (diagnostics.events_decoded == 0) {
    if (diagnostics.lines_read == diagnostics.blank_lines && !diagnostics.truncated_last_line) {
      std::string why = diagnostics.read_error ? " (" + *diagnostics.read_error + ")" : "";
      return fail(Status::InvalidArgument(path + ": empty event log: no events" + why));
    }
    std::string first = diagnostics.malformed.empty()
                            ? std::string("the only line is cut short")
                            : "line " + std::to_string(diagnostics.malformed.front().line_number) + ": " +
                                  diagnostics.malformed.front().reason;
    return fail(Status::InvalidArgument(path + ": not a Spark event log: none of its " +
                                        std::to_string(diagnostics.lines_read) +
                                        " lines is a Spark listener event (" + first + ")"));
  }
  return builder.finish(std::move(source));
}

}  // namespace sf::model

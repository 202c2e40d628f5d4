#include "model/load.h"

#include "eventlog/decoder.h"
#include "io/line_reader.h"
#include "io/log_source.h"
#include "model/model_builder.h"

namespace sf::model {

namespace {

static_assert(io::LineReader::kPaddingBytes >= eventlog::kLinePadding,
              "lines must carry the padding the decoder reads ahead into");

void record_malformed(Diagnostics& diagnostics, const std::string& part, const io::Line& line, std::string reason) {
  ++diagnostics.malformed_lines;
  if (diagnostics.malformed.size() < Diagnostics::kMaxMalformedKept) {
    diagnostics.malformed.push_back(MalformedLine{part, line.number, line.byte_offset, std::move(reason)});
  }
}

class PartReader {
 public:
  PartReader(ModelBuilder& builder, eventlog::Decoder& decoder, const LoadOptions& options, bool in_progress)
      : builder_(builder), decoder_(decoder), options_(options), in_progress_(in_progress) {}

  // Reads every line of one part. Returns false when the load was cancelled.
  bool read(io::ByteStream& stream, SourcePart& part, const std::function<void(uint64_t)>& on_bytes) {
    Diagnostics& diagnostics = builder_.diagnostics();
    io::LineReader reader(stream, options_.max_line_bytes);
    uint64_t next_progress = options_.progress_interval_bytes;
    while (auto line = reader.next()) {
      ++part.lines;
      ++diagnostics.lines_read;
      if ((part.lines & 4095) == 0 && options_.cancel != nullptr && options_.cancel->load()) return false;
      if (stream.source_bytes_consumed() >= next_progress) {
        on_bytes(stream.source_bytes_consumed());
        next_progress = stream.source_bytes_consumed() + options_.progress_interval_bytes;
      }
      if (line->too_long) {
        record_malformed(diagnostics, part.name, *line,
                         "line of " + std::to_string(line->length) + " bytes is longer than the limit of " +
                             std::to_string(options_.max_line_bytes) + " bytes (--max-line-bytes)");
        continue;
      }
      auto result = decoder_.decode(line->text, builder_);
      switch (result.outcome) {
        case eventlog::DecodeOutcome::kEvent:
        case eventlog::DecodeOutcome::kUnknownEvent:
          ++diagnostics.events_decoded;
          break;
        case eventlog::DecodeOutcome::kBlank:
          ++diagnostics.blank_lines;
          break;
        case eventlog::DecodeOutcome::kMalformed:
          if (!line->terminated) {
            // The log ends mid-line: what an in-progress or cut log looks like. Reported, but
            // not counted as a malformed line.
            diagnostics.truncated_last_line = true;
            diagnostics.notes.push_back(part.name + ": the last line (" + std::to_string(line->number) +
                                        ") is cut short (" + std::to_string(line->length) +
                                        " bytes without a newline) and was not read");
          } else {
            record_malformed(diagnostics, part.name, *line, std::move(result.error));
          }
          break;
      }
    }
    part.uncompressed_bytes = reader.bytes_consumed();
    if (!reader.error().ok()) {
      if (in_progress_ && io::is_truncated_stream(reader.error())) {
        // A compressed log still being written ends inside its last block: expected, not damage.
        diagnostics.truncated_last_line = true;
        diagnostics.notes.push_back(reader.error().message() + " (the application was still running)");
      } else {
        diagnostics.read_error = reader.error().message();
      }
    }
    on_bytes(stream.source_bytes_consumed());
    return true;
  }

 private:
  ModelBuilder& builder_;
  eventlog::Decoder& decoder_;
  const LoadOptions& options_;
  bool in_progress_;
};

}  // namespace

Result<AppModel> load_event_log(const std::string& path, const LoadOptions& options) {
  auto input = io::resolve_log_input(path);
  if (!input) return fail(input.error());

  ModelBuilder builder;
  eventlog::Decoder decoder;
  Diagnostics& diagnostics = builder.diagnostics();
  diagnostics.notes = input->warnings;

  SourceInfo source;
  source.path = path;
  source.layout = std::string(io::layout_name(input->layout));
  source.in_progress = input->in_progress;

  LoadProgress progress;
  progress.source_bytes_total = input->total_stored_bytes();
  PartReader reader(builder, decoder, options, input->in_progress);

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
    if (!reader.read(*opened->stream, source_part, on_bytes)) {
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

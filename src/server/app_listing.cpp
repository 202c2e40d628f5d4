#include "server/app_listing.h"

#include <sys/stat.h>

#include <algorithm>
#include <memory>

#include "eventlog/decoder.h"
#include "io/line_batches.h"
#include "io/log_source.h"

namespace sf::server {

namespace {

namespace ev = eventlog;

// The first events before ApplicationStart are few (LogStart, ResourceProfileAdded, executor and
// environment events); a log that has none in this many lines is not listed.
constexpr uint64_t kMaxLinesBeforeAppStart = 10'000;
// Spark writes ApplicationEnd last: the tail of a plain file that is searched for it.
constexpr uint64_t kTailBytes = uint64_t{1} << 20;
constexpr size_t kMaxLineBytes = size_t{1} << 30;

class ListingEvents final : public ev::EventHandler {
 public:
  using EventHandler::on;
  void on(const ev::LogStart& e) override { spark_version = e.spark_version; }
  void on(const ev::DatabricksMetadata& e) override { spark_version = e.spark_version; }
  void on(const ev::ApplicationStart& e) override {
    start = e;
    started = true;
  }
  void on(const ev::ApplicationEnd& e) override {
    end_time_ms = e.timestamp_ms;
    ended = true;
  }

  std::string spark_version;
  ev::ApplicationStart start;
  bool started = false;
  std::optional<int64_t> end_time_ms;
  bool ended = false;
};

// Decodes one line, copied so the decoder can read past its end.
void decode_copy(ev::Decoder& decoder, std::string_view line, ListingEvents& events) {
  std::string padded(line);
  padded.append(ev::kLinePadding, ' ');
  decoder.decode(std::string_view(padded.data(), line.size()), events);
}

bool names_application_end(std::string_view line) {
  return line.find("SparkListenerApplicationEnd") != std::string_view::npos;
}

int64_t modification_time_ms(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1'000'000;
}

}  // namespace

Result<AttemptListing> read_attempt_file_metadata(const std::string& log_path, const io::PathConfinement& confinement) {
  auto input = io::resolve_log_input(log_path, confinement);
  if (!input) return fail(input.error());
  AttemptListing out;
  out.log_path = log_path;
  for (const io::LogPart& part : input->parts) {
    out.stored_bytes += part.stored_bytes;
    struct stat st {};
    if (!part.path.empty() && ::stat(part.path.c_str(), &st) == 0) {
      out.last_updated_ms = std::max(out.last_updated_ms, modification_time_ms(st));
    }
  }
  // A zip, or a directory whose parts say nothing: the path's own time.
  struct stat st {};
  if (out.last_updated_ms == 0 && ::stat(log_path.c_str(), &st) == 0) out.last_updated_ms = modification_time_ms(st);
  return out;
}

Result<AttemptListing> read_attempt_listing(const std::string& log_path, const io::PathConfinement& confinement) {
  auto metadata = read_attempt_file_metadata(log_path, confinement);
  if (!metadata) return fail(metadata.error());
  auto input = io::resolve_log_input(log_path, confinement);
  if (!input) return fail(input.error());
  if (input->parts.empty()) return fail(Status::InvalidArgument(log_path + ": an event log with no parts"));

  ev::Decoder decoder;
  ListingEvents events;

  // The first events, from the first part.
  {
    auto opened = io::open_log_part(*input, input->parts.front(), {});
    if (!opened) return fail(opened.error());
    io::LineBatcher batcher(*opened->stream, kMaxLineBytes, size_t{64} << 10);
    io::LineBatch batch;
    uint64_t lines = 0;
    while (!events.started && lines < kMaxLinesBeforeAppStart && batcher.next(batch)) {
      io::split_lines(batch, kMaxLineBytes, [&](const io::BatchLine& line) {
        if (events.started || line.too_long) return;
        ++lines;
        decode_copy(decoder, line.text, events);
      });
      batcher.recycle(batch);
    }
  }
  if (!events.started) {
    return fail(Status::InvalidArgument(log_path + ": no SparkListenerApplicationStart in its first " +
                                        std::to_string(kMaxLinesBeforeAppStart) + " lines"));
  }

  // The end event, from the last part: its tail for a plain file, else a scan of its lines.
  const io::LogPart& last = input->parts.back();
  auto opened = io::open_log_part(*input, last, {});
  if (opened && opened->codec == io::Codec::kNone && last.zip_entry.empty() && !last.path.empty()) {
    if (auto file = io::MappedFile::open(last.path)) {
      std::string_view bytes = (*file)->bytes();
      if (bytes.size() > kTailBytes) bytes = bytes.substr(bytes.size() - kTailBytes);
      size_t start = 0;
      while (start < bytes.size()) {
        size_t end = bytes.find('\n', start);
        if (end == std::string_view::npos) end = bytes.size();
        const std::string_view line = bytes.substr(start, end - start);
        if (names_application_end(line)) decode_copy(decoder, line, events);
        start = end + 1;
      }
    }
  } else if (opened) {
    io::LineBatcher batcher(*opened->stream, kMaxLineBytes);
    io::LineBatch batch;
    while (batcher.next(batch)) {
      io::split_lines(batch, kMaxLineBytes, [&](const io::BatchLine& line) {
        if (!line.too_long && names_application_end(line.text)) decode_copy(decoder, line.text, events);
      });
      batcher.recycle(batch);
    }
  }

  AttemptListing out = std::move(*metadata);
  out.app_id = events.start.app_id;
  out.app_name = events.start.app_name;
  out.attempt_id = events.start.attempt_id;
  out.start_time_ms = events.start.timestamp_ms;
  out.user = events.start.user;
  out.spark_version = events.spark_version;
  out.completed = events.ended;
  out.end_time_ms = events.end_time_ms;
  return out;
}

}  // namespace sf::server

#include "catalog/app_listing.h"

#include <sys/stat.h>

#include <algorithm>
#include <memory>

#include "eventlog/decoder.h"
#include "io/log_scan.h"

namespace sf::catalog {

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
    exit_code = e.exit_code;
    ended = true;
  }

  std::string spark_version;
  ev::ApplicationStart start;
  bool started = false;
  std::optional<int64_t> end_time_ms;
  std::optional<int32_t> exit_code;
  bool ended = false;
};

static_assert(io::LineBatcher::kPaddingBytes >= ev::kLinePadding,
              "lines must carry the padding the decoder reads ahead into");

// Decodes one line of a mapping's tail, copied so the decoder can read past its end (the mapping
// may end with it).
void decode_copy(ev::Decoder& decoder, std::string_view line, ListingEvents& events) {
  std::string padded(line);
  padded.append(ev::kLinePadding, ' ');
  decoder.decode(std::string_view(padded.data(), line.size()), events);
}

bool names_application_end(std::string_view line) {
  return line.find("SparkListenerApplicationEnd") != std::string_view::npos;
}

int64_t modification_time_ns(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

}  // namespace

Result<AttemptListing> read_attempt_file_metadata(const std::string& log_path, const io::PathConfinement& confinement) {
  auto input = io::resolve_log_input(log_path, confinement);
  if (!input) return fail(input.error());
  AttemptListing out;
  out.log_path = log_path;
  int64_t newest_part_ns = 0;
  for (const io::LogPart& part : input->parts) {
    out.stored_bytes += part.stored_bytes;
    struct stat st {};
    const bool stated = !part.path.empty() && ::stat(part.path.c_str(), &st) == 0;
    if (stated) newest_part_ns = std::max(newest_part_ns, modification_time_ns(st));
    out.files.files.push_back(
        {part.path.empty() ? part.zip_entry : part.path, part.stored_bytes, stated ? modification_time_ns(st) : 0});
  }
  struct stat st {};
  if (::stat(log_path.c_str(), &st) == 0) {
    out.files.files.push_back({log_path, static_cast<uint64_t>(st.st_size), modification_time_ns(st)});
    // A zip, or a directory whose parts say nothing: the path's own time.
    if (newest_part_ns == 0) newest_part_ns = modification_time_ns(st);
  }
  out.files.last_updated_ms = newest_part_ns / 1'000'000;
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
  io::ScanOptions scan_options;
  scan_options.max_line_bytes = kMaxLineBytes;

  // The first events, from the first part.
  scan_options.batch_bytes = size_t{64} << 10;
  auto head = io::scan_log_parts(*input, {0}, scan_options, [&](io::ScannedPart& part) {
    io::LineBatch batch;
    uint64_t lines = 0;
    while (!events.started && lines < kMaxLinesBeforeAppStart && part.batcher.next(batch)) {
      io::split_lines(batch, kMaxLineBytes, [&](const io::BatchLine& line) {
        if (events.started || line.too_long) return;
        ++lines;
        // A batch's text is followed by kPaddingBytes readable bytes (LineBatcher's promise), and
        // a line inside it by the rest of the batch: decoded in place, not copied (a copy of a
        // 1 GB line was another gigabyte).
        decoder.decode(line.text, events);
      });
      part.batcher.recycle(batch);
    }
    return io::ScanControl::kStop;
  });
  if (!head) return fail(head.error());
  if (!events.started) {
    return fail(Status::InvalidArgument(log_path + ": no SparkListenerApplicationStart in its first " +
                                        std::to_string(kMaxLinesBeforeAppStart) + " lines"));
  }

  // The end event, from the last part: the tail of a mapped plain file, else a scan of its lines.
  // A last part that cannot be read leaves the attempt listed as not completed.
  scan_options.batch_bytes = io::LineBatcher::kDefaultBatchBytes;
  (void)io::scan_log_parts(*input, {input->parts.size() - 1}, scan_options, [&](io::ScannedPart& part) {
    if (part.mapping != nullptr) {
      std::string_view bytes = part.mapping->bytes();
      if (bytes.size() > kTailBytes) bytes = bytes.substr(bytes.size() - kTailBytes);
      size_t start = 0;
      while (start < bytes.size()) {
        size_t end = bytes.find('\n', start);
        if (end == std::string_view::npos) end = bytes.size();
        const std::string_view line = bytes.substr(start, end - start);
        if (names_application_end(line)) decode_copy(decoder, line, events);
        start = end + 1;
      }
      return io::ScanControl::kStop;
    }
    io::for_each_line(part, kMaxLineBytes, [&](const io::BatchLine& line) {
      if (!line.too_long && names_application_end(line.text)) decoder.decode(line.text, events);
    });
    return io::ScanControl::kStop;
  });

  AttemptListing out = std::move(*metadata);
  out.app_id = events.start.app_id;
  out.app_name = events.start.app_name;
  out.attempt_id = events.start.attempt_id;
  out.start_time_ms = events.start.timestamp_ms;
  out.user = events.start.user;
  out.spark_version = events.spark_version;
  out.completed = events.ended;
  out.end_time_ms = events.end_time_ms;
  out.exit_code = events.exit_code;
  return out;
}

}  // namespace sf::catalog

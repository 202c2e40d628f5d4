#include "history_server/log_zip.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <vector>

#include "io/archive_library.h"
#include "io/log_scan.h"
#include "model/line_redaction.h"

namespace sf::history_server {

namespace {

namespace fs = std::filesystem;

struct ArchiveCloser {
  const io::ArchiveFunctions* la;
  void operator()(archive* a) const { la->write_free(a); }
};

// Where libarchive's output goes: the caller's sink, counting the bytes it took.
struct SinkTarget {
  const ZipByteSink* sink;
  uint64_t written_bytes = 0;
  bool stopped = false;  // the sink said stop
};

la_ssize_t write_to_sink(archive*, void* client, const void* buffer, size_t length) {
  auto* target = static_cast<SinkTarget*>(client);
  if (!(*target->sink)(std::string_view(static_cast<const char*>(buffer), length))) {
    target->stopped = true;
    return -1;
  }
  target->written_bytes += length;
  return static_cast<la_ssize_t>(length);
}

// One zip being written into a sink. Once the sink has said stop, every call fails Cancelled.
class ZipWriter {
 public:
  ZipWriter(const io::ArchiveFunctions& la, const ZipByteSink& sink)
      : la_(la), target_{&sink}, zip_(la.write_new(), ArchiveCloser{&la}) {}

  Status open() {
    if (!zip_) return Status::IOError("cannot create a zip writer (out of memory)");
    la_.write_set_format_zip(zip_.get());
    la_.write_set_bytes_in_last_block(zip_.get(), 1);
    if (la_.write_open(zip_.get(), &target_, nullptr, write_to_sink, nullptr) != ARCHIVE_OK) {
      return failure("cannot start a zip archive");
    }
    return Status();
  }
  uint64_t written_bytes() const { return target_.written_bytes; }
  // An entry whose size is not known in advance (zip's data descriptor carries it).
  Status begin(const std::string& name) {
    std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(la_.entry_new(), la_.entry_free);
    la_.entry_set_pathname(entry.get(), name.c_str());
    la_.entry_set_filetype(entry.get(), AE_IFREG);
    la_.entry_set_perm(entry.get(), 0644);
    if (la_.write_header(zip_.get(), entry.get()) != ARCHIVE_OK) return failure(name);
    return Status();
  }
  // A directory's own entry ("eventlog_v2_app/"), as Spark's zip of a log directory has.
  Status begin_directory(const std::string& name) {
    std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(la_.entry_new(), la_.entry_free);
    la_.entry_set_pathname(entry.get(), name.c_str());
    la_.entry_set_filetype(entry.get(), AE_IFDIR);
    la_.entry_set_perm(entry.get(), 0755);
    la_.entry_set_size(entry.get(), 0);
    if (la_.write_header(zip_.get(), entry.get()) != ARCHIVE_OK) return failure(name);
    return Status();
  }
  Status write(std::string_view bytes, const std::string& name) {
    if (!bytes.empty() && la_.write_data(zip_.get(), bytes.data(), bytes.size()) < 0) return failure(name);
    return Status();
  }
  Status close() {
    if (la_.write_close(zip_.get()) != ARCHIVE_OK) return failure("cannot finish the zip archive");
    return Status();
  }

 private:
  Status failure(const std::string& what) {
    if (target_.stopped) return Status::Cancelled("the zip's reader stopped taking bytes");
    const char* reason = la_.error_string(zip_.get());
    return Status::IOError(what + ": " + (reason != nullptr ? reason : "unknown libarchive error"));
  }

  const io::ArchiveFunctions& la_;
  SinkTarget target_;
  std::unique_ptr<archive, ArchiveCloser> zip_;
};

// The appstatus marker of a rolling log directory: it says whether the application is running.
std::vector<fs::path> status_markers(const std::string& directory, const io::PathConfinement& confinement) {
  std::vector<fs::path> markers;
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (!name.starts_with("appstatus_") || !it->is_regular_file(type_ec)) continue;
    if (confinement.confined() && !confinement.resolve(it->path().string())) continue;
    markers.push_back(it->path().filename());
  }
  std::sort(markers.begin(), markers.end());
  return markers;
}

Status too_large(const std::string& log_path, uint64_t max_bytes) {
  return Status::LimitExceeded(log_path + ": more than the " + std::to_string(max_bytes) +
                               " bytes a zip download may hold");
}

// One log's entries into `zip`.
Status write_log(ZipWriter& zip, const io::LogInput& input, const std::string& log_path,
                 const io::PathConfinement& confinement, uint64_t max_bytes) {
  const bool directory = input.layout == io::LogLayout::kRolling || input.layout == io::LogLayout::kDatabricks;
  const std::string prefix = directory ? fs::path(log_path).filename().string() + "/" : "";

  if (directory) {
    if (Status s = zip.begin_directory(prefix); !s.ok()) return s;
    for (const fs::path& marker : status_markers(log_path, confinement)) {
      if (Status s = zip.begin(prefix + marker.string()); !s.ok()) return s;
    }
  }
  // Every part decompressed and its secrets redacted (model/line_redaction.h), so the download
  // is an uncompressed log, its entries named without their codec extension.
  model::LineRedaction redaction;
  std::string chunk;
  std::string scratch;
  Status write_error;
  const io::ScanOptions scan_options;
  auto scanned = io::scan_log(input, scan_options, [&](io::ScannedPart& part) {
    const std::string name = prefix + io::without_codec_extension(part.part.name);
    if (write_error = zip.begin(name); !write_error.ok()) return io::ScanControl::kStop;
    io::for_each_line(part, scan_options.max_line_bytes, [&](const io::BatchLine& line) {
      if (line.too_long || !write_error.ok()) return;  // past the line limit: no event a reader keeps
      chunk.append(redaction.redact(line.text, scratch));
      if (line.terminated) chunk.push_back('\n');
      if (chunk.size() >= (size_t{1} << 20)) {
        write_error = zip.write(chunk, name);
        chunk.clear();
        if (write_error.ok() && zip.written_bytes() > max_bytes) write_error = too_large(log_path, max_bytes);
      }
    });
    if (write_error.ok()) write_error = zip.write(chunk, name);
    chunk.clear();
    return write_error.ok() ? io::ScanControl::kNextPart : io::ScanControl::kStop;
  });
  if (!scanned) return scanned.error();
  if (!write_error.ok()) return write_error;
  // A log that cannot be read to its end is not handed out as if it were whole; a compressed log
  // still being written ends inside its last block, which is no damage.
  if (scanned->read_error && !(input.in_progress && io::is_truncated_stream(*scanned->read_error))) {
    return scanned->read_error->with_context(log_path);
  }
  return Status();
}

}  // namespace

Result<EventLogZip> EventLogZip::open(const std::string& log_path, const io::PathConfinement& confinement,
                                      uint64_t max_bytes) {
  return open(std::vector<std::string>{log_path}, confinement, max_bytes);
}

Result<EventLogZip> EventLogZip::open(const std::vector<std::string>& log_paths, const io::PathConfinement& confinement,
                                      uint64_t max_bytes) {
  std::vector<Log> logs;
  uint64_t stored_bytes = 0;
  for (const std::string& log_path : log_paths) {
    auto input = io::resolve_log_input(log_path, confinement);
    if (!input) return fail(input.error());
    stored_bytes += input->total_stored_bytes();
    if (stored_bytes > max_bytes) return fail(too_large(log_path, max_bytes));
    logs.push_back({std::move(*input), log_path});
  }
  return EventLogZip(std::move(logs), confinement, max_bytes);
}

Status EventLogZip::write(const ZipByteSink& sink) const {
  auto la = io::libarchive();
  if (!la) return la.error();
  ZipWriter zip(**la, sink);
  if (Status s = zip.open(); !s.ok()) return s;
  for (const Log& log : logs_) {
    if (Status s = write_log(zip, log.input, log.path, confinement_, max_bytes_); !s.ok()) return s;
  }
  return zip.close();
}

Result<std::string> zip_event_log(const std::string& log_path, const io::PathConfinement& confinement,
                                  uint64_t max_bytes) {
  auto zip = EventLogZip::open(log_path, confinement, max_bytes);
  if (!zip) return fail(zip.error());
  std::string out;
  const Status written = zip->write([&out](std::string_view bytes) {
    out.append(bytes);
    return true;
  });
  if (!written.ok()) return fail(written);
  return out;
}

}  // namespace sf::history_server

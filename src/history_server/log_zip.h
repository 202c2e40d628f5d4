// The History Server's /logs download: an event log's files in one zip archive (a single-file
// log as its file name, a log directory as <dir>/<file> entries, with its appstatus marker).
// Unlike the History Server's, the files are the log's lines decompressed and with their secrets
// redacted (model/line_redaction.h): secrets never leave the program, whichever front end asks.
// Entries are named without their codec extension (events_1_app.zstd -> events_1_app), so Spark
// and this program read the download as the plain log it is.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "io/log_source.h"
#include "io/path_confinement.h"

namespace sf::history_server {

// Takes the archive's bytes as they are written; returns false to stop the writing (the client
// went away).
using ZipByteSink = std::function<bool(std::string_view bytes)>;

// One log's zip (or several logs', one after the other: the History Server's download of every
// attempt of an application), checked before its first byte and then written piece by piece, so
// a download is sent as it is built instead of held whole (a 2 GB log made a 170 MB zip in
// memory). A log directory has its own directory entry first (`eventlog_v2_app/`), as Spark's.
// Holds the resolved logs, not their bytes; copyable; one write() at a time per object.
class EventLogZip {
 public:
  // Resolves the log (under a confinement, a part that resolves outside its root refuses the
  // download, as kOutsideRoot) and refuses a log stored in more than `max_bytes` (kLimitExceeded).
  // Nothing of the log is read yet.
  static Result<EventLogZip> open(const std::string& log_path, const io::PathConfinement& confinement = {},
                                  uint64_t max_bytes = uint64_t{4} << 30);
  // The same for several logs in one zip; `max_bytes` bounds them together.
  static Result<EventLogZip> open(const std::vector<std::string>& log_paths,
                                  const io::PathConfinement& confinement = {}, uint64_t max_bytes = uint64_t{4} << 30);

  // Writes the archive to `sink`, about 1 MiB of the log's lines at a time. An error names the
  // file that could not be read (a log damaged part-way, whose archive would pass `max_bytes`)
  // and comes after the bytes already written: the archive is then unfinished (no central
  // directory), which is how a reader sees it was cut. kCancelled when the sink said stop.
  Status write(const ZipByteSink& sink) const;

 private:
  struct Log {
    io::LogInput input;
    std::string path;
  };
  EventLogZip(std::vector<Log> logs, io::PathConfinement confinement, uint64_t max_bytes)
      : logs_(std::move(logs)), confinement_(std::move(confinement)), max_bytes_(max_bytes) {}

  std::vector<Log> logs_;
  io::PathConfinement confinement_;
  uint64_t max_bytes_;
};

// The whole archive in memory (tests, and callers that need it whole). Errors as above; a log
// damaged part-way is refused rather than returned cut.
Result<std::string> zip_event_log(const std::string& log_path, const io::PathConfinement& confinement = {},
                                  uint64_t max_bytes = uint64_t{4} << 30);

}  // namespace sf::history_server

// What the application list shows of one log, read from file metadata and the log's first
// events (LogStart, ApplicationStart) and its ApplicationEnd, without loading the log.
//
// For a plain file the end event is looked for in the file's last MiB only (Spark writes it
// last); a compressed part is streamed and only lines naming SparkListenerApplicationEnd are
// decoded. Safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "io/path_confinement.h"

namespace sf::catalog {

// One version of a log's files: the size and modification time of every part, and of the log's
// own path (a rolling log's directory, a zip), so that a log rewritten in place, appended to,
// given a new part or losing one is a new version. What caches of a log's model and listing
// compare.
struct LogFileIdentity {
  struct File {
    std::string path;  // a part's real path, a zip entry's name, or the log's path
    uint64_t bytes = 0;
    int64_t modified_ns = 0;  // 0 for a zip entry
    bool operator==(const File&) const = default;
  };
  std::vector<File> files;
  // The History Server's lastUpdated of this version: the newest part's modification time (the
  // log's own path's for a zip or a directory whose parts say nothing), in ms. Spark's listener
  // also counts a task whose end the log does not hold as running until then.
  int64_t last_updated_ms = 0;
  bool operator==(const LogFileIdentity&) const = default;
};

struct AttemptListing {
  std::string log_path;  // the log as list_event_logs named it
  std::string app_id;
  std::string app_name;
  std::optional<std::string> attempt_id;
  std::optional<int64_t> start_time_ms;
  std::optional<int64_t> end_time_ms;  // ApplicationEnd's time; nullopt when not logged
  std::optional<int32_t> exit_code;    // ApplicationEnd's ExitCode (Spark 4.1+); nullopt when not logged
  std::string user;
  std::string spark_version;  // "" before Spark 1.x's LogStart
  bool completed = false;     // an ApplicationEnd was logged
  uint64_t stored_bytes = 0;  // on disk, all parts
  LogFileIdentity files;

  // The application's wall-clock once it has ended (ApplicationEnd logged), as the History
  // Server's list shows it; nullopt while it runs or when a time was not logged.
  std::optional<int64_t> duration_ms() const {
    if (!completed || !start_time_ms || !end_time_ms) return std::nullopt;
    return *end_time_ms - *start_time_ms;
  }

  // Whether both were read from the same version of the log's files.
  bool same_files(const AttemptListing& other) const { return files == other.files; }
};

// An application and its attempts, newest start first.
struct ApplicationListing {
  std::string id;
  std::string name;
  std::vector<AttemptListing> attempts;
};

// Reads the listing of the log at `log_path`. An error when it is not an event log or holds
// no SparkListenerApplicationStart within its first events.
Result<AttemptListing> read_attempt_listing(const std::string& log_path, const io::PathConfinement& confinement = {});

// The file metadata part of a listing (modification time and size of every part), cheap: what a
// rescan compares to decide whether a log changed. Resolving the parts checks each against the
// confinement: an error when one lies outside it.
Result<AttemptListing> read_attempt_file_metadata(const std::string& log_path,
                                                  const io::PathConfinement& confinement = {});

}  // namespace sf::catalog

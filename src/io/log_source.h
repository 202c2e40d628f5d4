// Resolving what the user pointed at into the ordered parts of one event log.
//
// Layouts:
//   file        one event log file, plain or compressed (codec by extension, confirmed by its
//               first bytes); a ".inprogress" suffix marks an application still running.
//   rolling     a directory eventlog_v2_<appId>[_<attempt>] of events_<n>_<appId>[.<codec>]
//               parts, read in index order from the last ".compact" part on, with an
//               appstatus_<appId>[.inprogress] marker.
//   databricks  a directory of rolled eventlog-<yyyy-mm-dd--HH-MM>[.gz] parts, read in time
//               order, followed by the active part "eventlog".
//   zip         a .zip as the History Server's /api/v1/applications/<id>/logs returns it,
//               holding one of the layouts above.
//   stdin       "-": one stream, codec detected from its first bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "io/byte_stream.h"
#include "io/codec.h"
#include "io/path_confinement.h"

namespace sf::io {

enum class LogLayout { kFile, kRolling, kDatabricks, kZip, kStdin };
std::string_view layout_name(LogLayout layout);

struct LogPart {
  std::string name;                    // file name, or the entry name inside a zip
  std::string path;                    // file path ("" for stdin and zip entries)
  std::string zip_entry;               // entry name when the part is inside a zip
  std::optional<Codec> claimed_codec;  // what the name says; nullopt when it says nothing
  uint64_t stored_bytes = 0;           // size on disk (or in the archive, uncompressed entry size)
};

struct LogInput {
  std::string path;  // as the user gave it
  LogLayout layout = LogLayout::kFile;
  bool in_progress = false;
  std::vector<LogPart> parts;  // in reading order
  // Gaps in a rolling log's part numbers, one sentence each: events in them are lost.
  std::vector<std::string> missing_parts;
  uint64_t total_stored_bytes() const;
};

// Works out the layout and parts of the log at `path`. Errors name the path and say what was
// expected. Under a confinement the log and every part of a directory log must resolve inside
// its root (an OutsideRoot error names the first that does not), and parts are read at their
// real paths.
Result<LogInput> resolve_log_input(const std::string& path, const PathConfinement& confinement = {});

// An opened part: its decompressed bytes and the codec its first bytes confirmed.
struct OpenedPart {
  std::unique_ptr<ByteStream> stream;
  Codec codec = Codec::kNone;
};

// The event logs inside a directory that is not itself one (a History Server log directory):
// regular files and log directories (rolling, Databricks), sorted by name. Hidden files,
// appstatus markers and entries that are neither are left out. Under a confinement an entry
// that resolves outside its root, or a log directory with a part that does, is refused.
struct EventLogListing {
  std::vector<std::string> logs;     // paths as found in the directory, sorted
  std::vector<std::string> refused;  // "path: why", sorted
};
Result<EventLogListing> list_event_logs(const std::string& directory, const PathConfinement& confinement = {});

// Opens a part: checks the codec its name claims against its first bytes (a mismatch is an
// error naming both), then wraps it in the decompressor.
Result<OpenedPart> open_log_part(const LogInput& input, const LogPart& part, const DecompressLimits& limits);

}  // namespace sf::io

// The History Server's /logs download: an event log's files in one zip archive (a single-file
// log as its file name, a log directory as <dir>/<file> entries, with its appstatus marker).
// Unlike the History Server's, the files are the log's lines decompressed and with their secrets
// redacted (model/line_redaction.h): secrets never leave the program, whichever front end asks.
// Entries are named without their codec extension (events_1_app.zstd -> events_1_app), so Spark
// and this program read the download as the plain log it is.
#pragma once

#include <string>

#include "common/status.h"
#include "io/path_confinement.h"

namespace sf::server {

// The zip bytes. Errors name the file that could not be read; a log damaged part-way is refused
// rather than handed out cut. Holds the whole archive in memory, as the History Server does: a
// log stored in more than `max_bytes`, or whose archive would pass them, is refused. Under a
// confinement a part that resolves outside its root refuses the download.
Result<std::string> zip_event_log(const std::string& log_path, const io::PathConfinement& confinement = {},
                                  uint64_t max_bytes = uint64_t{4} << 30);

}  // namespace sf::server

// The History Server's /logs download: an event log's files in one zip archive (a single-file
// log as its file name, a log directory as <dir>/<file> entries).
#pragma once

#include <string>

#include "common/status.h"
#include "io/path_confinement.h"

namespace sf::server {

// The zip bytes. Errors name the file that could not be read. Holds the whole archive in
// memory: the History Server does the same; logs larger than `max_bytes` are refused. Under a
// confinement a file that resolves outside its root refuses the download.
Result<std::string> zip_event_log(const std::string& log_path, const io::PathConfinement& confinement = {},
                                  uint64_t max_bytes = uint64_t{4} << 30);

}  // namespace sf::server

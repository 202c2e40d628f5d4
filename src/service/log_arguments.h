// The logs a command was given: each argument is a log (a file, a rolling or Databricks log
// directory, a History Server zip, "-") or a directory of logs, whose logs are listed as the
// History Server lists its log directory and whose subdirectories are searched the same way.
// Whatever a directory holds that is not analyzed is named, never dropped in silence.
#pragma once

#include <string>
#include <vector>

namespace sf::service {

struct LogArguments {
  struct Log {
    std::string path;
    bool listed = false;  // found in a directory of logs, rather than named on the command line
  };
  std::vector<Log> logs;             // in argument order; a directory's logs sorted by path
  std::vector<std::string> skipped;  // "path: why", for what a directory held that is not a log
  bool directory_given = false;      // an argument was a directory of logs
};

// True when `path` is a directory that is not itself an event log.
bool is_directory_of_logs(const std::string& path);

LogArguments expand_log_arguments(const std::vector<std::string>& arguments);

}  // namespace sf::service

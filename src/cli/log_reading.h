// The flags of every command that reads event logs, spelled and defaulted one way everywhere:
// --threads (the threads decoding one log), the read limits (--max-line-bytes,
// --max-decompression-ratio, --max-open-tasks) and --config, one JSON file for the detector
// thresholds and the read limits:
//
//   {"thresholds": {"skew.maxToMedianRatio": 4}, "limits": {"maxLineBytes": 16777216}}
//
// A flag given on the command line wins over the file, the file over the default.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "common/status.h"
#include "model/load.h"
#include "service/read_settings.h"

namespace sf::cli {

struct LogReadFlags {
  std::string config_path;
  service::ReadFlags read;
};

// Adds --config, --threads and the read limits to `cmd`. `threads_note` follows the threads'
// description where a command uses them differently ("with several logs, 1 each"); without
// `with_threads` there is no --threads (serve, where it is the old spelling of --request-threads).
void add_log_read_flags(CLI::App& cmd, LogReadFlags& flags, const std::string& threads_note = "",
                        bool with_threads = true);

// The settings, reading --config; an unreadable or invalid file is an InvalidArgument or
// NotFound naming the file and the key.
Result<service::ReadSettings> log_read_settings(const LogReadFlags& flags);

// Loads one log, with a progress line on stderr while it reads when `show_progress` (and stderr
// is a terminal).
Result<model::AppModel> load_log(const std::string& path, const service::ReadSettings& settings, bool show_progress);

// Warnings on stderr for a log that loaded only in part (a read that stopped early, malformed
// lines): "sparkforensics: warning: [SOURCE: ]partial load: ...". `source` may be empty when the
// messages name the only log already.
void warn_about_partial_load(const std::string& source, const model::AppModel& model);

}  // namespace sf::cli

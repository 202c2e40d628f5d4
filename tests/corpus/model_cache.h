// Loads corpus logs into models once per test process: several tests read the same log (the
// History Server expectations name one log many times), and a log is loaded only the first time.
//
// Not thread-safe (gtest runs tests on one thread). The models live until the process exits.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "common/status.h"
#include "model/app_model.h"

namespace sf::corpus_testing {

// The model of the log at `path`, or the load's error.
const Result<model::AppModel>& cached_model(const std::filesystem::path& path);

// The models of every log in the corpus' spark-events/ folder (the History Server's logDir),
// by application id and attempt id ("" when the log names no attempt).
using AppKey = std::pair<std::string, std::string>;
struct SparkEventsIndex {
  std::map<AppKey, const model::AppModel*> apps;
  std::map<AppKey, std::string> files;   // the log's file name, for messages
  std::vector<std::string> load_errors;  // one line per log that failed to load
};
const SparkEventsIndex& spark_events_index(const std::filesystem::path& spark_events_dir);

}  // namespace sf::corpus_testing

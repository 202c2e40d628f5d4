// Reading the Spark History Server expectations of the corpus: the expectation map (which
// REST path and application each *_expectation.json answers), REST paths and the History
// Server's date strings.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sf::corpus_testing {

// One row of history-server-expectations/expectation-map.tsv.
struct ExpectationEntry {
  std::string file;       // "one_stage_json_expectation.json"
  std::string test_name;  // HistoryServerSuite's name of the case
  std::string rest_path;  // "applications/local-1422981780767/stages/1"
  std::string app_id;     // "(all apps)" for the application lists
};

// The rows of the map, in file order; empty when the file cannot be read.
std::vector<ExpectationEntry> read_expectation_map(const std::filesystem::path& tsv);

// A REST path split into its parts:
// applications[/<appId>[/<attemptId>][/<resource>...]][?query].
struct RestPath {
  std::string app_id;                     // "" for the application list
  std::optional<std::string> attempt_id;  // when the path names one
  std::vector<std::string> resource;      // {"stages", "1", "0", "taskSummary"}
  std::map<std::string, std::vector<std::string>> query;
};
RestPath parse_rest_path(std::string_view path);

// The History Server's date format, "2015-02-03T16:43:07.191GMT", as epoch milliseconds.
std::optional<int64_t> parse_history_server_time(std::string_view text);

}  // namespace sf::corpus_testing

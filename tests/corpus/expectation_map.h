// Reading the map of the corpus's Spark History Server expectations: which REST path and
// application each *_expectation.json answers. Parsing those paths is the server's own
// (history_server/rest_path.h), shared by the model oracle and the REST API fidelity test.
#pragma once

#include <filesystem>
#include <string>
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

}  // namespace sf::corpus_testing

// The REST API against Spark's own History Server: every request of the corpus's
// expectation-map.tsv is answered by the server's router (in process, no socket) over
// spark-events/, and the JSON is compared structurally with what the History Server answered
// (fields in any order, floats within 1e-9 relative; lastUpdated and lastUpdatedEpoch ignored,
// as HistoryServerSuite blanks them: they are file modification times; logSourceName and
// logSourceFullPath too, which these expectations predate).
//
// The report printed lists the matches and every difference. Expectations known not to match
// are listed below with the reason (docs/server.md explains each); every other one must match,
// and a listed one that starts matching fails too, so the list stays true.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "catalog/log_catalog.h"
#include "corpus/expectation_map.h"
#include "corpus/json_structural_diff.h"
#include "history_server/rest_router.h"
#include "support/corpus.h"

namespace sf::corpus_testing {
namespace {

using nlohmann::json;

// Expectation file -> why the server's answer differs from the History Server's.
const std::map<std::string, std::string>& known_differences() {
  static const std::map<std::string, std::string> known = {};
  return known;
}

TEST(RestApiFidelity, EveryHistoryServerExpectation) {
  SF_REQUIRE_CORPUS_FILE(map_path, "history-server-expectations/expectation-map.tsv");
  SF_REQUIRE_CORPUS_FILE(spark_events, "spark-events");
  const auto entries = read_expectation_map(map_path);
  ASSERT_FALSE(entries.empty()) << map_path << " lists no expectations";

  catalog::CatalogOptions options;
  auto root = io::PathConfinement::to(spark_events.string());
  ASSERT_TRUE(root.has_value()) << root.error().message();
  options.root = std::move(*root);
  catalog::LogCatalog logs(options);
  auto scan = logs.rescan();
  ASSERT_TRUE(scan.has_value()) << scan.error().message();
  for (const auto& problem : scan->unreadable) ADD_FAILURE() << "log not listed: " << problem;
  history_server::RestRouter router(logs);

  // lastUpdated* are file modification times. logSource* (the log directory an attempt was read
  // from) came to the History Server after these expectations were written; its answers are
  // compared by tests/history_server, against a running History Server.
  const std::set<std::string> ignored = {"lastUpdated", "lastUpdatedEpoch", "logSourceName", "logSourceFullPath"};
  size_t matches = 0, values_compared = 0, values_different = 0;
  std::vector<std::string> unexpected_matches, unexpected_differences;
  std::cout << "[rest-api] " << entries.size() << " History Server expectations, GET /api/v1/<path> over "
            << spark_events << "\n";
  for (const ExpectationEntry& entry : entries) {
    std::ifstream in(map_path.parent_path() / entry.file);
    const json expected = json::parse(in, nullptr, false);
    ASSERT_FALSE(expected.is_discarded()) << entry.file << " is not JSON";

    const history_server::RestResponse response = router.handle("GET", entry.rest_path);
    JsonComparison comparison;
    if (response.status != 200) {
      comparison.values_compared = 1;
      comparison.differences.push_back({"(status)", "200", std::to_string(response.status) + " " + response.body});
    } else {
      const json got = json::parse(response.body, nullptr, false);
      ASSERT_FALSE(got.is_discarded()) << entry.rest_path << ": the server's answer is not JSON";
      comparison = compare_json(expected, got, ignored);
    }
    values_compared += comparison.values_compared;
    values_different += comparison.differences.size();
    const bool match = comparison.differences.empty();
    matches += match ? 1 : 0;
    const bool known = known_differences().contains(entry.file);
    std::cout << "[rest-api] " << (match ? "match   " : "DIFFERS ") << entry.rest_path << " (" << entry.file << ", "
              << comparison.values_compared << " values)\n";
    for (const JsonDifference& d : comparison.differences) {
      std::cout << "[rest-api]     " << d.path << ": expected " << d.expected << " got " << d.got << "\n";
    }
    if (!match && known) std::cout << "[rest-api]     known difference: " << known_differences().at(entry.file) << "\n";
    if (match && known) unexpected_matches.push_back(entry.file);
    if (!match && !known) unexpected_differences.push_back(entry.file);
  }
  std::cout << "[rest-api] " << matches << " of " << entries.size() << " expectations match; " << values_compared
            << " values compared, " << values_different << " differ\n";

  for (const auto& file : unexpected_differences) {
    ADD_FAILURE() << file << " differs from the History Server's answer and is not a known difference";
  }
  for (const auto& file : unexpected_matches) {
    ADD_FAILURE() << file << " now matches: remove it from known_differences() and docs/server.md";
  }
  EXPECT_EQ(matches, entries.size() - known_differences().size());
}

}  // namespace
}  // namespace sf::corpus_testing

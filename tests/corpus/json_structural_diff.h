// Structural comparison of two JSON documents, as Spark's HistoryServerSuite compares its
// expectations: object fields in any order, arrays in order, numbers by value (an integer equals
// the same float; floats within a relative tolerance), everything else exactly.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace sf::corpus_testing {

struct JsonDifference {
  std::string path;      // "[0].attempts[1].duration"
  std::string expected;  // the expected value, or "(absent)"
  std::string got;
};

struct JsonComparison {
  size_t values_compared = 0;  // leaf values (and missing or extra fields) looked at
  std::vector<JsonDifference> differences;
};

// Compares `got` with `expected`. Fields named in `ignored_fields` are skipped wherever they are.
JsonComparison compare_json(const nlohmann::json& expected, const nlohmann::json& got,
                            const std::set<std::string>& ignored_fields, double relative_tolerance = 1e-9);

// Where a written document first differs from its reparsed and dumped self, byte by byte, with
// some context: a readable failure for the tests that hold a writer's layout to nlohmann's.
std::string first_difference(const std::string& written, const std::string& reparsed);

}  // namespace sf::corpus_testing

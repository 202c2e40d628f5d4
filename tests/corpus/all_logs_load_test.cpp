// Every event log of the corpus loads, with no malformed line unless the log was damaged on
// purpose, in which case the exact count is expected. One test case per log.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "corpus/corpus_catalog.h"
#include "corpus/model_cache.h"
#include "support/corpus.h"

namespace sf::corpus_testing {
namespace {

class CorpusLogLoads : public ::testing::TestWithParam<CorpusLog> {};

TEST_P(CorpusLogLoads, WithTheExpectedMalformedLineCount) {
  const CorpusLog& log = GetParam();
  SF_REQUIRE_CORPUS_FILE(path, std::string(log.path));
  const auto& loaded = cached_model(path);
  ASSERT_TRUE(loaded.has_value()) << log.path << ": " << loaded.error().message();
  const auto& d = loaded->diagnostics;

  std::string listed;
  for (const auto& m : d.malformed) {
    listed += "\n  " + m.part + " line " + std::to_string(m.line_number) + " (byte " + std::to_string(m.byte_offset) +
              "): " + m.reason;
  }
  EXPECT_EQ(d.malformed_lines, log.expected_malformed_lines)
      << log.path << (log.damage.empty() ? " is an undamaged log" : ": " + std::string(log.damage))
      << "; malformed lines:" << listed;
  EXPECT_FALSE(d.read_error.has_value()) << log.path << ": reading stopped early: " << d.read_error.value_or("");
  EXPECT_GT(d.events_decoded, 0u) << log.path;
  EXPECT_FALSE(loaded->source.parts.empty()) << log.path;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusLogLoads, ::testing::ValuesIn(corpus_logs()),
                         [](const ::testing::TestParamInfo<CorpusLog>& param_info) {
                           return log_test_name(param_info.param.path);
                         });

// The table above lists every log in the corpus folder, so a new log is not silently left out.
TEST(CorpusCatalog, ListsEveryLogInTheCorpusFolder) {
  const auto root = sf::testing::corpus_dir();
  if (!root) GTEST_SKIP() << sf::testing::corpus_missing_reason();
  std::vector<std::string> listed;
  for (const auto& log : corpus_logs()) listed.emplace_back(log.path);
  std::sort(listed.begin(), listed.end());
  const auto found = discover_corpus_logs(*root);
  std::vector<std::string> missing, absent;
  std::set_difference(found.begin(), found.end(), listed.begin(), listed.end(), std::back_inserter(missing));
  std::set_difference(listed.begin(), listed.end(), found.begin(), found.end(), std::back_inserter(absent));
  for (const auto& m : missing) ADD_FAILURE() << "corpus log not in corpus_catalog.cpp's table: " << m;
  for (const auto& a : absent) ADD_FAILURE() << "corpus_catalog.cpp lists a log the corpus does not have: " << a;
}

}  // namespace
}  // namespace sf::corpus_testing

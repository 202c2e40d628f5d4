// Where the shared real-log corpus is, for tests that read it.
//
// The corpus lives outside the repository (../shared/corpus beside the checkout, or the
// directory named by SF_CORPUS_DIR). Tests that need it skip with kCorpusMissing's reason when it
// is absent (SF_REQUIRE_CORPUS_FILE does this for one file), one reason for them all, naming
// where it looked: tests/print_skips.py sums them up in one line after `make test`.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace sf::testing {

// The corpus directory, if it exists.
std::optional<std::filesystem::path> corpus_dir();

// A path inside the corpus (relative to its root); nullopt when the corpus is absent.
std::optional<std::filesystem::path> corpus_file(const std::string& relative);

// Where the corpus is looked for: $SF_CORPUS_DIR, else ../shared/corpus beside the checkout.
std::filesystem::path corpus_location();

// "corpus not found at <where> (set SF_CORPUS_DIR or check out ../shared/corpus)": the skip
// reason of every test that needs the corpus when it is absent.
std::string corpus_missing_reason();

}  // namespace sf::testing

// Skips the current test with a reason when the corpus, or the named file in it, is missing;
// otherwise declares `const std::filesystem::path var` holding its path.
#define SF_REQUIRE_CORPUS_FILE(var, relative)                                                         \
  const auto var##_opt = ::sf::testing::corpus_file(relative);                                        \
  if (!var##_opt) {                                                                                   \
    if (!::sf::testing::corpus_dir()) GTEST_SKIP() << ::sf::testing::corpus_missing_reason();         \
    GTEST_SKIP() << "corpus file " << (relative) << " not found in " << *::sf::testing::corpus_dir(); \
  }                                                                                                   \
  const std::filesystem::path var = *var##_opt

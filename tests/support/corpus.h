// Where the shared real-log corpus is, for tests that read it.
//
// The corpus lives outside the repository (../shared/corpus beside the checkout, or the
// directory named by SF_CORPUS_DIR). Tests that need it call corpus_dir_or_skip() through the
// SF_REQUIRE_CORPUS macro, which skips the test with a printed reason when it is absent.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace sf::testing {

// The corpus directory, if it exists.
std::optional<std::filesystem::path> corpus_dir();

// A path inside the corpus (relative to its root); nullopt when the corpus is absent.
std::optional<std::filesystem::path> corpus_file(const std::string& relative);

}  // namespace sf::testing

// Skips the current test with a reason when the corpus, or the named file in it, is missing;
// otherwise declares `const std::filesystem::path var` holding its path.
#define SF_REQUIRE_CORPUS_FILE(var, relative)                                                   \
  const auto var##_opt = ::sf::testing::corpus_file(relative);                                  \
  if (!var##_opt) {                                                                             \
    GTEST_SKIP() << "corpus file " << (relative)                                                \
                 << " not found (set SF_CORPUS_DIR or check out ../shared/corpus)";             \
  }                                                                                             \
  const std::filesystem::path var = *var##_opt

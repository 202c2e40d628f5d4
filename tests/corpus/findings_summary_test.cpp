// What fires on every real log of the corpus, compared against a checked-in summary, so a change
// in what the detectors say is always a visible diff in review. Also: the analysis of every log
// completes, is deterministic, and keeps the regression guard.
//
// To accept a change in what fires: SF_UPDATE_GOLDEN=1 ./sf_corpus_tests
// --gtest_filter='*FindingsSummary*' rewrites tests/corpus/findings_summary.txt; review the
// diff before committing it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "analysis/analyzer.h"
#include "corpus/corpus_catalog.h"
#include "corpus/model_cache.h"
#include "report/model_json.h"
#include "support/corpus.h"

namespace sf::corpus_testing {
namespace {

const std::filesystem::path kSummaryPath = std::filesystem::path(SF_CORPUS_TESTS_DIR) / "findings_summary.txt";

// "retryWaste/failedStageAttempt x1, skew/durationMax x2" for one log.
std::string summarize(const analysis::Analysis& analysis) {
  std::map<std::string, int> counts;
  for (const auto& f : analysis.findings) ++counts[f.type + (f.rule.empty() ? "" : "/" + f.rule)];
  std::string line;
  for (const auto& [key, count] : counts) line += (line.empty() ? "" : ", ") + key + " x" + std::to_string(count);
  return line.empty() ? "(none)" : line;
}

TEST(FindingsSummary, EveryCorpusLogMatchesTheCheckedInSummary) {
  const auto root = sf::testing::corpus_dir();
  if (!root) GTEST_SKIP() << sf::testing::corpus_missing_reason();

  std::ostringstream actual;
  actual << "# What fires on each corpus log: finding type/rule x count. Regenerate with\n"
         << "# SF_UPDATE_GOLDEN=1 sf_corpus_tests --gtest_filter='*FindingsSummary*' and review the diff.\n";
  size_t total = 0;
  for (const CorpusLog& log : corpus_logs()) {
    const auto& model = cached_model(*root / log.path);
    ASSERT_TRUE(model) << log.path << ": " << model.error().message();
    const analysis::Analysis first = analysis::analyze(*model);
    const analysis::Analysis second = analysis::analyze(*model);
    EXPECT_EQ(report::analysis_json(*model, &first), report::analysis_json(*model, &second))
        << log.path << ": the analysis is not deterministic";
    EXPECT_TRUE(first.guard_violations.empty()) << log.path << ": " << first.guard_violations.front();
    total += first.findings.size();
    actual << log.path << ": " << summarize(first) << "\n";
  }
  std::printf("[findings summary] %zu findings over %zu corpus logs\n", total, corpus_logs().size());

  if (const char* update = std::getenv("SF_UPDATE_GOLDEN"); update != nullptr && std::string(update) == "1") {
    std::ofstream(kSummaryPath) << actual.str();
    GTEST_SKIP() << "rewrote " << kSummaryPath << ": review the diff";
  }
  std::ifstream in(kSummaryPath);
  ASSERT_TRUE(in) << kSummaryPath << " is missing: run with SF_UPDATE_GOLDEN=1 to create it";
  std::stringstream expected;
  expected << in.rdbuf();
  // Line by line, so a failure names the log whose findings changed.
  std::istringstream want(expected.str()), got(actual.str());
  for (;;) {
    std::string want_line, got_line;
    const bool have_want = static_cast<bool>(std::getline(want, want_line));
    const bool have_got = static_cast<bool>(std::getline(got, got_line));
    if (!have_want && !have_got) break;
    EXPECT_EQ(got_line, want_line) << "what fires changed; if intended, run with SF_UPDATE_GOLDEN=1 and review";
  }
}

}  // namespace
}  // namespace sf::corpus_testing

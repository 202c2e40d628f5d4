// Comparisons of real logs from ../shared/corpus: the same log in another codec or layout
// compares as itself; runs of the same application align; unrelated applications never claim
// ok confidence. Skipped with a reason when the corpus is absent.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <memory>
#include <string>

#include "compare/run_comparison.h"
#include "model/load.h"
#include "support/corpus.h"

namespace sf::compare {
namespace {

struct LogPair {
  std::string_view base;
  std::string_view cand;
};

void PrintTo(const LogPair& pair, std::ostream* out) { *out << pair.base << " vs " << pair.cand; }

std::string test_name(std::string_view path) {
  std::string name;
  for (char c : path.substr(path.size() > 40 ? path.size() - 40 : 0))
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

// Each log is loaded once per test process.
const model::AppModel* load_corpus_log(const std::filesystem::path& path) {
  static std::map<std::string, std::unique_ptr<model::AppModel>> cache;
  auto& slot = cache[path.string()];
  if (!slot) {
    auto loaded = model::load_event_log(path.string());
    if (!loaded) {
      ADD_FAILURE() << path << ": " << loaded.error().message();
      return nullptr;
    }
    slot = std::make_unique<model::AppModel>(std::move(*loaded));
  }
  return slot.get();
}

constexpr std::string_view kQual = "NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/";
constexpr std::string_view kProf = "NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling/";

std::string q(std::string_view rest) { return std::string(kQual) + std::string(rest); }
std::string p(std::string_view rest) { return std::string(kProf) + std::string(rest); }

// The same bytes of events, re-encoded or re-packaged.
const std::vector<LogPair>& same_log_pairs() {
  static const std::vector<std::string> storage = {
      q("aqeshuffle_eventlog.zstd"),
      "kubeflow__mcp-apache-spark-history-server/skills/cli/e2e/spark-events/local-1776286786993.zstd",
      p("tasks_executors_fail_compressed_eventlog.zstd"),
      q("db_sim_eventlog"),
      q("eventlog_v2_local-1623876083964"),
  };
  static const std::vector<LogPair> pairs = {
      {"spark-events/local-1422981780767", "codecs/local-1422981780767.lz4"},
      {"spark-events/local-1422981780767", "codecs/local-1422981780767.snappy"},
      {"spark-events/local-1422981780767", "codecs/local-1422981780767.lzf"},
      {storage[0], "codecs/local-1651694304852.lz4"},
      {storage[0], "codecs/local-1651694304852.snappy"},
      {storage[1], "codecs/local-1776286786993.lz4"},
      {storage[2], "codecs/application_1603128018386_7846.lz4"},
      {"spark-events/local-1642039451826", "codecs/eventlog_v2_local-1642039451826"},
      {storage[3], storage[4]},
  };
  return pairs;
}

class SameLog : public ::testing::TestWithParam<LogPair> {};

TEST_P(SameLog, ComparesAsItself) {
  SF_REQUIRE_CORPUS_FILE(base_path, std::string(GetParam().base));
  SF_REQUIRE_CORPUS_FILE(cand_path, std::string(GetParam().cand));
  const model::AppModel* base = load_corpus_log(base_path);
  const model::AppModel* cand = load_corpus_log(cand_path);
  ASSERT_TRUE(base && cand);
  const Comparison c = compare_runs(*base, *cand);
  EXPECT_TRUE(c.alignment.unmatched_base.empty());
  EXPECT_TRUE(c.alignment.unmatched_cand.empty());
  EXPECT_TRUE(c.alignment.replanned.empty());
  EXPECT_FALSE(c.alignment.pairs.empty());
  for (const auto& pair : c.alignment.pairs) {
    EXPECT_EQ(pair.method, PairMethod::kExact) << "stage " << pair.base_stage_id;
    EXPECT_EQ(pair.base_stage_id, pair.cand_stage_id);
  }
  if (c.runtime_coverage) {
    EXPECT_DOUBLE_EQ(*c.runtime_coverage, 1.0);
    EXPECT_EQ(c.confidence, ComparisonConfidence::kOk);
  } else {
    EXPECT_EQ(c.confidence, ComparisonConfidence::kInsufficient);
  }
  for (const auto& d : c.metric_deltas) {
    if (d.delta) {
      EXPECT_EQ(*d.delta, 0) << d.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, SameLog, ::testing::ValuesIn(same_log_pairs()), [](const auto& param_info) {
  return std::to_string(param_info.index) + "_" + test_name(param_info.param.cand);
});

// Different runs (attempts, copies with other ids, a log and its damaged copy) of one application.
const std::vector<LogPair>& same_application_pairs() {
  static const std::vector<std::string> storage = {
      q("multiple_attempts/attempt_1_eventlog.zstd"),
      q("multiple_attempts/attempt_2_eventlog.zstd"),
      q("multiple_attempts/attempt_3_eventlog.zstd"),
      q("multiple_attempts/attempt_4_eventlog.zstd"),
      p("rp_sql_eventlog.zstd"),
      p("malformed_json_eventlog.zstd"),
  };
  static const std::vector<LogPair> pairs = {
      {storage[0], storage[1]},
      {storage[1], storage[2]},
      {storage[2], storage[3]},
      {storage[0], storage[3]},
      {storage[4], storage[5]},
      {"spark-events/local-1426533911241", "spark-events/local-1426633911242"},
      {"spark-events/local-1422981759269", "spark-events/local-1425081759269"},
  };
  return pairs;
}

class SameApplication : public ::testing::TestWithParam<LogPair> {};

TEST_P(SameApplication, AlignsMostOfItsWork) {
  SF_REQUIRE_CORPUS_FILE(base_path, std::string(GetParam().base));
  SF_REQUIRE_CORPUS_FILE(cand_path, std::string(GetParam().cand));
  const model::AppModel* base = load_corpus_log(base_path);
  const model::AppModel* cand = load_corpus_log(cand_path);
  ASSERT_TRUE(base && cand);
  const Comparison c = compare_runs(*base, *cand);
  EXPECT_TRUE(c.alignment.executions.accepted);
  EXPECT_FALSE(c.alignment.pairs.empty());
  ASSERT_TRUE(c.runtime_coverage.has_value());
  EXPECT_GE(*c.runtime_coverage, 0.9) << "confidence " << to_string(c.confidence) << ": " << c.banner;
  EXPECT_EQ(c.confidence, ComparisonConfidence::kOk) << c.banner;
  EXPECT_TRUE(c.comparable);
  // Swapped, the alignment finds alignments of the same total score and the same coverage.
  const Comparison back = compare_runs(*cand, *base);
  double forward = 0, backward = 0;
  for (const auto& e : c.alignment.executions.pairs) forward += e.score;
  for (const auto& e : back.alignment.executions.pairs) backward += e.score;
  EXPECT_NEAR(forward, backward, 1e-9);
  EXPECT_EQ(c.alignment.pairs.size(), back.alignment.pairs.size());
}

INSTANTIATE_TEST_SUITE_P(Corpus, SameApplication, ::testing::ValuesIn(same_application_pairs()),
                         [](const auto& param_info) {
                           return std::to_string(param_info.index) + "_" + test_name(param_info.param.cand);
                         });

// Applications that have nothing to do with each other, several of them with the same generic
// name ("Spark shell"): the comparison must never claim ok confidence.
const std::vector<LogPair>& unrelated_pairs() {
  static const std::vector<std::string> storage = {
      p("eventlog_dsv2.zstd"),
      p("tasks_executors_fail_compressed_eventlog.zstd"),
      q("aqeshuffle_eventlog.zstd"),
      q("multiple_attempts/attempt_1_eventlog.zstd"),
      q("pandas_execs_eventlog.zstd"),
      q("dsAndDf_eventlog.zstd"),
      p("rapids_join_eventlog.zstd"),
      q("writeformat_eventlog"),
      "kubeflow__mcp-apache-spark-history-server/skills/cli/e2e/spark-events/local-1776286786993.zstd",
  };
  static const std::vector<LogPair> pairs = {
      {"spark-events/local-1642039451826", storage[0]},
      {storage[1], storage[2]},
      {storage[3], storage[4]},
      {storage[5], storage[6]},
      {storage[7], storage[0]},
      {storage[8], storage[1]},
      {"spark-events/local-1430917381534", "spark-events/local-1422981780767"},
  };
  return pairs;
}

class Unrelated : public ::testing::TestWithParam<LogPair> {};

TEST_P(Unrelated, NeverClaimsOkConfidence) {
  SF_REQUIRE_CORPUS_FILE(base_path, std::string(GetParam().base));
  SF_REQUIRE_CORPUS_FILE(cand_path, std::string(GetParam().cand));
  const model::AppModel* base = load_corpus_log(base_path);
  const model::AppModel* cand = load_corpus_log(cand_path);
  ASSERT_TRUE(base && cand);
  for (const Comparison& c : {compare_runs(*base, *cand), compare_runs(*cand, *base)}) {
    EXPECT_NE(c.confidence, ComparisonConfidence::kOk)
        << "coverage " << c.runtime_coverage.value_or(-1) << ", executions paired " << c.alignment.executions.paired
        << " of " << c.alignment.executions.base_executions << "/" << c.alignment.executions.cand_executions;
    EXPECT_FALSE(c.banner.empty());
    // Different applications: figures, but no verdict on them.
    EXPECT_FALSE(c.comparable) << "coverage " << c.runtime_coverage.value_or(-1);
    for (const MetricDelta& d : c.metric_deltas) {
      EXPECT_NE(d.direction, ChangeKind::kImprovement) << d.name;
      EXPECT_NE(d.direction, ChangeKind::kRegression) << d.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, Unrelated, ::testing::ValuesIn(unrelated_pairs()), [](const auto& param_info) {
  return std::to_string(param_info.index) + "_" + test_name(param_info.param.cand);
});

}  // namespace
}  // namespace sf::compare

// Comparisons of whole applications from the deterministic log generator (bench/loggen): two
// runs of one job with different random draws, a run that repeats its work, a run whose
// actions are no longer SQL, and the mirror property over random seeds.
#include <gtest/gtest.h>

#include <set>

#include "compare/run_comparison.h"
#include "generated_model.h"

namespace sf::compare {
namespace {

loggen::GeneratorConfig small_run(uint64_t seed) {
  loggen::GeneratorConfig config = loggen::GeneratorConfig::small();
  config.seed = seed;
  config.tasks_per_stage = 24;
  return config;
}

model::AppModel generate(const loggen::GeneratorConfig& config) {
  return test_logs::generated_model(config, ::testing::UnitTest::GetInstance()->current_test_info()->name());
}

TEST(GeneratedRuns, TwoRunsOfOneJobPairEveryStageExactly) {
  const auto base = generate(small_run(11));
  const auto cand = generate(small_run(12));
  const Comparison c = compare_runs(base, cand);
  ASSERT_TRUE(c.alignment.executions.accepted);
  EXPECT_GT(c.alignment.executions.base_executions, 0u);
  EXPECT_EQ(c.alignment.executions.paired, c.alignment.executions.base_executions);
  EXPECT_TRUE(c.alignment.unmatched_base.empty());
  EXPECT_TRUE(c.alignment.unmatched_cand.empty());
  for (const auto& p : c.alignment.pairs) EXPECT_EQ(p.method, PairMethod::kExact) << p.base_stage_id;
  ASSERT_TRUE(c.runtime_coverage.has_value());
  EXPECT_DOUBLE_EQ(*c.runtime_coverage, 1.0);
  EXPECT_EQ(c.confidence, ComparisonConfidence::kOk);
  // Different draws: the run time differs, and the delta says by how much.
  const auto& run_time = c.metric_deltas[1];
  ASSERT_EQ(run_time.name, "executorRunTime");
  EXPECT_NE(*run_time.delta, 0);
}

TEST(GeneratedRuns, ARunThatRepeatsItsWorkPairsOneCycleAndIsNotOk) {
  auto twice = small_run(11);
  twice.scale = 2;
  const auto base = generate(small_run(11));
  const auto cand = generate(twice);
  const Comparison c = compare_runs(base, cand);
  ASSERT_TRUE(c.alignment.executions.accepted);
  EXPECT_EQ(c.alignment.executions.cand_executions, 2 * c.alignment.executions.base_executions);
  EXPECT_EQ(c.alignment.executions.paired, c.alignment.executions.base_executions);
  EXPECT_TRUE(c.alignment.unmatched_base.empty());
  EXPECT_FALSE(c.alignment.unmatched_cand.empty());
  // Half of the candidate's work has no counterpart.
  ASSERT_TRUE(c.runtime_coverage.has_value());
  EXPECT_LT(*c.runtime_coverage, 0.9);
  EXPECT_EQ(c.confidence, ComparisonConfidence::kLow);
}

TEST(GeneratedRuns, ARunWithoutSqlExecutionsIsNotTheSameJob) {
  auto rdd_only = small_run(11);
  rdd_only.sql = false;
  const Comparison c = compare_runs(generate(small_run(11)), generate(rdd_only));
  EXPECT_FALSE(c.alignment.executions.accepted);
  EXPECT_TRUE(c.alignment.pairs.empty());
  EXPECT_NE(c.confidence, ComparisonConfidence::kOk);
}

TEST(GeneratedRuns, SwappingBaselineAndCandidateMirrorsThePairs) {
  for (uint64_t seed : {21, 22, 23}) {
    const auto a = generate(small_run(seed));
    const auto b = generate(small_run(seed + 100));
    const Comparison forward = compare_runs(a, b);
    const Comparison backward = compare_runs(b, a);
    std::set<std::pair<int64_t, int64_t>> f, r;
    for (const auto& p : forward.alignment.pairs) f.emplace(p.base_stage_id, p.cand_stage_id);
    for (const auto& p : backward.alignment.pairs) r.emplace(p.cand_stage_id, p.base_stage_id);
    EXPECT_EQ(f, r) << "seed " << seed;
    EXPECT_EQ(forward.alignment.unmatched_base, backward.alignment.unmatched_cand);
  }
}

}  // namespace
}  // namespace sf::compare

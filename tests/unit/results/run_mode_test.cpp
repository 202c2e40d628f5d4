// Run mode over constructed runs: sides, units, pairing by round, the profiles' invariants and
// status rules (strict for variants), and both methods.
#include <gtest/gtest.h>

#include "results/run_evaluation.h"
#include "trend_fixture.h"

namespace sf::results {
namespace {

using testing::History;
using testing::ResultBuilder;

// An interleaved variants run: rounds 1..n, baseline then candidate (ABAB...), candidate
// `ratio` times the baseline with a small alternating wobble.
void variants_run(History& h, int rounds, double ratio, const std::string& workload = "q1",
                  const std::string& run_key = "run-1") {
  for (int r = 1; r <= rounds; ++r) {
    const double base = 100 + r;
    const double wobble = (r % 2 == 0) ? 1.003 : 0.997;
    h.add(ResultBuilder()
              .param("role", "baseline")
              .param("workload", workload)
              .run(run_key, r, 2 * r - 1)
              .duration(base));
    h.add(ResultBuilder()
              .param("role", "candidate")
              .param("workload", workload)
              .run(run_key, r, 2 * r)
              .duration(base * ratio * wobble));
  }
}

VerdictDocument run(const History& h, const std::string& profile, const std::string& baseline, MethodConfig method = {},
                    const std::string& coordinate = "") {
  auto doc = evaluate_run({"run-1", profile, coordinate, baseline}, h.results(), IdentityPolicy{}, method);
  EXPECT_TRUE(doc.has_value()) << (doc ? "" : doc.error().message());
  return doc ? *doc : VerdictDocument{};
}

MethodConfig paired_ratio_method() {
  MethodConfig m;
  m.name = "paired-ratio";
  m.min_points = 3;
  return m;
}

TEST(RunMode, VariantsPairedRatioFindsASlowdown) {
  History h;
  variants_run(h, 6, 1.05);
  const VerdictDocument doc = run(h, "variants", "baseline", paired_ratio_method());
  EXPECT_TRUE(doc.failed_invariants.empty());
  ASSERT_EQ(doc.evaluations.size(), 1u);
  const Evaluation e = doc.evaluations.at(0);
  EXPECT_EQ(e.outcome.verdict, Verdict::kRegressed);
  EXPECT_EQ(e.pairs.size(), 6u);
  EXPECT_EQ(e.ordering, "paired-rounds");
  EXPECT_EQ(e.unit_key, "parameters.workload=q1, subject=job");
  EXPECT_GT(*e.outcome.interval_low, 1.0);
  EXPECT_EQ(doc.run->target, "candidate");
  EXPECT_EQ(doc.run->coordinate, "parameters.role");
}

TEST(RunMode, DispersionScaledUsesTheSpreadOfPairedDifferences) {
  History h;
  variants_run(h, 6, 1.05);
  MethodConfig method;
  method.min_points = 3;
  const Evaluation e = run(h, "variants", "baseline", method).evaluations.at(0);
  EXPECT_EQ(e.outcome.verdict, Verdict::kRegressed);
  EXPECT_NEAR(*e.outcome.effect, 0.05, 0.001);
  EXPECT_NE(e.outcome.noise_source.find("paired differences"), std::string::npos);
  History same;
  variants_run(same, 6, 1.0);
  EXPECT_EQ(run(same, "variants", "baseline", method).evaluations.at(0).outcome.verdict, Verdict::kNoChangeDetected);
}

TEST(RunMode, UnitsAreEvaluatedIndependently) {
  History h;
  variants_run(h, 5, 1.10, "q1");
  variants_run(h, 5, 1.00, "q2");
  const VerdictDocument doc = run(h, "variants", "baseline", paired_ratio_method());
  ASSERT_EQ(doc.evaluations.size(), 2u);
  EXPECT_EQ(doc.evaluations[0].outcome.verdict, Verdict::kRegressed);
  EXPECT_EQ(doc.evaluations[1].outcome.verdict, Verdict::kNoChangeDetected);
  EXPECT_EQ(doc.run->units.size(), 2u);
}

TEST(RunMode, VariantsAreStrictAboutAFailedSide) {
  History h;
  for (int r = 1; r <= 6; ++r) {
    h.add(ResultBuilder().param("role", "baseline").run("run-1", r, 2 * r - 1).duration(100));
    // The candidate times out in round 4; the other rounds look fine.
    h.add(ResultBuilder()
              .param("role", "candidate")
              .run("run-1", r, 2 * r)
              .duration(100)
              .status(r == 4 ? RunStatus::kCensored : RunStatus::kOk));
  }
  const Evaluation e = run(h, "variants", "baseline", paired_ratio_method()).evaluations.at(0);
  EXPECT_EQ(e.outcome.verdict, Verdict::kIndeterminate);
  EXPECT_EQ(e.outcome.reason, "side-failed");
  EXPECT_NE(e.detail.find("round 4"), std::string::npos);
}

TEST(RunMode, OtherProfilesDropTheFailedPairAndKeepTheVerdict) {
  History h;
  for (int r = 1; r <= 6; ++r) {
    const double base = 100 + r;
    h.add(ResultBuilder().env("cluster", "old").run("run-1", r, 2 * r - 1).duration(base));
    h.add(ResultBuilder()
              .env("cluster", "new")
              .run("run-1", r, 2 * r)
              .duration(base * (r % 2 ? 0.9 : 0.902))
              .status(r == 2 ? RunStatus::kError : RunStatus::kOk));
  }
  const VerdictDocument doc = run(h, "environments", "old", paired_ratio_method(), "environment.cluster");
  const Evaluation e = doc.evaluations.at(0);
  EXPECT_EQ(e.outcome.verdict, Verdict::kImproved);
  EXPECT_EQ(e.pairs.size(), 5u);
  ASSERT_EQ(e.exclusions.size(), 2u);  // both attempts of round 2, visibly
  EXPECT_NE(e.exclusions[0].reason.find("round 2"), std::string::npos);
}

TEST(RunMode, SkippedAttemptsAreDroppedEvenUnderVariants) {
  History h;
  for (int r = 1; r <= 5; ++r) {
    h.add(ResultBuilder().param("role", "baseline").run("run-1", r, 2 * r - 1).duration(100 + r));
    h.add(ResultBuilder()
              .param("role", "candidate")
              .run("run-1", r, 2 * r)
              .duration(120 + r)
              .status(r == 3 ? RunStatus::kSkipped : RunStatus::kOk));
  }
  const Evaluation e = run(h, "variants", "baseline", paired_ratio_method()).evaluations.at(0);
  EXPECT_EQ(e.outcome.verdict, Verdict::kRegressed);
  EXPECT_EQ(e.pairs.size(), 4u);
}

TEST(RunInvariants, ARunThatIsNotInterleavedIsNotCompared) {
  History h;
  for (int r = 1; r <= 5; ++r) h.add(ResultBuilder().param("role", "baseline").run("run-1", r, r).duration(100));
  for (int r = 1; r <= 5; ++r) h.add(ResultBuilder().param("role", "candidate").run("run-1", r, 5 + r).duration(150));
  const VerdictDocument doc = run(h, "variants", "baseline", paired_ratio_method());
  EXPECT_TRUE(doc.evaluations.empty());
  ASSERT_EQ(doc.failed_invariants.size(), 1u);
  EXPECT_EQ(doc.failed_invariants[0].name, "interleaved");
}

TEST(RunInvariants, CounterbalancedOrderIsInterleaved) {
  History h;
  for (int r = 1; r <= 4; ++r) {  // ABBA ABBA: each round contiguous
    const bool flip = r % 2 == 0;
    h.add(ResultBuilder().param("role", "baseline").run("run-1", r, 2 * r - (flip ? 0 : 1)).duration(100 + r));
    h.add(ResultBuilder().param("role", "candidate").run("run-1", r, 2 * r - (flip ? 1 : 0)).duration(100 + r));
  }
  const VerdictDocument doc = run(h, "variants", "baseline", paired_ratio_method());
  EXPECT_TRUE(doc.failed_invariants.empty());
  EXPECT_EQ(doc.evaluations.at(0).outcome.verdict, Verdict::kNoChangeDetected);
}

TEST(RunInvariants, UnequalAttemptCounts) {
  History h;
  variants_run(h, 4, 1.0);
  h.add(ResultBuilder().param("role", "candidate").param("workload", "q1").run("run-1", 5, 9).duration(100));
  const VerdictDocument doc = run(h, "variants", "baseline", paired_ratio_method());
  EXPECT_TRUE(doc.evaluations.empty());
  EXPECT_EQ(doc.failed_invariants.at(0).name, "equal-attempt-counts");
}

TEST(RunInvariants, AUnitOnOneSideOnlyIsAnUnmatchedDifference) {
  History h;
  variants_run(h, 4, 1.0, "q1");
  for (int r = 1; r <= 4; ++r)
    h.add(ResultBuilder().param("role", "candidate").param("workload", "q9").run("run-1", 10 + r, 20 + r).duration(1));
  const VerdictDocument doc = run(h, "variants", "baseline", paired_ratio_method());
  ASSERT_EQ(doc.failed_invariants.size(), 1u);
  EXPECT_EQ(doc.failed_invariants[0].name, "sides-differ-only-in-varying-coordinate");
  EXPECT_EQ(doc.failed_invariants[0].unit_key, "parameters.workload=q9, subject=job");
  EXPECT_EQ(doc.evaluations.size(), 1u);  // q1 is still compared
}

TEST(RunInvariants, ExactlyTwoSides) {
  History h;
  variants_run(h, 3, 1.0);
  h.add(ResultBuilder().param("role", "third").param("workload", "q1").run("run-1", 1, 99).duration(100));
  const VerdictDocument doc = run(h, "variants", "baseline", paired_ratio_method());
  EXPECT_TRUE(doc.evaluations.empty());
  EXPECT_EQ(doc.failed_invariants.at(0).name, "two-sides");
}

TEST(RunInvariants, OneBenchmarkTreeAcrossSidesAndRounds) {
  History h;
  for (int r = 1; r <= 4; ++r) {
    h.add(ResultBuilder().tree("a").benchmark_tree("bench-1").run("run-1", r, 2 * r - 1).duration(100));
    h.add(
        ResultBuilder().tree("b").benchmark_tree(r == 3 ? "bench-2" : "bench-1").run("run-1", r, 2 * r).duration(100));
  }
  const VerdictDocument doc = run(h, "revisions", "a", paired_ratio_method());
  EXPECT_TRUE(doc.evaluations.empty());
  EXPECT_EQ(doc.failed_invariants.at(0).name, "one-benchmark-tree");
  // The environments profile has no such invariant.
}

TEST(RunInvariants, RevisionsNeedOneTreePerSide) {
  History h;
  for (int r = 1; r <= 4; ++r) {
    h.add(ResultBuilder().tree("a").param("build", "old").run("run-1", r, 2 * r - 1).duration(100));
    h.add(ResultBuilder().tree(r == 2 ? "c" : "b").param("build", "new").run("run-1", r, 2 * r).duration(100));
  }
  // Varying a parameter under the revisions profile: the new side has two trees.
  auto doc = evaluate_run({"run-1", "revisions", "parameters.build", "old"}, h.results(), IdentityPolicy{},
                          paired_ratio_method());
  ASSERT_TRUE(doc.has_value());
  EXPECT_TRUE(doc->evaluations.empty());
  EXPECT_EQ(doc->failed_invariants.at(0).name, "one-tree-per-side");
}

TEST(RunMode, RevisionsProfileAndLocalOnlySide) {
  History h;
  for (int r = 1; r <= 4; ++r) {
    h.add(ResultBuilder().tree("a").run("run-1", r, 2 * r - 1).duration(100 + r));
    h.add(ResultBuilder().tree("b").dirty().run("run-1", r, 2 * r).duration(90 + r));
  }
  const VerdictDocument doc = run(h, "revisions", "a", paired_ratio_method());
  EXPECT_TRUE(doc.failed_invariants.empty());
  EXPECT_EQ(doc.evaluations.at(0).outcome.verdict, Verdict::kImproved);
  EXPECT_TRUE(doc.run->local_only);
  ASSERT_FALSE(doc.caveats.empty());
  EXPECT_NE(doc.caveats[0].find("local-only"), std::string::npos);
}

TEST(RunMode, TooFewPairsIsIndeterminate) {
  History h;
  variants_run(h, 2, 1.5);
  const Evaluation e = run(h, "variants", "baseline", paired_ratio_method()).evaluations.at(0);
  EXPECT_EQ(e.outcome.verdict, Verdict::kIndeterminate);
  EXPECT_EQ(e.outcome.reason, "insufficient-pairs");
}

TEST(RunMode, RequestErrorsAreErrors) {
  History h;
  variants_run(h, 3, 1.0);
  EXPECT_FALSE(evaluate_run({"run-1", "variants", "", "nope"}, h.results(), {}, {}).has_value());
  EXPECT_FALSE(evaluate_run({"no-such-run", "variants", "", "baseline"}, h.results(), {}, {}).has_value());
  EXPECT_FALSE(evaluate_run({"run-1", "flavours", "", "baseline"}, h.results(), {}, {}).has_value());
  EXPECT_FALSE(evaluate_run({"run-1", "environments", "", "baseline"}, h.results(), {}, {}).has_value());
}

}  // namespace
}  // namespace sf::results

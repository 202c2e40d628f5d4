// History mode end to end over constructed histories: reference selection (ancestry, native
// order, windows, resets, continuity), every guard with its reason, and reproducibility.
#include <gtest/gtest.h>

#include "report/verdict_json.h"
#include "results/trend_comparison.h"
#include "results/trend_evaluation.h"
#include "trend_fixture.h"

namespace sf::results {
namespace {

using testing::History;
using testing::noisy_values;
using testing::ResultBuilder;

Evaluation only(const VerdictDocument& doc) {
  EXPECT_EQ(doc.evaluations.size(), 1u);
  return doc.evaluations.empty() ? Evaluation{} : doc.evaluations.front();
}

VerdictDocument compare(const History& h, const std::string& target, const MethodConfig& method = {},
                        const IdentityPolicy& policy = {}) {
  auto doc = compare_trend(h.results(), policy, method, target, {"durationMs"});
  EXPECT_TRUE(doc.has_value()) << (doc ? "" : doc.error().message());
  return doc ? *doc : VerdictDocument{};
}

// A linear history c1 <- c2 <- ... with the given values; returns the trees.
std::vector<std::string> linear(History& h, const std::vector<double>& values, const std::string& prefix = "c") {
  std::vector<std::string> trees;
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string tree = prefix + std::to_string(i + 1);
    std::vector<std::string> parents;
    if (!trees.empty()) parents.push_back(trees.back());
    h.add(ResultBuilder().tree(tree, parents).duration(values[i]));
    trees.push_back(tree);
  }
  return trees;
}

TEST(HistoryMode, SpecExampleThroughTheStore) {
  for (const auto& [noise, expected] :
       {std::pair{0.002, Verdict::kRegressed}, std::pair{0.05, Verdict::kNoChangeDetected}}) {
    History h;
    auto trees = linear(h, noisy_values(100, noise, 10));
    h.add(ResultBuilder().tree("t", {trees.back()}).duration(102));
    const Evaluation e = only(compare(h, h.last_id()));
    EXPECT_EQ(e.outcome.verdict, expected) << "noise " << noise;
    EXPECT_EQ(e.ordering, "ancestry");
    EXPECT_EQ(e.reference.size(), 10u);
    EXPECT_EQ(e.reference.front().revision, "c10");  // nearest first
    EXPECT_EQ(*e.reference.front().ancestry_distance, 1);
  }
}

TEST(HistoryMode, WindowBoundsTheReference) {
  History h;
  auto trees = linear(h, noisy_values(100, 0.01, 30));
  h.add(ResultBuilder().tree("t", {trees.back()}).duration(100));
  MethodConfig method;
  method.window = 7;
  const Evaluation e = only(compare(h, h.last_id(), method));
  EXPECT_EQ(e.reference.size(), 7u);
  EXPECT_EQ(e.reference.back().revision, "c24");
  EXPECT_EQ(e.outcome.evidence_count, 7);
}

TEST(HistoryMode, AncestryIgnoresOtherBranchesNativeOrderDoesNot) {
  History h;
  // main: m1..m6 at ~100; a feature branch f1..f6 off m1 at ~200, ingested interleaved.
  h.add(ResultBuilder().tree("m1").duration(100));
  std::string main_tip = "m1", branch_tip = "m1";
  for (int i = 2; i <= 6; ++i) {
    h.add(ResultBuilder().tree("f" + std::to_string(i), {branch_tip}).duration(200 + i));
    branch_tip = "f" + std::to_string(i);
    h.add(ResultBuilder().tree("m" + std::to_string(i), {main_tip}).duration(100 + (i % 2)));
    main_tip = "m" + std::to_string(i);
  }
  h.add(ResultBuilder().tree("target", {main_tip}).duration(101));
  const Evaluation ancestry = only(compare(h, h.last_id()));
  ASSERT_EQ(ancestry.ordering, "ancestry");
  for (const PointRef& p : ancestry.reference) EXPECT_EQ(p.revision[0], 'm') << p.revision;
  EXPECT_EQ(ancestry.outcome.verdict, Verdict::kNoChangeDetected);

  MethodConfig native;
  native.ordering = "native";
  const Evaluation mixed = only(compare(h, h.last_id(), native));
  EXPECT_EQ(mixed.ordering, "native");
  bool saw_branch = false;
  for (const PointRef& p : mixed.reference) saw_branch |= p.revision[0] == 'f';
  EXPECT_TRUE(saw_branch);
  EXPECT_EQ(mixed.reference.front().revision, "m6");  // the latest ingest first
}

TEST(HistoryMode, NoAncestryFallsBackToNativeOrder) {
  History h;
  for (double v : noisy_values(50, 0.01, 6)) h.add(ResultBuilder("bench").duration(v));
  h.add(ResultBuilder("bench").duration(50.1));
  const Evaluation e = only(compare(h, h.last_id()));
  EXPECT_EQ(e.ordering, "native");
  EXPECT_EQ(e.reference.size(), 6u);
  EXPECT_EQ(e.outcome.verdict, Verdict::kNoChangeDetected);
}

TEST(HistoryGuards, OrderingUnknownWhenAncestryIsRequiredButAbsent) {
  History h;
  for (double v : noisy_values(50, 0.01, 6)) h.add(ResultBuilder("bench").duration(v));
  h.add(ResultBuilder("bench").duration(80));
  MethodConfig method;
  method.ordering = "ancestry";
  const Evaluation e = only(compare(h, h.last_id(), method));
  EXPECT_EQ(e.outcome.verdict, Verdict::kIndeterminate);
  EXPECT_EQ(e.outcome.reason, "ordering-unknown");
}

TEST(HistoryGuards, TargetUnusableIsNotReplacedByAnOlderPoint) {
  History h;
  auto trees = linear(h, noisy_values(100, 0.01, 8));
  h.add(ResultBuilder().tree("t", {trees.back()}).duration(500).status(RunStatus::kError));
  const Evaluation e = only(compare(h, h.last_id()));
  EXPECT_EQ(e.outcome.verdict, Verdict::kIndeterminate);
  EXPECT_EQ(e.outcome.reason, "target-unusable");
  EXPECT_EQ(e.target->result_id, h.last_id());

  h.add(ResultBuilder().tree("t2", {trees.back()}).quantity("otherMs", 3));
  auto doc = compare_trend(h.results(), {}, {}, h.last_id(), {"durationMs"});
  EXPECT_EQ(only(*doc).outcome.reason, "target-unusable");
  EXPECT_NE(only(*doc).detail.find("no value"), std::string::npos);
}

TEST(HistoryGuards, FirstPointHasNoReferenceAndShortHistoryIsInsufficient) {
  History h;
  h.add(ResultBuilder().tree("c1").duration(100));
  EXPECT_EQ(only(compare(h, h.last_id())).outcome.reason, "no-reference");
  auto trees = linear(h, {100, 101, 99}, "d");
  h.add(ResultBuilder().tree("t", {trees.back()}).duration(150));
  const Evaluation e = only(compare(h, h.last_id()));
  EXPECT_EQ(e.outcome.reason, "insufficient-history");
  EXPECT_EQ(e.outcome.evidence_count, 3);
}

TEST(HistoryGuards, FailedReferencePointsAreExcludedVisibly) {
  History h;
  auto trees = linear(h, noisy_values(100, 0.002, 8));
  h.add(ResultBuilder().tree("bad", {trees.back()}).duration(900).status(RunStatus::kError));
  h.add(ResultBuilder().tree("t", {"bad"}).duration(100));
  const Evaluation e = only(compare(h, h.last_id()));
  ASSERT_EQ(e.exclusions.size(), 1u);
  EXPECT_EQ(e.exclusions[0].reason, "status-error");
  EXPECT_EQ(e.reference.size(), 8u);
  EXPECT_EQ(e.outcome.verdict, Verdict::kNoChangeDetected);
}

TEST(HistoryGuards, DuplicatePointsOfOneRevisionAreNotPickedImplicitly) {
  History h;
  auto trees = linear(h, noisy_values(100, 0.002, 8));
  h.add(ResultBuilder().tree(trees.back(), {trees[trees.size() - 2]}).duration(100.1));  // a rerun of c8
  h.add(ResultBuilder().tree("t", {trees.back()}).duration(100));
  const Evaluation rejected = only(compare(h, h.last_id()));
  EXPECT_EQ(rejected.outcome.verdict, Verdict::kIndeterminate);
  EXPECT_EQ(rejected.outcome.reason, "duplicate-points");

  MethodConfig combine;
  combine.duplicates = "mean";
  const Evaluation combined = only(compare(h, h.last_id(), combine));
  EXPECT_NE(combined.outcome.verdict, Verdict::kIndeterminate);
  EXPECT_EQ(combined.outcome.evidence_count, 8);  // c8's two points count once
  ASSERT_FALSE(combined.caveats.empty());
  EXPECT_NE(combined.caveats.back().find("combined by their mean"), std::string::npos);
}

// The guard inside evaluate(): a reference handed in from elsewhere is checked, not trusted.
TEST(HistoryGuards, EvaluateRejectsForeignReferences) {
  History h;
  auto trees = linear(h, noisy_values(100, 0.002, 6));
  h.add(ResultBuilder("other-job").tree("x1").duration(100));
  h.add(ResultBuilder().tree("t", {trees.back()}).duration(100));
  const IdentityPolicy policy;
  const MethodConfig method;
  const SeriesPoint target = series_point(h.results().back(), "durationMs", policy);
  const TrendReference good = select_trend_reference(target, h.results(), policy, method);
  ASSERT_EQ(evaluate_trend(target, good, method).outcome.verdict, Verdict::kNoChangeDetected);

  auto with = [&](auto mutate) {
    TrendReference r = good;
    mutate(r);
    return evaluate_trend(target, r, method).outcome.reason;
  };
  EXPECT_EQ(with([&](TrendReference& r) { r.points[0] = series_point(h.results()[6], "durationMs", policy); }),
            "series-mismatch");
  EXPECT_EQ(with([](TrendReference& r) { r.points[0].estimator = "median-of-iterations/1"; }), "estimator-mismatch");
  EXPECT_EQ(with([](TrendReference& r) { r.points[0].policy_schema = "someone-elses-policy/2"; }), "policy-mismatch");
  EXPECT_EQ(with([](TrendReference& r) { r.points[0].native_order = 1000; }), "not-preceding");
  EXPECT_EQ(with([](TrendReference& r) { r.ancestors.clear(); }), "not-preceding");
  EXPECT_EQ(with([](TrendReference& r) { r.ordering = "unknown"; }), "ordering-unknown");
  MethodConfig ratio;
  ratio.name = "paired-ratio";
  EXPECT_EQ(evaluate_trend(target, good, ratio).outcome.reason, "method-not-applicable");
}

TEST(HistoryMode, ReproducibleByteForByteAfterNewerPointsArrive) {
  History h;
  auto trees = linear(h, noisy_values(100, 0.01, 12));
  h.add(ResultBuilder().tree("t", {trees.back()}).duration(104));
  const std::string target = h.last_id();
  const std::string before = report::verdict_json(compare(h, target));
  // Newer points: descendants of the target, a sibling branch, a rerun of an ancestor.
  h.add(ResultBuilder().tree("u", {"t"}).duration(300));
  h.add(ResultBuilder().tree("sib", {trees.back()}).duration(1));
  h.add(ResultBuilder().tree(trees[5], {trees[4]}).duration(5000));
  const std::string after = report::verdict_json(compare(h, target));
  EXPECT_EQ(before, after);
  MethodConfig native;
  native.ordering = "native";
  const std::string native_before = report::verdict_json(compare(h, target, native));
  h.add(ResultBuilder().duration(7));
  EXPECT_EQ(native_before, report::verdict_json(compare(h, target, native)));
}

TEST(HistoryMode, ResetCutsTheObsoleteRegime) {
  History h;
  auto old_regime = linear(h, noisy_values(200, 0.2, 10));  // slow and noisy
  std::vector<std::string> trees = old_regime;
  for (double v : noisy_values(100, 0.002, 6)) {
    const std::string tree = "n" + std::to_string(trees.size());
    h.add(ResultBuilder().tree(tree, {trees.back()}).duration(v));
    trees.push_back(tree);
  }
  h.add(ResultBuilder().tree("t", {trees.back()}).duration(102));
  // Without a reset the old regime inflates the noise and hides the regression.
  EXPECT_EQ(only(compare(h, h.last_id())).outcome.verdict, Verdict::kNoChangeDetected);

  IdentityPolicy policy;
  policy.version = 2;
  policy.boundaries.push_back({"reset", {{"subject", "job"}}, "", trees[10], "", "new executor type"});
  const Evaluation e = only(compare(h, h.last_id(), {}, policy));
  EXPECT_EQ(e.outcome.verdict, Verdict::kRegressed);
  EXPECT_EQ(e.reference.size(), 6u);
  ASSERT_EQ(e.boundaries.size(), 1u);
  EXPECT_EQ(e.boundaries[0].kind, "reset");
  EXPECT_EQ(e.boundaries[0].at, trees[10]);
  EXPECT_EQ(e.boundaries[0].points, 10);
  ASSERT_FALSE(e.exclusions.empty());
  EXPECT_EQ(e.exclusions[0].reason, "before-reset");

  // The same as an accepted change point, in native order; and a boundary for another subject
  // does nothing.
  IdentityPolicy accepted;
  accepted.boundaries.push_back({"accepted-change-point", {}, "durationMs", trees[10], "", "accepted after review"});
  accepted.boundaries.push_back({"reset", {{"subject", "someone-else"}}, "", trees[12], "", ""});
  MethodConfig native;
  native.ordering = "native";
  const Evaluation n = only(compare(h, h.last_id(), native, accepted));
  EXPECT_EQ(n.ordering, "native");
  EXPECT_EQ(n.reference.size(), 6u);
  ASSERT_EQ(n.boundaries.size(), 1u);
  EXPECT_EQ(n.boundaries[0].kind, "accepted-change-point");
  EXPECT_EQ(n.exclusions[0].reason, "before-accepted-change-point");
}

TEST(HistoryMode, ContinuityMappingJoinsARenamedBenchmark) {
  History h;
  for (double v : noisy_values(100, 0.002, 6)) h.add(ResultBuilder("old-name").duration(v));
  h.add(ResultBuilder("new-name").duration(103));
  // Without a mapping the renamed benchmark starts a new series: nothing to compare with.
  EXPECT_EQ(only(compare(h, h.last_id())).outcome.reason, "no-reference");

  IdentityPolicy policy;
  policy.version = 3;
  policy.continuity.push_back({"subject", "old-name", "new-name", "renamed in PR 42"});
  const Evaluation e = only(compare(h, h.last_id(), {}, policy));
  EXPECT_EQ(e.outcome.verdict, Verdict::kRegressed);
  EXPECT_EQ(e.reference.size(), 6u);
  ASSERT_EQ(e.boundaries.size(), 1u);
  EXPECT_EQ(e.boundaries[0].kind, "continuity");
  EXPECT_EQ(e.boundaries[0].at, "subject: old-name -> new-name");
  EXPECT_EQ(e.boundaries[0].points, 6);
  EXPECT_EQ(e.reference[0].continuity.size(), 1u);
}

TEST(HistoryMode, ContinuityMappingJoinsAReplacedMachine) {
  History h;
  for (double v : noisy_values(100, 0.002, 6)) h.add(ResultBuilder().env("cluster", "rack-a-07").duration(v));
  h.add(ResultBuilder().env("cluster", "rack-b-01").duration(100.1));
  EXPECT_EQ(only(compare(h, h.last_id())).outcome.reason, "no-reference");
  IdentityPolicy policy;
  policy.continuity.push_back({"environment.cluster", "rack-a-07", "rack-b-01", "decommissioned"});
  const Evaluation e = only(compare(h, h.last_id(), {}, policy));
  EXPECT_EQ(e.outcome.verdict, Verdict::kNoChangeDetected);
  EXPECT_EQ(e.boundaries.at(0).at, "environment.cluster: rack-a-07 -> rack-b-01");
}

TEST(HistoryMode, IgnoredFactsBecomeCaveatsNotSplits) {
  History h;
  for (double v : noisy_values(100, 0.002, 6)) h.add(ResultBuilder().env("kernel", "5.15").duration(v));
  h.add(ResultBuilder().env("kernel", "6.1").duration(100));
  const Evaluation e = only(compare(h, h.last_id()));
  EXPECT_EQ(e.reference.size(), 6u);  // same series
  ASSERT_EQ(e.caveats.size(), 1u);
  EXPECT_NE(e.caveats[0].find("environment.kernel differs: target 6.1, reference 5.15 (6 points)"), std::string::npos);
}

TEST(HistoryMode, IdentityCoordinatesSplitSeries) {
  History h;
  for (double v : noisy_values(100, 0.002, 6)) h.add(ResultBuilder().env("sparkVersion", "3.4.1").duration(v));
  h.add(ResultBuilder().env("sparkVersion", "3.5.0").duration(100));
  EXPECT_EQ(only(compare(h, h.last_id())).outcome.reason, "no-reference");
}

}  // namespace
}  // namespace sf::results

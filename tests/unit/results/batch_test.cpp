// Batch requests: every series of a target revision or run, each on its own; expected series
// without a target result are missing, never filled from an older run.
#include <gtest/gtest.h>

#include "results/trend_comparison.h"
#include "trend_fixture.h"

namespace sf::results {
namespace {

using testing::History;
using testing::noisy_values;
using testing::ResultBuilder;

TEST(Batch, EvaluatesEachSeriesAndReportsTheMissingOnes) {
  History h;
  const auto values = noisy_values(100, 0.002, 8);
  std::string parent;
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string tree = fmt::format("c{}", i + 1);
    for (const char* subject : {"etl-a", "etl-b", "etl-c"}) {
      h.add(ResultBuilder(subject)
                .tree(tree, parent.empty() ? std::vector<std::string>{} : std::vector<std::string>{parent})
                .duration(values[i]));
    }
    parent = tree;
  }
  // The target revision: etl-a regressed, etl-b unchanged, etl-c did not run.
  h.add(ResultBuilder("etl-a").tree("t", {parent}).duration(110));
  h.add(ResultBuilder("etl-b").tree("t", {parent}).duration(100));
  auto doc = compare_batch(h.results(), {}, {}, BatchRequest{"t", "", {}});
  ASSERT_TRUE(doc.has_value()) << doc.error().message();
  ASSERT_EQ(doc->evaluations.size(), 2u);
  EXPECT_EQ(doc->evaluations[0].series_label, "etl-a durationMs");
  EXPECT_EQ(doc->evaluations[0].outcome.verdict, Verdict::kRegressed);
  EXPECT_EQ(doc->evaluations[1].outcome.verdict, Verdict::kNoChangeDetected);
  ASSERT_EQ(doc->missing.size(), 1u);
  EXPECT_EQ(doc->missing[0].series_label, "etl-c durationMs");
  EXPECT_EQ(doc->batch_target, "revision t");
}

TEST(Batch, ExplicitExpectationsAndRunKeys) {
  History h;
  for (int i = 0; i < 6; ++i)
    h.add(ResultBuilder("bench").run(fmt::format("nightly-{}", i), 1, 1).duration(100 + (i % 2)));
  h.add(ResultBuilder("bench").run("nightly-6", 1, 1).duration(100));
  auto doc = compare_batch(h.results(), {}, {}, BatchRequest{"", "nightly-6", {"s-0000000000000000"}});
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(doc->evaluations.size(), 1u);
  EXPECT_EQ(doc->evaluations[0].ordering, "native");
  ASSERT_EQ(doc->missing.size(), 1u);
  EXPECT_EQ(doc->missing[0].series_fingerprint, "s-0000000000000000");
}

TEST(Batch, TwoTargetPointsInOneSeriesAreDuplicates) {
  History h;
  for (int i = 0; i < 6; ++i) h.add(ResultBuilder().tree(fmt::format("c{}", i)).duration(100));
  h.add(ResultBuilder().tree("t").duration(100));
  h.add(ResultBuilder().tree("t").duration(101));
  auto doc = compare_batch(h.results(), {}, {}, BatchRequest{"t", "", {}});
  ASSERT_TRUE(doc.has_value());
  ASSERT_EQ(doc->evaluations.size(), 1u);
  EXPECT_EQ(doc->evaluations[0].outcome.reason, "duplicate-points");
}

TEST(Batch, UnknownTargetIsAnError) {
  History h;
  h.add(ResultBuilder().tree("a").duration(1));
  EXPECT_FALSE(compare_batch(h.results(), {}, {}, BatchRequest{"zzz", "", {}}).has_value());
  EXPECT_FALSE(compare_batch(h.results(), {}, {}, BatchRequest{"a", "k", {}}).has_value());
}

}  // namespace
}  // namespace sf::results

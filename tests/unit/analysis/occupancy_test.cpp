// The occupancy sweep: how each stage's window is shared, gates and ceilings.
#include "analysis/models/occupancy.h"

#include <gtest/gtest.h>

#include "unit/analysis/model_fixture.h"

namespace sf::analysis {
namespace {

using testing::make_model;
using testing::make_stage;

TEST(Intervals, MergeAndUnion) {
  auto merged = merge_intervals({{10, 20}, {0, 5}, {15, 30}, {40, 40}, {50, 45}});
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_DOUBLE_EQ(merged[0].start_ms, 0);
  EXPECT_DOUBLE_EQ(merged[0].end_ms, 5);
  EXPECT_DOUBLE_EQ(merged[1].start_ms, 10);
  EXPECT_DOUBLE_EQ(merged[1].end_ms, 30);
  EXPECT_DOUBLE_EQ(union_ms({{0, 10}, {5, 15}, {20, 25}}), 20);
  EXPECT_DOUBLE_EQ(union_ms({}), 0);
}

TEST(Occupancy, AStageAloneOwnsItsWindow) {
  auto m = make_model({make_stage(0, 1000, 61000, 240000, 20000)});
  auto o = compute_occupancy(m);
  ASSERT_TRUE(o[0].in_sweep);
  EXPECT_DOUBLE_EQ(o[0].duration_ms, 60000);
  EXPECT_DOUBLE_EQ(o[0].gate, 1.0);
  EXPECT_DOUBLE_EQ(o[0].core_weight, 4.0);
  EXPECT_DOUBLE_EQ(o[0].ceiling_ms, 30000) << "run time over 8 cores beats the 20 s longest task";
}

TEST(Occupancy, OverlapIsSharedByCoreWeight) {
  // Same window; stage 0 keeps three times the cores busy that stage 1 does.
  auto m = make_model({make_stage(0, 0, 100000, 300000), make_stage(1, 0, 100000, 100000)});
  auto o = compute_occupancy(m);
  EXPECT_NEAR(o[0].gate, 0.75, 1e-12);
  EXPECT_NEAR(o[1].gate, 0.25, 1e-12);
}

TEST(Occupancy, PartialOverlap) {
  // Stage 1 overlaps the second half of stage 0 with equal weight.
  auto m = make_model({make_stage(0, 0, 100000, 100000), make_stage(1, 50000, 150000, 100000)});
  auto o = compute_occupancy(m);
  EXPECT_NEAR(o[0].occupancy_ms, 50000 + 25000, 1e-9);
  EXPECT_NEAR(o[0].gate, 0.75, 1e-12);
  EXPECT_NEAR(o[1].gate, 0.75, 1e-12);
}

TEST(Occupancy, ZeroWeightGetsNothingBesidePositiveWeight) {
  auto m = make_model({make_stage(0, 0, 100000, 0), make_stage(1, 0, 100000, 50000)});
  auto o = compute_occupancy(m);
  EXPECT_DOUBLE_EQ(o[0].gate, 0.0);
  EXPECT_DOUBLE_EQ(o[1].gate, 1.0);
}

TEST(Occupancy, AllZeroWeightSplitsEqually) {
  auto m = make_model({make_stage(0, 0, 100000, 0), make_stage(1, 0, 100000, 0)});
  auto o = compute_occupancy(m);
  EXPECT_DOUBLE_EQ(o[0].gate, 0.5);
  EXPECT_DOUBLE_EQ(o[1].gate, 0.5);
}

TEST(Occupancy, TouchingWindowsDoNotOverlap) {
  auto m = make_model({make_stage(0, 0, 100000, 100000), make_stage(1, 100000, 200000, 100000)});
  auto o = compute_occupancy(m);
  EXPECT_DOUBLE_EQ(o[0].gate, 1.0);
  EXPECT_DOUBLE_EQ(o[1].gate, 1.0);
}

TEST(Occupancy, StagesWithoutAWindowAreLeftOut) {
  auto skipped = make_stage(1, 0, 0, 0);
  skipped.submission_time_ms.reset();
  auto instant = make_stage(2, 5000, 5000, 0);  // submitted and completed at one instant
  auto m = make_model({make_stage(0, 0, 100000, 100000), skipped, instant});
  auto o = compute_occupancy(m);
  EXPECT_TRUE(o[0].in_sweep);
  EXPECT_FALSE(o[1].in_sweep);
  EXPECT_FALSE(o[2].in_sweep);
  EXPECT_DOUBLE_EQ(o[0].gate, 1.0);
}

TEST(Occupancy, GateStaysInRangeOverManyRandomStages) {
  std::vector<model::StageAttempt> stages;
  uint64_t state = 42;
  auto next = [&state](int64_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int64_t>((state >> 33) % static_cast<uint64_t>(bound));
  };
  for (int i = 0; i < 300; ++i) {
    const int64_t start = next(1000000);
    stages.push_back(make_stage(i, start, start + 1 + next(200000), next(3) == 0 ? 0 : next(2000000), next(50000)));
  }
  auto m = make_model(stages);
  auto o = compute_occupancy(m);
  double total_occupancy = 0;
  std::vector<Interval> windows;
  for (const auto& s : o) {
    ASSERT_TRUE(s.in_sweep);
    EXPECT_GE(s.gate, 0.0);
    EXPECT_LE(s.gate, 1.0);
    total_occupancy += s.occupancy_ms;
    windows.push_back(s.window);
  }
  // Every instant covered by some stage is handed out exactly once.
  EXPECT_NEAR(total_occupancy, union_ms(windows), 1e-6 * union_ms(windows));
}

}  // namespace
}  // namespace sf::analysis

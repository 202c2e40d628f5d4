// The rollup: tiers, union caps within a type, resource groups per unit, ordering.
#include "analysis/rollup.h"

#include <gtest/gtest.h>

#include "unit/analysis/model_fixture.h"

namespace sf::analysis {
namespace {

using testing::make_model;
using testing::make_stage;

Finding time_finding(std::string id, std::string type, int64_t stage, double low, double high, ImpactBand band) {
  Finding f;
  f.id = std::move(id);
  f.type = std::move(type);
  f.stages = {{stage, 0}};
  f.band = band;
  f.impact.basis = Basis::kContended;
  f.impact.wall_clock = WallClockRange{low, high};
  return f;
}

Finding resource_finding(std::string id, std::string type, double value, WasteUnit unit) {
  Finding f;
  f.id = std::move(id);
  f.type = std::move(type);
  f.band = ImpactBand::kLow;
  f.impact.basis = Basis::kResourceOnly;
  f.impact.raw_waste = RawWaste{value, unit};
  return f;
}

TEST(Rollup, TiersUnionCapsAndOrder) {
  // Stages 0 and 1 each a minute, back to back.
  auto model = make_model({make_stage(0, 0, 60000, 60000, 1000), make_stage(1, 60000, 120000, 60000, 1000)});
  auto occupancy = compute_occupancy(model);
  Thresholds thresholds;
  ImpactEstimator estimator(model, occupancy, thresholds);

  std::vector<Finding> findings = {
      // Two skew findings on stage 0 claim 50 s each: together they cannot exceed its minute.
      time_finding("skew/a/stage-0.0", "skew", 0, 40000, 50000, ImpactBand::kHigh),
      time_finding("skew/b/stage-0.0", "skew", 0, 30000, 50000, ImpactBand::kHigh),
      time_finding("gc//stage-1.0", "gc", 1, 5000, 5000, ImpactBand::kLow),
      resource_finding("utilization//app", "utilization", 2.5, WasteUnit::kCoreHours),
      resource_finding("stageShape/dataExplosion/stage-1.0", "stageShape", 1e9, WasteUnit::kBytes),
      resource_finding("stageShape/lowParallelism/stage-0.0", "stageShape", 5e5, WasteUnit::kCoreMs),
  };
  Finding info;
  info.id = "incompleteRun/noApplicationEnd/app";
  info.type = "incompleteRun";
  info.band = ImpactBand::kMedium;
  findings.push_back(info);

  Rollup rollup = build_rollup(findings, estimator);
  ASSERT_EQ(rollup.groups.size(), 6u);
  const RollupGroup& skew = rollup.groups[0];
  EXPECT_EQ(skew.type, "skew");
  EXPECT_EQ(skew.tier, RollupTier::kTime);
  EXPECT_DOUBLE_EQ(skew.naive_high_ms, 100000);
  EXPECT_DOUBLE_EQ(skew.recoverable_high_ms, 60000) << "capped at the union of stage 0's window";
  EXPECT_DOUBLE_EQ(skew.recoverable_low_ms, 60000);
  EXPECT_EQ(skew.finding_ids.size(), 2u);
  EXPECT_EQ(skew.best_finding_id, "skew/a/stage-0.0");
  EXPECT_EQ(rollup.groups[1].type, "gc");
  // Resource groups: one per (type, unit), never summed across units.
  int stage_shape_groups = 0;
  for (const auto& g : rollup.groups) {
    if (g.type == "stageShape") {
      ++stage_shape_groups;
      EXPECT_EQ(g.tier, RollupTier::kResource);
      ASSERT_TRUE(g.unit);
    }
  }
  EXPECT_EQ(stage_shape_groups, 2);
  EXPECT_EQ(rollup.groups.back().tier, RollupTier::kCount);
  EXPECT_EQ(rollup.groups.back().band_counts.at(ImpactBand::kMedium), 1);
}

}  // namespace
}  // namespace sf::analysis

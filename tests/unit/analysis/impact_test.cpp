// The impact estimator: clipping against the ceiling, gating, union caps, bases and bands.
#include "analysis/models/impact.h"

#include <gtest/gtest.h>

#include "unit/analysis/model_fixture.h"

namespace sf::analysis {
namespace {

using testing::make_model;
using testing::make_stage;

WasteClaim stage_claim(std::vector<std::pair<int64_t, double>> parts, double raw) {
  WasteClaim claim;
  claim.kind = WasteClaim::Kind::kStages;
  claim.method = EstimateMethod::kMeasured;
  for (const auto& [id, waste] : parts) claim.stages.push_back({{id, 0}, waste});
  claim.raw = RawWaste{raw, WasteUnit::kMs};
  return claim;
}

struct Fixture {
  explicit Fixture(std::vector<model::StageAttempt> stages, int64_t app_end = 600000)
      : model(make_model(std::move(stages), 8, 0, app_end)),
        occupancy(compute_occupancy(model)),
        estimator(model, occupancy, thresholds) {}
  model::AppModel model;
  Thresholds thresholds;
  std::vector<StageOccupancy> occupancy;
  ImpactEstimator estimator;
};

TEST(Impact, SerialStageClaimStandsWhenUnderTheRoom) {
  // 60 s stage, longest task 20 s, 80 s of run time over 8 cores = 10 s: ceiling 20 s, room 40 s.
  Fixture f({make_stage(0, 0, 60000, 80000, 20000)});
  auto e = f.estimator.estimate(stage_claim({{0, 10000}}, 10000));
  EXPECT_EQ(e.basis, Basis::kSerial);
  ASSERT_TRUE(e.wall_clock);
  EXPECT_DOUBLE_EQ(e.wall_clock->low_ms, 10000);
  EXPECT_DOUBLE_EQ(e.wall_clock->high_ms, 10000);
  ASSERT_TRUE(e.raw_waste);
  EXPECT_DOUBLE_EQ(e.raw_waste->value, 10000);
}

TEST(Impact, ClaimIsClippedToDurationMinusCeiling) {
  Fixture f({make_stage(0, 0, 60000, 80000, 20000)});
  auto e = f.estimator.estimate(stage_claim({{0, 100000}}, 100000));
  ASSERT_TRUE(e.wall_clock);
  EXPECT_DOUBLE_EQ(e.wall_clock->high_ms, 40000);
  EXPECT_DOUBLE_EQ(e.raw_waste->value, 100000) << "the raw figure keeps the pre-clip claim";
}

TEST(Impact, ContendedStageGetsARange) {
  // Two stages over the same minute, equal weights: each gate 0.5.
  Fixture f({make_stage(0, 0, 60000, 60000, 1000), make_stage(1, 0, 60000, 60000, 1000)});
  auto e = f.estimator.estimate(stage_claim({{0, 20000}}, 20000));
  EXPECT_EQ(e.basis, Basis::kContended);
  EXPECT_DOUBLE_EQ(e.wall_clock->high_ms, 20000);
  EXPECT_DOUBLE_EQ(e.wall_clock->low_ms, 10000);
}

TEST(Impact, MultiStageClaimIsCappedAtTheUnionOfWindows) {
  Fixture f({make_stage(0, 0, 60000, 60000, 1000), make_stage(1, 0, 60000, 60000, 1000)});
  auto e = f.estimator.estimate(stage_claim({{0, 50000}, {1, 50000}}, 100000));
  EXPECT_EQ(e.basis, Basis::kContended);
  EXPECT_DOUBLE_EQ(e.wall_clock->high_ms, 60000) << "100 s claimed over a 60 s union";
  EXPECT_DOUBLE_EQ(e.wall_clock->low_ms, 50000);
}

TEST(Impact, MultiStageIsSerialOnlyWhenEveryPartIs) {
  Fixture f({make_stage(0, 0, 60000, 60000, 1000), make_stage(1, 100000, 160000, 60000, 1000)});
  auto e = f.estimator.estimate(stage_claim({{0, 5000}, {1, 5000}}, 10000));
  EXPECT_EQ(e.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(e.wall_clock->high_ms, 10000);
  EXPECT_DOUBLE_EQ(e.wall_clock->low_ms, 10000);
}

TEST(Impact, StageOutsideTheSweepIsResourceOnly) {
  auto no_window = make_stage(0, 0, 0, 1000);
  no_window.completion_time_ms.reset();
  Fixture f({no_window});
  auto e = f.estimator.estimate(stage_claim({{0, 5000}}, 5000));
  EXPECT_EQ(e.basis, Basis::kResourceOnly);
  EXPECT_FALSE(e.wall_clock);
  ASSERT_TRUE(e.raw_waste);
  EXPECT_DOUBLE_EQ(e.raw_waste->value, 5000);
}

TEST(Impact, SerialAppGapIsReportedAsMeasured) {
  Fixture f({make_stage(0, 100000, 160000, 60000)});
  WasteClaim claim;
  claim.kind = WasteClaim::Kind::kSerial;
  claim.method = EstimateMethod::kMeasured;
  claim.serial_ms = 100000;
  auto e = f.estimator.estimate(claim);
  EXPECT_EQ(e.basis, Basis::kSerial);
  EXPECT_DOUBLE_EQ(e.wall_clock->high_ms, 100000);
  EXPECT_FALSE(e.raw_waste) << "coldStart carries no raw figure: its wall-clock is already unclipped";
}

TEST(Impact, InformationalAndResourceOnly) {
  Fixture f({make_stage(0, 0, 60000, 60000)});
  WasteClaim info;
  info.kind = WasteClaim::Kind::kInformational;
  info.raw = RawWaste{1, WasteUnit::kMs};
  auto e = f.estimator.estimate(info);
  EXPECT_EQ(e.basis, Basis::kInformational);
  EXPECT_EQ(e.method, EstimateMethod::kNone);
  EXPECT_FALSE(e.raw_waste);
  WasteClaim cost;
  cost.kind = WasteClaim::Kind::kResourceOnly;
  cost.method = EstimateMethod::kModeled;
  cost.raw = RawWaste{3.5, WasteUnit::kCoreHours};
  auto c = f.estimator.estimate(cost);
  EXPECT_EQ(c.basis, Basis::kResourceOnly);
  EXPECT_FALSE(c.wall_clock);
  EXPECT_EQ(c.raw_waste->unit, WasteUnit::kCoreHours);
}

TEST(Impact, BandsFollowTheRecoverableShareOfTheApp) {
  Fixture f({make_stage(0, 0, 600000, 600000, 1000)}, 600000);  // a 10-minute app
  auto band_for = [&](double high_ms) {
    Finding finding;
    finding.impact.basis = Basis::kSerial;
    finding.impact.wall_clock = WallClockRange{high_ms, high_ms};
    return f.estimator.band(finding);
  };
  EXPECT_EQ(band_for(150000), ImpactBand::kCritical);  // 25%
  EXPECT_EQ(band_for(60000), ImpactBand::kHigh);       // 10%
  EXPECT_EQ(band_for(18000), ImpactBand::kMedium);     // 3%
  EXPECT_EQ(band_for(1000), ImpactBand::kLow);
  Finding info;
  info.impact.basis = Basis::kInformational;
  info.band = ImpactBand::kHigh;
  EXPECT_EQ(f.estimator.band(info), ImpactBand::kHigh) << "informational findings keep their detector's band";
}

TEST(Impact, RegressionGuard) {
  Fixture f({make_stage(0, 0, 60000, 80000, 20000)});
  Finding finding;
  finding.id = "x";
  finding.claim = stage_claim({{0, 10000}}, 10000);
  finding.impact = f.estimator.estimate(finding.claim);
  EXPECT_EQ(f.estimator.regression_guard_violation(finding), "");
  finding.impact.wall_clock = WallClockRange{0, 0};  // what a broken estimator would say
  EXPECT_NE(f.estimator.regression_guard_violation(finding), "");
}

}  // namespace
}  // namespace sf::analysis

// The impact model's invariants, checked on every finding of many generated applications
// (different seeds, shapes and feature mixes), not just on hand-picked cases:
//   - gate in [0, 1] for every stage;
//   - a single-stage wall-clock never exceeds its stage's duration minus its ceiling (the whole
//     duration for a whole-window claim), and low <= high;
//   - serial means low == high;
//   - a multi-stage total never exceeds the union of its stages' windows;
//   - the regression guard holds (no finding on stages that ran alone loses a real waste);
//   - a rollup time group never exceeds the union of its findings' stage windows.
#include <gtest/gtest.h>

#include <set>

#include "analysis/analyzer.h"
#include "analysis/models/impact.h"
#include "unit/analysis/generated_apps.h"

namespace sf::analysis {
namespace {

TEST(ImpactProperties, InvariantsHoldOnGeneratedApplications) {
  size_t findings_checked = 0;
  size_t multi_stage = 0;
  for (const auto& config : testing::varied_generated_configs()) {
    SCOPED_TRACE("seed " + std::to_string(config.seed));
    const model::AppModel model = testing::generated_model(config);
    const Analysis analysis = analyze(model);
    const auto occupancy = compute_occupancy(model);
    const ImpactEstimator estimator(model, occupancy, analysis.thresholds);
    EXPECT_TRUE(analysis.guard_violations.empty()) << analysis.guard_violations.front();

    for (const auto& o : occupancy) {
      EXPECT_GE(o.gate, 0.0);
      EXPECT_LE(o.gate, 1.0);
    }
    for (const Finding& f : analysis.findings) {
      ++findings_checked;
      SCOPED_TRACE(f.id);
      if (!f.impact.wall_clock) continue;
      const auto& w = *f.impact.wall_clock;
      EXPECT_GE(w.low_ms, 0.0);
      EXPECT_LE(w.low_ms, w.high_ms + 1e-9);
      if (f.impact.basis == Basis::kSerial) {
        EXPECT_NEAR(w.low_ms, w.high_ms, 1e-9);
      }
      if (f.claim.kind != WasteClaim::Kind::kStages) continue;
      if (f.claim.stages.size() == 1) {
        const auto& part = f.claim.stages.front();
        const model::StageAttempt* stage = model.stage(part.stage.stage_id, part.stage.attempt_id);
        ASSERT_NE(stage, nullptr);
        const auto& o = occupancy[static_cast<size_t>(stage - model.stages.data())];
        // A fix that lowers the stage's floor has its own (floor_after_fix_ms): never below zero,
        // never a claim past the stage's own window.
        const double floor = part.floor_after_fix_ms.value_or(o.ceiling_ms);
        EXPECT_GE(floor, 0.0);
        const double room = part.whole_window ? o.duration_ms : std::max(0.0, o.duration_ms - floor);
        EXPECT_LE(w.high_ms, room + 1e-6);
        EXPECT_LE(w.high_ms, o.duration_ms + 1e-6);
      } else {
        ++multi_stage;
        std::vector<StageRef> refs;
        for (const auto& part : f.claim.stages) refs.push_back(part.stage);
        EXPECT_LE(w.high_ms, estimator.stage_union_ms(refs) + 1e-6);
      }
    }
    for (const RollupGroup& g : analysis.rollup.groups) {
      if (g.tier != RollupTier::kTime) continue;
      std::vector<StageRef> refs;
      bool staged = true;
      for (const auto& id : g.finding_ids) {
        const Finding* f = analysis.finding(id);
        ASSERT_NE(f, nullptr);
        staged = staged && !f->stages.empty();
        refs.insert(refs.end(), f->stages.begin(), f->stages.end());
      }
      if (staged) {
        EXPECT_LE(g.recoverable_high_ms, estimator.stage_union_ms(refs) + 1e-6) << g.type;
      }
      EXPECT_LE(g.recoverable_high_ms, g.naive_high_ms + 1e-6) << g.type;
    }
  }
  EXPECT_GT(findings_checked, 0u) << "the generated applications must give the invariants something to check";
  std::printf("[impact properties] %zu findings checked, %zu multi-stage\n", findings_checked, multi_stage);
}

TEST(ImpactProperties, AnalysisIsDeterministic) {
  const model::AppModel model = testing::generated_model(loggen::GeneratorConfig::demo());
  const Analysis a = analyze(model);
  const Analysis b = analyze(model);
  ASSERT_EQ(a.findings.size(), b.findings.size());
  for (size_t i = 0; i < a.findings.size(); ++i) {
    EXPECT_EQ(a.findings[i].id, b.findings[i].id);
    EXPECT_EQ(a.findings[i].explanation, b.findings[i].explanation);
  }
  std::set<std::string> ids;
  for (const auto& f : a.findings) EXPECT_TRUE(ids.insert(f.id).second) << "duplicate finding id " << f.id;
}

}  // namespace
}  // namespace sf::analysis

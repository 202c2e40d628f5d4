// Impact estimation: a detector's WasteClaim -> an ImpactEstimate, and the impact band.
//
// Stage-tied claims are clipped against each stage's physical floor (ceiling) and weighted
// by how much of its window the stage had to itself (gate):
//   clipped = min(claim, max(0, duration - floor)), floor = the ceiling, or the stage's duration
//             after the fix when the fix reshapes its tasks (stage_reshape.h)
//   gate >= serial gate: serial,    low = high = clipped
//   otherwise:           contended, high = clipped, low = clipped * gate
// A claim over several stages sums them and caps the total at the union of those stages'
// windows; it is serial only when every part is. A stage outside the occupancy sweep (no
// window) cannot carry a wall-clock claim: the finding becomes resourceOnly with its raw
// waste. docs/impact-model.md gives the reasoning and the worked examples.
#pragma once

#include <vector>

#include "analysis/findings/finding.h"
#include "analysis/models/occupancy.h"
#include "analysis/settings/thresholds.h"
#include "model/app_model.h"

namespace sf::analysis {

class ImpactEstimator {
 public:
  ImpactEstimator(const model::AppModel& model, const std::vector<StageOccupancy>& occupancy,
                  const Thresholds& thresholds);

  ImpactEstimate estimate(const WasteClaim& claim) const;

  // The band from the recoverable share of the application's wall-clock (time findings), or
  // from the cost's share of what the application had (resource findings). Informational
  // findings keep the band their detector set.
  ImpactBand band(const Finding& finding) const;

  // A recoverable time worth leading "Fix these first" with: at least significance.minMs and
  // rollup.fixFirstMinShare of the application. Anything less is listed, never offered first.
  bool worth_fixing_first(double recoverable_high_ms) const;

  // The wall-clock union of the given stages' windows (stages without one are skipped).
  double stage_union_ms(const std::vector<StageRef>& stages) const;

  // The regression guard: a finding whose stages all ran (nearly) alone with a real waste must
  // show a wall-clock figure above zero. Returns why it fails, or "" when it holds.
  std::string regression_guard_violation(const Finding& finding) const;

  // A cost-only finding too small to matter in absolute terms (significance.minCoreHours,
  // significance.minGiBHours): not reported.
  bool below_significance(const Finding& finding) const;

 private:
  const StageOccupancy* occupancy_of(const StageRef& stage) const;
  // What a stage claim may recover: its window for a whole failed attempt, else its duration
  // above the floor (after the fix when the claim says, else the stage's ceiling).
  static double room_ms(const WasteClaim::StageWaste& part, const StageOccupancy& o);
  double share_band_input(const Finding& finding) const;

  const model::AppModel& model_;
  const std::vector<StageOccupancy>& occupancy_;
  const Thresholds& thresholds_;
  double app_duration_ms_ = 0;
  double held_core_ms_ = 0;  // the executors' core time over the run (capacity.h)
};

}  // namespace sf::analysis

// The "fix these first" rollup: findings grouped by type, in up to three tiers.
//
//   time      findings with a wall-clock estimate; the group's recoverable range is the smaller
//             of the members' sum and the union of every stage window they touch, so two
//             findings on one stage are never counted twice
//   resource  findings with only a raw cost, one group per unit (bytes are never added to
//             core-hours); a "resource-cost projection", never "recoverable" time
//   count     findings with neither: a tally per impact band
// Groups are ordered: time by recoverable wall-clock (high end), then resource, then count.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/findings/finding.h"
#include "analysis/models/impact.h"

namespace sf::analysis {

enum class RollupTier { kTime, kResource, kCount };
std::string_view to_string(RollupTier tier);  // time, resource, count

struct RollupGroup {
  std::string type;
  RollupTier tier = RollupTier::kCount;
  std::optional<WasteUnit> unit;  // resource tier
  double recoverable_low_ms = 0;  // time tier, union-capped
  double recoverable_high_ms = 0;
  double naive_high_ms = 0;               // time tier: the plain sum, before the union cap
  double resource_total = 0;              // resource tier, in `unit`
  std::map<ImpactBand, int> band_counts;  // every tier
  ImpactBand best_band = ImpactBand::kInfo;
  std::vector<std::string> finding_ids;  // members, best first
  std::string best_finding_id;
  // A time group worth leading "Fix these first" with (ImpactEstimator::worth_fixing_first);
  // every front end shows only these as things to fix first.
  bool fix_first = false;
};

struct Rollup {
  std::vector<RollupGroup> groups;
};

// `findings` must already carry their impact and band.
Rollup build_rollup(const std::vector<Finding>& findings, const ImpactEstimator& estimator);

// The group "Fix these first" leads with: the first time group (the rollup is ordered) worth
// fixing first; nullptr when none is ("Nothing with a wall-clock cost stands out"). The
// dashboard's application list and the result document's analysis quantities both take it.
const RollupGroup* leading_fix_first_group(const Rollup& rollup);

}  // namespace sf::analysis

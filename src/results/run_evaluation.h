// Run mode: comparing the sides a comparison profile defines within one run.
//
// A profile (revisions, variants, environments) names the coordinate that varies; each value is
// one side, the baseline plays the reference. Results agreeing on every other identity
// coordinate form a comparison unit, evaluated independently, its attempts paired by
// procedure.round. The profile's invariants are checked first (two sides; per unit both sides
// present, equal attempt counts, interleaved by procedure.slot; revisions: one tree per side;
// revisions and variants: one benchmark tree); a unit failing one gets no verdict, only the
// recorded failure. Then the status rule: strict under variants (any partial, censored or error
// attempt makes the unit indeterminate, side-failed), otherwise the failed attempt's pair is
// dropped; skipped attempts are dropped under every profile.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "results/comparison_method.h"
#include "results/identity_policy.h"
#include "results/verdict_document.h"

namespace sf::results {

struct RunRequest {
  std::string run_key;
  std::string profile;     // "revisions", "variants", "environments"
  std::string coordinate;  // "" for the profile's default (revision.tree, parameters.role)
  std::string baseline;    // the baseline side's value of the coordinate
};

// `results` may hold the whole store; only those of run_key are read. Errors: an unknown
// profile, a missing coordinate, a run with no results, a baseline that is not a side.
Result<VerdictDocument> evaluate_run(const RunRequest& request, const std::vector<StoredResult>& results,
                                     const IdentityPolicy& policy, const MethodConfig& method);

}  // namespace sf::results

// The paired-ratio method, v1 (run mode).
//
// Each round gives a ratio target / baseline; the method averages their logarithms, so the
// effect is the geometric-mean ratio, with a 95% Student-t confidence interval over the rounds.
// A change is indicated only when the interval excludes 1 and |ratio - 1| >= minEffect. Ratios
// need positive values: a pair with a zero or negative side makes the evaluation indeterminate
// with reason non-positive-values. Deterministic quantities are compared exactly.
#pragma once

#include <vector>

#include "results/comparison_method.h"

namespace sf::results {

MethodOutcome paired_ratio(const std::vector<Pair>& pairs, bool deterministic, Direction direction,
                           const MethodConfig& config);

}  // namespace sf::results

// The dispersion-scaled method, v1: a change is indicated when |effect| > k x noise.
//
// History mode: the reference estimate is the mean of the reference points; noise is their
// sample standard deviation; both are relative to |reference| when it is nonzero, absolute
// otherwise. Run mode: the effect is the mean of the paired differences (relative to each
// pair's baseline when every baseline is nonzero) and noise is their standard deviation across
// rounds. Deterministic quantities are compared exactly against the nearest reference point
// (history) or pair by pair (run).
#pragma once

#include <vector>

#include "results/comparison_method.h"

namespace sf::results {

// `reference` holds the eligible reference values, nearest first.
MethodOutcome dispersion_scaled_history(double target, const std::vector<double>& reference, bool deterministic,
                                        Direction direction, const MethodConfig& config);

MethodOutcome dispersion_scaled_paired(const std::vector<Pair>& pairs, bool deterministic, Direction direction,
                                       const MethodConfig& config);

// Exact comparison of a deterministic quantity, shared by every method.
MethodOutcome exact_comparison(double target, double reference, int64_t evidence_count, Direction direction);

}  // namespace sf::results

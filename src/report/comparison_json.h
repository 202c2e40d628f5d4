// The comparison document as JSON (comparisonSchemaVersion 1): both runs, the confidence and
// its banner, the metric deltas, the findings delta, the execution alignment, the stage pairs
// with their method and score, the unmatched, replanned and Delta bookkeeping stages, per-pair
// stage and skew deltas, and the budgets when any were given. docs/comparison-schema.md
// documents every field. Same comparison, same bytes.
#pragma once

#include <string>

#include "compare/run_comparison.h"

namespace sf::report {

std::string comparison_json(const compare::Comparison& comparison, int indent = 2);

}  // namespace sf::report

// The comparison as text for a terminal: the confidence banner first (the metric deltas below
// it hold whatever it says), then the metric deltas, the findings introduced and resolved, the
// largest per-stage changes with their pairing method, and the budgets.
#pragma once

#include <cstddef>
#include <string>

#include "compare/run_comparison.h"

namespace sf::report {

struct ComparisonTextOptions {
  size_t top_stages = 10;  // per-stage changes listed
};

std::string comparison_text(const compare::Comparison& comparison, const ComparisonTextOptions& options = {});

}  // namespace sf::report

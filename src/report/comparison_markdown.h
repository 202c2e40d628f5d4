// The comparison as Markdown for a pull-request comment: a headline with the confidence (and
// its banner as a quote), the budgets, the metric deltas as a table, findings introduced and
// resolved, and the largest per-stage changes folded under a <details> block.
#pragma once

#include <cstddef>
#include <string>

#include "compare/run_comparison.h"

namespace sf::report {

std::string comparison_markdown(const compare::Comparison& comparison, size_t top_stages = 10);

}  // namespace sf::report

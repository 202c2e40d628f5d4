// The reviewer summary of a verdict document, as text or Markdown: these regressed, these
// improved, these show no detected change, these were indeterminate, these were missing; then
// failed invariants and caveats. Each line carries the effect and noise that decided it. Table
// cells are escaped (a stage key holds '|').
#pragma once

#include <string>
#include <vector>

#include "results/verdict_document.h"

namespace sf::report {

struct VerdictSummaryOptions {
  std::string store;  // the store the results came from, named in the header; "" says nothing
};

// Coordinates every evaluation shares are said once in the header, not on every line; the
// evaluations of a target that cannot be used (its status) are one line per target and reason
// under Indeterminate, not one per series.
std::string verdict_text(const results::VerdictDocument& document, const VerdictSummaryOptions& options = {});
std::string verdict_markdown(const results::VerdictDocument& document, const VerdictSummaryOptions& options = {});

// One line per target the comparison could not use, and why: "target c6 (r-42bee3820d):
// target status is partial (42 series)". Empty when every target was usable.
std::vector<std::string> unusable_targets(const results::VerdictDocument& document);

// Counts by verdict, for exit codes and one-line summaries.
int64_t count_verdict(const results::VerdictDocument& document, results::Verdict verdict);

}  // namespace sf::report

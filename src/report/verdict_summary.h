// The reviewer summary of a comparison document, as text or Markdown: these regressed, these
// improved, these show no detected change, these were indeterminate, these were missing; then
// failed invariants and caveats. Each line carries the effect and noise that decided it.
#pragma once

#include <string>

#include "history/comparison_document.h"

namespace sf::report {

std::string verdict_text(const history::ComparisonDocument& document);
std::string verdict_markdown(const history::ComparisonDocument& document);

// Counts by verdict, for exit codes and one-line summaries.
int64_t count_verdict(const history::ComparisonDocument& document, history::Verdict verdict);

}  // namespace sf::report

// What the analyses of the two runs found, tallied by (rule, impact band): categories the
// candidate has more of are introduced, fewer of resolved. A count diff; it pairs no finding
// with another, so it holds whatever the stage pairing says.
#pragma once

#include <string>
#include <vector>

#include "analysis/findings/finding.h"

namespace sf::compare {

struct FindingCategory {
  std::string rule;  // "type" or "type/rule", e.g. "skew/max"
  analysis::ImpactBand band = analysis::ImpactBand::kInfo;
  int baseline = 0;
  int candidate = 0;
};

struct FindingsDelta {
  std::vector<FindingCategory> categories;  // every category either run has, by rule then band
  std::vector<FindingCategory> introduced;  // candidate > baseline
  std::vector<FindingCategory> resolved;    // baseline > candidate
};

FindingsDelta findings_delta(const std::vector<analysis::Finding>& baseline,
                             const std::vector<analysis::Finding>& candidate);

}  // namespace sf::compare

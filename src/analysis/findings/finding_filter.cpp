#include "analysis/findings/finding_filter.h"

#include <optional>

namespace sf::analysis {

bool FindingFilter::passes(const Finding& finding) const {
  if (!bands.empty() && bands.count(finding.band) == 0) return false;
  if (!types.empty() && types.count(finding.type) == 0) return false;
  if (stage_ids.empty()) return true;
  for (const StageRef& stage : finding.stages) {
    if (stage_ids.count(stage.stage_id) != 0) return true;
  }
  return false;
}

std::optional<ImpactBand> parse_impact_band(std::string_view text) {
  for (ImpactBand band :
       {ImpactBand::kCritical, ImpactBand::kHigh, ImpactBand::kMedium, ImpactBand::kLow, ImpactBand::kInfo}) {
    if (to_string(band) == text) return band;
  }
  return std::nullopt;
}

std::vector<size_t> filter_findings(const std::vector<Finding>& findings, const FindingFilter& filter) {
  std::vector<size_t> passing;
  for (size_t i = 0; i < findings.size(); ++i) {
    if (filter.passes(findings[i])) passing.push_back(i);
  }
  return passing;
}

}  // namespace sf::analysis

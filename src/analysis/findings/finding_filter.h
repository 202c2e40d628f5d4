// Which findings a reader asked to see: by impact band, by finding type, by stage. An empty set
// does not filter; a finding must pass every non-empty one. The dashboard's board filter and the
// MCP get_findings tool read findings through this one definition.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/findings/finding.h"

namespace sf::analysis {

struct FindingFilter {
  std::set<ImpactBand> bands;
  std::set<std::string> types;
  std::set<int64_t> stage_ids;  // a finding about any of these stages passes

  bool passes(const Finding& finding) const;
};

// "critical", "high", "medium", "low", "info"; nullopt for anything else.
std::optional<ImpactBand> parse_impact_band(std::string_view text);

// Indexes into `findings` of those that pass, in their order.
std::vector<size_t> filter_findings(const std::vector<Finding>& findings, const FindingFilter& filter);

}  // namespace sf::analysis

#include "analysis/findings/finding.h"

#include <algorithm>

namespace sf::analysis {

std::string_view to_string(Scope scope) {
  switch (scope) {
    case Scope::kApp: return "app";
    case Scope::kStage: return "stage";
    case Scope::kSql: return "sql";
    case Scope::kConfig: return "config";
  }
  return "app";
}

std::string_view to_string(Confidence confidence) {
  switch (confidence) {
    case Confidence::kLow: return "low";
    case Confidence::kMedium: return "medium";
    case Confidence::kHigh: return "high";
  }
  return "low";
}

std::string_view to_string(ImpactBand band) {
  switch (band) {
    case ImpactBand::kCritical: return "critical";
    case ImpactBand::kHigh: return "high";
    case ImpactBand::kMedium: return "medium";
    case ImpactBand::kLow: return "low";
    case ImpactBand::kInfo: return "info";
  }
  return "info";
}

std::string_view to_string(Basis basis) {
  switch (basis) {
    case Basis::kSerial: return "serial";
    case Basis::kContended: return "contended";
    case Basis::kResourceOnly: return "resourceOnly";
    case Basis::kInformational: return "informational";
  }
  return "informational";
}

std::string_view to_string(EstimateMethod method) {
  switch (method) {
    case EstimateMethod::kMeasured: return "measured";
    case EstimateMethod::kModeled: return "modeled";
    case EstimateMethod::kNone: return "none";
  }
  return "none";
}

std::string_view to_string(WasteUnit unit) {
  switch (unit) {
    case WasteUnit::kMs: return "ms";
    case WasteUnit::kCoreMs: return "coreMs";
    case WasteUnit::kBytes: return "bytes";
    case WasteUnit::kCoreHours: return "coreHours";
    case WasteUnit::kMbSeconds: return "mbSeconds";
  }
  return "ms";
}

std::string Finding::type_and_rule() const { return rule.empty() ? type : type + "/" + rule; }

std::vector<int64_t> Finding::stage_ids() const {
  std::vector<int64_t> ids;
  for (const auto& s : stages) ids.push_back(s.stage_id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace sf::analysis

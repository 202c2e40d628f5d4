#include "report/findings_json.h"

#include <algorithm>

namespace sf::report {

namespace {

using json = nlohmann::ordered_json;
using namespace sf::analysis;

json impact_json(const ImpactEstimate& impact) {
  json out;
  out["basis"] = to_string(impact.basis);
  out["wallClock"] = impact.wall_clock ? json{{"lowMs", impact.wall_clock->low_ms}, {"highMs", impact.wall_clock->high_ms}}
                                       : json(nullptr);
  out["estimateMethod"] = to_string(impact.method);
  out["rawWaste"] = impact.raw_waste ? json{{"value", impact.raw_waste->value}, {"unit", to_string(impact.raw_waste->unit)}}
                                     : json(nullptr);
  return out;
}

double threshold_value(const Thresholds& thresholds, std::string_view name) {
  const ThresholdInfo* info = find_threshold(name);
  return info != nullptr ? thresholds.*(info->field) : 0.0;
}

json finding_json(const Finding& f, const Thresholds& thresholds) {
  json out;
  out["id"] = f.id;
  out["type"] = f.type;
  out["rule"] = f.rule;
  out["scope"] = to_string(f.scope);
  out["stageIds"] = f.stage_ids();
  json attempts = json::array();
  for (const auto& s : f.stages) attempts.push_back({{"stageId", s.stage_id}, {"attemptId", s.attempt_id}});
  out["stageAttempts"] = std::move(attempts);
  out["sqlExecutionId"] = f.sql_execution_id ? json(*f.sql_execution_id) : json(nullptr);
  out["title"] = f.title;
  out["explanation"] = f.explanation;
  out["recommendation"] = f.recommendation;
  json settings = json::array();
  for (const auto& s : f.settings) {
    settings.push_back({{"key", s.key},
                        {"suggestedValue", s.suggested_value},
                        {"currentValue", s.current_value},
                        {"effectiveValue", s.effective_value}});
  }
  out["settings"] = std::move(settings);
  json evidence = json::array();
  for (const auto& e : f.evidence) evidence.push_back({{"name", e.name}, {"value", e.value}, {"unit", e.unit}});
  out["evidence"] = std::move(evidence);
  json used = json::array();
  for (const auto& name : f.thresholds) used.push_back({{"name", name}, {"value", threshold_value(thresholds, name)}});
  out["thresholds"] = std::move(used);
  out["confidence"] = to_string(f.confidence);
  out["impactBand"] = to_string(f.band);
  out["validationRequired"] = f.validation_caveat.empty() ? json(nullptr) : json(f.validation_caveat);
  out["impactEstimate"] = impact_json(f.impact);
  return out;
}

}  // namespace

json findings_json(const Analysis& analysis) {
  json out = json::array();
  for (const Finding& f : analysis.findings) out.push_back(finding_json(f, analysis.thresholds));
  return out;
}

json rollup_json(const Analysis& analysis) {
  json groups = json::array();
  for (const RollupGroup& g : analysis.rollup.groups) {
    json out;
    out["type"] = g.type;
    out["tier"] = to_string(g.tier);
    switch (g.tier) {
      case RollupTier::kTime:
        out["label"] = "recoverable wall-clock";
        out["recoverableMs"] = {{"low", g.recoverable_low_ms}, {"high", g.recoverable_high_ms}};
        out["naiveSumHighMs"] = g.naive_high_ms;
        out["fixFirst"] = g.fix_first;
        break;
      case RollupTier::kResource:
        out["label"] = "resource-cost projection";
        out["unit"] = to_string(*g.unit);
        out["total"] = g.resource_total;
        break;
      case RollupTier::kCount:
        out["label"] = "count";
        break;
    }
    json bands = json::object();
    for (const auto& [band, count] : g.band_counts) bands[std::string(to_string(band))] = count;
    out["bandCounts"] = std::move(bands);
    out["bestImpactBand"] = to_string(g.best_band);
    out["bestFindingId"] = g.best_finding_id;
    out["findingIds"] = g.finding_ids;
    groups.push_back(std::move(out));
  }
  return groups;
}

json analysis_config_json(const Analysis& analysis) {
  const Thresholds defaults;
  json thresholds = json::array();
  for (const ThresholdInfo& info : threshold_registry()) {
    const bool overridden = std::find(analysis.overridden_thresholds.begin(), analysis.overridden_thresholds.end(),
                                      info.name) != analysis.overridden_thresholds.end();
    thresholds.push_back({{"name", info.name},
                          {"value", analysis.thresholds.*(info.field)},
                          {"default", defaults.*(info.field)},
                          {"unit", info.unit},
                          {"overridden", overridden}});
  }
  return {{"thresholds", std::move(thresholds)}, {"guardViolations", analysis.guard_violations}};
}

}  // namespace sf::report

#include "analysis/analyzer.h"

#include <algorithm>
#include <future>
#include <map>
#include <string_view>

#include "analysis/detectors/detectors.h"
#include "analysis/findings/same_fix.h"
#include "analysis/models/impact.h"
#include "analysis/models/occupancy.h"

namespace sf::analysis {

namespace {

// A suggestion worth showing: a value (a setting to look at is the recommendation's words, not
// an empty suggestion), it exists in the log's Spark, it is not what is in effect already, and it
// moves the way its detector meant from the value in effect ("raise" to a lower value says
// nothing true).
bool worth_suggesting(const SettingChange& change, std::optional<SparkVersion> version) {
  if (change.suggested_value.empty()) return false;
  if (change.suggested_value == change.current_value) return false;
  const SparkSetting* known = find_spark_setting(change.key);
  if (known == nullptr) return true;
  if (!exists_in(*known, version)) return false;
  if (change.effective_value.empty()) return true;
  const std::optional<int> order = compare_values(*known, change.suggested_value, change.effective_value);
  if (order == 0) return false;
  switch (change.direction) {
    case SettingChange::Direction::kSet: return true;
    case SettingChange::Direction::kRaise: return !order || *order > 0;
    case SettingChange::Direction::kLower: return !order || *order < 0;
  }
  return true;
}

bool finding_order(const Finding& a, const Finding& b) {
  if (a.band != b.band) return a.band < b.band;
  const double ha = a.impact.wall_clock ? a.impact.wall_clock->high_ms : -1;
  const double hb = b.impact.wall_clock ? b.impact.wall_clock->high_ms : -1;
  if (ha != hb) return ha > hb;
  return a.id < b.id;
}

}  // namespace

std::span<const DetectorFamily> detector_families() {
  static constexpr DetectorFamily kFamilies[] = {
      {"taskFailures", &detect_task_failures},
      {"taskDistribution", &detect_task_distribution},
      {"hosts", &detect_hosts},
      {"memory", &detect_memory},
      {"shuffle", &detect_shuffle},
      {"sqlPlans", &detect_sql_plans},
      {"pythonUdfs", &detect_python_udfs},
      {"caching", &detect_caching},
      {"timeline", &detect_timeline},
      {"config", &detect_config},
      {"streaming", &detect_streaming},
      {"runState", &detect_run_state},
  };
  return kFamilies;
}

const Finding* Analysis::finding(std::string_view id) const {
  for (const Finding& f : findings) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

Analysis analyze(const model::AppModel& model, const AnalysisOptions& options) {
  Analysis analysis;
  analysis.thresholds = options.thresholds;
  analysis.overridden_thresholds = options.overridden_thresholds;

  // The economics but their cost read only the model, and the what-if's simulation in them is
  // the longest part of an analysis: with a thread to spare they are worked out beside the
  // detectors (without one, when they are asked for, as before).
  auto economics = std::async(options.threads > 1 ? std::launch::async : std::launch::deferred,
                              [&] { return model_economics(model, options.threads); });
  const std::vector<StageOccupancy> occupancy = compute_occupancy(model);
  const DetectorContext context(model, analysis.thresholds, occupancy);
  for (const DetectorFamily& family : detector_families()) family.run(context, analysis.findings);
  analysis.economics = economics.get();
  analysis.streaming = context.streaming();
  if (const auto& what_if = analysis.economics.what_if) {
    detect_allocation_ramp(context, *what_if, analysis.findings);
    detect_core_bound(context, *what_if, analysis.findings);
  }

  const ImpactEstimator estimator(model, occupancy, analysis.thresholds);
  for (Finding& f : analysis.findings) {
    std::sort(f.stages.begin(), f.stages.end());
    std::erase_if(f.settings, [&](const SettingChange& s) { return !worth_suggesting(s, context.version()); });
    f.impact = estimator.estimate(f.claim);
    f.band = estimator.band(f);
    if (auto violation = estimator.regression_guard_violation(f); !violation.empty()) {
      analysis.guard_violations.push_back(std::move(violation));
    }
  }
  std::erase_if(analysis.findings, [&](const Finding& f) { return estimator.below_significance(f); });
  merge_same_fixes(model, analysis.thresholds, analysis.findings);
  std::stable_sort(analysis.findings.begin(), analysis.findings.end(), finding_order);
  analysis.rollup = build_rollup(analysis.findings, estimator);
  price_economics(analysis.economics, model, occupancy, analysis.findings, options.rate_card);
  analysis.connect = summarize_connect(model, analysis.economics.cost, analysis.findings);
  return analysis;
}

}  // namespace sf::analysis

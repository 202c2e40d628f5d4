#include "analysis/analyzer.h"

#include <algorithm>
#include <map>

#include "analysis/detectors.h"
#include "analysis/impact.h"
#include "analysis/occupancy.h"

namespace sf::analysis {

namespace {

// skew's max/median branch and straggler react to the same longest task: say so on both,
// rather than hide either (their wall-clock figures must not be added together).
void flag_skew_straggler_overlap(std::vector<Finding>& findings) {
  std::map<StageRef, std::vector<Finding*>> skew_max, straggler;
  for (Finding& f : findings) {
    if (f.stages.size() != 1) continue;
    if (f.type == "skew" && f.rule == "durationMax") skew_max[f.stages[0]].push_back(&f);
    if (f.type == "straggler") straggler[f.stages[0]].push_back(&f);
  }
  for (auto& [stage, skews] : skew_max) {
    auto it = straggler.find(stage);
    if (it == straggler.end()) continue;
    auto note = [](Finding& f, const char* other) {
      if (!f.validation_caveat.empty()) f.validation_caveat += " ";
      f.validation_caveat += std::string("This overlaps with the ") + other +
                             " finding on this stage: both react to the same longest task, so do not add their "
                             "wall-clock figures.";
    };
    for (Finding* s : skews) note(*s, "straggler");
    for (Finding* s : it->second) note(*s, "skew");
  }
}

// A suggestion worth showing: it exists in the log's Spark, it is not what is in effect already,
// and it moves the way its detector meant from the value in effect ("raise" to a lower value
// says nothing true).
bool worth_suggesting(const SettingChange& change, std::optional<SparkVersion> version) {
  if (change.suggested_value.empty()) return true;  // a setting to look at, without a value
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
      {"taskFailures", &detect_task_failures}, {"taskDistribution", &detect_task_distribution},
      {"hosts", &detect_hosts},                {"memory", &detect_memory},
      {"shuffle", &detect_shuffle},            {"sqlPlans", &detect_sql_plans},
      {"pythonUdfs", &detect_python_udfs},
      {"caching", &detect_caching},            {"timeline", &detect_timeline},
      {"config", &detect_config},              {"runState", &detect_run_state},
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

  const std::vector<StageOccupancy> occupancy = compute_occupancy(model);
  const DetectorContext context(model, analysis.thresholds, occupancy);
  for (const DetectorFamily& family : detector_families()) family.run(context, analysis.findings);

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
  flag_skew_straggler_overlap(analysis.findings);
  std::stable_sort(analysis.findings.begin(), analysis.findings.end(), finding_order);
  analysis.rollup = build_rollup(analysis.findings, estimator);
  return analysis;
}

}  // namespace sf::analysis

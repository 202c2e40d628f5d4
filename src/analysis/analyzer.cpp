#include "analysis/analyzer.h"

#include <algorithm>
#include <future>
#include <map>
#include <string_view>

#include "analysis/detectors.h"
#include "analysis/impact.h"
#include "analysis/occupancy.h"

namespace sf::analysis {

namespace {

// Two findings on one stage that react to the same outlier: say so on both, rather than hide
// either (their wall-clock figures must not be added together).
struct Overlap {
  const char* type_a;
  const char* rule_a;  // nullptr: any rule
  const char* type_b;
  const char* rule_b;
  const char* label_a;  // how the note names each finding to the other
  const char* label_b;
  const char* why;
};

constexpr Overlap kOverlaps[] = {
    // skew's max/median branch and straggler judge the same longest task.
    {"skew", "durationMax", "straggler", nullptr, "skew", "straggler", "both react to the same longest task"},
    // partitionSizing's largest partition is what makes skew's longest task, when the data is skewed.
    {"skew", nullptr, "partitionSizing", "shufflePartitionSkew", "skew", "partition sizing",
     "both react to the same largest partition"},
    {"skew", nullptr, "partitionSizing", "maxPartitionTooBig", "skew", "partition sizing",
     "both react to the same largest partition"},
    // Too few tasks for the cores, and too few partitions for the bytes: one fix, more partitions.
    {"stageShape", "lowParallelism", "partitionSizing", "lowShuffleParallelism", "stage shape", "partition sizing",
     "both ask for more partitions of this stage"},
    {"stageShape", "lowParallelism", "partitionSizing", "maxPartitionTooBig", "stage shape", "partition sizing",
     "both ask for more partitions of this stage"},
};

bool is(const Finding& f, const char* type, const char* rule) {
  return f.type == type && (rule == nullptr || f.rule == rule);
}

void flag_overlaps(std::vector<Finding>& findings) {
  for (const Overlap& overlap : kOverlaps) {
    std::map<StageRef, std::vector<Finding*>> a, b;
    for (Finding& f : findings) {
      if (f.stages.size() != 1) continue;
      if (is(f, overlap.type_a, overlap.rule_a)) a[f.stages[0]].push_back(&f);
      if (is(f, overlap.type_b, overlap.rule_b)) b[f.stages[0]].push_back(&f);
    }
    auto note = [&overlap](Finding& f, const char* other) {
      if (!f.validation_caveat.empty()) f.validation_caveat += " ";
      f.validation_caveat += std::string("This overlaps with the ") + other + " finding on this stage: " + overlap.why +
                             ", so do not add their wall-clock figures.";
    };
    for (auto& [stage, as] : a) {
      auto it = b.find(stage);
      if (it == b.end()) continue;
      for (Finding* f : as) note(*f, overlap.label_b);
      for (Finding* f : it->second) note(*f, overlap.label_a);
    }
  }
}

const Evidence* evidence_named(const Finding& f, std::string_view name) {
  for (const Evidence& e : f.evidence) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

// A straggler, or a skew of task time alone (skew's duration rules), is the slow host's when the
// data is even (a time outlier), the longest task ran on a host a slowHost finding on the same
// stage attempt names with a wall-clock claim, and that task is typical of the host (at most this
// many times the host's mean task): every task there ran that slow, so repairing the host
// recovers both figures' time once, and slowHost's advice (take the host out, speculation until
// then) is theirs. Kept, they lead "Fix these first" with one cause two or three times (the
// slow_host scenario on real Spark: slowHost 4.4 s, then skew 1.9 s of the same tasks). A task
// far slower than even its host's others is an outlier of its own and stays.
constexpr double kTypicalOfItsHost = 1.5;

bool is_time_outlier(const Finding& f) {
  return f.type == "straggler" || (f.type == "skew" && (f.rule == "durationMax" || f.rule == "durationP95"));
}

void fold_time_outliers_into_slow_hosts(const model::AppModel& model, const Thresholds& t, std::vector<Finding>& findings) {
  struct SlowHost {
    std::string id;  // ends ":<host>"; a copy, as erasing moves findings
    double mean_task_ms = 0;
  };
  std::multimap<StageRef, SlowHost> slow;
  for (const Finding& f : findings) {
    const Evidence* mean = evidence_named(f, "hostMeanTaskMs");
    if (f.type == "slowHost" && f.stages.size() == 1 && f.claim.kind == WasteClaim::Kind::kStages && mean != nullptr) {
      slow.emplace(f.stages[0], SlowHost{f.id, mean->value});
    }
  }
  if (slow.empty()) return;
  std::erase_if(findings, [&](const Finding& f) {
    if (!is_time_outlier(f) || f.stages.size() != 1) return false;
    const Evidence* data = evidence_named(f, "dataMaxToMedianRatio");
    const Evidence* longest = evidence_named(f, "taskDurationMaxMs");
    if (data == nullptr || longest == nullptr || data->value >= t.skew_bytes_max_to_median_ratio) return false;
    const model::StageAttempt* stage = model.stage(f.stages[0].stage_id, f.stages[0].attempt_id);
    if (stage == nullptr || stage->max_task_duration_host.empty()) return false;
    const std::string suffix = ":" + stage->max_task_duration_host;
    auto [from, to] = slow.equal_range(f.stages[0]);
    return std::any_of(from, to, [&](const auto& entry) {
      return entry.second.id.ends_with(suffix) && longest->value <= kTypicalOfItsHost * entry.second.mean_task_ms;
    });
  });
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

  // The economics but their cost read only the model, and the what-if's simulation in them is
  // the longest part of an analysis: with a thread to spare they are worked out beside the
  // detectors (without one, when they are asked for, as before).
  auto economics = std::async(options.threads > 1 ? std::launch::async : std::launch::deferred,
                              [&] { return model_economics(model, options.threads); });
  const std::vector<StageOccupancy> occupancy = compute_occupancy(model);
  const DetectorContext context(model, analysis.thresholds, occupancy);
  for (const DetectorFamily& family : detector_families()) family.run(context, analysis.findings);
  fold_time_outliers_into_slow_hosts(model, analysis.thresholds, analysis.findings);

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
  flag_overlaps(analysis.findings);
  std::stable_sort(analysis.findings.begin(), analysis.findings.end(), finding_order);
  analysis.rollup = build_rollup(analysis.findings, estimator);
  analysis.economics = economics.get();
  price_economics(analysis.economics, model, occupancy, analysis.findings, options.rate_card);
  return analysis;
}

}  // namespace sf::analysis

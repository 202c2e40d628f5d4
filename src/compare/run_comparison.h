// compare_runs(): the A/B comparison of a baseline and a candidate run of one job.
//
// It aligns the stages (align_stages: every per-stage figure reads those pairs), computes the
// whole-run metric deltas and the findings delta (neither depends on the pairing), and sets the
// confidence from the runtime coverage and the application names:
//   insufficient  neither run recorded any executor run time: nothing to compare
//   low           the coverage is under 90%, or the application names differ
//   ok            otherwise
// with a banner sentence saying why when it is not ok. Runs are `comparable` (of one job) when
// their SQL executions align and a stage pair rests on plan or call-site evidence (not position
// alone); under different application names, at least kMinComparableCoverage of the executor
// run time must be in paired or replanned stages and a pair must be of high or medium quality.
// Otherwise no metric is labelled an improvement or a regression (notComparable), whatever the
// figures say. The result is plain data (the
// comparison document, report/document_kind.h), rendered by src/report. Pure: the same two
// models and options give the same comparison.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analyzer.h"
#include "compare/budget.h"
#include "compare/config_diff.h"
#include "compare/findings_delta.h"
#include "compare/metric_deltas.h"
#include "compare/stage_alignment.h"
#include "model/app_model.h"

namespace sf::compare {

inline constexpr double kRuntimeCoverageThreshold = 0.9;
inline constexpr double kMinComparableCoverage = 0.5;

enum class ComparisonConfidence { kOk, kLow, kInsufficient };
std::string_view to_string(ComparisonConfidence confidence);  // ok, low, insufficient

struct RunDescription {
  std::string label;  // "baseline", "candidate", or what the caller names them
  std::string path;
  std::string app_id;
  std::string app_name;
  std::string spark_version;
  std::optional<int64_t> duration_ms;
};

// One side of a stage, for the per-stage rows.
struct StageSide {
  int64_t stage_id = 0;
  std::string name;
  std::optional<int64_t> execution_id;
  StageTotals totals;
};

struct StageDelta {
  StagePair pair;
  StageSide base;
  StageSide cand;
  int64_t run_time_delta_ms = 0;  // cand - base executor run time
};

struct SkewDelta {
  int64_t base_stage_id = 0;
  int64_t cand_stage_id = 0;
  std::optional<double> base_skew;  // longest / median task duration
  std::optional<double> cand_skew;
};

// One aligned pair of SQL executions: how long each took (start to end), and the change read
// against kDurationNoise.
struct ExecutionDelta {
  int64_t base_execution_id = 0;
  int64_t cand_execution_id = 0;
  std::string description;  // the baseline's
  std::optional<int64_t> base_duration_ms;
  std::optional<int64_t> cand_duration_ms;
  std::optional<int64_t> delta_ms;  // cand - base
  double noise_ms = 0;
  ChangeKind direction = ChangeKind::kUnavailable;
};

struct CompareOptions {
  AlignmentOptions alignment;
  analysis::AnalysisOptions analysis;
  std::string base_label = "baseline";
  std::string cand_label = "candidate";
};

struct Comparison {
  RunDescription baseline;
  RunDescription candidate;
  ComparisonConfidence confidence = ComparisonConfidence::kInsufficient;
  std::string banner;  // "" when ok
  std::optional<double> runtime_coverage;
  double matched_coverage = 0;  // count-based; decides nothing
  std::vector<std::string> collision_identities;
  bool comparable = false;
  std::vector<MetricDelta> metric_deltas;
  std::vector<SettingDifference> configuration;  // Spark settings that differ, by key
  std::vector<ExecutionDelta> execution_deltas;  // one per aligned execution pair, by baseline id
  FindingsDelta findings;
  StageAlignment alignment;
  std::vector<StageDelta> stage_deltas;  // one per stage pair, by baseline stage id
  std::vector<SkewDelta> skew_deltas;    // paired stages with a skew on both sides
  std::vector<StageSide> base_stages;    // every stage that ran, by id
  std::vector<StageSide> cand_stages;
  std::vector<std::string> normalize_patterns;
  bool replanned_counts_toward_coverage = true;
  std::vector<BudgetResult> budgets;  // filled by evaluate_budgets when asked
};

Comparison compare_runs(const model::AppModel& baseline, const model::AppModel& candidate,
                        const CompareOptions& options = {});

// The banner for a confidence: "" for ok; the reason (or reasons) otherwise.
std::string confidence_banner(ComparisonConfidence confidence, std::optional<double> runtime_coverage,
                              bool names_differ, std::string_view base_name, std::string_view cand_name);

}  // namespace sf::compare

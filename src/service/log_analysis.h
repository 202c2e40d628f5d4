// Analyze one log, compare two: the calls `analyze`, `compare`, the Python package, the MCP tools
// and the dashboard make, so that the same log gives the same figures in every front end.
//
// A front end that keeps logs loaded (serve, mcp) loads them through catalog::LogCatalog, whose
// LoadedLog analyzes with the same rule (analysis options from service::read_settings); the
// comparison below takes models however they were loaded.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analysis/analyzer.h"
#include "common/status.h"
#include "compare/budget.h"
#include "compare/run_comparison.h"
#include "model/app_model.h"
#include "model/load.h"
#include "service/read_settings.h"

namespace sf::service {

// Reads the log at `path` with `settings.load` and `on_progress` (called on the reading thread).
Result<model::AppModel> load_log(const std::string& path, const ReadSettings& settings,
                                 std::function<void(const model::LoadProgress&)> on_progress = {});

// The analysis options for a log read with `settings`: the what-if's cluster sizes are
// simulated on the threads that read it (the analysis is the same whatever their number).
analysis::AnalysisOptions analysis_options(const ReadSettings& settings);
analysis::Analysis analyze(const model::AppModel& model, const ReadSettings& settings);

// What a comparison is asked for, as the caller typed it: checked before any log is read.
struct ComparisonRequest {
  std::vector<std::string> normalize_patterns;  // RE2 patterns rewritten to one token before pairing
  std::vector<std::string> pins;                // "BASELINE_STAGE:CANDIDATE_STAGE"
  std::vector<std::string> budgets;             // "METRIC=LIMIT", e.g. wallClock=+5%
  bool replanned_not_covered = false;           // replanned stages count in coverage's denominator only
};

// A request parsed: what compare_models needs. The normalizer also diffs plans (plan_diff_json).
struct ComparisonPlan {
  compare::CompareOptions options;
  std::vector<compare::Budget> budgets;
};

// An InvalidArgument naming the pattern, pin or budget that does not parse.
Result<ComparisonPlan> plan_comparison(const ComparisonRequest& request, const analysis::AnalysisOptions& analysis);

// The comparison of two loaded runs, its budgets evaluated. An InvalidArgument when a pin names a
// stage a run does not have (the only way it fails).
Result<compare::Comparison> compare_models(const model::AppModel& base, const model::AppModel& cand,
                                           const ComparisonPlan& plan);

}  // namespace sf::service

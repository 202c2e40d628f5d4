#include "service/log_analysis.h"

#include <utility>

#include "compare/normalize.h"
#include "compare/stage_alignment.h"

namespace sf::service {

Result<model::AppModel> load_log(const std::string& path, const ReadSettings& settings,
                                 std::function<void(const model::LoadProgress&)> on_progress) {
  model::LoadOptions options = settings.load;
  if (on_progress) options.on_progress = std::move(on_progress);
  return model::load_event_log(path, options);
}

analysis::AnalysisOptions analysis_options(const ReadSettings& settings) {
  analysis::AnalysisOptions options = settings.analysis;
  options.threads = model::load_threads(settings.load);
  return options;
}

analysis::Analysis analyze(const model::AppModel& model, const ReadSettings& settings) {
  return analysis::analyze(model, analysis_options(settings));
}

Result<ComparisonPlan> plan_comparison(const ComparisonRequest& request, const analysis::AnalysisOptions& analysis) {
  ComparisonPlan plan;
  for (const std::string& text : request.budgets) {
    auto budget = compare::parse_budget(text);
    if (!budget) return fail(budget.error());
    plan.budgets.push_back(std::move(*budget));
  }
  for (const std::string& text : request.pins) {
    auto pin = compare::parse_pin(text);
    if (!pin) return fail(pin.error());
    plan.options.alignment.pins.push_back(std::move(*pin));
  }
  auto normalizer = compare::ComparisonNormalizer::with_patterns(request.normalize_patterns);
  if (!normalizer) return fail(normalizer.error());
  plan.options.alignment.normalizer = std::move(*normalizer);
  plan.options.alignment.replanned_counts_toward_coverage = !request.replanned_not_covered;
  plan.options.analysis = analysis;
  return plan;
}

Result<compare::Comparison> compare_models(const model::AppModel& base, const model::AppModel& cand,
                                           const ComparisonPlan& plan) {
  if (Status s = compare::check_pins(base, cand, plan.options.alignment.pins); !s.ok()) return fail(s);
  compare::Comparison comparison = compare::compare_runs(base, cand, plan.options);
  comparison.budgets = compare::evaluate_budgets(plan.budgets, comparison.metric_deltas);
  return comparison;
}

}  // namespace sf::service

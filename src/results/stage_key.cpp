#include "results/stage_key.h"

#include "compare/normalize.h"
#include "compare/plan_fingerprint.h"
#include "compare/run_index.h"

namespace sf::results {

std::map<int64_t, std::string> stage_keys(const model::AppModel& app) {
  const compare::ComparisonNormalizer normalizer;
  compare::TokenDictionary dictionary;
  const compare::RunIndex index = compare::index_run(app, normalizer, dictionary);
  std::map<int64_t, std::string> keys;
  for (const compare::StageRecord& stage : index.stages) keys.emplace(stage.stage_id, stage.exact_key);
  return keys;
}

std::string sql_execution_key(const model::SqlExecution& execution) {
  const compare::ComparisonNormalizer normalizer;
  std::string description = compare::normalize_stage_name(normalizer.normalize(execution.description));
  if (description.size() > 60) description.resize(60);
  if (execution.plan.nodes.empty()) return description + "@noplan";
  const auto normalize = [&](std::string_view text) { return normalizer.normalize(text); };
  return description + "@" + compare::plan_tree_fingerprint(execution.plan, normalize);
}

}  // namespace sf::results

#include "service/verdicts.h"

#include "results/result.h"
#include "results/store.h"
#include "results/store_series.h"

namespace sf::service {

namespace {

std::string_view default_method(VerdictMode mode) {
  return mode == VerdictMode::kRun ? results::kPairedRatio : results::kDispersionScaled;
}

// The error of a question the store could not answer, naming the store.
Status about_store(const Status& status, const std::string& description) {
  return status.with_detail("store " + description);
}
Status about_store(const Status& status, const StoreContents& store) { return about_store(status, store.description); }
Status about_store(const Status& status, const results::Store& store) {
  return about_store(status, store.description());
}

template <class Asked>
Result<results::VerdictDocument> naming_store(Result<results::VerdictDocument> document, const Asked& store) {
  if (!document) return fail(about_store(document.error(), store));
  return document;
}

}  // namespace

Result<results::MethodConfig> method_config(VerdictMode mode, const MethodChoice& choice) {
  results::MethodConfig config;
  config.name = std::string(default_method(mode));
  if (choice.config_text) {
    auto parsed = results::parse_method_config(*choice.config_text, choice.config_source, config);
    if (!parsed) return parsed;
    config = std::move(*parsed);
  }
  if (choice.name) config.name = *choice.name;
  if (choice.k) config.k = *choice.k;
  if (choice.window) config.window = *choice.window;
  if (choice.min_points) config.min_points = *choice.min_points;
  if (choice.min_effect) config.min_effect = *choice.min_effect;
  if (choice.provisional_noise) config.provisional_relative_noise = *choice.provisional_noise;
  if (choice.ordering) config.ordering = *choice.ordering;
  if (choice.duplicates) config.duplicates = *choice.duplicates;
  if (Status s = results::validate(config); !s.ok()) return fail(s);
  return config;
}

Result<std::unique_ptr<results::Store>> open_store_to_ask(const std::string& location) {
  results::StoreOptions read_only;
  read_only.create_if_missing = false;
  return results::open_store(location, read_only);
}

Result<StoreContents> read_store(const std::string& location) {
  auto store = open_store_to_ask(location);
  if (!store) return fail(store.error());
  StoreContents contents;
  contents.description = (*store)->description();
  auto policy = (*store)->identity_policy();
  if (!policy) return fail(policy.error());
  contents.policy = std::move(*policy);
  auto stored = (*store)->results();
  if (!stored) return fail(stored.error());
  contents.results = std::move(*stored);
  return contents;
}

Result<results::VerdictDocument> verdict_trend(const StoreContents& store, const results::MethodConfig& method,
                                               const TrendRequest& request) {
  auto targets = results::resolve_targets(store.results, request.target, request.subject);
  if (!targets) return fail(about_store(targets.error(), store));
  return verdict_trend_of(store, method, *targets, request.quantities);
}

Result<results::VerdictDocument> verdict_trend_of(const StoreContents& store, const results::MethodConfig& method,
                                                  const std::vector<std::string>& target_ids,
                                                  const std::vector<std::string>& quantities) {
  return naming_store(results::compare_trend(store.results, store.policy, method, target_ids, quantities), store);
}

Result<results::VerdictDocument> verdict_run(const StoreContents& store, const results::MethodConfig& method,
                                             const results::RunRequest& request) {
  return naming_store(results::evaluate_run(request, store.results, store.policy, method), store);
}

Result<results::VerdictDocument> verdict_batch(const StoreContents& store, const results::MethodConfig& method,
                                               const results::BatchRequest& request) {
  return naming_store(results::compare_batch(store.results, store.policy, method, request), store);
}

Result<results::VerdictDocument> verdict_trend(results::Store& store, const results::MethodConfig& method,
                                               const TrendRequest& request) {
  auto targets = results::resolve_targets(store, request.target, request.subject);
  if (!targets) return fail(about_store(targets.error(), store));
  return verdict_trend_of(store, method, *targets, request.quantities);
}

Result<results::VerdictDocument> verdict_trend_of(results::Store& store, const results::MethodConfig& method,
                                                  const std::vector<std::string>& target_ids,
                                                  const std::vector<std::string>& quantities) {
  auto policy = store.identity_policy();
  if (!policy) return fail(about_store(policy.error(), store));
  results::StoreSeriesSource source(store, std::move(*policy));
  return naming_store(results::compare_trend(source, method, target_ids, quantities), store);
}

Result<results::VerdictDocument> verdict_run(results::Store& store, const results::MethodConfig& method,
                                             const results::RunRequest& request) {
  auto policy = store.identity_policy();
  if (!policy) return fail(about_store(policy.error(), store));
  auto run = store.run_results(request.run_key);  // evaluate_run reads no other result
  if (!run) return fail(about_store(run.error(), store));
  return naming_store(results::evaluate_run(request, *run, *policy, method), store);
}

Result<results::VerdictDocument> verdict_batch(results::Store& store, const results::MethodConfig& method,
                                               const results::BatchRequest& request) {
  auto policy = store.identity_policy();
  if (!policy) return fail(about_store(policy.error(), store));
  auto results = store.results();
  if (!results) return fail(about_store(results.error(), store));
  return naming_store(results::compare_batch(*results, *policy, method, request), store);
}

}  // namespace sf::service

// Did performance change beyond noise? The comparator's three questions over a result store, as
// every front end asks them (`verdict history|run|batch`, the MCP verdict tool, the dashboard's
// history pages, the fleet page's trend, Python's verdict_history):
//
//   trend     a target (a result id or a unique prefix, a revision, "latest") against the
//             preceding points of its series, the store's time series of one quantity
//             (`verdict history` and the documents' mode "history" on the command line and in
//             JSON, where that word is kept); dispersion-scaled unless told otherwise
//   run       the two sides of one planned run, paired by round; paired-ratio unless told
//   batch     every series of a target revision or run, and the expected series it misses
//
// The method is the mode's default, then the JSON method configuration a caller gives (only the
// keys it names), then single overrides (a flag, a query parameter): one rule, whichever front end
// asks. The answers are results/verdict_document.h's document; rendering is report/'s.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "results/comparison_method.h"
#include "results/run_evaluation.h"
#include "results/store.h"
#include "results/store_snapshot.h"
#include "results/trend_comparison.h"
#include "results/verdict_document.h"

namespace sf::service {

using StoreContents = results::StoreSnapshot::Contents;

enum class VerdictMode { kTrend, kRun, kBatch };

// What a caller says about the method. `config_text` is a JSON method configuration
// (docs/comparator.md) whose messages name `config_source`; the rest override it, each unset
// unless given.
struct MethodChoice {
  std::optional<std::string> config_text;
  std::string config_source = "method configuration";
  std::optional<std::string> name;
  std::optional<double> k;
  std::optional<int64_t> window;
  std::optional<int64_t> min_points;
  std::optional<double> min_effect;
  std::optional<double> provisional_noise;
  std::optional<std::string> ordering;
  std::optional<std::string> duplicates;
};

// The method `choice` adds up to for `mode`; an InvalidArgument naming the key when a value is
// out of range or unknown.
Result<results::MethodConfig> method_config(VerdictMode mode, const MethodChoice& choice = {});

// The store at `location` (an SQLite file or a postgresql:// URL), read once: NotFound when there
// is none (a verdict never creates one). Long-running front ends keep a results::StoreSnapshot.
Result<StoreContents> read_store(const std::string& location);

// The store at `location` opened to be asked (the Store forms below): NotFound when there is none.
Result<std::unique_ptr<results::Store>> open_store_to_ask(const std::string& location);

struct TrendRequest {
  std::string target;                   // a result id or unique prefix, a revision, or "latest"
  std::string subject;                  // only that subject's targets, when not empty
  std::vector<std::string> quantities;  // only these; empty: all of each target's
};

// Errors name the store (its description, never a password).
Result<results::VerdictDocument> verdict_trend(const StoreContents& store, const results::MethodConfig& method,
                                               const TrendRequest& request);
// The same for targets named by id (the dashboard's series page, the fleet's trend).
Result<results::VerdictDocument> verdict_trend_of(const StoreContents& store, const results::MethodConfig& method,
                                                  const std::vector<std::string>& target_ids,
                                                  const std::vector<std::string>& quantities);
Result<results::VerdictDocument> verdict_run(const StoreContents& store, const results::MethodConfig& method,
                                             const results::RunRequest& request);
Result<results::VerdictDocument> verdict_batch(const StoreContents& store, const results::MethodConfig& method,
                                               const results::BatchRequest& request);

// The same questions asked of the store itself, for a front end that asks one and exits (the CLI,
// Python): the store answers trend and run verdicts in SQL (results/store_series.h), reading the
// rows the verdict uses, not every result; the documents are the ones above for the same store.
// A batch still reads every result (its expected series are named from all of them).
Result<results::VerdictDocument> verdict_trend(results::Store& store, const results::MethodConfig& method,
                                               const TrendRequest& request);
Result<results::VerdictDocument> verdict_trend_of(results::Store& store, const results::MethodConfig& method,
                                                  const std::vector<std::string>& target_ids,
                                                  const std::vector<std::string>& quantities);
Result<results::VerdictDocument> verdict_run(results::Store& store, const results::MethodConfig& method,
                                             const results::RunRequest& request);
Result<results::VerdictDocument> verdict_batch(results::Store& store, const results::MethodConfig& method,
                                               const results::BatchRequest& request);

}  // namespace sf::service

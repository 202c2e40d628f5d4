// Trend-mode requests (the mode documents and `verdict history` call "history"): what a caller
// names, turned into comparator inputs. A trend is a series of the store, one quantity of one
// identity over time; "history" in code means the Spark History Server only.
//
// compare_trend evaluates one target result's series points (all its quantities, or the
// named ones) against their earlier points. compare_batch evaluates every series a target revision or
// run contributes to, each independently, and reports as missing every expected series the
// target has no result for; it never substitutes an older result. Both read only `results`
// (the store's contents, in native order) and are side-effect free.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "results/comparison_method.h"
#include "results/identity_policy.h"
#include "results/series_source.h"
#include "results/verdict_document.h"

namespace sf::results {

Result<VerdictDocument> compare_trend(const std::vector<StoredResult>& results, const IdentityPolicy& policy,
                                      const MethodConfig& method, const std::string& target_result_id,
                                      const std::vector<std::string>& quantities);
// The same for several targets (resolve_targets: a revision's results, the latest of each
// subject): one document, each target's evaluations in turn.
Result<VerdictDocument> compare_trend(const std::vector<StoredResult>& results, const IdentityPolicy& policy,
                                      const MethodConfig& method, const std::vector<std::string>& target_result_ids,
                                      const std::vector<std::string>& quantities);

// The same over any source of the stored results (series_source.h): a store answering in SQL
// gives the document the in-memory index gives.
Result<VerdictDocument> compare_trend(SeriesSource& source, const MethodConfig& method,
                                      const std::vector<std::string>& target_result_ids,
                                      const std::vector<std::string>& quantities);

struct BatchRequest {
  std::string revision;  // the target revision's tree id, or
  std::string run_key;   // the target run
  // Series fingerprints expected for the target; empty: the series of the nearest preceding
  // revision (ancestry) or run (native order) that has results.
  std::vector<std::string> expected;
};

Result<VerdictDocument> compare_batch(const std::vector<StoredResult>& results, const IdentityPolicy& policy,
                                      const MethodConfig& method, const BatchRequest& request);

}  // namespace sf::results

// History-mode requests: what a caller names, turned into comparator inputs.
//
// compare_history evaluates one target result's series points (all its quantities, or the
// named ones) against their history. compare_batch evaluates every series a target revision or
// run contributes to, each independently, and reports as missing every expected series the
// target has no result for; it never substitutes an older result. Both read only `results`
// (the store's contents, in native order) and are side-effect free.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "results/verdict_document.h"
#include "results/comparison_method.h"
#include "results/identity_policy.h"

namespace sf::results {

Result<VerdictDocument> compare_history(const std::vector<StoredResult>& results, const IdentityPolicy& policy,
                                           const MethodConfig& method, const std::string& target_result_id,
                                           const std::vector<std::string>& quantities);
// The same for several targets (resolve_targets: a revision's results, the latest of each
// subject): one document, each target's evaluations in turn.
Result<VerdictDocument> compare_history(const std::vector<StoredResult>& results, const IdentityPolicy& policy,
                                           const MethodConfig& method, const std::vector<std::string>& target_result_ids,
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

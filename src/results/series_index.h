// Which series every stored result belongs to under one identity policy, worked out once.
//
// A result's series is its comparison identity (after continuity mappings) with the quantity,
// the estimator and the policy's schema; under one policy, results share a quantity's series
// exactly when their identities are equal. A comparison of many targets (a page of subjects'
// latest results, a batch's series) looks each target's series up here, instead of working out
// every stored result's identity again for each target and quantity.
//
// The in-memory SeriesSource: the store's every result, read already (a StoreSnapshot's).
#pragma once

#include <map>
#include <vector>

#include "results/identity_policy.h"
#include "results/result.h"
#include "results/revision_graph.h"
#include "results/series_source.h"

namespace sf::results {

class SeriesIndex final : public SeriesSource {
 public:
  // `results` (in native order) and `policy` must outlive the index.
  SeriesIndex(const std::vector<StoredResult>& results, const IdentityPolicy& policy);

  // The results whose comparison identity is `identity`, in native order.
  const std::vector<const StoredResult*>& members(const Coordinates& identity) const;

  const std::vector<StoredResult>& results() const { return results_; }
  const RevisionGraph& graph() const { return graph_; }

  const IdentityPolicy& policy() const override { return policy_; }
  Result<const StoredResult*> result(const std::string& id) override;
  Result<std::map<std::string, int64_t>> ancestors(const std::string& tree) override;
  // Exactly the members.
  Result<std::vector<ResultKey>> series_candidates(const Coordinates& identity, int64_t before) override;
  Result<std::vector<const StoredResult*>> load(const std::vector<int64_t>& orders) override;

 private:
  const std::vector<StoredResult>& results_;
  const IdentityPolicy& policy_;
  RevisionGraph graph_;
  std::map<Coordinates, std::vector<const StoredResult*>> by_identity_;
  std::map<int64_t, const StoredResult*> by_order_;
};

}  // namespace sf::results

// The comparator's questions answered by a result store in SQL (Store::target_keys and the rest),
// so a verdict reads the rows it uses instead of every stored result: a target's keys, a series'
// candidates of the target's subject ingested before it (index on subject, seq), the documents
// of those the window reaches, the target's ancestry (a recursive query), a run's results.
//
// The answers are those of the in-memory SeriesIndex over the whole store: the verdict documents
// are the same (tests/unit/results/store_series_test.cpp compares them on generated stores).
// Series membership stays the identity policy's: the store narrows by subject (and each subject a
// continuity mapping joins), comparison_identity decides.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "results/series_source.h"
#include "results/store.h"

namespace sf::results {

class StoreSeriesSource final : public SeriesSource {
 public:
  // `store` must outlive the source; `policy` is the store's (Store::identity_policy).
  StoreSeriesSource(Store& store, IdentityPolicy policy);

  const IdentityPolicy& policy() const override { return policy_; }
  Result<const StoredResult*> result(const std::string& id) override;
  Result<std::map<std::string, int64_t>> ancestors(const std::string& tree) override;
  // The results of the identity's subject, and of each subject a continuity mapping maps from.
  Result<std::vector<ResultKey>> series_candidates(const Coordinates& identity, int64_t before) override;
  Result<std::vector<const StoredResult*>> load(const std::vector<int64_t>& orders) override;

 private:
  Store& store_;
  const IdentityPolicy policy_;
  // What was read, kept for the source's life: a target's quantities share their series' rows.
  std::map<int64_t, std::unique_ptr<StoredResult>> loaded_;
  std::map<std::string, const StoredResult*> by_id_;
  std::map<std::string, std::map<std::string, int64_t>> ancestors_;
  std::map<std::pair<Coordinates, int64_t>, std::vector<ResultKey>> candidates_;
};

// resolve_targets (result.h) over the store's target_keys.
Result<std::vector<std::string>> resolve_targets(Store& store, const std::string& name,
                                                 const std::string& subject = "");

}  // namespace sf::results

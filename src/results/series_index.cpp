#include "results/series_index.h"

namespace sf::results {

SeriesIndex::SeriesIndex(const std::vector<StoredResult>& results, const IdentityPolicy& policy)
    : results_(results), policy_(policy), graph_(results) {
  for (const StoredResult& r : results) by_identity_[comparison_identity(r.document, policy)].push_back(&r);
}

const std::vector<const StoredResult*>& SeriesIndex::members(const Coordinates& identity) const {
  static const std::vector<const StoredResult*> kNone;
  auto it = by_identity_.find(identity);
  return it == by_identity_.end() ? kNone : it->second;
}

}  // namespace sf::results

#include "results/series_index.h"

#include <algorithm>

namespace sf::results {

SeriesIndex::SeriesIndex(const std::vector<StoredResult>& results, const IdentityPolicy& policy)
    : results_(results), policy_(policy), graph_(results) {
  for (const StoredResult& r : results) {
    by_identity_[comparison_identity(r.document, policy)].push_back(&r);
    by_order_.emplace(r.order, &r);
  }
}

const std::vector<const StoredResult*>& SeriesIndex::members(const Coordinates& identity) const {
  static const std::vector<const StoredResult*> kNone;
  auto it = by_identity_.find(identity);
  return it == by_identity_.end() ? kNone : it->second;
}

Result<const StoredResult*> SeriesIndex::result(const std::string& id) {
  auto it = std::find_if(results_.begin(), results_.end(), [&](const StoredResult& r) { return r.id == id; });
  return it == results_.end() ? nullptr : &*it;
}

Result<std::map<std::string, int64_t>> SeriesIndex::ancestors(const std::string& tree) {
  return graph_.ancestors(tree);
}

Result<std::vector<ResultKey>> SeriesIndex::series_candidates(const Coordinates& identity, int64_t before) {
  std::vector<ResultKey> keys;
  for (const StoredResult* r : members(identity)) {
    if (r->order < before) keys.push_back(result_key(*r));
  }
  return keys;
}

Result<std::vector<const StoredResult*>> SeriesIndex::load(const std::vector<int64_t>& orders) {
  std::vector<const StoredResult*> out;
  out.reserve(orders.size());
  for (int64_t order : orders) {
    auto it = by_order_.find(order);
    if (it == by_order_.end()) return fail(Status::NotFound("no result of native order " + std::to_string(order)));
    out.push_back(it->second);
  }
  return out;
}

}  // namespace sf::results

#include "results/store_snapshot.h"

#include <iterator>

#include "results/store.h"

namespace sf::results {

StoreSnapshot::StoreSnapshot(std::string location) : location_(std::move(location)) {}

Result<std::shared_ptr<const StoreSnapshot::Contents>> StoreSnapshot::current() {
  std::lock_guard lock(mutex_);
  StoreOptions read_only;
  read_only.create_if_missing = false;
  auto store = open_store(location_, read_only);
  if (!store) return fail(store.error());
  auto policy = (*store)->identity_policy();
  if (!policy) return fail(policy.error());

  // Still the store read before? Its last known result is where it was.
  std::shared_ptr<const Contents> known = contents_;
  if (known && !known->results.empty()) {
    const StoredResult& last = known->results.back();
    auto found = (*store)->find(last.id);
    if (!found) return fail(found.error());
    if (!*found || (*found)->order != last.order) known = nullptr;
  }
  const int64_t seen = known && !known->results.empty() ? known->results.back().order : 0;
  auto fresh = (*store)->results_after(seen);
  if (!fresh) return fail(fresh.error());

  const std::string description = (*store)->description();
  if (known && fresh->empty() && known->policy.version == policy->version && known->description == description) {
    return known;
  }
  auto next = std::make_shared<Contents>();
  next->description = description;
  next->policy = std::move(*policy);
  if (known) next->results = known->results;
  next->results.insert(next->results.end(), std::make_move_iterator(fresh->begin()),
                       std::make_move_iterator(fresh->end()));
  contents_ = next;
  return std::shared_ptr<const Contents>(std::move(next));
}

}  // namespace sf::results

#include "results/store_series.h"

#include <algorithm>

namespace sf::results {

namespace {

// Orders read from the store in one query at most.
constexpr size_t kOrdersPerQuery = 256;

}  // namespace

StoreSeriesSource::StoreSeriesSource(Store& store, IdentityPolicy policy) : store_(store), policy_(std::move(policy)) {}

Result<const StoredResult*> StoreSeriesSource::result(const std::string& id) {
  if (auto it = by_id_.find(id); it != by_id_.end()) return it->second;
  auto keys = store_.target_keys(id);
  if (!keys) return fail(keys.error());
  auto exact = std::find_if(keys->begin(), keys->end(), [&](const ResultKey& k) { return k.id == id; });
  if (exact == keys->end()) return nullptr;
  auto loaded = load({exact->order});
  if (!loaded) return fail(loaded.error());
  return loaded->front();
}

Result<std::map<std::string, int64_t>> StoreSeriesSource::ancestors(const std::string& tree) {
  if (auto it = ancestors_.find(tree); it != ancestors_.end()) return it->second;
  auto walked = store_.ancestors(tree);
  if (!walked) return fail(walked.error());
  return ancestors_.emplace(tree, std::move(*walked)).first->second;
}

Result<std::vector<ResultKey>> StoreSeriesSource::series_candidates(const Coordinates& identity, int64_t before) {
  const auto key = std::make_pair(identity, before);
  if (auto it = candidates_.find(key); it != candidates_.end()) return it->second;
  // A result is in the identity's series only if its subject is the identity's, or maps to it.
  std::vector<std::string> subjects;
  if (auto it = identity.find("subject"); it != identity.end()) subjects.push_back(it->second);
  for (const ContinuityMapping& m : policy_.continuity) {
    if (m.coordinate == "subject") subjects.push_back(m.from);
  }
  std::sort(subjects.begin(), subjects.end());
  subjects.erase(std::unique(subjects.begin(), subjects.end()), subjects.end());
  if (subjects.empty()) return std::vector<ResultKey>();
  auto keys = store_.subject_keys(subjects, before);
  if (!keys) return fail(keys.error());
  return candidates_.emplace(key, std::move(*keys)).first->second;
}

Result<std::vector<const StoredResult*>> StoreSeriesSource::load(const std::vector<int64_t>& orders) {
  std::vector<int64_t> missing;
  for (int64_t order : orders) {
    if (loaded_.count(order) == 0) missing.push_back(order);
  }
  for (size_t start = 0; start < missing.size(); start += kOrdersPerQuery) {
    const std::vector<int64_t> chunk(
        missing.begin() + static_cast<std::ptrdiff_t>(start),
        missing.begin() + static_cast<std::ptrdiff_t>(std::min(missing.size(), start + kOrdersPerQuery)));
    auto read = store_.results_at(chunk);
    if (!read) return fail(read.error());
    for (StoredResult& r : *read) {
      auto owned = std::make_unique<StoredResult>(std::move(r));
      by_id_.emplace(owned->id, owned.get());
      loaded_.emplace(owned->order, std::move(owned));
    }
  }
  std::vector<const StoredResult*> out;
  out.reserve(orders.size());
  for (int64_t order : orders) {
    auto it = loaded_.find(order);
    if (it == loaded_.end()) return fail(Status::NotFound("no result of native order " + std::to_string(order)));
    out.push_back(it->second.get());
  }
  return out;
}

Result<std::vector<std::string>> resolve_targets(Store& store, const std::string& name, const std::string& subject) {
  auto keys = store.target_keys(name);
  if (!keys) return fail(keys.error());
  auto resolved = resolve_targets(*keys, name, subject);
  // An id prefix is the last thing a name can mean: the ids are scanned only when nothing else
  // matched. The earlier meanings fail as they did, and the prefix's results decide.
  if (resolved || resolved.error().code() != StatusCode::kNotFound || name == "latest" || name.empty()) {
    return resolved;
  }
  auto prefixed = store.prefix_keys(name);
  if (!prefixed) return fail(prefixed.error());
  keys->insert(keys->end(), prefixed->begin(), prefixed->end());
  std::sort(keys->begin(), keys->end(), [](const ResultKey& a, const ResultKey& b) { return a.order < b.order; });
  keys->erase(std::unique(keys->begin(), keys->end(),
                          [](const ResultKey& a, const ResultKey& b) { return a.order == b.order; }),
              keys->end());
  return resolve_targets(*keys, name, subject);
}

}  // namespace sf::results

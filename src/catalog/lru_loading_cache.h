// A bounded cache of values that are slow to build (a log's model, a stage's tasks), built at
// most once per key at a time and evicted least recently used first.
//
// get(key, version, load): returns the cached value when its version matches; otherwise one
// caller builds it with `load` *outside* the lock while callers of the same key wait for that
// build, and callers of other keys go on (a slow parse never blocks requests for logs already
// loaded). A failed build is not cached: the next caller tries again. Values are handed out as
// shared_ptr<const V>, so an evicted value stays alive for the requests still reading it; the
// bound counts cached values, not values in flight.
//
// Thread-safe.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "common/status.h"

namespace sf::catalog {

template <class Key, class Value>
class LruLoadingCache {
 public:
  explicit LruLoadingCache(size_t max_entries) : max_entries_(max_entries == 0 ? 1 : max_entries) {}

  using Loader = std::function<Result<Value>()>;

  Result<std::shared_ptr<const Value>> get(const Key& key, uint64_t version, const Loader& load) {
    std::unique_lock lock(mutex_);
    while (true) {
      auto it = entries_.find(key);
      if (it == entries_.end()) break;
      Entry& entry = it->second;
      if (entry.loading) {
        loaded_.wait(lock);
        continue;  // the entry may be gone (failed build) or replaced: look again
      }
      if (entry.version == version && entry.value != nullptr) {
        entry.last_use = ++clock_;
        return entry.value;
      }
      break;  // stale: rebuild
    }
    Entry& entry = entries_[key];
    entry.loading = true;
    entry.value = nullptr;
    lock.unlock();

    Result<Value> built = fail(Status::Cancelled("not built"));
    try {
      built = load();
    } catch (const std::exception& e) {
      built = fail(Status::IOError(std::string("building a cached value failed: ") + e.what()));
    }

    lock.lock();
    auto it = entries_.find(key);
    if (!built) {
      entries_.erase(it);
      loaded_.notify_all();
      return fail(built.error());
    }
    it->second.value = std::make_shared<const Value>(std::move(*built));
    it->second.version = version;
    it->second.loading = false;
    it->second.last_use = ++clock_;
    auto value = it->second.value;
    evict_over_bound();
    loaded_.notify_all();
    return value;
  }

  // Cached values (not counting builds in flight).
  size_t size() const {
    std::lock_guard lock(mutex_);
    size_t count = 0;
    for (const auto& [key, entry] : entries_) count += entry.loading ? 0 : 1;
    return count;
  }

 private:
  struct Entry {
    std::shared_ptr<const Value> value;
    uint64_t version = 0;
    uint64_t last_use = 0;
    bool loading = false;
  };

  void evict_over_bound() {
    while (true) {
      size_t cached = 0;
      auto victim = entries_.end();
      for (auto it = entries_.begin(); it != entries_.end(); ++it) {
        if (it->second.loading) continue;
        ++cached;
        if (victim == entries_.end() || it->second.last_use < victim->second.last_use) victim = it;
      }
      if (cached <= max_entries_ || victim == entries_.end()) return;
      entries_.erase(victim);
    }
  }

  const size_t max_entries_;
  mutable std::mutex mutex_;
  std::condition_variable loaded_;
  std::map<Key, Entry> entries_;
  uint64_t clock_ = 0;
};

}  // namespace sf::catalog

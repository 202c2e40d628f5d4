// A bounded cache of values that are slow to build (a log's model, a stage's tasks), built at
// most once per key at a time and evicted least recently used first.
//
// get(key, version, load): returns the cached value when its version matches (a Version is
// anything with ==, e.g. the identity of a log's files); otherwise one caller builds it with
// `load` *outside* the lock while callers of the same key and version wait for that build and
// share its result, and callers of other keys go on (a slow parse never blocks requests for logs
// already loaded). A failed build is not cached: its waiters get its error, except when it was
// cancelled (its caller's choice, not theirs): then one of them builds again. A waiter may stop
// waiting (Waiting::cancel) without stopping the build, and is called back while it waits
// (Waiting::on_tick, to report the progress of the build it waits for). Values are handed out as
// shared_ptr<const V>, so an evicted value stays alive for the callers still reading it, and
// is handed out again when its key and version are asked for while a caller still holds it:
// never built a second time, a value exists once however many callers want it.
//
// What the bound counts is the owner's choice (Bound): the values cached (by default: builds in
// flight and evicted values still held come on top), or every value alive (cached, held by a
// caller after its eviction, or being built): then a build first evicts the least recently
// used value, or waits as a caller waits for a build (cancellable, called back), until fewer
// than the bound are alive. With Bound::kAlive a caller must not hold a value while it asks for
// another of the same cache: it could wait for itself.
//
// Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "common/status.h"

namespace sf::catalog {

enum class Bound {
  kCached,  // values kept by the cache
  kAlive,   // values alive anywhere: kept, held by callers, or being built
};

template <class Key, class Value, class Version = uint64_t>
class LruLoadingCache {
 public:
  explicit LruLoadingCache(size_t max_entries, Bound bound = Bound::kCached)
      : max_entries_(max_entries == 0 ? 1 : max_entries), bound_(bound) {}

  using Loader = std::function<Result<Value>()>;

  // What a caller does while another caller builds the value it asked for.
  struct Waiting {
    const std::atomic<bool>* cancel = nullptr;  // once set, stop waiting: a Cancelled error
    std::function<void()> on_tick;              // every kTick while waiting, called without the lock
  };
  static constexpr std::chrono::milliseconds kTick{50};

  Result<std::shared_ptr<const Value>> get(const Key& key, const Version& version, const Loader& load,
                                           const Waiting& waiting = {}) {
    std::unique_lock lock(mutex_);
    while (true) {
      auto it = entries_.find(key);
      if (it != entries_.end() && it->second.build != nullptr) {
        const std::shared_ptr<Build> build = it->second.build;
        if (!wait_until_done(*build, lock, waiting)) return fail(Status::Cancelled("cancelled"));
        if (build->version == version) {
          if (build->value != nullptr) {
            touch(key);
            return build->value;
          }
          if (build->failure.code() != StatusCode::kCancelled) return fail(build->failure);
        }
        continue;  // a build of another version, or one its caller cancelled: look again
      }
      if (it != entries_.end() && it->second.version == version) {
        it->second.last_use = ++clock_;
        return it->second.value;
      }
      if (it != entries_.end()) entries_.erase(it);  // stale: dropped now, not after the rebuild
      // Not cached: an evicted value a caller still holds is this one again.
      if (auto value = take_back_retired(key, version)) return value;
      if (bound_ == Bound::kAlive && alive_count() >= max_entries_) {
        // No room: evict the least recently used value, or wait for a caller to let one go.
        if (!retire_least_recently_used() && !wait_a_tick(lock, waiting)) return fail(Status::Cancelled("cancelled"));
        continue;  // look again: the key may have been built meanwhile
      }
      break;  // build it
    }
    auto build = std::make_shared<Build>();
    build->version = version;
    Entry& entry = entries_[key];
    entry.build = build;
    lock.unlock();

    Result<Value> built = fail(Status::Cancelled("not built"));
    try {
      built = load();
    } catch (const std::exception& e) {
      built = fail(Status::IOError(std::string("building a cached value failed: ") + e.what()));
    }

    lock.lock();
    auto it = entries_.find(key);  // still there: only its builder removes a building entry
    if (built) {
      build->value = std::make_shared<const Value>(std::move(*built));
      it->second.value = build->value;
      it->second.version = version;
      it->second.build = nullptr;
      it->second.last_use = ++clock_;
      evict_over_bound();
    } else {
      build->failure = built.error();
      entries_.erase(it);
    }
    build->done = true;
    loaded_.notify_all();
    if (build->value == nullptr) return fail(build->failure);
    return build->value;
  }

  // The cached value of `key` when its version is `version`; null otherwise. Never builds, and
  // does not count as a use.
  std::shared_ptr<const Value> peek(const Key& key, const Version& version) const {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end() || it->second.build != nullptr || !(it->second.version == version)) return nullptr;
    return it->second.value;
  }

  // Cached values (not counting builds in flight).
  size_t size() const {
    std::lock_guard lock(mutex_);
    return cached_count();
  }

  // Values alive: cached, evicted but still held by a caller, or being built.
  size_t alive() const {
    std::lock_guard lock(mutex_);
    return alive_count();
  }

 private:
  // One build in flight, shared with the callers waiting for it: they read its outcome even
  // after its entry is gone (a failure) or evicted.
  struct Build {
    Version version{};
    bool done = false;
    std::shared_ptr<const Value> value;  // set when it succeeded
    Status failure;
  };
  struct Entry {
    std::shared_ptr<const Value> value;  // null while building
    Version version{};
    uint64_t last_use = 0;
    std::shared_ptr<Build> build;  // set while building
  };

  // An evicted value, remembered as long as some caller holds it.
  struct Retired {
    Version version{};
    std::weak_ptr<const Value> value;
  };

  size_t cached_count() const {
    size_t count = 0;
    for (const auto& [key, entry] : entries_) count += entry.build != nullptr ? 0 : 1;
    return count;
  }

  size_t alive_count() const {
    size_t count = entries_.size();  // cached and building
    for (const auto& [key, retired] : retired_) count += retired.value.expired() ? 0 : 1;
    return count;
  }

  // The evicted value of `key` at `version` when a caller still holds it, cached again; else
  // null (and the dead or stale record of it dropped).
  std::shared_ptr<const Value> take_back_retired(const Key& key, const Version& version) {
    auto it = retired_.find(key);
    if (it == retired_.end()) return nullptr;
    std::shared_ptr<const Value> value = it->second.version == version ? it->second.value.lock() : nullptr;
    retired_.erase(it);
    if (value == nullptr) return nullptr;
    Entry& entry = entries_[key];
    entry.value = value;
    entry.version = version;
    entry.build = nullptr;
    entry.last_use = ++clock_;
    evict_over_bound();
    return value;
  }

  // Evicts the least recently used cached value; false when none is cached.
  bool retire_least_recently_used() {
    auto victim = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->second.build != nullptr) continue;
      if (victim == entries_.end() || it->second.last_use < victim->second.last_use) victim = it;
    }
    if (victim == entries_.end()) return false;
    std::erase_if(retired_, [](const auto& retired) { return retired.second.value.expired(); });
    retired_[victim->first] = Retired{victim->second.version, victim->second.value};
    entries_.erase(victim);  // the value dies here unless a caller holds it
    return true;
  }

  // Waits one tick for a caller to let a value go; false when the waiter was cancelled.
  bool wait_a_tick(std::unique_lock<std::mutex>& lock, const Waiting& waiting) {
    if (waiting.cancel != nullptr && waiting.cancel->load()) return false;
    loaded_.wait_for(lock, kTick);
    if (waiting.on_tick) {
      lock.unlock();
      waiting.on_tick();
      lock.lock();
    }
    return true;
  }

  // False when the waiter was cancelled before the build ended.
  bool wait_until_done(const Build& build, std::unique_lock<std::mutex>& lock, const Waiting& waiting) {
    while (!build.done) {
      if (waiting.cancel != nullptr && waiting.cancel->load()) return false;
      if (waiting.cancel == nullptr && !waiting.on_tick) {
        loaded_.wait(lock);
        continue;
      }
      loaded_.wait_for(lock, kTick);
      if (build.done || !waiting.on_tick) continue;
      lock.unlock();
      waiting.on_tick();
      lock.lock();
    }
    return true;
  }

  void touch(const Key& key) {
    auto it = entries_.find(key);
    if (it != entries_.end() && it->second.build == nullptr) it->second.last_use = ++clock_;
  }

  void evict_over_bound() {
    while (cached_count() > max_entries_ && retire_least_recently_used()) {
    }
  }

  const size_t max_entries_;
  const Bound bound_;
  mutable std::mutex mutex_;
  std::condition_variable loaded_;
  std::map<Key, Entry> entries_;
  std::map<Key, Retired> retired_;  // evicted values, while a caller may still hold them
  uint64_t clock_ = 0;
};

}  // namespace sf::catalog

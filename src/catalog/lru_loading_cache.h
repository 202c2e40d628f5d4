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
// shared_ptr<const V>, so an evicted value stays alive for the callers still reading it; the
// bound counts cached values, not builds in flight.
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

template <class Key, class Value, class Version = uint64_t>
class LruLoadingCache {
 public:
  explicit LruLoadingCache(size_t max_entries) : max_entries_(max_entries == 0 ? 1 : max_entries) {}

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
      if (it == entries_.end()) break;
      if (it->second.build != nullptr) {
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
      if (it->second.version == version) {
        it->second.last_use = ++clock_;
        return it->second.value;
      }
      break;  // stale: rebuild
    }
    auto build = std::make_shared<Build>();
    build->version = version;
    Entry& entry = entries_[key];
    entry.build = build;
    entry.value = nullptr;  // a stale value is dropped now, not after the rebuild
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
    size_t count = 0;
    for (const auto& [key, entry] : entries_) count += entry.build != nullptr ? 0 : 1;
    return count;
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
    while (true) {
      size_t cached = 0;
      auto victim = entries_.end();
      for (auto it = entries_.begin(); it != entries_.end(); ++it) {
        if (it->second.build != nullptr) continue;
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

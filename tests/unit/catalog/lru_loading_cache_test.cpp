// The loading cache: one build per key at a time, other keys never wait for it, a bound on what
// is kept, failures not cached but shared with the callers that waited for them, and waiters
// that can stop waiting.
#include "catalog/lru_loading_cache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

namespace sf::catalog {
namespace {

using namespace std::chrono_literals;

TEST(LruLoadingCache, ConcurrentRequestsForOneKeyBuildItOnce) {
  LruLoadingCache<std::string, int> cache(4);
  std::atomic<int> builds{0};
  auto load = [&]() -> Result<int> {
    ++builds;
    std::this_thread::sleep_for(50ms);
    return 42;
  };
  std::vector<std::future<int>> results;
  for (int i = 0; i < 8; ++i) {
    results.push_back(std::async(std::launch::async, [&] { return **cache.get("log", 1, load); }));
  }
  for (auto& r : results) EXPECT_EQ(r.get(), 42);
  EXPECT_EQ(builds.load(), 1);
}

TEST(LruLoadingCache, ASlowBuildDoesNotBlockAnotherKey) {
  LruLoadingCache<std::string, int> cache(4);
  std::promise<void> release;
  auto released = release.get_future().share();
  auto slow = std::async(std::launch::async, [&] {
    return **cache.get("slow", 1, [&]() -> Result<int> {
      released.wait();
      return 1;
    });
  });
  std::this_thread::sleep_for(20ms);  // let the slow build start
  // Answered while "slow" is still building (it waits for the release below).
  EXPECT_EQ(**cache.get("fast", 1, []() -> Result<int> { return 2; }), 2);
  release.set_value();
  EXPECT_EQ(slow.get(), 1);
}

TEST(LruLoadingCache, KeepsAtMostItsBoundAndEvictsTheLeastRecentlyUsed) {
  LruLoadingCache<int, int> cache(2);
  int builds = 0;
  auto value = [&](int key) {
    return **cache.get(key, 1, [&]() -> Result<int> {
      ++builds;
      return key * 10;
    });
  };
  value(1);
  value(2);
  value(1);  // 1 is now more recent than 2
  value(3);  // evicts 2
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(builds, 3);
  value(1);
  EXPECT_EQ(builds, 3);  // still cached
  value(2);
  EXPECT_EQ(builds, 4);  // was evicted
}

TEST(LruLoadingCache, AChangedVersionRebuildsAndAFailureIsNotCached) {
  LruLoadingCache<std::string, int> cache(2);
  int builds = 0;
  auto ok = [&]() -> Result<int> { return ++builds; };
  EXPECT_EQ(**cache.get("k", 1, ok), 1);
  EXPECT_EQ(**cache.get("k", 1, ok), 1);
  EXPECT_EQ(**cache.get("k", 2, ok), 2);  // the log changed
  auto failing = []() -> Result<int> { return fail(Status::IOError("disk on fire")); };
  auto failed = cache.get("bad", 1, failing);
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().message(), "disk on fire");
  EXPECT_EQ(**cache.get("bad", 1, ok), 3);  // tried again
}

TEST(LruLoadingCache, ACallerWaitingForAFailedBuildGetsItsErrorWithoutBuildingAgain) {
  LruLoadingCache<std::string, int> cache(2);
  std::promise<void> release;
  auto released = release.get_future().share();
  std::atomic<int> builds{0};
  auto failing = [&]() -> Result<int> {
    ++builds;
    released.wait();
    return fail(Status::Corruption("not an event log"));
  };
  auto first = std::async(std::launch::async, [&] { return cache.get("bad", 1, failing); });
  while (builds.load() == 0) std::this_thread::sleep_for(1ms);
  // Released from inside the wait: this caller is waiting for the first build, for certain.
  LruLoadingCache<std::string, int>::Waiting waiting;
  std::atomic<bool> ticked{false};
  waiting.on_tick = [&] {
    if (!ticked.exchange(true)) release.set_value();
  };
  auto second = cache.get("bad", 1, failing, waiting);
  ASSERT_FALSE(second.has_value());
  EXPECT_EQ(second.error().message(), "not an event log");
  EXPECT_EQ(first.get().error().message(), "not an event log");
  EXPECT_EQ(builds.load(), 1);
  EXPECT_EQ(cache.size(), 0u);
}

// A build its own caller cancelled is no answer for the others: one of them builds again.
TEST(LruLoadingCache, ABuildCancelledByItsCallerIsBuiltAgainForTheWaiters) {
  LruLoadingCache<std::string, int> cache(2);
  std::promise<void> release;
  auto released = release.get_future().share();
  std::atomic<bool> started{false};
  auto cancelled = std::async(std::launch::async, [&] {
    return cache.get("log", 1, [&]() -> Result<int> {
      started = true;
      released.wait();
      return fail(Status::Cancelled("the client gave up"));
    });
  });
  while (!started.load()) std::this_thread::sleep_for(1ms);
  LruLoadingCache<std::string, int>::Waiting waiting;
  std::atomic<bool> ticked{false};
  waiting.on_tick = [&] {
    if (!ticked.exchange(true)) release.set_value();
  };
  auto waiter = cache.get(
      "log", 1, []() -> Result<int> { return 7; }, waiting);
  ASSERT_TRUE(waiter.has_value()) << waiter.error().message();
  EXPECT_EQ(**waiter, 7);
  EXPECT_EQ(cancelled.get().error().code(), StatusCode::kCancelled);
}

TEST(LruLoadingCache, AWaiterMayStopWaitingAndTheBuildGoesOn) {
  LruLoadingCache<std::string, int> cache(2);
  std::promise<void> release;
  auto released = release.get_future().share();
  std::atomic<int> builds{0};
  auto slow = std::async(std::launch::async, [&] {
    return **cache.get("log", 1, [&]() -> Result<int> {
      ++builds;
      released.wait();
      return 1;
    });
  });
  while (builds.load() == 0) std::this_thread::sleep_for(1ms);
  std::atomic<bool> cancel{false};
  LruLoadingCache<std::string, int>::Waiting waiting;
  waiting.cancel = &cancel;
  waiting.on_tick = [&] { cancel = true; };
  auto gave_up = cache.get(
      "log", 1, [&]() -> Result<int> { return ++builds; }, waiting);
  ASSERT_FALSE(gave_up.has_value());
  EXPECT_EQ(gave_up.error().code(), StatusCode::kCancelled);
  release.set_value();
  EXPECT_EQ(slow.get(), 1);
  EXPECT_EQ(**cache.get("log", 1, [&]() -> Result<int> { return ++builds; }), 1);
  EXPECT_EQ(builds.load(), 1);
}

// Issue 21: with a bound of one stage table, requests alternating between two stages held up to
// eight copies (one per request in flight): an evicted table a request still read was built again
// for the next. An evicted value a caller holds is handed out again instead.
TEST(LruLoadingCache, AnEvictedValueACallerStillHoldsIsHandedOutAgainNotRebuilt) {
  LruLoadingCache<int, int> cache(1);
  int builds = 0;
  auto build = [&](int key) {
    return [&builds, key]() -> Result<int> {
      ++builds;
      return key * 10;
    };
  };
  const std::shared_ptr<const int> held = *cache.get(1, 1, build(1));
  EXPECT_EQ(**cache.get(2, 1, build(2)), 20);  // evicts 1, which `held` keeps alive
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.alive(), 2u);
  const std::shared_ptr<const int> again = *cache.get(1, 1, build(1));
  EXPECT_EQ(again.get(), held.get()) << "the held value itself, not a copy";
  EXPECT_EQ(builds, 2);
  EXPECT_EQ(**cache.get(1, 2, build(1)), 10);  // another version is built, held or not
  EXPECT_EQ(builds, 3);
}

// With Bound::kAlive the bound holds for every value alive: a build waits while the values alive
// fill it and no cached one can be evicted, and goes on once a caller lets one go.
TEST(LruLoadingCache, BoundingTheValuesAliveMakesABuildWaitForRoom) {
  LruLoadingCache<int, int> cache(1, Bound::kAlive);
  std::atomic<int> builds{0};
  auto build = [&](int key) {
    return [&builds, key]() -> Result<int> {
      ++builds;
      return key * 10;
    };
  };
  std::shared_ptr<const int> held = *cache.get(1, 1, build(1));
  std::atomic<bool> cancel{false};
  LruLoadingCache<int, int>::Waiting waiting;
  waiting.cancel = &cancel;
  std::atomic<int> ticks{0};
  waiting.on_tick = [&] { ++ticks; };
  auto second = std::async(std::launch::async, [&] { return **cache.get(2, 1, build(2), waiting); });
  while (ticks.load() < 3) std::this_thread::sleep_for(5ms);
  EXPECT_EQ(builds.load(), 1) << "no second value while the first is held";
  EXPECT_EQ(cache.alive(), 1u);
  held.reset();
  EXPECT_EQ(second.get(), 20);
  EXPECT_EQ(builds.load(), 2);
  EXPECT_EQ(cache.alive(), 1u);

  // A waiter for room may stop waiting.
  held = *cache.get(2, 1, build(2));
  cancel = false;
  waiting.on_tick = [&] { cancel = true; };
  auto gave_up = cache.get(3, 1, build(3), waiting);
  ASSERT_FALSE(gave_up.has_value());
  EXPECT_EQ(gave_up.error().code(), StatusCode::kCancelled);
  EXPECT_EQ(builds.load(), 2);
}

TEST(LruLoadingCache, AVersionIsAnythingComparable) {
  struct Files {
    std::vector<int64_t> sizes;
    bool operator==(const Files&) const = default;
  };
  LruLoadingCache<std::string, int, Files> cache(2);
  int builds = 0;
  auto build = [&]() -> Result<int> { return ++builds; };
  EXPECT_EQ(**cache.get("log", Files{{1, 2}}, build), 1);
  EXPECT_EQ(**cache.get("log", Files{{1, 2}}, build), 1);
  EXPECT_EQ(**cache.get("log", Files{{1, 2, 3}}, build), 2);  // a new part
}

}  // namespace
}  // namespace sf::catalog

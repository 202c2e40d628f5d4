// The loading cache: one build per key at a time, other keys never wait for it, a bound on what
// is kept, failures not cached.
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

}  // namespace
}  // namespace sf::catalog

// common/parallel_for.h: every index once, on up to the threads asked for, and a failure rethrown.
#include "common/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace sf {
namespace {

TEST(ParallelFor, RunsEveryIndexOnceWhateverTheThreads) {
  for (unsigned threads : {0u, 1u, 2u, 7u}) {
    for (size_t count : {size_t{0}, size_t{1}, size_t{3}, size_t{1000}}) {
      std::vector<std::atomic<int>> runs(count);
      parallel_for(count, threads, [&](size_t i) { ++runs[i]; });
      for (size_t i = 0; i < count; ++i) EXPECT_EQ(runs[i].load(), 1) << i << " of " << count << ", " << threads;
    }
  }
}

TEST(ParallelFor, UsesNoMoreThreadsThanAskedAndOneAlone) {
  std::mutex mutex;
  std::set<std::thread::id> seen;
  parallel_for(200, 1, [&](size_t) {
    const std::lock_guard lock(mutex);
    seen.insert(std::this_thread::get_id());
  });
  EXPECT_EQ(seen, std::set<std::thread::id>{std::this_thread::get_id()});
  seen.clear();
  parallel_for(200, 3, [&](size_t) {
    const std::lock_guard lock(mutex);
    seen.insert(std::this_thread::get_id());
  });
  EXPECT_LE(seen.size(), 3u);
}

TEST(ParallelFor, AFailureIsRethrownOnTheCallingThread) {
  for (unsigned threads : {1u, 2u}) {
    EXPECT_THROW(parallel_for(100, threads,
                              [&](size_t i) {
                                if (i == 10) throw std::runtime_error("piece 10 failed");
                              }),
                 std::runtime_error)
        << threads;
  }
}

}  // namespace
}  // namespace sf

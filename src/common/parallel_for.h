// Independent pieces of work on a few threads: the calling thread and threads - 1 more each take
// the next undone index until none is left, so pieces of uneven cost still share the threads out.
// `work(i)` runs once for each i in [0, count), on some thread, and must not touch what another
// index's work writes. An exception from `work` is rethrown on the calling thread once every
// thread has stopped (the indices not yet taken are left undone).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace sf {

template <typename Work>
void parallel_for(size_t count, unsigned threads, Work&& work) {
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto worker = [&] {
    try {
      for (size_t i = next++; i < count; i = next++) work(i);
    } catch (...) {
      next = count;
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  const auto helpers = static_cast<size_t>(std::max(1u, threads)) - 1;
  std::vector<std::thread> pool;
  for (size_t t = 0; t < std::min(helpers, count > 0 ? count - 1 : 0); ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace sf

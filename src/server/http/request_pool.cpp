#include "server/http/request_pool.h"

#include <algorithm>

namespace sf::server {

RequestPool::RequestPool(unsigned threads, size_t max_waiting) : capacity_(std::max(threads, 1u) + max_waiting) {
  threads = std::max(threads, 1u);
  threads_.reserve(threads);
  for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
}

RequestPool::~RequestPool() { finish(); }

bool RequestPool::try_submit(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    if (finishing_ || waiting_.size() + running_ >= capacity_) return false;
    waiting_.push_back(std::move(task));
  }
  wake_.notify_one();
  return true;
}

void RequestPool::finish() {
  {
    std::lock_guard lock(mutex_);
    finishing_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
}

void RequestPool::run() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return finishing_ || !waiting_.empty(); });
      if (waiting_.empty()) return;  // finishing, and nothing accepted is left
      task = std::move(waiting_.front());
      waiting_.pop_front();
      ++running_;
    }
    task();
    std::lock_guard lock(mutex_);
    --running_;
  }
}

}  // namespace sf::server

// A fixed set of threads that run the server's slow work (answering a request, writing a
// download) off the HTTP event loop, with a bounded queue: a task past the bound is refused at
// once, so the caller can answer 503 instead of leaving the client waiting without end.
//
// Thread-safe: try_submit may be called from any thread. finish() (or the destructor) refuses new
// tasks, runs every task already accepted, and joins the threads.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sf::server {

class RequestPool {
 public:
  // `threads` tasks run at once (at least one); up to `max_waiting` more wait their turn.
  RequestPool(unsigned threads, size_t max_waiting);
  ~RequestPool();
  RequestPool(const RequestPool&) = delete;
  RequestPool& operator=(const RequestPool&) = delete;

  // Queues `task`; false when every thread is busy and `max_waiting` tasks already wait, or the
  // pool is finishing (the task is then dropped without running).
  bool try_submit(std::function<void()> task);

  // Refuses new tasks, lets the accepted ones run to their end, joins. Idempotent.
  void finish();

 private:
  void run();

  const size_t capacity_;  // threads + max_waiting: tasks running or waiting at most
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> waiting_;
  size_t running_ = 0;
  bool finishing_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace sf::server

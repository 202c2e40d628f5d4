// Reading logs for the dashboard in the background, with their progress: a parse is started by
// one request and polled by the next ones (bytes read of the total, lines, time taken, an ETA),
// so a long read never holds a request open and several run at once (`threads` of them, more
// waiting) without blocking the server. A parse reads through the catalogue (LogCatalog::load:
// a log already in memory is done at once, one being read by someone else is joined) and then
// computes the analysis document, which the API then serves from the catalogue. A parse may
// first download the log from a Spark History Server (fetch::fetch_history_server_logs).
//
// Failures carry a stable code: the History Server's (fetch/history_server_request.h), or
// not-found, unreadable-log, too-large, io-error, cancelled, busy.
//
// Thread-safe. The destructor cancels what runs and waits for it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "catalog/log_catalog.h"
#include "common/status.h"
#include "fetch/history_server_fetch.h"
#include "server/http/request_pool.h"

namespace sf::server {

struct ParseSnapshot {
  enum class State { kQueued, kFetching, kParsing, kDone, kFailed };
  std::string id;   // "p1", "p2", ...
  std::string log;  // the dashboard's name of the log ("" until a download is saved)
  State state = State::kQueued;
  uint64_t bytes_done = 0;
  uint64_t bytes_total = 0;  // 0 when unknown
  uint64_t lines = 0;
  int64_t elapsed_ms = 0;
  std::optional<int64_t> eta_ms;  // from the rate so far; nullopt before any byte
  std::string error_code;         // set when failed
  std::string error_message;
};
std::string_view to_string(ParseSnapshot::State state);  // queued, fetching, parsing, done, failed

// A stable code for a Status a load or download failed with.
std::string error_code_of(const Status& status);

class ParseJobs {
 public:
  struct Source;
  // Called on the reading thread when a parse of `source` is done, before its state says so: a
  // client that sees "done" sees what it recorded (the dashboard lists uploads read this way).
  using OnDone = std::function<void(const Source& source)>;
  ParseJobs(catalog::LogCatalog& logs, unsigned threads, size_t max_waiting, OnDone on_done = {});
  ~ParseJobs();
  ParseJobs(const ParseJobs&) = delete;
  ParseJobs& operator=(const ParseJobs&) = delete;

  // What to read: `path` in the catalogue's root, or a file this server wrote itself (an upload,
  // a download) when `own_file`. `message_filter` rewrites error messages (hides local paths).
  struct Source {
    std::string log;
    std::string path;
    bool own_file = false;
    std::function<std::string(std::string)> message_filter;
  };
  // Starts reading `source`; a parse of the same log still queued or running is returned instead.
  // An error (busy) when every thread is taken and the queue is full.
  Result<ParseSnapshot> start(Source source);

  // Downloads a History Server application to `destination`, then reads it as `log`.
  Result<ParseSnapshot> start_fetch(fetch::HistoryServerRequest request, std::filesystem::path destination,
                                    std::string log, fetch::FetchOptions options);

  std::optional<ParseSnapshot> find(const std::string& id) const;

 private:
  struct Job;
  std::shared_ptr<Job> new_job_locked(const std::string& log);
  void run_load(Job& job, const Source& source);
  void run_fetch(Job& job, const fetch::HistoryServerRequest& request, const std::filesystem::path& destination,
                 fetch::FetchOptions options, const Source& then);
  ParseSnapshot snapshot(const Job& job) const;

  catalog::LogCatalog& logs_;
  const OnDone on_done_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Job>> jobs_;  // by id; finished ones dropped past a bound
  uint64_t next_ = 1;
  std::atomic<bool> stopping_{false};
  RequestPool pool_;  // last: joined first, while the rest still lives
};

}  // namespace sf::server

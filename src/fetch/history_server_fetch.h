// Downloading one application's event logs from a Spark History Server: the zip its
// /api/v1/applications/<app>[/<attempt>]/logs endpoint returns, saved to a local file that
// model::load_event_log reads like any History Server zip.
//
// The request is a validated HistoryServerRequest (history_server_request.h). The download
// sends no credentials (no user, no .netrc, no cookies), follows no redirect (a 3xx is the
// error kRedirect), speaks only http and https, stops at a size limit and a timeout, and can be
// cancelled. Failures are Statuses made by history_server_status: a stable code and a message
// that never repeats what the server said (its body, status text or redirect location).
//
// Thread-safe: each call has its own connection.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>

#include "common/status.h"
#include "fetch/history_server_request.h"

namespace sf::fetch {

struct FetchOptions {
  uint64_t max_bytes = uint64_t{2} << 30;  // the largest zip accepted (2 GiB)
  int64_t timeout_ms = 10 * 60 * 1000;     // the whole transfer
  int64_t connect_timeout_ms = 10 * 1000;
  // The longest the server may send nothing, its answer's start included: a server that accepts
  // and then stalls is given up long before the whole transfer's timeout.
  int64_t stall_timeout_ms = 60 * 1000;
  const std::atomic<bool>* cancel = nullptr;
  // Called as bytes arrive; total is 0 when the server does not say.
  std::function<void(uint64_t bytes_done, uint64_t bytes_total)> on_progress;
};

struct FetchedLogs {
  std::filesystem::path path;  // the saved zip
  uint64_t bytes = 0;
};

// Saves the logs to `destination` (created or truncated; removed again on failure).
Result<FetchedLogs> fetch_history_server_logs(const HistoryServerRequest& request,
                                              const std::filesystem::path& destination,
                                              const FetchOptions& options = {});

}  // namespace sf::fetch

#include "fetch/history_server_fetch.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>

#include "fetch/curl_library.h"

namespace sf::fetch {

namespace {

struct Transfer {
  std::FILE* file = nullptr;
  uint64_t bytes = 0;
  uint64_t max_bytes = 0;
  bool too_large = false;
  bool write_failed = false;
  bool stalled = false;
  // When the last byte arrived (or the transfer started): what the stall time runs from.
  std::chrono::steady_clock::time_point last_byte = std::chrono::steady_clock::now();
  const FetchOptions* options = nullptr;
};

size_t write_body(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t n = size * count;
  // Chunked answers have no Content-Length: the limit is enforced on what arrives.
  if (transfer->bytes + n > transfer->max_bytes) {
    transfer->too_large = true;
    return 0;
  }
  if (std::fwrite(data, 1, n, transfer->file) != n) {
    transfer->write_failed = true;
    return 0;
  }
  transfer->bytes += n;
  transfer->last_byte = std::chrono::steady_clock::now();
  return n;
}

int on_transfer_info(void* user, curl_off_t total, curl_off_t done, curl_off_t, curl_off_t) {
  auto* transfer = static_cast<Transfer*>(user);
  const FetchOptions& options = *transfer->options;
  if (options.cancel != nullptr && options.cancel->load()) return 1;  // aborts with CURLE_ABORTED_BY_CALLBACK
  // curl calls this about once a second while nothing arrives, so a stall is seen within one.
  if (std::chrono::steady_clock::now() - transfer->last_byte > std::chrono::milliseconds(options.stall_timeout_ms)) {
    transfer->stalled = true;
    return 1;
  }
  if (options.on_progress) options.on_progress(static_cast<uint64_t>(done), static_cast<uint64_t>(total));
  return 0;
}

struct EasyDeleter {
  const CurlFunctions* curl;
  void operator()(CURL* easy) const { curl->easy_cleanup(easy); }
};

Status transfer_failure(CURLcode code, const Transfer& transfer, const std::string& where) {
  if (transfer.too_large || code == CURLE_FILESIZE_EXCEEDED) {
    return history_server_status(
        HistoryServerError::kTooLarge,
        fmt::format("the logs of {} are larger than the {} byte limit", where, transfer.max_bytes));
  }
  if (transfer.write_failed) {
    return history_server_status(HistoryServerError::kWriteFailed, "the download could not be saved locally");
  }
  if (transfer.stalled) {
    return history_server_status(
        HistoryServerError::kTimeout,
        fmt::format("the History Server sent nothing for {} s while serving {}; it may be overloaded or stuck",
                    std::max<int64_t>(1, transfer.options->stall_timeout_ms / 1000), where));
  }
  switch (code) {
    case CURLE_ABORTED_BY_CALLBACK:
      return history_server_status(HistoryServerError::kCancelled, "the download was cancelled");
    case CURLE_OPERATION_TIMEDOUT:
      return history_server_status(HistoryServerError::kTimeout,
                                   fmt::format("the History Server did not answer in time for {}", where));
    default:
      return history_server_status(HistoryServerError::kUnreachable,
                                   fmt::format("the History Server for {} could not be reached; check the base "
                                               "URL and that the server is running",
                                               where));
  }
}

}  // namespace

Result<FetchedLogs> fetch_history_server_logs(const HistoryServerRequest& request,
                                              const std::filesystem::path& destination, const FetchOptions& options) {
  auto curl = fetch::curl();
  if (!curl) return fail(history_server_status(HistoryServerError::kUnreachable, curl.error().message()));
  const CurlFunctions& c = **curl;
  const std::string where =
      request.attempt_id ? fmt::format("{} attempt {}", request.app_id, *request.attempt_id) : request.app_id;
  std::unique_ptr<CURL, EasyDeleter> easy(c.easy_init(), EasyDeleter{&c});
  if (!easy) return fail(history_server_status(HistoryServerError::kUnreachable, "no HTTP client could be created"));

  std::FILE* file = std::fopen(destination.c_str(), "wb");
  if (file == nullptr) {
    return fail(history_server_status(HistoryServerError::kWriteFailed, "the download could not be saved locally"));
  }
  Transfer transfer;
  transfer.file = file;
  transfer.max_bytes = options.max_bytes;
  transfer.options = &options;

  const std::string url = request.logs_url();
  CURL* e = easy.get();
  c.easy_setopt(e, CURLOPT_URL, url.c_str());
  c.easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  c.easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  c.easy_setopt(e, CURLOPT_NETRC, static_cast<long>(CURL_NETRC_IGNORED));
  c.easy_setopt(e, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_NONE));
  c.easy_setopt(e, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: safe off the main thread
  c.easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(options.timeout_ms));
  c.easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connect_timeout_ms));
  c.easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options.max_bytes));
  c.easy_setopt(e, CURLOPT_USERAGENT, "sparkforensics/0.1");
  c.easy_setopt(e, CURLOPT_WRITEFUNCTION, &write_body);
  c.easy_setopt(e, CURLOPT_WRITEDATA, &transfer);
  c.easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
  c.easy_setopt(e, CURLOPT_XFERINFOFUNCTION, &on_transfer_info);
  c.easy_setopt(e, CURLOPT_XFERINFODATA, &transfer);
  // Only the body of a success is kept: an error page is never read into the zip.
  c.easy_setopt(e, CURLOPT_FAILONERROR, 0L);

  const CURLcode code = c.easy_perform(e);
  const bool closed = std::fclose(file) == 0;
  long http_status = 0;
  c.easy_getinfo(e, CURLINFO_RESPONSE_CODE, &http_status);

  auto discard = [&](Status status) -> Result<FetchedLogs> {
    std::error_code ignored;
    std::filesystem::remove(destination, ignored);
    return fail(std::move(status));
  };
  if (code != CURLE_OK) return discard(transfer_failure(code, transfer, where));
  if (!closed) {
    transfer.write_failed = true;
    return discard(transfer_failure(CURLE_WRITE_ERROR, transfer, where));
  }
  if (http_status >= 300 && http_status < 400) {
    return discard(history_server_status(HistoryServerError::kRedirect,
                                         fmt::format("the History Server answered the request for {} with a "
                                                     "redirect, which is not followed; give the base URL the "
                                                     "server is really served at",
                                                     where)));
  }
  if (http_status == 404) {
    return discard(history_server_status(HistoryServerError::kNotFound,
                                         fmt::format("the History Server has no logs for {}; check the application "
                                                     "and attempt ids (list them at <base>api/v1/applications)",
                                                     where)));
  }
  if (http_status < 200 || http_status >= 300) {
    return discard(history_server_status(HistoryServerError::kUpstreamError,
                                         fmt::format("the History Server refused the request for {}", where)));
  }
  return FetchedLogs{destination, transfer.bytes};
}

}  // namespace sf::fetch

// The HTTP transport of the REST API: libmicrohttpd serving RestRouter answers under /api/v1
// (and whatever HttpServerOptions::other_routes answers beside it: the dashboard), one log line
// per request and per rejection, the log directory rescanned in the background, and a clean stop.
//
// Connections are read and written by one event loop (epoll), so a slow or idle client costs a
// connection slot and a little memory, never a thread. A request whose head is complete is
// answered on a pool of `threads` threads (its connection set aside meanwhile); a streamed body
// (the /logs zip) is written by a small pool of its own. Every limit is in HttpLimits and
// stated in docs/limits.md.
//
// run_http_server blocks until stop_requested is set (the serve command sets it from SIGINT or
// SIGTERM), then stops accepting, lets requests in flight finish (new requests on connections
// already open are answered 503), and returns. The router and the catalogue are
// thread-safe; a model being loaded blocks only the requests for that log.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "catalog/log_catalog.h"
#include "common/status.h"
#include "server/http/history_server_names.h"

namespace sf::server {

// What one client may cost. The defaults are what `serve` uses; tests make them smaller.
struct HttpLimits {
  // Memory of one connection for its request line and headers (and the head of its answer):
  // a request head that does not fit is answered 431 (414 when the request line alone does not).
  // It bounds the number of headers too: each costs its bytes and about 60 more (some 900 fit).
  size_t connection_memory_bytes = 64 * 1024;
  // From a connection's opening, or the end of its previous answer, to a complete request head;
  // past it the connection is closed and the request logged 408 (a client sending a byte every
  // few seconds kept a thread for as long as it liked).
  int request_head_deadline_s = 30;
  // A connection on which no byte moves either way for this long is closed. Shorter than the
  // head deadline, so an idle keep-alive connection closes quietly and a deadline always means
  // a request that was being sent.
  int idle_timeout_s = 15;
  // Connections open at once; past it new ones wait in the kernel's listen queue.
  unsigned max_connections = 256;
  // Requests waiting for a free thread; past it a request is answered 503 with Retry-After.
  size_t max_waiting_requests = 128;
  // Streamed bodies (downloads) written at once, and waiting; past them 503 with Retry-After.
  unsigned download_threads = 4;
  size_t max_waiting_downloads = 16;
  // Bytes of a streamed body held between its writer and the connection.
  size_t stream_buffer_bytes = 1 << 20;
  // From a request head accepted with a body (an upload) to its last byte; past it the connection
  // is closed, the body dropped and the request logged 408. (A body that stalls is closed sooner,
  // at idle_timeout_s without a byte.)
  int request_body_deadline_s = 600;
};

// A request body being received (the dashboard's uploads). write() is given the bytes as they
// arrive, on the HTTP event loop (keep it short: a write to a local file); finish(), once the
// last byte came, on a request thread, makes the answer. Destroyed without finish() when the
// body never completed (the client went, a deadline, a refusal): it removes what it wrote.
class RequestBody {
 public:
  virtual ~RequestBody() = default;
  // nullopt to go on; an answer (413, 500) to stop reading: it is sent and the connection closed.
  virtual std::optional<RestResponse> write(std::string_view bytes) = 0;
  virtual RestResponse finish() = 0;
};

// What to do with a request that has a body: read it into `body`, or, when that is null, answer
// `refusal` at its head without reading a byte of it.
struct BodyHandling {
  std::unique_ptr<RequestBody> body;
  RestResponse refusal;
};

// The request headers the hooks below are given (the others are not kept): what the dashboard
// tells its own page's requests from another site's by.
inline constexpr std::string_view kHookHeaders[] = {"Origin", "Sec-Fetch-Site", "X-SparkForensics"};

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 18080;            // 0: any free port (reported through on_listening)
  unsigned threads = 8;        // request handling threads
  int rescan_interval_s = 10;  // how often the log directory is listed again; 0: never
  HttpLimits limits;
  // Called once the socket listens, with the port bound.
  std::function<void(int port)> on_listening;
  // One line per request, per rejection (and per rescan that found changes); thread-safe calls.
  std::function<void(const std::string& line)> log_line;
  // Every path outside /api/v1 (the dashboard and its JSON API), called on request threads with
  // the request's kHookHeaders; null: a line of text at /, 404 elsewhere.
  std::function<RestResponse(const std::string& method, const std::string& path, const QueryParams& query,
                             const QueryParams& headers)>
      other_routes;
  // A request with a body, at its head (on the event loop): nullopt refuses the body as the REST
  // API does (413 for GET and HEAD, 405 otherwise); null: every body is refused so.
  std::function<std::optional<BodyHandling>(const std::string& method, const std::string& path,
                                            const QueryParams& query, const QueryParams& headers,
                                            std::optional<uint64_t> content_length)>
      accept_body;
};

// Serves until `stop_requested` becomes true. An error when the address cannot be bound.
Status run_http_server(catalog::LogCatalog& logs, const RestRouter& router, const HttpServerOptions& options,
                       const std::atomic<bool>& stop_requested);

}  // namespace sf::server

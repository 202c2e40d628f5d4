// The HTTP transport of the REST API: libmicrohttpd serving RestRouter answers under /api/v1,
// one log line per request and per rejection, the log directory rescanned in the background,
// and a clean stop.
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
#include <string>

#include "catalog/log_catalog.h"
#include "common/status.h"
#include "server/rest_router.h"

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
};

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
};

// Serves until `stop_requested` becomes true. An error when the address cannot be bound.
Status run_http_server(catalog::LogCatalog& logs, const RestRouter& router, const HttpServerOptions& options,
                       const std::atomic<bool>& stop_requested);

}  // namespace sf::server

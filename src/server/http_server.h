// The HTTP transport of the REST API: cpp-httplib serving RestRouter answers under /api/v1,
// one log line per request, the log directory rescanned in the background, and a clean stop.
//
// run_http_server blocks until stop_requested is set (the serve command sets it from SIGINT or
// SIGTERM), then stops accepting, lets requests in flight finish, and returns. Requests are
// handled by a pool of threads; the router and the catalogue are thread-safe, and a model
// being loaded blocks only the requests for that log.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "common/status.h"
#include "catalog/log_catalog.h"
#include "server/rest_router.h"

namespace sf::server {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 18080;            // 0: any free port (reported through on_listening)
  unsigned threads = 8;        // request handling threads
  int rescan_interval_s = 10;  // how often the log directory is listed again; 0: never
  // Called once the socket listens, with the port bound.
  std::function<void(int port)> on_listening;
  // One line per request (and per rescan that found changes); thread-safe calls.
  std::function<void(const std::string& line)> log_line;
};

// Serves until `stop_requested` becomes true. An error when the address cannot be bound.
Status run_http_server(catalog::LogCatalog& logs, const RestRouter& router, const HttpServerOptions& options,
                       const std::atomic<bool>& stop_requested);

}  // namespace sf::server

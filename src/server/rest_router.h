// Routing of the History Server's REST API (/api/v1/...), independent of any HTTP transport:
// a request (method, path, query) in, a response (status, content type, body) out.
//
// The endpoints, their parameters and their error codes follow Spark's monitoring REST API;
// docs/server.md lists them and where the answers differ from the History Server's. Unknown ids
// answer 404 with the History Server's message, bad parameters 400 naming the parameter, other
// methods than GET 405; a log that cannot be read answers 500 naming the file and the problem.
//
// Thread-safe (the LogDirectory is); handle() may be called from many threads at once.
#pragma once

#include <string>
#include <string_view>

#include "server/log_directory.h"
#include "server/rest_path.h"

namespace sf::server {

struct RestResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::string content_disposition;  // for downloads ("attachment; filename=...")
};

class RestRouter {
 public:
  explicit RestRouter(LogDirectory& logs) : logs_(logs) {}

  // `path` is the request path ("/api/v1/applications/...", or "applications/..." relative to
  // /api/v1); `query` its parsed query string.
  RestResponse handle(std::string_view method, std::string_view path, const QueryParams& query) const;

  // The same with the query string still in `target` ("applications?status=completed").
  RestResponse handle(std::string_view method, std::string_view target) const;

 private:
  LogDirectory& logs_;
};

}  // namespace sf::server

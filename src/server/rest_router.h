// Routing of the History Server's REST API (/api/v1/...), independent of any HTTP transport:
// a request (method, path, query) in, a response (status, content type, body) out.
//
// The endpoints, their parameters and their error codes follow Spark's monitoring REST API;
// docs/server.md lists them and where the answers differ from the History Server's. Unknown ids
// answer 404 with the History Server's message, bad parameters 400 naming the parameter, other
// methods than GET 405; a log that cannot be read answers 500 naming the file and the problem.
//
// The applications are the catalogue's (its last rescan), the models its loaded logs; the task
// tables of the task-level endpoints are the router's own (StageTaskCache).
//
// Thread-safe (the catalogue and the task cache are); handle() may be called from many threads
// at once. The catalogue must outlive the router.
#pragma once

#include <string>
#include <string_view>

#include "catalog/log_catalog.h"
#include "server/rest_path.h"
#include "server/stage_tasks.h"

namespace sf::server {

struct RestResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::string content_disposition;  // for downloads ("attachment; filename=...")
};

class RestRouter {
 public:
  explicit RestRouter(catalog::LogCatalog& logs, StageTaskCacheOptions tasks = {}) : logs_(logs), tasks_(tasks) {}

  // `path` is the request path ("/api/v1/applications/...", or "applications/..." relative to
  // /api/v1); `query` its parsed query string.
  RestResponse handle(std::string_view method, std::string_view path, const QueryParams& query) const;

  // The same with the query string still in `target` ("applications?status=completed").
  RestResponse handle(std::string_view method, std::string_view target) const;

 private:
  catalog::LogCatalog& logs_;
  mutable StageTaskCache tasks_;
};

}  // namespace sf::server

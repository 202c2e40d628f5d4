// Routing of the History Server's REST API (/api/v1/...), independent of any HTTP transport:
// a request (method, path, query) in, a response (status, content type, body) out.
//
// The endpoints, their parameters and their error codes follow Spark's monitoring REST API;
// docs/server.md lists them and where the answers differ from the History Server's. Unknown ids
// answer 404 with the History Server's message, bad parameters 400 naming the parameter, other
// methods than GET 405; a log that cannot be read answers 500 naming the file and the problem.
//
// The applications are the catalogue's (its last rescan), the models its loaded logs; the task
// tables of the task-level endpoints are the router's own (StageTaskCache), lent to the
// dashboard's stage drill-down (task_tables()) so that one cache bounds them all.
//
// Thread-safe (the catalogue and the task cache are); handle() may be called from many threads
// at once. The catalogue must outlive the router.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/log_catalog.h"
#include "common/status.h"
#include "history_server/response_cache.h"
#include "history_server/rest_path.h"
#include "history_server/sql_metric_values.h"
#include "history_server/stage_tasks.h"

namespace sf::history_server {

// Takes a streamed body's bytes as they are written; false when the client is gone (stop).
using BodySink = std::function<bool(std::string_view bytes)>;

struct RestResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::string content_disposition;                           // for downloads ("attachment; filename=...")
  std::vector<std::pair<std::string, std::string>> headers;  // any other response headers
  // A body too large to hold (the /logs zip): when set, `body` is empty and whoever sends the
  // answer calls this once, from any thread, to have the body written into a sink as it is made.
  // Whatever could be refused with a status was refused before (this answer is a 200); an
  // error returned here comes after bytes were sent, so the sender ends the answer unfinished.
  std::function<Status(const BodySink& sink)> write_body;
};

// The whole body of `response`: `body`, or what write_body writes (an error as a 500 answer).
// For callers that need the bytes at once (tests, the fuzzer).
RestResponse with_body_written(RestResponse response);

// The bytes of answers about loaded logs kept to be sent again (ResponseCache).
inline constexpr size_t kResponseCacheBytes = size_t{64} << 20;

class RestRouter {
 public:
  explicit RestRouter(catalog::LogCatalog& logs, StageTaskCacheOptions tasks = {}) : logs_(logs), tasks_(tasks) {}

  // `path` is the request path ("/api/v1/applications/...", or "applications/..." relative to
  // /api/v1); `query` its parsed query string.
  RestResponse handle(std::string_view method, std::string_view path, const QueryParams& query) const;

  // The same with the query string still in `target` ("applications?status=completed").
  RestResponse handle(std::string_view method, std::string_view target) const;

  // The task tables this router reads, for another front end over the same logs.
  StageTaskCache& task_tables() const { return tasks_; }

 private:
  catalog::LogCatalog& logs_;
  mutable StageTaskCache tasks_;
  mutable SqlMetricValueCache sql_metrics_;
  mutable ResponseCache responses_{kResponseCacheBytes};
};

}  // namespace sf::history_server

// The dashboard beside the History Server API: its pages and files (static_files.h) and its JSON
// API under /api/sf/v1, over the same catalogue and library calls as the CLI and the REST API
// (the catalogue's loaded logs and their analysis documents; no cache of its own).
//
//   GET  /api/sf/v1/applications?offset=0&limit=50&q=     the applications, paged and searched: the
//        uploads and downloads this server read as event logs (newest first), then the --log-dir's;
//        each with its source and, once its log is loaded, its top recoverable time and finding counts
//   GET  /api/sf/v1/limits                                {"maxUploadBytes", "maxFolderFiles"}
//   POST /api/sf/v1/parses?log=L                          read log L in the background: a parse
//   GET  /api/sf/v1/parses/P                              its progress (bytes, lines, ETA) or error
//   GET  /api/sf/v1/logs/L/analysis                       the analysis document (analyze -f json)
//   GET  /api/sf/v1/logs/L/timeline                       the occupancy timeline (report/timeline_json.h)
//   GET  /api/sf/v1/logs/L/streaming                      Spark UI's Structured Streaming tab as JSON
//        (the History Server has no REST endpoint for it): every query run's row and its summary
//   GET  /api/sf/v1/logs/L/streaming/R                    the run R (its run id): its row, the query
//        with its micro-batches, its summary and its findings (report/streaming_json.h)
//   GET  /api/sf/v1/logs/L/stages/S/A                     one stage attempt: its entry of the document,
//        its findings and its attributed plan nodes
//   GET  /api/sf/v1/logs/L/stages/S/A/tasks?offset&length&sortBy&order=desc|asc&bins   a page of its
//        tasks in that order and histograms over its successful tasks (server/dashboard/stage_task_page.h),
//        from the task tables the History Server API reads (RestRouter::task_tables)
//   POST /api/sf/v1/uploads?name=N[&folder=F&upload=U]    an event log file (the body), or one file
//        of a rolling-log folder F (eventlog_v2_*): {"upload", "log"}
//   POST /api/sf/v1/history-server?baseUrl=&appId=&attemptId=   download an application's logs
//        from a Spark History Server (validated, no credentials, no redirects, size and time
//        limits), then read it: a parse
//   GET  /api/sf/v1/compare?base=L&cand=L[&pin=B:C][&normalize=RE]   the comparison document
//        (compare -f json) of two logs, each any log the dashboard knows
//   GET  /api/sf/v1/compare/plan?base=L&cand=L&baseExecution=N&candExecution=M   the plan diff
//        of a pair of SQL executions (report/plan_diff_json.h)
//   GET  /api/sf/v1/history/subjects                       the result store's subjects (serve --store)
//   GET  /api/sf/v1/history/series?subject=S[&quantity=Q&fingerprint=F]   without Q: every series
//        of S with the verdict of its latest point; with Q: each point of the series evaluated
//        against its own history (verdict history), in ancestry order
//   GET  /api/sf/v1/history/run?runKey=K&profile=P&baseline=B[&coordinate=C]   verdict run
//   GET  /api/sf/v1/history/batch?revision=R | runKey=K     verdict batch
//   GET  /api/sf/v1/fleet?limit=10&trendOffset=0&trendLimit=20[&quantity=Q]...   the fleet page
//        (service/fleet_summary.h): each subject's latest result ranked by recoverable time and by cost,
//        the most frequent finding types, and a page of the per-job trend (verdict history)
//   Method parameters (method, k, window, minPoints, minEffect, provisionalNoise, ordering,
//   duplicates) are verdict's flags. Every answer is the verdict's comparison document
//   (report/verdict_json.h) with the results behind it and the log each came from when the
//   dashboard can open it; the store is named by Store::description() (never a password).
//
// A POST (a parse, an upload, a download) must carry the header "X-SparkForensics: 1", which the
// dashboard's page sends and another site's page cannot (a custom header needs a CORS preflight,
// which this server never grants), and must not be said cross-site by the browser
// (Sec-Fetch-Site): otherwise 403 cross-site-request. A page elsewhere cannot make the server
// download or read anything.
//
// A log L is a log of --log-dir by its file name as listed, or "~u1" (an upload), "~h1" (a
// download). Errors are {"error": {"code", "message"}} with a stable code and the HTTP status.
// docs/server.md documents every field. Thread-safe.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "catalog/log_catalog.h"
#include "fetch/history_server_fetch.h"
#include "results/store_snapshot.h"
#include "server/dashboard/parse_jobs.h"
#include "server/dashboard/upload_store.h"
#include "server/http/history_server_names.h"
#include "server/http/http_server.h"

namespace sf::server {

struct DashboardOptions {
  unsigned parse_threads = 2;      // logs read at once in the background
  size_t max_waiting_parses = 32;  // more queued than that: 503
  UploadLimits uploads;
  std::filesystem::path upload_parent;  // where the uploads' directory is made ("" : the system's temp)
  fetch::FetchOptions fetch;            // History Server downloads: size limit, timeouts
  std::string store_location;           // serve --store: an SQLite file or a postgresql:// URL; "" none
};

class DashboardApi {
 public:
  // `task_tables`: the stage task tables the REST API reads (RestRouter::task_tables), shared.
  static Result<std::unique_ptr<DashboardApi>> create(catalog::LogCatalog& logs, StageTaskCache& task_tables,
                                                      DashboardOptions options);
  ~DashboardApi();

  // Every request outside /api/v1 (HttpServerOptions::other_routes).
  RestResponse handle(const std::string& method, const std::string& path, const QueryParams& query,
                      const QueryParams& headers = {});
  // A request with a body (HttpServerOptions::accept_body): uploads only.
  std::optional<BodyHandling> accept_body(const std::string& method, const std::string& path, const QueryParams& query,
                                          const QueryParams& headers, std::optional<uint64_t> content_length);

  UploadStore& uploads() { return *uploads_; }

 private:
  DashboardApi(catalog::LogCatalog& logs, StageTaskCache& task_tables, DashboardOptions options,
               std::unique_ptr<UploadStore> uploads);
  class Request;

  catalog::LogCatalog& logs_;
  StageTaskCache& task_tables_;
  const DashboardOptions options_;
  std::unique_ptr<UploadStore> uploads_;
  results::StoreSnapshot store_;  // options_.store_location's results, kept between requests
  ParseJobs parses_;
};

}  // namespace sf::server

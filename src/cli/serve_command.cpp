// sparkforensics serve --log-dir DIR: the web dashboard (/) and a Spark History Server compatible
// REST API (/api/v1/...) over the event logs in DIR, from the same model `analyze` uses.
//
// SIGINT and SIGTERM stop it cleanly: requests in flight finish, then it exits 0.
#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "catalog/log_catalog.h"
#include "cli/commands.h"
#include "cli/log_reading.h"
#include "cli/store_location.h"
#include "history_server/rest_router.h"
#include "results/store.h"
#include "server/dashboard/dashboard_api.h"
#include "server/http/http_server.h"

namespace sf::cli {

namespace {

struct ServeOptions {
  std::string log_dir;
  std::string host = "127.0.0.1";
  int port = 18080;
  size_t max_loaded = 8;
  size_t max_task_stages = 4;
  unsigned request_threads = 8;
  std::optional<unsigned> deprecated_threads;  // --threads, the old spelling of --request-threads
  int rescan_interval_s = 10;
  LogReadFlags read;  // limits and --config; each log is decoded on one thread
  uint64_t max_upload_bytes = server::UploadLimits{}.max_upload_bytes;
  std::string upload_dir;  // where the uploads' own directory is made; "" : the system's temporary one
  unsigned parse_threads = 2;
  int history_server_timeout_s = 600;
  uint64_t history_server_max_bytes = fetch::FetchOptions{}.max_bytes;
  std::string store;  // the result store the history page reads (store_location.h)
};

// Set by the signal handler; read by the server's watcher thread.
std::atomic<bool> g_stop_requested{false};

extern "C" void request_stop(int) { g_stop_requested.store(true); }

std::string timestamp_utc() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

int run_serve(const ServeOptions& options) {
  std::mutex log_mutex;
  auto log_line = [&](const std::string& line) {
    std::lock_guard lock(log_mutex);
    std::fprintf(stderr, "%s %s\n", timestamp_utc().c_str(), line.c_str());
    std::fflush(stderr);
  };
  auto settings = log_read_settings(options.read);
  if (!settings) return report_error(settings.error().message(), kExitFailed);
  unsigned request_threads = options.request_threads;
  if (options.deprecated_threads) {
    log_line(
        "warning: serve --threads is deprecated: it is spelled --request-threads now (--threads means the "
        "threads decoding a log in every other command)");
    request_threads = *options.deprecated_threads;
  }
  if (options.host != "127.0.0.1" && options.host != "localhost" && options.host != "::1") {
    log_line("warning: listening on " + options.host +
             ", not only on this machine: anyone who can reach it can read every event log in " + options.log_dir +
             " (there is no authentication)");
  }

  // Installed first, so a signal during the first listing also ends in a clean stop.
  struct sigaction action {};
  action.sa_handler = request_stop;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);

  auto root = io::PathConfinement::to(options.log_dir);
  if (!root) return report_error(root.error().message(), kExitFailed);
  catalog::CatalogOptions catalog_options;
  catalog_options.root = std::move(*root);
  catalog_options.max_loaded_logs = options.max_loaded;
  catalog_options.load = settings->load;
  // Two threads decode a log: the first answer about a big log comes 1.3-1.5x sooner (a 1 GB log
  // in 1.3-1.6 s instead of 1.9-2.0 s on two cores); more add little, and other requests, which
  // run side by side, keep a core.
  catalog_options.load.threads = 2;
  catalog_options.analysis = std::make_shared<const analysis::AnalysisOptions>(std::move(settings->analysis));
  catalog::LogCatalog logs(std::move(catalog_options));
  auto scan = logs.rescan();
  if (!scan) return report_error(scan.error().message(), kExitFailed);
  for (const auto& problem : scan->unreadable) log_line("not listed: " + problem);
  log_line(std::to_string(logs.applications().size()) + " application(s) in " + std::to_string(scan->logs) +
           " log(s) in " + options.log_dir);

  server::DashboardOptions dashboard_options;
  dashboard_options.uploads.max_upload_bytes = options.max_upload_bytes;
  dashboard_options.upload_parent = options.upload_dir;
  dashboard_options.parse_threads = options.parse_threads;
  dashboard_options.fetch.timeout_ms = int64_t{options.history_server_timeout_s} * 1000;
  dashboard_options.fetch.connect_timeout_ms =
      std::min<int64_t>(dashboard_options.fetch.connect_timeout_ms, dashboard_options.fetch.timeout_ms);
  dashboard_options.fetch.max_bytes = options.history_server_max_bytes;
  dashboard_options.store_location = options.store;
  {
    // Said once at the start; the history page opens the store for each request (read-only),
    // so a store created or filled later is read then. Named by description(): no password.
    results::StoreOptions read_only;
    read_only.create_if_missing = false;
    auto store = results::open_store(options.store, read_only);
    log_line(store ? "result store: " + (*store)->description()
                   : "result store: " + store.error().message() + " (the history page says so until it exists)");
  }
  history_server::StageTaskCacheOptions task_options;
  task_options.max_stages = options.max_task_stages;
  history_server::RestRouter router(logs, task_options);
  auto dashboard = server::DashboardApi::create(logs, router.task_tables(), dashboard_options);
  if (!dashboard) return report_error(dashboard.error().message(), kExitFailed);
  server::HttpServerOptions http_options;
  http_options.host = options.host;
  http_options.port = options.port;
  http_options.threads = request_threads;
  http_options.rescan_interval_s = options.rescan_interval_s;
  http_options.log_line = log_line;
  http_options.other_routes =
      [&](const std::string& method, const std::string& path, const history_server::QueryParams& query,
          const history_server::QueryParams& headers) { return (*dashboard)->handle(method, path, query, headers); };
  http_options.accept_body = [&](const std::string& method, const std::string& path,
                                 const history_server::QueryParams& query, const history_server::QueryParams& headers,
                                 std::optional<uint64_t> length) {
    return (*dashboard)->accept_body(method, path, query, headers, length);
  };
  http_options.on_listening = [&](int port) {
    // On stdout, alone, so a script starting the server on port 0 can read the port.
    std::printf("listening on http://%s:%d/api/v1/applications\n", options.host.c_str(), port);
    std::fflush(stdout);
    log_line("dashboard: http://" + options.host + ":" + std::to_string(port) + "/");
  };
  const Status status = server::run_http_server(logs, router, http_options, g_stop_requested);
  if (!status.ok()) return report_error(status.message(), kExitFailed);
  log_line("stopped");
  return kExitOk;
}

}  // namespace

void register_serve(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ServeOptions>();
  CLI::App* serve = app.add_subcommand(
      "serve",
      "Serve the web dashboard and a Spark History Server compatible REST API (/api/v1/...) for the event "
      "logs in a directory");
  serve
      ->add_option("--log-dir", options->log_dir,
                   "Directory of event logs (as the History Server's spark.history.fs.logDirectory)")
      ->required()
      ->check(CLI::ExistingDirectory);
  serve->add_option("--host", options->host, "Address to listen on; anything but 127.0.0.1 exposes the logs")
      ->capture_default_str();
  serve->add_option("--port", options->port, "Port to listen on (0: any free port, printed)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  serve
      ->add_option("--max-loaded", options->max_loaded,
                   "Application models kept in memory (least recently used evicted)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  serve
      ->add_option("--max-task-stages", options->max_task_stages,
                   "Stages whose task lists are kept in memory (task-level endpoints)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  serve->add_option("--request-threads", options->request_threads, "Threads answering requests")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  serve->add_option("--threads", options->deprecated_threads, "The old spelling of --request-threads")
      ->check(CLI::Range(1, 256))
      ->group("Deprecated");
  serve
      ->add_option("--rescan-interval", options->rescan_interval_s,
                   "Seconds between listings of the log directory (new and changed logs); 0: never")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  serve
      ->add_option("--max-upload-bytes", options->max_upload_bytes,
                   "Largest event log the dashboard accepts as an upload (a rolling-log folder's files together)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  serve->add_option("--upload-dir", options->upload_dir,
                    "Where uploads and History Server downloads are kept while serving (a fresh folder is made "
                    "inside it and removed at the end; default: the system's temporary directory)");
  serve->add_option("--parse-threads", options->parse_threads, "Logs the dashboard reads at once in the background")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  serve
      ->add_option("--history-server-timeout", options->history_server_timeout_s,
                   "Seconds a dashboard download from a Spark History Server may take")
      ->capture_default_str()
      ->check(CLI::Range(1, 24 * 3600));
  serve
      ->add_option("--history-server-max-bytes", options->history_server_max_bytes,
                   "Largest History Server download (the logs zip) the dashboard accepts")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  add_store_option(*serve, options->store);
  add_log_read_flags(*serve, options->read, "", /*with_threads=*/false);
  serve->callback([options, &exit_code] { exit_code = run_serve(*options); });
}

}  // namespace sf::cli

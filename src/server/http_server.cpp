#include "server/http_server.h"

#include <httplib.h>

#include <chrono>
#include <cstdio>
#include <thread>

namespace sf::server {

namespace {

std::string request_target(const httplib::Request& request) {
  std::string target = request.path;
  bool first = true;
  for (const auto& [name, value] : request.params) {
    target += (first ? "?" : "&") + name + "=" + value;
    first = false;
  }
  return target;
}

QueryParams query_of(const httplib::Request& request) {
  QueryParams query;
  for (const auto& [name, value] : request.params) query[name].push_back(value);
  return query;
}

}  // namespace

Status run_http_server(catalog::LogCatalog& logs, const RestRouter& router, const HttpServerOptions& options,
                       const std::atomic<bool>& stop_requested) {
  auto log_line = [&](const std::string& line) {
    if (options.log_line) options.log_line(line);
  };
  httplib::Server http;
  const unsigned threads = options.threads == 0 ? 1 : options.threads;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  // Small answers go out at once instead of waiting for the client's delayed ACK (~40 ms on
  // keep-alive connections).
  http.set_tcp_nodelay(true);
  // SO_REUSEADDR alone, so a restart binds while old connections sit in TIME_WAIT. httplib's
  // default adds SO_REUSEPORT, with which a second serve on the same port started silently and
  // took half the connections; without it that bind fails and says so.
  http.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });

  auto handle = [&](const httplib::Request& request, httplib::Response& response) {
    const auto start = std::chrono::steady_clock::now();
    RestResponse answer;
    const std::string& path = request.path;
    if (path.rfind("/api/v1/", 0) == 0 || path == "/api/v1") {
      answer = router.handle(request.method, path, query_of(request));
    } else if (path == "/" || path.empty()) {
      answer.content_type = "text/plain; charset=utf-8";
      answer.body =
          "sparkforensics serve: the Spark History Server REST API is under /api/v1/ (try /api/v1/applications)\n";
    } else {
      answer.status = 404;
      answer.content_type = "text/plain; charset=utf-8";
      answer.body = "unknown resource: " + path + " (the REST API is under /api/v1/)\n";
    }
    response.status = answer.status;
    if (!answer.content_disposition.empty()) response.set_header("Content-Disposition", answer.content_disposition);
    response.set_content(std::move(answer.body), answer.content_type.c_str());
    const auto elapsed_us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
    char timing[32];
    std::snprintf(timing, sizeof timing, "%.1f ms", static_cast<double>(elapsed_us) / 1000.0);
    log_line(request.remote_addr + " " + request.method + " " + request_target(request) + " " +
             std::to_string(response.status) + " " + std::to_string(response.body.size()) + " bytes " + timing);
  };
  http.Get(".*", handle);
  http.Post(".*", handle);
  http.Put(".*", handle);
  http.Delete(".*", handle);
  http.Patch(".*", handle);
  http.Options(".*", handle);

  int port = options.port;
  if (port == 0) {
    port = http.bind_to_any_port(options.host);
    if (port < 0) return Status::IOError("cannot listen on " + options.host + " (any port)");
  } else if (!http.bind_to_port(options.host, port)) {
    return Status::IOError("cannot listen on " + options.host + ":" + std::to_string(port) +
                           " (is the port in use, or the address not local?)");
  }
  if (options.on_listening) options.on_listening(port);

  std::atomic<bool> listen_returned{false};
  // Watches for the stop request, and rescans the directory at the interval meanwhile.
  std::thread watcher([&] {
    auto last_scan = std::chrono::steady_clock::now();
    while (!listen_returned.load() && !stop_requested.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (options.rescan_interval_s <= 0 ||
          std::chrono::steady_clock::now() - last_scan < std::chrono::seconds(options.rescan_interval_s)) {
        continue;
      }
      auto report = logs.rescan();
      if (!report) {
        log_line("rescan failed: " + report.error().message());
      } else {
        for (const auto& problem : report->unreadable) log_line("not listed: " + problem);
        if (report->read > 0 || report->removed > 0) {
          log_line("rescan: " + std::to_string(report->logs) + " logs, " + std::to_string(report->read) +
                   " read (new or changed), " + std::to_string(report->removed) + " removed");
        }
      }
      last_scan = std::chrono::steady_clock::now();
    }
    // stop() before the server runs would be lost: wait until it runs (or has given up).
    while (!listen_returned.load() && !http.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    http.stop();
  });
  const bool listened = http.listen_after_bind();
  listen_returned.store(true);
  watcher.join();
  if (!listened && !stop_requested.load()) return Status::IOError("the HTTP server stopped unexpectedly");
  return Status();
}

}  // namespace sf::server

#include "server/http/http_server.h"

#include <arpa/inet.h>
#include <linux/tcp.h>  // struct tcp_info with tcpi_bytes_received (glibc's netinet/tcp.h lacks it)
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_set>

#include "server/http/microhttpd_library.h"
#include "server/http/request_pool.h"

namespace sf::server {

namespace {

using Clock = std::chrono::steady_clock;

// libmicrohttpd's functions. Everything below runs inside the daemon run_http_server starts, after
// it loaded them, so here they are always there.
const MicrohttpdFunctions& mhd() { return **libmicrohttpd(); }

// Bytes of a refused request body read and dropped before the refusal is sent anyway.
constexpr uint64_t kDropAfterRefusalBytes = 16 << 20;

std::string elapsed_text(Clock::time_point start) {
  const auto elapsed_us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
  char text[32];
  std::snprintf(text, sizeof text, "%.1f ms", static_cast<double>(elapsed_us) / 1000.0);
  return text;
}

std::string address_text(const sockaddr* address) {
  char text[INET6_ADDRSTRLEN] = "?";
  if (address == nullptr) return text;
  if (address->sa_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(address)->sin_addr, text, sizeof text);
  } else if (address->sa_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr, text, sizeof text);
  }
  return text;
}

// Bytes the kernel has received on a connected socket so far (0 when it cannot say), without
// the client's FIN, which the kernel counts as one.
uint64_t bytes_received(int fd) {
  tcp_info info{};
  socklen_t length = sizeof info;
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return 0;
  // The kernel's TCP states after a FIN came in (linux/tcp.h, which has tcpi_bytes_received,
  // does not name them; netinet/tcp.h names them but cannot be included beside it).
  enum : uint8_t { kTimeWait = 6, kClose = 7, kCloseWait = 8, kLastAck = 9, kClosing = 11 };
  const bool fin_received = info.tcpi_state == kCloseWait || info.tcpi_state == kLastAck ||
                            info.tcpi_state == kClosing || info.tcpi_state == kTimeWait || info.tcpi_state == kClose;
  return info.tcpi_bytes_received - (fin_received && info.tcpi_bytes_received > 0 ? 1 : 0);
}

// The listening socket, made here rather than by the library so that it has SO_REUSEADDR alone
// (a restart binds while old connections sit in TIME_WAIT; SO_REUSEPORT would let a second
// serve start silently on the same port and take half the connections) and a listen queue
// longer than httplib's 5.
struct ListeningSocket {
  int fd = -1;
  int port = 0;
  int family = AF_INET;
};

Result<ListeningSocket> listen_on(const std::string& host, int port) {
  const std::string shown = host + ":" + (port == 0 ? std::string("any port") : std::to_string(port));
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || found == nullptr) {
    return fail(Status::IOError("cannot listen on " + shown + " (the address does not resolve)"));
  }
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> addresses(found, freeaddrinfo);
  ListeningSocket out;
  out.family = found->ai_family;
  out.fd = socket(found->ai_family, found->ai_socktype | SOCK_CLOEXEC, found->ai_protocol);
  if (out.fd < 0) return fail(Status::IOError("cannot listen on " + shown + ": cannot make a socket"));
  const int yes = 1;
  setsockopt(out.fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  if (bind(out.fd, found->ai_addr, found->ai_addrlen) != 0 || listen(out.fd, 128) != 0) {
    close(out.fd);
    return fail(Status::IOError("cannot listen on " + shown + " (is the port in use, or the address not local?)"));
  }
  sockaddr_storage bound{};
  socklen_t bound_length = sizeof bound;
  getsockname(out.fd, reinterpret_cast<sockaddr*>(&bound), &bound_length);
  out.port = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                               : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  return out;
}

// A streamed body between its writer (a download thread) and the connection (the event loop).
// The writer blocks while `capacity` bytes wait to be sent, so a slow client holds that much,
// not the whole body. When the connection has nothing to send it is suspended (no busy loop)
// and the next write resumes it. Shared by the writer and the library's response object; every
// member is guarded by the mutex.
class StreamedBody {
 public:
  StreamedBody(MHD_Connection* connection, size_t capacity) : connection_(connection), capacity_(capacity) {}

  // Writer side: false once the connection has gone (the writer stops).
  bool write(std::string_view bytes) {
    std::unique_lock lock(mutex_);
    space_.wait(lock, [&] { return abandoned_ || buffered_.size() - sent_offset_ < capacity_; });
    if (abandoned_) return false;
    if (sent_offset_ > 0) {  // drop what was sent before growing
      buffered_.erase(0, sent_offset_);
      sent_offset_ = 0;
    }
    buffered_.append(bytes);
    resume_reader_locked();
    return true;
  }
  void finish(Status outcome) {
    std::lock_guard lock(mutex_);
    finished_ = true;
    outcome_ = std::move(outcome);
    resume_reader_locked();
  }

  // Connection side (the library's content reader, on the event loop).
  ssize_t read(char* out, size_t max) {
    std::lock_guard lock(mutex_);
    const size_t available = buffered_.size() - sent_offset_;
    if (available > 0) {
      const size_t n = std::min(available, max);
      buffered_.copy(out, n, sent_offset_);
      sent_offset_ += n;
      sent_bytes_ += n;
      space_.notify_one();
      return static_cast<ssize_t>(n);
    }
    if (finished_) return outcome_.ok() ? MHD_CONTENT_READER_END_OF_STREAM : MHD_CONTENT_READER_END_WITH_ERROR;
    reader_suspended_ = true;
    mhd().suspend_connection(connection_);
    return 0;
  }
  // The response is gone (sent, or the connection closed): the writer stops at its next write.
  void abandon() {
    std::lock_guard lock(mutex_);
    abandoned_ = true;
    space_.notify_all();
  }

  uint64_t sent_bytes() {
    std::lock_guard lock(mutex_);
    return sent_bytes_;
  }
  // Why the body was cut (empty when it was not).
  std::string failure() {
    std::lock_guard lock(mutex_);
    return finished_ && !outcome_.ok() ? outcome_.message() : std::string();
  }

 private:
  void resume_reader_locked() {
    if (!reader_suspended_) return;
    reader_suspended_ = false;
    mhd().resume_connection(connection_);
  }

  MHD_Connection* const connection_;
  const size_t capacity_;
  std::mutex mutex_;
  std::condition_variable space_;
  std::string buffered_;
  size_t sent_offset_ = 0;
  uint64_t sent_bytes_ = 0;
  bool reader_suspended_ = false;
  bool finished_ = false;
  bool abandoned_ = false;
  Status outcome_;
};

ssize_t read_streamed_body(void* cls, uint64_t, char* out, size_t max) {
  return (*static_cast<std::shared_ptr<StreamedBody>*>(cls))->read(out, max);
}

void release_streamed_body(void* cls) {
  auto* body = static_cast<std::shared_ptr<StreamedBody>*>(cls);
  (*body)->abandon();
  delete body;
}

// One open connection, from the library's "started" notice to its "closed" one. The deadline
// fields are read by the watcher thread: they are guarded by Server::connections_mutex_.
struct ConnectionRecord {
  int fd = -1;
  std::string address;
  std::optional<Clock::time_point> head_deadline;  // set while a request head is awaited
  std::optional<Clock::time_point> body_deadline;  // set while an accepted request body is read
  std::string target_being_read;                   // its request line's target, once read
  bool closed_by_deadline = false;
  uint64_t bytes_of_logged_requests = 0;  // bytes received up to the last request logged
};

// One request, from its request line (the library's URI callback) to its completion notice.
struct RequestRecord {
  Clock::time_point start = Clock::now();
  std::string target;  // as sent: path and query, still escaped
  std::string method;
  std::string path;  // unescaped, without the query
  QueryParams query;
  QueryParams headers;         // kHookHeaders only
  bool head_complete = false;  // the access handler has been called
  bool dispatched = false;     // counted in Server::active_requests_
  int status = 0;              // of the answer we queued (0: the library answered, or nobody)
  uint64_t body_bytes = 0;
  uint64_t body_bytes_received = 0;  // of an accepted request body
  std::string note;                  // said after the line: why it was refused, or how it ended
  std::shared_ptr<StreamedBody> stream;
  std::unique_ptr<RequestBody> body;    // an accepted request body being read (an upload)
  std::optional<RestResponse> refusal;  // its receiver refused the rest of it: the answer to give
  uint64_t refused_at_bytes = 0;
  bool refusal_queued = false;
  // Written by a pool thread before it resumes the connection, read on the event loop after.
  RestResponse answer;
  std::atomic<bool> answer_ready{false};
};

class Server {
 public:
  Server(catalog::LogCatalog& logs, const RestRouter& router, const HttpServerOptions& options)
      : logs_(logs),
        router_(router),
        options_(options),
        limits_(options.limits),
        requests_(options.threads == 0 ? 1 : options.threads, options.limits.max_waiting_requests),
        downloads_(options.limits.download_threads, options.limits.max_waiting_downloads) {}

  Status run(const std::atomic<bool>& stop_requested);

 private:
  static MHD_Result on_request(void* cls, MHD_Connection* connection, const char* url, const char* method,
                               const char* version, const char* upload_data, size_t* upload_data_size,
                               void** request_context);
  static void* on_request_line(void* cls, const char* uri, MHD_Connection* connection);
  static void on_request_completed(void* cls, MHD_Connection* connection, void** request_context,
                                   MHD_RequestTerminationCode how);
  static void on_connection(void* cls, MHD_Connection* connection, void** socket_context,
                            MHD_ConnectionNotificationCode code);

  MHD_Result handle_head(MHD_Connection* connection, RequestRecord& request, const char* url);
  MHD_Result dispatch(MHD_Connection* connection, RequestRecord& request);
  MHD_Result queue_answer(MHD_Connection* connection, RequestRecord& request, RestResponse answer);
  RestResponse route(const RequestRecord& request) const;
  void close_connections_past_deadline();
  void rescan_directory();
  void log(const std::string& line) const {
    if (options_.log_line) options_.log_line(line);
  }

  catalog::LogCatalog& logs_;
  const RestRouter& router_;
  const HttpServerOptions& options_;
  const HttpLimits limits_;
  RequestPool requests_;
  RequestPool downloads_;
  std::atomic<bool> stopping_{false};
  std::atomic<int> active_requests_{0};  // dispatched and not yet completed
  std::mutex connections_mutex_;
  std::unordered_set<ConnectionRecord*> connections_;
};

void read_hook_headers(MHD_Connection* connection, QueryParams& headers) {
  for (std::string_view name : kHookHeaders) {
    const char* value = mhd().lookup_connection_value(connection, MHD_HEADER_KIND, std::string(name).c_str());
    if (value != nullptr) headers[std::string(name)].push_back(value);
  }
}

void read_query(MHD_Connection* connection, QueryParams& query) {
  query.clear();
  mhd().get_connection_values(
      connection, MHD_GET_ARGUMENT_KIND,
      [](void* cls, MHD_ValueKind, const char* key, const char* value) {
        (*static_cast<QueryParams*>(cls))[key].push_back(value != nullptr ? value : "");
        return MHD_YES;
      },
      &query);
}

ConnectionRecord* connection_record(MHD_Connection* connection) {
  const MHD_ConnectionInfo* info = mhd().get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info == nullptr ? nullptr : static_cast<ConnectionRecord*>(info->socket_context);
}

RestResponse text_response(int status, std::string body) {
  RestResponse answer;
  answer.status = status;
  answer.content_type = "text/plain; charset=utf-8";
  answer.body = std::move(body);
  return answer;
}

RestResponse busy_response(const std::string& what) {
  return text_response(503, "the server is busy: " + what + "; try again shortly\n");
}

void Server::on_connection(void* cls, MHD_Connection* connection, void** socket_context,
                           MHD_ConnectionNotificationCode code) {
  auto* server = static_cast<Server*>(cls);
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    auto* record = new ConnectionRecord;
    if (const auto* fd = mhd().get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD)) {
      record->fd = fd->connect_fd;
    }
    if (const auto* address = mhd().get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS)) {
      record->address = address_text(address->client_addr);
    }
    record->head_deadline = Clock::now() + std::chrono::seconds(server->limits_.request_head_deadline_s);
    *socket_context = record;
    std::lock_guard lock(server->connections_mutex_);
    server->connections_.insert(record);
    return;
  }
  // Closed: called before the library closes the socket, so the watcher (which holds the mutex
  // while it shuts a socket down) never touches a descriptor that was closed and reused.
  auto* record = static_cast<ConnectionRecord*>(*socket_context);
  if (record == nullptr) return;
  {
    std::lock_guard lock(server->connections_mutex_);
    server->connections_.erase(record);
  }
  // Bytes that never reached a request line the library could read (a request line longer
  // than the connection's memory, answered 414; an HTTP version it does not speak, 400 or 505;
  // bytes that are not HTTP, closed unanswered; a client gone mid-line) have no request to log
  // them: the connection says how many there were.
  const uint64_t received = bytes_received(record->fd);
  if (!record->closed_by_deadline && received > record->bytes_of_logged_requests) {
    server->log(record->address + " - - 400 " + std::to_string(received - record->bytes_of_logged_requests) +
                " bytes received that never made a request line (too long: 414; not HTTP/1.x: 400 or 505; "
                "or the client closed mid-line); connection closed");
  }
  delete record;
  *socket_context = nullptr;
}

void* Server::on_request_line(void* cls, const char* uri, MHD_Connection* connection) {
  auto* server = static_cast<Server*>(cls);
  auto* request = new RequestRecord;
  request->target = uri != nullptr ? uri : "";
  if (ConnectionRecord* record = connection_record(connection)) {
    std::lock_guard lock(server->connections_mutex_);
    record->target_being_read = request->target;
  }
  return request;
}

void Server::on_request_completed(void* cls, MHD_Connection* connection, void** request_context,
                                  MHD_RequestTerminationCode how) {
  auto* server = static_cast<Server*>(cls);
  std::unique_ptr<RequestRecord> request(static_cast<RequestRecord*>(*request_context));
  *request_context = nullptr;
  if (request == nullptr) return;
  ConnectionRecord* record = connection_record(connection);
  bool closed_by_deadline = false;
  if (record != nullptr) {
    std::lock_guard lock(server->connections_mutex_);
    closed_by_deadline = record->closed_by_deadline;
    record->target_being_read.clear();
    record->body_deadline.reset();
    // The connection may carry another request: its head is awaited from now on.
    record->head_deadline = Clock::now() + std::chrono::seconds(server->limits_.request_head_deadline_s);
    // Bytes still arriving for a request refused unread (a body, an oversized head) are part of
    // it, not another request: after a refusal the connection closes and nothing more counts.
    const bool refused = how != MHD_REQUEST_TERMINATED_COMPLETED_OK || request->status == 0 || !request->note.empty();
    record->bytes_of_logged_requests = refused ? std::numeric_limits<uint64_t>::max() : bytes_received(record->fd);
  }
  if (request->dispatched) --server->active_requests_;
  if (closed_by_deadline) return;  // logged by the watcher when it closed the connection

  int status = request->status;
  if (status == 0) {  // refused by the library itself (431, 400, 413, ...)
    const MHD_ConnectionInfo* info = mhd().get_connection_info(connection, MHD_CONNECTION_INFO_HTTP_STATUS);
    status = info != nullptr ? static_cast<int>(info->http_status) : 0;
    if (status == 431) request->note = "request head larger than the connection's memory";
  }
  uint64_t body_bytes = request->body_bytes;
  std::string note = request->note;
  if (request->stream) {
    body_bytes = request->stream->sent_bytes();
    if (std::string failure = request->stream->failure(); !failure.empty()) note = "body cut: " + failure;
  }
  switch (how) {
    case MHD_REQUEST_TERMINATED_COMPLETED_OK: break;
    case MHD_REQUEST_TERMINATED_WITH_ERROR:
      if (note.empty()) note = "ended with an error";
      break;
    case MHD_REQUEST_TERMINATED_TIMEOUT_REACHED:
      note = "idle for " + std::to_string(server->limits_.idle_timeout_s) + " s: connection closed";
      break;
    case MHD_REQUEST_TERMINATED_DAEMON_SHUTDOWN: note = "server stopped before the answer was sent"; break;
    default:  // read error, client abort
      note = "client closed the connection before the answer was sent";
      break;
  }
  const std::string method = request->method.empty() ? "-" : request->method;
  server->log((record != nullptr ? record->address : std::string("?")) + " " + method + " " +
              (request->target.empty() ? "-" : request->target) + " " + (status == 0 ? "-" : std::to_string(status)) +
              " " + std::to_string(body_bytes) + " bytes " + elapsed_text(request->start) +
              (note.empty() ? "" : " (" + note + ")"));
}

MHD_Result Server::on_request(void* cls, MHD_Connection* connection, const char* url, const char* method, const char*,
                              const char* upload_data, size_t* upload_data_size, void** request_context) {
  auto* server = static_cast<Server*>(cls);
  if (*request_context == nullptr) *request_context = new RequestRecord;  // the URI callback always runs first
  auto& request = *static_cast<RequestRecord*>(*request_context);
  if (!request.head_complete) {
    request.head_complete = true;
    request.method = method;
    return server->handle_head(connection, request, url);
  }
  if (*upload_data_size != 0) {  // only an accepted body (any other is answered at its head)
    const std::string_view bytes(upload_data, *upload_data_size);
    *upload_data_size = 0;
    if (request.refusal_queued) return MHD_YES;
    request.body_bytes_received += bytes.size();
    if (request.refusal) {
      // Refused: the rest is read and dropped, so that the client, still sending, reads the
      // answer instead of a reset; past a bound it is answered at once and the connection closed.
      if (request.body_bytes_received - request.refused_at_bytes <= kDropAfterRefusalBytes) return MHD_YES;
      request.refusal_queued = true;
      return server->queue_answer(connection, request, std::move(*request.refusal));
    }
    if (request.body == nullptr) return MHD_YES;
    request.refusal = request.body->write(bytes);
    if (request.refusal) {
      request.refused_at_bytes = request.body_bytes_received;
      request.note = "request body refused after " + std::to_string(request.body_bytes_received) + " bytes";
      request.body.reset();  // what it wrote is removed now
    }
    return MHD_YES;
  }
  if (request.refusal_queued) return MHD_YES;
  if (request.refusal) {
    request.refusal_queued = true;
    return server->queue_answer(connection, request, std::move(*request.refusal));
  }
  // Dispatched at the library's "final" call, not at the head: an answer queued while the
  // request is still at its head makes the library close the connection after it.
  if (!request.dispatched) return server->dispatch(connection, request);
  if (!request.answer_ready.load(std::memory_order_acquire)) return MHD_YES;
  return server->queue_answer(connection, request, std::move(request.answer));
}

MHD_Result Server::handle_head(MHD_Connection* connection, RequestRecord& request, const char* url) {
  if (ConnectionRecord* record = connection_record(connection)) {
    std::lock_guard lock(connections_mutex_);
    record->head_deadline.reset();
  }
  if (stopping_.load()) {
    request.note = "the server is stopping";
    return queue_answer(connection, request, text_response(503, "the server is stopping\n"));
  }
  // No resource takes a body: refuse one at its head, before reading a byte of it (the library
  // then closes the connection instead of reading on). A 300 MB body was read whole first.
  const char* length = mhd().lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
  const bool has_body =
      (length != nullptr && std::string_view(length) != "0") ||
      mhd().lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING) != nullptr;
  if (has_body && options_.accept_body) {
    request.path = url;
    read_query(connection, request.query);
    read_hook_headers(connection, request.headers);
    std::optional<uint64_t> declared;
    if (length != nullptr) {
      uint64_t n = 0;
      const std::string_view text(length);
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
      if (ec == std::errc() && end == text.data() + text.size()) declared = n;
    }
    std::optional<BodyHandling> handling =
        options_.accept_body(request.method, request.path, request.query, request.headers, declared);
    if (handling && handling->body != nullptr) {
      request.body = std::move(handling->body);
      if (ConnectionRecord* record = connection_record(connection)) {
        std::lock_guard lock(connections_mutex_);
        record->body_deadline = Clock::now() + std::chrono::seconds(limits_.request_body_deadline_s);
      }
      return MHD_YES;
    }
    if (handling) {
      request.note = "request body refused unread";
      return queue_answer(connection, request, std::move(handling->refusal));
    }
  }
  if (has_body) {
    request.note = "request body refused unread";
    // Any method but GET and HEAD is the router's 405, answered before it routes anything.
    const bool read_only = request.method == "GET" || request.method == "HEAD";
    return queue_answer(connection, request,
                        read_only
                            ? text_response(413, "this resource takes no request body (the REST API is read-only)\n")
                            : router_.handle(request.method, url, QueryParams{}));
  }
  request.path = url;
  read_query(connection, request.query);
  read_hook_headers(connection, request.headers);
  return MHD_YES;
}

MHD_Result Server::dispatch(MHD_Connection* connection, RequestRecord& request) {
  // Answered on a pool thread; the connection waits aside (suspended) and is resumed once the
  // answer is ready. Suspended first, so a fast answer cannot resume it before that.
  request.dispatched = true;
  ++active_requests_;
  if (request.body != nullptr) {
    if (ConnectionRecord* record = connection_record(connection)) {
      std::lock_guard lock(connections_mutex_);
      record->body_deadline.reset();
    }
  }
  mhd().suspend_connection(connection);
  auto task = [this, connection, &request] {
    try {
      request.answer = request.body != nullptr ? request.body->finish() : route(request);
    } catch (const std::exception& e) {  // out of memory, or a bug: the request fails, not the server
      request.answer = text_response(500, std::string("internal error: ") + e.what() + "\n");
    }
    request.answer_ready.store(true, std::memory_order_release);
    mhd().resume_connection(connection);
  };
  if (!requests_.try_submit(std::move(task))) {
    request.answer = busy_response(std::to_string(limits_.max_waiting_requests) + " requests are waiting");
    request.note = "request queue full";
    request.answer_ready.store(true, std::memory_order_release);
    mhd().resume_connection(connection);
  }
  return MHD_YES;
}

RestResponse Server::route(const RequestRecord& request) const {
  const std::string& path = request.path;
  if (path.rfind("/api/v1/", 0) == 0 || path == "/api/v1") return router_.handle(request.method, path, request.query);
  if (options_.other_routes) return options_.other_routes(request.method, path, request.query, request.headers);
  if (path == "/" || path.empty()) {
    return text_response(
        200, "sparkforensics serve: the Spark History Server REST API is under /api/v1/ (try /api/v1/applications)\n");
  }
  return text_response(404, "unknown resource: " + path + " (the REST API is under /api/v1/)\n");
}

MHD_Result Server::queue_answer(MHD_Connection* connection, RequestRecord& request, RestResponse answer) {
  MHD_Response* response = nullptr;
  if (answer.write_body && request.method != "HEAD") {
    auto stream = std::make_shared<StreamedBody>(connection, limits_.stream_buffer_bytes);
    auto writer = [stream, write_body = std::move(answer.write_body)] {
      stream->finish(write_body([&stream](std::string_view bytes) { return stream->write(bytes); }));
    };
    if (downloads_.try_submit(std::move(writer))) {
      request.stream = stream;
      response = mhd().create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024, read_streamed_body,
                                                     new std::shared_ptr<StreamedBody>(stream), release_streamed_body);
    } else {
      answer = busy_response(std::to_string(limits_.download_threads + limits_.max_waiting_downloads) +
                             " downloads are being written or waiting");
      request.note = "download queue full";
    }
  }
  if (response == nullptr) {
    auto* body = new std::string(std::move(answer.body));
    request.body_bytes = body->size();
    response = mhd().create_response_from_buffer_with_free_callback_cls(
        body->size(), body->data(), [](void* owned) { delete static_cast<std::string*>(owned); }, body);
  }
  if (response == nullptr) return MHD_NO;  // out of memory: the library closes the connection
  mhd().add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, answer.content_type.c_str());
  if (!answer.content_disposition.empty()) {
    mhd().add_response_header(response, "Content-Disposition", answer.content_disposition.c_str());
  }
  for (const auto& [name, value] : answer.headers) mhd().add_response_header(response, name.c_str(), value.c_str());
  if (answer.status == 503) {
    mhd().add_response_header(response, "Retry-After", "1");
    mhd().add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
  }
  request.status = answer.status;
  const MHD_Result queued = mhd().queue_response(connection, static_cast<unsigned>(answer.status), response);
  mhd().destroy_response(response);
  return queued;
}

void Server::close_connections_past_deadline() {
  const auto now = Clock::now();
  std::lock_guard lock(connections_mutex_);
  for (ConnectionRecord* record : connections_) {
    if (record->closed_by_deadline) continue;
    const bool head_late = record->head_deadline && *record->head_deadline <= now;
    const bool body_late = record->body_deadline && *record->body_deadline <= now;
    if (!head_late && !body_late) continue;
    record->closed_by_deadline = true;
    log(record->address + " - " + (record->target_being_read.empty() ? "-" : record->target_being_read) +
        " 408 0 bytes (" +
        (head_late ? "request head not complete within " + std::to_string(limits_.request_head_deadline_s)
                   : "request body not complete within " + std::to_string(limits_.request_body_deadline_s)) +
        " s: connection closed)");
    // The library sees the end of the stream and closes the connection itself (it owns the
    // descriptor: closing it here could close another connection's reused one).
    shutdown(record->fd, SHUT_RDWR);
  }
}

void Server::rescan_directory() {
  auto report = logs_.rescan();
  if (!report) {
    log("rescan failed: " + report.error().message());
    return;
  }
  for (const auto& problem : report->unreadable) log("not listed: " + problem);
  if (report->read > 0 || report->removed > 0) {
    log("rescan: " + std::to_string(report->logs) + " logs, " + std::to_string(report->read) +
        " read (new or changed), " + std::to_string(report->removed) + " removed");
  }
}

Status Server::run(const std::atomic<bool>& stop_requested) {
  auto listening = listen_on(options_.host, options_.port);
  if (!listening) return listening.error();
  unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME;
  if (listening->family == AF_INET6) flags |= MHD_USE_IPv6;
  MHD_Daemon* daemon =
      mhd().start_daemon(flags, 0, nullptr, nullptr, &Server::on_request, this,                         //
                         MHD_OPTION_LISTEN_SOCKET, listening->fd,                                       //
                         MHD_OPTION_CONNECTION_MEMORY_LIMIT, limits_.connection_memory_bytes,           //
                         MHD_OPTION_CONNECTION_LIMIT, limits_.max_connections,                          //
                         MHD_OPTION_CONNECTION_TIMEOUT, static_cast<unsigned>(limits_.idle_timeout_s),  //
                         MHD_OPTION_URI_LOG_CALLBACK, &Server::on_request_line, this,                   //
                         MHD_OPTION_NOTIFY_COMPLETED, &Server::on_request_completed, this,              //
                         MHD_OPTION_NOTIFY_CONNECTION, &Server::on_connection, this,                    //
                         MHD_OPTION_END);
  if (daemon == nullptr) {
    close(listening->fd);
    return Status::IOError("cannot start the HTTP server on " + options_.host + ":" + std::to_string(listening->port));
  }
  if (options_.on_listening) options_.on_listening(listening->port);

  // This thread watches for the stop request, closes connections past their head deadline, and
  // rescans the directory at the interval.
  auto last_scan = Clock::now();
  while (!stop_requested.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    close_connections_past_deadline();
    if (options_.rescan_interval_s > 0 &&
        Clock::now() - last_scan >= std::chrono::seconds(options_.rescan_interval_s)) {
      rescan_directory();
      last_scan = Clock::now();
    }
  }
  // Stop accepting; answer what is in flight (later requests on open connections get 503); the
  // library must not be stopped while a connection is suspended.
  const MHD_socket listener = mhd().quiesce_daemon(daemon);
  if (listener != MHD_INVALID_SOCKET) close(listener);
  stopping_.store(true);
  while (active_requests_.load() > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    close_connections_past_deadline();
  }
  requests_.finish();
  downloads_.finish();
  mhd().stop_daemon(daemon);
  return Status();
}

}  // namespace

Status run_http_server(catalog::LogCatalog& logs, const RestRouter& router, const HttpServerOptions& options,
                       const std::atomic<bool>& stop_requested) {
  if (auto loaded = libmicrohttpd(); !loaded) return loaded.error();
  Server server(logs, router, options);
  return server.run(stop_requested);
}

}  // namespace sf::server

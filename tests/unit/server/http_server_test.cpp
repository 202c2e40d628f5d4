// The HTTP transport in process, over real loopback sockets, with limits small enough to reach
// in a test: a request head unfinished by its deadline, the streamed /logs zip against the whole
// archive, a download cut by damage, and the bounded request pool.
// (tests/e2e/serve_hostile_clients_test.py attacks the binary with the default limits.)
#include "server/http/http_server.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <latch>
#include <mutex>
#include <thread>

#include "history_server/log_zip.h"
#include "loggen/log_generator.h"
#include "server/http/request_pool.h"

namespace sf::server {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

int connect_to(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  return fd;
}

// Reads until the server closes the connection or `limit` passes; `closed` says which.
std::string read_until_closed(int fd, std::chrono::milliseconds limit, bool* closed = nullptr) {
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  if (closed != nullptr) *closed = false;
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd ready{fd, POLLIN, 0};
    if (poll(&ready, 1, 100) <= 0) continue;
    char buffer[65536];
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) {
      if (closed != nullptr) *closed = true;
      break;
    }
    out.append(buffer, static_cast<size_t>(n));
  }
  return out;
}

struct ChunkedAnswer {
  std::string head;
  std::string body;
  bool finished = false;  // the last (empty) chunk came
};

ChunkedAnswer dechunk(const std::string& answer) {
  ChunkedAnswer out;
  const size_t head_end = answer.find("\r\n\r\n");
  if (head_end == std::string::npos) return out;
  out.head = answer.substr(0, head_end);
  size_t at = head_end + 4;
  for (;;) {
    const size_t line_end = answer.find("\r\n", at);
    if (line_end == std::string::npos) return out;
    const size_t size = std::stoul(answer.substr(at, line_end - at), nullptr, 16);
    if (size == 0) {
      out.finished = true;
      return out;
    }
    if (line_end + 2 + size > answer.size()) return out;
    out.body.append(answer, line_end + 2, size);
    at = line_end + 2 + size + 2;
  }
}

class HttpServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("sf_http_server_tests_" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    loggen::LogWriteOptions zstd_file;
    zstd_file.codec = io::Codec::kZstd;
    file_log_ = new fs::path(loggen::write_event_log(loggen::GeneratorConfig::small(), zstd_file, *dir_, nullptr).path);
    loggen::GeneratorConfig other = loggen::GeneratorConfig::small();
    other.seed = 2;
    loggen::LogWriteOptions rolling;
    rolling.layout = loggen::LogLayout::kRolling;
    rolling.rolling_max_part_bytes = 64 << 10;
    rolling_log_ = new fs::path(loggen::write_event_log(other, rolling, *dir_, nullptr).path);
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(*dir_, ec);
    delete dir_;
    delete file_log_;
    delete rolling_log_;
  }

  void start(const HttpLimits& limits, const fs::path& log_directory = *dir_) {
    catalog::CatalogOptions catalog_options;
    catalog_options.root = *io::PathConfinement::to(log_directory.string());
    logs_ = std::make_unique<catalog::LogCatalog>(catalog_options);
    ASSERT_TRUE(logs_->rescan().has_value());
    router_ = std::make_unique<RestRouter>(*logs_);
    options_.port = 0;
    options_.rescan_interval_s = 0;
    options_.limits = limits;
    std::promise<int> listening;
    options_.on_listening = [&listening](int port) { listening.set_value(port); };
    options_.log_line = [this](const std::string& line) {
      std::lock_guard lock(log_mutex_);
      log_ += line + "\n";
    };
    server_ = std::thread([this] { status_ = run_http_server(*logs_, *router_, options_, stop_); });
    auto port = listening.get_future();
    ASSERT_EQ(port.wait_for(10s), std::future_status::ready);
    port_ = port.get();
  }
  void SetUp() override { options_.threads = 2; }
  void TearDown() override {
    stop_ = true;
    if (server_.joinable()) server_.join();
    EXPECT_TRUE(status_.ok()) << status_.message();
  }
  std::string log() {
    std::lock_guard lock(log_mutex_);
    return log_;
  }
  std::string get(const std::string& target) {
    const int fd = connect_to(port_);
    const std::string request = "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    EXPECT_EQ(send(fd, request.data(), request.size(), 0), static_cast<ssize_t>(request.size()));
    std::string answer = read_until_closed(fd, 60s);
    close(fd);
    return answer;
  }
  static std::string app_id_of(const fs::path& log) {
    const std::string name = log.filename().string();  // application_..._NNNN[.zstd] or eventlog_v2_<id>
    const std::string id = name.starts_with("eventlog_v2_") ? name.substr(12) : name;
    return id.substr(0, id.find('.'));
  }

  static fs::path* dir_;
  static fs::path* file_log_;
  static fs::path* rolling_log_;
  std::unique_ptr<catalog::LogCatalog> logs_;
  std::unique_ptr<RestRouter> router_;
  HttpServerOptions options_;
  std::atomic<bool> stop_{false};
  std::thread server_;
  Status status_;
  int port_ = 0;
  std::mutex log_mutex_;
  std::string log_;
};

fs::path* HttpServerTest::dir_ = nullptr;
fs::path* HttpServerTest::file_log_ = nullptr;
fs::path* HttpServerTest::rolling_log_ = nullptr;

// A client sending its head a byte at a time is closed once the deadline passes (it held a
// thread for as long as it kept sending), and the request log says so.
TEST_F(HttpServerTest, AHeadUnfinishedByItsDeadlineIsClosedAndLogged408) {
  HttpLimits limits;
  limits.request_head_deadline_s = 1;
  start(limits);
  const int fd = connect_to(port_);
  const std::string line = "GET /api/v1/applications HTTP/1.1\r\n";  // at once, then the rest slowly
  ASSERT_EQ(send(fd, line.data(), line.size(), 0), static_cast<ssize_t>(line.size()));
  const std::string head = "Host: localhost\r\nX-Slow: " + std::string(200, 'a');
  bool closed = false;
  for (size_t i = 0; i < head.size() && !closed; ++i) {
    if (send(fd, &head[i], 1, MSG_NOSIGNAL) != 1) break;
    read_until_closed(fd, 200ms, &closed);
  }
  close(fd);
  EXPECT_TRUE(closed) << "still open after " << head.size() << " bytes at 5 a second";
  EXPECT_NE(log().find(" /api/v1/applications 408 "), std::string::npos) << log();
  // Other clients are answered as before.
  EXPECT_EQ(get("/api/v1/applications").substr(0, 12), "HTTP/1.1 200");
}

// The download is sent as it is made (chunked), and its bytes are exactly the archive that
// zip_event_log builds whole (the bytes /logs answered before it streamed).
TEST_F(HttpServerTest, TheStreamedLogsZipIsByteForByteTheWholeArchive) {
  HttpLimits limits;
  limits.stream_buffer_bytes = 4096;  // the writer waits on the connection many times over
  start(limits);
  for (const fs::path* log_path : {file_log_, rolling_log_}) {
    const ChunkedAnswer answer = dechunk(get("/api/v1/applications/" + app_id_of(*log_path) + "/logs"));
    ASSERT_EQ(answer.head.substr(0, 12), "HTTP/1.1 200") << answer.head;
    EXPECT_NE(answer.head.find("Transfer-Encoding: chunked"), std::string::npos) << answer.head;
    EXPECT_TRUE(answer.finished);
    auto whole = history_server::zip_event_log(log_path->string());
    ASSERT_TRUE(whole.has_value()) << whole.error().message();
    EXPECT_EQ(answer.body.size(), whole->size()) << *log_path;
    EXPECT_TRUE(answer.body == *whole) << *log_path;
  }
}

// A log damaged part-way is found only after bytes went out: the answer ends without its last
// chunk (a client sees the transfer cut, never a whole-looking zip), and the log says why.
TEST_F(HttpServerTest, ADownloadCutByDamageEndsUnfinishedAndSaysWhy) {
  const fs::path damaged = *dir_ / "damaged";
  fs::create_directories(damaged);
  const fs::path copy = damaged / file_log_->filename();
  fs::copy_file(*file_log_, copy, fs::copy_options::overwrite_existing);
  fs::resize_file(copy, fs::file_size(copy) * 2 / 3);
  auto zip = history_server::EventLogZip::open(copy.string());
  ASSERT_TRUE(zip.has_value());
  size_t written = 0;
  EXPECT_FALSE(zip->write([&](std::string_view bytes) {
                    written += bytes.size();
                    return true;
                  })
                   .ok());
  EXPECT_GT(written, 0u) << "the damage comes after the first bytes";

  start(HttpLimits{}, damaged);
  const ChunkedAnswer answer = dechunk(get("/api/v1/applications/" + app_id_of(copy) + "/logs"));
  EXPECT_EQ(answer.head.substr(0, 12), "HTTP/1.1 200") << answer.head;
  EXPECT_FALSE(answer.finished) << "a cut download must not end as a whole one";
  EXPECT_NE(log().find("/logs 200 "), std::string::npos) << log();
  EXPECT_NE(log().find("body cut: "), std::string::npos) << log();
}

// Past the running threads and the queue a request is answered 503 at once, with Retry-After,
// rather than left waiting; the ones taken are answered. One thread, no queue: 16 requests sent
// together for a model not yet loaded.
TEST_F(HttpServerTest, RequestsPastTheThreadsAndTheQueueAre503WithRetryAfter) {
  HttpLimits limits;
  limits.max_waiting_requests = 0;
  options_.threads = 1;
  start(limits);
  std::vector<int> clients;
  for (int i = 0; i < 16; ++i) clients.push_back(connect_to(port_));
  const std::string request = "GET /api/v1/applications/" + app_id_of(*rolling_log_) +
                              "/stages HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
  for (int fd : clients) ASSERT_EQ(send(fd, request.data(), request.size(), 0), static_cast<ssize_t>(request.size()));
  int answered = 0;
  int busy = 0;
  for (int fd : clients) {
    const std::string answer = read_until_closed(fd, 60s);
    close(fd);
    if (answer.starts_with("HTTP/1.1 200")) ++answered;
    if (answer.starts_with("HTTP/1.1 503")) {
      ++busy;
      EXPECT_NE(answer.find("Retry-After: 1"), std::string::npos) << answer;
    }
  }
  EXPECT_EQ(answered + busy, 16);
  EXPECT_GE(answered, 1);
  EXPECT_GE(busy, 1) << "16 requests at once on one thread with no queue";
  EXPECT_NE(log().find(" 503 "), std::string::npos) << log();
}

TEST(RequestPool, TasksPastTheThreadsAndTheQueueAreRefusedAndEveryAcceptedOneRuns) {
  std::latch release(1);
  std::atomic<int> ran{0};
  {
    RequestPool pool(2, 3);
    int accepted = 0;
    for (int i = 0; i < 8; ++i) {
      accepted += pool.try_submit([&] {
        release.wait();
        ++ran;
      });
    }
    EXPECT_EQ(accepted, 5);  // two running, three waiting
    release.count_down();
    pool.finish();
    EXPECT_FALSE(pool.try_submit([] {})) << "a finished pool takes nothing";
  }
  EXPECT_EQ(ran.load(), 5);
}

}  // namespace
}  // namespace sf::server

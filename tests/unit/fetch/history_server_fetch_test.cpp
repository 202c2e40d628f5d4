// The download against a History Server stand-in served by cpp-httplib on the loopback: a zip
// the loader reads, and each failure with its stable code: not found, redirect (not followed),
// oversize, an error status, no server, a timeout, a cancellation. No credentials are sent.
#include "fetch/history_server_fetch.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace sf::fetch {
namespace {

namespace fs = std::filesystem;

class HistoryServerFetch : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sf-fetch-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    server_.Get("/shs/api/v1/applications/local-1/logs", [this](const httplib::Request& request,
                                                                httplib::Response& response) {
      saw_authorization_ = saw_authorization_ || request.has_header("Authorization") || request.has_header("Cookie");
      response.set_content(body_, "application/zip");
    });
    server_.Get("/shs/api/v1/applications/local-1/2/logs", [](const httplib::Request&, httplib::Response& response) {
      response.set_content("attempt two", "application/zip");
    });
    server_.Get("/shs/api/v1/applications/local-302/logs", [](const httplib::Request&, httplib::Response& response) {
      response.set_redirect("http://127.0.0.1:1/elsewhere");
    });
    server_.Get("/shs/api/v1/applications/local-500/logs", [](const httplib::Request&, httplib::Response& response) {
      response.status = 500;
      response.set_content("stack trace with secrets", "text/plain");
    });
    server_.Get("/shs/api/v1/applications/app-big/logs", [](const httplib::Request&, httplib::Response& response) {
      response.set_content(std::string(4096, 'z'), "application/zip");
    });
    server_.Get("/shs/api/v1/applications/app-chunked/logs", [](const httplib::Request&, httplib::Response& response) {
      response.set_chunked_content_provider("application/zip", [](size_t, httplib::DataSink& sink) {
        const std::string chunk(1024, 'c');
        for (int i = 0; i < 8; ++i) sink.write(chunk.data(), chunk.size());
        sink.done();
        return true;
      });
    });
    server_.Get("/shs/api/v1/applications/app-slow/logs", [](const httplib::Request&, httplib::Response& response) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      response.set_content("late", "application/zip");
    });
    // Starts its answer, then sends nothing for 3 s.
    server_.Get("/shs/api/v1/applications/app-stalls/logs", [](const httplib::Request&, httplib::Response& response) {
      response.set_chunked_content_provider("application/zip", [](size_t offset, httplib::DataSink& sink) {
        if (offset > 0) {
          std::this_thread::sleep_for(std::chrono::seconds(3));
          sink.done();
          return true;
        }
        const std::string chunk(1024, 's');
        sink.write(chunk.data(), chunk.size());
        return true;
      });
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    ASSERT_GT(port_, 0);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 200 && !server_.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  void TearDown() override {
    server_.stop();
    thread_.join();
    fs::remove_all(dir_);
  }

  HistoryServerRequest request(const std::string& app, const std::string& attempt = "") {
    auto validated =
        validate_history_server_request("http://127.0.0.1:" + std::to_string(port_) + "/shs", app, attempt);
    EXPECT_TRUE(validated.has_value());
    return *validated;
  }

  static std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::optional<HistoryServerError> code_of(const Result<FetchedLogs>& fetched) {
    return fetched ? std::nullopt : history_server_error_of(fetched.error());
  }

  fs::path dir_;
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::string body_ = std::string("PK\x03\x04", 4) + "zip bytes";
  std::atomic<bool> saw_authorization_{false};
};

TEST_F(HistoryServerFetch, SavesTheBodyOfTheLogsEndpointUnderItsPrefix) {
  auto fetched = fetch_history_server_logs(request("local-1"), dir_ / "a.zip");
  ASSERT_TRUE(fetched.has_value()) << fetched.error().message();
  EXPECT_EQ(read(fetched->path), body_);
  EXPECT_EQ(fetched->bytes, body_.size());
  EXPECT_FALSE(saw_authorization_.load());
  auto attempt = fetch_history_server_logs(request("local-1", "2"), dir_ / "b.zip");
  ASSERT_TRUE(attempt.has_value());
  EXPECT_EQ(read(attempt->path), "attempt two");
}

TEST_F(HistoryServerFetch, FailuresCarryTheirStableCodeAndLeaveNoFile) {
  auto missing = fetch_history_server_logs(request("local-404"), dir_ / "m.zip");
  EXPECT_EQ(code_of(missing), HistoryServerError::kNotFound);
  auto redirected = fetch_history_server_logs(request("local-302"), dir_ / "r.zip");
  EXPECT_EQ(code_of(redirected), HistoryServerError::kRedirect);
  EXPECT_EQ(redirected.error().message().find("elsewhere"), std::string::npos);  // the location is not repeated
  auto failed = fetch_history_server_logs(request("local-500"), dir_ / "e.zip");
  EXPECT_EQ(code_of(failed), HistoryServerError::kUpstreamError);
  EXPECT_EQ(failed.error().message().find("secrets"), std::string::npos);  // nor the body
  for (const char* name : {"m.zip", "r.zip", "e.zip"}) EXPECT_FALSE(fs::exists(dir_ / name)) << name;
}

TEST_F(HistoryServerFetch, TheSizeLimitHoldsWithAndWithoutAContentLength) {
  FetchOptions small;
  small.max_bytes = 1000;
  EXPECT_EQ(code_of(fetch_history_server_logs(request("app-big"), dir_ / "big.zip", small)),
            HistoryServerError::kTooLarge);
  EXPECT_EQ(code_of(fetch_history_server_logs(request("app-chunked"), dir_ / "chunked.zip", small)),
            HistoryServerError::kTooLarge);
  EXPECT_FALSE(fs::exists(dir_ / "chunked.zip"));
  auto fits = fetch_history_server_logs(request("app-chunked"), dir_ / "fits.zip");
  ASSERT_TRUE(fits.has_value());
  EXPECT_EQ(fits->bytes, 8u * 1024u);
}

// Issue 21, item 12: a server that stops sending is given up after the stall time, not the whole
// transfer's ten minutes, and the message says it stalled.
TEST_F(HistoryServerFetch, AStalledTransferIsGivenUpAfterTheStallTime) {
  FetchOptions options;
  options.stall_timeout_ms = 1000;
  const auto fetched = fetch_history_server_logs(request("app-stalls"), dir_ / "stalled.zip", options);
  EXPECT_EQ(code_of(fetched), HistoryServerError::kTimeout);
  ASSERT_FALSE(fetched.has_value());
  EXPECT_NE(fetched.error().message().find("sent nothing for 1 s"), std::string::npos) << fetched.error().message();
  EXPECT_FALSE(fs::exists(dir_ / "stalled.zip"));
}

TEST_F(HistoryServerFetch, TimeoutCancellationAndNoServer) {
  FetchOptions quick;
  quick.timeout_ms = 200;
  EXPECT_EQ(code_of(fetch_history_server_logs(request("app-slow"), dir_ / "slow.zip", quick)),
            HistoryServerError::kTimeout);
  std::atomic<bool> cancel{true};
  FetchOptions cancelled;
  cancelled.cancel = &cancel;
  EXPECT_EQ(code_of(fetch_history_server_logs(request("app-slow"), dir_ / "c.zip", cancelled)),
            HistoryServerError::kCancelled);
  auto nowhere = validate_history_server_request("http://127.0.0.1:1/", "local-1");
  ASSERT_TRUE(nowhere.has_value());
  EXPECT_EQ(code_of(fetch_history_server_logs(*nowhere, dir_ / "n.zip")), HistoryServerError::kUnreachable);
}

}  // namespace
}  // namespace sf::fetch

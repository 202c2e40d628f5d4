// The History Server request contract: which base URLs and ids are accepted, how the base URL
// is made canonical, and the stable code of every refusal.
#include "fetch/history_server_request.h"

#include <gtest/gtest.h>

namespace sf::fetch {
namespace {

std::optional<HistoryServerError> refusal(std::string_view base,
                                          std::string_view app = "application_1700000000000_0001",
                                          std::string_view attempt = "") {
  auto request = validate_history_server_request(base, app, attempt);
  if (request) return std::nullopt;
  return history_server_error_of(request.error());
}

TEST(HistoryServerRequest, CanonicalBaseUrlHasOneTrailingSlashAndKeepsThePrefix) {
  struct Case {
    std::string given, canonical;
  };
  for (const auto& c : std::vector<Case>{
           {"http://shs:18080", "http://shs:18080/"},
           {"http://shs:18080/", "http://shs:18080/"},
           {"  https://shs.example.com/  ", "https://shs.example.com/"},
           {"http://gateway/proxy/shs", "http://gateway/proxy/shs/"},
           {"http://gateway/proxy/shs///", "http://gateway/proxy/shs/"},
           {"HTTP://shs:18080/a/../b", "http://shs:18080/b/"},
           {"http://[::1]:18080/x", "http://[::1]:18080/x/"},
       }) {
    auto request = validate_history_server_request(c.given, "local-1700000000000");
    ASSERT_TRUE(request.has_value()) << c.given << ": " << request.error().message();
    EXPECT_EQ(request->base_url, c.canonical) << c.given;
  }
}

TEST(HistoryServerRequest, LogsUrlIsBuiltFromTheValidatedFields) {
  auto request = validate_history_server_request("http://gw/shs", " application_1700000000000_0042 ", " 2 ");
  ASSERT_TRUE(request.has_value());
  EXPECT_EQ(request->logs_url(), "http://gw/shs/api/v1/applications/application_1700000000000_0042/2/logs");
  auto no_attempt = validate_history_server_request("http://gw/", "app-20240101120000-0001");
  ASSERT_TRUE(no_attempt.has_value());
  EXPECT_FALSE(no_attempt->attempt_id.has_value());
  EXPECT_EQ(no_attempt->logs_url(), "http://gw/api/v1/applications/app-20240101120000-0001/logs");
}

TEST(HistoryServerRequest, BaseUrlsOutsideTheContractAreRefused) {
  for (const std::string& base : std::vector<std::string>{
           "", "   ", "shs:18080", "/api/v1", "ftp://shs/", "file:///etc/passwd", "http://user:secret@shs/",
           "http://user@shs/", "http://shs/?x=1", "http://shs/#frag", "http://shs/a b", "http:///path",
           "javascript:alert(1)", "http://shs/\nx", "http://", std::string("http://") + std::string(3000, 'a') + "/"}) {
    EXPECT_EQ(refusal(base), HistoryServerError::kInvalidBaseUrl) << "\"" << base << "\"";
  }
}

TEST(HistoryServerRequest, CredentialsAreNeverEchoedInTheMessage) {
  auto request = validate_history_server_request("http://alice:hunter2@shs/", "local-1");
  ASSERT_FALSE(request.has_value());
  EXPECT_EQ(request.error().message().find("hunter2"), std::string::npos);
  EXPECT_EQ(request.error().message().find("alice"), std::string::npos);
  EXPECT_EQ(request.error().code(), StatusCode::kInvalidArgument);
}

TEST(HistoryServerRequest, ApplicationIdsOfTheSupportedShapesOnly) {
  for (const std::string app :
       {"application_1700000000000_0001", "local-1642039451826", "app-20240101120000-0001", "app-x.y_z"}) {
    EXPECT_EQ(refusal("http://shs/", app), std::nullopt) << app;
  }
  for (const std::string app : {"", "application_17_", "application_x_1", "local-abc", "app-", "spark-1", "../etc",
                                "app-1/../../x", "app-1/2", "app-1\\2", "app-1%2F2", "local-1 ", "app-.."}) {
    if (app == "local-1 ") continue;  // trimmed: accepted below
    EXPECT_EQ(refusal("http://shs/", app), HistoryServerError::kInvalidAppId) << app;
  }
  EXPECT_EQ(refusal("http://shs/", "local-1 "), std::nullopt);
}

TEST(HistoryServerRequest, AttemptIdsArePathSafe) {
  for (const std::string attempt : {"1", "2", "attempt_1.a-b"}) {
    EXPECT_EQ(refusal("http://shs/", "local-1", attempt), std::nullopt) << attempt;
  }
  for (const std::string& attempt :
       std::vector<std::string>{".", "..", "1/2", "a b", "%2e%2e", "1?x", std::string(200, '1')}) {
    EXPECT_EQ(refusal("http://shs/", "local-1", attempt), HistoryServerError::kInvalidAttemptId) << attempt;
  }
}

TEST(HistoryServerRequest, EveryCodeHasAStableNameThatReadsBack) {
  for (int i = 0; i <= static_cast<int>(HistoryServerError::kWriteFailed); ++i) {
    const auto error = static_cast<HistoryServerError>(i);
    const Status status = history_server_status(error, "message");
    EXPECT_EQ(history_server_error_of(status), error) << to_string(error);
    std::string code = "[";
    code.append(to_string(error));
    EXPECT_TRUE(status.message().starts_with(code)) << status.message();
    EXPECT_TRUE(status.message().ends_with("] message")) << status.message();
  }
  EXPECT_EQ(history_server_error_of(Status::IOError("[nope] x")), std::nullopt);
  EXPECT_EQ(to_string(HistoryServerError::kRedirect), "redirect");
  EXPECT_EQ(to_string(HistoryServerError::kTooLarge), "too-large");
}

}  // namespace
}  // namespace sf::fetch

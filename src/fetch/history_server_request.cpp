#include "fetch/history_server_request.h"

#include <fmt/format.h>

#include <memory>
#include <regex>

#include "common/text.h"
#include "fetch/curl_library.h"

namespace sf::fetch {

namespace {

using text::trim;

bool has_control_or_space(std::string_view text) {
  for (unsigned char c : text) {
    if (c <= 0x20 || c == 0x7f) return true;
  }
  return false;
}

// A path-safe identifier: letters, digits, '.', '_', '-'; never "." or "..".
bool is_path_safe_id(std::string_view id) {
  static const std::regex pattern("[A-Za-z0-9._-]+");
  if (id.empty() || id.size() > kMaxIdBytes || id == "." || id == "..") return false;
  return std::regex_match(id.begin(), id.end(), pattern);
}

bool is_supported_app_id(std::string_view id) {
  static const std::regex pattern("application_[0-9]+_[0-9]+|local-[0-9]+|app-[A-Za-z0-9][A-Za-z0-9._-]*");
  return is_path_safe_id(id) && std::regex_match(id.begin(), id.end(), pattern);
}

struct UrlDeleter {
  const CurlFunctions* curl;
  void operator()(CURLU* url) const { curl->url_cleanup(url); }
};

// A part of a parsed URL, or nullopt when the URL has none.
std::optional<std::string> url_part(const CurlFunctions& curl, CURLU* url, CURLUPart part) {
  char* value = nullptr;
  if (curl.url_get(url, part, &value, 0) != CURLUE_OK || value == nullptr) return std::nullopt;
  std::string text(value);
  curl.free(value);
  return text;
}

Status invalid_base_url(std::string_view why) {
  return history_server_status(HistoryServerError::kInvalidBaseUrl,
                               fmt::format("the History Server base URL {}; give an absolute http:// or https:// "
                                           "URL such as http://history-server:18080/ (a path prefix is kept)",
                                           why));
}

Result<std::string> canonical_base_url(std::string_view text) {
  if (text.empty()) return fail(invalid_base_url("is empty"));
  if (text.size() > kMaxBaseUrlBytes) return fail(invalid_base_url("is too long"));
  if (has_control_or_space(text)) return fail(invalid_base_url("holds spaces or control characters"));
  // '?' and '#' can only start a query or a fragment; inside a path they are percent-encoded.
  if (text.find('?') != std::string_view::npos) return fail(invalid_base_url("has a query (?...)"));
  if (text.find('#') != std::string_view::npos) return fail(invalid_base_url("has a fragment (#...)"));

  // curl reads "http:///x" as host "x"; an absolute URL has its authority right after "//".
  const size_t authority = text.find("://");
  if (authority == std::string_view::npos) return fail(invalid_base_url("is not an absolute URL"));
  if (authority + 3 >= text.size() || text[authority + 3] == '/') return fail(invalid_base_url("has no host"));

  auto curl = fetch::curl();
  if (!curl) return fail(history_server_status(HistoryServerError::kInvalidBaseUrl, curl.error().message()));
  const CurlFunctions& c = **curl;
  std::unique_ptr<CURLU, UrlDeleter> url(c.url(), UrlDeleter{&c});
  if (!url) return fail(invalid_base_url("could not be parsed"));
  const std::string owned(text);
  if (c.url_set(url.get(), CURLUPART_URL, owned.c_str(), 0) != CURLUE_OK) {
    return fail(invalid_base_url("is not an absolute URL"));
  }
  const auto scheme = url_part(c, url.get(), CURLUPART_SCHEME);
  if (!scheme || (*scheme != "http" && *scheme != "https")) return fail(invalid_base_url("is not http or https"));
  if (url_part(c, url.get(), CURLUPART_USER) || url_part(c, url.get(), CURLUPART_PASSWORD) ||
      url_part(c, url.get(), CURLUPART_OPTIONS) || owned.find('@') != std::string::npos) {
    return fail(invalid_base_url("holds credentials (user@ or user:password@); they are never sent"));
  }
  const auto host = url_part(c, url.get(), CURLUPART_HOST);
  if (!host || host->empty()) return fail(invalid_base_url("has no host"));

  std::string path = url_part(c, url.get(), CURLUPART_PATH).value_or("/");
  while (!path.empty() && path.back() == '/') path.pop_back();
  path += '/';
  if (c.url_set(url.get(), CURLUPART_PATH, path.c_str(), 0) != CURLUE_OK) {
    return fail(invalid_base_url("has a path that cannot be used"));
  }
  auto canonical = url_part(c, url.get(), CURLUPART_URL);
  if (!canonical) return fail(invalid_base_url("could not be rebuilt"));
  return *canonical;
}

}  // namespace

std::string_view to_string(HistoryServerError error) {
  switch (error) {
    case HistoryServerError::kInvalidBaseUrl: return "invalid-base-url";
    case HistoryServerError::kInvalidAppId: return "invalid-app-id";
    case HistoryServerError::kInvalidAttemptId: return "invalid-attempt-id";
    case HistoryServerError::kUnreachable: return "unreachable";
    case HistoryServerError::kTimeout: return "timeout";
    case HistoryServerError::kRedirect: return "redirect";
    case HistoryServerError::kNotFound: return "not-found";
    case HistoryServerError::kUpstreamError: return "upstream-error";
    case HistoryServerError::kTooLarge: return "too-large";
    case HistoryServerError::kCancelled: return "cancelled";
    case HistoryServerError::kWriteFailed: return "write-failed";
  }
  return "upstream-error";
}

Status history_server_status(HistoryServerError error, std::string_view message) {
  std::string text = fmt::format("[{}] {}", to_string(error), message);
  switch (error) {
    case HistoryServerError::kInvalidBaseUrl:
    case HistoryServerError::kInvalidAppId:
    case HistoryServerError::kInvalidAttemptId: return Status::InvalidArgument(std::move(text));
    case HistoryServerError::kNotFound: return Status::NotFound(std::move(text));
    case HistoryServerError::kTooLarge: return Status::LimitExceeded(std::move(text));
    case HistoryServerError::kCancelled: return Status::Cancelled(std::move(text));
    default: return Status::IOError(std::move(text));
  }
}

std::optional<HistoryServerError> history_server_error_of(const Status& status) {
  const std::string& message = status.message();
  if (message.empty() || message.front() != '[') return std::nullopt;
  const size_t end = message.find(']');
  if (end == std::string::npos) return std::nullopt;
  const std::string_view code(message.data() + 1, end - 1);
  for (int i = 0; i <= static_cast<int>(HistoryServerError::kWriteFailed); ++i) {
    const auto error = static_cast<HistoryServerError>(i);
    if (to_string(error) == code) return error;
  }
  return std::nullopt;
}

std::string HistoryServerRequest::logs_url() const {
  std::string url = base_url + "api/v1/applications/" + app_id;
  if (attempt_id) url += "/" + *attempt_id;
  return url + "/logs";
}

Result<HistoryServerRequest> validate_history_server_request(std::string_view base_url, std::string_view app_id,
                                                             std::string_view attempt_id) {
  HistoryServerRequest request;
  auto base = canonical_base_url(trim(base_url));
  if (!base) return fail(base.error());
  request.base_url = std::move(*base);
  const std::string_view app = trim(app_id);
  if (!is_supported_app_id(app)) {
    return fail(history_server_status(
        HistoryServerError::kInvalidAppId,
        "the application id must look like application_<timestamp>_<n>, local-<timestamp> or app-<identifier> "
        "(letters, digits, '.', '_', '-')"));
  }
  request.app_id = std::string(app);
  const std::string_view attempt = trim(attempt_id);
  if (!attempt.empty()) {
    if (!is_path_safe_id(attempt)) {
      return fail(history_server_status(HistoryServerError::kInvalidAttemptId,
                                        "the attempt id must be letters, digits, '.', '_' or '-' (such as 1), "
                                        "without '/', and not . or .."));
    }
    request.attempt_id = std::string(attempt);
  }
  return request;
}

}  // namespace sf::fetch

// A request for one application's event logs from a Spark History Server, validated.
//
// The contract (shared with the dashboard's History Server intake): the three fields are
// trimmed; the base URL must be an absolute http: or https: URL with a host, no user name or
// password, no query and no fragment; its path (a reverse-proxy prefix such as /shs) is kept
// and given exactly one trailing slash. The application id must have one of the shapes Spark
// gives them (application_<timestamp>_<n> on YARN, local-<timestamp>, app-<identifier> on a
// standalone cluster); the optional attempt id is a separate path-safe identifier. Neither may
// hold a path separator, "." or "..". The upstream URL is built from the validated fields only:
// <base>api/v1/applications/<app>[/<attempt>]/logs.
//
// Every refusal carries a stable code (below) a front end can switch on, and a message that
// repeats nothing sensitive. Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace sf::fetch {

// Stable codes for everything that can go wrong asking a History Server for logs. Front ends
// show them as they are; they never change meaning.
enum class HistoryServerError {
  kInvalidBaseUrl,    // not an absolute credential-free http(s) URL without query or fragment
  kInvalidAppId,      // not application_<ts>_<n>, local-<ts> or app-<id>
  kInvalidAttemptId,  // not a path-safe identifier
  kUnreachable,       // no connection (refused, DNS, TLS)
  kTimeout,           // the connection or the transfer took too long
  kRedirect,          // the server answered with a redirect, which is never followed
  kNotFound,          // no such application or attempt (HTTP 404)
  kUpstreamError,     // any other non-success answer
  kTooLarge,          // the download passed the size limit
  kCancelled,         // the caller stopped the download
  kWriteFailed,       // the download could not be saved locally
};

// "invalid-base-url", "invalid-app-id", ..., "write-failed".
std::string_view to_string(HistoryServerError error);

// A Status for `error`: "[<code>] <message>".
Status history_server_status(HistoryServerError error, std::string_view message);
// The code inside a Status made by history_server_status; nullopt for any other Status.
std::optional<HistoryServerError> history_server_error_of(const Status& status);

struct HistoryServerRequest {
  std::string base_url;  // canonical: scheme://host[:port]/prefix/ (one trailing slash)
  std::string app_id;
  std::optional<std::string> attempt_id;

  // <base_url>api/v1/applications/<app>[/<attempt>]/logs
  std::string logs_url() const;
};

inline constexpr size_t kMaxBaseUrlBytes = 2048;
inline constexpr size_t kMaxIdBytes = 128;

// Validates and canonicalizes the three fields; attempt_id "" means no attempt.
Result<HistoryServerRequest> validate_history_server_request(std::string_view base_url, std::string_view app_id,
                                                             std::string_view attempt_id = "");

}  // namespace sf::fetch

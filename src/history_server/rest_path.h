// The History Server's REST vocabulary below /api/v1: request paths split into their parts,
// query strings, and the History Server's date strings.
//
// Pure functions on strings; no state, safe from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sf::history_server {

// A query string's parameters, percent-decoded; a repeated name keeps every value in order
// ("status=succeeded&status=failed").
using QueryParams = std::map<std::string, std::vector<std::string>>;

// A path below /api/v1 split into its parts:
// applications[/<appId>[/<attemptId>][/<resource>...]][?query].
struct RestPath {
  std::vector<std::string> segments;      // every non-empty segment: {"applications", "<id>", ...}
  std::string app_id;                     // "" for the application list (or a non-application path)
  std::optional<std::string> attempt_id;  // when the path names one
  std::vector<std::string> resource;      // {"stages", "1", "0", "taskSummary"}
  QueryParams query;
};

// Splits "applications/<id>/..." (a leading "/api/v1/" or "/" is allowed) and its query string.
// A segment after the application id that is not a known resource name is its attempt id, as
// the History Server's routing has it.
RestPath parse_rest_path(std::string_view path);

// "a=1&b=x%20y&b=z" -> {a: [1], b: ["x y", "z"]}; '+' is a space.
QueryParams parse_query_string(std::string_view query);

// A parameter decoded again as Spark's UI endpoints do (UIUtils.decodeURLParameter: Java's
// URLDecoder, '+' a space, repeated until the text no longer changes: "%2520" is " ");
// nullopt for what URLDecoder refuses, a '%' without two hex digits after it.
std::optional<std::string> decode_url_parameter(std::string_view text);

// The History Server's date format, "2015-02-03T16:43:07.191GMT", as epoch milliseconds.
std::optional<int64_t> parse_history_server_time(std::string_view text);

// A date parameter as the History Server accepts it (minDate, maxEndDate, ...):
// "2015-02-03T16:43:07.191GMT" or a day "2015-02-10" (midnight GMT).
std::optional<int64_t> parse_history_server_date_param(std::string_view text);

// Epoch milliseconds in the History Server's date format (GMT, millisecond precision).
std::string format_history_server_time(int64_t epoch_ms);

}  // namespace sf::history_server

#include "history_server/rest_path.h"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <set>
#include <utility>

#include "common/utc_time.h"

namespace sf::history_server {

namespace {

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(sep, start);
    parts.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

std::optional<int64_t> number(std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One pass of percent-decoding, '+' a space. A '%' without two hex digits after it stays as it
// is, or, when `strict` (Java's URLDecoder, which throws), makes the text undecodable.
std::optional<std::string> percent_decode_once(std::string_view text, bool strict) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%' && i + 2 < text.size() && hex_digit(text[i + 1]) >= 0 && hex_digit(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(text[i + 1]) * 16 + hex_digit(text[i + 2]));
      i += 2;
    } else if (c == '%' && strict) {
      return std::nullopt;
    } else {
      out += c;
    }
  }
  return out;
}

std::string percent_decode(std::string_view text) { return *percent_decode_once(text, false); }

using utc::civil_from_days;
using utc::days_from_civil;

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); }

// A reader of the History Server's date parameters as java.text.SimpleDateFormat reads them,
// lenient as it is by default: numbers of any width that roll over (month 13 is January of the
// next year, hour 25 the next day), a prefix of the text parsed and the rest ignored.
class LenientDateReader {
 public:
  explicit LenientDateReader(std::string_view text) : text_(text) {}

  // yyyy-MM-dd'T'HH:mm:ss.SSSz: epoch milliseconds, or nullopt when the prefix does not match.
  std::optional<int64_t> date_time_with_zone() {
    auto days = day_fields();
    int64_t hour = 0, minute = 0, second = 0, millis = 0;
    if (!days || !literal('T') || !digits(hour) || !literal(':') || !digits(minute) || !literal(':') ||
        !digits(second) || !literal('.') || !digits(millis)) {
      return std::nullopt;
    }
    auto offset_minutes = zone();
    if (!offset_minutes) return std::nullopt;
    return ((*days * 24 + hour) * 60 + minute - *offset_minutes) * 60'000 + second * 1000 + millis;
  }

  // yyyy-MM-dd at midnight GMT.
  std::optional<int64_t> date() {
    auto days = day_fields();
    if (!days) return std::nullopt;
    return *days * 24 * 60 * 60 * 1000;
  }

 private:
  // yyyy-MM-dd as days since the epoch, month and day rolled over as Java's lenient calendar does.
  std::optional<int64_t> day_fields() {
    int64_t year = 0, month = 0, day = 0;
    if (!digits(year) || !literal('-') || !digits(month) || !literal('-') || !digits(day)) return std::nullopt;
    const int64_t months_from_january = month - 1;
    year += floor_div(months_from_january, 12);
    const int64_t month_index = months_from_january - floor_div(months_from_january, 12) * 12;
    const int64_t days = days_from_civil(year, month_index + 1, 1) + day - 1;
    // Some 270,000 years either side of 1970 is no date anyone means, and keeps the milliseconds,
    // hours and minutes of any width added to it within 64 bits (year 299999015 overflowed them).
    if (days > kMostDays || days < -kMostDays) return std::nullopt;
    return days;
  }

  static constexpr int64_t kMostDays = 100'000'000;

  bool literal(char c) {
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  // One or more decimal digits (at most 9: a larger field is no date anyone means).
  bool digits(int64_t& value) {
    const size_t start = pos_;
    value = 0;
    while (pos_ < text_.size() && pos_ - start < 9 && text_[pos_] >= '0' && text_[pos_] <= '9') {
      value = value * 10 + (text_[pos_++] - '0');
    }
    return pos_ > start;
  }

  bool starts_with_ignoring_case(std::string_view word) const {
    if (text_.size() - pos_ < word.size()) return false;
    for (size_t i = 0; i < word.size(); ++i) {
      const auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
      if (lower(text_[pos_ + i]) != lower(word[i])) return false;
    }
    return true;
  }

  // SimpleDateFormat's 'z' (a general time zone) as minutes east of GMT: GMT, GMT+H:MM, an RFC 822
  // offset (+HHMM) or a zone abbreviation, each with the fixed offset Java gives it (PST is always
  // -08:00, PDT -07:00); spaces before it are skipped.
  std::optional<int64_t> zone() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
    if (starts_with_ignoring_case("GMT")) {
      pos_ += 3;
      if (pos_ >= text_.size() || (text_[pos_] != '+' && text_[pos_] != '-')) return 0;
      const int64_t sign = text_[pos_++] == '-' ? -1 : 1;
      const size_t start = pos_;
      int64_t hours = 0, minutes = 0;
      if (!digits(hours) || pos_ - start > 2 || hours > 23 || !literal(':')) return std::nullopt;
      const size_t minutes_start = pos_;
      if (!digits(minutes) || pos_ - minutes_start != 2 || minutes > 59) return std::nullopt;
      return sign * (hours * 60 + minutes);
    }
    if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) {
      const int64_t sign = text_[pos_++] == '-' ? -1 : 1;
      const size_t start = pos_;
      int64_t hhmm = 0;
      if (!digits(hhmm) || pos_ - start != 4) return std::nullopt;
      return sign * (hhmm / 100 * 60 + hhmm % 100);
    }
    // The abbreviations Java's US zone names resolve to, with the offsets it parses them as
    // (taken from java.text.SimpleDateFormat on Java 17: IST is Israel's, HDT has no daylight).
    static constexpr std::pair<std::string_view, int> kZones[] = {
        {"UTC", 0},    {"PST", -480}, {"PDT", -420},  {"MST", -420},  {"MDT", -360}, {"CST", -360}, {"CDT", -300},
        {"EST", -300}, {"EDT", -240}, {"AKST", -540}, {"AKDT", -480}, {"HST", -600}, {"HDT", -600}, {"AST", -240},
        {"ADT", -180}, {"NST", -210}, {"NDT", -150},  {"SST", -660},  {"ART", -180}, {"BRT", -180}, {"CLT", -240},
        {"COT", -300}, {"PET", -300}, {"WET", 0},     {"WEST", 60},   {"BST", 60},   {"CET", 60},   {"CEST", 120},
        {"MET", 60},   {"MEST", 120}, {"WAT", 60},    {"EET", 120},   {"EEST", 180}, {"IST", 120},  {"SAST", 120},
        {"CAT", 120},  {"EAT", 180},  {"MSK", 180},   {"GST", 240},   {"PKT", 300},  {"NPT", 345},  {"ICT", 420},
        {"WIB", 420},  {"SGT", 480},  {"HKT", 480},   {"AWST", 480},  {"JST", 540},  {"KST", 540},  {"ACST", 570},
        {"ACDT", 570}, {"AEST", 600}, {"AEDT", 660},  {"ChST", 600},  {"NZST", 720}, {"NZDT", 780},
    };
    for (const auto& [name, offset] : kZones) {
      if (starts_with_ignoring_case(name)) {
        pos_ += name.size();
        return offset;
      }
    }
    return std::nullopt;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

std::optional<std::string> decode_url_parameter(std::string_view text) {
  std::string current(text);
  while (true) {
    auto next = percent_decode_once(current, true);
    if (!next || *next == current) return next;
    current = std::move(*next);
  }
}

QueryParams parse_query_string(std::string_view query) {
  QueryParams out;
  if (query.empty()) return out;
  for (const auto& pair : split(query, '&')) {
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    out[percent_decode(std::string_view(pair).substr(0, eq))].push_back(
        eq == std::string::npos ? "" : percent_decode(std::string_view(pair).substr(eq + 1)));
  }
  return out;
}

RestPath parse_rest_path(std::string_view path) {
  RestPath out;
  std::string_view query;
  if (const size_t q = path.find('?'); q != std::string_view::npos) {
    query = path.substr(q + 1);
    path = path.substr(0, q);
  }
  for (auto& s : split(path, '/')) {
    if (!s.empty()) out.segments.push_back(percent_decode(s));
  }
  if (out.segments.size() >= 2 && out.segments[0] == "api" && out.segments[1] == "v1") {
    out.segments.erase(out.segments.begin(), out.segments.begin() + 2);
  }
  out.query = parse_query_string(query);
  if (out.segments.empty() || out.segments[0] != "applications") return out;
  if (out.segments.size() >= 2) out.app_id = out.segments[1];
  size_t next = 2;
  static const std::set<std::string, std::less<>> kResources = {
      "jobs", "stages", "executors", "allexecutors", "storage", "environment", "allmiscellaneousprocess",
      "logs", "sql"};
  if (out.segments.size() > next && !kResources.contains(out.segments[next])) out.attempt_id = out.segments[next++];
  if (next < out.segments.size()) {
    out.resource.assign(out.segments.begin() + static_cast<std::ptrdiff_t>(next), out.segments.end());
  }
  return out;
}

std::optional<int64_t> parse_history_server_time(std::string_view text) {
  // yyyy-MM-ddTHH:mm:ss.SSSGMT
  if (text.size() != 26 || text.substr(23) != "GMT" || text[4] != '-' || text[7] != '-' || text[10] != 'T' ||
      text[13] != ':' || text[16] != ':' || text[19] != '.') {
    return std::nullopt;
  }
  auto y = number(text.substr(0, 4));
  auto mo = number(text.substr(5, 2));
  auto d = number(text.substr(8, 2));
  auto h = number(text.substr(11, 2));
  auto mi = number(text.substr(14, 2));
  auto s = number(text.substr(17, 2));
  auto ms = number(text.substr(20, 3));
  if (!y || !mo || !d || !h || !mi || !s || !ms) return std::nullopt;
  if (*mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 || *mi > 59 || *s > 60) return std::nullopt;
  const int64_t days = days_from_civil(*y, *mo, *d);
  return ((days * 24 + *h) * 60 + *mi) * 60 * 1000 + *s * 1000 + *ms;
}

std::optional<int64_t> parse_history_server_date_param(std::string_view text) {
  // Spark's SimpleDateParam: "yyyy-MM-dd'T'HH:mm:ss.SSSz", else "yyyy-MM-dd" in GMT, each with a
  // lenient java.text.SimpleDateFormat that parses a prefix of the text and ignores the rest.
  LenientDateReader full(text);
  if (auto ms = full.date_time_with_zone()) return ms;
  LenientDateReader day(text);
  return day.date();
}

std::string format_history_server_time(int64_t epoch_ms) {
  const int64_t day_ms = 24LL * 60 * 60 * 1000;
  const int64_t days = floor_div(epoch_ms, day_ms);
  int64_t in_day = epoch_ms - days * day_ms;
  int64_t y = 0, m = 0, d = 0;
  civil_from_days(days, y, m, d);
  const int64_t ms = in_day % 1000;
  in_day /= 1000;
  char text[128];  // room for any int64 fields, so the compiler can prove no truncation
  std::snprintf(text, sizeof text, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldGMT", static_cast<long long>(y),
                static_cast<long long>(m), static_cast<long long>(d), static_cast<long long>(in_day / 3600),
                static_cast<long long>(in_day / 60 % 60), static_cast<long long>(in_day % 60),
                static_cast<long long>(ms));
  return text;
}

}  // namespace sf::history_server

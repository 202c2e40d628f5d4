#include "corpus/history_server_json.h"

#include <charconv>
#include <fstream>
#include <set>

namespace sf::corpus_testing {

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

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

}  // namespace

std::vector<ExpectationEntry> read_expectation_map(const std::filesystem::path& tsv) {
  std::vector<ExpectationEntry> entries;
  std::ifstream in(tsv);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto fields = split(line, '\t');
    if (fields.size() < 4) continue;
    entries.push_back({fields[0], fields[1], fields[2], fields[3]});
  }
  return entries;
}

RestPath parse_rest_path(std::string_view path) {
  RestPath out;
  std::string_view query;
  if (const size_t q = path.find('?'); q != std::string_view::npos) {
    query = path.substr(q + 1);
    path = path.substr(0, q);
  }
  std::vector<std::string> segments;
  for (auto& s : split(path, '/')) {
    if (!s.empty()) segments.push_back(std::move(s));
  }
  // segments[0] == "applications"
  if (segments.size() >= 2) out.app_id = segments[1];
  size_t next = 2;
  static const std::set<std::string> kResources = {
      "jobs", "stages", "executors", "allexecutors", "storage", "environment", "allmiscellaneousprocess",
      "logs", "sql"};
  if (segments.size() > next && kResources.count(segments[next]) == 0) out.attempt_id = segments[next++];
  out.resource.assign(segments.begin() + static_cast<std::ptrdiff_t>(std::min(next, segments.size())), segments.end());
  if (!query.empty()) {
    for (const auto& pair : split(query, '&')) {
      const size_t eq = pair.find('=');
      out.query[pair.substr(0, eq)].push_back(eq == std::string::npos ? "" : pair.substr(eq + 1));
    }
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
  const int64_t days = days_from_civil(*y, *mo, *d);
  return ((days * 24 + *h) * 60 + *mi) * 60 * 1000 + *s * 1000 + *ms;
}

}  // namespace sf::corpus_testing

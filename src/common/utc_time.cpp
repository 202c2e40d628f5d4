#include "common/utc_time.h"

#include <charconv>
#include <chrono>

namespace sf::utc {

namespace {

std::optional<int64_t> digits(std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() || text[0] == '-' || text[0] == '+') {
    return std::nullopt;
  }
  return value;
}

}  // namespace

// Howard Hinnant's algorithms, in 64 bits: any year a lenient date reader rolls over to, where
// std::chrono::year stops at 32767.
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void civil_from_days(int64_t z, int64_t& y, int64_t& m, int64_t& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = yoe + era * 400 + (m <= 2 ? 1 : 0);
}

std::optional<int64_t> parse_iso8601_ms(std::string_view text) {
  if (text.size() < 20 || text.back() != 'Z' || text[4] != '-' || text[7] != '-' || text[10] != 'T' ||
      text[13] != ':' || text[16] != ':') {
    return std::nullopt;
  }
  auto y = digits(text.substr(0, 4));
  auto mo = digits(text.substr(5, 2));
  auto d = digits(text.substr(8, 2));
  auto h = digits(text.substr(11, 2));
  auto mi = digits(text.substr(14, 2));
  auto s = digits(text.substr(17, 2));
  if (!y || !mo || !d || !h || !mi || !s) return std::nullopt;
  int64_t ms = 0;
  std::string_view rest = text.substr(19, text.size() - 20);
  if (!rest.empty()) {
    if (rest[0] != '.' || rest.size() < 2) return std::nullopt;
    std::string_view fraction = rest.substr(1, 3);
    auto f = digits(fraction);
    if (!f || !digits(rest.substr(1))) return std::nullopt;
    ms = *f * (fraction.size() == 1 ? 100 : fraction.size() == 2 ? 10 : 1);
  }
  const std::chrono::year_month_day date{std::chrono::year{static_cast<int>(*y)},
                                         std::chrono::month{static_cast<unsigned>(*mo)},
                                         std::chrono::day{static_cast<unsigned>(*d)}};
  if (!date.ok() || *h > 23 || *mi > 59 || *s > 60) return std::nullopt;
  const int64_t days = days_from_civil(*y, *mo, *d);
  return ((days * 24 + *h) * 60 + *mi) * 60 * 1000 + *s * 1000 + ms;
}

}  // namespace sf::utc

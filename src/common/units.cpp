#include "common/units.h"

#include <array>
#include <cmath>
#include <ctime>

#include <fmt/format.h>

namespace sf::units {

std::string format_bytes(int64_t bytes) {
  constexpr std::array<const char*, 6> kUnits = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 0) return fmt::format("-{}", format_bytes(-bytes));
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < kUnits.size()) {
    value /= 1024.0;
    ++unit;
  }
  if (value < 10) return fmt::format("{:.2f} {}", value, kUnits[unit]);
  if (value < 100) return fmt::format("{:.1f} {}", value, kUnits[unit]);
  return fmt::format("{:.0f} {}", value, kUnits[unit]);
}

std::string format_duration_ms(int64_t ms) {
  if (ms < 0) return fmt::format("-{}", format_duration_ms(-ms));
  if (ms < 1000) return fmt::format("{} ms", ms);
  if (ms < 60'000) return fmt::format("{:.1f}s", static_cast<double>(ms) / 1000.0);
  const int64_t seconds = ms / 1000;
  if (seconds < 3600) return fmt::format("{}m {:02}s", seconds / 60, seconds % 60);
  const int64_t minutes = seconds / 60;
  if (minutes < 24 * 60) return fmt::format("{}h {:02}m", minutes / 60, minutes % 60);
  return fmt::format("{}d {:02}h", minutes / (24 * 60), (minutes / 60) % 24);
}

std::string format_time_utc(int64_t epoch_ms) {
  const std::time_t seconds = static_cast<std::time_t>(epoch_ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::string format_count(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  if (n < 0) out.insert(out.begin(), '-');
  return out;
}

std::string format_percent(double fraction) {
  if (!std::isfinite(fraction)) return "-";
  return fmt::format("{:.1f}%", fraction * 100.0);
}

std::string format_optional_duration(const std::optional<int64_t>& ms) {
  return ms ? format_duration_ms(*ms) : std::string("-");
}

std::string format_counted(int64_t n, std::string_view singular, std::string_view plural) {
  if (n == 1) return fmt::format("1 {}", singular);
  if (plural.empty()) return fmt::format("{} {}s", format_count(n), singular);
  return fmt::format("{} {}", format_count(n), plural);
}

std::string format_resource_hours(double hours, std::string_view unit) {
  if (!std::isfinite(hours)) return fmt::format("- {}", unit);
  if (hours < 0) return fmt::format("-{}", format_resource_hours(-hours, unit));
  if (hours >= 100) return fmt::format("{} {}", format_count(std::llround(hours)), unit);
  if (hours >= 0.1) return fmt::format("{:.2f} {}", hours, unit);
  if (hours >= 0.0001) return fmt::format("{:.2g} {}", hours, unit);
  if (hours == 0) return fmt::format("0 {}", unit);
  return fmt::format("under 0.0001 {}", unit);
}

}  // namespace sf::units

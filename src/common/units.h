// Human-readable figures for reports: bytes, durations, timestamps and counts, written one way
// everywhere so text, Markdown and HTML reports agree.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sf::units {

std::string format_bytes(int64_t bytes);              // "1.5 GiB", "812 B"
std::string format_duration_ms(int64_t ms);           // "1h 02m", "3m 05s", "12.3s", "450 ms"
std::string format_time_utc(int64_t epoch_ms);        // "2021-06-16 20:41:23 UTC"
std::string format_count(int64_t n);                  // "12,345"
std::string format_percent(double fraction);          // "4.7%"
std::string format_optional_duration(const std::optional<int64_t>& ms);  // "-" when absent

}  // namespace sf::units

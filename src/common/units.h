// Human-readable figures for reports: bytes, durations, timestamps and counts, written one way
// everywhere so text, Markdown and HTML reports agree.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sf::units {

std::string format_bytes(int64_t bytes);                                 // "1.5 GiB", "812 B"
std::string format_duration_ms(int64_t ms);                              // "1h 02m", "3m 05s", "12.3s", "450 ms"
std::string format_time_utc(int64_t epoch_ms);                           // "2021-06-16 20:41:23 UTC"
std::string format_count(int64_t n);                                     // "12,345"
std::string format_percent(double fraction);                             // "4.7%"
std::string format_optional_duration(const std::optional<int64_t>& ms);  // "-" when absent
// A count with its noun, singular or plural: "1 executor", "3,047 tasks", "0 jobs". The plural is
// the singular + "s" unless given ("1 SQL execution", "2 analyses").
std::string format_counted(int64_t n, std::string_view singular, std::string_view plural = {});
// A figure in hours of a resource, with as many digits as it needs: "3.57 core-hours",
// "1,204 GiB-hours", "0.0042 core-hours" (under 0.0001: "under 0.0001 core-hours").
std::string format_resource_hours(double hours, std::string_view unit);

}  // namespace sf::units

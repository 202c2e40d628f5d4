// Calendar dates in UTC and the ISO 8601 instants Spark writes, as epoch milliseconds (libstdc++
// 12 has no std::chrono::parse; its calendar checks the dates read).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sf::utc {

// Days since 1970-01-01 of a proleptic Gregorian date, and back.
int64_t days_from_civil(int64_t year, int64_t month, int64_t day);
void civil_from_days(int64_t days, int64_t& year, int64_t& month, int64_t& day);

// "yyyy-MM-ddTHH:mm:ss[.fraction]Z", as Structured Streaming writes its times (Spark formats
// them in UTC with "Z"): epoch milliseconds, the fraction cut to milliseconds. nullopt for any
// other text, and for fields out of range.
std::optional<int64_t> parse_iso8601_ms(std::string_view text);

}  // namespace sf::utc

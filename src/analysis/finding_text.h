// How detectors word the figures in a finding: one spelling for a duration, a size, a rate or a
// size setting, whichever detector writes it.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "common/units.h"

namespace sf::analysis {

inline constexpr double kMiB = 1024.0 * 1024.0;

inline int64_t as_int(double value) { return static_cast<int64_t>(std::llround(value)); }

inline std::string duration_text(double ms) { return units::format_duration_ms(as_int(ms)); }

inline std::string bytes_text(double bytes) { return units::format_bytes(as_int(bytes)); }

// A modeled throughput as its constant is written: "125 MB/s" (decimal, like the constant).
// "1 executor", "12 executors".
inline std::string executors_words(int64_t n) { return units::format_count(n) + (n == 1 ? " executor" : " executors"); }

inline std::string rate_words(double bytes_per_second) { return fmt::format("{:g} MB/s", bytes_per_second / 1e6); }

// "128m": a byte size as Spark's size settings take it, rounded down to a whole MiB (at least 1).
inline std::string mib_setting(double bytes) {
  return fmt::format("{}m", std::max<int64_t>(1, static_cast<int64_t>(std::floor(bytes / kMiB))));
}

}  // namespace sf::analysis

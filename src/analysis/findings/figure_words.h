// How detectors word the figures in a finding: one spelling for a duration, a size, a rate or a
// size setting, whichever detector writes it.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/units.h"
#include "model/app_model.h"

namespace sf::analysis {

inline constexpr double kMiB = 1024.0 * 1024.0;
inline constexpr double kGiB = 1024.0 * kMiB;

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

// "a, b, c and 4 more": the first `shown` items as `word` writes each.
template <typename Item, typename Word>
std::string listed(const std::vector<Item>& items, Word&& word, size_t shown = 6) {
  std::string list;
  for (size_t i = 0; i < items.size() && i < shown; ++i) list += (i == 0 ? "" : ", ") + word(items[i]);
  if (items.size() > shown) list += fmt::format(" and {} more", items.size() - shown);
  return list;
}

// "3.0, 4.1": stage attempts as findings name them.
inline std::string stage_list(const std::vector<const model::StageAttempt*>& attempts) {
  return listed(attempts,
                [](const model::StageAttempt* s) { return fmt::format("{}.{}", s->stage_id, s->attempt_id); });
}

}  // namespace sf::analysis

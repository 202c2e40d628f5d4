#include "report/finding_text.h"

#include <cmath>

#include <fmt/format.h>

#include "common/units.h"

namespace sf::report {

using namespace sf::analysis;
using units::format_bytes;
using units::format_duration_ms;

namespace {

constexpr double kMsPerHour = 3'600'000.0;

std::string ms(double value) { return format_duration_ms(static_cast<int64_t>(std::llround(value))); }

}  // namespace

std::string raw_waste_phrase(const RawWaste& raw) {
  switch (raw.unit) {
    case WasteUnit::kMs: return ms(raw.value);
    case WasteUnit::kCoreMs: return units::format_resource_hours(raw.value / kMsPerHour, "core-hours");
    case WasteUnit::kBytes: return format_bytes(static_cast<int64_t>(std::llround(raw.value)));
    case WasteUnit::kCoreHours: return units::format_resource_hours(raw.value, "core-hours");
    // The memory detectors count MiB (their "MB") held for seconds.
    case WasteUnit::kMbSeconds: return units::format_resource_hours(raw.value / 1024.0 / 3600.0, "GiB-hours");
  }
  return "";
}

std::string impact_phrase(const Finding& finding) {
  const ImpactEstimate& impact = finding.impact;
  if (impact.wall_clock) {
    const auto& w = *impact.wall_clock;
    if (impact.basis == Basis::kSerial || std::abs(w.high_ms - w.low_ms) < 0.5) {
      return fmt::format("about {} of wall-clock", ms(w.high_ms));
    }
    return fmt::format("{} to {} of wall-clock", ms(w.low_ms), ms(w.high_ms));
  }
  if (impact.raw_waste) return "cost: " + raw_waste_phrase(*impact.raw_waste);
  return "";
}

std::string rollup_figure(const RollupGroup& group) {
  switch (group.tier) {
    case RollupTier::kTime:
      if (std::abs(group.recoverable_high_ms - group.recoverable_low_ms) < 0.5) {
        return fmt::format("about {} recoverable", ms(group.recoverable_high_ms));
      }
      return fmt::format("up to {} recoverable (at least {})", ms(group.recoverable_high_ms),
                         ms(group.recoverable_low_ms));
    case RollupTier::kResource:
      return "resource-cost projection: " + raw_waste_phrase(RawWaste{group.resource_total, *group.unit});
    case RollupTier::kCount: break;
  }
  return "";
}

std::string settings_phrase(const Finding& finding) {
  std::string out;
  for (const auto& s : finding.settings) {
    if (!out.empty()) out += "; ";
    out += s.key;
    if (!s.suggested_value.empty()) out += "=" + s.suggested_value;
    if (!s.current_value.empty()) {
      out += " (now " + s.current_value + ")";
    } else if (!s.effective_value.empty()) {
      out += " (now " + s.effective_value + ", the default)";
    }
  }
  return out;
}

std::string band_counts_phrase(const RollupGroup& group) {
  std::string out;
  for (const auto& [band, count] : group.band_counts) {  // the enum runs from critical to info
    if (count == 0) continue;
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", count, to_string(band));
  }
  return out;
}

bool recovers_nothing(const Finding& finding) {
  const auto& wall_clock = finding.impact.wall_clock;
  return wall_clock && std::llround(wall_clock->high_ms) == 0;
}

}  // namespace sf::report

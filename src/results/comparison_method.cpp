#include "results/comparison_method.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace sf::results {

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kImproved: return "improved";
    case Verdict::kRegressed: return "regressed";
    case Verdict::kChanged: return "changed";
    case Verdict::kNoChangeDetected: return "no-change-detected";
    case Verdict::kIndeterminate: return "indeterminate";
  }
  return "indeterminate";
}

Verdict directed_verdict(double effect, Direction direction) {
  switch (direction) {
    case Direction::kLowerIsBetter: return effect > 0 ? Verdict::kRegressed : Verdict::kImproved;
    case Direction::kHigherIsBetter: return effect > 0 ? Verdict::kImproved : Verdict::kRegressed;
    case Direction::kNone: return Verdict::kChanged;
  }
  return Verdict::kChanged;
}

Status validate(const MethodConfig& c) {
  if (c.name != kDispersionScaled && c.name != kPairedRatio) {
    return Status::InvalidArgument(
        fmt::format("method: unknown \"{}\" (known: dispersion-scaled, paired-ratio)", c.name));
  }
  if (c.version != 1)
    return Status::InvalidArgument(fmt::format("version: {} {} is not defined (only 1)", c.name, c.version));
  if (!(c.k > 0) || !std::isfinite(c.k)) return Status::InvalidArgument("k: must be a positive number");
  if (c.window < 1) return Status::InvalidArgument("window: must be at least 1");
  if (c.min_points < 2) return Status::InvalidArgument("minPoints: must be at least 2 (noise needs two values)");
  if (c.provisional_relative_noise && !(*c.provisional_relative_noise > 0)) {
    return Status::InvalidArgument("provisionalRelativeNoise: must be positive");
  }
  if (!(c.min_effect >= 0)) return Status::InvalidArgument("minEffect: must be >= 0");
  if (c.ordering != "ancestry-or-native" && c.ordering != "ancestry" && c.ordering != "native") {
    return Status::InvalidArgument("ordering: expected ancestry-or-native, ancestry or native");
  }
  if (c.duplicates != "reject" && c.duplicates != "mean")
    return Status::InvalidArgument("duplicates: expected reject or mean");
  for (const auto& status : c.reference_statuses) {
    if (!parse_run_status(status))
      return Status::InvalidArgument("referenceStatuses: unknown status \"" + status + "\"");
  }
  return {};
}

Result<MethodConfig> parse_method_config(std::string_view text, std::string_view source, const MethodConfig& start) {
  using nlohmann::json;
  json root = json::parse(text, nullptr, false);
  if (root.is_discarded() || !root.is_object()) {
    return fail(Status::InvalidArgument(fmt::format("{}: expected a JSON object", source)));
  }
  MethodConfig config = start;
  for (const auto& [key, value] : root.items()) {
    // A named copy: clang before 16 cannot capture a structured binding.
    const std::string& field = key;
    auto bad = [&](std::string_view what) {
      return fail(Status::InvalidArgument(fmt::format("{}: {}: expected {}", source, field, what)));
    };
    if (key == "method") {
      if (!value.is_string()) return bad("a string");
      config.name = value.get<std::string>();
    } else if (key == "version") {
      if (!value.is_number_integer()) return bad("an integer");
      config.version = value.get<int>();
    } else if (key == "k" || key == "minEffect" || key == "provisionalRelativeNoise") {
      if (!value.is_number()) return bad("a number");
      const double number = value.get<double>();
      if (key == "k") config.k = number;
      if (key == "minEffect") config.min_effect = number;
      if (key == "provisionalRelativeNoise") config.provisional_relative_noise = number;
    } else if (key == "window" || key == "minPoints") {
      if (!value.is_number_integer()) return bad("an integer");
      (key == "window" ? config.window : config.min_points) = value.get<int64_t>();
    } else if (key == "ordering" || key == "duplicates") {
      if (!value.is_string()) return bad("a string");
      (key == "ordering" ? config.ordering : config.duplicates) = value.get<std::string>();
    } else if (key == "referenceStatuses") {
      if (!value.is_array()) return bad("an array of statuses");
      config.reference_statuses.clear();
      for (const json& item : value) {
        if (!item.is_string()) return bad("an array of statuses");
        config.reference_statuses.push_back(item.get<std::string>());
      }
    } else {
      return fail(Status::InvalidArgument(fmt::format("{}: {}: unknown setting", source, key)));
    }
  }
  if (Status s = validate(config); !s.ok()) return fail(s.with_context(source));
  return config;
}

}  // namespace sf::results

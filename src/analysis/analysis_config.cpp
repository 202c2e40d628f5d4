#include "analysis/analysis_config.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "common/text_file.h"

namespace sf::analysis {

namespace {

using nlohmann::json;

Status invalid(const std::string& path, const std::string& what) {
  return Status::InvalidArgument(fmt::format("{}: {}", path, what));
}

// A number a price or threshold can be: finite, not negative, not absurd.
bool usable_number(const json& value) {
  if (!value.is_number()) return false;
  const double number = value.get<double>();
  return number >= 0 && number <= 1e18;
}

Status apply_thresholds(const json& entries, const std::string& path, AnalysisOptions& options) {
  if (!entries.is_object()) return invalid(path, "\"thresholds\" must be an object");
  for (const auto& [name, value] : entries.items()) {
    const ThresholdInfo* info = find_threshold(name);
    if (info == nullptr) {
      return invalid(path, fmt::format("unknown threshold \"{}\" (`sparkforensics thresholds` lists them)", name));
    }
    if (!value.is_number()) return invalid(path, fmt::format("threshold \"{}\" must be a number", name));
    if (!usable_number(value))
      return invalid(path, fmt::format("threshold \"{}\" must be a non-negative number", name));
    options.thresholds.*(info->field) = value.get<double>();
    options.overridden_thresholds.push_back(name);
  }
  return {};
}

Status apply_rate_card(const json& entry, const std::string& path, AnalysisOptions& options) {
  if (!entry.is_object()) return invalid(path, "\"rateCard\" must be an object");
  RateCard card = default_rate_card();
  if (entry.contains("preset")) {
    const json& preset = entry["preset"];
    const RateCard* found = preset.is_string() ? find_rate_card_preset(preset.get<std::string>()) : nullptr;
    if (found == nullptr) {
      std::string names;
      for (const RateCard& p : rate_card_presets()) names += (names.empty() ? "" : ", ") + p.name;
      return invalid(path, fmt::format("rateCard \"preset\" must be one of {}", names));
    }
    card = *found;
  }
  bool priced_here = false;
  for (const auto& [key, value] : entry.items()) {
    if (key == "preset") continue;
    if (key == "name" || key == "currency" || key == "source" || key == "asOf") {
      if (!value.is_string() || value.get<std::string>().empty()) {
        return invalid(path, fmt::format("rateCard \"{}\" must be a non-empty string", key));
      }
      std::string& field = key == "name"       ? card.name
                           : key == "currency" ? card.currency
                           : key == "source"   ? card.source
                                               : card.as_of;
      field = value.get<std::string>();
    } else if (key == "perCoreHour" || key == "perGibHour") {
      if (!usable_number(value))
        return invalid(path, fmt::format("rateCard \"{}\" must be a non-negative number", key));
      (key == "perCoreHour" ? card.per_core_hour : card.per_gib_hour) = value.get<double>();
      priced_here = true;
    } else {
      return invalid(path, fmt::format("unknown rateCard key \"{}\" (expected preset, name, currency, perCoreHour, "
                                       "perGibHour, source, asOf)",
                                       key));
    }
  }
  // Prices of the user's own say so, unless they named the card themselves.
  if (priced_here && !entry.contains("name"))
    card.name = entry.contains("preset") ? card.name + " (adjusted)" : "custom";
  if (priced_here && !entry.contains("source")) card.source = fmt::format("the analysis config {}", path);
  options.rate_card = std::move(card);
  return {};
}

// The "limits" object, the names as in the JSON documents (camelCase).
Status apply_limits(const json& entries, const std::string& path, ConfigLimits& limits) {
  if (!entries.is_object()) return invalid(path, "\"limits\" must be an object");
  for (const auto& [key, value] : entries.items()) {
    std::optional<uint64_t>* target = key == "maxLineBytes"            ? &limits.max_line_bytes
                                      : key == "maxDecompressionRatio" ? &limits.max_decompression_ratio
                                      : key == "maxOpenTasks"          ? &limits.max_open_tasks
                                                                       : nullptr;
    if (target == nullptr) {
      return invalid(
          path,
          fmt::format("unknown limit \"{}\" (expected maxLineBytes, maxDecompressionRatio or maxOpenTasks)", key));
    }
    if (!value.is_number_unsigned())
      return invalid(path, fmt::format("limit \"{}\" must be a whole number, 0 or more", key));
    *target = value.get<uint64_t>();
  }
  return {};
}

}  // namespace

Result<AnalysisConfig> parse_analysis_config(std::string_view text, const std::string& source) {
  AnalysisConfig result;
  json config;
  try {
    config = json::parse(text);
  } catch (const json::parse_error& e) {
    return fail(invalid(source, fmt::format("not valid JSON at byte {}: {}", e.byte, e.what())));
  } catch (const json::exception& e) {  // a number out of range, found by fuzz_thresholds_config
    return fail(invalid(source, std::string("not valid JSON: ") + e.what()));
  }
  if (!config.is_object()) return fail(invalid(source, "expected a JSON object"));
  for (const auto& [key, value] : config.items()) {
    Status status;
    if (key == "thresholds") {
      status = apply_thresholds(value, source, result.analysis);
    } else if (key == "rateCard") {
      status = apply_rate_card(value, source, result.analysis);
    } else if (key == "limits") {
      status = apply_limits(value, source, result.limits);
    } else {
      status =
          invalid(source, fmt::format("unknown key \"{}\" (expected \"thresholds\", \"rateCard\" or \"limits\")", key));
    }
    if (!status.ok()) return fail(std::move(status));
  }
  return result;
}

Result<AnalysisConfig> read_analysis_config(const std::string& path) {
  auto text = read_text_file(path, "cannot open the config file");
  if (!text) return fail(text.error());
  return parse_analysis_config(*text, path);
}

Result<AnalysisOptions> load_analysis_options(const std::string& path) {
  auto config = read_analysis_config(path);
  if (!config) return fail(config.error());
  return std::move(config->analysis);
}

void apply_read_limits(const ConfigLimits& config, const ConfigLimits& flags, model::LoadOptions& load) {
  if (auto v = flags.max_line_bytes ? flags.max_line_bytes : config.max_line_bytes) load.max_line_bytes = *v;
  if (auto v = flags.max_decompression_ratio ? flags.max_decompression_ratio : config.max_decompression_ratio)
    load.decompress_limits.max_ratio = *v;
  if (auto v = flags.max_open_tasks ? flags.max_open_tasks : config.max_open_tasks)
    load.builder_limits.max_open_task_values = *v;
}

}  // namespace sf::analysis

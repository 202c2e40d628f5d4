#include "analysis/config_file.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace sf::analysis {

namespace {

// The "limits" object, the names as in the JSON documents (camelCase). Parse errors are
// parse_thresholds' to report (with the byte they happened at), so this runs after it.
Result<ConfigLimits> parse_limits(std::string_view text, const std::string& source) {
  const nlohmann::json config = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  ConfigLimits limits;
  if (!config.is_object() || !config.contains("limits")) return limits;
  const nlohmann::json& entries = config["limits"];
  if (!entries.is_object()) return fail(Status::InvalidArgument(source + ": \"limits\" must be an object"));
  for (const auto& [key, value] : entries.items()) {
    std::optional<uint64_t>* target = key == "maxLineBytes"            ? &limits.max_line_bytes
                                      : key == "maxDecompressionRatio" ? &limits.max_decompression_ratio
                                      : key == "maxOpenTasks"          ? &limits.max_open_tasks
                                                                       : nullptr;
    if (target == nullptr) {
      return fail(Status::InvalidArgument(fmt::format(
          "{}: unknown limit \"{}\" (expected maxLineBytes, maxDecompressionRatio or maxOpenTasks)", source, key)));
    }
    if (!value.is_number_unsigned()) {
      return fail(Status::InvalidArgument(fmt::format("{}: limit \"{}\" must be a whole number, 0 or more", source, key)));
    }
    *target = value.get<uint64_t>();
  }
  return limits;
}

}  // namespace

Result<ConfigFile> parse_config(std::string_view text, const std::string& source) {
  ConfigFile config;
  auto thresholds = parse_thresholds(text, source, config.analysis.overridden_thresholds);
  if (!thresholds) return fail(thresholds.error());
  config.analysis.thresholds = *thresholds;
  auto limits = parse_limits(text, source);
  if (!limits) return fail(limits.error());
  config.limits = *limits;
  return config;
}

Result<ConfigFile> read_config_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(Status::NotFound(path + ": cannot open the config file"));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_config(text.str(), path);
}

}  // namespace sf::analysis

#include "analysis/detectors/skew_join_settings.h"

#include "analysis/findings/figure_words.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace sf::analysis {

namespace {

std::optional<double> effective_bytes(const DetectorContext& context, std::string_view key) {
  const std::optional<std::string> value = context.effective_value(key);
  if (!value) return std::nullopt;
  const std::optional<int64_t> bytes = parse_size_bytes(*value);
  return bytes ? std::optional<double>(static_cast<double>(*bytes)) : std::nullopt;
}

}  // namespace

std::vector<SettingChange> skew_join_settings(const DetectorContext& context, int64_t max_bytes, int64_t median_bytes) {
  std::vector<SettingChange> out = {context.setting("spark.sql.adaptive.enabled", "true"),
                                    context.setting("spark.sql.adaptive.skewJoin.enabled", "true")};
  const double partition = static_cast<double>(max_bytes);
  const double ratio = partition / static_cast<double>(std::max<int64_t>(1, median_bytes));
  // A factor under the observed ratio, by a margin (half steps, at least 1.5).
  const double factor = std::max(1.5, std::floor(ratio * 0.75 * 2) / 2);
  const SparkSetting* factor_setting = find_spark_setting("spark.sql.adaptive.skewJoin.skewedPartitionFactor");
  const std::optional<std::string> factor_now = context.effective_value(factor_setting->key);
  const std::string observed = fmt::format("{}", ratio);
  if (!factor_now || compare_values(*factor_setting, *factor_now, observed).value_or(1) >= 0) {
    out.push_back(
        context.lower_setting("spark.sql.adaptive.skewJoin.skewedPartitionFactor", fmt::format("{:g}", factor)));
  }
  const std::optional<double> threshold =
      effective_bytes(context, "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes");
  if (!threshold || *threshold >= partition) {
    out.push_back(context.lower_setting("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes",
                                        mib_setting(partition / 2)));
  }
  // Pieces of the target size: a target as large as the partition leaves it whole.
  const std::optional<double> target = effective_bytes(context, "spark.sql.adaptive.advisoryPartitionSizeInBytes");
  if (!target || *target * 2 > partition) {
    out.push_back(context.lower_setting("spark.sql.adaptive.advisoryPartitionSizeInBytes", mib_setting(partition / 4)));
  }
  return out;
}

}  // namespace sf::analysis

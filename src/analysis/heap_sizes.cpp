#include "analysis/heap_sizes.h"

#include <algorithm>

#include "analysis/cluster_shape.h"
#include "analysis/spark_settings.h"

namespace sf::analysis {

namespace {

constexpr double kReservedHeapBytes = 300 * kMiB;

// A fraction setting as the application ran with it, if it is one in (0, 1].
std::optional<double> fraction_setting(const model::AppModel& model, std::string_view key) {
  const auto value = effective_setting_number(model, key);
  if (!value || !(*value > 0 && *value <= 1)) return std::nullopt;
  return value;
}

}  // namespace

std::optional<double> unified_memory_fraction(const model::AppModel& model) {
  const SparkSetting* unified = find_spark_setting("spark.memory.fraction");
  if (unified == nullptr || !exists_in(*unified, parse_spark_version(model.app.spark_version))) return std::nullopt;
  return fraction_setting(model, "spark.memory.fraction");
}

double block_manager_share_of_heap(const model::AppModel& model) {
  if (const auto fraction = unified_memory_fraction(model)) return *fraction;
  // Both are in the settings table, so only a value out of range leaves them unknown.
  return fraction_setting(model, "spark.storage.memoryFraction").value_or(1) *
         fraction_setting(model, "spark.storage.safetyFraction").value_or(1);
}

double heap_behind_block_manager(const model::AppModel& model, double block_manager_bytes) {
  const double reserved = unified_memory_fraction(model) ? kReservedHeapBytes : 0;
  return block_manager_bytes / block_manager_share_of_heap(model) + reserved;
}

double memory_overhead_bytes(const DetectorContext& context, double heap_bytes) {
  return memory_overhead_bytes(context.model(), "executor", heap_bytes);
}

}  // namespace sf::analysis

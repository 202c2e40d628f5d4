#include "analysis/settings/heap_sizes.h"

#include "analysis/settings/spark_settings.h"

namespace sf::analysis {

namespace {

constexpr double kReservedHeapBytes = 300 * kMiB;

// A fraction setting as the application ran with it, if it is one in (0, 1].
std::optional<double> fraction_setting(const model::AppModel& model, std::string_view key) {
  const auto value = effective_setting_number(model, key);
  if (!value || !(*value > 0 && *value <= 1)) return std::nullopt;
  return value;
}

// Before unified memory: heap x spark.storage.memoryFraction x spark.storage.safetyFraction. Both
// are in the settings table, so only a value out of range leaves one unknown.
double legacy_storage_share(const model::AppModel& model) {
  return fraction_setting(model, "spark.storage.memoryFraction").value_or(1) *
         fraction_setting(model, "spark.storage.safetyFraction").value_or(1);
}

}  // namespace

std::optional<double> unified_memory_fraction(const model::AppModel& model) {
  const SparkSetting* unified = find_spark_setting("spark.memory.fraction");
  if (unified == nullptr || !exists_in(*unified, parse_spark_version(model.app.spark_version))) return std::nullopt;
  return fraction_setting(model, "spark.memory.fraction");
}

double block_manager_share_of_heap(const model::AppModel& model) {
  return unified_memory_fraction(model).value_or(legacy_storage_share(model));
}

double heap_behind_block_manager(const model::AppModel& model, double block_manager_bytes) {
  if (const auto fraction = unified_memory_fraction(model)) return block_manager_bytes / *fraction + kReservedHeapBytes;
  return block_manager_bytes / legacy_storage_share(model);
}

}  // namespace sf::analysis

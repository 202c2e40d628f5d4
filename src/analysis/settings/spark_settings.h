// The Spark settings detectors read or suggest: what each holds, the version it appeared in, and
// its default by version. One table for every use: a detector asks it for the value in effect
// (the application's, else the default of the log's Spark), the analyzer drops a suggestion that
// is already in effect, that moves the wrong way, or that the log's Spark does not have, and
// docs/spark-settings.md is written from it (a test keeps the two the same).
//
// Defaults were read from real Spark (ConfigEntry.findEntry(key).defaultValueString() on pyspark
// 3.5.6, 4.0.1, 4.1.1, 4.2.1 and 4.3.0) and, before 3.5, from Spark's documentation and release
// notes; the table says which in `source`.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "model/app_model.h"

namespace sf::analysis {

struct SparkVersion {
  int major = 0;
  int minor = 0;
  auto operator<=>(const SparkVersion&) const = default;
};

enum class SettingType {
  kBoolean,
  kInteger,
  kDouble,
  kBytes,            // "10m", "128MB", "10485760": a unitless value is bytes
  kMemoryMiB,        // "4g", "4096": a unitless value is MiB (spark.executor.memory)
  kDuration,         // "3s", "1000ms", "250": a unitless value is milliseconds
  kDurationSeconds,  // "60s", "2min", "60": a unitless value is seconds (the dynamic-allocation timeouts)
  kText,
};

// From `since`, the default is `value` ("" when there is none: it depends on the cluster
// manager or on another setting, named in `falls_back_to`).
struct SettingDefault {
  SparkVersion since;
  std::string_view value;
};

struct SparkSetting {
  std::string_view key;
  SettingType type;
  SparkVersion since;                        // the first version that reads it
  std::span<const SettingDefault> defaults;  // ascending by version; the first is at `since`
  std::string_view falls_back_to;            // the setting whose value applies when this is unset
  std::string_view meaning;                  // one line, for the reference
};

std::span<const SparkSetting> spark_settings();
const SparkSetting* find_spark_setting(std::string_view key);

// Spark's size strings: "10m", "4g", "512k", "2t", "100b", "128MB", plain bytes; nullopt if not one.
std::optional<int64_t> parse_size_bytes(std::string_view text);

// "3.5.1", "4.0.0-SNAPSHOT", "3.3.2-amzn-0", "13.3.x-scala2.12" (Databricks) -> {3, 5}.
std::optional<SparkVersion> parse_spark_version(std::string_view text);

// The setting exists in `version` (an unknown version: it may).
bool exists_in(const SparkSetting& setting, std::optional<SparkVersion> version);
// The default in `version` (the newest entry at or before it; with no version, the newest);
// nullopt when there is none.
std::optional<std::string_view> default_for(const SparkSetting& setting, std::optional<SparkVersion> version);

// The value of `key` in effect in an application: its own value, else the value of the setting
// it falls back to, else the default of the log's Spark version (the fallback's default when it
// has none of its own); nullopt when none of these is known.
std::optional<std::string> effective_setting_value(const model::AppModel& model, std::string_view key);

// effective_setting_value as the setting's type reads it (setting_number); nullopt for a key the
// table does not know.
std::optional<double> effective_setting_number(const model::AppModel& model, std::string_view key);

// A value as the setting's type reads it, as a number: bytes for sizes, ms for durations; nullopt
// for booleans, text, and what cannot be read.
std::optional<double> setting_number(const SparkSetting& setting, std::string_view text);

// Two values compared as the setting's type reads them: -1, 0 or 1; nullopt when either cannot
// be read as that type (or the type has no order: text compares only for equality).
std::optional<int> compare_values(const SparkSetting& setting, std::string_view a, std::string_view b);

}  // namespace sf::analysis

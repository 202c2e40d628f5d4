// The Spark settings table: its defaults by version, how values compare, and the reference page
// written from it (docs/spark-settings.md; SF_UPDATE_GOLDEN=1 rewrites it, review the diff).
#include "analysis/settings/spark_settings.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace sf::analysis {
namespace {

const SparkSetting& setting(std::string_view key) {
  const SparkSetting* found = find_spark_setting(key);
  EXPECT_NE(found, nullptr) << key;
  return *found;
}

std::string default_in(std::string_view key, int major, int minor) {
  return std::string(default_for(setting(key), SparkVersion{major, minor}).value_or("(none)"));
}

TEST(SparkSettings, TheTableIsSortedAndEveryEntryIsWhole) {
  const auto table = spark_settings();
  for (size_t i = 0; i < table.size(); ++i) {
    if (i > 0) {
      EXPECT_LT(table[i - 1].key, table[i].key) << "find_spark_setting needs the table sorted";
    }
    EXPECT_FALSE(table[i].defaults.empty()) << table[i].key;
    EXPECT_LE(table[i].defaults.front().since, table[i].since) << table[i].key;  // shared rows start early
    EXPECT_FALSE(table[i].meaning.empty()) << table[i].key;
  }
  EXPECT_EQ(find_spark_setting("spark.no.such.setting"), nullptr);
}

TEST(SparkSettings, DefaultsFollowTheVersionTheyChangedIn) {
  EXPECT_EQ(default_in("spark.sql.adaptive.enabled", 3, 1), "false");
  EXPECT_EQ(default_in("spark.sql.adaptive.enabled", 3, 2), "true");
  // Read from real Spark: 1.5 and 0.75 on 3.5.6, 3 and 0.9 on 4.0.1.
  EXPECT_EQ(default_in("spark.speculation.multiplier", 3, 5), "1.5");
  EXPECT_EQ(default_in("spark.speculation.multiplier", 4, 0), "3");
  EXPECT_EQ(default_in("spark.speculation.quantile", 4, 3), "0.9");
  EXPECT_EQ(default_in("spark.memory.fraction", 1, 6), "0.75");
  EXPECT_EQ(default_in("spark.memory.fraction", 2, 4), "0.6");
  EXPECT_EQ(default_in("spark.eventLog.rolling.enabled", 3, 5), "false");
  EXPECT_EQ(default_in("spark.eventLog.rolling.enabled", 4, 0), "true");
  EXPECT_EQ(default_in("spark.executor.cores", 3, 5), "(none)");  // it depends on the cluster manager
  // Without a version: the newest default.
  EXPECT_EQ(default_for(setting("spark.sql.adaptive.enabled"), std::nullopt).value_or(""), "true");
}

TEST(SparkSettings, ASettingExistsFromTheVersionThatIntroducedIt) {
  EXPECT_FALSE(exists_in(setting("spark.sql.adaptive.skewJoin.enabled"), SparkVersion{2, 4}));
  EXPECT_TRUE(exists_in(setting("spark.sql.adaptive.skewJoin.enabled"), SparkVersion{3, 0}));
  EXPECT_FALSE(exists_in(setting("spark.memory.fraction"), SparkVersion{1, 5}));
  EXPECT_TRUE(exists_in(setting("spark.memory.fraction"), std::nullopt));
}

TEST(SparkSettings, ValuesCompareAsTheirTypeReadsThem) {
  const SparkSetting& bytes = setting("spark.sql.autoBroadcastJoinThreshold");
  EXPECT_EQ(compare_values(bytes, "10m", "10485760"), 0);
  EXPECT_EQ(compare_values(bytes, "10MB", "10m"), 0);
  EXPECT_EQ(compare_values(bytes, "64k", "10m"), -1);
  EXPECT_EQ(compare_values(bytes, "-1", "10m"), -1);
  EXPECT_EQ(compare_values(setting("spark.executor.memory"), "4096", "4g"), 0);  // unitless is MiB there
  EXPECT_EQ(compare_values(setting("spark.dynamicAllocation.executorIdleTimeout"), "60s", "60000ms"), 0);
  EXPECT_EQ(compare_values(setting("spark.dynamicAllocation.executorIdleTimeout"), "2min", "60s"), 1);
  // A bare number is what the setting's timeConf unit says: seconds for the idle timeout, ms for
  // the locality wait.
  EXPECT_EQ(compare_values(setting("spark.dynamicAllocation.executorIdleTimeout"), "300", "5min"), 0);
  EXPECT_EQ(compare_values(setting("spark.dynamicAllocation.schedulerBacklogTimeout"), "1", "1s"), 0);
  EXPECT_EQ(compare_values(setting("spark.locality.wait"), "3000", "3s"), 0);
  EXPECT_EQ(setting_number(setting("spark.dynamicAllocation.executorIdleTimeout"), "60"), 60000.0);
  EXPECT_EQ(compare_values(setting("spark.sql.adaptive.enabled"), "TRUE", "true"), 0);
  EXPECT_EQ(compare_values(setting("spark.sql.adaptive.enabled"), "false", "true"), std::nullopt);
  EXPECT_EQ(compare_values(setting("spark.sql.shuffle.partitions"), "400", "200"), 1);
  EXPECT_EQ(compare_values(setting("spark.sql.shuffle.partitions"), "many", "200"), std::nullopt);
}

TEST(SparkSettings, VersionsAreReadFromWhatLogsSay) {
  EXPECT_EQ(parse_spark_version("3.5.1"), (SparkVersion{3, 5}));
  EXPECT_EQ(parse_spark_version("4.0.0-SNAPSHOT"), (SparkVersion{4, 0}));
  EXPECT_EQ(parse_spark_version("3.3.2-amzn-0"), (SparkVersion{3, 3}));
  EXPECT_EQ(parse_spark_version("1.6.1"), (SparkVersion{1, 6}));
  EXPECT_FALSE(parse_spark_version(""));
  EXPECT_FALSE(parse_spark_version("None"));
}

std::string version_text(SparkVersion v) { return std::to_string(v.major) + "." + std::to_string(v.minor); }

// docs/spark-settings.md, written from the table.
std::string reference_page() {
  std::ostringstream out;
  out << "# Spark settings the detectors read and suggest\n\n"
      << "Written from `src/analysis/settings/spark_settings.cpp` by `SparkSettings.TheReferencePageIsTheTable`\n"
      << "(`SF_UPDATE_GOLDEN=1` rewrites it). A suggestion is shown only when the log's Spark has the\n"
      << "setting, when it differs from the value in effect (the application's, else this default), and\n"
      << "when it moves the way its finding means (a \"raise\" never suggests a lower value).\n\n"
      << "| setting | since | default | what it does |\n|---|---|---|---|\n";
  for (const SparkSetting& s : spark_settings()) {
    // Appended piece by piece: g++ 12 warns falsely (-Wrestrict, GCC bug 105329) on chains of +.
    std::string defaults;
    for (const SettingDefault& d : s.defaults) {
      if (!defaults.empty()) defaults.append("; ");
      if (!d.value.empty()) {
        defaults.append("`").append(d.value).append("`");
      } else if (!s.falls_back_to.empty()) {
        defaults.append("`").append(s.falls_back_to).append("`");
      } else {
        defaults.append("none");
      }
      if (s.defaults.size() > 1 && d.since > s.since) defaults.append(" from ").append(version_text(d.since));
    }
    out << "| `" << s.key << "` | " << version_text(s.since) << " | " << defaults << " | " << s.meaning << " |\n";
  }
  return out.str();
}

TEST(SparkSettings, TheReferencePageIsTheTable) {
  const std::filesystem::path page = std::filesystem::path(SF_SOURCE_DIR) / "docs" / "spark-settings.md";
  const std::string expected = reference_page();
  if (const char* update = std::getenv("SF_UPDATE_GOLDEN"); update != nullptr && std::string(update) == "1") {
    std::ofstream(page) << expected;
    GTEST_SKIP() << "rewrote " << page << ": review the diff";
  }
  std::ifstream in(page);
  std::stringstream actual;
  actual << in.rdbuf();
  EXPECT_EQ(actual.str(), expected) << page << " is not the table: SF_UPDATE_GOLDEN=1 rewrites it";
}

}  // namespace
}  // namespace sf::analysis

#include "compare/config_diff.h"

#include <algorithm>
#include <iterator>
#include <set>

#include "analysis/settings/spark_settings.h"

namespace sf::compare {

namespace {

// Set by Spark (or the cluster manager) for each run: they always differ and say nothing about
// what changed.
constexpr std::string_view kRunIdentityKeys[] = {
    "spark.app.id",
    "spark.app.name",  // in each run's header line
    "spark.app.startTime",
    "spark.app.submitTime",
    "spark.app.attempt.id",
    "spark.app.initial.jar.urls",
    "spark.app.initial.file.urls",
    "spark.driver.host",
    "spark.driver.port",
    "spark.driver.appUIAddress",
    "spark.repl.class.uri",
    "spark.repl.class.outputDir",
    "spark.ui.proxyBase",
    "spark.yarn.app.id",
    "spark.yarn.app.container.log.dir",
    "spark.kubernetes.driver.pod.name",
    "spark.fileserver.uri",           // Spark 1.x: the driver's file server address
    "spark.tachyonStore.folderName",  // Spark 1.x: a random directory per run
    "spark.externalBlockStore.folderName",
};

// YARN's proxy filter parameters carry the application id in their values.
constexpr std::string_view kYarnProxyFilterPrefix = "spark.org.apache.hadoop.yarn.server.webproxy.amfilter.AmIpFilter.";

std::optional<std::string> optional_copy(const std::string* value) {
  return value != nullptr ? std::optional<std::string>(*value) : std::nullopt;
}

bool same_as_read(std::string_view key, const std::string& a, const std::string& b) {
  const analysis::SparkSetting* known = analysis::find_spark_setting(key);
  if (known == nullptr) return a == b;
  return analysis::compare_values(*known, a, b) == std::optional<int>(0);
}

}  // namespace

bool is_run_identity_property(std::string_view key) {
  return std::find(std::begin(kRunIdentityKeys), std::end(kRunIdentityKeys), key) != std::end(kRunIdentityKeys) ||
         key.starts_with(kYarnProxyFilterPrefix);
}

std::vector<SettingDifference> configuration_differences(const model::AppModel& baseline,
                                                         const model::AppModel& candidate) {
  std::set<std::string_view> keys;
  for (const auto& [key, value] : baseline.environment.spark_properties) keys.insert(key);
  for (const auto& [key, value] : candidate.environment.spark_properties) keys.insert(key);

  std::vector<SettingDifference> differences;
  for (std::string_view key : keys) {
    if (is_run_identity_property(key)) continue;
    const std::string* b = baseline.environment.spark_property(key);
    const std::string* c = candidate.environment.spark_property(key);
    if (b != nullptr && c != nullptr && *b == *c) continue;
    SettingDifference d;
    d.key = std::string(key);
    d.baseline = optional_copy(b);
    d.candidate = optional_copy(c);
    d.baseline_effective = analysis::effective_setting_value(baseline, key);
    d.candidate_effective = analysis::effective_setting_value(candidate, key);
    d.same_in_effect = d.baseline_effective && d.candidate_effective &&
                       same_as_read(key, *d.baseline_effective, *d.candidate_effective);
    differences.push_back(std::move(d));
  }
  return differences;
}

}  // namespace sf::compare

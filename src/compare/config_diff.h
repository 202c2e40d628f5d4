// The Spark settings two runs differ in: the first question after "I changed a setting".
//
// Every Spark property set in either run's environment is compared (values as the model holds
// them, so redacted secrets stay redacted and two different secrets read as equal). Properties
// that name the run rather than configure it (its id, start time, driver address, REPL class
// directory) are left out: they differ between any two runs. A property set on one side only is
// compared with the other side's value in effect (the default of that run's Spark version, from
// analysis/settings/spark_settings.h, when the setting is one the table knows): setting a default
// explicitly is a difference in the text, not in what ran, and `same_in_effect` says so.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/app_model.h"

namespace sf::compare {

struct SettingDifference {
  std::string key;
  std::optional<std::string> baseline;  // as set; nullopt: not set
  std::optional<std::string> candidate;
  std::optional<std::string> baseline_effective;  // set, or the default of its Spark version
  std::optional<std::string> candidate_effective;
  bool same_in_effect = false;  // both effective values known and equal as the setting reads them
};

// Sorted by key.
std::vector<SettingDifference> configuration_differences(const model::AppModel& baseline,
                                                         const model::AppModel& candidate);

// True for a property that identifies a run rather than configures it.
bool is_run_identity_property(std::string_view key);

}  // namespace sf::compare

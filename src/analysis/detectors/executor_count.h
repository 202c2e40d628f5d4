// How an application gets a given number of executors of a given size: the one rule for every
// detector that advises more (or more, smaller) executors. The answer follows how the cluster
// sizes the application: a setting on YARN and Kubernetes, dynamic allocation's ceiling, the cores
// a standalone master grants, or the node pool on Databricks; no setting where the cluster already
// allows the count.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/detectors/detector_context.h"

namespace sf::analysis {

// The sentence for the recommendation, and the settings it names (none where no setting is needed
// or none sizes the cluster from the application).
struct CountAdvice {
  std::string text;
  std::vector<SettingChange> settings;
};

// `executors` executors of `cores_per_executor` cores each.
CountAdvice executor_count_advice(const DetectorContext& context, int64_t executors, int64_t cores_per_executor);

// The executors the application runs today, as its cluster counts them: spark.executor.instances
// where set under static allocation, otherwise the most it held at once.
int64_t executors_today(const DetectorContext& context);

}  // namespace sf::analysis

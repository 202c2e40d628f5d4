#include "analysis/detectors/executor_count.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/findings/figure_words.h"

namespace sf::analysis {

namespace {

// A standalone (or Mesos) master grants an application cores up to spark.cores.max and makes
// its executors from them, spark.executor.cores each; local-cluster is a standalone master too.
bool cores_granted_by_master(const DetectorContext& context) {
  const std::string master = context.property("spark.master").value_or("");
  return master.starts_with("spark://") || master.starts_with("mesos://") || master.starts_with("local-cluster");
}

CountAdvice standalone_advice(const DetectorContext& context, int64_t executors, int64_t cores_per_executor) {
  const int64_t cores = executors * cores_per_executor;
  const auto cores_max = context.number_property("spark.cores.max");
  if (!cores_max) {
    // Unset, the application takes every core the workers offer.
    if (cores <= context.model().peak_concurrent_cores) {
      return {fmt::format("The master makes {} from the cores the application holds today: no count to set.",
                          executors_words(executors)),
              {}};
    }
    return {fmt::format("The application held every core the cluster's workers offered (spark.cores.max is unset): "
                        "add workers, about {} executors' worth.",
                        units::format_count(executors)),
            {}};
  }
  if (*cores_max >= static_cast<double>(cores)) {
    return {
        fmt::format("The master makes {} from the same spark.cores.max: no count to set.", executors_words(executors)),
        {}};
  }
  return {fmt::format("Let it take {} executors' cores.", units::format_count(executors)),
          {context.raise_setting("spark.cores.max", std::to_string(cores))}};
}

CountAdvice dynamic_allocation_advice(const DetectorContext& context, int64_t executors) {
  // Unset, dynamic allocation has no ceiling: it asks for executors while tasks wait.
  const auto ceiling = context.number_property("spark.dynamicAllocation.maxExecutors");
  if (!ceiling) {
    return {fmt::format("Dynamic allocation has no ceiling here (spark.dynamicAllocation.maxExecutors is unset) and "
                        "asks for executors while tasks wait, so it asks for {} itself: the cluster manager must have "
                        "room for them.",
                        executors_words(executors)),
            {}};
  }
  if (*ceiling >= static_cast<double>(executors)) {
    return {fmt::format("Dynamic allocation's ceiling ({}) allows {} already: it asks for them while tasks wait.",
                        units::format_count(static_cast<int64_t>(*ceiling)), executors_words(executors)),
            {}};
  }
  return {fmt::format("Raise dynamic allocation's ceiling to {}: it asks for them only while tasks wait, so the "
                      "stages of few tasks hold no more than today.",
                      units::format_count(executors)),
          {context.raise_setting("spark.dynamicAllocation.maxExecutors", std::to_string(executors))}};
}

}  // namespace

CountAdvice executor_count_advice(const DetectorContext& context, int64_t executors, int64_t cores_per_executor) {
  if (context.databricks()) {
    return {fmt::format("Raise the cluster's maximum workers to about {} (one executor a worker).",
                        units::format_count(executors)),
            {}};
  }
  if (context.dynamic_allocation()) return dynamic_allocation_advice(context, executors);
  if (cores_granted_by_master(context)) return standalone_advice(context, executors, cores_per_executor);
  return {fmt::format("Run {}.", executors_words(executors)),
          {context.raise_setting("spark.executor.instances", std::to_string(executors))}};
}

int64_t executors_today(const DetectorContext& context) {
  if (!context.dynamic_allocation()) {
    if (const auto instances = context.number_property("spark.executor.instances"); instances && *instances > 0) {
      return static_cast<int64_t>(std::llround(*instances));
    }
  }
  return std::max<int64_t>(1, context.model().peak_concurrent_executors);
}

}  // namespace sf::analysis

// How to make a Databricks cluster's executors follow the work. A Databricks worker runs one
// executor, and the cluster grows and shrinks by workers within its autoscaling range (the
// cluster's own settings, min and max workers), not by Spark's dynamic allocation: the
// spark.dynamicAllocation.* and spark.executor.instances advice of other clusters does not apply.
// One owner: the utilization and idle-core findings both give it.
#pragma once

#include <cstdint>
#include <string>

namespace sf::analysis {

// `busy_workers`: what the work kept busy on average; `most_workers`: what its busiest stages used.
std::string databricks_scaling_advice(int64_t busy_workers, int64_t most_workers);

}  // namespace sf::analysis

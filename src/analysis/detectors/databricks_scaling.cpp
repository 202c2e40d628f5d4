#include "analysis/detectors/databricks_scaling.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/units.h"

namespace sf::analysis {

std::string databricks_scaling_advice(int64_t busy_workers, int64_t most_workers) {
  const int64_t least = std::max<int64_t>(1, busy_workers);
  const auto workers = [](int64_t n) { return units::format_count(n) + (n == 1 ? " worker" : " workers"); };
  return fmt::format(
      "On Databricks a worker runs one executor and the cluster scales by workers: let it autoscale between {} (what "
      "the work kept busy on average) and {} (the busiest stages) in the cluster's settings, or give it about {}. "
      "Spark's dynamic allocation settings do not apply there.",
      workers(least), workers(std::max(least, most_workers)), workers(least));
}

}  // namespace sf::analysis

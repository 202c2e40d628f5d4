#include "analysis/heap_sizes.h"

#include <algorithm>

namespace sf::analysis {

double memory_overhead_bytes(const DetectorContext& context, double heap_bytes) {
  if (const auto set = context.memory_property_bytes("spark.executor.memoryOverhead")) return static_cast<double>(*set);
  const double factor = context.number_property("spark.executor.memoryOverheadFactor").value_or(0.10);
  return std::max(384 * kMiB, factor * heap_bytes);
}

}  // namespace sf::analysis

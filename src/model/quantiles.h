// Exact order statistics of task metrics.
//
// A stage attempt's successful tasks add their metric values to a TaskDistribution while the
// stage runs; when the stage completes, finish() computes the seven quantiles of every metric
// and frees the columns, so memory holds only the values of stages still running.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "model/app_model.h"

namespace sf::model {

// The value at quantile q (0..1) of values already sorted ascending, by nearest rank:
// index min(floor(q * n), n - 1), as Spark's History Server indexes its task summaries.
int64_t quantile_of_sorted(std::span<const int64_t> sorted, double q);

// Min, p5, p25, p50, p75, p95 and max of `values` (reordered in place).
Quantiles compute_quantiles(std::vector<int64_t>& values);

class TaskDistribution {
 public:
  void add(const TaskMetricValues& task_metrics);
  // Room for `tasks` values per metric, so the columns do not grow (and copy) task by task.
  void reserve(size_t tasks);
  size_t size() const { return columns_[0].size(); }
  // Computes every metric's quantiles and releases the memory held for them.
  std::array<Quantiles, kQuantileMetricCount> finish();

 private:
  std::array<std::vector<int64_t>, kQuantileMetricCount> columns_;
};

}  // namespace sf::model

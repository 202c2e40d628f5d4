#include "model/quantiles.h"

#include <algorithm>
#include <cmath>

namespace sf::model {

namespace {

size_t rank_index(size_t n, double q) {
  const auto index = static_cast<size_t>(std::floor(q * static_cast<double>(n)));
  return std::min(index, n - 1);
}

}  // namespace

int64_t quantile_of_sorted(std::span<const int64_t> sorted, double q) {
  if (sorted.empty()) return 0;
  return sorted[rank_index(sorted.size(), q)];
}

Quantiles compute_quantiles(std::vector<int64_t>& values) {
  Quantiles result;
  const size_t n = values.size();
  result.count = static_cast<int64_t>(n);
  if (n == 0) return result;
  // The least and the greatest in one pass (vectorized); a column of one value throughout (most
  // are: a stage that spilled nothing has zeros for spill) needs nothing more.
  int64_t least = values[0], greatest = values[0];
  for (int64_t v : values) {
    least = std::min(least, v);
    greatest = std::max(greatest, v);
  }
  // The inner ranks in ascending order, each nth_element narrowing the range for the next:
  // linear time overall instead of a full sort.
  constexpr std::array<double, 5> kInner = {0.05, 0.25, 0.5, 0.75, 0.95};
  std::array<int64_t, 5> inner{};
  inner.fill(least);
  auto begin = values.begin();
  for (size_t i = 0; least != greatest && i < kInner.size(); ++i) {
    auto nth = values.begin() + static_cast<std::ptrdiff_t>(rank_index(n, kInner[i]));
    if (nth >= begin) {
      std::nth_element(begin, nth, values.end());
      begin = nth;
    }
    inner[i] = *nth;
  }
  result.min = least;
  result.p5 = inner[0];
  result.p25 = inner[1];
  result.p50 = inner[2];
  result.p75 = inner[3];
  result.p95 = inner[4];
  result.max = greatest;
  return result;
}

void TaskDistribution::add(const TaskMetricValues& task_metrics) {
  for (size_t i = 0; i < kQuantileMetricCount; ++i) {
    columns_[i].push_back(quantile_metric_value(static_cast<QuantileMetric>(i), task_metrics));
  }
}

void TaskDistribution::reserve(size_t tasks) {
  for (auto& column : columns_) column.reserve(tasks);
}

std::array<Quantiles, kQuantileMetricCount> TaskDistribution::finish() {
  std::array<Quantiles, kQuantileMetricCount> result{};
  for (size_t i = 0; i < kQuantileMetricCount; ++i) {
    result[i] = compute_quantiles(columns_[i]);
    std::vector<int64_t>().swap(columns_[i]);
  }
  return result;
}

}  // namespace sf::model

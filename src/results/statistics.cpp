#include "results/statistics.h"

#include <array>
#include <cmath>

namespace sf::results {

double mean(const std::vector<double>& values) {
  // Kahan summation: means of long windows stay exact enough to reproduce byte for byte.
  double sum = 0, compensation = 0;
  for (double v : values) {
    const double y = v - compensation;
    const double t = sum + y;
    compensation = (t - sum) - y;
    sum = t;
  }
  return sum / static_cast<double>(values.size());
}

double sample_standard_deviation(const std::vector<double>& values) {
  const double m = mean(values);
  double squares = 0;
  for (double v : values) squares += (v - m) * (v - m);
  return std::sqrt(squares / static_cast<double>(values.size() - 1));
}

double student_t_975(int64_t degrees_of_freedom) {
  static constexpr std::array<double, 30> kTable = {
      12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
      2.120,  2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (degrees_of_freedom < 1) return INFINITY;
  if (degrees_of_freedom <= 30) return kTable[static_cast<size_t>(degrees_of_freedom - 1)];
  if (degrees_of_freedom < 40) return 2.042;
  if (degrees_of_freedom < 60) return 2.021;
  if (degrees_of_freedom < 120) return 2.000;
  if (degrees_of_freedom < 1000) return 1.980;
  return 1.960;
}

}  // namespace sf::results

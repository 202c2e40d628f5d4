// The few statistics the comparison methods need, in one place so every method computes them
// the same way.
#pragma once

#include <cstdint>
#include <vector>

namespace sf::results {

double mean(const std::vector<double>& values);                       // values non-empty
double sample_standard_deviation(const std::vector<double>& values);  // n - 1 denominator; n >= 2

// The 0.975 quantile of Student's t with `degrees_of_freedom` (>= 1): a 95% two-sided
// interval's multiplier. Exact table to 30, then conservative steps (the next smaller tabled
// degrees of freedom), 1.96 past 1000.
double student_t_975(int64_t degrees_of_freedom);

}  // namespace sf::results

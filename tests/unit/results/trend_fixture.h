// Building results and histories for the comparator tests, in a few readable lines each.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "results/result.h"
#include "results/result_json.h"

namespace sf::results::testing {

// A result under construction: subject "job", one quantity unless told otherwise.
class ResultBuilder {
 public:
  explicit ResultBuilder(std::string subject = "job") { doc_.subject = std::move(subject); }

  ResultBuilder& tree(std::string tree, std::vector<std::string> parents = {}) {
    doc_.revision.tree = std::move(tree);
    doc_.revision.parents = std::move(parents);
    return *this;
  }
  ResultBuilder& benchmark_tree(std::string tree) {
    doc_.revision.benchmark_tree = std::move(tree);
    return *this;
  }
  ResultBuilder& dirty() {
    doc_.revision.clean = false;
    return *this;
  }
  ResultBuilder& param(const std::string& key, std::string value) {
    doc_.parameters[key] = std::move(value);
    return *this;
  }
  ResultBuilder& env(const std::string& key, std::string value) {
    doc_.environment[key] = std::move(value);
    return *this;
  }
  ResultBuilder& status(RunStatus s) {
    doc_.status = s;
    return *this;
  }
  ResultBuilder& run(std::string key, int64_t round, int64_t slot) {
    doc_.procedure = {std::move(key), round, slot};
    return *this;
  }
  ResultBuilder& quantity(std::string name, double value, Direction direction = Direction::kLowerIsBetter,
                          bool deterministic = false, std::string unit = "ms") {
    doc_.quantities.push_back({std::move(name), value, std::move(unit), direction, deterministic});
    return *this;
  }
  ResultBuilder& duration(double value) { return quantity("durationMs", value); }

  ResultDocument document() const {
    ResultDocument d = doc_;
    std::sort(d.quantities.begin(), d.quantities.end(),
              [](const Quantity& a, const Quantity& b) { return a.name < b.name; });
    return d;
  }

 private:
  ResultDocument doc_;
};

// Results in native (ingest) order, as a store would return them.
class History {
 public:
  const StoredResult& add(const ResultBuilder& builder) {
    ResultDocument d = builder.document();
    d.origin = fmt::format("test result {}", results_.size() + 1);  // distinct ids for equal measurements
    StoredResult r{static_cast<int64_t>(results_.size() + 1), result_id(d), std::move(d)};
    results_.push_back(std::move(r));
    return results_.back();
  }
  const std::vector<StoredResult>& results() const { return results_; }
  const std::string& last_id() const { return results_.back().id; }

 private:
  std::vector<StoredResult> results_;
};

// Values around `center` with a sample standard deviation of exactly `center * relative_noise`
// (alternating +-a around the center, a scaled so the n-1 standard deviation comes out exact).
inline std::vector<double> noisy_values(double center, double relative_noise, size_t n) {
  std::vector<double> values;
  // n even: n values at +-a, mean exact, sum of squares n a^2 -> sd = a sqrt(n/(n-1)).
  const double a = center * relative_noise * std::sqrt((static_cast<double>(n) - 1) / static_cast<double>(n));
  for (size_t i = 0; i < n; ++i) values.push_back(center + ((i % 2 == 0) ? a : -a));
  return values;
}

}  // namespace sf::results::testing

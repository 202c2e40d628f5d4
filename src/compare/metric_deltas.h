// Whole-run metric deltas: wall-clock, executor time, GC, spill, shuffle, I/O, skew, failures,
// executors and cores, as plain sums over every stage of each run.
//
// Deliberately independent of stage pairing: they hold even when the pairing is weak, which is
// why the confidence banner never hides them. Every metric is "lower is better" (less time,
// less data moved, fewer failures, fewer executors for the same job); a metric a run does not
// record carries an unavailable_reason and no delta.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/app_model.h"

namespace sf::compare {

enum class Direction { kImprovement, kRegression, kUnchanged, kUnavailable };
std::string_view to_string(Direction direction);  // improvement, regression, unchanged, unavailable

// The unit a metric's values are in: ms, bytes, ratio or count.
struct MetricDefinition {
  std::string_view name;  // camelCase, as budgets name it: "wallClock", "spill"
  std::string_view unit;
  std::string_view description;
};

// Every metric, in report order.
const std::vector<MetricDefinition>& metric_definitions();
const MetricDefinition* find_metric(std::string_view name);

// One metric of one run: its value, or why there is none.
struct MetricValue {
  std::optional<double> value;
  std::string unavailable_reason;
};

struct MetricDelta {
  std::string name;
  std::string unit;
  std::optional<double> baseline;
  std::optional<double> candidate;
  std::optional<double> delta;            // candidate - baseline
  std::optional<double> relative_change;  // delta / baseline; nullopt when baseline is 0
  Direction direction = Direction::kUnavailable;
  std::string unavailable_reason;  // "" when both sides have the metric
};

// The metric `name` of a run (one of metric_definitions()).
MetricValue run_metric(const model::AppModel& model, std::string_view name);

std::vector<MetricDelta> metric_deltas(const model::AppModel& baseline, const model::AppModel& candidate);

}  // namespace sf::compare

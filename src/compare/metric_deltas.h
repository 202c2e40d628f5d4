// Whole-run metric deltas: wall-clock, executor time, GC, spill, shuffle, I/O, skew, failures,
// executors, cores, core-hours and cost (at the analysis options' rate card: analysis/economics/cost.h),
// as plain sums over every stage of each run.
//
// Deliberately independent of stage pairing: they hold even when the pairing is weak, which is
// why the confidence banner never hides them. Every metric is "lower is better" (less time,
// less data moved, fewer failures, fewer executors for the same job); a metric a run does not
// record carries an unavailable_reason and no delta.
//
// Each metric has a noise band: what one run of each side can tell apart. A change within
// max(absolute, relative x baseline) is "unchanged", however it is signed: two runs of one job
// on one cluster differ by that much with nothing changed (JVM start, scheduling, GC, the
// order spills happen in). Quantities Spark counts exactly (input bytes, stages, attempts) have
// no band. docs/compare.md lists the bands.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/economics/rate_card.h"
#include "model/app_model.h"

namespace sf::compare {

// Which way a figure moved from the baseline to the candidate (results::Direction is another
// thing: which way of a quantity is better). kNotComparable: the runs are not of one job
// (compare_runs decides), so no change is labelled.
enum class ChangeKind { kImprovement, kRegression, kUnchanged, kUnavailable, kNotComparable };
// improvement, regression, unchanged, unavailable, notComparable
std::string_view to_string(ChangeKind direction);

struct NoiseBand {
  double relative = 0;  // of the baseline's value
  double absolute = 0;  // in the metric's unit
};

// The unit a metric's values are in: ms, bytes, ratio, count, core-hours, or "money" (the rate
// card's currency: a delta carries the currency itself as its unit).
struct MetricDefinition {
  std::string_view name;  // camelCase, as budgets name it: "wallClock", "spill"
  std::string_view unit;
  std::string_view description;
  NoiseBand noise;
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
  ChangeKind direction = ChangeKind::kUnavailable;
  double noise = 0;                // the change this comparison reads as unchanged, in the unit
  std::string unavailable_reason;  // "" when both sides have the metric
};

// The change within which a value of `baseline` reads as unchanged, and the direction of `delta`.
double noise_allowance(const NoiseBand& band, double baseline);
ChangeKind direction_of(double delta, double allowance);

// The band of durations (wall-clock, SQL executions): what one run of a job can tell apart.
inline constexpr NoiseBand kDurationNoise{0.05, 500};

// The metric `name` of a run (one of metric_definitions()); `rates` prices "cost".
MetricValue run_metric(const model::AppModel& model, std::string_view name,
                       const analysis::RateCard& rates = analysis::default_rate_card());

std::vector<MetricDelta> metric_deltas(const model::AppModel& baseline, const model::AppModel& candidate,
                                       const analysis::RateCard& rates = analysis::default_rate_card());

}  // namespace sf::compare

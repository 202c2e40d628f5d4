// The occupancy model: how much of each stage's wall-clock window was its own.
//
// Every stage attempt with an observed [submission, completion) window of positive length
// takes part in one sweep over time. At each instant the wall-clock is split among the active
// stages in proportion to coreWeight = executorRunTime / duration (their average concurrency).
// A stage's occupancy is its share summed over its window; gate = occupancy / duration is in
// [0, 1]: 1 ran alone, 0 had no work while others did. window_cores is the cores the
// application held during the stage's window (executors come and go under dynamic allocation),
// averaged over it; ceiling = max(longest task, executorRunTime / window cores) is the stage's
// physical floor with its tasks as they were.
// When every active stage has zero weight, the instant is split equally among them.
#pragma once

#include <cstdint>
#include <vector>

#include "model/app_model.h"

namespace sf::analysis {

struct Interval {
  double start_ms = 0;
  double end_ms = 0;
};

// A log's epoch milliseconds on the intervals' axis.
inline double epoch_ms(int64_t t) { return static_cast<double>(t); }

// Sorted, non-overlapping cover of the intervals (empty or inverted ones dropped).
std::vector<Interval> merge_intervals(std::vector<Interval> intervals);
// Total length of the union of the intervals.
double union_ms(std::vector<Interval> intervals);

struct StageOccupancy {
  bool in_sweep = false;  // has a window of positive length
  double duration_ms = 0;
  double core_weight = 0;  // executorRunTime / duration
  double occupancy_ms = 0;
  double gate = 0;          // occupancy / duration, in [0, 1]
  double window_cores = 0;  // cores held during the window, on average (peak cores without executor data)
  // From the first task's launch (within the window) to the end: before it the stage waited, for
  // executors to arrive (a cold start) or for cores another stage held.
  Interval running;
  double running_cores = 0;  // cores held while it ran, on average
  double running_ms() const { return running.end_ms - running.start_ms; }
  double ceiling_ms = 0;  // max(longest task, executorRunTime / window cores)
  Interval window;
};

// One entry per model.stages entry, same order.
std::vector<StageOccupancy> compute_occupancy(const model::AppModel& model);

// Each executor's cores over [added, removed): what the application held, instant by instant
// (end is +infinity for an executor never removed). Empty when the log gives no cores per
// executor (model.peak_cores_from_executor_count).
struct CoreSpan {
  double start_ms = 0;
  double end_ms = 0;
  double cores = 0;
};
std::vector<CoreSpan> held_core_spans(const model::AppModel& model);
// The core-ms the spans held within the window.
double held_core_ms(const std::vector<CoreSpan>& spans, const Interval& window);

}  // namespace sf::analysis

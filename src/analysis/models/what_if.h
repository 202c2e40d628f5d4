// "How long with N executors?": the schedule simulation (schedule_simulation.h) run for a range
// of executor counts of today's cores each, with the log's dynamic-allocation settings (N is then
// its maxExecutors).
//
// The range: 1, 2, 3, 4, 6, 8, 12, 16, ... (about x1.5 a step) and today's count, up to the
// count where the largest stage's tasks all run at once, but at least twice today's and at
// most sixteen times. The curve is made non-increasing: a scheduler with more executors could
// leave the extra ones idle, so a list-scheduling anomaly (more cores finishing later because
// tasks land in a different order) is not shown as a cost of more executors. The knee is the
// smallest count within kKneeShare of the best time on the curve.
//
// Today's size is the cluster the settings gave: static allocation, the executors it held;
// dynamic allocation, its maxExecutors, no more than the largest stage's tasks would fill at the
// allocation ratio, and no fewer than it held (a cluster that never reached its maximum was held
// back by the tasks, the ramp or the cluster, which the simulation plays out itself). At today's
// size the simulation should give today's wall-clock back: today_error says by how much it does
// not (docs/economics.md states the tolerance and the corpus' distribution).
//
// Under dynamic allocation with a ramp slower than Spark's default (an allocation ratio under 1,
// or rounds more than 1 s apart), today's size is also replayed with the default ramp: what the
// allocationRamp finding weighs. Both runs take executors the measured startup after they are
// asked for, so they differ by the ramp alone.
// Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/models/schedule_simulation.h"
#include "analysis/settings/cluster_shape.h"
#include "model/app_model.h"

namespace sf::analysis {

struct WhatIfPoint {
  int32_t executors = 0;
  double simulated_ms = 0;    // the simulation at this size
  double predicted_ms = 0;    // the curve: the least simulated time at this size or fewer
  double executor_hours = 0;  // executors held, summed over their lifetimes in the simulation
  double cost = 0;            // at the rate card's prices (filled by the cost model)
};

// The cluster the default ratio fills, replayed with the log's ramp settings, with Spark's
// default ramp, and with each slow setting alone set to its default (what each is worth).
struct AllocationRamp {
  static constexpr double kDefaultRatio = 1;
  static constexpr double kDefaultSustainedMs = 1000;

  int32_t executors = 1;  // the replays' N: maxExecutors, within what the largest stage fills
  double allocation_ratio = 1;
  double sustained_backlog_timeout_ms = 1000;
  double executor_startup_ms = 0;  // what every replay takes from asking for an executor to its registering
  double settings_ms = 0;          // the ramp as set
  double default_ms = 0;           // ratio 1, rounds at most 1 s apart
  double default_ratio_ms = 0;     // ratio 1, the log's rounds (settings_ms when the ratio is 1 already)
  double default_rounds_ms = 0;    // the log's ratio, rounds 1 s apart (settings_ms when they are already)
  double settings_executor_hours = 0;
  double default_executor_hours = 0;

  bool slow_ratio() const { return allocation_ratio < kDefaultRatio; }
  bool slow_rounds() const { return sustained_backlog_timeout_ms > kDefaultSustainedMs; }
};

struct WhatIf {
  static constexpr double kKneeShare = 0.05;

  int32_t cores_per_executor = 1;
  int32_t task_cpus = 1;        // spark.task.cpus in effect: cores each task takes
  int32_t today_executors = 1;  // the size the settings gave (dynamic allocation: see above)
  int32_t peak_executors = 1;   // the most the log's cluster held at once
  bool dynamic_allocation = false;
  double measured_ms = 0;  // the application's wall-clock
  double today_simulated_ms = 0;
  double today_error = 0;          // (simulated - measured) / measured at today's size
  std::vector<WhatIfPoint> curve;  // ascending executors; today's size is one of them
  int32_t knee_executors = 0;
  double knee_ms = 0;
  double best_ms = 0;
  std::optional<AllocationRamp> ramp;
};

// nullopt when the log has no application start or no duration. The tasks' durations are worked
// out and the sizes simulated on up to `threads` threads (the calling one among them): the same
// curve whatever the count.
std::optional<WhatIf> what_if(const model::AppModel& model, const ClusterShape& shape, unsigned threads = 1);

// A cluster of `executors` executors shaped as today's, for the simulation; each runs at most
// `most_stage_tasks` tasks at once (the largest stage's task attempts: more slots would be idle).
SimulatedCluster simulated_cluster(const ClusterShape& shape, int32_t executors, int64_t most_stage_tasks);

}  // namespace sf::analysis

// What the application cost, at a rate card's prices (rate_card.h), and where that money went.
//
// What is paid for is what was held: each executor's cores and memory (heap, overhead, off-heap
// and PySpark memory: cluster_shape.h) from its registration to its removal or the application's
// end, and the driver's cores and memory for the whole run (in local mode the driver is all of
// it). Cost = core-hours x the core price + GiB-hours x the memory price.
//
// That money is shared out instant by instant: among the stage attempts running at that instant
// by their core weight (executor run time / duration, as the occupancy model shares wall-clock:
// occupancy.h), among the jobs running by equal shares, and among the SQL executions running by
// equal shares. What no job shared is the cost of driver-only time. A finding's cost is what its
// recoverable wall-clock represents: that time at the price of what was held while its stages
// ran (the application's average without stages); a finding with only a resource figure (core-
// hours, MB-seconds) is priced in that resource.
//
// Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/economics/rate_card.h"
#include "analysis/findings/finding.h"
#include "analysis/models/occupancy.h"
#include "analysis/settings/cluster_shape.h"
#include "model/app_model.h"

namespace sf::analysis {

struct HeldResource {
  Interval window;  // epoch ms
  double cores = 0;
  double memory_gib = 0;
  bool driver = false;
};

// Everything the application held, and for how long.
std::vector<HeldResource> held_resources(const model::AppModel& model, const ClusterShape& shape);

struct FindingCost {
  std::string finding_id;
  double low = 0;  // the low end of its recoverable wall-clock, priced (or its resource cost)
  double high = 0;
};

struct Cost {
  RateCard rate_card;
  double total = 0;  // the application
  double executors = 0;
  double driver = 0;
  double core_hours = 0;
  double gib_hours = 0;
  double driver_only = 0;                           // while no job ran
  std::vector<std::pair<StageRef, double>> stages;  // stage attempts with a window, model order
  std::vector<std::pair<int64_t, double>> jobs;     // by job id
  std::vector<std::pair<int64_t, double>> sql;      // by execution id
  std::vector<FindingCost> findings;                // findings with a figure, in their order
};

Cost compute_cost(const model::AppModel& model, const ClusterShape& shape, const std::vector<StageOccupancy>& occupancy,
                  const std::vector<Finding>& findings, const RateCard& rates);

// The application's cost alone: what compare and the result store judge.
double application_cost(const model::AppModel& model, const RateCard& rates);

// The price of one executor of `shape` for an hour, and of the driver for an hour.
double executor_hour_price(const ClusterShape& shape, const RateCard& rates);
double driver_hour_price(const ClusterShape& shape, const RateCard& rates);

}  // namespace sf::analysis

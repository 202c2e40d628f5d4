#include "analysis/economics/economics.h"

namespace sf::analysis {

Economics model_economics(const model::AppModel& model, unsigned threads) {
  Economics e;
  e.cluster = cluster_shape(model);
  e.time_split = app_time_split(model);
  e.jobs = job_time_splits(model);
  e.sql = sql_time_splits(model);
  e.critical_path = critical_path(model);
  e.what_if = what_if(model, e.cluster, threads);
  return e;
}

void price_economics(Economics& e, const model::AppModel& model, const std::vector<StageOccupancy>& occupancy,
                     const std::vector<Finding>& findings, const RateCard& rates) {
  e.cost = compute_cost(model, e.cluster, occupancy, findings, rates);
  if (e.what_if) {
    // Each size at its simulation's holding: its executors' lifetimes and the driver for the run.
    const double executor_price = executor_hour_price(e.cluster, rates);
    const double driver_price = e.cluster.local_mode ? 0.0 : driver_hour_price(e.cluster, rates);
    for (WhatIfPoint& p : e.what_if->curve) {
      p.cost = p.executor_hours * executor_price + p.simulated_ms / 3.6e6 * driver_price;
    }
  }
}

}  // namespace sf::analysis

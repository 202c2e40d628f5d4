// What the application's executors offered and what its tasks used: the one owner of "idle
// cores" (utilization, the bands of core-time costs). Capacity is what the application held,
// each executor's cores from its registration to its removal within the run, never the peak
// held for the whole run: under dynamic allocation the two differ by the executors that came
// and went, and idle core time can never exceed the core time held.
//
// Plain values computed from the model; pure and thread-safe.
#pragma once

#include <optional>

#include "model/app_model.h"

namespace sf::analysis {

struct CoreCapacity {
  double run_ms = 0;        // the application's duration
  double held_core_ms = 0;  // what the executors offered within the run
  double task_core_ms = 0;  // task time, every attempt
  // Held while no job ran: the driver worked alone (planning, listing, its own code) or nothing
  // did. Executors kept then are an allocation question; idle inside jobs is the stages' shape.
  double held_outside_jobs_core_ms = 0;
  // False when the log gives no executor timeline (local mode, or no cores per executor): the
  // peak concurrent cores stand in for the whole run.
  bool from_executor_timeline = false;

  double idle_core_ms() const { return held_core_ms > task_core_ms ? held_core_ms - task_core_ms : 0.0; }
  // Idle while jobs ran: tasks could not fill the cores (too few, or waiting on stragglers).
  double idle_in_jobs_core_ms() const {
    const double in_jobs = idle_core_ms() - held_outside_jobs_core_ms;
    return in_jobs > 0 ? in_jobs : 0.0;
  }
  double busy_fraction() const { return held_core_ms > 0 ? task_core_ms / held_core_ms : 0.0; }
};

// nullopt without an application start, a duration or any core capacity.
std::optional<CoreCapacity> core_capacity(const model::AppModel& model);

}  // namespace sf::analysis

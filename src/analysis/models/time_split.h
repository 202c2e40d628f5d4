// Where wall-clock goes between the driver and the executors, for the application, each job and
// each SQL execution.
//
// A window (the application, a job, an execution) is split by the windows of the work it
// started (its jobs, its stages): the time before the first one, the time some of them ran (the
// union of their windows, clipped to the outer one), the gaps between them, and the time after
// the last one. Outside the inner windows only the driver works: it plans queries, lists files,
// collects broadcasts and results and runs its own code on them. For the application the inner
// windows are its jobs (a job that never ended runs until the log stops); for a job, its stage
// attempts; for a SQL execution, its jobs.
//
// Plain values computed from the model; pure and thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/models/occupancy.h"
#include "model/app_model.h"

namespace sf::analysis {

struct WindowSplit {
  double duration_ms = 0;
  double before_first_ms = 0;  // outer start to the first inner window
  double inside_ms = 0;        // union of the inner windows, clipped to the outer one
  double between_ms = 0;       // gaps between inner windows
  double after_last_ms = 0;    // the last inner window's end to the outer end (0 when the end is unknown)
  int64_t gaps_over_one_second = 0;
  double longest_gap_ms = 0;

  // Time no inner window covered: before, between and after.
  double outside_ms() const { return before_first_ms + between_ms + after_last_ms; }
};

// Splits `outer` by `inner`. With no inner window the whole outer window is before the first
// (there is none); `end_known` false leaves out the time after the last one (a log cut short
// says nothing about what followed).
WindowSplit split_window(Interval outer, std::vector<Interval> inner, bool end_known = true);

// The windows of the application's jobs (one that never ended runs until `end_ms`), merged.
std::vector<Interval> app_job_windows(const model::AppModel& model, double end_ms);

// The application: inside = some job ran (executor time); outside = driver-only time.
// nullopt when the log has no application start.
std::optional<WindowSplit> app_time_split(const model::AppModel& model);

// From the application's first job to its end, split by its jobs, its SQL executions and its
// streaming queries' runs together: outside them neither a job ran nor a query was being planned,
// run or waiting for its next trigger, so only the driver's own code did (a loop over collected rows, waits, calls to
// other services). nullopt without a start or a job.
std::optional<WindowSplit> driver_code_split(const model::AppModel& model);

struct JobTimeSplit {
  int64_t job_id = 0;
  WindowSplit split;  // inside = some stage attempt of the job ran
};

struct SqlTimeSplit {
  int64_t execution_id = 0;
  WindowSplit split;  // inside = some job of the execution ran
};

// Jobs and SQL executions with a start and an end (an unfinished one ends with the log), in id
// order.
std::vector<JobTimeSplit> job_time_splits(const model::AppModel& model);
std::vector<SqlTimeSplit> sql_time_splits(const model::AppModel& model);

// The application's end as the time split sees it: start + duration; nullopt without a start.
std::optional<double> app_end_ms(const model::AppModel& model);

}  // namespace sf::analysis

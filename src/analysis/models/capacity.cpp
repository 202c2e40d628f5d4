#include "analysis/models/capacity.h"

#include <algorithm>

#include "analysis/models/occupancy.h"
#include "analysis/models/time_split.h"

namespace sf::analysis {

std::optional<CoreCapacity> core_capacity(const model::AppModel& model) {
  const std::optional<double> end = app_end_ms(model);
  if (!end || !model.app.start_time_ms) return std::nullopt;
  const Interval run{static_cast<double>(*model.app.start_time_ms), *end};
  CoreCapacity capacity;
  capacity.run_ms = run.end_ms - run.start_ms;
  if (!(capacity.run_ms > 0)) return std::nullopt;
  for (const model::StageAttempt& stage : model.stages) {
    capacity.task_core_ms += static_cast<double>(stage.metric(model::TaskMetric::kDurationMs));
  }

  // The times outside every job: before the first, between them, after the last.
  std::vector<Interval> outside_jobs;
  double from = run.start_ms;
  for (const Interval& job : app_job_windows(model, run.end_ms)) {
    if (job.start_ms > from) outside_jobs.push_back({from, std::min(job.start_ms, run.end_ms)});
    from = std::max(from, job.end_ms);
  }
  if (from < run.end_ms) outside_jobs.push_back({from, run.end_ms});

  const std::vector<CoreSpan> spans = held_core_spans(model);
  capacity.held_core_ms = held_core_ms(spans, run);
  capacity.from_executor_timeline = capacity.held_core_ms > 0;
  if (capacity.from_executor_timeline) {
    for (const Interval& gap : outside_jobs) capacity.held_outside_jobs_core_ms += held_core_ms(spans, gap);
  } else {
    const double cores = std::max(0, model.peak_concurrent_cores);
    capacity.held_core_ms = cores * capacity.run_ms;
    for (const Interval& gap : outside_jobs) capacity.held_outside_jobs_core_ms += cores * (gap.end_ms - gap.start_ms);
  }
  if (!(capacity.held_core_ms > 0)) return std::nullopt;
  return capacity;
}

}  // namespace sf::analysis

#include "analysis/models/occupancy.h"

#include <algorithm>
#include <limits>

namespace sf::analysis {

std::vector<Interval> merge_intervals(std::vector<Interval> intervals) {
  std::erase_if(intervals, [](const Interval& i) { return !(i.end_ms > i.start_ms); });
  std::sort(intervals.begin(), intervals.end(),
            [](const Interval& a, const Interval& b) { return a.start_ms < b.start_ms; });
  std::vector<Interval> merged;
  for (const Interval& i : intervals) {
    if (!merged.empty() && i.start_ms <= merged.back().end_ms) {
      merged.back().end_ms = std::max(merged.back().end_ms, i.end_ms);
    } else {
      merged.push_back(i);
    }
  }
  return merged;
}

double union_ms(std::vector<Interval> intervals) {
  double total = 0;
  for (const Interval& i : merge_intervals(std::move(intervals))) total += i.end_ms - i.start_ms;
  return total;
}

std::vector<CoreSpan> held_core_spans(const model::AppModel& model) {
  std::vector<CoreSpan> spans;
  if (model.peak_cores_from_executor_count) return spans;  // no cores per executor in the log
  for (const model::Executor& e : model.executors) {
    if (!e.add_time_ms || e.total_cores <= 0) continue;
    const double end =
        e.remove_time_ms ? static_cast<double>(*e.remove_time_ms) : std::numeric_limits<double>::infinity();
    spans.push_back({static_cast<double>(*e.add_time_ms), end, static_cast<double>(e.total_cores)});
  }
  return spans;
}

double held_core_ms(const std::vector<CoreSpan>& spans, const Interval& window) {
  double core_ms = 0;
  for (const CoreSpan& s : spans) {
    const double overlap = std::min(s.end_ms, window.end_ms) - std::max(s.start_ms, window.start_ms);
    if (overlap > 0) core_ms += overlap * s.cores;
  }
  return core_ms;
}

namespace {

// Average cores held over the window; the peak when the log does not say when executors came.
double cores_in_window(const std::vector<CoreSpan>& spans, const Interval& window, double peak_cores) {
  const double length = window.end_ms - window.start_ms;
  if (spans.empty() || !(length > 0)) return peak_cores;
  const double core_ms = held_core_ms(spans, window);
  return core_ms > 0 ? core_ms / length : peak_cores;
}

}  // namespace

std::vector<StageOccupancy> compute_occupancy(const model::AppModel& model) {
  std::vector<StageOccupancy> result(model.stages.size());
  const double peak_cores = static_cast<double>(model.peak_concurrent_cores);
  const std::vector<CoreSpan> spans = held_core_spans(model);

  struct Boundary {
    double time_ms;
    bool start;
    size_t stage;
  };
  std::vector<Boundary> boundaries;
  for (size_t i = 0; i < model.stages.size(); ++i) {
    const model::StageAttempt& s = model.stages[i];
    StageOccupancy& o = result[i];
    const double run_time = static_cast<double>(s.metric(model::TaskMetric::kExecutorRunTimeMs));
    o.window_cores = peak_cores;
    o.running_cores = peak_cores;
    if (s.submission_time_ms && s.completion_time_ms && *s.completion_time_ms > *s.submission_time_ms) {
      o.window = {static_cast<double>(*s.submission_time_ms), static_cast<double>(*s.completion_time_ms)};
      o.window_cores = cores_in_window(spans, o.window, peak_cores);
      o.running = o.window;
      o.running_cores = o.window_cores;
      if (s.first_task_launched_time_ms) {
        o.running.start_ms =
            std::clamp(static_cast<double>(*s.first_task_launched_time_ms), o.window.start_ms, o.window.end_ms);
        if (o.running.start_ms > o.window.start_ms) o.running_cores = cores_in_window(spans, o.running, peak_cores);
      }
    }
    o.ceiling_ms =
        std::max(static_cast<double>(s.max_task_duration_ms), o.window_cores > 0 ? run_time / o.window_cores : 0.0);
    if (!(o.window.end_ms > o.window.start_ms)) continue;
    o.in_sweep = true;
    o.duration_ms = o.window.end_ms - o.window.start_ms;
    o.core_weight = run_time / o.duration_ms;
    boundaries.push_back({o.window.start_ms, true, i});
    boundaries.push_back({o.window.end_ms, false, i});
  }
  // At one instant, ends before starts: a window is half-open.
  std::sort(boundaries.begin(), boundaries.end(), [](const Boundary& a, const Boundary& b) {
    if (a.time_ms != b.time_ms) return a.time_ms < b.time_ms;
    if (a.start != b.start) return !a.start;
    return a.stage < b.stage;
  });

  std::vector<size_t> active;
  double previous = 0;
  for (const Boundary& b : boundaries) {
    const double segment = b.time_ms - previous;
    if (segment > 0 && !active.empty()) {
      double total_weight = 0;
      for (size_t i : active) total_weight += result[i].core_weight;
      for (size_t i : active) {
        const double share =
            total_weight > 0 ? result[i].core_weight / total_weight : 1.0 / static_cast<double>(active.size());
        result[i].occupancy_ms += segment * share;
      }
    }
    previous = b.time_ms;
    if (b.start) {
      active.push_back(b.stage);
    } else {
      std::erase(active, b.stage);
    }
  }
  for (StageOccupancy& o : result) {
    if (o.in_sweep) o.gate = std::clamp(o.occupancy_ms / o.duration_ms, 0.0, 1.0);
  }
  return result;
}

}  // namespace sf::analysis

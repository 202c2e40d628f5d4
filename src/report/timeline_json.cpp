#include "report/timeline_json.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "analysis/occupancy.h"

namespace sf::report {

namespace {

using nlohmann::ordered_json;

// A step series from (time, change) pairs: the running total after every instant with a change.
ordered_json step_series(std::vector<std::pair<double, double>> changes) {
  std::sort(changes.begin(), changes.end());
  ordered_json out = ordered_json::array();
  double total = 0;
  for (size_t i = 0; i < changes.size(); ++i) {
    total += changes[i].second;
    if (i + 1 < changes.size() && changes[i + 1].first == changes[i].first) continue;
    // Sums of fractional weights leave dust (1e-13) where the total returns to zero.
    const double shown = std::abs(total) < 1e-9 ? 0.0 : std::round(total * 1000) / 1000;
    out.push_back(ordered_json::array({static_cast<int64_t>(changes[i].first), shown}));
  }
  return out;
}

double run_end_ms(const model::AppModel& model) {
  if (model.app.end_time_ms) return static_cast<double>(*model.app.end_time_ms);
  return static_cast<double>(model.app.last_event_time_ms.value_or(model.app.start_time_ms.value_or(0)));
}

}  // namespace

ordered_json timeline_json(const model::AppModel& model) {
  const std::vector<analysis::StageOccupancy> occupancy = analysis::compute_occupancy(model);
  ordered_json stages = ordered_json::array();
  std::vector<std::pair<double, double>> busy;
  for (size_t i = 0; i < model.stages.size() && i < occupancy.size(); ++i) {
    const analysis::StageOccupancy& o = occupancy[i];
    if (!o.in_sweep) continue;
    const model::StageAttempt& s = model.stages[i];
    ordered_json stage;
    stage["stageId"] = s.stage_id;
    stage["attemptId"] = s.attempt_id;
    stage["startMs"] = static_cast<int64_t>(o.window.start_ms);
    stage["endMs"] = static_cast<int64_t>(o.window.end_ms);
    stage["gate"] = std::round(o.gate * 10000) / 10000;
    stage["coreWeight"] = std::round(o.core_weight * 1000) / 1000;
    stage["windowCores"] = std::round(o.window_cores * 1000) / 1000;
    stages.push_back(std::move(stage));
    busy.emplace_back(o.window.start_ms, o.core_weight);
    busy.emplace_back(o.window.end_ms, -o.core_weight);
  }
  const double end_ms = run_end_ms(model);
  std::vector<std::pair<double, double>> held;
  for (const analysis::CoreSpan& span : analysis::held_core_spans(model)) {
    held.emplace_back(span.start_ms, span.cores);
    held.emplace_back(std::isfinite(span.end_ms) ? span.end_ms : std::max(end_ms, span.start_ms), -span.cores);
  }
  ordered_json out;
  out["stages"] = std::move(stages);
  out["coresAllocated"] = step_series(std::move(held));
  out["coresBusy"] = step_series(std::move(busy));
  return out;
}

}  // namespace sf::report

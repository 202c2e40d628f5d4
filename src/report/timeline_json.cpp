#include "report/timeline_json.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "analysis/models/occupancy.h"
#include "common/json_writer.h"
#include "report/document_kind.h"

namespace sf::report {

namespace {

// A step series from (time, change) pairs: the running total after every instant with a change.
void write_step_series(JsonWriter& w, std::string_view name, std::vector<std::pair<double, double>> changes) {
  std::sort(changes.begin(), changes.end());
  w.array_field(name, [&] {
    double total = 0;
    for (size_t i = 0; i < changes.size(); ++i) {
      total += changes[i].second;
      if (i + 1 < changes.size() && changes[i + 1].first == changes[i].first) continue;
      // Sums of fractional weights leave dust (1e-13) where the total returns to zero.
      const double shown = std::abs(total) < 1e-9 ? 0.0 : std::round(total * 1000) / 1000;
      w.array([&] {
        w.integer(static_cast<int64_t>(changes[i].first));
        w.number(shown);
      });
    }
  });
}

double run_end_ms(const model::AppModel& model) {
  if (model.app.end_time_ms) return static_cast<double>(*model.app.end_time_ms);
  return static_cast<double>(model.app.last_event_time_ms.value_or(model.app.start_time_ms.value_or(0)));
}

}  // namespace

std::string timeline_json(const model::AppModel& model) {
  const std::vector<analysis::StageOccupancy> occupancy = analysis::compute_occupancy(model);
  std::string out;
  JsonWriter w(out);
  std::vector<std::pair<double, double>> busy;
  w.begin_object();
  write_document_kind(w, kTimelineDocument);
  w.array_field("stages", [&] {
    for (size_t i = 0; i < model.stages.size() && i < occupancy.size(); ++i) {
      const analysis::StageOccupancy& o = occupancy[i];
      if (!o.in_sweep) continue;
      const model::StageAttempt& s = model.stages[i];
      w.object([&] {
        w.field("stageId", s.stage_id);
        w.field("attemptId", s.attempt_id);
        w.field("startMs", static_cast<int64_t>(o.window.start_ms));
        w.field("endMs", static_cast<int64_t>(o.window.end_ms));
        w.field("gate", std::round(o.gate * 10000) / 10000);
        w.field("coreWeight", std::round(o.core_weight * 1000) / 1000);
        w.field("windowCores", std::round(o.window_cores * 1000) / 1000);
      });
      busy.emplace_back(o.window.start_ms, o.core_weight);
      busy.emplace_back(o.window.end_ms, -o.core_weight);
    }
  });
  const double end_ms = run_end_ms(model);
  std::vector<std::pair<double, double>> held;
  for (const analysis::CoreSpan& span : analysis::held_core_spans(model)) {
    held.emplace_back(span.start_ms, span.cores);
    held.emplace_back(std::isfinite(span.end_ms) ? span.end_ms : std::max(end_ms, span.start_ms), -span.cores);
  }
  write_step_series(w, "coresAllocated", std::move(held));
  write_step_series(w, "coresBusy", std::move(busy));
  w.end_object();
  return out;
}

}  // namespace sf::report

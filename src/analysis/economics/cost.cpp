#include "analysis/economics/cost.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "analysis/models/time_split.h"

namespace sf::analysis {

namespace {

constexpr double kMsPerHour = 3.6e6;

double price_per_ms(const HeldResource& r, const RateCard& rates) {
  return (r.cores * rates.per_core_hour + r.memory_gib * rates.per_gib_hour) / kMsPerHour;
}

double overlap_ms(const Interval& a, const Interval& b) {
  return std::max(0.0, std::min(a.end_ms, b.end_ms) - std::max(a.start_ms, b.start_ms));
}

// What was held over `windows` (disjoint), priced.
double cost_over(const std::vector<Interval>& windows, const std::vector<HeldResource>& held, const RateCard& rates) {
  double total = 0;
  for (const HeldResource& r : held) {
    for (const Interval& w : windows) total += overlap_ms(r.window, w) * price_per_ms(r, rates);
  }
  return total;
}

// The cost of what was held, shared at every instant among the items running then in proportion
// to their weights (equally when every running item weighs nothing). An item's share is
// weight x (A(end) - A(start)) + (B(end) - B(start)), where A sums price / total weight over the
// time some weight ran and B sums price / items over the time only weightless items ran.
// `unshared` receives the cost of the time no item ran.
std::vector<double> shared_cost(const std::vector<Interval>& items, const std::vector<double>& weights,
                                const std::vector<HeldResource>& held, const RateCard& rates, double& unshared) {
  // (time, order, kind, index): at one instant ends come before starts (windows are half-open).
  enum Kind { kItemEnd, kHeldEnd, kHeldStart, kItemStart };
  std::vector<std::tuple<double, int, size_t>> events;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!(items[i].end_ms > items[i].start_ms)) continue;
    events.emplace_back(items[i].start_ms, kItemStart, i);
    events.emplace_back(items[i].end_ms, kItemEnd, i);
  }
  for (size_t h = 0; h < held.size(); ++h) {
    if (!(held[h].window.end_ms > held[h].window.start_ms)) continue;
    events.emplace_back(held[h].window.start_ms, kHeldStart, h);
    events.emplace_back(held[h].window.end_ms, kHeldEnd, h);
  }
  std::sort(events.begin(), events.end());
  std::vector<double> cost(items.size(), 0);
  std::vector<double> a_at_start(items.size(), 0), b_at_start(items.size(), 0);
  double a = 0, b = 0, price = 0, weight = 0, previous = 0;
  size_t running = 0;
  unshared = 0;
  for (const auto& [time, kind, index] : events) {
    const double length = time - previous;
    if (length > 0) {
      const double spent = std::max(0.0, price) * length;
      if (running == 0) {
        unshared += spent;
      } else if (weight > 0) {
        a += spent / weight;
      } else {
        b += spent / static_cast<double>(running);
      }
    }
    previous = time;
    switch (kind) {
      case kItemStart:
        a_at_start[index] = a;
        b_at_start[index] = b;
        weight += weights[index];
        ++running;
        break;
      case kItemEnd:
        cost[index] = weights[index] * (a - a_at_start[index]) + (b - b_at_start[index]);
        --running;
        weight = running == 0 ? 0.0 : weight - weights[index];
        break;
      case kHeldStart: price += price_per_ms(held[index], rates); break;
      case kHeldEnd: price -= price_per_ms(held[index], rates); break;
    }
  }
  return cost;
}

// A finding's figure priced: recoverable wall-clock at the price of what was held while its
// stages ran, or its resource figure in that resource.
std::optional<FindingCost> finding_cost(const Finding& f, const std::map<StageRef, Interval>& windows,
                                        double app_price_per_ms, const std::vector<HeldResource>& held,
                                        const RateCard& rates) {
  FindingCost cost;
  cost.finding_id = f.id;
  if (f.impact.wall_clock) {
    std::vector<Interval> stage_windows;
    for (const StageRef& ref : f.stages) {
      if (auto it = windows.find(ref); it != windows.end()) stage_windows.push_back(it->second);
    }
    const std::vector<Interval> merged = merge_intervals(std::move(stage_windows));
    double length = 0;
    for (const Interval& w : merged) length += w.end_ms - w.start_ms;
    const double per_ms = length > 0 ? cost_over(merged, held, rates) / length : app_price_per_ms;
    cost.low = f.impact.wall_clock->low_ms * per_ms;
    cost.high = f.impact.wall_clock->high_ms * per_ms;
    return cost;
  }
  if (f.impact.basis != Basis::kResourceOnly || !f.impact.raw_waste) return std::nullopt;
  const RawWaste& raw = *f.impact.raw_waste;
  switch (raw.unit) {
    case WasteUnit::kCoreHours: cost.high = raw.value * rates.per_core_hour; break;
    case WasteUnit::kCoreMs: cost.high = raw.value / kMsPerHour * rates.per_core_hour; break;
    case WasteUnit::kMbSeconds: cost.high = raw.value / 1024.0 / 3600.0 * rates.per_gib_hour; break;
    case WasteUnit::kMs: cost.high = raw.value * app_price_per_ms; break;
    case WasteUnit::kBytes: return std::nullopt;  // bytes have no price here
  }
  cost.low = cost.high;
  return cost;
}

}  // namespace

std::vector<HeldResource> held_resources(const model::AppModel& model, const ClusterShape& shape) {
  std::vector<HeldResource> held;
  const std::optional<double> end = app_end_ms(model);
  if (!end) return held;
  const Interval app{epoch_ms(*model.app.start_time_ms), *end};
  held.push_back({app, shape.driver_cores, shape.driver_memory_gib, true});
  if (shape.local_mode) return held;
  bool any_timeline = false;
  for (const model::Executor& e : model.executors) {
    if (e.is_driver() || !e.add_time_ms) continue;
    any_timeline = true;
    const double cores = e.total_cores > 0 ? e.total_cores : shape.cores_per_executor;
    Interval window{epoch_ms(*e.add_time_ms), e.remove_time_ms ? epoch_ms(*e.remove_time_ms) : app.end_ms};
    window.start_ms = std::clamp(window.start_ms, app.start_ms, app.end_ms);
    window.end_ms = std::clamp(window.end_ms, window.start_ms, app.end_ms);
    held.push_back({window, cores, shape.executor_memory_gib, false});
  }
  // No executor timeline in the log: today's executors for the whole run.
  if (!any_timeline) {
    for (int32_t k = 0; k < shape.executors; ++k) {
      held.push_back({app, static_cast<double>(shape.cores_per_executor), shape.executor_memory_gib, false});
    }
  }
  return held;
}

double executor_hour_price(const ClusterShape& shape, const RateCard& rates) {
  if (shape.local_mode) return driver_hour_price(shape, rates);
  return shape.cores_per_executor * rates.per_core_hour + shape.executor_memory_gib * rates.per_gib_hour;
}

double driver_hour_price(const ClusterShape& shape, const RateCard& rates) {
  return shape.driver_cores * rates.per_core_hour + shape.driver_memory_gib * rates.per_gib_hour;
}

Cost compute_cost(const model::AppModel& model, const ClusterShape& shape, const std::vector<StageOccupancy>& occupancy,
                  const std::vector<Finding>& findings, const RateCard& rates) {
  Cost cost;
  cost.rate_card = rates;
  const std::vector<HeldResource> held = held_resources(model, shape);
  for (const HeldResource& r : held) {
    const double length = r.window.end_ms - r.window.start_ms;
    (r.driver ? cost.driver : cost.executors) += length * price_per_ms(r, rates);
    cost.core_hours += length / kMsPerHour * r.cores;
    cost.gib_hours += length / kMsPerHour * r.memory_gib;
  }
  cost.total = cost.executors + cost.driver;
  const std::optional<double> end = app_end_ms(model);
  if (!end) return cost;
  const double duration = *end - epoch_ms(*model.app.start_time_ms);

  // Stage attempts, by core weight.
  std::vector<Interval> windows;
  std::vector<double> weights;
  std::vector<size_t> stage_of;
  std::map<StageRef, Interval> window_of;
  for (size_t i = 0; i < model.stages.size() && i < occupancy.size(); ++i) {
    if (!occupancy[i].in_sweep) continue;
    windows.push_back(occupancy[i].window);
    weights.push_back(occupancy[i].core_weight);
    stage_of.push_back(i);
    window_of[{model.stages[i].stage_id, model.stages[i].attempt_id}] = occupancy[i].window;
  }
  double unshared = 0;
  std::vector<double> shares = shared_cost(windows, weights, held, rates, unshared);
  for (size_t k = 0; k < shares.size(); ++k) {
    const model::StageAttempt& s = model.stages[stage_of[k]];
    cost.stages.push_back({{s.stage_id, s.attempt_id}, shares[k]});
  }

  // Jobs and SQL executions, in equal shares; what no job shared is driver-only time.
  auto equal_shares = [&](const std::vector<std::pair<int64_t, Interval>>& items, double& outside) {
    std::vector<Interval> item_windows;
    for (const auto& [id, window] : items) item_windows.push_back(window);
    return shared_cost(item_windows, std::vector<double>(items.size(), 1.0), held, rates, outside);
  };
  std::vector<std::pair<int64_t, Interval>> jobs;
  for (const model::Job& j : model.jobs) {
    if (j.submission_time_ms) {
      jobs.push_back(
          {j.job_id, {epoch_ms(*j.submission_time_ms), j.completion_time_ms ? epoch_ms(*j.completion_time_ms) : *end}});
    }
  }
  shares = equal_shares(jobs, cost.driver_only);
  for (size_t k = 0; k < jobs.size(); ++k) cost.jobs.push_back({jobs[k].first, shares[k]});
  std::vector<std::pair<int64_t, Interval>> executions;
  for (const model::SqlExecution& x : model.sql) {
    // A sub-execution runs inside its root's window: the root carries the cost of both.
    if (x.start_time_ms && !x.is_sub_execution()) {
      executions.push_back(
          {x.execution_id, {epoch_ms(*x.start_time_ms), x.end_time_ms ? epoch_ms(*x.end_time_ms) : *end}});
    }
  }
  double outside_sql = 0;
  shares = equal_shares(executions, outside_sql);
  for (size_t k = 0; k < executions.size(); ++k) cost.sql.push_back({executions[k].first, shares[k]});

  const double app_price_per_ms = duration > 0 ? cost.total / duration : 0;
  for (const Finding& f : findings) {
    if (auto priced = finding_cost(f, window_of, app_price_per_ms, held, rates)) cost.findings.push_back(*priced);
  }
  return cost;
}

double application_cost(const model::AppModel& model, const RateCard& rates) {
  double total = 0;
  for (const HeldResource& r : held_resources(model, cluster_shape(model))) {
    total += (r.window.end_ms - r.window.start_ms) * price_per_ms(r, rates);
  }
  return total;
}

}  // namespace sf::analysis

#include "analysis/models/task_durations.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace sf::analysis {

namespace {

// The ranks the model's quantiles sit at (model/quantiles.h): index min(floor(q x n), n - 1).
constexpr std::array<double, 6> kQuantileLevels = {0.0, 0.05, 0.25, 0.5, 0.75, 0.95};

size_t rank_of(double q, size_t n) {
  return std::min(static_cast<size_t>(std::floor(q * static_cast<double>(n))), n - 1);
}

// splitmix64: a small, fully specified generator, so the permutation is the same on every
// platform (std::shuffle's distribution is not).
uint64_t next_random(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

void shuffle_in_place(std::vector<double>& values, uint64_t seed) {
  uint64_t state = seed;
  for (size_t i = values.size(); i > 1; --i) {
    const size_t j = static_cast<size_t>(next_random(state) % i);
    std::swap(values[i - 1], values[j]);
  }
}

}  // namespace

std::vector<double> durations_from_quantiles(const model::Quantiles& q, double sum_ms) {
  if (q.count <= 0) return {};
  const auto n = static_cast<size_t>(q.count);
  const std::array<int64_t, 6> values = {q.min, q.p5, q.p25, q.p50, q.p75, q.p95};
  // Anchors: (rank, value), ranks ascending; a rank shared by several quantiles holds one value.
  std::vector<std::pair<size_t, double>> anchors;
  for (size_t k = 0; k < kQuantileLevels.size(); ++k) {
    const size_t rank = rank_of(kQuantileLevels[k], n);
    if (anchors.empty() || anchors.back().first != rank) anchors.emplace_back(rank, static_cast<double>(values[k]));
  }
  if (anchors.back().first != n - 1) {
    anchors.emplace_back(n - 1, static_cast<double>(q.max));
  } else {
    anchors.back().second = static_cast<double>(q.max);
  }

  // Between two anchors the values follow lower + (upper - lower) x t^shape, t the position
  // between them: shape 1 is a straight line, a larger one keeps most values near the lower
  // anchor with a few rising to the upper (the tail of a stage whose first wave or a few
  // partitions ran long), a smaller one the reverse. One shape for every segment, chosen so the
  // values sum to `sum_ms`: the sum falls as the shape grows, so one shape does it.
  // The sum of t^shape over a segment's free values (t = i / (free + 1)); a long segment is
  // summed on kSamples evenly spread values, each standing for its share of them: the search
  // needs the sum's trend, not every term, and a stage may have 100,000 tasks. The positions do
  // not move with the shape, so their logarithms are taken once and each step of the search
  // costs an exp per term (t^shape = e^(shape x ln t)), not a pow.
  constexpr size_t kSamples = 256;
  struct Segment {
    size_t rank = 0;  // of its lower anchor
    size_t free = 0;  // values strictly between its anchors
    double lower = 0, upper = 0;
    std::vector<double> log_positions;  // of the terms its sum is taken on
    double weight = 1;                  // how many of its values each term stands for
  };
  std::vector<Segment> segments;
  double anchored = 0;
  for (size_t a = 0; a < anchors.size(); ++a) {
    anchored += anchors[a].second;
    if (a + 1 >= anchors.size() || anchors[a + 1].first <= anchors[a].first + 1) continue;
    Segment g;
    g.rank = anchors[a].first;
    g.free = anchors[a + 1].first - anchors[a].first - 1;
    g.lower = anchors[a].second;
    g.upper = anchors[a + 1].second;
    const double slots = static_cast<double>(g.free + 1);
    if (g.free <= kSamples) {
      for (size_t i = 1; i <= g.free; ++i) g.log_positions.push_back(std::log(static_cast<double>(i) / slots));
    } else {
      for (size_t j = 0; j < kSamples; ++j) {
        const double i = 1 + (static_cast<double>(j) + 0.5) * static_cast<double>(g.free) / kSamples;
        g.log_positions.push_back(std::log(std::min(i, static_cast<double>(g.free)) / slots));
      }
      g.weight = static_cast<double>(g.free) / kSamples;
    }
    segments.push_back(std::move(g));
  }
  // The sum's distance from `sum_ms` at shape e^m, and its slope in m: d/dm t^(e^m) is
  // e^m x ln t x t^(e^m), so the slope costs no exp beyond the sum's own.
  auto miss_and_slope = [&](double m) {
    const double shape_at = std::exp(m);
    double total = anchored, slope = 0;
    for (const Segment& g : segments) {
      double power_sum = 0, weighted_log_sum = 0;
      for (double log_position : g.log_positions) {
        const double power = std::exp(shape_at * log_position);
        power_sum += power;
        weighted_log_sum += log_position * power;
      }
      const double scale = (g.upper - g.lower) * g.weight;
      total += static_cast<double>(g.free) * g.lower + scale * power_sum;
      slope += scale * weighted_log_sum * shape_at;
    }
    return std::pair{total - sum_ms, slope};
  };
  double shape = 1;
  if (!segments.empty()) {
    // The shape is searched on a log scale between 1/kMostShape and kMostShape: Newton's method
    // from a straight line (shape 1), kept inside the bracket the signs of the misses narrow,
    // halving it whenever a step would leave it. The sum falls as the shape grows, so the root
    // is in the bracket; a sum no shape reaches ends the search at the nearer end. Six or so
    // steps instead of a bisection's fifty: this runs for every stage the what-if replays.
    constexpr double kMostShape = 1e4;
    constexpr double kTolerance = 1e-12;  // on ln(shape)
    double low = -std::log(kMostShape), high = std::log(kMostShape);
    double m = 0;
    for (int step = 0; step < 200 && high - low > kTolerance; ++step) {
      const auto [miss, slope] = miss_and_slope(m);
      if (miss == 0) break;
      (miss > 0 ? low : high) = m;
      // Newton's step where the slope is usable and the step stays inside; else halve the bracket.
      double next = (low + high) / 2;
      if (slope < 0) {
        const double newton = m - miss / slope;
        if (newton > low && newton < high) next = newton;
      }
      const bool settled = std::abs(next - m) < kTolerance;
      m = next;
      if (settled) break;
    }
    shape = std::exp(m);
  }
  std::vector<double> sorted(n);
  for (const auto& [rank, value] : anchors) sorted[rank] = value;
  for (const Segment& g : segments) {
    const double slots = static_cast<double>(g.free + 1);
    for (size_t i = 1; i <= g.free; ++i) {
      sorted[g.rank + i] = g.lower + (g.upper - g.lower) * std::pow(static_cast<double>(i) / slots, shape);
    }
  }
  return sorted;
}

double succeeded_task_time_ms(const model::StageAttempt& stage) {
  double from_executors = 0;
  for (const model::ExecutorStageSummary& e : stage.executors) {
    from_executors += static_cast<double>(e.succeeded_task_time_ms);
  }
  if (from_executors > 0) return from_executors;
  // Logs without executor summaries: all attempts' time less the failed and killed ones'.
  return std::max(0.0, static_cast<double>(stage.metric(model::TaskMetric::kDurationMs) - stage.failed_task_time_ms -
                                           stage.killed_task_time_ms));
}

std::vector<double> replay_task_durations(const model::StageAttempt& stage) {
  const model::Quantiles& q = stage.quantile(model::QuantileMetric::kDurationMs);
  const double succeeded_ms = succeeded_task_time_ms(stage);
  std::vector<double> tasks;
  if (q.count > 0) {
    tasks = durations_from_quantiles(q, succeeded_ms);
  } else if (stage.tasks_succeeded > 0) {
    tasks.assign(static_cast<size_t>(stage.tasks_succeeded), succeeded_ms / static_cast<double>(stage.tasks_succeeded));
  }
  auto add_mean = [&tasks](int64_t attempts, int64_t time_ms) {
    if (attempts <= 0) return;
    tasks.insert(tasks.end(), static_cast<size_t>(attempts),
                 static_cast<double>(std::max<int64_t>(0, time_ms)) / static_cast<double>(attempts));
  };
  // Attempts lost with their executor are left out: the simulation loses executors as the log
  // did (schedule_simulation.h), which makes those attempts again.
  int64_t lost = 0;
  for (const model::TaskFailureCount& f : stage.failure_reasons) {
    if (f.reason.starts_with("ExecutorLostFailure")) lost += f.count;
  }
  const int64_t failed = std::max<int64_t>(0, stage.tasks_failed - lost);
  add_mean(failed, stage.tasks_failed > 0 ? stage.failed_task_time_ms * failed / stage.tasks_failed : 0);
  add_mean(stage.tasks_killed, stage.killed_task_time_ms);
  shuffle_in_place(tasks, (static_cast<uint64_t>(stage.stage_id) << 16) ^ static_cast<uint64_t>(stage.attempt_id));
  return tasks;
}

}  // namespace sf::analysis

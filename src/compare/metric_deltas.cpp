#include "compare/metric_deltas.h"

#include <algorithm>
#include <cmath>

#include "analysis/economics/cost.h"

namespace sf::compare {

namespace {

using model::TaskMetric;

int64_t stage_sum(const model::AppModel& model, TaskMetric metric) {
  int64_t total = 0;
  for (const auto& stage : model.stages) total += stage.metric(metric);
  return total;
}

int64_t task_attempts(const model::AppModel& model) {
  int64_t total = 0;
  for (const auto& s : model.stages) total += s.tasks_succeeded + s.tasks_failed + s.tasks_killed;
  return total;
}

MetricValue of(double value) { return {value, ""}; }
MetricValue missing(std::string reason) { return {std::nullopt, std::move(reason)}; }

// Nearest-rank 95th percentile over stage attempts of longest / median task duration.
MetricValue skew_p95(const model::AppModel& model) {
  std::vector<double> ratios;
  for (const auto& stage : model.stages) {
    const auto& q = stage.quantile(model::QuantileMetric::kDurationMs);
    if (q.count >= 2 && q.p50 > 0) ratios.push_back(static_cast<double>(q.max) / static_cast<double>(q.p50));
  }
  if (ratios.empty()) return missing("no stage has two successful tasks with a non-zero median duration");
  std::sort(ratios.begin(), ratios.end());
  const auto rank =
      std::min(ratios.size() - 1, static_cast<size_t>(std::floor(0.95 * static_cast<double>(ratios.size()))));
  return of(ratios[rank]);
}

}  // namespace

std::string_view to_string(ChangeKind direction) {
  switch (direction) {
    case ChangeKind::kImprovement: return "improvement";
    case ChangeKind::kRegression: return "regression";
    case ChangeKind::kUnchanged: return "unchanged";
    case ChangeKind::kUnavailable: return "unavailable";
    case ChangeKind::kNotComparable: return "notComparable";
  }
  return "unavailable";
}

double noise_allowance(const NoiseBand& band, double baseline) {
  return std::max(band.absolute, band.relative * std::fabs(baseline));
}

ChangeKind direction_of(double delta, double allowance) {
  if (std::fabs(delta) <= allowance) return ChangeKind::kUnchanged;
  return delta < 0 ? ChangeKind::kImprovement : ChangeKind::kRegression;
}

const std::vector<MetricDefinition>& metric_definitions() {
  // Bands: durations as kDurationNoise; CPU and GC time vary a little more than wall-clock
  // between identical runs; shuffle and spill bytes with the timing of spills and the order
  // blocks are written in; input bytes, counts and failures are exact.
  constexpr NoiseBand kTime = kDurationNoise;
  constexpr NoiseBand kGc{0.10, 500};
  constexpr NoiseBand kMovedBytes{0.02, 1 << 20};
  constexpr NoiseBand kExact{0, 0};
  static const std::vector<MetricDefinition> definitions = {
      {"wallClock", "ms", "application duration (end - start)", kTime},
      {"executorRunTime", "ms", "executor run time of every task attempt", kTime},
      {"executorCpuTime", "ms", "executor CPU time of every task attempt", kTime},
      {"gcTime", "ms", "JVM GC time of every task attempt", kGc},
      {"coreHours", "core-hours", "cores held by executors from their add to their removal", {0.05, 0}},
      // Held cores and memory priced, the driver's included: moves with the wall-clock and the
      // executors' lifetimes, so it has their band.
      {"cost", "money", "executors' and the driver's cores and memory held, at the rate card's prices", {0.05, 0}},
      {"spill", "bytes", "disk bytes spilled", kMovedBytes},
      {"memorySpill", "bytes", "memory bytes spilled (deserialized size of what was spilled)", kMovedBytes},
      {"shuffleRead", "bytes", "shuffle bytes read, local and remote", kMovedBytes},
      {"shuffleWrite", "bytes", "shuffle bytes written", kMovedBytes},
      {"inputBytes", "bytes", "bytes read from storage", kExact},
      {"outputBytes", "bytes", "bytes written to storage", kMovedBytes},
      {"taskSkewP95", "ratio", "95th percentile over stages of longest / median successful task duration", {0.10, 0.1}},
      {"failedTaskRate", "ratio", "failed task attempts / all task attempts", kExact},
      {"taskAttempts", "count", "task attempts, every outcome", kExact},
      {"stages", "count", "stages that ran", kExact},
      {"executorCount", "count", "executors added (the driver not counted)", kExact},
      {"peakCores", "count", "most executor cores registered at once", kExact},
  };
  return definitions;
}

const MetricDefinition* find_metric(std::string_view name) {
  for (const auto& d : metric_definitions()) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

MetricValue run_metric(const model::AppModel& model, std::string_view name, const analysis::RateCard& rates) {
  if (name == "wallClock") {
    const auto duration = model.app.duration_ms();
    if (!duration) return missing("the log records no application start time");
    return of(static_cast<double>(*duration));
  }
  if (name == "executorRunTime") return of(static_cast<double>(stage_sum(model, TaskMetric::kExecutorRunTimeMs)));
  if (name == "executorCpuTime") {
    const int64_t cpu_ns = stage_sum(model, TaskMetric::kExecutorCpuTimeNs);
    if (cpu_ns == 0 && stage_sum(model, TaskMetric::kExecutorRunTimeMs) > 0) {
      return missing("executor CPU time is not recorded (Spark before 2.1 does not log it)");
    }
    return of(static_cast<double>(cpu_ns / 1'000'000));
  }
  if (name == "gcTime") return of(static_cast<double>(stage_sum(model, TaskMetric::kJvmGcTimeMs)));
  if (name == "spill") return of(static_cast<double>(stage_sum(model, TaskMetric::kDiskBytesSpilled)));
  if (name == "memorySpill") return of(static_cast<double>(stage_sum(model, TaskMetric::kMemoryBytesSpilled)));
  if (name == "shuffleRead") {
    return of(static_cast<double>(stage_sum(model, TaskMetric::kShuffleLocalBytesRead) +
                                  stage_sum(model, TaskMetric::kShuffleRemoteBytesRead)));
  }
  if (name == "shuffleWrite") return of(static_cast<double>(stage_sum(model, TaskMetric::kShuffleWriteBytes)));
  if (name == "inputBytes") return of(static_cast<double>(stage_sum(model, TaskMetric::kInputBytes)));
  if (name == "outputBytes") return of(static_cast<double>(stage_sum(model, TaskMetric::kOutputBytes)));
  if (name == "taskSkewP95") return skew_p95(model);
  if (name == "failedTaskRate") {
    const int64_t attempts = task_attempts(model);
    if (attempts == 0) return missing("no task attempt ended");
    int64_t failed = 0;
    for (const auto& s : model.stages) failed += s.tasks_failed;
    return of(static_cast<double>(failed) / static_cast<double>(attempts));
  }
  if (name == "taskAttempts") return of(static_cast<double>(task_attempts(model)));
  if (name == "stages") {
    std::vector<int64_t> ids;
    for (const auto& s : model.stages) {
      if (s.tasks_started > 0 || s.status == model::StageStatus::kComplete || s.status == model::StageStatus::kFailed ||
          s.status == model::StageStatus::kActive) {
        ids.push_back(s.stage_id);
      }
    }
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return of(static_cast<double>(ids.size()));
  }
  if (name == "executorCount") {
    return of(static_cast<double>(std::count_if(model.executors.begin(), model.executors.end(),
                                                [](const model::Executor& e) { return !e.is_driver(); })));
  }
  if (name == "peakCores") return of(static_cast<double>(model.peak_concurrent_cores));
  if (name == "coreHours") {
    const double held = model::core_hours_held(model);
    if (held == 0 && model.peak_concurrent_cores == 0) return missing("the log records no executor cores");
    return of(held);
  }
  if (name == "cost") {
    if (!model.app.start_time_ms) return missing("the log records no application start time");
    return of(analysis::application_cost(model, rates));
  }
  return missing("unknown metric");
}

std::vector<MetricDelta> metric_deltas(const model::AppModel& baseline, const model::AppModel& candidate,
                                       const analysis::RateCard& rates) {
  std::vector<MetricDelta> deltas;
  for (const auto& definition : metric_definitions()) {
    MetricDelta d;
    d.name = definition.name;
    d.unit = definition.unit == "money" ? rates.currency : std::string(definition.unit);
    const MetricValue b = run_metric(baseline, definition.name, rates);
    const MetricValue c = run_metric(candidate, definition.name, rates);
    d.baseline = b.value;
    d.candidate = c.value;
    if (!b.value || !c.value) {
      d.unavailable_reason = !b.value ? "baseline: " + b.unavailable_reason : "candidate: " + c.unavailable_reason;
      deltas.push_back(std::move(d));
      continue;
    }
    d.delta = *c.value - *b.value;
    if (*b.value != 0) d.relative_change = *d.delta / *b.value;
    d.noise = noise_allowance(definition.noise, *b.value);
    d.direction = direction_of(*d.delta, d.noise);
    deltas.push_back(std::move(d));
  }
  return deltas;
}

}  // namespace sf::compare

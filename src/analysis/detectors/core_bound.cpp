// coreBound: stages that ran in waves on every core the application had, so that more executors
// would have ended the run sooner for little more executor time. Weighed by the what-if's
// replays (what_if.h): the application's tasks on today's executors and on twice as many.
//
// A run is core-bound when its time goes to stages with more tasks than cores, those cores busy:
// twice the cores run each wave's tasks at once and the stage takes half as long, for the same
// executor time. Where the time goes elsewhere (the driver alone, a long task every other waits
// for, a ramp), more executors add executor time and win little, which the replay shows as
// executor-hours that grow: the detector asks the replay, not a count of waves, how much they win,
// and names the stages in waves as the reason.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/detectors/detectors.h"
#include "analysis/detectors/executor_count.h"
#include "analysis/findings/figure_words.h"
#include "analysis/findings/finding_types.h"

namespace sf::analysis {

namespace {

using model::StageAttempt;

constexpr size_t kStagesNamed = 3;
// More executor time than this share is worth saying it does not all shorten.
constexpr double kAboutTheSame = 0.1;

struct StageInWaves {
  const StageAttempt* stage = nullptr;
  double tasks = 0;
  double cores = 0;
  double waves = 0;  // tasks over the task slots of the cores
  double busy_share = 0;
  double duration_ms = 0;
};

// The stages that ran more waves of tasks than coreBound.minWaves on the cores of their window,
// those cores busy at least coreBound.minBusyShare of the stage's time; longest first.
std::vector<StageInWaves> stages_in_waves(const DetectorContext& context, int32_t task_cpus) {
  const Thresholds& t = context.thresholds();
  std::vector<StageInWaves> found;
  for (const StageAttempt* stage : context.ran_stages()) {
    const StageOccupancy& occupancy = context.occupancy(*stage);
    const StageWork work = context.work(*stage);
    // The cores held while its tasks ran: the wait for a first executor is a cold start's.
    const double running_ms = occupancy.running_ms();
    const double slots = occupancy.running_cores / task_cpus;
    if (slots < 1 || running_ms <= 0 || work.tasks < t.core_bound_min_waves * slots) continue;
    const double busy = work.slot_ms / (slots * running_ms);
    if (busy < t.core_bound_min_busy_share) continue;
    found.push_back(
        {stage, work.tasks, occupancy.running_cores, work.tasks / slots, std::min(1.0, busy), occupancy.duration_ms});
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.duration_ms > b.duration_ms; });
  return found;
}

std::string stage_in_waves_words(const StageInWaves& s) {
  return fmt::format("{} ran {} tasks in {:.1f} waves on {}, busy {} of its {}", DetectorContext::stage_label(*s.stage),
                     units::format_count(as_int(s.tasks)), s.waves, units::format_counted(as_int(s.cores), "core"),
                     units::format_percent(s.busy_share), duration_text(s.duration_ms));
}

// A stage in waves whose last wave alone set its end (stageShape/longLastWave) is time both fixes
// claim: with smaller tasks, more executors win less there (junoHourly stage 0.0). The figures are
// not to be added; the sentence says so.
std::string overlap_with_last_waves(const std::vector<StageInWaves>& in_waves, const std::vector<Finding>& findings) {
  std::vector<std::string> shared;
  for (const StageInWaves& s : in_waves) {
    const StageRef ref = DetectorContext::ref(*s.stage);
    const bool claimed = std::any_of(findings.begin(), findings.end(), [&](const Finding& f) {
      return f.type == finding_type::kStageShape && f.rule == finding_rule::kLongLastWave &&
             std::find(f.stages.begin(), f.stages.end(), ref) != f.stages.end();
    });
    if (claimed) shared.push_back(DetectorContext::stage_label(*s.stage));
  }
  if (shared.empty()) return "";
  return fmt::format(
      " Part of this time is the long last wave of {}, which stageShape/longLastWave reports: with that stage's tasks "
      "smaller, more executors win less there, so the two findings' figures overlap and do not add up.",
      fmt::join(shared, ", "));
}

}  // namespace

void detect_core_bound(const DetectorContext& context, const WhatIf& what_if, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  // In local mode the cores are the driver machine's: no executor to add.
  if (context.local_master() || what_if.measured_ms <= 0) return;
  if (std::abs(what_if.today_error) > t.what_if_max_replay_error) return;
  // Cores left idle are the first thing to win back: idle cores and more cores are not both advice.
  const auto is_utilization = [](const Finding& f) { return f.type == finding_type::kUtilization; };
  if (std::any_of(findings.begin(), findings.end(), is_utilization)) return;
  // Under dynamic allocation the run must have reached its ceiling: below it, the cluster (or the
  // work) held it back, and a higher ceiling gives nothing.
  if (what_if.dynamic_allocation && what_if.peak_executors < what_if.today_executors) return;

  const auto today = std::find_if(what_if.curve.begin(), what_if.curve.end(),
                                  [&](const WhatIfPoint& p) { return p.executors == what_if.today_executors; });
  // The most executors up to twice today's on the curve (it steps by about 1.5).
  auto doubled = what_if.curve.end();
  for (auto p = what_if.curve.begin(); p != what_if.curve.end(); ++p) {
    if (p->executors > what_if.today_executors && p->executors <= 2 * what_if.today_executors) doubled = p;
  }
  if (today == what_if.curve.end() || doubled == what_if.curve.end() || today->executor_hours <= 0) return;
  const double gain_ms = today->predicted_ms - doubled->predicted_ms;
  if (gain_ms < t.core_bound_min_gain_ms || gain_ms < t.core_bound_min_share * what_if.measured_ms) return;
  const double extra_hours = doubled->executor_hours / today->executor_hours - 1;
  if (extra_hours > t.core_bound_max_extra_hours) return;

  const std::vector<StageInWaves> in_waves = stages_in_waves(context, what_if.task_cpus);
  if (in_waves.empty()) return;

  Finding f;
  f.type = finding_type::kCoreBound;
  f.scope = Scope::kApp;
  f.id = DetectorContext::finding_id(f.type, f.rule, "app");
  f.title = fmt::format("The run was bound by its cores: {} would have ended it about {} sooner",
                        executors_words(doubled->executors), duration_text(gain_ms));
  std::vector<std::string> named;
  for (size_t i = 0; i < std::min(kStagesNamed, in_waves.size()); ++i) {
    named.push_back(stage_in_waves_words(in_waves[i]));
    f.stages.push_back(DetectorContext::ref(*in_waves[i].stage));
  }
  const std::string more = in_waves.size() > kStagesNamed
                               ? fmt::format(" ({} more stages ran in waves)", in_waves.size() - kStagesNamed)
                               : "";
  f.explanation = fmt::format(
      "Its stages ran in waves on every core it had: {}{}. More cores run more of each wave at once. Replaying the "
      "application's tasks on {} of {} gives {} (today's {}: {}, measured {}), for {} of executor time "
      "instead of {} ({:+.0f}%{}).",
      fmt::join(named, "; "), more, executors_words(doubled->executors),
      units::format_counted(what_if.cores_per_executor, "core"), duration_text(doubled->predicted_ms),
      executors_words(what_if.today_executors), duration_text(today->predicted_ms), duration_text(what_if.measured_ms),
      duration_text(doubled->executor_hours * 3.6e6), duration_text(today->executor_hours * 3.6e6), 100 * extra_hours,
      extra_hours <= kAboutTheSame ? ": the stages shorten as much as the executors grow"
                                   : ": the rest of the run does not shorten with more executors");
  f.explanation += overlap_with_last_waves(in_waves, findings);
  const CountAdvice advice = executor_count_advice(context, doubled->executors, what_if.cores_per_executor);
  f.recommendation = fmt::format(
      "Give the application more executors of the same size. {} Where the run's cost matters more than its time, "
      "this is the trade: about {:.0f}% more executor time for {} less wall-clock.",
      advice.text, 100 * std::max(0.0, extra_hours), duration_text(gain_ms));
  f.settings = advice.settings;
  f.evidence = {{"todayExecutors", static_cast<double>(what_if.today_executors), "count"},
                {"coresPerExecutor", static_cast<double>(what_if.cores_per_executor), "count"},
                {"measuredMs", what_if.measured_ms, "ms"},
                {"todayReplayedMs", today->predicted_ms, "ms"},
                {"replayError", what_if.today_error, "ratio"},
                {"moreExecutors", static_cast<double>(doubled->executors), "count"},
                {"moreExecutorsMs", doubled->predicted_ms, "ms"},
                {"todayExecutorHours", today->executor_hours, "executorHours"},
                {"moreExecutorsExecutorHours", doubled->executor_hours, "executorHours"},
                {"stagesInWaves", static_cast<double>(in_waves.size()), "count"}};
  f.thresholds = {"whatIf.maxReplayError",           "coreBound.minGainMs", "coreBound.minShare",
                  "coreBound.maxExtraExecutorHours", "coreBound.minWaves",  "coreBound.minBusyShare"};
  f.confidence = context.confidence_above(gain_ms, t.core_bound_min_gain_ms);
  f.validation_caveat =
      "The replay runs each task as long as it took today, on executors that register as fast as today's: a cluster "
      "without room for them, or tasks that share a bottleneck outside Spark (a database, an object store's request "
      "rate, the network), gains less.";
  f.claim = WasteClaim::serial(gain_ms, EstimateMethod::kModeled);
  findings.push_back(std::move(f));
}

}  // namespace sf::analysis

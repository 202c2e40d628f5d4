// allocationRamp: dynamic allocation set to ask for executors more slowly than Spark's default,
// weighed by replaying the application's schedule with its ramp and with the default one.
//
// Spark's ExecutorAllocationManager asks for executors in rounds while tasks wait: the first
// round schedulerBacklogTimeout after the backlog began, each next one
// sustainedSchedulerBacklogTimeout after the last (default: the backlog timeout, 1 s), asking
// for twice as many as the round before, never more than the pending and running tasks fill at
// executorAllocationRatio (default 1). A ratio under 1 or rounds further apart hold fewer
// executors while work waits. Whether that cost wall-clock only the schedule can say: a stage of
// few tasks never needed more, so the detector asks the what-if's replays (what_if.h) rather
// than any count of waiting tasks.
#include <fmt/format.h>

#include <cmath>
#include <string>

#include "analysis/detectors/detectors.h"
#include "analysis/findings/figure_words.h"
#include "analysis/findings/finding_types.h"

namespace sf::analysis {

namespace {

constexpr const char* kRatioKey = "spark.dynamicAllocation.executorAllocationRatio";
constexpr const char* kRoundsKey = "spark.dynamicAllocation.sustainedSchedulerBacklogTimeout";

// A slow setting is worth changing when set to its default alone it wins at least this share of
// what the default ramp wins; one that matters only beside the other is named with it.
constexpr double kOwnShare = 0.25;

std::string ratio_words(const AllocationRamp& ramp) {
  return fmt::format(
      "{} is {:g}: it asks for executors to run {:g}% of the tasks waiting and running at once, where "
      "the default (1) asks for all of them",
      kRatioKey, ramp.allocation_ratio, 100 * ramp.allocation_ratio);
}

std::string rounds_words(const DetectorContext& context, const AllocationRamp& ramp) {
  return fmt::format(
      "{} is {}{}: each round of requests, which doubles the executors asked for, waits that long for "
      "the next, where Spark's default waits 1 s",
      kRoundsKey, duration_text(ramp.sustained_backlog_timeout_ms),
      context.property(kRoundsKey) ? "" : " (unset, it takes schedulerBacklogTimeout's value)");
}

}  // namespace

void detect_allocation_ramp(const DetectorContext& context, const WhatIf& what_if, std::vector<Finding>& findings) {
  if (!what_if.ramp || what_if.measured_ms <= 0) return;
  const Thresholds& t = context.thresholds();
  const AllocationRamp& ramp = *what_if.ramp;
  // A replay that does not give today's wall-clock back cannot weigh a change to it.
  const double replay_error = (ramp.settings_ms - what_if.measured_ms) / what_if.measured_ms;
  if (std::abs(replay_error) > t.what_if_max_replay_error) return;
  const double gain_ms = ramp.settings_ms - ramp.default_ms;
  if (gain_ms < t.ramp_min_gain_ms || gain_ms < t.ramp_min_share * what_if.measured_ms) return;

  const double ratio_gain_ms = ramp.settings_ms - ramp.default_ratio_ms;
  const double rounds_gain_ms = ramp.settings_ms - ramp.default_rounds_ms;
  bool change_ratio = ramp.slow_ratio() && ratio_gain_ms >= kOwnShare * gain_ms;
  bool change_rounds = ramp.slow_rounds() && rounds_gain_ms >= kOwnShare * gain_ms;
  if (!change_ratio && !change_rounds) change_ratio = ramp.slow_ratio(), change_rounds = ramp.slow_rounds();

  Finding f;
  f.type = finding_type::kAllocationRamp;
  f.scope = Scope::kApp;
  f.id = DetectorContext::finding_id(f.type, f.rule, "app");
  f.title = "Dynamic allocation asked for executors more slowly than Spark's default";
  std::string settings_words = ramp.slow_ratio() ? ratio_words(ramp) : "";
  if (ramp.slow_rounds()) settings_words += (settings_words.empty() ? "" : "; ") + rounds_words(context, ramp);
  f.explanation = fmt::format(
      "{}. Replaying the application's tasks on up to {} with these settings gives {} (measured {}, {:+.0f}%); with "
      "Spark's default ramp it gives {}, {} sooner, holding {} of executor time instead of {}.",
      settings_words, executors_words(ramp.executors), duration_text(ramp.settings_ms),
      duration_text(what_if.measured_ms), 100 * replay_error, duration_text(ramp.default_ms), duration_text(gain_ms),
      duration_text(ramp.default_executor_hours * 3.6e6), duration_text(ramp.settings_executor_hours * 3.6e6));
  if (ramp.slow_ratio() && ramp.slow_rounds()) {
    f.explanation +=
        fmt::format(" Alone, a ratio of 1 wins {} and 1 s rounds win {}.", duration_text(std::max(0.0, ratio_gain_ms)),
                    duration_text(std::max(0.0, rounds_gain_ms)));
  }
  const double extra_ms = (ramp.default_executor_hours - ramp.settings_executor_hours) * 3.6e6;
  f.recommendation =
      extra_ms >= 1000
          ? fmt::format(
                "Let dynamic allocation ask at Spark's default pace. If the slower ramp was set to hold fewer "
                "executors, this is its price: {} of wall-clock to save {} of executor time.",
                duration_text(gain_ms), duration_text(extra_ms))
          : "Let dynamic allocation ask at Spark's default pace: the run ends sooner and holds no more executor-hours, "
            "since the executors it asks for finish the waiting work and are released.";
  if (change_ratio) f.settings.push_back(context.raise_setting(kRatioKey, "1"));
  if (change_rounds) f.settings.push_back(context.lower_setting(kRoundsKey, "1s"));
  f.evidence = {{"allocationRatio", ramp.allocation_ratio, "ratio"},
                {"sustainedBacklogTimeoutMs", ramp.sustained_backlog_timeout_ms, "ms"},
                {"executorStartupMs", ramp.executor_startup_ms, "ms"},
                {"measuredMs", what_if.measured_ms, "ms"},
                {"replayedMs", ramp.settings_ms, "ms"},
                {"replayError", replay_error, "ratio"},
                {"defaultRampMs", ramp.default_ms, "ms"},
                {"defaultRatioMs", ramp.default_ratio_ms, "ms"},
                {"defaultRoundsMs", ramp.default_rounds_ms, "ms"},
                {"settingsExecutorHours", ramp.settings_executor_hours, "executorHours"},
                {"defaultRampExecutorHours", ramp.default_executor_hours, "executorHours"}};
  f.thresholds = {"whatIf.maxReplayError", "allocationRamp.minGainMs", "allocationRamp.minShare"};
  f.confidence = context.confidence_above(gain_ms, t.ramp_min_gain_ms);
  f.validation_caveat = fmt::format(
      "Every figure is a replay of the log's tasks: executors are assumed to register {} (the log's measured start-up) "
      "after they are asked for, however many are asked for at once, which a busy cluster may not do.",
      duration_text(ramp.executor_startup_ms));
  f.claim = WasteClaim::serial(gain_ms, EstimateMethod::kModeled);
  findings.push_back(std::move(f));
}

}  // namespace sf::analysis

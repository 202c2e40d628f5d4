// slowHost (hostMeanRatio, durationShare, multiDim on time and on bytes) and coreLocality on
// logs built to trigger each variant, near misses just under each threshold, and a clean log.
//
// The cluster has three hosts with one executor of 2 cores each (6 cores). Each host's tasks
// run back to back on its 2 slots, so a stage lasts as long as its busiest host. Every task's
// run time is its duration minus 10 ms, which sets the stage's ceiling: max(longest task,
// run time / 6 cores). A stage alone has gate 1: serial.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::JobSpec;
using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using sf::testing::TaskSpec;
using testing::analyze_scenario;
using namespace testing::finding_readers;
using testing::Analyzed;

constexpr int64_t kMiB = 1024 * 1024;

ScenarioLog three_hosts() {
  ScenarioLog log;
  log.start(0).finished(1000000);
  log.executor("1", "host-a", 2, 100).executor("2", "host-b", 2, 100).executor("3", "host-c", 2, 100);
  return log;
}

// n tasks of one shape on one executor, two at a time, from `start_ms`.
std::vector<TaskSpec> on_executor(const std::string& executor, int n, int64_t duration_ms, TaskSpec shape = {},
                                  int64_t start_ms = 1000) {
  std::vector<TaskSpec> tasks;
  for (int i = 0; i < n; ++i) {
    TaskSpec task = shape;
    task.executor_id = executor;
    task.duration_ms = duration_ms;
    task.launch_ms = start_ms + (i / 2) * duration_ms;
    tasks.push_back(task);
  }
  return tasks;
}

std::vector<TaskSpec> operator+(std::vector<TaskSpec> a, const std::vector<TaskSpec>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Stage 0, submitted at 1 s, completing with its last task.
StageSpec stage_of(std::vector<TaskSpec> tasks) {
  StageSpec stage;
  stage.stage_id = 0;
  stage.name = "hosts";
  stage.submit_ms = 1000;
  int64_t end = stage.submit_ms;
  for (const TaskSpec& t : tasks) end = std::max(end, t.launch_ms + t.duration_ms);
  stage.complete_ms = end;
  stage.tasks = std::move(tasks);
  return stage;
}

Analyzed analyze_stage(const StageSpec& stage, const Thresholds& thresholds = testing::detector_thresholds(),
                       ScenarioLog log = three_hosts()) {
  log.job(JobSpec{
      .job_id = 0, .submit_ms = stage.submit_ms, .end_ms = stage.complete_ms.value_or(0) + 1000, .stages = {stage}});
  return analyze_scenario(log, thresholds);
}

// A slow host's claim: the task time it spent past its peers' speed (core-ms), and what taking
// that out of the stage takes off its wall-clock, its tasks spread over the stage's cores
// (removed_work.h): the stage's six cores here, all busy.
void expect_removed_task_time(const Finding& f, double excess_core_ms, double wall_clock_ms) {
  EXPECT_EQ(f.impact.basis, Basis::kSerial) << f.id;
  EXPECT_EQ(f.impact.method, EstimateMethod::kModeled) << f.id;
  ASSERT_TRUE(f.impact.raw_waste) << f.id;
  EXPECT_EQ(f.impact.raw_waste->unit, WasteUnit::kCoreMs);
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, excess_core_ms) << f.id;
  EXPECT_DOUBLE_EQ(evidence_of(f, "hostExcessTaskMs"), excess_core_ms) << f.id;
  ASSERT_TRUE(f.impact.wall_clock) << f.id;
  EXPECT_NEAR(f.impact.wall_clock->low_ms, wall_clock_ms, 1e-6) << f.id;
  EXPECT_NEAR(f.impact.wall_clock->high_ms, wall_clock_ms, 1e-6) << f.id;
}

// A near miss: silent at the defaults, and firing once `relax` moves the one threshold it sits
// under to its figure, so that threshold, and nothing else, is what held it back.
struct NearMiss {
  std::string what;
  std::vector<TaskSpec> tasks;
  std::function<void(Thresholds&)> relax;
};

void expect_near_miss(const NearMiss& c, std::string_view type) {
  const StageSpec stage = stage_of(c.tasks);
  EXPECT_TRUE(analyze_stage(stage).of_type(type).empty()) << c.what;
  Thresholds relaxed = testing::detector_thresholds();
  c.relax(relaxed);
  EXPECT_EQ(analyze_stage(stage, relaxed).of_type(type).size(), 1u) << c.what << ", relaxed";
}

// host-a and host-b run 10 tasks of 10 s; host-c runs 10 of 25 s (5 waves: 125 s).
// Stage: 30 tasks, p50 = sorted[15] = 10 s. Host means 10, 10, 25 s: median 10 s, host-c 2.5x
// and 15 s past the stage median; its share of task time 250 / 450 s against 1/3 of the tasks.
// At its peers' speed host-c would spend 10 x 15 s = 150 s less: 25 s off the stage run evenly
// on its 6 cores. (Here host-c held its 10 tasks to itself, so more would come off; a scheduler
// hands a slow host fewer tasks, and the claim counts only the work the host wasted.)
std::vector<TaskSpec> slow_host_c(TaskSpec fast_shape, TaskSpec slow_shape) {
  return on_executor("1", 10, 10000, fast_shape) + on_executor("2", 10, 10000, fast_shape) +
         on_executor("3", 10, 25000, slow_shape);
}

// --- clean -----------------------------------------------------------------------------------

TEST(Hosts, CleanLogHasNoHostFindings) {
  const TaskSpec shape{.shuffle_read_bytes = 100 * kMiB};
  auto result = analyze_stage(stage_of(on_executor("1", 10, 10000, shape) + on_executor("2", 10, 10000, shape) +
                                       on_executor("3", 10, 10000, shape)));
  EXPECT_TRUE(result.of_type("slowHost").empty());
  EXPECT_TRUE(result.of_type("coreLocality").empty());
  EXPECT_TRUE(result.analysis.guard_violations.empty());
}

// --- slowHost --------------------------------------------------------------------------------

TEST(SlowHost, HostMeanRatioWhenTheHostAlsoGotMoreData) {
  // host-c's tasks read 200 MiB each against 100 MiB elsewhere: its data may explain part of
  // it, so this is not multiDim; the mean test names it.
  auto log = three_hosts();
  log.property("spark.master", "yarn");
  auto result = analyze_stage(
      stage_of(slow_host_c({.shuffle_read_bytes = 100 * kMiB}, {.shuffle_read_bytes = 200 * kMiB})), {}, log);
  auto slow = result.of_type("slowHost");
  ASSERT_EQ(slow.size(), 1u);
  const Finding& f = *slow[0];
  EXPECT_EQ(f.id, "slowHost/hostMeanRatio/stage-0.0:host-c");
  EXPECT_EQ(f.rule, "hostMeanRatio");
  ASSERT_EQ(f.stages.size(), 1u);
  EXPECT_EQ(f.stages[0], (StageRef{0, 0}));
  EXPECT_EQ(evidence_of(f, "hostMeanTaskMs"), 25000);
  EXPECT_EQ(evidence_of(f, "medianHostMeanTaskMs"), 10000);
  EXPECT_DOUBLE_EQ(evidence_of(f, "hostMeanRatio"), 2.5);
  EXPECT_DOUBLE_EQ(evidence_of(f, "durationShareRatio"), (250000.0 / 450000.0) / (10.0 / 30.0));
  EXPECT_EQ(evidence_of(f, "taskDurationP50Ms"), 10000);
  EXPECT_EQ(evidence_of(f, "hostBytesPerTask"), 200 * kMiB);
  EXPECT_EQ(evidence_of(f, "otherHostsBytesPerTask"), 100 * kMiB);
  expect_removed_task_time(f, 150000, 25000);
  // 2.5 / 1.5 = 1.67x: medium; 15 / 5 s = 3x: high. The lower wins.
  EXPECT_EQ(f.confidence, Confidence::kMedium);
  EXPECT_NE(f.explanation.find("may be its data"), std::string::npos) << f.explanation;
  EXPECT_NE(f.recommendation.find("spark.excludeOnFailure.enabled"), std::string::npos);
  EXPECT_EQ(suggested(f, "spark.speculation"), "true");
  EXPECT_EQ(suggested(f, "spark.yarn.exclude.nodes"), "host-c");
  EXPECT_TRUE(result.analysis.guard_violations.empty());
}

TEST(SlowHost, ATimeOutlierOnTheSlowHostIsThatHostNotAStraggler) {
  // host-c runs its 10 tasks at 40 s against 10 s elsewhere, the data even: its longest task is
  // 4x the stage median, a straggler by itself, but it is host-c's slowness. One finding, the
  // slow host's, so "Fix these first" names the host once.
  const TaskSpec shape{.shuffle_read_bytes = 100 * kMiB};
  auto result = analyze_stage(stage_of(on_executor("1", 10, 10000, shape) + on_executor("2", 10, 10000, shape) +
                                       on_executor("3", 10, 40000, shape)));
  ASSERT_EQ(result.of_type("slowHost").size(), 1u);
  EXPECT_EQ(result.of_type("slowHost")[0]->id, "slowHost/multiDim/stage-0.0:host-c");
  EXPECT_TRUE(result.of_type("straggler").empty());
  EXPECT_TRUE(result.of_type("skew").empty());  // its durationMax rule: 4x the median, the same tasks
}

TEST(SlowHost, ATaskFarSlowerThanItsSlowHostsOthersIsStillAStraggler) {
  // host-c runs nine tasks of 12 s and then, on a warmed JVM, one of 45 s: its mean 15.3 s is
  // 1.53x the other hosts' 10 s (a slow host), and the 45 s task is about three times that mean,
  // an outlier even there. Both findings stay.
  const TaskSpec shape{.shuffle_read_bytes = 100 * kMiB};
  auto result = analyze_stage(stage_of(on_executor("1", 10, 10000, shape) + on_executor("2", 10, 10000, shape) +
                                       on_executor("3", 9, 12000, shape) + on_executor("3", 1, 45000, shape, 61000)));
  ASSERT_EQ(result.of_type("slowHost").size(), 1u);
  EXPECT_EQ(result.of_type("straggler").size(), 1u);
}

TEST(SlowHost, DurationShareWhenTheMedianHostIsSlowToo) {
  // host-a runs 40 tasks of 10 s (200 s), host-b 5 of 14 s, host-c 5 of 19 s reading 110 MiB
  // against 100 MiB elsewhere. Host means 10, 14, 19 s: median 14 s, host-c only 1.36x. But
  // host-a's tasks weigh most: host-c spent 95 of 565 s of task time on 5 of 50 tasks, 1.68x
  // its share. Stage p50 = sorted[25] = 10 s: host-c is 9 s past it.
  const TaskSpec shape{.shuffle_read_bytes = 100 * kMiB};
  auto result = analyze_stage(stage_of(on_executor("1", 40, 10000, shape) + on_executor("2", 5, 14000, shape) +
                                       on_executor("3", 5, 19000, {.shuffle_read_bytes = 110 * kMiB})));
  auto slow = result.of_type("slowHost");
  ASSERT_EQ(slow.size(), 1u);
  const Finding& f = *slow[0];
  EXPECT_EQ(f.id, "slowHost/durationShare/stage-0.0:host-c");
  EXPECT_DOUBLE_EQ(evidence_of(f, "hostMeanRatio"), 19000.0 / 14000.0);
  EXPECT_DOUBLE_EQ(evidence_of(f, "durationShareRatio"), (95000.0 / 565000.0) / (5.0 / 50.0));
  // 5 x (19 - 14 s) past the median host: 25 s over 6 cores. host-a's 40 tasks, not host-c,
  // are what kept the stage at 200 s, so host-c is not credited with them.
  expect_removed_task_time(f, 25000, 25000.0 / 6);
  EXPECT_NE(std::find(f.thresholds.begin(), f.thresholds.end(), "slowHost.durationShareRatio"), f.thresholds.end());
}

TEST(SlowHost, MultiDimWhenTheHostIsSlowOnTheSameData) {
  // Every task reads 100 MiB; host-c's take 25 s, 5 s of it in GC.
  const TaskSpec even{.shuffle_read_bytes = 100 * kMiB};
  TaskSpec gc_bound = even;
  gc_bound.gc_time_ms = 5000;
  auto result = analyze_stage(stage_of(slow_host_c(even, gc_bound)));
  auto slow = result.of_type("slowHost");
  ASSERT_EQ(slow.size(), 1u);
  const Finding& f = *slow[0];
  EXPECT_EQ(f.id, "slowHost/multiDim/stage-0.0:host-c");
  EXPECT_EQ(evidence_of(f, "hostBytesPerTask"), 100 * kMiB);
  EXPECT_EQ(evidence_of(f, "otherHostsBytesPerTask"), 100 * kMiB);
  // 10 x 5 s of GC over 10 x 24,990 ms of run time; none elsewhere.
  EXPECT_DOUBLE_EQ(evidence_of(f, "hostGcShare"), 50000.0 / 249900.0);
  EXPECT_EQ(evidence_of(f, "otherHostsGcShare"), 0);
  expect_removed_task_time(f, 150000, 25000);
  EXPECT_NE(f.explanation.find("The host itself is slow"), std::string::npos) << f.explanation;
  EXPECT_NE(f.explanation.find("GC took 20.0%"), std::string::npos) << f.explanation;
  // Not on YARN: speculation only.
  ASSERT_EQ(f.settings.size(), 1u);
  EXPECT_EQ(f.settings[0].key, "spark.speculation");
}

TEST(SlowHost, MultiDimOnBytesIsInformational) {
  // Every task runs 10 s; host-c's read 400 MiB against 100 MiB elsewhere: 4x, and
  // 4,000 - 10 x 100 = 3,000 MiB past its share.
  const TaskSpec shape{.shuffle_read_bytes = 100 * kMiB};
  auto result = analyze_stage(stage_of(on_executor("1", 10, 10000, shape) + on_executor("2", 10, 10000, shape) +
                                       on_executor("3", 10, 10000, {.shuffle_read_bytes = 400 * kMiB})));
  auto slow = result.of_type("slowHost");
  ASSERT_EQ(slow.size(), 1u);
  const Finding& f = *slow[0];
  EXPECT_EQ(f.id, "slowHost/multiDim/stage-0.0:host-c");
  EXPECT_DOUBLE_EQ(evidence_of(f, "bytesRatio"), 4.0);
  EXPECT_EQ(evidence_of(f, "hostExcessBytes"), 3000 * kMiB);
  EXPECT_EQ(f.impact.basis, Basis::kInformational);
  EXPECT_EQ(f.impact.method, EstimateMethod::kNone);
  EXPECT_FALSE(f.impact.wall_clock);
  EXPECT_FALSE(f.impact.raw_waste);
  EXPECT_EQ(f.band, ImpactBand::kInfo);
  EXPECT_TRUE(f.settings.empty());
  EXPECT_TRUE(result.of_type("skew").empty()) << "4x is under skew's 5x";
}

TEST(SlowHost, NearMissesYieldNone) {
  const TaskSpec hundred{.shuffle_read_bytes = 100 * kMiB};
  const std::vector<NearMiss> cases = {
      // Means 12, 12, 17.4 s: 1.45x, 5.4 s past the stage median (share 17.4 / 13.8 = 1.26x).
      {"mean 1.45x", on_executor("1", 10, 12000) + on_executor("2", 10, 12000) + on_executor("3", 10, 17400),
       [](Thresholds& t) { t.slow_host_mean_ratio = 1.45; }},
      // Means 8, 8, 12.9 s: 1.61x, but 4.9 s past the stage median (share 1.34x).
      {"4.9 s past the median", on_executor("1", 10, 8000) + on_executor("2", 10, 8000) + on_executor("3", 10, 12900),
       [](Thresholds& t) { t.slow_host_min_excess_ms = 4900; }},
      // The durationShare shape with host-c at 16 s: 80 of 550 s of task time on 5 of 50 tasks,
      // 1.4545x its share (mean 1.14x the 14 s median host; 6 s past the stage median).
      {"share 1.45x",
       on_executor("1", 40, 10000, hundred) + on_executor("2", 5, 14000, hundred) +
           on_executor("3", 5, 16000, {.shuffle_read_bytes = 110 * kMiB}),
       [](Thresholds& t) { t.slow_host_duration_share_ratio = 1.45; }},
      // Two hosts: 20 tasks of 10 s and 10 of 40 s; median of means 25 s, host-c 1.6x.
      {"two hosts", on_executor("1", 20, 10000) + on_executor("3", 10, 40000),
       [](Thresholds& t) { t.slow_host_min_hosts = 2; }},
      // host-c ran 4 tasks: too few to judge, which leaves two hosts.
      {"4 tasks on the slow host",
       on_executor("1", 10, 10000) + on_executor("2", 10, 10000) + on_executor("3", 4, 25000),
       [](Thresholds& t) { t.slow_host_min_tasks = 4; }},
      // Equal times; host-c's tasks read 145 MiB against 100 MiB: 1.45x (450 MiB past its share).
      {"bytes 1.45x",
       on_executor("1", 10, 10000, hundred) + on_executor("2", 10, 10000, hundred) +
           on_executor("3", 10, 10000, {.shuffle_read_bytes = 145 * kMiB}),
       [](Thresholds& t) { t.slow_host_bytes_ratio = 1.45; }},
      // 75 MiB against 50 MiB: 1.5x, but only 250 MiB past its share.
      {"250 MiB past its share",
       on_executor("1", 10, 10000, {.shuffle_read_bytes = 50 * kMiB}) +
           on_executor("2", 10, 10000, {.shuffle_read_bytes = 50 * kMiB}) +
           on_executor("3", 10, 10000, {.shuffle_read_bytes = 75 * kMiB}),
       [](Thresholds& t) { t.slow_host_min_bytes_excess = 250.0 * kMiB; }},
  };
  for (const NearMiss& c : cases) expect_near_miss(c, "slowHost");
}

// --- coreLocality ----------------------------------------------------------------------------

// Tasks of 1 s on host-a at the given locality levels, in that order.
StageSpec locality_stage(int rack_local, int any, int node_local) {
  std::vector<TaskSpec> tasks;
  for (const auto& [level, n] : {std::pair{std::string("RACK_LOCAL"), rack_local}, std::pair{std::string("ANY"), any},
                                 std::pair{std::string("NODE_LOCAL"), node_local}}) {
    TaskSpec shape;
    shape.locality = level;
    tasks = tasks + on_executor("1", n, 1000, shape, 1000 + static_cast<int64_t>(tasks.size()) / 2 * 1000);
  }
  return stage_of(tasks);
}

TEST(CoreLocality, RackLocalAndAnyTasks) {
  // 100 RACK_LOCAL + 50 ANY of 400 tasks: 37.5%, 150 x 50 ms of network penalty.
  auto result = analyze_stage(locality_stage(100, 50, 250));
  auto locality = result.of_type("coreLocality");
  ASSERT_EQ(locality.size(), 1u);
  const Finding& f = *locality[0];
  EXPECT_EQ(f.id, "coreLocality//app");
  EXPECT_EQ(f.scope, Scope::kApp);
  EXPECT_TRUE(f.stages.empty());
  EXPECT_EQ(evidence_of(f, "rackLocalTasks"), 100);
  EXPECT_EQ(evidence_of(f, "anyLocalityTasks"), 50);
  EXPECT_EQ(evidence_of(f, "nonLocalTasks"), 150);
  EXPECT_EQ(evidence_of(f, "tasks"), 400);
  EXPECT_DOUBLE_EQ(evidence_of(f, "nonLocalShare"), 0.375);
  EXPECT_EQ(f.impact.basis, Basis::kResourceOnly);
  EXPECT_EQ(f.impact.method, EstimateMethod::kModeled);
  EXPECT_FALSE(f.impact.wall_clock);
  ASSERT_TRUE(f.impact.raw_waste);
  EXPECT_EQ(f.impact.raw_waste->unit, WasteUnit::kCoreMs);
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, 150 * 50.0);
  // Twice Spark's default 3 s.
  ASSERT_EQ(f.settings.size(), 1u);
  EXPECT_EQ(f.settings[0].key, "spark.locality.wait");
  EXPECT_EQ(f.settings[0].suggested_value, "6s");
  EXPECT_EQ(f.settings[0].current_value, "");
  // 37.5% / 20% = 1.9x: medium; 150 / 100 tasks = 1.5x: medium.
  EXPECT_EQ(f.confidence, Confidence::kMedium);
}

TEST(CoreLocality, SuggestsTwiceTheConfiguredWait) {
  auto log = three_hosts();
  log.property("spark.locality.wait", "5s");
  auto result = analyze_stage(locality_stage(100, 50, 250), testing::detector_thresholds(), log);
  auto locality = result.of_type("coreLocality");
  ASSERT_EQ(locality.size(), 1u);
  EXPECT_EQ(locality[0]->settings.at(0).suggested_value, "10s");
  EXPECT_EQ(locality[0]->settings.at(0).current_value, "5s");
}

TEST(CoreLocality, NearMissesYieldNone) {
  // 99 non-local tasks of 200 (49.5%).
  expect_near_miss({"99 non-local tasks", locality_stage(50, 49, 101).tasks,
                    [](Thresholds& t) { t.locality_min_non_local_tasks = 99; }},
                   "coreLocality");
  // 100 non-local tasks of 501: 19.96%.
  expect_near_miss({"19.96% non-local", locality_stage(100, 0, 401).tasks,
                    [](Thresholds& t) { t.locality_min_non_local_share = 0.199; }},
                   "coreLocality");
}

}  // namespace
}  // namespace sf::analysis

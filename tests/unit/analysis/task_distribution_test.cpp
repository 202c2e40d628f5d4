// skew, straggler, stageShape (lowParallelism, dataExplosion, taskStageSkew) and tinyTask on
// logs built to trigger each rule, near misses just under each threshold, and a clean log.
//
// The cluster has 8 cores (two executors of 4). Tasks are placed by stage_of() on the slot that
// frees first, in the order given, so each stage's duration is worked out by hand in its test.
// Every task's run time is its duration minus 10 ms (ScenarioLog's default), which sets the
// stage's ceiling: max(longest task, run time / 8 cores). A stage alone has gate 1: serial.
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
using sf::testing::SqlSpec;
using sf::testing::StageSpec;
using sf::testing::TaskSpec;
using testing::analyze_scenario;
using namespace testing::finding_readers;
using testing::Analyzed;

constexpr int64_t kMiB = 1024 * 1024;
constexpr int64_t kGiB = 1024 * kMiB;
constexpr int kSlots = 8;
const std::string kExecutorOfSlot[] = {"1", "2"};  // four slots each

ScenarioLog cluster() {
  ScenarioLog log;
  log.start(0).finished(1000000);
  log.executor("1", "host-a", 4, 100).executor("2", "host-b", 4, 100);
  return log;
}

// n copies of a task shape with the given duration.
std::vector<TaskSpec> repeat(int n, int64_t duration_ms, TaskSpec shape = {}) {
  shape.duration_ms = duration_ms;
  return std::vector<TaskSpec>(static_cast<size_t>(n), shape);
}

std::vector<TaskSpec> operator+(std::vector<TaskSpec> a, const std::vector<TaskSpec>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The tasks in order, each on the slot that frees first (slots 0-3 on executor 1, 4-7 on
// executor 2), from `launch_delay_ms` after submission; the stage completes with its last task.
StageSpec stage_of(int64_t id, int64_t submit_ms, std::vector<TaskSpec> tasks, int64_t launch_delay_ms = 0) {
  std::vector<int64_t> free_at(kSlots, submit_ms + launch_delay_ms);
  int64_t end = submit_ms;
  for (TaskSpec& task : tasks) {
    const auto slot = static_cast<size_t>(std::min_element(free_at.begin(), free_at.end()) - free_at.begin());
    task.launch_ms = free_at[slot];
    // Assigned from a std::string: assigning the literal trips g++ 12's false -Wrestrict (GCC bug 105329).
    task.executor_id = kExecutorOfSlot[slot / 4];
    free_at[slot] += task.duration_ms;
    end = std::max(end, free_at[slot]);
  }
  StageSpec stage;
  stage.stage_id = id;
  stage.name = "shaped " + std::to_string(id);
  stage.submit_ms = submit_ms;
  stage.complete_ms = end;
  stage.tasks = std::move(tasks);
  return stage;
}

// One job running `stage`, inside SQL execution 0 when `sql` is set.
Analyzed analyze_stage(const StageSpec& stage, bool sql = false,
                       const Thresholds& thresholds = testing::detector_thresholds(), ScenarioLog log = cluster()) {
  const int64_t end = stage.complete_ms.value_or(stage.submit_ms) + 1000;
  JobSpec job{.job_id = 0, .submit_ms = stage.submit_ms, .end_ms = end, .stages = {stage}};
  if (sql) {
    job.sql_execution_id = 0;
    log.sql(SqlSpec{.execution_id = 0, .start_ms = stage.submit_ms, .end_ms = end, .plan = {.name = "SortMergeJoin"}});
  }
  log.job(job);
  return analyze_scenario(log, thresholds);
}

// A near miss: silent at the defaults, and firing once `relax` moves the one threshold it sits
// under to its figure, so that threshold, and nothing else, is what held it back.
struct NearMiss {
  std::string what;
  StageSpec stage;
  std::function<void(Thresholds&)> relax;  // empty when no threshold stands in the way
};

void expect_near_miss(const NearMiss& c, std::string_view type, std::string_view rule = {}) {
  EXPECT_TRUE(analyze_stage(c.stage).detected(type, rule).empty()) << c.what;
  if (!c.relax) return;
  Thresholds relaxed = testing::detector_thresholds();
  c.relax(relaxed);
  EXPECT_EQ(analyze_stage(c.stage, false, relaxed).detected(type, rule).size(), 1u) << c.what << ", relaxed";
}

// A stage-tied claim on a stage that ran alone: serial, low == high == the clipped waste.
void expect_serial(const Finding& f, double raw_ms, double wall_clock_ms, EstimateMethod method) {
  EXPECT_EQ(f.impact.basis, Basis::kSerial) << f.id;
  EXPECT_EQ(f.impact.method, method) << f.id;
  ASSERT_TRUE(f.impact.raw_waste) << f.id;
  EXPECT_EQ(f.impact.raw_waste->unit, WasteUnit::kMs);
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, raw_ms) << f.id;
  ASSERT_TRUE(f.impact.wall_clock) << f.id;
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->low_ms, wall_clock_ms) << f.id;
  EXPECT_DOUBLE_EQ(f.impact.wall_clock->high_ms, wall_clock_ms) << f.id;
}

void expect_resource_only(const Finding& f, double raw, WasteUnit unit) {
  EXPECT_EQ(f.impact.basis, Basis::kResourceOnly) << f.id;
  EXPECT_EQ(f.impact.method, EstimateMethod::kMeasured) << f.id;
  EXPECT_FALSE(f.impact.wall_clock) << f.id;
  ASSERT_TRUE(f.impact.raw_waste) << f.id;
  EXPECT_EQ(f.impact.raw_waste->unit, unit) << f.id;
  EXPECT_DOUBLE_EQ(f.impact.raw_waste->value, raw) << f.id;
}

const char* const kMyTypes[] = {"skew", "straggler", "stageShape", "tinyTask"};

// --- clean -----------------------------------------------------------------------------------

TEST(TaskDistribution, CleanLogHasNoDistributionFindings) {
  // 64 even tasks of 10 s on 8 cores: 8 waves, an 80 s stage.
  auto result = analyze_stage(stage_of(0, 1000, repeat(64, 10000, {.shuffle_read_bytes = 64 * kMiB})));
  for (const char* type : kMyTypes) EXPECT_TRUE(result.detected(type).empty()) << type;
  EXPECT_TRUE(result.analysis.guard_violations.empty());
}

// --- skew ------------------------------------------------------------------------------------

TEST(Skew, DurationMaxWithSkewedShuffleOnSqlStage) {
  // 19 tasks of 10 s reading 64 MiB and one of 70 s reading 1 GiB. Waves at 0, 10 and 20 s
  // (8, 8, 3 tasks); the long one starts at 20 s on the fourth slot and ends at 90 s.
  const StageSpec stage = stage_of(
      0, 1000, repeat(19, 10000, {.shuffle_read_bytes = 64 * kMiB}) + repeat(1, 70000, {.shuffle_read_bytes = kGiB}));
  auto result = analyze_stage(stage, /*sql=*/true);

  auto skews = result.detected("skew");
  ASSERT_EQ(skews.size(), 1u);
  const Finding& f = *skews[0];
  EXPECT_EQ(f.id, "skew/durationMax/stage-0.0");
  EXPECT_EQ(f.rule, "durationMax");
  ASSERT_EQ(f.stages.size(), 1u);
  EXPECT_EQ(f.stages[0], (StageRef{0, 0}));
  EXPECT_EQ(f.sql_execution_id, 0);
  // 20 tasks: p50 = sorted[10] = 10 s, p95 = sorted[19] = max = 70 s.
  EXPECT_EQ(evidence_of(f, "successfulTasks"), 20);
  EXPECT_EQ(evidence_of(f, "taskDurationP50Ms"), 10000);
  EXPECT_EQ(evidence_of(f, "taskDurationMaxMs"), 70000);
  EXPECT_DOUBLE_EQ(evidence_of(f, "maxToMedianRatio"), 7.0);
  EXPECT_EQ(evidence_of(f, "shuffleReadMaxBytes"), kGiB);
  EXPECT_EQ(evidence_of(f, "shuffleReadP50Bytes"), 64 * kMiB);
  // Fixed, the work is spread evenly (stage_reshape.h): 260 s of task time less 20 x 20 ms of
  // overhead, in 20 tasks on 8 cores: (259,600 + 400) / 8 = 32,500 ms, against 90 s. The old
  // clip at duration - longest task (20 s) ignored that the fix shrinks the longest task.
  expect_serial(f, 57500, 57500, EstimateMethod::kMeasured);
  // ratio 7 / 5 = 1.4x the threshold: low; excess 60 / 30 s = 2x: medium. The lower wins.
  EXPECT_EQ(f.confidence, Confidence::kLow);
  // The shuffle is skewed 16x (1 GiB vs 64 MiB): AQE's skew join with factor min(5, 16 / 2).
  EXPECT_NE(f.explanation.find("skewed too"), std::string::npos) << f.explanation;
  // AQE, its skew join, factor 5 and threshold 256 MiB are the log's Spark defaults: in effect
  // already, so not suggested (a suggestion is always a change).
  EXPECT_EQ(suggested(f, "spark.sql.adaptive.enabled"), "<absent>");
  EXPECT_EQ(suggested(f, "spark.sql.adaptive.skewJoin.enabled"), "<absent>");
  EXPECT_EQ(suggested(f, "spark.sql.adaptive.skewJoin.skewedPartitionFactor"), "<absent>");
  EXPECT_EQ(suggested(f, "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes"), "<absent>");

  // The same longest task trips straggler: one fix, one entry, the other kept as its evidence.
  auto stragglers = result.detected("straggler");
  ASSERT_EQ(stragglers.size(), 1u);
  EXPECT_NE(stragglers[0]->explanation.find("data is skewed"), std::string::npos) << stragglers[0]->explanation;
  const Finding* entry = result.entry_of(f.id);
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry, result.entry_of(stragglers[0]->id)) << "skew and straggler are one entry";
  EXPECT_TRUE(result.of_type("straggler").empty() || result.of_type("skew").empty());
  EXPECT_FALSE(entry->also_answers.empty());
  // And one task held 70 of the stage's 90 s: taskStageSkew, idle cores (8 - 1) x 60 s.
  auto shapes = result.detected("stageShape", "taskStageSkew");
  ASSERT_EQ(shapes.size(), 1u);
  expect_resource_only(*shapes[0], 7 * 60000.0, WasteUnit::kCoreMs);
  EXPECT_TRUE(result.analysis.guard_violations.empty());
}

TEST(Skew, DurationP95OnATailOfSlowTasks) {
  // 37 tasks of 20 s, then two of 52 s and one of 56 s. Waves at 0, 20, 40, 60 s; at 80 s the
  // last 5 short tasks and the 3 slow ones start together; the stage ends at 80 + 56 = 136 s.
  const StageSpec stage = stage_of(0, 1000, repeat(37, 20000) + repeat(2, 52000) + repeat(1, 56000));
  auto result = analyze_stage(stage);

  auto skews = result.detected("skew");
  ASSERT_EQ(skews.size(), 1u);
  const Finding& f = *skews[0];
  EXPECT_EQ(f.id, "skew/durationP95/stage-0.0");
  // 40 tasks: p50 = sorted[20] = 20 s, p95 = sorted[38] = 52 s, max = 56 s. The max branch
  // misses (2.8x < 5x); p95 is 2.6x and 32 s past the median.
  EXPECT_EQ(evidence_of(f, "taskDurationP50Ms"), 20000);
  EXPECT_EQ(evidence_of(f, "taskDurationP95Ms"), 52000);
  EXPECT_EQ(evidence_of(f, "taskDurationMaxMs"), 56000);
  EXPECT_DOUBLE_EQ(evidence_of(f, "p95ToMedianRatio"), 2.6);
  // Spread evenly: 900 s of task time on 8 cores is 112,500 ms against 136 s.
  expect_serial(f, 23500, 23500, EstimateMethod::kMeasured);
  // No data at all: the time outlier advice, speculation at max(1.5, 2.8 / 2).
  EXPECT_EQ(suggested(f, "spark.speculation"), "true");
  EXPECT_EQ(suggested(f, "spark.speculation.multiplier"), "<absent>");  // 1.5 is the default in effect
  EXPECT_TRUE(result.detected("straggler").empty()) << "2.8x is under straggler's 3x";
  EXPECT_TRUE(result.detected("stageShape").empty());
}

TEST(Skew, ShuffleReadMaxWithoutATimeSkew) {
  // 19 tasks of 10 s reading 64 MiB, one of 24 s reading 1 GiB that starts at 20 s: 44 s.
  const StageSpec stage = stage_of(
      0, 1000, repeat(19, 10000, {.shuffle_read_bytes = 64 * kMiB}) + repeat(1, 24000, {.shuffle_read_bytes = kGiB}));
  auto result = analyze_stage(stage, /*sql=*/true);

  auto skews = result.detected("skew");
  ASSERT_EQ(skews.size(), 1u);
  const Finding& f = *skews[0];
  EXPECT_EQ(f.id, "skew/shuffleReadMax/stage-0.0");
  // Durations: 2.4x at p95 and max (under 2.5x and 5x); bytes 16x and 960 MiB past the median.
  EXPECT_DOUBLE_EQ(evidence_of(f, "bytesMaxToMedianRatio"), 16.0);
  // Spread evenly: 214 s of task time on 8 cores is 26,750 ms against 44 s.
  expect_serial(f, 17250, 17250, EstimateMethod::kMeasured);
  // ratio 16 / 5 = 3.2x: high; excess 960 / 256 MiB = 3.75x: high.
  EXPECT_EQ(f.confidence, Confidence::kHigh);
  EXPECT_EQ(suggested(f, "spark.sql.adaptive.skewJoin.enabled"), "<absent>");  // on by default
  EXPECT_NE(f.title.find("1.00 GiB, 16.0x the median 64.0 MiB"), std::string::npos) << f.title;
  EXPECT_TRUE(result.detected("straggler").empty());
}

TEST(Skew, InputMaxOnAnRddStageSuggestsSplittingTheInput) {
  // 19 tasks of 10 s reading 32 MiB of input, one of 20 s reading 512 MiB: ends at 40 s.
  const StageSpec stage =
      stage_of(0, 1000, repeat(19, 10000, {.input_bytes = 32 * kMiB}) + repeat(1, 20000, {.input_bytes = 512 * kMiB}));
  auto result = analyze_stage(stage);

  auto skews = result.detected("skew");
  ASSERT_EQ(skews.size(), 1u);
  const Finding& f = *skews[0];
  EXPECT_EQ(f.id, "skew/inputMax/stage-0.0");
  EXPECT_FALSE(f.sql_execution_id.has_value());
  EXPECT_EQ(evidence_of(f, "inputMaxBytes"), 512 * kMiB);
  EXPECT_EQ(evidence_of(f, "inputP50Bytes"), 32 * kMiB);
  // Spread evenly: 210 s of task time on 8 cores is 26,250 ms against 40 s.
  expect_serial(f, 13750, 13750, EstimateMethod::kMeasured);
  EXPECT_NE(f.recommendation.find("splittable"), std::string::npos) << f.recommendation;
  EXPECT_TRUE(f.settings.empty());
}

TEST(Skew, NearMissesYieldNone) {
  const std::vector<NearMiss> cases = {
      // 40 tasks so p95 stays at the median: max 4.9x, 39 s past it.
      {"max 4.9x the median", stage_of(0, 1000, repeat(39, 10000) + repeat(1, 49000)),
       [](Thresholds& t) { t.skew_max_to_median_ratio = 4.9; }},
      // 5.3x, but 29,999 ms past the median.
      {"max 1 ms short of the excess", stage_of(0, 1000, repeat(39, 7000) + repeat(1, 36999)),
       [](Thresholds& t) { t.skew_min_excess_ms = 29999; }},
      // p95 = sorted[38] = 53.9 s against 22 s: 2.45x (31.9 s past it).
      {"p95 2.45x the median", stage_of(0, 1000, repeat(37, 22000) + repeat(2, 53900) + repeat(1, 56000)),
       [](Thresholds& t) { t.skew_p95_to_median_ratio = 2.45; }},
      // 490 MiB against 100 MiB: 4.9x (390 MiB past it).
      {"shuffle read 4.9x",
       stage_of(0, 1000,
                repeat(19, 10000, {.shuffle_read_bytes = 100 * kMiB}) +
                    repeat(1, 12000, {.shuffle_read_bytes = 490 * kMiB})),
       [](Thresholds& t) { t.skew_bytes_max_to_median_ratio = 4.9; }},
      // 26.5x, but 255 MiB past the median.
      {"shuffle read 1 MiB short of the excess",
       stage_of(
           0, 1000,
           repeat(19, 10000, {.shuffle_read_bytes = 10 * kMiB}) + repeat(1, 12000, {.shuffle_read_bytes = 265 * kMiB})),
       [](Thresholds& t) { t.skew_min_bytes_excess = 255.0 * kMiB; }},
      {"input 4.9x",
       stage_of(0, 1000,
                repeat(19, 10000, {.input_bytes = 100 * kMiB}) + repeat(1, 12000, {.input_bytes = 490 * kMiB})),
       [](Thresholds& t) { t.skew_bytes_max_to_median_ratio = 4.9; }},
      // 16x skewed input, but only 4 successful tasks.
      {"4 tasks",
       stage_of(0, 1000, repeat(3, 10000, {.input_bytes = 32 * kMiB}) + repeat(1, 20000, {.input_bytes = 512 * kMiB})),
       [](Thresholds& t) { t.skew_min_tasks = 4; }},
      // 16x skewed shuffle, but two waves of 2 s from 999 ms in: a 4,999 ms stage.
      {"a 4,999 ms stage",
       stage_of(0, 1000,
                repeat(15, 2000, {.shuffle_read_bytes = 64 * kMiB}) + repeat(1, 2000, {.shuffle_read_bytes = kGiB}),
                999),
       [](Thresholds& t) { t.stage_min_duration_ms = 4999; }},
  };
  for (const NearMiss& c : cases) expect_near_miss(c, "skew");
}

// --- straggler -------------------------------------------------------------------------------

// 39 tasks of 20 s and one of 79 s: waves at 0, 20, 40, 60 s, then at 80 s the last 7 short
// tasks and the long one, which ends at 159 s.
StageSpec straggler_stage(int64_t id, int64_t submit_ms) {
  return stage_of(id, submit_ms, repeat(39, 20000) + repeat(1, 79000));
}

TEST(Straggler, TimeOutlierWithEvenData) {
  auto result = analyze_stage(straggler_stage(0, 1000));
  auto stragglers = result.detected("straggler");
  ASSERT_EQ(stragglers.size(), 1u);
  const Finding& f = *stragglers[0];
  EXPECT_EQ(f.id, "straggler//stage-0.0");
  // p50 = sorted[20] = 20 s, max 79 s: 3.95x, 59 s past the median (p95 = 20 s: no skew).
  EXPECT_EQ(evidence_of(f, "taskDurationP50Ms"), 20000);
  EXPECT_EQ(evidence_of(f, "taskDurationMaxMs"), 79000);
  EXPECT_DOUBLE_EQ(evidence_of(f, "maxToMedianRatio"), 3.95);
  // Ceiling = max(79 s, (39 x 19,990 + 78,990) / 8 = 858,600 / 8 = 107,325 ms);
  // room = 159,000 - 107,325 = 51,675 ms < the 59 s claim.
  expect_serial(f, 59000, 51675, EstimateMethod::kMeasured);
  EXPECT_NE(f.explanation.find("time outlier"), std::string::npos) << f.explanation;
  EXPECT_NE(f.recommendation.find("slowHost"), std::string::npos) << f.recommendation;
  // A copy at 3.95 / 2 = 1.975 -> 2x the median.
  EXPECT_EQ(suggested(f, "spark.speculation"), "true");
  EXPECT_EQ(suggested(f, "spark.speculation.multiplier"), "2");
  EXPECT_TRUE(f.validation_caveat.empty()) << "no skew finding to overlap with";
  EXPECT_TRUE(result.detected("skew").empty());
  // 79 of 159 s is under half the stage: no taskStageSkew.
  EXPECT_TRUE(result.detected("stageShape").empty());
}

TEST(Straggler, SpeculationIsNeverSuggestedInLocalMode) {
  // Spark runs no copy of a task on the host of an attempt of it: local mode has one host.
  ScenarioLog log = cluster();
  log.property("spark.master", "local[8]");
  auto result = analyze_stage(straggler_stage(0, 1000), false, testing::detector_thresholds(), log);
  auto stragglers = result.detected("straggler");
  ASSERT_EQ(stragglers.size(), 1u);
  EXPECT_EQ(find_setting(*stragglers[0], "spark.speculation"), nullptr);
  EXPECT_NE(stragglers[0]->recommendation.find("speculation never starts a copy"), std::string::npos)
      << stragglers[0]->recommendation;
}

// The first tasks on a fresh executor run while its JVM loads classes and compiles: three corpus
// logs (apache 1536831636016_59384, the rapids dynamic-allocation log, delight's example) and a
// real Spark 4.3 cluster had their "stragglers" there, each with about a second (once 15 s) of
// deserialization. The first wave of 8 tasks runs 60 s, the 32 warmed ones 20 s.
TEST(Straggler, TheMultiplierSuggestedOnlyEverLaunchesCopiesEarlier) {
  // Speculation on at 3x: a copy at 2x the median is earlier, and suggested.
  ScenarioLog late = cluster();
  late.property("spark.speculation", "true").property("spark.speculation.multiplier", "3");
  const auto late_result = analyze_stage(straggler_stage(0, 1000), false, {}, late);
  auto stragglers = late_result.detected("straggler");
  ASSERT_EQ(stragglers.size(), 1u);
  EXPECT_EQ(suggested(*stragglers[0], "spark.speculation.multiplier"), "2");
  EXPECT_EQ(suggested(*stragglers[0], "spark.speculation"), "<absent>") << "already on";
  // On at 1.1x: 2x would launch copies later, which is no remedy for a straggler.
  ScenarioLog early = cluster();
  early.property("spark.speculation", "true").property("spark.speculation.multiplier", "1.1");
  const auto early_result = analyze_stage(straggler_stage(0, 1000), false, {}, early);
  stragglers = early_result.detected("straggler");
  ASSERT_EQ(stragglers.size(), 1u);
  EXPECT_EQ(suggested(*stragglers[0], "spark.speculation.multiplier"), "<absent>");
}

TEST(Straggler, ExecutorWarmUpIsNotAStraggler) {
  auto result = analyze_stage(stage_of(0, 1000, repeat(8, 60000) + repeat(32, 20000)));
  EXPECT_TRUE(result.detected("straggler").empty());
  EXPECT_TRUE(result.detected("skew").empty());

  // A warmed task that is an outlier is still one, and the first wave (90 s here) is left out of
  // the figures.
  result = analyze_stage(stage_of(0, 1000, repeat(8, 90000) + repeat(31, 20000) + repeat(1, 79000)));
  auto stragglers = result.detected("straggler");
  ASSERT_EQ(stragglers.size(), 1u);
  const Finding& f = *stragglers[0];
  EXPECT_EQ(evidence_of(f, "taskDurationMaxMs"), 79000);
  EXPECT_EQ(evidence_of(f, "firstWaveTasks"), 8);
  EXPECT_NE(f.explanation.find("The 8 tasks that ran first on their executors"), std::string::npos) << f.explanation;

  // A stage of one wave has only first tasks: they are compared with each other as before.
  result = analyze_stage(stage_of(0, 1000, repeat(7, 20000) + repeat(1, 79000)));
  EXPECT_EQ(result.detected("straggler").size(), 1u);
}

// The straggler with a speculative copy on the other executor's host, launched `copy_after_ms`
// into it and killed when the original finished first.
StageSpec straggler_raced_by_a_copy(int64_t copy_after_ms) {
  StageSpec stage = straggler_stage(0, 1000);
  const TaskSpec& original = stage.tasks.back();
  TaskSpec copy = original;
  copy.index = 39;
  copy.attempt = 1;
  copy.speculative = true;
  copy.executor_id = original.executor_id == "1" ? "2" : "1";
  copy.launch_ms = original.launch_ms + copy_after_ms;
  copy.duration_ms = original.duration_ms - copy_after_ms;
  copy.reason = "TaskKilled";  // "another attempt succeeded"
  stage.tasks.push_back(copy);
  return stage;
}

TEST(Straggler, ATaskSlowWhereverItRunsIsNotAStraggler) {
  // The copy ran 54 s on another host, 2.7 medians, and the original still won: the task is slow
  // wherever it runs, so no host or speculation wins its 59 s back.
  EXPECT_TRUE(analyze_stage(straggler_raced_by_a_copy(25000)).detected("straggler").empty());
  // A copy that ran 30 s (1.5 medians) before it lost says nothing yet: a copy started late loses
  // to an original near its end wherever it runs.
  EXPECT_EQ(analyze_stage(straggler_raced_by_a_copy(49000)).detected("straggler").size(), 1u);
}

TEST(Straggler, ContendedStagesGetARange) {
  // Two copies of the stage over the same window with the same weight: each had half of
  // every instant, gate 0.5: high = the clipped 51,675 ms, low = half of it.
  auto log = cluster();
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = 161000,
           .stages = {straggler_stage(0, 1000), straggler_stage(1, 1000)}});
  auto result = analyze_scenario(log);
  auto stragglers = result.detected("straggler");
  ASSERT_EQ(stragglers.size(), 2u);
  for (const Finding* f : stragglers) {
    EXPECT_EQ(f->impact.basis, Basis::kContended) << f->id;
    ASSERT_TRUE(f->impact.wall_clock);
    EXPECT_DOUBLE_EQ(f->impact.wall_clock->high_ms, 51675);
    EXPECT_DOUBLE_EQ(f->impact.wall_clock->low_ms, 51675 * 0.5);
    EXPECT_DOUBLE_EQ(f->impact.raw_waste->value, 59000);
  }
}

TEST(Straggler, NearMissesYieldNone) {
  // 59 s against 20 s: 2.95x.
  expect_near_miss({"2.95x the median", stage_of(0, 1000, repeat(39, 20000) + repeat(1, 59000)),
                    [](Thresholds& t) { t.straggler_max_to_median_ratio = 2.95; }},
                   "straggler");
  // 4x, but 29,999 ms past the median.
  expect_near_miss({"1 ms short of the excess", stage_of(0, 1000, repeat(39, 10000) + repeat(1, 39999)),
                    [](Thresholds& t) { t.straggler_min_excess_ms = 29999; }},
                   "straggler");
}

// --- stageShape: lowParallelism --------------------------------------------------------------

TEST(StageShape, LowParallelismOnAShuffleStage) {
  // 3 tasks of 70 s reading shuffle data on 8 cores: 3 < 0.5 x 8; a 70 s stage.
  auto result = analyze_stage(stage_of(0, 1000, repeat(3, 70000, {.shuffle_read_bytes = 100 * kMiB})));
  auto shapes = result.detected("stageShape");
  ASSERT_EQ(shapes.size(), 1u);
  const Finding& f = *shapes[0];
  EXPECT_EQ(f.id, "stageShape/lowParallelism/stage-0.0");
  EXPECT_EQ(evidence_of(f, "tasks"), 3);
  EXPECT_EQ(evidence_of(f, "totalCores"), 8);
  EXPECT_EQ(evidence_of(f, "idleCores"), 5);
  EXPECT_EQ(evidence_of(f, "stageDurationMs"), 70000);
  // Reshaped into 16 tasks (stage_reshape.h): overhead 20 ms a task, data work 210,000 - 60 =
  // 209,940 ms; (209,940 + 16 x 20) / 8 cores = 26,282.5 ms against 70,000 ms.
  expect_serial(f, 43717.5, 43717.5, EstimateMethod::kModeled);
  // Not SQL, and spark.default.parallelism is not set to 3: no setting gave this count, so the
  // advice points at the code or the input rather than at a setting that would not change it.
  EXPECT_EQ(suggested(f, "spark.default.parallelism"), "<absent>");
  EXPECT_NE(f.recommendation.find("the code or the input sets the count"), std::string::npos) << f.recommendation;
  // 3 tasks against a floor of 4: 1.33x, low.
  EXPECT_EQ(f.confidence, Confidence::kLow);
}

TEST(StageShape, LowParallelismUnderDynamicAllocationSaysWhichCoresTheStageHad) {
  // Dynamic allocation held 16 cores for earlier work, then released all but one executor; the
  // 3-task stage ran on its 4 cores. More tasks would have brought executors back, up to the 16
  // the application held: the finding says both, never "3 tasks on 16 cores" (junoHourly's
  // stage 1.0: 40 tasks on about 34 cores, where 200 could have been held).
  ScenarioLog log;
  log.start(0).finished(1000000);
  log.property("spark.dynamicAllocation.enabled", "true");
  for (const char* id : {"1", "2", "3"}) log.executor(id, "host-a", 4, 100, 500000);
  log.executor("5", "host-b", 4, 100);
  StageSpec stage = stage_of(0, 600000, repeat(3, 70000));
  const std::string last_executor = "5";
  for (TaskSpec& t : stage.tasks) t.executor_id = last_executor;
  auto result = analyze_stage(stage, false, testing::detector_thresholds(), log);
  auto shapes = result.detected("stageShape", "lowParallelism");
  ASSERT_EQ(shapes.size(), 1u);
  const Finding& f = *shapes[0];
  EXPECT_NE(f.title.find("ran 3 tasks for 1m 10s on about 4 cores, where dynamic allocation could have held 16"),
            std::string::npos)
      << f.title;
  EXPECT_NE(f.explanation.find("by the tasks waiting to run"), std::string::npos) << f.explanation;
  EXPECT_EQ(evidence_of(f, "totalCores"), 16);
}

TEST(StageShape, LowParallelismOnASqlScanSuggestsSmallerSplits) {
  // 3 SQL scan tasks of 70 s reading 1 GiB each: 3 GiB over 16 tasks is 192 MiB a split.
  auto result = analyze_stage(stage_of(0, 1000, repeat(3, 70000, {.input_bytes = kGiB})), /*sql=*/true);
  auto shapes = result.detected("stageShape", "lowParallelism");
  ASSERT_EQ(shapes.size(), 1u);
  // 1 GiB a task is past spark.sql.files.maxPartitionBytes (128 MiB): the files could not be
  // split, so no split size helps; the advice says so instead of "raising" it to 192m.
  EXPECT_EQ(suggested(*shapes[0], "spark.sql.files.maxPartitionBytes"), "<absent>");
  EXPECT_NE(shapes[0]->recommendation.find("cannot be split"), std::string::npos) << shapes[0]->recommendation;
}

TEST(StageShape, LowParallelismNearMissesYieldNone) {
  // 4 tasks: not under 0.5 x 8 (they are under 0.51 x 8 = 4.08).
  expect_near_miss(
      {"4 tasks", stage_of(0, 1000, repeat(4, 70000)), [](Thresholds& t) { t.low_parallelism_task_ratio = 0.51; }},
      "stageShape", "lowParallelism");
  // 3 tasks, but a 450 ms stage: under significance.minMs and a small share of the application.
  expect_near_miss({"a 450 ms stage", stage_of(0, 1000, repeat(3, 450)),
                    [](Thresholds& t) {
                      t.significance_min_ms = 100;
                      t.significance_app_share = 0;
                    }},
                   "stageShape", "lowParallelism");
}

TEST(StageShape, LowParallelismCountsTheTimeItsTasksRanNotTheWaitBefore) {
  // 3 tasks of 40 s on 8 cores, the first 30 s after submission (executors arriving): a 70 s
  // stage whose tasks ran 40 s. The significance floor is 50 s (5% of the 1,000 s application):
  // the wait is not its few tasks keeping cores idle, so it does not make the stage significant.
  const StageSpec waited = stage_of(0, 1000, repeat(3, 40000), /*launch_delay_ms=*/30000);
  expect_near_miss({"40 s of tasks after a 30 s wait", waited, [](Thresholds& t) { t.shape_min_duration_ms = 40000; }},
                   "stageShape", "lowParallelism");
  Thresholds relaxed = testing::detector_thresholds();
  relaxed.shape_min_duration_ms = 40000;
  auto result = analyze_stage(waited, false, relaxed);
  auto shapes = result.detected("stageShape", "lowParallelism");
  ASSERT_EQ(shapes.size(), 1u);
  EXPECT_EQ(evidence_of(*shapes[0], "tasksRunningMs"), 40000);
  EXPECT_EQ(evidence_of(*shapes[0], "stageDurationMs"), 70000);
  EXPECT_NE(shapes[0]->title.find("for 40.0s"), std::string::npos) << shapes[0]->title;
}

TEST(StageShape, NoLowParallelismForAStageWhoseTasksNeverStarted) {
  // One task announced, none launched, cancelled 70 s later when the application shut down (a
  // real log: the corpus's gpu_oom_eventlog, stage 37.0): it ran nothing, so more tasks help nothing.
  StageSpec cancelled;
  cancelled.stage_id = 0;
  cancelled.submit_ms = 1000;
  cancelled.complete_ms = 71000;
  cancelled.num_tasks = 1;
  cancelled.failure_reason = "Stage cancelled because SparkContext was shut down";
  EXPECT_TRUE(analyze_stage(cancelled).detected("stageShape", "lowParallelism").empty());
}

TEST(StageShape, LowParallelismAsksForNoMoreTasksThanRecordsRead) {
  // One 70 s task that read 3 records on 8 cores (a streaming batch of 3 Kafka records): 16 tasks
  // would leave 13 empty, so the stage is reshaped into 3. With 3 records or more than 16, as before.
  auto result = analyze_stage(stage_of(0, 1000, repeat(1, 70000, {.input_bytes = 3000, .input_records = 3})));
  auto shapes = result.detected("stageShape", "lowParallelism");
  ASSERT_EQ(shapes.size(), 1u);
  EXPECT_EQ(evidence_of(*shapes[0], "tasksAfterFix"), 3);
  EXPECT_NE(shapes[0]->recommendation.find("about 3 tasks (one for each record it read)"), std::string::npos)
      << shapes[0]->recommendation;
  // One record: one task already, nothing to split.
  EXPECT_TRUE(analyze_stage(stage_of(0, 1000, repeat(1, 70000, {.input_bytes = 1000, .input_records = 1})))
                  .of_type("stageShape", "lowParallelism")
                  .empty());
}

TEST(StageShape, NoLowParallelismForSparkReadingASchema) {
  // spark.read.parquet(path) without a schema: one task reads a footer, outside any SQL execution,
  // its call site the reader (Spark 4.3 wrote "org.apache.spark.sql.classic.DataFrameReader.parquet(
  // DataFrameReader.scala:59)" in tests/spark; the corpus's multiple_attempts logs, Spark 3, the
  // same without "classic"). More tasks would read the same footer.
  for (const char* reader : {"org.apache.spark.sql.DataFrameReader.parquet(DataFrameReader.scala:562)",
                             "org.apache.spark.sql.classic.DataFrameReader.parquet(DataFrameReader.scala:59)"}) {
    StageSpec schema = stage_of(0, 1000, repeat(1, 70000));
    schema.details = std::string(reader) + "\nsun.reflect.NativeMethodAccessorImpl.invoke0(Native Method)";
    EXPECT_TRUE(analyze_stage(schema).detected("stageShape", "lowParallelism").empty()) << reader;
    // The same stage inside a query is the query's own work.
    EXPECT_EQ(analyze_stage(schema, /*sql=*/true).detected("stageShape", "lowParallelism").size(), 1u) << reader;
  }
}

// --- stageShape: dataExplosion ---------------------------------------------------------------

TEST(StageShape, DataExplosion) {
  // 10 tasks each read 20 MiB (1,000 rows) of shuffle and write 300 MiB (15,000 rows).
  auto result = analyze_stage(stage_of(0, 1000,
                                       repeat(10, 10000,
                                              {.shuffle_read_bytes = 20 * kMiB,
                                               .shuffle_read_records = 1000,
                                               .shuffle_write_bytes = 300 * kMiB,
                                               .shuffle_write_records = 15000})));
  auto shapes = result.detected("stageShape");
  ASSERT_EQ(shapes.size(), 1u);
  const Finding& f = *shapes[0];
  EXPECT_EQ(f.id, "stageShape/dataExplosion/stage-0.0");
  EXPECT_EQ(evidence_of(f, "shuffleReadBytes"), 200 * kMiB);
  EXPECT_EQ(evidence_of(f, "shuffleWriteBytes"), 3000 * kMiB);
  EXPECT_DOUBLE_EQ(evidence_of(f, "outputToInputRatio"), 15.0);
  EXPECT_EQ(evidence_of(f, "recordsIn"), 10000);
  EXPECT_EQ(evidence_of(f, "recordsOut"), 150000);
  // out - in = 3,000 - 200 MiB.
  expect_resource_only(f, 2800.0 * kMiB, WasteUnit::kBytes);
  EXPECT_NE(f.recommendation.find("join"), std::string::npos);
  EXPECT_TRUE(f.settings.empty()) << "not SQL: no cross-join setting";
}

TEST(StageShape, DataExplosionNearMissesYieldNone) {
  // 1,980 MiB from 200 MiB: 9.9x.
  expect_near_miss(
      {"9.9x",
       stage_of(0, 1000, repeat(10, 10000, {.shuffle_read_bytes = 20 * kMiB, .shuffle_write_bytes = 198 * kMiB})),
       [](Thresholds& t) { t.data_explosion_ratio = 9.9; }},
      "stageShape", "dataExplosion");
  // 102x, but 1,020 MiB written: under 1 GiB.
  expect_near_miss(
      {"1,020 MiB written",
       stage_of(0, 1000, repeat(10, 10000, {.shuffle_read_bytes = kMiB, .shuffle_write_bytes = 102 * kMiB})),
       [](Thresholds& t) { t.data_explosion_min_output_bytes = 1020.0 * kMiB; }},
      "stageShape", "dataExplosion");
  // 2,000 MiB written from nothing read (a generated range): no ratio to speak of.
  expect_near_miss({"nothing read", stage_of(0, 1000, repeat(10, 10000, {.shuffle_write_bytes = 200 * kMiB})), {}},
                   "stageShape", "dataExplosion");
}

// --- stageShape: taskStageSkew ---------------------------------------------------------------

TEST(StageShape, TaskStageSkew) {
  // 8 tasks (under skew.minTasks, so no skew or straggler), all launched 35 s after
  // submission: 7 of 10 s and one of 45 s, which ends the stage at 80 s.
  auto result = analyze_stage(stage_of(0, 1000, repeat(7, 10000) + repeat(1, 45000), 35000));
  auto shapes = result.detected("stageShape");
  ASSERT_EQ(shapes.size(), 1u);
  const Finding& f = *shapes[0];
  EXPECT_EQ(f.id, "stageShape/taskStageSkew/stage-0.0");
  EXPECT_EQ(evidence_of(f, "taskDurationMaxMs"), 45000);
  EXPECT_EQ(evidence_of(f, "taskDurationP50Ms"), 10000);  // sorted[4] of 8
  EXPECT_EQ(evidence_of(f, "stageDurationMs"), 80000);
  EXPECT_DOUBLE_EQ(evidence_of(f, "taskToStageRatio"), 45000.0 / 80000.0);
  EXPECT_EQ(evidence_of(f, "concurrentCores"), 8);
  // (min(8 cores, 8 tasks) - 1) x (45 - 10 s).
  expect_resource_only(f, 7 * 35000.0, WasteUnit::kCoreMs);
  // The same task is 4.5x the median and 35 s past it: the skew (p95, which is the max of 8
  // tasks) and straggler findings say so too, as wall-clock claims.
  EXPECT_EQ(result.detected("skew").size(), 1u);
  EXPECT_EQ(result.detected("straggler").size(), 1u);
}

TEST(StageShape, ALongTaskThatEndedBeforeTheStageDidIsNotTaskStageSkew) {
  // sparklint's junoHourly stage 0.0: its longest task ran from the start to 846 s of a 1,354 s
  // stage, which tasks launched later ended. That task did not hold the stage: no taskStageSkew.
  // Here: the longest, 70 s, from 1 s; 10 s tasks on the other slots; the last one launched at
  // 80 s runs 40 s, to 120 s.
  StageSpec stage = stage_of(0, 1000, repeat(1, 70000) + repeat(42, 10000));
  TaskSpec late;
  late.launch_ms = 80000;
  late.duration_ms = 40000;
  late.executor_id = "2";
  stage.tasks.push_back(late);
  stage.complete_ms = 120000;
  auto result = analyze_stage(stage);
  EXPECT_TRUE(result.detected("stageShape", "taskStageSkew").empty());
}

TEST(StageShape, TaskStageSkewNearMissesYieldNone) {
  // 40 of 80 s: exactly half, not more.
  expect_near_miss({"half the stage", stage_of(0, 1000, repeat(7, 10000) + repeat(1, 40000), 40000),
                    [](Thresholds& t) { t.task_stage_skew_ratio = 0.49; }},
                   "stageShape", "taskStageSkew");
  // 49,999 of 79,999 ms, but only 29,999 ms past the 20 s median.
  expect_near_miss({"1 ms short of the tail", stage_of(0, 1000, repeat(7, 20000) + repeat(1, 49999), 30000),
                    [](Thresholds& t) { t.task_stage_skew_min_excess_ms = 29999; }},
                   "stageShape", "taskStageSkew");
  // Every task as long as the stage (one wave of equal tasks): nothing dominates.
  expect_near_miss({"equal tasks", stage_of(0, 1000, repeat(8, 70000)), {}}, "stageShape", "taskStageSkew");
}

// --- stageShape: longLastWave ----------------------------------------------------------------

TEST(TaskDistribution, LongLastWaveAsksForSmallerTasks) {
  // 10 tasks of 60 s on 8 cores: 8 run from 0 s, the last 2 from 60 s to 120 s on 2 cores while 6
  // have nothing left. 600 s of task time is 75 s a core: the stage ran 45 s (37.5%) past that,
  // under its longest task (60 s), on even data. Split 4 ways (60 s / (0.25 x 75 s) = 3.2, up):
  // 40 tasks of 15 s, five waves, about 75 s.
  const StageSpec stage = stage_of(0, 1000, repeat(10, 60000));
  const auto result = analyze_stage(stage);
  auto found = result.detected("stageShape", "longLastWave");
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_EQ(evidence_of(f, "tasks"), 10);
  EXPECT_EQ(evidence_of(f, "cores"), 8);
  EXPECT_NEAR(evidence_of(f, "taskTimePerCoreMs"), 75000, 1);
  EXPECT_NEAR(evidence_of(f, "pastTheSpreadMs"), 45000, 100);
  EXPECT_EQ(evidence_of(f, "splitWays"), 4);
  EXPECT_NE(f.recommendation.find("about 40 (4 ways)"), std::string::npos) << f.recommendation;
  ASSERT_TRUE(f.impact.wall_clock);
  EXPECT_GT(f.impact.wall_clock->high_ms, 40000);
  EXPECT_LE(f.impact.wall_clock->high_ms, 45000);
  EXPECT_TRUE(result.detected("straggler").empty());
  EXPECT_TRUE(result.detected("stageShape", "lowParallelism").empty());
}

TEST(TaskDistribution, FullWavesOrALastWaveUnderTheShareAreNotALongTail) {
  // 16 tasks of 60 s on 8 cores: two full waves end together.
  EXPECT_TRUE(analyze_stage(stage_of(0, 1000, repeat(16, 60000))).detected("stageShape", "longLastWave").empty());
  // 12 tasks: 30 s (25%) past 90 s a core is at the share; 14 tasks: 15 s (12.5%) under it, and
  // firing once the share is lowered to that.
  EXPECT_EQ(analyze_stage(stage_of(0, 1000, repeat(12, 60000))).detected("stageShape", "longLastWave").size(), 1u);
  const StageSpec fourteen = stage_of(0, 1000, repeat(14, 60000));
  EXPECT_TRUE(analyze_stage(fourteen).detected("stageShape", "longLastWave").empty());
  Thresholds t = testing::detector_thresholds();
  t.last_wave_min_share = 0.12;
  EXPECT_EQ(analyze_stage(fourteen, false, t).detected("stageShape", "longLastWave").size(), 1u);
}

// --- tinyTask --------------------------------------------------------------------------------

TEST(TinyTask, ThousandTasksOfFiftyMilliseconds) {
  // 1,000 tasks of 50 ms reading 1 MiB of shuffle each on 8 cores: 125 waves, a 6,250 ms stage.
  auto result = analyze_stage(stage_of(0, 1000, repeat(1000, 50, {.shuffle_read_bytes = kMiB})), /*sql=*/true);
  auto tiny = result.detected("tinyTask");
  ASSERT_EQ(tiny.size(), 1u);
  const Finding& f = *tiny[0];
  EXPECT_EQ(f.id, "tinyTask//stage-0.0");
  EXPECT_EQ(evidence_of(f, "successfulTasks"), 1000);
  EXPECT_EQ(evidence_of(f, "taskDurationP50Ms"), 50);
  // 1,000 MiB of shuffle at 128 MiB a partition: 8, one per core.
  EXPECT_EQ(evidence_of(f, "suggestedPartitions"), 8);
  EXPECT_EQ(evidence_of(f, "excessTasks"), 992);
  EXPECT_NE(f.explanation.find("its 1000 MiB of shuffle read at 128 MiB a partition"), std::string::npos)
      << f.explanation;
  // The reshape model (stage_reshape.h): per-task overhead 5 ms deserialization + 5 ms scheduler
  // delay, plus the shortest run up to as much again: 20 ms. Data work 50,000 - 1,000 x 20 =
  // 30,000 ms. In 8 tasks on 8 cores: (30,000 + 8 x 20) / 8 = 3,770 ms, against 6,250 ms.
  expect_serial(f, 2480, 2480, EstimateMethod::kModeled);
  EXPECT_EQ(evidence_of(f, "stageDurationAfterFixMs"), 3770);
  EXPECT_EQ(suggested(f, "spark.sql.shuffle.partitions"), "8");
  EXPECT_EQ(suggested(f, "spark.sql.adaptive.coalescePartitions.enabled"), "<absent>");  // on by default
  EXPECT_TRUE(result.analysis.guard_violations.empty());
}

// The one tinyTask finding of `stage` (which reads nothing, so it is cut to a tenth): its
// per-task overhead, the stage after the fix and its claim, serial.
void expect_tiny_task(const StageSpec& stage, double overhead_ms, double after_fix_ms, double claim_ms) {
  auto result = analyze_stage(stage);
  auto tiny = result.detected("tinyTask");
  ASSERT_EQ(tiny.size(), 1u);
  EXPECT_EQ(evidence_of(*tiny[0], "suggestedPartitions"), static_cast<double>(stage.tasks.size() / 10));
  EXPECT_EQ(evidence_of(*tiny[0], "taskOverheadMs"), overhead_ms);
  EXPECT_EQ(evidence_of(*tiny[0], "stageDurationAfterFixMs"), after_fix_ms);
  expect_serial(*tiny[0], claim_ms, claim_ms, EstimateMethod::kModeled);
}

TEST(TinyTask, AStageThatReadsNothingIsCutToATenth) {
  // 1,000 tasks of 50 ms that read no input and no shuffle (a range, a parallelize): 100 tasks.
  // In 100 tasks on 8 cores: (30,000 + 100 x 20) / 8 = 4,000 ms, against 6,250 ms.
  const StageSpec stage = stage_of(0, 1000, repeat(1000, 50));
  expect_tiny_task(stage, 20, 4000, 2250);
  const auto result = analyze_stage(stage);
  const auto tiny = result.detected("tinyTask");
  ASSERT_EQ(tiny.size(), 1u);
  EXPECT_NE(tiny[0]->explanation.find("a tenth of them"), std::string::npos) << tiny[0]->explanation;
}

TEST(TinyTask, ALaunchCostAboveTheCapIsMeasuredInAStageOfManyWaves) {
  // 1,000 tasks of 60 ms (35 ms run, 15 ms deserialization, 10 ms scheduler delay) on 8 cores:
  // 125 waves, 7,500 ms. With 125 tasks a core the median task is a later one, so its 25 ms
  // launch stands, not impact.taskOverheadMs (20 ms): overhead 25 + 25 ms of the shortest run =
  // 50 ms. Data work 60,000 - 1,000 x 50 = 10,000 ms; in 100 tasks: (10,000 + 100 x 50) / 8 =
  // 1,875 ms.
  expect_tiny_task(stage_of(0, 1000, repeat(1000, 60, {.run_time_ms = 35, .deserialize_time_ms = 15})), 50, 1875, 5625);
}

TEST(TinyTask, TheFirstWavesSetUpIsPaidOncePerCoreNotPerTask) {
  // The first task on each of the 8 cores deserializes for 505 ms (550 ms in all), the 992 after
  // them for 5 ms (50 ms): 550 + 124 waves x 50 = 6,750 ms. The first wave's excess over the
  // median, 8 x 500 ms, is not a per-task cost: launch (5,000 + 5,000 scheduler delay) / 1,000 =
  // 10 ms, plus 10 of the 40 ms shortest run: 20 ms (28 ms if the excess were spread over every
  // task). Data work 54,000 - 20,000 = 34,000 ms; in 100 tasks: (34,000 + 2,000) / 8 = 4,500 ms.
  const TaskSpec fresh{.run_time_ms = 40, .deserialize_time_ms = 505};
  const TaskSpec warm{.run_time_ms = 40, .deserialize_time_ms = 5};
  expect_tiny_task(stage_of(0, 1000, repeat(8, 550, fresh) + repeat(992, 50, warm)), 20, 4500, 2250);
}

TEST(TinyTask, NearMissesYieldNone) {
  // Median 100 ms: not under it.
  expect_near_miss(
      {"a 100 ms median", stage_of(0, 1000, repeat(1000, 100)), [](Thresholds& t) { t.tiny_task_max_median_ms = 101; }},
      "tinyTask");
  // 99 tasks (started 5 s in so the stage is long enough).
  expect_near_miss(
      // Relaxed, the few hundred milliseconds fewer tasks would save pass significance.minMs too.
      {"99 tasks", stage_of(0, 1000, repeat(99, 50), 5000),
       [](Thresholds& t) {
         t.tiny_task_min_tasks = 99;
         t.significance_min_ms = 0;
       }},
      "tinyTask");
  // 792 tasks of 50 ms: 99 waves, a 4,950 ms stage, under stage.minDurationMs.
  expect_near_miss(
      {"a 4,950 ms stage", stage_of(0, 1000, repeat(792, 50)), [](Thresholds& t) { t.stage_min_duration_ms = 4950; }},
      "tinyTask");
}

}  // namespace
}  // namespace sf::analysis

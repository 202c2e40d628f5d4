// incompleteRun: a log that ends before its application.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using testing::analyze_scenario;
using testing::Analyzed;

ScenarioLog one_stage(bool finished, bool stage_completes) {
  ScenarioLog log;
  log.start(0);
  if (finished) log.finished(100000);
  log.executor("1", "host-a", 4, 100);
  StageSpec s;
  s.stage_id = 0;
  s.submit_ms = 1000;
  s.tasks = ScenarioLog::uniform_tasks(8, 1000, 5000, {"1"}, 4);
  if (stage_completes) s.complete_ms = 11000;
  log.job({.job_id = 0,
           .submit_ms = 1000,
           .end_ms = stage_completes ? std::optional<int64_t>(11000) : std::nullopt,
           .stages = {s}});
  return log;
}

TEST(RunState, FinishedLogIsComplete) {
  auto result = analyze_scenario(one_stage(true, true));
  EXPECT_TRUE(result.of_type("incompleteRun").empty());
}

TEST(RunState, LogWithoutApplicationEnd) {
  auto result = analyze_scenario(one_stage(false, false));
  auto found = result.of_type("incompleteRun");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->rule, "noApplicationEnd");
  EXPECT_EQ(found[0]->impact.basis, Basis::kInformational);
  EXPECT_EQ(found[0]->band, ImpactBand::kMedium);
  EXPECT_NE(found[0]->explanation.find("1 stage attempt was still running"), std::string::npos)
      << found[0]->explanation;
}

// A gap in a rolling log's parts loses their events even when the application's end is there:
// it was a note only, with `incomplete: false`.
TEST(RunState, MissingRollingPartsAreAnIncompleteRun) {
  auto loaded = analyze_scenario(one_stage(true, true));
  const std::string gap = "eventlog_v2_app-1: rolling parts 3 to 3 are missing; events in them are lost";
  loaded.model.diagnostics.missing_parts = {gap};
  const Analysis analysis = analyze(loaded.model);
  const auto found = std::find_if(analysis.findings.begin(), analysis.findings.end(),
                                  [](const Finding& f) { return f.type == "incompleteRun"; });
  ASSERT_NE(found, analysis.findings.end());
  EXPECT_EQ(found->rule, "missingParts");
  EXPECT_EQ(found->id, "incompleteRun/missingParts/app");
  EXPECT_EQ(found->title, "Parts of the rolling log are missing");
  EXPECT_NE(found->explanation.find(gap), std::string::npos) << found->explanation;
}

// A log spliced from two runs, as cluster_information/eventlog_3nodes_12cores_exec_removed of the
// corpus is: its executors' times are 930 days after its jobs and tasks, in their places in the
// log. Read as they were, the run lasted 930 days and idled 535,829 core-hours.
constexpr int64_t kSpliceMs = int64_t{930} * 24 * 3600 * 1000;

Analyzed analyze_spliced_executor_times() {
  ScenarioLog log;
  log.start(0);
  log.executor("1", "host-a", 4, 100, 6000, int64_t{4} << 30, "worker lost");
  log.executor("2", "host-b", 4, 6000);
  StageSpec s;
  s.stage_id = 0;
  s.submit_ms = 1000;
  s.tasks = ScenarioLog::uniform_tasks(8, 1000, 2000, {"1"}, 4);
  s.complete_ms = 5100;
  StageSpec later;
  later.stage_id = 1;
  later.submit_ms = 6100;
  later.tasks = ScenarioLog::uniform_tasks(4, 6100, 2000, {"2"}, 4);
  later.complete_ms = 8200;
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 5100, .stages = {s}});
  log.job({.job_id = 1, .submit_ms = 6100, .end_ms = 8200, .stages = {later}});
  std::string text = log.text();
  // Every executor event's time moves 930 days on; the events stay where they are in the log.
  std::string spliced;
  const std::regex executor_time(
      R"re(("Event":"SparkListener(?:Executor|BlockManager)(?:Added|Removed)".*?"Timestamp":)(\d+))re");
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, executor_time)) {
      line = m.prefix().str() + m[1].str() + std::to_string(std::stoll(m[2].str()) + kSpliceMs) + m.suffix().str();
    }
    spliced += line + "\n";
  }
  EXPECT_NE(spliced, text) << "the executor events' times were not found to splice";
  const auto dir = std::filesystem::temp_directory_path() / ("sf-run-state-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "app-spliced";
  std::ofstream(path) << spliced;
  auto model = model::load_event_log(path.string());
  std::filesystem::remove_all(dir);
  if (!model) {
    ADD_FAILURE() << model.error().message();
    return {};
  }
  Analyzed result{std::move(*model), {}};
  result.analysis = analyze(result.model);
  return result;
}

TEST(RunState, ExecutorTimesFarOutsideTheRunAreALogDefect) {
  const Analyzed result = analyze_spliced_executor_times();
  const auto found = result.of_type("logDefect", "timesOutsideRun");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->impact.basis, Basis::kInformational);
  EXPECT_EQ(result.model.diagnostics.times_outside_run, 5u);  // two executors and block managers added, one removed
  // The run is its own 8.2 s, not 930 days, and nothing is priced or judged idle over the splice.
  ASSERT_TRUE(result.model.app.duration_ms());
  EXPECT_EQ(*result.model.app.duration_ms(), 8200);
  EXPECT_TRUE(result.of_type("utilization").empty());
  EXPECT_LT(model::core_hours_held(result.model), 0.1);
  // Each time is where its event sits: executor 1 from the start until stage 0 was done, then 2.
  const model::Executor* first = result.model.executor("1");
  const model::Executor* second = result.model.executor("2");
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_LE(first->add_time_ms.value_or(-1), 1000);
  EXPECT_GE(first->remove_time_ms.value_or(-1), 5100);
  EXPECT_LE(first->remove_time_ms.value_or(kSpliceMs), 6100);
  EXPECT_GE(second->add_time_ms.value_or(-1), 5100);
  EXPECT_LE(second->add_time_ms.value_or(kSpliceMs), 6100);
  // As the log wrote them, they are what the History Server serves (its executors endpoint).
  EXPECT_EQ(first->add_time_as_logged(), std::optional<int64_t>(100 + kSpliceMs));
  EXPECT_EQ(first->remove_time_as_logged(), std::optional<int64_t>(6000 + kSpliceMs));
  EXPECT_EQ(second->add_time_as_logged(), std::optional<int64_t>(6000 + kSpliceMs));
  EXPECT_FALSE(second->remove_time_as_logged().has_value());
  const auto& notes = result.model.diagnostics.notes;
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(),
                          [](const std::string& n) { return n.find("929 days from its jobs and tasks") != n.npos; }));
}

// A notebook whose executors idle out hours after its last query keeps their times.
TEST(RunState, ExecutorRemovedHoursAfterTheLastJobIsTheRunsOwnTime) {
  ScenarioLog log = one_stage(false, true);
  log.executor("2", "host-b", 4, 200, int64_t{5} * 3600 * 1000);
  const auto result = analyze_scenario(log);
  EXPECT_TRUE(result.of_type("logDefect").empty());
  EXPECT_EQ(result.model.diagnostics.times_outside_run, 0u);
  EXPECT_EQ(result.model.app.last_event_time_ms.value_or(0), int64_t{5} * 3600 * 1000);
}

}  // namespace
}  // namespace sf::analysis

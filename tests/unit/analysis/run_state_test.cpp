// incompleteRun: a log that ends before its application.
#include <gtest/gtest.h>

#include <algorithm>

#include "unit/analysis/analysis_fixture.h"

namespace sf::analysis {
namespace {

using sf::testing::ScenarioLog;
using sf::testing::StageSpec;
using testing::analyze_scenario;

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
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = stage_completes ? std::optional<int64_t>(11000) : std::nullopt,
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
  EXPECT_NE(found[0]->explanation.find("1 stage attempt was still running"), std::string::npos) << found[0]->explanation;
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

}  // namespace
}  // namespace sf::analysis

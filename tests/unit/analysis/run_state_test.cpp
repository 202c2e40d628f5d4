// incompleteRun: a log that ends before its application.
#include <gtest/gtest.h>

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
  EXPECT_NE(found[0]->explanation.find("1 stage attempts were still running"), std::string::npos) << found[0]->explanation;
}

}  // namespace
}  // namespace sf::analysis

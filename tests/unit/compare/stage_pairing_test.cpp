// Pairing the stages of one key inside an execution pair: place in the job, then bytes read,
// then stage-id order; and the least-cost assignment beneath it.
#include "compare/stage_pairing.h"

#include <gtest/gtest.h>

#include <numeric>

#include "compare/assignment.h"

namespace sf::compare {
namespace {

StageRecord stage(int64_t id, int32_t height, int64_t bytes, int64_t run_ms = 1000) {
  StageRecord s;
  s.stage_id = id;
  s.name = "run at Job.scala:30";
  s.execution_id = 0;
  s.exact_key = "run|nodes:scan-clicks";
  s.has_plan_nodes = true;
  s.height = height;
  s.totals.input_bytes = bytes;
  s.totals.executor_run_time_ms = run_ms;
  return s;
}

RunIndex run_of(std::vector<StageRecord> stages) {
  RunIndex run;
  run.stages = std::move(stages);
  return run;
}

std::vector<size_t> all_of(const RunIndex& run) {
  std::vector<size_t> ids(run.stages.size());
  std::iota(ids.begin(), ids.end(), size_t{0});
  return ids;
}

TEST(LeastCostAssignment, FindsTheCheapestWholeAssignmentNotTheGreedyOne) {
  // Greedy on row 0 takes column 0 (cost 1) and leaves row 1 to pay 100.
  const std::vector<std::vector<double>> cost = {{1, 2}, {2, 100}};
  EXPECT_EQ(least_cost_assignment(cost), (std::vector<size_t>{1, 0}));
}

TEST(LeastCostAssignment, LeavesTheDearestColumnsOfAWideTableFree) {
  const std::vector<std::vector<double>> cost = {{9, 1, 5}, {1, 9, 5}};
  EXPECT_EQ(least_cost_assignment(cost), (std::vector<size_t>{1, 0}));
  EXPECT_TRUE(least_cost_assignment({}).empty());
}

TEST(StagePairing, PlaceInTheJobComesBeforeStageIdOrder) {
  // The same subtree read at the bottom of the job and two stages up, submitted in the other
  // order by the candidate.
  const RunIndex base = run_of({stage(0, 0, 100), stage(1, 2, 100)});
  const RunIndex cand = run_of({stage(0, 2, 100), stage(1, 0, 100)});
  const auto pairs = pair_stages_within(base, all_of(base), cand, all_of(cand));
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].base, 0u);
  EXPECT_EQ(pairs[0].cand, 1u);
  EXPECT_EQ(pairs[1].base, 1u);
  EXPECT_EQ(pairs[1].cand, 0u);
  EXPECT_TRUE(pairs[0].ambiguous_cand.empty() && pairs[1].ambiguous_cand.empty());
}

TEST(StagePairing, BytesWithinAQuarterOfEachOtherLeaveStageIdOrderToDecide) {
  const RunIndex base = run_of({stage(0, 0, 1000), stage(1, 0, 1100)});
  const RunIndex cand = run_of({stage(0, 0, 1150), stage(1, 0, 1000)});
  const auto pairs = pair_stages_within(base, all_of(base), cand, all_of(cand));
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].cand, 0u);
  EXPECT_EQ(pairs[1].cand, 1u);
}

TEST(StagePairing, AnUnpairedRivalOfAnotherRunTimeMakesThePairAmbiguous) {
  // Three reads against one: the candidate's read could be any of them, and the third ran much
  // longer than the first.
  const RunIndex base = run_of({stage(0, 0, 100, 1000), stage(1, 0, 100, 1100), stage(2, 0, 100, 5000)});
  const RunIndex cand = run_of({stage(0, 0, 100, 1000)});
  const auto pairs = pair_stages_within(base, all_of(base), cand, all_of(cand));
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].base, 0u);
  EXPECT_EQ(pairs[0].ambiguous_base, (std::vector<size_t>{2}));
  EXPECT_TRUE(pairs[0].ambiguous_cand.empty());
}

TEST(StagePairing, GroupsAboveTheLimitPairInStageIdOrder) {
  // kMaxAssignmentGroup bounds the assignment's O(n^3) work (docs/limits.md): past it, a group
  // pairs in stage-id order even where bytes would say otherwise, and nothing is marked.
  std::vector<StageRecord> b, c;
  const auto n = static_cast<int64_t>(kMaxAssignmentGroup) + 1;
  for (int64_t k = 0; k < n; ++k) {
    b.push_back(stage(k, 0, k == 0 ? 1 : 1'000'000));
    c.push_back(stage(k, 0, k == 1 ? 1 : 1'000'000));
  }
  const RunIndex base = run_of(std::move(b)), cand = run_of(std::move(c));
  const auto pairs = pair_stages_within(base, all_of(base), cand, all_of(cand));
  ASSERT_EQ(pairs.size(), static_cast<size_t>(n));
  for (const auto& p : pairs) {
    EXPECT_EQ(p.base, p.cand);
    EXPECT_TRUE(p.ambiguous_base.empty() && p.ambiguous_cand.empty());
  }
  // One stage fewer and the bytes decide.
  std::vector<StageRecord> b2(base.stages.begin(), base.stages.end() - 1),
      c2(cand.stages.begin(), cand.stages.end() - 1);
  const RunIndex base2 = run_of(std::move(b2)), cand2 = run_of(std::move(c2));
  const auto decided = pair_stages_within(base2, all_of(base2), cand2, all_of(cand2));
  ASSERT_FALSE(decided.empty());
  EXPECT_EQ(decided[0].base, 0u);
  EXPECT_EQ(decided[0].cand, 1u);
}

}  // namespace
}  // namespace sf::compare

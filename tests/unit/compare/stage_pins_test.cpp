// Pins: stages paired by hand before the aligner pairs the rest.
#include <gtest/gtest.h>

#include <algorithm>

#include "compare/run_comparison.h"
#include "compare/stage_alignment.h"
#include "unit/compare/run_builder.h"

namespace sf::compare {
namespace {

using testing::Query;
using testing::QueryNode;
using testing::RunBuilder;
using testing::scan_chain;

Query aggregation(const std::string& table, const std::string& description) {
  QueryNode agg{"HashAggregate",
                "HashAggregate(keys=[customer_id#1], functions=[sum(amount#2)])",
                1,
                {scan_chain(table, "customer_id", 0)}};
  return {description,
          {"AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true", -1, {agg}},
          {{"count at Job.scala:20", 1000, 2}, {"count at Job.scala:20", 500, 2}}};
}

const StagePair* pair_of(const StageAlignment& a, int64_t base_stage) {
  auto it =
      std::find_if(a.pairs.begin(), a.pairs.end(), [&](const StagePair& p) { return p.base_stage_id == base_stage; });
  return it == a.pairs.end() ? nullptr : &*it;
}

TEST(StagePins, APinOverridesTheAlignersPairAndTheRestPairAsBefore) {
  RunBuilder run("app-pins");
  run.query(aggregation("sales", "daily sales")).query(aggregation("costs", "daily costs"));
  const auto m = run.load();
  AlignmentOptions options;
  const StageAlignment plain = align_stages(m, m, options);
  ASSERT_EQ(plain.pairs.size(), 4u);
  // Cross two stages by hand: 0 with 1, and 1 with 0.
  options.pins = {{0, 1}, {1, 0}};
  const StageAlignment pinned = align_stages(m, m, options);
  ASSERT_NE(pair_of(pinned, 0), nullptr);
  EXPECT_EQ(pair_of(pinned, 0)->cand_stage_id, 1);
  EXPECT_EQ(pair_of(pinned, 0)->method, PairMethod::kPinned);
  EXPECT_EQ(pair_of(pinned, 1)->cand_stage_id, 0);
  // The other execution's stages pair exactly, as without pins.
  EXPECT_EQ(pair_of(pinned, 2)->method, PairMethod::kExact);
  EXPECT_EQ(pair_of(pinned, 3)->method, PairMethod::kExact);
  EXPECT_EQ(pinned.pairs.size(), 4u);
  ASSERT_TRUE(pinned.runtime_coverage.has_value());
  EXPECT_DOUBLE_EQ(*pinned.runtime_coverage, 1.0);
  EXPECT_EQ(to_string(PairMethod::kPinned), "pinned");
}

TEST(StagePins, APinThatLeavesAStageAloneMakesItUnmatchedOrReplanned) {
  RunBuilder run("app-pins-2");
  run.query(aggregation("sales", "daily sales"));
  const auto m = run.load();
  AlignmentOptions options;
  options.pins = {{0, 1}};  // base 1 and cand 0 are left to the aligner, in one execution of 1 stage each
  const StageAlignment a = align_stages(m, m, options);
  ASSERT_NE(pair_of(a, 0), nullptr);
  EXPECT_EQ(pair_of(a, 0)->method, PairMethod::kPinned);
  // Stage 1 of the baseline and stage 0 of the candidate are different work: paired or not, never
  // paired with a stage a pin took.
  for (const StagePair& p : a.pairs) {
    if (p.method != PairMethod::kPinned) {
      EXPECT_NE(p.base_stage_id, 0);
      EXPECT_NE(p.cand_stage_id, 1);
    }
  }
}

TEST(StagePins, ParsingAndChecking) {
  EXPECT_TRUE(parse_pin("3:5").has_value());
  EXPECT_EQ(parse_pin("3:5")->cand_stage_id, 5);
  for (const char* bad : {"", "3", "3:", ":5", "a:b", "3:5:7", "-1:2"}) EXPECT_FALSE(parse_pin(bad).has_value()) << bad;
  RunBuilder run("app-pins-3");
  run.query(aggregation("sales", "daily sales"));
  const auto m = run.load();
  EXPECT_TRUE(check_pins(m, m, {{0, 1}}).ok());
  const Status missing = check_pins(m, m, {{0, 99}});
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("the candidate has no stage 99"), std::string::npos) << missing.message();
  EXPECT_FALSE(check_pins(m, m, {{0, 1}, {0, 0}}).ok());
}

TEST(StagePins, PinsAloneDoNotMakeUnrelatedRunsComparable) {
  RunBuilder a("app-x", "job one"), b("app-y", "job two");
  a.query(aggregation("sales", "daily sales"));
  QueryNode other{
      "Sort", "Sort [z#9 ASC NULLS FIRST]", 0, {{"Scan json omega", "FileScan json omega[z#9,w#8]", 0, {}}}};
  b.query({"something else", {"AdaptiveSparkPlan", "", -1, {other}}, {{"stage b", 100, 1}}});
  CompareOptions options;
  options.alignment.pins = {{0, 0}};
  const Comparison c = compare_runs(a.load(), b.load(), options);
  EXPECT_FALSE(c.comparable);
  ASSERT_FALSE(c.alignment.pairs.empty());
  EXPECT_EQ(c.alignment.pairs[0].method, PairMethod::kPinned);
}

}  // namespace
}  // namespace sf::compare

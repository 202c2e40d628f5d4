// The spec's cases, built as whole runs: loops, self-joins, re-plans, removed queries,
// reordered grouping sets, PySpark call sites, Delta bookkeeping and renamed directories.
#include "compare/stage_alignment.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "unit/compare/run_builder.h"

namespace sf::compare {
namespace {

using testing::Query;
using testing::QueryNode;
using testing::QueryStage;
using testing::RunBuilder;
using testing::scan_chain;

// A two-stage aggregation of `table`: a scan stage and a final aggregate stage.
Query aggregation(const std::string& table, const std::string& description) {
  QueryNode final_agg{"HashAggregate",
                      "HashAggregate(keys=[customer_id#1], functions=[sum(amount#2)])",
                      1,
                      {scan_chain(table, "customer_id", 0)}};
  return {description,
          {"AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true", -1, {final_agg}},
          {{"count at Job.scala:20", 1000, 2}, {"count at Job.scala:20", 500, 2}}};
}

size_t count_method(const StageAlignment& a, PairMethod method) {
  return static_cast<size_t>(
      std::count_if(a.pairs.begin(), a.pairs.end(), [&](const StagePair& p) { return p.method == method; }));
}

bool contains(const std::vector<int64_t>& ids, int64_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

TEST(StageAlignment, SelfComparisonPairsEveryStageExactly) {
  RunBuilder run("app-self");
  run.query(aggregation("sales", "daily sales"))
      .query(aggregation("costs", "daily costs"))
      .query(aggregation("sales", "daily sales"))
      .rdd_job({{"collect at Job.scala:50", 300, 3}});
  const auto m = run.load();
  const StageAlignment a = align_stages(m, m);
  EXPECT_EQ(a.pairs.size(), 7u);
  EXPECT_EQ(count_method(a, PairMethod::kExact), a.pairs.size());
  for (const auto& p : a.pairs) EXPECT_EQ(p.base_stage_id, p.cand_stage_id);
  EXPECT_TRUE(a.unmatched_base.empty());
  EXPECT_TRUE(a.unmatched_cand.empty());
  EXPECT_TRUE(a.replanned.empty());
  ASSERT_TRUE(a.runtime_coverage.has_value());
  EXPECT_DOUBLE_EQ(*a.runtime_coverage, 1.0);
  EXPECT_TRUE(a.executions.accepted);
  EXPECT_EQ(a.executions.paired, 3u);
}

TEST(StageAlignment, ALoopOfFourteenAgainstFifteenPairsFourteen) {
  RunBuilder base("app-loop-a"), cand("app-loop-b");
  for (int i = 0; i < 14; ++i) base.query(aggregation("events", "iteration"));
  for (int i = 0; i < 15; ++i) cand.query(aggregation("events", "iteration"));
  const StageAlignment a = align_stages(base.load(), cand.load());
  EXPECT_EQ(a.executions.paired, 14u);
  EXPECT_EQ(a.pairs.size(), 28u);
  EXPECT_EQ(count_method(a, PairMethod::kExact), 28u);
  // The extra iteration (the last one, execution 14: stages 28 and 29) is left unmatched.
  EXPECT_TRUE(a.unmatched_base.empty());
  EXPECT_EQ(a.unmatched_cand, (std::vector<int64_t>{28, 29}));
  for (const auto& p : a.executions.pairs) EXPECT_EQ(p.base_execution_id, p.cand_execution_id);
}

// One execution that reads the same subtree once per stage of `reads` and unions the results.
Query self_union_of(const std::vector<QueryStage>& reads) {
  const int copies = static_cast<int>(reads.size());
  QueryNode uni{"Union", "Union", copies, {}};
  for (int c = 0; c < copies; ++c) uni.children.push_back(scan_chain("clicks", "user_id", c));
  QueryNode agg{"HashAggregate", "HashAggregate(keys=[user_id#1], functions=[count(1)])", copies, {uni}};
  Query q{"self join", {"AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true", -1, {agg}}, reads};
  q.stages.push_back({"run at Job.scala:30", 400, 2});
  return q;
}

Query self_union(int copies) {
  return self_union_of(std::vector<QueryStage>(static_cast<size_t>(copies), {"run at Job.scala:30", 800, 2}));
}

QueryStage read_of(int64_t run_ms, int64_t input_bytes) {
  QueryStage stage{"run at Job.scala:30", run_ms, 2};
  stage.input_bytes = input_bytes;
  return stage;
}

TEST(StageAlignment, ASelfJoinSubtreeRunThreeTimesAgainstTwoPairsTwo) {
  RunBuilder base("app-sj-a"), cand("app-sj-b");
  base.query(self_union(3));
  cand.query(self_union(2));
  const StageAlignment a = align_stages(base.load(), cand.load());
  ASSERT_TRUE(a.executions.accepted);
  // The subtree stages (0, 1, 2 vs 0, 1) share one exact key and pair off in stage-id order.
  size_t subtree_pairs = 0;
  for (const auto& p : a.pairs) {
    if (p.base_stage_id <= 2 && p.method == PairMethod::kExact) {
      ++subtree_pairs;
      EXPECT_EQ(p.base_stage_id, p.cand_stage_id);
    }
  }
  EXPECT_EQ(subtree_pairs, 2u);
  // The subtree stages are alike in every way, so taking one for another changes no figure.
  for (const auto& p : a.pairs) EXPECT_FALSE(p.ambiguous()) << p.base_stage_id;
  // Four stages against three in one aligned execution: the leftover is re-planned work.
  ASSERT_EQ(a.replanned.size(), 1u);
  EXPECT_TRUE(contains(a.replanned[0].base_stage_ids, 2));
  EXPECT_TRUE(a.unmatched_base.empty());
}

TEST(StageAlignment, ABroadcastJoinThatRemovesAnExchangeLandsInReplanned) {
  auto sort_merge = [] {
    QueryNode join{"SortMergeJoin",
                   "SortMergeJoin [customer_id#1], [customer_id#5], Inner",
                   2,
                   {scan_chain("orders", "customer_id", 0), scan_chain("customers", "customer_id", 1)}};
    QueryNode agg{"HashAggregate", "HashAggregate(keys=[region#6], functions=[sum(amount#2)])", 2, {join}};
    return Query{
        "orders by region",
        {"AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true", -1, {agg}},
        {{"save at Job.scala:40", 2000, 4}, {"save at Job.scala:40", 300, 2}, {"save at Job.scala:40", 900, 2}}};
  };
  auto broadcast = [] {
    QueryNode small{"BroadcastExchange",
                    "BroadcastExchange HashedRelationBroadcastMode(List(customer_id#5))",
                    0,
                    {{"Scan parquet customers", "FileScan parquet customers[customer_id#5,region#6]", 0, {}}}};
    QueryNode big{"Scan parquet orders", "FileScan parquet orders[customer_id#1,amount#2]", 1, {}};
    QueryNode join{
        "BroadcastHashJoin", "BroadcastHashJoin [customer_id#1], [customer_id#5], Inner, BuildRight", 1, {big, small}};
    QueryNode agg{"HashAggregate", "HashAggregate(keys=[region#6], functions=[sum(amount#2)])", 1, {join}};
    return Query{"orders by region",
                 {"AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true", -1, {agg}},
                 {{"save at Job.scala:40", 250, 2}, {"save at Job.scala:40", 1800, 4}}};
  };
  RunBuilder base("app-bhj-a"), cand("app-bhj-b");
  base.query(aggregation("sales", "before")).query(sort_merge());
  cand.query(aggregation("sales", "before")).query(broadcast());
  const StageAlignment a = align_stages(base.load(), cand.load());
  ASSERT_TRUE(a.executions.accepted);
  ASSERT_EQ(a.executions.paired, 2u);
  ASSERT_EQ(a.replanned.size(), 1u);
  const ReplannedGroup& g = a.replanned[0];
  EXPECT_EQ(g.base_execution_id, 1);
  EXPECT_EQ(g.cand_execution_id, 1);
  // Three stages (2, 3, 4) against two (2, 3): at least the one stage the broadcast took out is
  // left over, and every stage of the execution is either paired or in the group, not unmatched.
  EXPECT_GE(g.base_stage_ids.size(), 1u);
  for (int64_t id : {2, 3, 4}) {
    const bool paired =
        std::any_of(a.pairs.begin(), a.pairs.end(), [&](const StagePair& p) { return p.base_stage_id == id; });
    EXPECT_NE(paired, contains(g.base_stage_ids, id)) << "stage " << id;
  }
  for (int64_t id : {2, 3}) {
    const bool paired =
        std::any_of(a.pairs.begin(), a.pairs.end(), [&](const StagePair& p) { return p.cand_stage_id == id; });
    EXPECT_NE(paired, contains(g.cand_stage_ids, id)) << "candidate stage " << id;
  }
  EXPECT_TRUE(a.unmatched_base.empty());
  EXPECT_TRUE(a.unmatched_cand.empty());
  EXPECT_GT(g.base_totals.executor_run_time_ms, 0);
  // Replanned run time counts toward the coverage by default, and only in the denominator
  // when asked.
  ASSERT_TRUE(a.runtime_coverage.has_value());
  EXPECT_DOUBLE_EQ(*a.runtime_coverage, 1.0);
  AlignmentOptions strict;
  strict.replanned_counts_toward_coverage = false;
  const StageAlignment s = align_stages(base.load(), cand.load(), strict);
  ASSERT_TRUE(s.runtime_coverage.has_value());
  EXPECT_LT(*s.runtime_coverage, 1.0);
  EXPECT_EQ(s.replanned_run_time_ms, a.replanned_run_time_ms);
}

TEST(StageAlignment, EqualStageCountsLeaveLeftoversUnmatchedNotReplanned) {
  // The same query with a different filter constant: the stage text differs, the structure
  // does not... but a different table in the scan changes the text too much to align.
  QueryNode agg_a{"HashAggregate",
                  "HashAggregate(keys=[k#1], functions=[max(v#2)])",
                  0,
                  {{"Scan csv alpha", "FileScan csv alpha[k#1,v#2]", 0, {}}}};
  QueryNode agg_b{
      "Sort", "Sort [z#9 ASC NULLS FIRST]", 0, {{"Scan json omega", "FileScan json omega[z#9,w#8]", 0, {}}}};
  RunBuilder base("app-eq-a"), cand("app-eq-b");
  base.query(aggregation("sales", "same"))
      .query({"changed", {"AdaptiveSparkPlan", "", -1, {agg_a}}, {{"stage a", 100, 1}}});
  cand.query(aggregation("sales", "same"))
      .query({"changed", {"AdaptiveSparkPlan", "", -1, {agg_b}}, {{"stage b", 100, 1}}});
  const StageAlignment a = align_stages(base.load(), cand.load());
  EXPECT_TRUE(a.replanned.empty());
  EXPECT_EQ(a.pairs.size(), 2u);
  // The second executions may or may not align; either way their stages stay unmatched.
  EXPECT_EQ(a.unmatched_base, (std::vector<int64_t>{2}));
  EXPECT_EQ(a.unmatched_cand, (std::vector<int64_t>{2}));
}

TEST(StageAlignment, ARemovedCachedQueryStillPairsTheRest) {
  RunBuilder base("app-cache-a"), cand("app-cache-b");
  base.query(aggregation("orders", "load orders"))
      .query(aggregation("customers", "score customers"))
      .query(aggregation("customers", "score customers"))  // recomputed: nothing was cached
      .query(aggregation("returns", "load returns"));
  cand.query(aggregation("orders", "load orders"))
      .query(aggregation("customers", "score customers"))
      .query(aggregation("returns", "load returns"));
  const StageAlignment a = align_stages(base.load(), cand.load());
  ASSERT_TRUE(a.executions.accepted);
  EXPECT_EQ(a.executions.paired, 3u);
  EXPECT_EQ(a.pairs.size(), 6u);
  EXPECT_TRUE(a.unmatched_cand.empty());
  // The recomputation (the later of the two identical executions) is what is left over.
  EXPECT_EQ(a.unmatched_base, (std::vector<int64_t>{4, 5}));
}

TEST(StageAlignment, AGroupingSetInADifferentColumnOrderPairsStructurally) {
  auto grouping = [](const std::string& expand) {
    QueryNode e{"Expand", expand, 0, {scan_chain("sales", "region", 0)}};
    return Query{"cube", {"AdaptiveSparkPlan", "", -1, {e}}, {{"cube at Job.scala:60", 700, 2}}};
  };
  RunBuilder base("app-gs-a"), cand("app-gs-b");
  base.query(
      grouping("Expand [[region#1, product#2, 0], [region#1, null, 1]], [region#3, product#4, spark_grouping_id#5]"));
  cand.query(
      grouping("Expand [[product#2, region#1, 0], [null, region#1, 1]], [product#4, region#3, spark_grouping_id#5]"));
  const StageAlignment a = align_stages(base.load(), cand.load());
  ASSERT_EQ(a.pairs.size(), 1u);
  EXPECT_EQ(a.pairs[0].method, PairMethod::kStructural);
  EXPECT_GT(a.pairs[0].score, 0.6);
  EXPECT_LE(a.pairs[0].score, 1.0);
}

TEST(StageAlignment, PySparkGenericCallSitesDropOutOfTheExecutionScore) {
  const std::string generic =
      "sun.reflect.NativeMethodAccessorImpl.invoke0(Native Method)\n"
      "py4j.reflection.MethodInvoker.invoke(MethodInvoker.java:244)\n"
      "py4j.commands.CallCommand.execute(CallCommand.java:79)\n"
      "java.lang.Thread.run(Thread.java:750)";
  auto pyspark = [&](Query q) {
    q.call_site = generic;
    q.description = "";
    for (auto& s : q.stages) {
      s.name = "count at NativeMethodAccessorImpl.java:0";
      s.call_site = generic;
    }
    return q;
  };
  RunBuilder base("app-py-a"), cand("app-py-b");
  base.query(pyspark(aggregation("orders", "")))
      .query(pyspark(aggregation("clicks", "")))
      .query(pyspark(aggregation("users", "")));
  cand.query(pyspark(aggregation("orders", ""))).query(pyspark(aggregation("users", "")));
  const StageAlignment a = align_stages(base.load(), cand.load());
  ASSERT_TRUE(a.executions.accepted);
  ASSERT_EQ(a.executions.pairs.size(), 2u);
  // Identical plans score 1 with no frames and no description to compare.
  EXPECT_DOUBLE_EQ(a.executions.pairs[0].score, 1.0);
  EXPECT_EQ(a.executions.pairs[0].base_execution_id, 0);
  EXPECT_EQ(a.executions.pairs[1].base_execution_id, 2);
  EXPECT_EQ(a.executions.pairs[1].cand_execution_id, 1);
  EXPECT_EQ(a.unmatched_base, (std::vector<int64_t>{2, 3}));
}

TEST(StageAlignment, DeltaBookkeepingStagesAreSetAside) {
  auto delta_log = [](int files) {
    QueryNode scan{"Scan json",
                   "FileScan json [add#1,remove#2] Location: DeltaLogFileIndex(" + std::to_string(files) +
                       " paths)[s3://lake/sales/_delta_log/00000000000000000012.json]",
                   0,
                   {}};
    return Query{
        "Delta: compute snapshot", {"AdaptiveSparkPlan", "", -1, {scan}}, {{"state at Snapshot.scala:80", 50, 1}}};
  };
  RunBuilder base("app-delta-a"), cand("app-delta-b");
  base.query(delta_log(4)).query(aggregation("sales", "report")).query(delta_log(5));
  cand.query(delta_log(5)).query(aggregation("sales", "report"));
  const StageAlignment a = align_stages(base.load(), cand.load());
  EXPECT_EQ(a.bookkeeping_base, (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(a.bookkeeping_cand, (std::vector<int64_t>{0}));
  EXPECT_EQ(a.pairs.size(), 2u);
  for (const auto& p : a.pairs) {
    EXPECT_FALSE(contains(a.bookkeeping_base, p.base_stage_id));
    EXPECT_FALSE(contains(a.bookkeeping_cand, p.cand_stage_id));
  }
  EXPECT_TRUE(a.unmatched_base.empty());
  EXPECT_TRUE(a.unmatched_cand.empty());
  // Bookkeeping run time is in neither side of the coverage.
  ASSERT_TRUE(a.runtime_coverage.has_value());
  EXPECT_DOUBLE_EQ(*a.runtime_coverage, 1.0);
  EXPECT_EQ(a.executions.base_executions, 1u);
}

TEST(StageAlignment, RenamedOutputDirectoriesPairOnlyWithNormalizePath) {
  auto write = [](const std::string& dir) {
    QueryNode cmd{"Execute InsertIntoHadoopFsRelationCommand",
                  "Execute InsertIntoHadoopFsRelationCommand s3://out/" + dir + "/daily, false, Parquet, Append",
                  0,
                  {scan_chain("sales", "region", 0)}};
    return Query{"write daily", {"AdaptiveSparkPlan", "", -1, {cmd}}, {{"parquet at Job.scala:70", 900, 2}}};
  };
  RunBuilder base("app-dir-a"), cand("app-dir-b");
  base.query(write("nightlyBaselineOut"))
      .rdd_job({{"save /w/nightlyBaselineOut", 400, 2, "org.apache.spark.rdd.RDD.save(RDD.scala:1)"}});
  cand.query(write("nightlyCandidateOut"))
      .rdd_job({{"save /w/nightlyCandidateOut", 400, 2, "org.apache.spark.rdd.RDD.save(RDD.scala:1)"}});
  const auto b = base.load(), c = cand.load();

  const StageAlignment plain = align_stages(b, c);
  // Without the pattern the RDD stage (no plan, a name of its own) does not pair, and the
  // write stage pairs only by its structure.
  EXPECT_EQ(plain.unmatched_base, (std::vector<int64_t>{1}));
  EXPECT_EQ(count_method(plain, PairMethod::kExact), 0u);

  AlignmentOptions options;
  options.normalizer = *ComparisonNormalizer::with_patterns({"nightly\\w+Out"});
  const StageAlignment normalized = align_stages(b, c, options);
  ASSERT_EQ(normalized.pairs.size(), 2u);
  EXPECT_EQ(count_method(normalized, PairMethod::kExact), 2u);
  EXPECT_TRUE(normalized.unmatched_base.empty());
  EXPECT_TRUE(normalized.unmatched_cand.empty());
}

TEST(StageAlignment, UnrelatedRunsPairNoStage) {
  RunBuilder base("app-x"), cand("app-y");
  base.query(aggregation("orders", "load orders")).query(aggregation("clicks", "sessionize"));
  QueryNode sort{"Sort", "Sort [t#4 ASC NULLS FIRST]", 0, {{"Scan csv logs", "FileScan csv logs[t#4,msg#5]", 0, {}}}};
  cand.query({"export logs",
              {"AdaptiveSparkPlan", "", -1, {sort}},
              {{"collect at Other.scala:5", 100, 1, "com.other.Main$.main(Main.scala:5)"}},
              "com.other.Main$.main(Main.scala:5)"});
  const StageAlignment a = align_stages(base.load(), cand.load());
  EXPECT_FALSE(a.executions.accepted);
  EXPECT_TRUE(a.pairs.empty());
  ASSERT_TRUE(a.runtime_coverage.has_value());
  EXPECT_DOUBLE_EQ(*a.runtime_coverage, 0.0);
}

TEST(StageAlignment, AStagePairsAtMostOnce) {
  RunBuilder base("app-once-a"), cand("app-once-b");
  base.query(self_union(3))
      .query(aggregation("a", "x"))
      .query(aggregation("a", "x"))
      .rdd_job({{"count at J.scala:1", 10, 1}, {"count at J.scala:1", 10, 1}});
  cand.query(self_union(2))
      .query(aggregation("a", "x"))
      .rdd_job({{"count at J.scala:1", 10, 1}, {"count at J.scala:1", 10, 1}, {"count at J.scala:1", 10, 1}});
  const StageAlignment a = align_stages(base.load(), cand.load());
  std::vector<int64_t> bases, cands;
  for (const auto& p : a.pairs) {
    bases.push_back(p.base_stage_id);
    cands.push_back(p.cand_stage_id);
  }
  std::sort(bases.begin(), bases.end());
  std::sort(cands.begin(), cands.end());
  EXPECT_TRUE(std::adjacent_find(bases.begin(), bases.end()) == bases.end());
  EXPECT_TRUE(std::adjacent_find(cands.begin(), cands.end()) == cands.end());
  // Every stage is in exactly one place: a pair, a replanned group, or unmatched.
  for (const auto& g : a.replanned) {
    for (int64_t id : g.base_stage_ids) EXPECT_FALSE(contains(bases, id));
    for (int64_t id : g.cand_stage_ids) EXPECT_FALSE(contains(cands, id));
  }
  for (int64_t id : a.unmatched_base) EXPECT_FALSE(contains(bases, id));
  for (int64_t id : a.unmatched_cand) EXPECT_FALSE(contains(cands, id));
  size_t base_replanned = 0, cand_replanned = 0;
  for (const auto& g : a.replanned) {
    base_replanned += g.base_stage_ids.size();
    cand_replanned += g.cand_stage_ids.size();
  }
  // 4 + 2 + 2 + 2 stages in the baseline, 3 + 2 + 3 in the candidate, none lost.
  EXPECT_EQ(bases.size() + base_replanned + a.unmatched_base.size(), 10u);
  EXPECT_EQ(cands.size() + cand_replanned + a.unmatched_cand.size(), 8u);
  // The pseudo-executions: two RDD stages against three with one name and call site pair two
  // (one exact key, in stage-id order); the third is unmatched, as outside executions nothing
  // is re-planned.
  EXPECT_EQ(a.unmatched_cand.size(), 1u);
}

// A run that submits its two reads of one table in the other order: the 10 GiB read pairs with the
// 10 GiB read, not with the stage of its stage-id rank.
TEST(StageAlignment, StagesOfOneKeyPairByTheBytesTheyReadNotBySubmissionOrder) {
  constexpr int64_t kGiB = int64_t{1} << 30;
  RunBuilder base("app-bytes-a"), cand("app-bytes-b");
  base.query(self_union_of({read_of(4000, 5 * kGiB), read_of(800, kGiB / 2)}));
  cand.query(self_union_of({read_of(700, kGiB / 2), read_of(3000, 5 * kGiB)}));
  const StageAlignment a = align_stages(base.load(), cand.load());
  ASSERT_TRUE(a.executions.accepted);
  std::map<int64_t, int64_t> cand_of;
  for (const auto& p : a.pairs) {
    cand_of[p.base_stage_id] = p.cand_stage_id;
    EXPECT_FALSE(p.ambiguous()) << p.base_stage_id;
  }
  EXPECT_EQ(cand_of[0], 1);
  EXPECT_EQ(cand_of[1], 0);
  EXPECT_EQ(cand_of[2], 2);
}

// Two reads of one table alike in bytes but not in run time: nothing in the log says which is
// which, so stage-id order pairs them and the pairs say they are ambiguous, naming the rival.
TEST(StageAlignment, ReadsAlikeInPlaceAndBytesButNotRunTimeAreAmbiguous) {
  constexpr int64_t kGiB = int64_t{1} << 30;
  RunBuilder base("app-amb-a"), cand("app-amb-b");
  base.query(self_union_of({read_of(4000, kGiB), read_of(800, kGiB)}));
  cand.query(self_union_of({read_of(900, kGiB), read_of(3800, kGiB)}));
  const StageAlignment a = align_stages(base.load(), cand.load());
  ASSERT_TRUE(a.executions.accepted);
  const auto first = std::find_if(a.pairs.begin(), a.pairs.end(), [](const auto& p) { return p.base_stage_id == 0; });
  ASSERT_NE(first, a.pairs.end());
  EXPECT_EQ(first->cand_stage_id, 0);
  EXPECT_TRUE(first->ambiguous());
  EXPECT_EQ(first->ambiguous_cand_stage_ids, (std::vector<int64_t>{1}));
  EXPECT_EQ(first->ambiguous_base_stage_ids, (std::vector<int64_t>{1}));
  // The final aggregate has a key of its own.
  for (const auto& p : a.pairs) {
    if (p.base_stage_id == 2) {
      EXPECT_FALSE(p.ambiguous());
    }
  }
}

}  // namespace
}  // namespace sf::compare

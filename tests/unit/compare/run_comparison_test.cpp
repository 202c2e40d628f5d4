// compare_runs(): confidence, banner, metric deltas, findings delta, budgets and the document.
#include "compare/run_comparison.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "compare/budget.h"
#include "report/comparison_json.h"
#include "report/comparison_markdown.h"
#include "report/comparison_text.h"
#include "unit/compare/run_builder.h"

namespace sf::compare {
namespace {

using testing::Query;
using testing::QueryNode;
using testing::QueryStage;
using testing::RunBuilder;
using testing::scan_chain;

Query aggregation(const std::string& table, const std::string& description, int64_t run_ms = 1000,
                  int64_t spill_bytes = 0) {
  QueryNode agg{"HashAggregate",
                "HashAggregate(keys=[customer_id#1], functions=[sum(amount#2)])",
                1,
                {scan_chain(table, "customer_id", 0)}};
  return {description,
          {"AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true", -1, {agg}},
          {{"count at Job.scala:20", run_ms, 4, "", spill_bytes}, {"count at Job.scala:20", run_ms / 2, 2}}};
}

RunBuilder typical_run(const std::string& app_id, int64_t run_ms = 1000, int64_t spill = 0,
                       const std::string& name = "nightly job") {
  RunBuilder run(app_id, name);
  run.query(aggregation("orders", "load orders", run_ms, spill))
      .query(aggregation("customers", "score customers", run_ms))
      .rdd_job({{"collect at Job.scala:50", 300, 3}});
  return run;
}

const MetricDelta& metric(const Comparison& c, std::string_view name) {
  for (const auto& d : c.metric_deltas) {
    if (d.name == name) return d;
  }
  ADD_FAILURE() << "no metric " << name;
  static const MetricDelta none;
  return none;
}

TEST(CompareRuns, SelfComparisonIsExactCompleteAndUnchanged) {
  const auto m = typical_run("app-1").load();
  const Comparison c = compare_runs(m, m);
  EXPECT_EQ(c.confidence, ComparisonConfidence::kOk);
  EXPECT_TRUE(c.banner.empty());
  ASSERT_TRUE(c.runtime_coverage.has_value());
  EXPECT_DOUBLE_EQ(*c.runtime_coverage, 1.0);
  EXPECT_DOUBLE_EQ(c.matched_coverage, 1.0);
  EXPECT_EQ(c.alignment.pairs.size(), 5u);
  for (const auto& p : c.alignment.pairs) {
    EXPECT_EQ(p.method, PairMethod::kExact);
    EXPECT_EQ(p.base_stage_id, p.cand_stage_id);
  }
  for (const auto& d : c.metric_deltas) {
    if (!d.unavailable_reason.empty()) continue;
    EXPECT_EQ(d.direction, ChangeKind::kUnchanged) << d.name;
    EXPECT_EQ(*d.delta, 0) << d.name;
  }
  for (const auto& s : c.stage_deltas) EXPECT_EQ(s.run_time_delta_ms, 0);
  EXPECT_TRUE(c.findings.introduced.empty());
  EXPECT_TRUE(c.findings.resolved.empty());
}

TEST(CompareRuns, MetricDeltasCarryDirectionAndRelativeChange) {
  const Comparison c = compare_runs(typical_run("app-a", 1000, 0).load(), typical_run("app-b", 2000, 1 << 20).load());
  const MetricDelta& run_time = metric(c, "executorRunTime");
  ASSERT_TRUE(run_time.delta.has_value());
  EXPECT_EQ(run_time.direction, ChangeKind::kRegression);
  EXPECT_GT(*run_time.delta, 0);
  ASSERT_TRUE(run_time.relative_change.has_value());
  EXPECT_NEAR(*run_time.relative_change, *run_time.delta / *run_time.baseline, 1e-12);
  const MetricDelta& spill = metric(c, "spill");
  EXPECT_EQ(*spill.baseline, 0);
  EXPECT_EQ(*spill.candidate, 4.0 * (1 << 20));
  EXPECT_FALSE(spill.relative_change.has_value());  // no relative change from 0
  EXPECT_EQ(spill.direction, ChangeKind::kRegression);
  // And the other way round it is an improvement.
  const Comparison back =
      compare_runs(typical_run("app-b", 2000, 1 << 20).load(), typical_run("app-a", 1000, 0).load());
  EXPECT_EQ(metric(back, "spill").direction, ChangeKind::kImprovement);
  // The pairing is still complete: the same job, slower.
  EXPECT_EQ(c.confidence, ComparisonConfidence::kOk);
  // Per-stage deltas read the pairs.
  ASSERT_FALSE(c.stage_deltas.empty());
  EXPECT_GT(c.stage_deltas.front().run_time_delta_ms, 0);
}

TEST(CompareRuns, DifferentApplicationNamesMakeConfidenceLow) {
  const Comparison c = compare_runs(typical_run("app-a").load(), typical_run("app-b", 1000, 0, "other job").load());
  ASSERT_TRUE(c.runtime_coverage.has_value());
  EXPECT_DOUBLE_EQ(*c.runtime_coverage, 1.0);
  EXPECT_EQ(c.confidence, ComparisonConfidence::kLow);
  EXPECT_NE(c.banner.find("\"nightly job\" vs \"other job\""), std::string::npos) << c.banner;
}

TEST(CompareRuns, LowCoverageMakesConfidenceLowWithTheSpecBanner) {
  RunBuilder base("app-a"), cand("app-b");
  base.query(aggregation("orders", "load orders", 1000));
  cand.query(aggregation("orders", "load orders", 1000)).rdd_job({{"heavy new work at New.scala:1", 9000, 4}});
  const Comparison c = compare_runs(base.load(), cand.load());
  ASSERT_TRUE(c.runtime_coverage.has_value());
  EXPECT_LT(*c.runtime_coverage, 0.9);
  EXPECT_EQ(c.confidence, ComparisonConfidence::kLow);
  EXPECT_TRUE(c.comparable) << c.alignment.executions.accepted << " " << c.alignment.executions.paired << " of "
                            << c.alignment.executions.base_executions << "/" << c.alignment.executions.cand_executions;
  const int percent = static_cast<int>(*c.runtime_coverage * 100);
  EXPECT_EQ(c.banner,
            "Only " + std::to_string(percent) +
                "% of executor run time is in matched stages, so per-stage rows mostly compare unrelated work.");
}

TEST(CompareRuns, NoRunTimeAtAllIsInsufficient) {
  RunBuilder base("app-a"), cand("app-b");
  base.query(aggregation("orders", "x", 0));
  cand.query(aggregation("orders", "x", 0));
  const Comparison c = compare_runs(base.load(), cand.load());
  EXPECT_FALSE(c.runtime_coverage.has_value());
  EXPECT_EQ(c.confidence, ComparisonConfidence::kInsufficient);
  EXPECT_NE(c.banner.find("no work to compare"), std::string::npos);
}

TEST(CompareRuns, ConfidenceBannerSaysBothReasons) {
  const std::string banner = confidence_banner(ComparisonConfidence::kLow, 0.625, true, "a", "b");
  EXPECT_NE(banner.find("Only 62% of executor run time"), std::string::npos) << banner;
  EXPECT_NE(banner.find("names differ"), std::string::npos) << banner;
  // Rounded down: just under the threshold never reads as 90%.
  EXPECT_NE(confidence_banner(ComparisonConfidence::kLow, 0.8999, false, "a", "a").find("Only 89%"), std::string::npos);
}

analysis::Finding finding(std::string type, std::string rule, analysis::ImpactBand band) {
  analysis::Finding f;
  f.type = std::move(type);
  f.rule = std::move(rule);
  f.band = band;
  return f;
}

TEST(FindingsDelta, TalliesByRuleAndBand) {
  using analysis::ImpactBand;
  const std::vector<analysis::Finding> base = {finding("skew", "max", ImpactBand::kHigh),
                                               finding("skew", "max", ImpactBand::kHigh),
                                               finding("spill", "", ImpactBand::kLow)};
  const std::vector<analysis::Finding> cand = {finding("skew", "max", ImpactBand::kHigh),
                                               finding("gc", "", ImpactBand::kMedium),
                                               finding("spill", "", ImpactBand::kMedium)};
  const FindingsDelta d = findings_delta(base, cand);
  ASSERT_EQ(d.introduced.size(), 2u);
  EXPECT_EQ(d.introduced[0].rule, "gc");
  EXPECT_EQ(d.introduced[1].rule, "spill");
  EXPECT_EQ(d.introduced[1].band, ImpactBand::kMedium);
  ASSERT_EQ(d.resolved.size(), 2u);
  EXPECT_EQ(d.resolved[0].rule, "skew/max");
  EXPECT_EQ(d.resolved[0].baseline, 2);
  EXPECT_EQ(d.resolved[0].candidate, 1);
  EXPECT_EQ(d.resolved[1].rule, "spill");
  EXPECT_EQ(d.resolved[1].band, ImpactBand::kLow);
  EXPECT_EQ(d.categories.size(), 4u);
}

MetricDelta delta_of(std::string name, std::optional<double> base, std::optional<double> cand) {
  MetricDelta d;
  d.name = std::move(name);
  d.baseline = base;
  d.candidate = cand;
  if (!base || !cand) d.unavailable_reason = "baseline: not recorded";
  return d;
}

TEST(Budgets, ParseEveryForm) {
  auto relative = parse_budget("wallClock=+5%");
  ASSERT_TRUE(relative.has_value());
  EXPECT_EQ(relative->kind, Budget::Kind::kRelative);
  EXPECT_DOUBLE_EQ(relative->limit, 0.05);
  auto ceiling = parse_budget("spill=0");
  ASSERT_TRUE(ceiling.has_value());
  EXPECT_EQ(ceiling->kind, Budget::Kind::kCeiling);
  auto increase = parse_budget("executorRunTime=+30s");
  ASSERT_TRUE(increase.has_value());
  EXPECT_EQ(increase->kind, Budget::Kind::kIncrease);
  EXPECT_DOUBLE_EQ(increase->limit, 30000);
  EXPECT_DOUBLE_EQ(parse_budget("shuffleRead=+2GiB")->limit, 2.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(parse_budget("gcTime=-10%")->limit, -0.1);
}

TEST(Budgets, MistakesAreErrorsNamingTheBudget) {
  for (const char* text : {"wallclock=+5%", "wallClock", "wallClock=fast", "spill=5s", "=1", "gcTime=+5parsecs"}) {
    const auto budget = parse_budget(text);
    ASSERT_FALSE(budget.has_value()) << text;
    EXPECT_NE(budget.error().message().find(text), std::string::npos) << budget.error().message();
  }
  EXPECT_NE(parse_budget("wallclock=+5%").error().message().find("wallClock"), std::string::npos);  // lists the known
}

TEST(Budgets, EvaluateAgainstTheDeltas) {
  const std::vector<MetricDelta> deltas = {delta_of("wallClock", 1000, 1040), delta_of("spill", 0, 10),
                                           delta_of("gcTime", 100, 111), delta_of("executorCpuTime", std::nullopt, 5)};
  const auto results = evaluate_budgets(
      {*parse_budget("wallClock=+5%"), *parse_budget("wallClock=+3%"), *parse_budget("spill=0"),
       *parse_budget("gcTime=+10%"), *parse_budget("executorCpuTime=+1%"), *parse_budget("spill=+10%")},
      deltas);
  ASSERT_EQ(results.size(), 6u);
  EXPECT_FALSE(results[0].exceeded);
  EXPECT_DOUBLE_EQ(*results[0].allowed, 1050);
  EXPECT_TRUE(results[1].exceeded);
  EXPECT_TRUE(results[2].exceeded);
  EXPECT_TRUE(results[3].exceeded);
  EXPECT_FALSE(results[4].exceeded);  // cannot be checked, so not exceeded, and says why
  EXPECT_FALSE(results[4].unchecked_reason.empty());
  EXPECT_TRUE(results[5].exceeded);  // any increase over a baseline of 0 exceeds a relative budget
  EXPECT_TRUE(any_exceeded(results));
  EXPECT_FALSE(any_exceeded({results[0], results[4]}));
}

TEST(VerdictDocument, IsVersionedCompleteAndDeterministic) {
  const auto base = typical_run("app-a", 1000, 0).load();
  const auto cand = typical_run("app-b", 1500, 0).load();
  Comparison c = compare_runs(base, cand);
  c.budgets = evaluate_budgets({*parse_budget("wallClock=+5%")}, c.metric_deltas);
  const std::string text = report::comparison_json(c);
  Comparison again = compare_runs(base, cand);
  again.budgets = evaluate_budgets({*parse_budget("wallClock=+5%")}, again.metric_deltas);
  EXPECT_EQ(text, report::comparison_json(again));
  const auto doc = nlohmann::json::parse(text);
  EXPECT_EQ(doc["comparisonSchemaVersion"], 1);
  EXPECT_EQ(doc["confidence"], "ok");
  EXPECT_TRUE(doc["banner"].is_null());
  for (const char* key : {"metricDeltas", "findingsDelta", "executionAlignment", "stagePairs", "unmatched", "replanned",
                          "deltaBookkeeping", "stageDeltas", "stageSkewDeltas", "runtimeCoverage", "matchedCoverage",
                          "budgets", "baseStages", "candStages"}) {
    EXPECT_TRUE(doc.contains(key)) << key;
  }
  EXPECT_EQ(doc["stagePairs"].size(), c.alignment.pairs.size());
  EXPECT_EQ(doc["stagePairs"][0]["method"], "exact");
  EXPECT_EQ(doc["executionAlignment"]["bounded"], false);
  EXPECT_EQ(doc["budgets"][0]["exceeded"], true);
}

TEST(ComparisonReports, TextAndMarkdownSayTheConfidenceDeltasAndPairing) {
  const Comparison c = compare_runs(typical_run("app-a").load(), typical_run("app-b", 1000, 0, "other job").load());
  const std::string text = report::comparison_text(c);
  EXPECT_EQ(text.rfind("Confidence: low\nWARNING: ", 0), 0u) << text;
  EXPECT_NE(text.find("executorRunTime"), std::string::npos);
  EXPECT_NE(text.find("Largest per-stage changes"), std::string::npos);
  EXPECT_NE(text.find("exact 1.00"), std::string::npos);
  const std::string md = report::comparison_markdown(c);
  EXPECT_NE(md.find("| metric | baseline | candidate | change |"), std::string::npos);
  EXPECT_NE(md.find("> ⚠️ "), std::string::npos);
}

}  // namespace
}  // namespace sf::compare

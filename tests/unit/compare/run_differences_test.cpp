// What changed between two runs besides their figures: the Spark settings they differ in, what
// each SQL execution took, the cost in core-hours, which changes are noise, and which runs are
// not one job at all.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "compare/run_comparison.h"
#include "report/comparison_json.h"
#include "report/comparison_markdown.h"
#include "report/comparison_text.h"
#include "unit/compare/run_builder.h"

namespace sf::compare {
namespace {

using testing::Query;
using testing::QueryNode;
using testing::RunBuilder;
using testing::scan_chain;

Query sum_query(const std::string& table, const std::string& description, int64_t run_ms) {
  QueryNode agg{
      "HashAggregate", "HashAggregate(keys=[id#1], functions=[sum(amount#2)])", 1, {scan_chain(table, "id", 0)}};
  return {description,
          {"AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true", -1, {agg}},
          {{"count at Job.scala:20", run_ms, 4}, {"count at Job.scala:20", run_ms / 2, 2}}};
}

RunBuilder nightly(const std::string& app_id, int64_t run_ms = 1000, const std::string& name = "nightly job") {
  RunBuilder run(app_id, name);
  run.spark_version("3.5.1");
  run.query(sum_query("orders", "load orders", run_ms)).query(sum_query("customers", "score customers", run_ms));
  return run;
}

const SettingDifference* difference(const Comparison& c, std::string_view key) {
  for (const auto& d : c.configuration) {
    if (d.key == key) return &d;
  }
  return nullptr;
}

const MetricDelta& metric_of(const Comparison& c, std::string_view name) {
  for (const auto& d : c.metric_deltas) {
    if (d.name == name) return d;
  }
  ADD_FAILURE() << "no metric " << name;
  static const MetricDelta none;
  return none;
}

TEST(ConfigurationDifferences, ChangedSetAndUnsetSettingsWithTheValueInEffect) {
  auto base = nightly("app-1");
  base.property("spark.executor.memory", "4g")
      .property("spark.sql.shuffle.partitions", "200")  // the default, set explicitly
      .property("spark.sql.autoBroadcastJoinThreshold", "64m")
      .property("spark.driver.host", "10.0.0.1")
      .property("spark.db.password", "hunter2");
  auto cand = nightly("app-2");
  cand.property("spark.executor.memory", "8g")
      .property("spark.sql.autoBroadcastJoinThreshold", "67108864")  // 64m in bytes
      .property("spark.acme.feature", "on")
      .property("spark.driver.host", "10.0.0.2")
      .property("spark.db.password", "swordfish");
  const Comparison c = compare_runs(base.load(), cand.load());

  const SettingDifference* memory = difference(c, "spark.executor.memory");
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(memory->baseline, "4g");
  EXPECT_EQ(memory->candidate, "8g");
  EXPECT_FALSE(memory->same_in_effect);

  const SettingDifference* partitions = difference(c, "spark.sql.shuffle.partitions");
  ASSERT_NE(partitions, nullptr);
  EXPECT_EQ(partitions->baseline, "200");
  EXPECT_FALSE(partitions->candidate.has_value());
  EXPECT_EQ(partitions->candidate_effective, "200");  // Spark 3.5's default
  EXPECT_TRUE(partitions->same_in_effect);

  const SettingDifference* threshold = difference(c, "spark.sql.autoBroadcastJoinThreshold");
  ASSERT_NE(threshold, nullptr);
  EXPECT_TRUE(threshold->same_in_effect);  // the same size, written two ways

  const SettingDifference* feature = difference(c, "spark.acme.feature");
  ASSERT_NE(feature, nullptr);
  EXPECT_FALSE(feature->baseline.has_value());
  EXPECT_FALSE(feature->baseline_effective.has_value());  // not a setting the table knows
  EXPECT_FALSE(feature->same_in_effect);

  // What names the run is not a difference; two secrets are both redacted, so they read equal.
  EXPECT_EQ(difference(c, "spark.driver.host"), nullptr);
  EXPECT_EQ(difference(c, "spark.app.id"), nullptr);
  EXPECT_EQ(difference(c, "spark.db.password"), nullptr);
  EXPECT_EQ(c.configuration.size(), 4u);
  for (size_t i = 1; i < c.configuration.size(); ++i) EXPECT_LT(c.configuration[i - 1].key, c.configuration[i].key);

  const std::string text = report::comparison_text(c, {});
  EXPECT_NE(text.find("spark.executor.memory: 4g -> 8g\n"), std::string::npos) << text;
  EXPECT_NE(text.find("spark.sql.shuffle.partitions: 200 -> not set (200 in effect)  (same in effect)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("hunter2"), std::string::npos);
  const auto doc = nlohmann::json::parse(report::comparison_json(c));
  ASSERT_EQ(doc["configurationDifferences"].size(), 4u);
  EXPECT_EQ(doc["configurationDifferences"][0]["key"], "spark.acme.feature");
  EXPECT_TRUE(doc["configurationDifferences"][0]["baseline"].is_null());
  const std::string markdown = report::comparison_markdown(c, 5);
  EXPECT_NE(markdown.find("| `spark.executor.memory` | 4g | 8g |  |"), std::string::npos) << markdown;
}

TEST(ConfigurationDifferences, NoneBetweenRunsOfOneConfiguration) {
  auto base = nightly("app-1");
  base.property("spark.executor.memory", "4g");
  auto cand = nightly("app-2");
  cand.property("spark.executor.memory", "4g");
  const Comparison c = compare_runs(base.load(), cand.load());
  EXPECT_TRUE(c.configuration.empty());
  EXPECT_NE(report::comparison_text(c, {}).find("Configuration differences (baseline -> candidate)\n  none\n"),
            std::string::npos);
}

TEST(NoiseBand, AChangeOneRunCannotTellApartIsUnchanged) {
  // 2% more executor run time: within the 5% band of durations.
  const Comparison small = compare_runs(nightly("app-1", 1000).load(), nightly("app-2", 1020).load());
  const MetricDelta& run_time = metric_of(small, "executorRunTime");
  ASSERT_TRUE(run_time.delta.has_value());
  EXPECT_GT(*run_time.delta, 0);
  EXPECT_EQ(run_time.direction, ChangeKind::kUnchanged);
  EXPECT_DOUBLE_EQ(run_time.noise, std::max(500.0, 0.05 * *run_time.baseline));
  EXPECT_NE(report::comparison_text(small, {}).find("unchanged (within "), std::string::npos);

  // Twice the run time is a regression; half of it an improvement.
  EXPECT_EQ(metric_of(compare_runs(nightly("app-1", 1000).load(), nightly("app-2", 2000).load()), "executorRunTime")
                .direction,
            ChangeKind::kRegression);
  EXPECT_EQ(metric_of(compare_runs(nightly("app-1", 2000).load(), nightly("app-2", 1000).load()), "executorRunTime")
                .direction,
            ChangeKind::kImprovement);
}

TEST(NoiseBand, ExactCountsHaveNone) {
  auto base = nightly("app-1");
  auto cand = nightly("app-2");
  cand.rdd_job({{"collect at Job.scala:50", 10, 1}});
  const Comparison c = compare_runs(base.load(), cand.load());
  EXPECT_EQ(metric_of(c, "stages").direction, ChangeKind::kRegression);  // one more stage, however short
  EXPECT_EQ(metric_of(c, "stages").noise, 0);
  EXPECT_EQ(noise_allowance({0.05, 500}, 100000), 5000);
  EXPECT_EQ(direction_of(-5000, 5000), ChangeKind::kUnchanged);
  EXPECT_EQ(direction_of(-5001, 5000), ChangeKind::kImprovement);
}

TEST(CoreHours, TheCostOfEachRunIsAMetric) {
  const Comparison c = compare_runs(nightly("app-1", 1000).load(), nightly("app-2", 4000).load());
  const MetricDelta& cost = metric_of(c, "coreHours");
  ASSERT_TRUE(cost.baseline.has_value());
  ASSERT_TRUE(cost.candidate.has_value());
  EXPECT_GT(*cost.baseline, 0);
  EXPECT_EQ(cost.unit, "core-hours");
  EXPECT_EQ(cost.direction, ChangeKind::kRegression);  // the same executors, held longer
  EXPECT_NE(report::comparison_text(c, {}).find(" core-hours"), std::string::npos);
}

TEST(ExecutionDeltas, EachAlignedQueryWithItsDurationChange) {
  const Comparison c = compare_runs(nightly("app-1", 1000).load(), nightly("app-2", 3000).load());
  ASSERT_EQ(c.execution_deltas.size(), 2u);
  for (const ExecutionDelta& d : c.execution_deltas) {
    ASSERT_TRUE(d.base_duration_ms.has_value());
    ASSERT_TRUE(d.cand_duration_ms.has_value());
    ASSERT_TRUE(d.delta_ms.has_value());
    EXPECT_EQ(*d.delta_ms, *d.cand_duration_ms - *d.base_duration_ms);
    EXPECT_GT(*d.delta_ms, 0);
    EXPECT_EQ(d.direction, ChangeKind::kRegression);
  }
  EXPECT_EQ(c.execution_deltas[0].description, "load orders");
  EXPECT_EQ(c.execution_deltas[1].description, "score customers");
  const auto doc = nlohmann::json::parse(report::comparison_json(c));
  ASSERT_EQ(doc["executionDeltas"].size(), 2u);
  EXPECT_EQ(doc["executionDeltas"][0]["direction"], "regression");
  EXPECT_NE(report::comparison_text(c, {}).find("Largest SQL execution changes (duration)"), std::string::npos);

  const Comparison same = compare_runs(nightly("app-1", 1000).load(), nightly("app-2", 1000).load());
  for (const ExecutionDelta& d : same.execution_deltas) EXPECT_EQ(d.direction, ChangeKind::kUnchanged);
}

TEST(UnrelatedRuns, GetFiguresButNoImprovementOrRegression) {
  RunBuilder base("app-1", "nightly job");
  base.query(sum_query("orders", "load orders", 1000)).query(sum_query("customers", "score customers", 1000));
  RunBuilder cand("app-2", "ad-hoc report");
  Query other = sum_query("clicks", "count clicks", 5000);
  other.call_site = "com.other.Report$.main(Report.scala:99)";
  cand.query(other);
  const Comparison c = compare_runs(base.load(), cand.load());
  EXPECT_FALSE(c.comparable);
  EXPECT_NE(c.banner.find("no change is labelled"), std::string::npos) << c.banner;
  for (const MetricDelta& d : c.metric_deltas) {
    if (!d.delta) continue;
    EXPECT_EQ(d.direction, ChangeKind::kNotComparable) << d.name;
  }
  const auto doc = nlohmann::json::parse(report::comparison_json(c));
  EXPECT_FALSE(doc["comparable"].get<bool>());
  for (const auto& m : doc["metricDeltas"]) {
    EXPECT_NE(m["direction"], "improvement") << m["name"];
    EXPECT_NE(m["direction"], "regression") << m["name"];
  }

  // The same application doing more work is still comparable, at low confidence.
  auto more = nightly("app-3");
  more.rdd_job({{"heavy new work at New.scala:1", 90000, 4}});
  const Comparison grown = compare_runs(nightly("app-1").load(), more.load());
  EXPECT_TRUE(grown.comparable);
  EXPECT_EQ(grown.confidence, ComparisonConfidence::kLow);
  EXPECT_EQ(metric_of(grown, "executorRunTime").direction, ChangeKind::kRegression);
}

}  // namespace
}  // namespace sf::compare

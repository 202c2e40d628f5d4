#include "service/fleet_summary.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "results/spark_result.h"
#include "trend_fixture.h"

namespace sf::service {
namespace {

using nlohmann::json;
using results::testing::History;
using results::testing::ResultBuilder;

ResultBuilder analyzed(const std::string& subject, double wall_clock_ms, double recoverable_ms, double skew_findings) {
  ResultBuilder r(subject);
  r.quantity("appWallClockMs", wall_clock_ms)
      .quantity(results::kFixFirstRecoverableLowMsQuantity, recoverable_ms / 2)
      .quantity(results::kFixFirstRecoverableHighMsQuantity, recoverable_ms)
      .quantity(results::kFindingCountQuantityPrefix + "skew", skew_findings, results::Direction::kLowerIsBetter, true,
                "findings");
  return r;
}

TEST(FleetSummary, RanksEachSubjectsLatestResultAndTrendsTheOnesWithAHistory) {
  History history;
  history.add(analyzed("nightly", 60'000, 9'000, 1));
  history.add(analyzed("nightly", 61'000, 12'000, 2));                       // nightly's latest
  history.add(analyzed("hourly", 5'000, 30'000, 0));                         // one result: no trend
  history.add(ResultBuilder("imported").quantity("appWallClockMs", 1'000));  // no analysis quantities
  StoreContents store;
  store.description = "sqlite:fleet.db";
  store.results = history.results();
  FleetRequest request;
  request.method = *method_config(VerdictMode::kTrend);
  auto answer = fleet_summary_json(store, request);
  ASSERT_TRUE(answer) << answer.error().message();
  const json summary = json::parse(*answer);
  EXPECT_EQ(summary["store"], "sqlite:fleet.db");
  EXPECT_EQ(summary["subjects"], 3);
  EXPECT_EQ(summary["withoutAnalysis"], 1);
  ASSERT_EQ(summary["recoverable"].size(), 2u);
  EXPECT_EQ(summary["recoverable"][0]["subject"], "hourly");  // 30 s before nightly's latest 12 s
  EXPECT_EQ(summary["recoverable"][1]["recoverableMs"]["high"], 12'000);
  ASSERT_EQ(summary["findingTypes"].size(), 1u);
  EXPECT_EQ(summary["findingTypes"][0]["type"], "skew");
  EXPECT_EQ(summary["findingTypes"][0]["applications"], 1);  // hourly's latest found none
  ASSERT_EQ(summary["trend"]["rows"].size(), 1u);
  EXPECT_EQ(summary["trend"]["rows"][0]["subject"], "nightly");
  EXPECT_EQ(summary["trend"]["rows"][0]["results"], 2);
  EXPECT_FALSE(summary["trend"]["document"]["evaluations"].empty());
}

TEST(FleetSummary, AnInvalidMethodIsRefused) {
  History history;
  history.add(analyzed("nightly", 60'000, 9'000, 1));
  history.add(analyzed("nightly", 61'000, 12'000, 2));
  StoreContents store;
  store.results = history.results();
  FleetRequest request;
  request.method.k = -1;
  EXPECT_FALSE(fleet_summary_json(store, request));
}

}  // namespace
}  // namespace sf::service

#include "results/fleet_rankings.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace sf::results {
namespace {

FleetRow row(std::string subject, std::string app_id, std::optional<double> recoverable_high_ms,
             std::optional<double> cost = std::nullopt, std::string currency = "") {
  return {std::move(subject), std::move(app_id), recoverable_high_ms, cost, std::move(currency)};
}

// The subjects of the ranked rows, in order: what a reader of either front end sees.
std::vector<std::string> subjects(const std::vector<FleetRow>& rows, const std::vector<size_t>& order) {
  std::vector<std::string> out;
  for (size_t i : order) out.push_back(rows[i].subject + "/" + rows[i].app_id);
  return out;
}

TEST(FleetRankings, RecoverableMostFirstTiesBySubjectThenApplicationIdAboveZeroOnly) {
  const std::vector<FleetRow> rows = {
      row("nightly", "app-2", 9'000),    row("zeta", "app-1", 30'000),
      row("alpha", "app-9", 30'000),      // ties zeta: the subject decides, not the application id
      row("nightly", "app-1", 9'000),     // ties nightly/app-2: the application id decides
      row("idle", "app-3", 0),            // nothing worth fixing first: not ranked as the least
      row("imported", "", std::nullopt),  // no analysis quantities: not ranked
  };
  const FleetRankings ranked = rank_fleet(rows, {}, 10);
  EXPECT_EQ(subjects(rows, ranked.recoverable),
            (std::vector<std::string>{"alpha/app-9", "zeta/app-1", "nightly/app-1", "nightly/app-2"}));
  EXPECT_EQ(subjects(rows, rank_fleet(rows, {}, 3).recoverable),
            (std::vector<std::string>{"alpha/app-9", "zeta/app-1", "nightly/app-1"}));
  EXPECT_TRUE(rank_fleet(rows, {}, 0).recoverable.empty());
}

TEST(FleetRankings, RowsEqualInEveryKeyKeepTheOrderGiven) {
  const std::vector<FleetRow> rows = {row("a", "x", 5), row("a", "x", 5), row("a", "x", 7)};
  EXPECT_EQ(rank_fleet(rows, {}, 10).recoverable, (std::vector<size_t>{2, 0, 1}));
}

TEST(FleetRankings, CostsPerCurrencyNeverOneRankingAcrossThem) {
  const std::vector<FleetRow> rows = {
      row("b", "app-1", std::nullopt, 2.0, "USD"),  // priced without analysis: still ranked by cost
      row("a", "app-2", 1'000, 0.5, "EUR"),        row("c", "app-3", 1'000, 9.0, "USD"),
      row("a", "app-4", 1'000, 2.0, "USD"),                                   // ties b: subject a first
      row("d", "app-5", 1'000, 3.0, "EUR"),        row("e", "app-6", 1'000),  // not priced
      row("f", "app-7", 1'000, 0.0, "USD"),                                   // priced at 0: still a cost
  };
  const FleetRankings ranked = rank_fleet(rows, {}, 3);
  ASSERT_EQ(ranked.costs.size(), 2u);
  EXPECT_EQ(ranked.costs[0].currency, "EUR");  // by currency name
  EXPECT_EQ(ranked.costs[0].applications, 2u);
  EXPECT_EQ(subjects(rows, ranked.costs[0].top), (std::vector<std::string>{"d/app-5", "a/app-2"}));
  EXPECT_EQ(ranked.costs[1].currency, "USD");
  EXPECT_EQ(ranked.costs[1].applications, 4u);  // counted before the cut
  EXPECT_EQ(subjects(rows, ranked.costs[1].top), (std::vector<std::string>{"c/app-3", "a/app-4", "b/app-1"}));
}

TEST(FleetRankings, FindingTypesByApplicationsThenFindingsThenName) {
  const std::vector<FindingTypeCount> types = {
      {"spill", 2, 5}, {"skew", 3, 3}, {"gc", 2, 5}, {"smallFiles", 2, 9}, {"idle", 1, 40},
  };
  const FleetRankings ranked = rank_fleet({}, types, 4);
  std::vector<std::string> order;
  for (size_t i : ranked.finding_types) order.push_back(types[i].type);
  EXPECT_EQ(order, (std::vector<std::string>{"skew", "smallFiles", "gc", "spill"}));
  EXPECT_TRUE(ranked.recoverable.empty());
  EXPECT_TRUE(ranked.costs.empty());
}

}  // namespace
}  // namespace sf::results

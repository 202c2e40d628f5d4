// The store answering the comparator's questions in SQL (results/store_series.h) gives the verdict
// documents the in-memory evaluator gives over every stored result: the in-memory SeriesIndex is
// the oracle. A generated store with several series (subjects, clusters, parameters; a revision
// line and results with no ancestry; failed runs, missing quantities, a revision measured twice,
// series longer than a page of candidates), under the default policy and one with continuity
// mappings, a reset and an accepted change point; both backends (store_fixture.h).
#include "results/store_series.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <random>

#include "report/verdict_json.h"
#include "results/revision_graph.h"
#include "results/run_evaluation.h"
#include "results/store_schema.h"
#include "results/trend_comparison.h"
#include "store_fixture.h"

namespace sf::results {
namespace {

using testing::BackendNames;
using testing::ResultBuilder;
using testing::StoreBackends;
using testing::StoreTest;

template <class Backend>
class StoreSeriesTest : public StoreTest<Backend> {
 protected:
  // ~150 results: subject "etl" on a revision line (two clusters interleaved, 70 results: more than
  // a page of candidates), "report" and its old name "old-report" on the same line, "adhoc" with
  // no revisions (native order), and a planned run of two variants.
  void fill(Store& store) {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> noise(-2, 2);
    auto ingest = [&](ResultBuilder builder, int i) {
      ResultDocument d = builder.document();
      d.origin = fmt::format("generated #{}", i);
      ASSERT_TRUE(store.ingest(d).has_value());
    };
    for (int i = 1; i <= 70; ++i) {
      const std::string tree = fmt::format("c{}", i);
      const std::vector<std::string> parents =
          i > 1 ? std::vector<std::string>{fmt::format("c{}", i - 1)} : std::vector<std::string>{};
      ResultBuilder etl("etl");
      etl.tree(tree, parents).env("cluster", i % 3 == 0 ? "b" : "a").duration(100 + noise(random) + (i > 50 ? 9 : 0));
      if (i % 4 != 0) etl.quantity("shuffleBytes", 5000 + i % 2, Direction::kNone, true, "bytes");
      if (i % 11 == 0) etl.status(RunStatus::kPartial);
      if (i % 13 == 0) etl.status(RunStatus::kError);
      ingest(etl, i);
      if (i % 17 == 0) ingest(ResultBuilder("etl").tree(tree, parents).env("cluster", "a").duration(101), 1000 + i);
      if (i % 2 == 0) {
        ResultBuilder report(i < 30 ? "old-report" : "report");
        report.tree(tree, parents).param("scale", i % 4 == 0 ? "10" : "100").duration(50 + noise(random));
        ingest(report, 2000 + i);
      }
      if (i % 5 == 0) ingest(ResultBuilder("adhoc").env("cluster", "a").duration(10 + noise(random)), 3000 + i);
    }
    for (int round = 1; round <= 6; ++round) {
      for (const char* role : {"baseline", "candidate"}) {
        const int slot = 2 * round + (std::string(role) == "candidate" ? 1 : 0);
        ingest(ResultBuilder("bench")
                   .param("role", role)
                   .run("run-1", round, slot)
                   .duration((std::string(role) == "candidate" ? 95 : 100) + noise(random)),
               4000 + slot);
      }
    }
  }

  static IdentityPolicy joining_policy(const std::vector<StoredResult>& results) {
    IdentityPolicy policy;
    policy.version = 1;
    policy.continuity.push_back({"subject", "old-report", "report", "renamed"});
    policy.continuity.push_back({"environment.cluster", "b", "a", "cluster b replaced by a"});
    policy.boundaries.push_back({"reset", {{"subject", "report"}}, "", "c40", "", "new input"});
    const StoredResult* at = nullptr;
    for (const StoredResult& r : results) {
      if (r.document.subject == "adhoc" && r.document.origin == "generated #3040") at = &r;
    }
    if (at != nullptr)
      policy.boundaries.push_back({"accepted-change-point", {{"subject", "adhoc"}}, "", "", at->id, "accepted"});
    return policy;
  }

  // Every result as a target, the in-memory document beside the store's.
  void expect_same_trend_verdicts(Store& store, const MethodConfig& method) {
    auto results = store.results();
    ASSERT_TRUE(results.has_value());
    auto policy = store.identity_policy();
    ASSERT_TRUE(policy.has_value());
    StoreSeriesSource source(store, *policy);
    for (const StoredResult& target : *results) {
      auto expected = compare_trend(*results, *policy, method, std::vector<std::string>{target.id}, {});
      auto actual = compare_trend(source, method, {target.id}, {});
      ASSERT_TRUE(expected.has_value()) << expected.error().message();
      ASSERT_TRUE(actual.has_value()) << actual.error().message();
      EXPECT_EQ(report::verdict_json(*actual), report::verdict_json(*expected)) << target.document.origin;
    }
  }
};

TYPED_TEST_SUITE(StoreSeriesTest, StoreBackends, BackendNames);

TYPED_TEST(StoreSeriesTest, TrendVerdictsAreTheInMemoryOnesForEveryTarget) {
  auto store = this->open();
  ASSERT_NE(store, nullptr);
  this->fill(*store);
  MethodConfig method;
  this->expect_same_trend_verdicts(*store, method);
  method.ordering = "native";
  method.duplicates = "mean";
  method.window = 5;
  method.reference_statuses = {"ok", "partial"};
  this->expect_same_trend_verdicts(*store, method);

  ASSERT_TRUE(store->set_identity_policy(this->joining_policy(*store->results())).ok());
  const MethodConfig defaults;
  this->expect_same_trend_verdicts(*store, defaults);
  this->expect_same_trend_verdicts(*store, method);
}

TYPED_TEST(StoreSeriesTest, TargetNamesResolveAsInMemory) {
  auto store = this->open();
  ASSERT_NE(store, nullptr);
  this->fill(*store);
  auto results = store->results();
  ASSERT_TRUE(results.has_value());
  std::vector<std::string> names = {"latest",
                                    "c10",
                                    "c17",
                                    "c70",
                                    "nothing",
                                    "",
                                    (*results)[5].id,
                                    (*results)[5].id.substr(0, 8),
                                    (*results)[5].id.substr(0, 1)};
  for (const std::string& name : names) {
    for (const std::string& subject : std::vector<std::string>{"", "etl", "adhoc", "nobody"}) {
      auto expected = resolve_targets(*results, name, subject);
      auto actual = resolve_targets(*store, name, subject);
      ASSERT_EQ(actual.has_value(), expected.has_value()) << name << " " << subject;
      if (expected) {
        EXPECT_EQ(*actual, *expected) << name << " " << subject;
      } else {
        EXPECT_EQ(actual.error().message(), expected.error().message());
      }
    }
  }
}

TYPED_TEST(StoreSeriesTest, AncestorsAndRunsAreTheInMemoryOnes) {
  auto store = this->open();
  ASSERT_NE(store, nullptr);
  this->fill(*store);
  // A cycle in recorded parents (bad input) ends the walk as the in-memory search ends it.
  ASSERT_TRUE(store->ingest(ResultBuilder("loop").tree("x1", {"x2"}).duration(1).document()).has_value());
  ASSERT_TRUE(store->ingest(ResultBuilder("loop").tree("x2", {"x1", "c3"}).duration(1).document()).has_value());
  auto results = store->results();
  ASSERT_TRUE(results.has_value());
  const RevisionGraph graph(*results);
  for (const std::string& tree : std::vector<std::string>{"c1", "c2", "c40", "c70", "x1", "x2", "none", ""}) {
    auto walked = store->ancestors(tree);
    ASSERT_TRUE(walked.has_value()) << walked.error().message();
    EXPECT_EQ(*walked, graph.ancestors(tree)) << tree;
  }
  auto run = store->run_results("run-1");
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->size(), 12u);
  MethodConfig method;
  method.name = std::string(kPairedRatio);
  const RunRequest request{"run-1", "variants", "", "baseline"};
  auto expected = evaluate_run(request, *results, {}, method);
  auto actual = evaluate_run(request, *run, {}, method);
  ASSERT_TRUE(expected.has_value() && actual.has_value());
  EXPECT_EQ(report::verdict_json(*actual), report::verdict_json(*expected));
}

// A store of schema 2 (before revision_parents) gets the graph's edges from the parents its
// results recorded when it is opened.
class StoreSeriesSqliteTest : public StoreSeriesTest<testing::SqliteBackend> {};

TEST_F(StoreSeriesSqliteTest, MigrationThreeFillsTheRevisionGraphFromTheStoredParents) {
  {
    auto store = this->open();
    ASSERT_NE(store, nullptr);
    this->fill(*store);
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(location_.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "DROP TABLE revision_parents; DROP INDEX results_subject_seq;"
                         " CREATE INDEX results_subject ON results (subject); UPDATE schema_version SET version = 2",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  auto store = this->open();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(*store->schema_version(), static_cast<int64_t>(store_migrations("").size()));
  auto results = store->results();
  ASSERT_TRUE(results.has_value());
  const RevisionGraph graph(*results);
  for (const std::string& tree : std::vector<std::string>{"c1", "c40", "c70"})
    EXPECT_EQ(*store->ancestors(tree), graph.ancestors(tree));
  const MethodConfig defaults;
  this->expect_same_trend_verdicts(*store, defaults);
}

}  // namespace
}  // namespace sf::results

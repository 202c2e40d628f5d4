// The store suite (store_fixture.h: SQLite and PostgreSQL): creation, read-back, immutability,
// lookups, the versioned identity policy, the comparator over a store; SQLite migrations.
#include "results/store.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <random>

#include "report/verdict_json.h"
#include "results/result_json.h"
#include "results/store_schema.h"
#include "results/trend_comparison.h"
#include "store_fixture.h"

namespace sf::results {
namespace {

using testing::BackendNames;
using testing::SqliteBackend;
using testing::StoreBackends;
using testing::StoreTest;
TYPED_TEST_SUITE(StoreTest, StoreBackends, BackendNames);

TYPED_TEST(StoreTest, CreatedOnFirstUseAtTheLatestSchema) {
  auto store = this->open();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(*store->schema_version(), static_cast<int64_t>(store_migrations("").size()));
  EXPECT_TRUE(store->results()->empty());
  EXPECT_EQ(store->identity_policy()->version, 0);
}

TYPED_TEST(StoreTest, IngestedDocumentsReadBackExactlyInNativeOrder) {
  auto store = this->open();
  std::vector<std::string> ids;
  for (int i = 1; i <= 3; ++i) {
    auto outcome = store->ingest(this->document(i));
    ASSERT_TRUE(outcome.has_value()) << outcome.error().message();
    EXPECT_FALSE(outcome->already_present);
    EXPECT_EQ(outcome->id, result_id(this->document(i)));
    ids.push_back(outcome->id);
  }
  auto results = store->results();
  ASSERT_TRUE(results.has_value());
  ASSERT_EQ(results->size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ((*results)[static_cast<size_t>(i)].id, ids[static_cast<size_t>(i)]);
    EXPECT_EQ(result_to_json((*results)[static_cast<size_t>(i)].document), result_to_json(this->document(i + 1)));
    EXPECT_EQ(*store->indexed_quantity_count(ids[static_cast<size_t>(i)]), 2);
  }
  EXPECT_LT((*results)[0].order, (*results)[1].order);
  EXPECT_LT((*results)[1].order, (*results)[2].order);
}

TYPED_TEST(StoreTest, ResultsAfterAnOrderAreExactlyTheOnesIngestedSince) {
  auto store = this->open();
  ASSERT_TRUE(store->ingest(this->document(1)).has_value());
  ASSERT_TRUE(store->ingest(this->document(2)).has_value());
  auto seen = store->results();
  ASSERT_TRUE(seen.has_value());
  ASSERT_EQ(seen->size(), 2u);
  EXPECT_TRUE(store->results_after(seen->back().order)->empty());

  ASSERT_TRUE(store->ingest(this->document(3)).has_value());
  ASSERT_TRUE(store->ingest(this->document(1)).has_value());  // already present: nothing new
  auto fresh = store->results_after(seen->back().order);
  ASSERT_TRUE(fresh.has_value());
  ASSERT_EQ(fresh->size(), 1u);
  EXPECT_EQ(fresh->front().id, result_id(this->document(3)));
  EXPECT_GT(fresh->front().order, seen->back().order);
  EXPECT_EQ(store->results_after(seen->front().order)->size(), 2u);
  EXPECT_EQ(store->results_after(0)->size(), 3u);
}

TYPED_TEST(StoreTest, ResultsAreImmutableAndIngestIsIdempotent) {
  auto store = this->open();
  auto first = store->ingest(this->document(1));
  auto again = store->ingest(this->document(1));
  ASSERT_TRUE(first && again);
  EXPECT_TRUE(again->already_present);
  EXPECT_EQ(again->order, first->order);
  EXPECT_EQ(store->results()->size(), 1u);
}

TYPED_TEST(StoreTest, FindsByIdAndUniquePrefix) {
  auto store = this->open();
  const std::string a = store->ingest(this->document(1))->id;
  ASSERT_TRUE(store->ingest(this->document(2)));
  EXPECT_EQ((*store->find(a))->id, a);
  EXPECT_EQ((*store->find(a.substr(0, 12)))->id, a);
  EXPECT_FALSE(store->find("r-").has_value());  // ambiguous: an error, not a guess
  EXPECT_FALSE(store->find("r-ffffffffffffffffffffffffffffffff")->has_value());
}

TYPED_TEST(StoreTest, SurvivesReopening) {
  {
    auto store = this->open();
    ASSERT_TRUE(store->ingest(this->document(1)));
  }
  auto store = this->open();
  EXPECT_EQ(store->results()->size(), 1u);
  EXPECT_EQ(*store->schema_version(), static_cast<int64_t>(store_migrations("").size()));
}

TYPED_TEST(StoreTest, IdentityPolicyIsVersionedAndSharedByEveryReader) {
  auto writer = this->open();
  auto reader = this->open();
  IdentityPolicy policy;
  policy.version = 1;
  policy.continuity.push_back({"subject", "old", "new", "renamed"});
  ASSERT_TRUE(writer->set_identity_policy(policy).ok());
  EXPECT_EQ(writer->set_identity_policy(policy).code(), StatusCode::kInvalidArgument);  // not the next version
  policy.version = 3;
  EXPECT_FALSE(writer->set_identity_policy(policy).ok());
  policy.version = 2;
  policy.boundaries.push_back({"reset", {}, "", "c5", "", "new hardware"});
  ASSERT_TRUE(writer->set_identity_policy(policy).ok());
  auto seen = reader->identity_policy();
  ASSERT_TRUE(seen.has_value()) << seen.error().message();
  EXPECT_EQ(seen->version, 2);
  EXPECT_EQ(identity_policy_to_json(*seen), identity_policy_to_json(policy));
}

TYPED_TEST(StoreTest, ComparatorReadsTheStoreAndIsReproducible) {
  auto store = this->open();
  for (int i = 1; i <= 8; ++i) ASSERT_TRUE(store->ingest(this->document(i)));
  ResultDocument target = this->document(9);
  target.quantities[0].value = 103;  // durationMs, +3% on ~0.05% noise
  const std::string target_id = store->ingest(target)->id;
  auto before = compare_trend(*store->results(), *store->identity_policy(), {}, target_id, {});
  ASSERT_TRUE(before.has_value());
  ASSERT_EQ(before->evaluations.size(), 2u);
  EXPECT_EQ(before->evaluations[0].quantity, "durationMs");
  EXPECT_EQ(before->evaluations[0].outcome.verdict, Verdict::kRegressed);
  EXPECT_EQ(before->evaluations[1].outcome.verdict, Verdict::kNoChangeDetected);  // inputBytes, exact
  for (int i = 10; i <= 12; ++i) ASSERT_TRUE(store->ingest(this->document(i)));
  auto after = compare_trend(*store->results(), *store->identity_policy(), {}, target_id, {});
  EXPECT_EQ(report::verdict_json(*before), report::verdict_json(*after));
}

// SQLite-only: migrations run forward from an older schema; a newer schema is refused.
TEST(SqliteStoreSchema, MigratesForwardAndRefusesNewer) {
  const std::string path = SqliteBackend::create();
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    std::string sql = "CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1);";
    const std::vector<Migration> migrations = store_migrations("INTEGER PRIMARY KEY AUTOINCREMENT");
    for (const std::string& s : migrations[0].statements) sql += s + ";";
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  {
    auto store = open_store(path);
    ASSERT_TRUE(store.has_value()) << store.error().message();
    EXPECT_EQ(*(*store)->schema_version(), static_cast<int64_t>(store_migrations("").size()));
  }
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    int indexes = 0;
    sqlite3_exec(
        db, "SELECT COUNT(*) FROM sqlite_master WHERE type='index' AND name LIKE 'results_%'",
        [](void* out, int, char** values, char**) {
          *static_cast<int*>(out) = std::atoi(values[0]);
          return 0;
        },
        &indexes, nullptr);
    EXPECT_EQ(indexes, 3);
    ASSERT_EQ(sqlite3_exec(db, "UPDATE schema_version SET version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  auto refused = open_store(path);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), StatusCode::kUnsupported);
  EXPECT_NE(refused.error().message().find("newer"), std::string::npos);
  SqliteBackend::destroy(path);
}

// A store file with damaged pages in the middle (20 pages of random bytes, as an attack from
// outside left it) was written into: ingest succeeded three times and exited 0 while `store
// list` said malformed. It is now refused on open, before any write, naming the file.
TEST(SqliteStoreSchema, ADamagedFileIsRefusedBeforeAnyWrite) {
  const std::string path = SqliteBackend::create();
  {
    auto store = open_store(path);
    ASSERT_TRUE(store.has_value()) << store.error().message();
    for (int i = 1; i <= 300; ++i) {
      ASSERT_TRUE((*store)->ingest(StoreTest<SqliteBackend>::document(i)).has_value());
    }
  }
  constexpr int64_t kPage = 4096;
  const auto pages = static_cast<int64_t>(std::filesystem::file_size(path)) / kPage;
  ASSERT_GT(pages, 30) << "too small a store to damage in the middle";
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    std::mt19937 random(20);
    std::uniform_int_distribution<int64_t> page(2, pages - 2);
    std::string noise(kPage, '\0');
    for (int i = 0; i < 20; ++i) {
      for (char& c : noise) c = static_cast<char>(random() & 0xff);
      file.seekp(page(random) * kPage);
      file.write(noise.data(), kPage);
    }
  }
  const auto size_before = std::filesystem::file_size(path);
  auto store = open_store(path);
  ASSERT_FALSE(store.has_value()) << "a damaged store was opened for writing";
  EXPECT_EQ(store.error().code(), StatusCode::kCorruption);
  EXPECT_NE(store.error().message().find(path + ": the result store is damaged"), std::string::npos)
      << store.error().message();
  EXPECT_EQ(std::filesystem::file_size(path), size_before);
  SqliteBackend::destroy(path);
}

TEST(SqliteStoreSchema, NotAStoreIsAClearError) {
  const std::string path = SqliteBackend::create();
  { std::ofstream(path) << "this is not a database, just text that is long enough to look like a header......"; }
  auto store = open_store(path);
  ASSERT_FALSE(store.has_value());
  EXPECT_NE(store.error().message().find(path), std::string::npos);
  SqliteBackend::destroy(path);
}

}  // namespace
}  // namespace sf::results

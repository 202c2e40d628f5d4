// StoreSnapshot (results/store_snapshot.h) over both store backends: it follows ingests by reading
// only the new results, sees a new identity policy, and reads a replaced store anew.
#include "results/store_snapshot.h"

#include <gtest/gtest.h>

#include "results/result_json.h"
#include "store_fixture.h"

namespace sf::results {
namespace {

using testing::BackendNames;
using testing::SqliteBackend;
using testing::StoreBackends;
using testing::StoreTest;

template <class Backend>
class StoreSnapshotTest : public StoreTest<Backend> {
 protected:
  static std::vector<std::string> ids(const std::vector<StoredResult>& results) {
    std::vector<std::string> out;
    for (const StoredResult& r : results) out.push_back(r.id);
    return out;
  }
};
TYPED_TEST_SUITE(StoreSnapshotTest, StoreBackends, BackendNames);

TYPED_TEST(StoreSnapshotTest, FollowsIngestsAndKeepsWhatItReadWhenNothingChanged) {
  auto writer = this->open();
  ASSERT_TRUE(writer->ingest(this->document(1)).has_value());
  ASSERT_TRUE(writer->ingest(this->document(2)).has_value());
  StoreSnapshot snapshot(this->location_);

  auto first = snapshot.current();
  ASSERT_TRUE(first.has_value()) << first.error().message();
  ASSERT_EQ((*first)->results.size(), 2u);
  EXPECT_EQ((*first)->description, writer->description());
  auto unchanged = snapshot.current();
  ASSERT_TRUE(unchanged.has_value());
  EXPECT_EQ(unchanged->get(), first->get()) << "nothing was ingested: the same contents, not a new read";

  ASSERT_TRUE(writer->ingest(this->document(3)).has_value());
  auto grown = snapshot.current();
  ASSERT_TRUE(grown.has_value()) << grown.error().message();
  EXPECT_EQ(this->ids((*grown)->results), this->ids(*writer->results()));
  EXPECT_EQ(result_to_json((*grown)->results.back().document), result_to_json(this->document(3)));
  EXPECT_EQ((*first)->results.size(), 2u) << "a request's contents never change under it";
}

TYPED_TEST(StoreSnapshotTest, SeesANewIdentityPolicy) {
  auto writer = this->open();
  ASSERT_TRUE(writer->ingest(this->document(1)).has_value());
  StoreSnapshot snapshot(this->location_);
  ASSERT_EQ((*snapshot.current())->policy.version, 0);
  IdentityPolicy policy;
  policy.version = 1;
  policy.environment = {"cluster"};
  ASSERT_TRUE(writer->set_identity_policy(policy).ok());
  auto now = snapshot.current();
  ASSERT_TRUE(now.has_value()) << now.error().message();
  EXPECT_EQ((*now)->policy.version, 1);
  EXPECT_EQ((*now)->policy.environment, std::vector<std::string>{"cluster"});
  EXPECT_EQ((*now)->results.size(), 1u);
}

class StoreSnapshotSqliteTest : public StoreTest<SqliteBackend> {};

TEST_F(StoreSnapshotSqliteTest, NoStoreIsNotFoundAndOneCreatedLaterIsRead) {
  StoreSnapshot snapshot(location_);
  auto none = snapshot.current();
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error().code(), StatusCode::kNotFound);
  EXPECT_FALSE(std::filesystem::exists(location_)) << "a reader never creates the store";

  ASSERT_TRUE(open()->ingest(document(1)).has_value());
  auto found = snapshot.current();
  ASSERT_TRUE(found.has_value()) << found.error().message();
  EXPECT_EQ((*found)->results.size(), 1u);
}

TEST_F(StoreSnapshotSqliteTest, AStoreReplacedUnderItIsReadAnew) {
  {
    auto old_store = open();
    for (int i = 1; i <= 3; ++i) ASSERT_TRUE(old_store->ingest(document(i)).has_value());
  }
  StoreSnapshot snapshot(location_);
  ASSERT_EQ((*snapshot.current())->results.size(), 3u);

  std::filesystem::remove(location_);
  std::filesystem::remove(location_ + "-wal");
  std::filesystem::remove(location_ + "-shm");
  {
    auto new_store = open();
    for (int i = 1; i <= 4; ++i) ASSERT_TRUE(new_store->ingest(document(i, "other")).has_value());
  }
  auto now = snapshot.current();
  ASSERT_TRUE(now.has_value()) << now.error().message();
  ASSERT_EQ((*now)->results.size(), 4u) << "not the old store's three with the new one's fourth";
  for (const StoredResult& r : (*now)->results) EXPECT_EQ(r.document.subject, "other");
}

}  // namespace
}  // namespace sf::results

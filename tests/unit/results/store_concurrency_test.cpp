// Several writer processes at once, and a writer killed mid-ingest, on both stores.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <set>
#include <vector>

#include "results/result_json.h"
#include "store_fixture.h"

namespace sf::results {
namespace {

using testing::BackendNames;
using testing::StoreBackends;
using testing::StoreTest;

template <class Backend>
class StoreConcurrencyTest : public StoreTest<Backend> {};
TYPED_TEST_SUITE(StoreConcurrencyTest, StoreBackends, BackendNames);

// Several processes ingesting at once: nothing is lost, nothing is half-written.
TYPED_TEST(StoreConcurrencyTest, ConcurrentIngestsFromSeveralProcessesLoseNothing) {
  { this->open(); }  // created before the writers start, as a deployed store would be
  constexpr int kProcesses = 4;
  constexpr int kEach = 25;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      auto store = open_store(this->location_);
      if (!store) _exit(10);
      for (int i = 0; i < kEach; ++i) {
        if (!(*store)->ingest(this->document(i + 1, fmt::format("writer-{}", p)))) _exit(11);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "writer exited with " << status;
  }
  auto store = this->open();
  auto results = store->results();
  ASSERT_TRUE(results.has_value());
  EXPECT_EQ(results->size(), static_cast<size_t>(kProcesses * kEach));
  std::set<int64_t> orders;
  for (const StoredResult& r : *results) {
    orders.insert(r.order);
    EXPECT_EQ(*store->indexed_quantity_count(r.id), 2) << r.id;
  }
  EXPECT_EQ(orders.size(), results->size());
}

// A writer killed between its writes and its commit leaves no trace, and the store works on.
TYPED_TEST(StoreConcurrencyTest, AProcessKilledMidIngestLeavesTheStoreConsistent) {
  {
    auto store = this->open();
    ASSERT_TRUE(store->ingest(this->document(1)));
  }
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    StoreOptions options;
    options.before_commit = [&] {
      const char byte = 'x';
      if (write(ready[1], &byte, 1) != 1) _exit(12);
      for (;;) pause();  // killed here, every row written, nothing committed
    };
    auto store = open_store(this->location_, options);
    if (!store) _exit(10);
    if (!(*store)->ingest(this->document(2))) _exit(11);
    _exit(13);
  }
  char byte = 0;
  ASSERT_EQ(read(ready[0], &byte, 1), 1) << "the writer never reached its commit";
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status));
  close(ready[0]);
  close(ready[1]);

  auto store = this->open();
  auto results = store->results();
  ASSERT_TRUE(results.has_value()) << results.error().message();
  ASSERT_EQ(results->size(), 1u);
  EXPECT_EQ(*store->indexed_quantity_count(result_id(this->document(2))), 0);  // no orphan rows
  auto retried = store->ingest(this->document(2));
  ASSERT_TRUE(retried.has_value()) << retried.error().message();
  EXPECT_FALSE(retried->already_present);
  EXPECT_EQ(store->results()->size(), 2u);
  EXPECT_EQ(*store->indexed_quantity_count(retried->id), 2);
}

}  // namespace
}  // namespace sf::results

// The store's fault rows: a write that runs out of room. (A writer killed mid-ingest is in
// store_concurrency_test.cpp, on both stores.)
//
// A full disk is simulated with RLIMIT_FSIZE in a child process: past the limit, write() fails
// as it would on a full file system (EFBIG instead of ENOSPC, the same path through SQLite).
// PostgreSQL's disk is the server's, out of this process's reach; its refusal reaches the
// client as an ordinary failed statement, which the typed suite already covers.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "store_fixture.h"

namespace sf::results {
namespace {

using testing::SqliteBackend;
using testing::StoreTest;

using SqliteStoreFaults = StoreTest<SqliteBackend>;

// What the child wrote to the pipe: how many ingests succeeded, then the error it saw.
struct ChildReport {
  int succeeded = -1;
  std::string error;
};

ChildReport read_report(int fd) {
  std::string text;
  char buffer[512];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(n));
  ChildReport report;
  const auto newline = text.find('\n');
  if (newline == std::string::npos) return report;
  report.succeeded = std::stoi(text.substr(0, newline));
  report.error = text.substr(newline + 1);
  return report;
}

TEST_F(SqliteStoreFaults, AFullDiskFailsTheIngestClearlyAndLosesNothingStored) {
  {
    auto store = open();
    ASSERT_TRUE(store->ingest(document(1)).has_value());
  }
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(pipe_fds[0]);
    signal(SIGXFSZ, SIG_IGN);  // a failed write, not a killed process, as on a full disk
    auto store = open_store(location_);
    if (!store) _exit(10);
    const rlimit room{256 * 1024, 256 * 1024};  // every file this process writes stops here
    if (setrlimit(RLIMIT_FSIZE, &room) != 0) _exit(11);
    int succeeded = 0;
    std::string error = "every ingest succeeded";
    for (int i = 2; i < 100000; ++i) {
      auto outcome = (*store)->ingest(document(i));
      if (!outcome) {
        error = outcome.error().message();
        break;
      }
      ++succeeded;
    }
    const std::string report = std::to_string(succeeded) + "\n" + error;
    if (write(pipe_fds[1], report.data(), report.size()) != static_cast<ssize_t>(report.size())) _exit(12);
    _exit(0);
  }
  close(pipe_fds[1]);
  const ChildReport report = read_report(pipe_fds[0]);
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the writer exited with " << status;

  std::printf("ingests before the disk filled: %d; then: %s\n", report.succeeded, report.error.c_str());
  ASSERT_GE(report.succeeded, 1) << "the limit left no room for a single ingest: " << report.error;
  EXPECT_NE(report.error, "every ingest succeeded");
  // The error names the store and says what failed, in SQLite's words, and what to check.
  EXPECT_NE(report.error.find(location_), std::string::npos) << report.error;
  EXPECT_TRUE(report.error.find("full") != std::string::npos || report.error.find("I/O") != std::string::npos)
      << report.error;
  EXPECT_NE(report.error.find("check the free space"), std::string::npos) << report.error;

  // Everything committed before the failure is there, whole, and the store takes writes again.
  auto store = open();
  auto results = store->results();
  ASSERT_TRUE(results.has_value()) << results.error().message();
  EXPECT_EQ(results->size(), static_cast<size_t>(report.succeeded) + 1);
  for (const StoredResult& r : *results) EXPECT_EQ(*store->indexed_quantity_count(r.id), 2) << r.id;
  auto after = store->ingest(document(report.succeeded + 2));
  ASSERT_TRUE(after.has_value()) << after.error().message();
  EXPECT_FALSE(after->already_present);
  EXPECT_EQ(store->results()->size(), static_cast<size_t>(report.succeeded) + 2);
}

}  // namespace
}  // namespace sf::results

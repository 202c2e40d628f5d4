// The catalogue over generated logs: a changed log is read again, callers asking for one log at
// once share one read (and its progress), the bound on loaded logs holds, listings are read once
// per version of a log's files, and nothing outside the root is read, through symlinks or not.
#include "catalog/log_catalog.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "loggen/log_generator.h"

namespace sf::catalog {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// Waits (at most a minute, so a broken catalogue fails instead of hanging) until `ready` is true.
class Flag {
 public:
  void set() {
    std::lock_guard lock(mutex_);
    set_ = true;
    changed_.notify_all();
  }
  bool wait() {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 60s, [&] { return set_; });
  }
  bool is_set() {
    std::lock_guard lock(mutex_);
    return set_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool set_ = false;
};

class LogCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("sf-catalog-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(base_);
    logs_ = base_ / "logs";
    fs::create_directories(logs_);
    fs::create_directories(base_ / "outside");
  }
  void TearDown() override { fs::remove_all(base_); }

  static loggen::GeneratorConfig config(const std::string& app_id, int actions = 3) {
    loggen::GeneratorConfig c = loggen::GeneratorConfig::small();
    c.app_id = app_id;
    c.actions = actions;
    return c;
  }
  fs::path write(const loggen::GeneratorConfig& c, const loggen::LogWriteOptions& options = {}) {
    return loggen::write_event_log(c, options, logs_, nullptr).path;
  }
  std::unique_ptr<LogCatalog> catalog(size_t max_loaded_logs = 4) {
    CatalogOptions options;
    options.root = *io::PathConfinement::to(logs_.string());
    options.max_loaded_logs = max_loaded_logs;
    return std::make_unique<LogCatalog>(options);
  }
  // Starts a read of `log` on another thread, held inside its first progress report until
  // `release` is set; returns once the read is there.
  static std::future<Result<std::shared_ptr<const LoadedLog>>> start_held_read(LogCatalog& logs, const fs::path& log,
                                                                               Flag& release) {
    auto reading = std::make_shared<Flag>();
    LoadRequest request;
    request.progress_interval_bytes = 1;
    request.on_progress = [reading, &release](const model::LoadProgress&) {
      reading->set();
      release.wait();
    };
    auto read = std::async(std::launch::async, [&logs, log, request] { return logs.load(log.string(), request); });
    EXPECT_TRUE(reading->wait());
    return read;
  }
  // A rewrite within the same second as the first write must still count as a change.
  static void touch_later(const fs::path& path) { fs::last_write_time(path, fs::last_write_time(path) + 2s); }

  fs::path base_, logs_;
};

TEST_F(LogCatalogTest, ALogIsReadOnceThenServedFromMemory) {
  const fs::path log = write(config("app-20240101000000-0001"));
  auto logs = catalog();
  auto first = logs->load(log.filename().string());
  ASSERT_TRUE(first.has_value()) << first.error().message();
  auto again = logs->load(log.string());  // relative or absolute: the same real path
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(first->get(), again->get());
  EXPECT_EQ(logs->logs_read(), 1u);
  EXPECT_EQ((*first)->path(), fs::canonical(log).string());
  // The analysis is computed once and shared too.
  EXPECT_EQ(&(*first)->analysis(), &(*again)->analysis());
  EXPECT_EQ((*first)->analysis_document()["app"]["id"], "app-20240101000000-0001");
}

TEST_F(LogCatalogTest, AChangedLogIsReadAgain) {
  const fs::path log = write(config("app-20240101000000-0001", 3));
  auto logs = catalog();
  auto before = logs->load(log.string());
  ASSERT_TRUE(before.has_value()) << before.error().message();
  const size_t jobs_before = (*before)->model().jobs.size();

  // The same application rewritten in place with more work: same path, other files.
  ASSERT_EQ(write(config("app-20240101000000-0001", 6)), log);
  touch_later(log);
  auto after = logs->load(log.string());
  ASSERT_TRUE(after.has_value()) << after.error().message();
  EXPECT_NE(before->get(), after->get());
  EXPECT_GT((*after)->model().jobs.size(), jobs_before);
  EXPECT_EQ(logs->logs_read(), 2u);
  // The model handed out before stays whole for whoever still holds it.
  EXPECT_EQ((*before)->model().jobs.size(), jobs_before);
}

TEST_F(LogCatalogTest, ARollingLogGivenANewPartIsReadAgain) {
  loggen::LogWriteOptions rolling;
  rolling.layout = loggen::LogLayout::kRolling;
  rolling.rolling_max_part_bytes = 64 << 10;
  const fs::path log = write(config("app-20240101000000-0002"), rolling);
  auto logs = catalog();
  ASSERT_TRUE(logs->load(log.string()).has_value());
  ASSERT_TRUE(logs->load(log.string()).has_value());
  EXPECT_EQ(logs->logs_read(), 1u);
  // Any change to any part is a new version: here the first part, which no size or time of the
  // directory itself would show.
  fs::path first_part;
  for (const auto& entry : fs::directory_iterator(log)) {
    if (entry.path().filename().string().starts_with("events_1_")) first_part = entry.path();
  }
  ASSERT_FALSE(first_part.empty());
  touch_later(first_part);
  ASSERT_TRUE(logs->load(log.string()).has_value());
  EXPECT_EQ(logs->logs_read(), 2u);
}

// The first caller's read is held inside its progress callback until a second caller, waiting
// for that same read, has been told its progress: the two overlap for certain, and one read
// serves both (and the callers that come while it runs).
TEST_F(LogCatalogTest, CallersAskingAtOnceShareOneRead) {
  loggen::LogWriteOptions rolling;
  rolling.layout = loggen::LogLayout::kRolling;
  rolling.rolling_max_part_bytes = 64 << 10;  // a progress report at each part
  const fs::path log = write(config("app-20240101000000-0003"), rolling);
  auto logs = catalog();

  Flag second_told;
  auto first = start_held_read(*logs, log, second_told);

  bool second_read_itself = false;
  LoadRequest second_request;
  second_request.on_progress = [&](const model::LoadProgress& p) {
    if (p.source_bytes_done > 0) second_told.set();
  };
  second_request.on_read = [&] { second_read_itself = true; };
  std::vector<std::future<Result<std::shared_ptr<const LoadedLog>>>> others;
  for (int i = 0; i < 4; ++i) {
    others.push_back(std::async(std::launch::async, [&] { return logs->load(log.string()); }));
  }
  auto second = logs->load(log.string(), second_request);
  auto first_result = first.get();
  ASSERT_TRUE(first_result.has_value()) << first_result.error().message();
  ASSERT_TRUE(second.has_value()) << second.error().message();
  EXPECT_TRUE(second_told.is_set());
  EXPECT_FALSE(second_read_itself);
  EXPECT_EQ(first_result->get(), second->get());
  for (auto& other : others) {
    auto result = other.get();
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(result->get(), first_result->get());
  }
  EXPECT_EQ(logs->logs_read(), 1u);
}

// A caller that gives up waiting for another's read leaves it alone; a read that is itself
// cancelled is not kept, and the next caller reads the log again.
TEST_F(LogCatalogTest, CancellingAWaitOrAReadLeavesNothingBehind) {
  const fs::path log = write(config("app-20240101000000-0004"));
  auto logs = catalog();

  Flag second_gave_up;
  auto first = start_held_read(*logs, log, second_gave_up);
  std::atomic<bool> cancel{true};
  LoadRequest second_request;
  second_request.cancel = &cancel;
  auto second = logs->load(log.string(), second_request);
  second_gave_up.set();
  ASSERT_FALSE(second.has_value());
  EXPECT_EQ(second.error().code(), StatusCode::kCancelled);
  ASSERT_TRUE(first.get().has_value());
  EXPECT_EQ(logs->logs_read(), 1u);

  loggen::LogWriteOptions rolling;
  rolling.layout = loggen::LogLayout::kRolling;
  rolling.rolling_max_part_bytes = 64 << 10;  // a batch per part at least: the read sees the cancel
  const fs::path other = write(config("app-20240101000000-0005"), rolling);
  std::atomic<bool> stop{false};
  LoadRequest stopped;
  stopped.cancel = &stop;
  stopped.progress_interval_bytes = 1;
  stopped.on_progress = [&](const model::LoadProgress&) { stop = true; };
  auto cancelled = logs->load(other.string(), stopped);
  ASSERT_FALSE(cancelled.has_value());
  EXPECT_EQ(cancelled.error().code(), StatusCode::kCancelled);
  EXPECT_EQ(logs->loaded_logs(), 1u);
  ASSERT_TRUE(logs->load(other.string()).has_value());
  EXPECT_EQ(logs->logs_read(), 3u);
}

TEST_F(LogCatalogTest, AtMostTheBoundStaysLoadedLeastRecentlyUsedGoesFirst) {
  const fs::path a = write(config("app-20240101000000-0011"));
  const fs::path b = write(config("app-20240101000000-0012"));
  const fs::path c = write(config("app-20240101000000-0013"));
  auto logs = catalog(2);
  auto held = logs->load(a.string());
  ASSERT_TRUE(held.has_value());
  ASSERT_TRUE(logs->load(b.string()).has_value());
  ASSERT_TRUE(logs->load(a.string()).has_value());  // a is now more recent than b
  ASSERT_TRUE(logs->load(c.string()).has_value());  // evicts b
  EXPECT_EQ(logs->loaded_logs(), 2u);
  EXPECT_EQ(logs->logs_read(), 3u);
  ASSERT_TRUE(logs->load(a.string()).has_value());
  ASSERT_TRUE(logs->load(c.string()).has_value());
  EXPECT_EQ(logs->logs_read(), 3u);
  ASSERT_TRUE(logs->load(b.string()).has_value());
  EXPECT_EQ(logs->logs_read(), 4u);
  EXPECT_EQ(logs->loaded_logs(), 2u);
  // An evicted log stays whole for whoever still holds it.
  EXPECT_EQ((*held)->model().app.id, "app-20240101000000-0011");
}

TEST_F(LogCatalogTest, NothingOutsideTheRootIsListedOrReadThroughSymlinks) {
  write(config("app-20240101000000-0021"));
  loggen::GeneratorConfig secret = config("app-20240101000000-0666");
  const fs::path outside = loggen::write_event_log(secret, {}, base_ / "outside", nullptr).path;
  fs::create_symlink(outside, logs_ / "link-to-outside");
  const fs::path leaky = logs_ / "eventlog_v2_app-20240101000000-0667";
  fs::create_directories(leaky);
  std::ofstream(leaky / "appstatus_app-20240101000000-0667").flush();
  fs::create_symlink(outside, leaky / "events_1_app-20240101000000-0667");
  auto logs = catalog();

  auto listed = logs->list_logs(logs_.string());
  ASSERT_TRUE(listed.has_value()) << listed.error().message();
  ASSERT_EQ(listed->logs.size(), 1u);
  EXPECT_EQ(listed->refused.size(), 2u);
  auto scan = logs->rescan();
  ASSERT_TRUE(scan.has_value());
  ASSERT_EQ(logs->applications().size(), 1u);
  EXPECT_EQ(logs->applications()[0].id, "app-20240101000000-0021");

  for (const std::string& path : {std::string("link-to-outside"), leaky.string(), outside.string(),
                                  std::string("../outside/") + outside.filename().string()}) {
    auto loaded = logs->load(path);
    ASSERT_FALSE(loaded.has_value()) << path;
    EXPECT_EQ(loaded.error().code(), StatusCode::kOutsideRoot) << path << ": " << loaded.error().message();
    EXPECT_FALSE(logs->listing(path).has_value()) << path;
  }
  EXPECT_FALSE(logs->list_logs((base_ / "outside").string()).has_value());
  EXPECT_EQ(logs->logs_read(), 0u);

  // A log loaded while it was inside is refused once a part of it becomes a symlink out, even
  // though it is in memory.
  loggen::LogWriteOptions rolling;
  rolling.layout = loggen::LogLayout::kRolling;
  const fs::path inside = write(config("app-20240101000000-0022"), rolling);
  ASSERT_TRUE(logs->load(inside.string()).has_value());
  fs::create_symlink(outside, inside / "events_9_app-20240101000000-0022");
  auto refused = logs->load(inside.string());
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), StatusCode::kOutsideRoot);
  // A file the program wrote itself (an MCP download) is read wherever it is.
  EXPECT_TRUE(logs->load_own_file(outside.string()).has_value());
}

TEST_F(LogCatalogTest, AListingIsReadOncePerVersionOfItsFiles) {
  const fs::path log = write(config("app-20240101000000-0031"));
  std::ofstream(logs_ / "notes.txt") << "not an event log\n";
  auto logs = catalog();
  auto first = logs->rescan();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->read, 2u);
  ASSERT_EQ(first->unreadable.size(), 1u);
  EXPECT_NE(first->unreadable[0].find("notes.txt"), std::string::npos);
  // Nothing changed: nothing read, the file that is not a log not reported again.
  auto second = logs->rescan();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->read, 0u);
  EXPECT_TRUE(second->unreadable.empty());
  // Paged listing shares what the scan read; it still names why a file is not a log.
  auto notes = logs->listing((logs_ / "notes.txt").string());
  ASSERT_FALSE(notes.has_value());
  EXPECT_NE(notes.error().message().find("notes.txt"), std::string::npos);
  auto listing = logs->listing(log.string());
  ASSERT_TRUE(listing.has_value());
  EXPECT_EQ(listing->app_id, "app-20240101000000-0031");

  ASSERT_EQ(write(config("app-20240101000000-0031", 5)), log);
  touch_later(log);
  fs::remove(logs_ / "notes.txt");
  auto third = logs->rescan();
  ASSERT_TRUE(third.has_value());
  EXPECT_EQ(third->read, 1u);
  EXPECT_EQ(logs->applications().size(), 1u);
  EXPECT_EQ(logs->logs_read(), 0u);  // listing never loads a log
}

}  // namespace
}  // namespace sf::catalog

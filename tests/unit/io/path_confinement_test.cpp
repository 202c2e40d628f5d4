// Confinement through symlinks: a log directory may hold symlinks, and anyone who can write
// into it (Spark jobs can) could point one anywhere. Whatever resolves outside the root is
// refused: a file, a log directory, or one part of a rolling log; what stays inside is read.
#include "io/path_confinement.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "io/log_source.h"

namespace sf::io {
namespace {

namespace fs = std::filesystem;

class PathConfinementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("sf-confinement-" + std::to_string(::getpid()));
    fs::remove_all(base_);
    logs_ = base_ / "logs";
    fs::create_directories(logs_);
    fs::create_directories(base_ / "outside");
    fs::create_directories(base_ / "logs-old");
    write(base_ / "outside" / "secret", "{\"Event\":\"SparkListenerLogStart\"}\n");
    write(base_ / "logs-old" / "app-2", "{\"Event\":\"SparkListenerLogStart\"}\n");
    write(logs_ / "app-1", "{\"Event\":\"SparkListenerLogStart\"}\n");
    fs::create_directories(logs_ / "data");
    write(logs_ / "data" / "app-3", "{\"Event\":\"SparkListenerLogStart\"}\n");
    // Inside: a symlink to a file inside the directory is fine.
    fs::create_symlink(logs_ / "data" / "app-3", logs_ / "link-inside");
    // Outside: a file symlink, a sibling whose name shares the prefix, a directory symlink.
    fs::create_symlink(base_ / "outside" / "secret", logs_ / "link-to-secret");
    fs::create_symlink("../logs-old/app-2", logs_ / "relative-link");
    fs::create_symlink(base_ / "outside", logs_ / "dir-link");
    // A rolling log whose second part is a symlink out, and one whose parts are all inside.
    const fs::path leaky = logs_ / "eventlog_v2_app-4";
    fs::create_directories(leaky);
    write(leaky / "appstatus_app-4", "");
    write(leaky / "events_1_app-4", "{\"Event\":\"SparkListenerLogStart\"}\n");
    fs::create_symlink(base_ / "outside" / "secret", leaky / "events_2_app-4");
    const fs::path good = logs_ / "eventlog_v2_app-5";
    fs::create_directories(good);
    write(good / "appstatus_app-5", "");
    write(good / "events_1_app-5", "{\"Event\":\"SparkListenerLogStart\"}\n");
    // A symlink loop is neither a file nor a directory.
    fs::create_symlink(logs_ / "loop-b", logs_ / "loop-a");
    fs::create_symlink(logs_ / "loop-a", logs_ / "loop-b");
  }
  void TearDown() override { fs::remove_all(base_); }

  static void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

  fs::path base_;
  fs::path logs_;
};

TEST_F(PathConfinementTest, ResolvesInsideAndRefusesWhatLandsOutside) {
  auto confinement = PathConfinement::to(logs_.string());
  ASSERT_TRUE(confinement.has_value());
  EXPECT_EQ(*confinement->resolve("app-1"), fs::canonical(logs_ / "app-1"));
  EXPECT_EQ(*confinement->resolve("link-inside"), fs::canonical(logs_ / "data" / "app-3"));
  for (const std::string& path :
       std::vector<std::string>{"link-to-secret", "relative-link", "dir-link/secret", "../outside/secret",
                                (base_ / "logs-old" / "app-2").string(), "/etc/passwd"}) {
    auto resolved = confinement->resolve(path);
    ASSERT_FALSE(resolved.has_value()) << path;
    EXPECT_EQ(resolved.error().code(), StatusCode::kOutsideRoot) << path;
    // The error does not say where a symlink points.
    EXPECT_EQ(resolved.error().message().find("secret", path.size()), std::string::npos) << resolved.error().message();
  }
  EXPECT_EQ(confinement->resolve("loop-a").error().message(), "loop-a: a loop of symbolic links");
  EXPECT_EQ(confinement->resolve("-").error().code(), StatusCode::kInvalidArgument);
}

TEST_F(PathConfinementTest, ALoopOfSymbolicLinksIsSaidToBeOneUnconfinedToo) {
  // The CLI reads what its user names, unconfined: a loop is not "no such file".
  const std::string loop = (logs_ / "loop-a").string();
  auto input = resolve_log_input(loop, PathConfinement());
  ASSERT_FALSE(input.has_value());
  EXPECT_EQ(input.error().message(), loop + ": a loop of symbolic links");
  EXPECT_EQ(resolve_log_input((logs_ / "absent").string(), PathConfinement()).error().code(), StatusCode::kNotFound);
}

TEST_F(PathConfinementTest, AListingRefusesEntriesAndLogDirectoriesThatLeadOutside) {
  auto confinement = PathConfinement::to(logs_.string());
  ASSERT_TRUE(confinement.has_value());
  auto listing = list_event_logs(logs_.string(), *confinement);
  ASSERT_TRUE(listing.has_value()) << listing.error().message();
  std::vector<std::string> names;
  for (const auto& path : listing->logs) names.push_back(fs::path(path).filename().string());
  EXPECT_EQ(names, (std::vector<std::string>{"app-1", "eventlog_v2_app-5", "link-inside"}));
  ASSERT_EQ(listing->refused.size(), 4u);
  for (const std::string& why : listing->refused) EXPECT_NE(why.find("outside the log directory"), std::string::npos);
  EXPECT_NE(listing->refused[0].find("dir-link"), std::string::npos);
  EXPECT_NE(listing->refused[1].find("events_2_app-4"), std::string::npos) << listing->refused[1];

  // Without a confinement (the CLI) everything the user's directory points at is read.
  auto open_listing = list_event_logs(logs_.string());
  ASSERT_TRUE(open_listing.has_value());
  EXPECT_EQ(open_listing->logs.size(), 6u);
  EXPECT_TRUE(open_listing->refused.empty());
}

TEST_F(PathConfinementTest, ARollingLogWithOnePartOutsideIsRefusedWhole) {
  auto confinement = PathConfinement::to(logs_.string());
  ASSERT_TRUE(confinement.has_value());
  auto leaky = resolve_log_input((logs_ / "eventlog_v2_app-4").string(), *confinement);
  ASSERT_FALSE(leaky.has_value());
  EXPECT_EQ(leaky.error().code(), StatusCode::kOutsideRoot);
  EXPECT_NE(leaky.error().message().find("events_2_app-4"), std::string::npos) << leaky.error().message();

  auto good = resolve_log_input((logs_ / "eventlog_v2_app-5").string(), *confinement);
  ASSERT_TRUE(good.has_value()) << good.error().message();
  ASSERT_EQ(good->parts.size(), 1u);
  EXPECT_EQ(good->parts[0].path, fs::canonical(logs_ / "eventlog_v2_app-5" / "events_1_app-5").string());

  // A file log named through a symlink inside keeps the name it was listed under.
  auto linked = resolve_log_input((logs_ / "link-inside").string(), *confinement);
  ASSERT_TRUE(linked.has_value());
  EXPECT_EQ(linked->parts[0].name, "link-inside");
  EXPECT_FALSE(resolve_log_input((logs_ / "link-to-secret").string(), *confinement).has_value());
}

}  // namespace
}  // namespace sf::io

// serve's log catalogue through symlinks: an entry or a part of a rolling log that resolves
// outside --log-dir is never listed, loaded, read for its tasks or downloaded, even when the
// symlink appears after the directory was listed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "catalog/log_catalog.h"
#include "history_server/rest_router.h"
#include "loggen/log_generator.h"

namespace sf::history_server {
namespace {

namespace fs = std::filesystem;

class ServeConfinement : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("sf-serve-confinement-" + std::to_string(::getpid()));
    fs::remove_all(base_);
    logs_ = base_ / "logs";
    fs::create_directories(logs_);
    fs::create_directories(base_ / "outside");
    loggen::GeneratorConfig inside = loggen::GeneratorConfig::small();
    inside.app_id = "app-20240101000000-0001";
    loggen::LogWriteOptions rolling;
    rolling.layout = loggen::LogLayout::kRolling;
    rolling_ = loggen::write_event_log(inside, rolling, logs_, nullptr).path;

    loggen::GeneratorConfig secret = loggen::GeneratorConfig::small();
    secret.app_id = "app-20240101000000-0666";
    outside_ = loggen::write_event_log(secret, {}, base_ / "outside", nullptr).path;
    fs::create_symlink(outside_, logs_ / "link-to-outside");
    const fs::path leaky = logs_ / "eventlog_v2_app-20240101000000-0667";
    fs::create_directories(leaky);
    std::ofstream(leaky / "appstatus_app-20240101000000-0667").flush();
    fs::create_symlink(outside_, leaky / "events_1_app-20240101000000-0667");

    catalog::CatalogOptions options;
    options.root = *io::PathConfinement::to(logs_.string());
    directory_ = std::make_unique<catalog::LogCatalog>(options);
  }
  void TearDown() override { fs::remove_all(base_); }

  fs::path base_, logs_, rolling_, outside_;
  std::unique_ptr<catalog::LogCatalog> directory_;
};

TEST_F(ServeConfinement, SymlinksOutOfTheDirectoryAreNotListed) {
  auto scan = directory_->rescan();
  ASSERT_TRUE(scan.has_value()) << scan.error().message();
  const auto apps = directory_->applications();
  ASSERT_EQ(apps.size(), 1u);
  EXPECT_EQ(apps[0].id, "app-20240101000000-0001");
  ASSERT_EQ(scan->unreadable.size(), 2u);
  for (const std::string& why : scan->unreadable) {
    EXPECT_NE(why.find("outside the log directory"), std::string::npos) << why;
  }
  RestRouter router(*directory_);
  EXPECT_EQ(router.handle("GET", "/api/v1/applications/app-20240101000000-0666").status, 404);
  EXPECT_EQ(router.handle("GET", "/api/v1/applications/app-20240101000000-0666/logs").status, 404);
  EXPECT_EQ(router.handle("GET", "/api/v1/applications").body.find("0666"), std::string::npos);
}

TEST_F(ServeConfinement, APartThatTurnsIntoASymlinkAfterListingIsRefusedOnUse) {
  ASSERT_TRUE(directory_->rescan().has_value());
  RestRouter router(*directory_);
  const std::string app = "/api/v1/applications/app-20240101000000-0001";
  // A new part appears as a symlink out, after the listing and before any request.
  fs::create_symlink(outside_, rolling_ / "events_9_app-20240101000000-0001");
  for (const std::string endpoint : {"/environment", "/stages", "/logs", "/stages/0/0/taskList"}) {
    const RestResponse response = router.handle("GET", app + endpoint);
    EXPECT_EQ(response.status, 404) << endpoint << ": " << response.body;
    EXPECT_EQ(response.body.find("0666"), std::string::npos) << endpoint << ": " << response.body;
  }
  // Once it is gone the log is served again.
  fs::remove(rolling_ / "events_9_app-20240101000000-0001");
  EXPECT_EQ(router.handle("GET", app + "/environment").status, 200);
  EXPECT_EQ(router.handle("GET", app + "/logs").status, 200);
}

}  // namespace
}  // namespace sf::history_server

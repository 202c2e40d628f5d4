// serve over a log rewritten while it serves: the next request answers from the new log, without
// waiting for a rescan, and so do the task tables read from it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "catalog/log_catalog.h"
#include "history_server/rest_router.h"
#include "loggen/log_generator.h"

namespace sf::history_server {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

TEST(ServeChangedLog, ARewrittenLogIsServedFreshAndSoAreItsTaskTables) {
  const fs::path dir = fs::temp_directory_path() / ("sf-serve-changed-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  loggen::GeneratorConfig config = loggen::GeneratorConfig::small();
  config.app_id = "app-20240101000000-0001";
  config.actions = 3;
  config.tasks_per_stage = 40;
  const fs::path log = loggen::write_event_log(config, {}, dir, nullptr).path;

  catalog::CatalogOptions options;
  options.root = *io::PathConfinement::to(dir.string());
  catalog::LogCatalog logs(options);
  ASSERT_TRUE(logs.rescan().has_value());
  const RestRouter router(logs);
  auto get = [&](const std::string& target) {
    const RestResponse response = router.handle("GET", "/api/v1/applications/app-20240101000000-0001" + target);
    EXPECT_EQ(response.status, 200) << target << ": " << response.body;
    return response.status == 200 ? json::parse(response.body) : json();
  };
  const size_t jobs_before = get("/jobs").size();
  const size_t tasks_before = get("/stages/0/0/taskList?length=100000").size();
  EXPECT_GE(tasks_before, 40u);  // every task, and the attempts retried
  EXPECT_EQ(get("/jobs").size(), jobs_before);
  EXPECT_EQ(logs.logs_read(), 1u);

  config.actions = 6;
  config.tasks_per_stage = 70;
  ASSERT_EQ(loggen::write_event_log(config, {}, dir, nullptr).path, log);
  fs::last_write_time(log, fs::last_write_time(log) + 2s);  // a change even within one clock tick
  EXPECT_GT(get("/jobs").size(), jobs_before);
  EXPECT_GE(get("/stages/0/0/taskList?length=100000").size(), 70u);
  EXPECT_EQ(logs.logs_read(), 2u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sf::history_server

// serve and mcp in one process over one catalogue: a log either of them loaded is read once for
// both.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "history_server/rest_router.h"
#include "loggen/log_generator.h"
#include "mcp/session.h"
#include "mcp_harness.h"

namespace sf::mcp {
namespace {

namespace fs = std::filesystem;

TEST(SharedCatalog, ALogMcpAnalyzedIsServedWithoutReadingItAgain) {
  const fs::path dir = fs::temp_directory_path() / ("sf-shared-catalog-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto config = loggen::GeneratorConfig::small();
  config.app_id = "app-20240101000000-0001";
  const fs::path log = loggen::write_event_log(config, {}, dir, nullptr).path;

  ServerOptions options;
  options.catalog = make_log_catalog(*io::PathConfinement::to(dir.string()));
  options.store_location = (dir / "store.db").string();
  ASSERT_TRUE(options.catalog->rescan().has_value());
  const history_server::RestRouter router(*options.catalog);
  testing::McpHarness harness(options);
  harness.initialize();

  const Json analyzed = harness.call_tool("analyze_event_log", {{"path", log.filename().string()}});
  ASSERT_FALSE(analyzed["isError"].get<bool>()) << analyzed.dump();
  const history_server::RestResponse jobs = router.handle("GET", "/api/v1/applications/app-20240101000000-0001/jobs");
  EXPECT_EQ(jobs.status, 200) << jobs.body;
  EXPECT_EQ(options.catalog->logs_read(), 1u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sf::mcp

// sparkforensics mcp: the Model Context Protocol server over stdio, for AI assistants.
// Everything it says comes from src/mcp, over the same library calls as the other commands.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/log_reading.h"
#include "cli/store_location.h"
#include "mcp/stdio_server.h"

namespace sf::cli {

namespace {

struct McpCliOptions {
  std::string log_dir;
  std::string store;
  LogReadFlags read;
};

int run_mcp(const McpCliOptions& options) {
  auto settings = log_read_settings(options.read);
  if (!settings) return report_error(settings.error().message(), kExitFailed);
  io::PathConfinement log_root;
  if (!options.log_dir.empty()) {
    auto confined = io::PathConfinement::to(options.log_dir);
    if (!confined) return report_error(confined.error().message(), kExitFailed);
    log_root = std::move(*confined);
  }
  mcp::ServerOptions server_options;
  server_options.catalog =
      mcp::make_log_catalog(std::move(log_root), settings->load,
                            std::make_shared<const analysis::AnalysisOptions>(std::move(settings->analysis)));
  server_options.store_location = options.store;
  return mcp::run_stdio_server(std::move(server_options)) == 0 ? kExitOk : kExitFailed;
}

}  // namespace

void register_mcp(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<McpCliOptions>();
  CLI::App* cmd =
      app.add_subcommand("mcp", "Serve the Model Context Protocol over stdin/stdout for AI assistants (docs/mcp.md)");
  cmd->add_option("--log-dir", options->log_dir,
                  "The directory whose event logs the tools may read (list_applications lists it); paths outside it "
                  "are refused")
      ->type_name("DIR");
  add_store_option(*cmd, options->store);
  add_log_read_flags(*cmd, options->read);
  cmd->callback([options, &exit_code] { exit_code = run_mcp(*options); });
}

}  // namespace sf::cli

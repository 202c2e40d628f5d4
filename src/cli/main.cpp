// sparkforensics: performance forensics for Apache Spark event logs.
//
// main() only parses arguments and dispatches through the command table below; each command
// lives in its own file and calls the library.
#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>

#include "cli/commands.h"

namespace {

struct CommandEntry {
  const char* name;
  void (*register_command)(CLI::App& app, int& exit_code);
};

constexpr CommandEntry kCommands[] = {
    {"analyze", &sf::cli::register_analyze},
    {"compare", &sf::cli::register_compare},
    {"store", &sf::cli::register_store},
    {"verdict", &sf::cli::register_verdict},
    {"serve", &sf::cli::register_serve},
    {"mcp", &sf::cli::register_mcp},
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"SparkForensics: why a Spark application was slow or expensive, from its event log"};
  app.set_version_flag("--version", "sparkforensics 0.1.0");
  app.require_subcommand(1);
  int exit_code = sf::cli::kExitOk;
  for (const auto& command : kCommands) command.register_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : sf::cli::kExitUsage;
  } catch (const std::exception& e) {
    // Nothing below main should throw; if something does, say so plainly rather than abort.
    std::fprintf(stderr, "sparkforensics: internal error: %s\n", e.what());
    return sf::cli::kExitError;
  }
  return exit_code;
}

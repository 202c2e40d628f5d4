// The subcommands of the sparkforensics program. Each registers itself on the CLI11 app and
// does its work in the callback; main() holds the table and nothing else.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <string_view>

namespace sf::cli {

// The exit codes of every command, one rule (README.md, "Exit codes"):
inline constexpr int kExitOk = 0;           // done; warnings on stderr may say a log loaded partially
inline constexpr int kExitCheckFailed = 1;  // a check the user asked for failed: compare --budget, verdict --fail-on
// The command could not do what was asked: bad usage, a log or file that cannot be read, a store
// that cannot be opened, an output that cannot be written. With several logs, the readable ones
// are still analyzed.
inline constexpr int kExitFailed = 2;

// Prints "sparkforensics: <message>" on stderr: the one form every command's errors take.
inline void print_error(std::string_view message) {
  std::fprintf(stderr, "sparkforensics: %.*s\n", static_cast<int>(message.size()), message.data());
}

// print_error, then `exit_code`, for a command to return.
inline int report_error(std::string_view message, int exit_code) {
  print_error(message);
  return exit_code;
}

// Adds the subcommand to `app`; its callback stores the exit code in `exit_code`.
void register_analyze(CLI::App& app, int& exit_code);
void register_compare(CLI::App& app, int& exit_code);
void register_store(CLI::App& app, int& exit_code);       // store ingest|list|show|policy
void register_verdict(CLI::App& app, int& exit_code);     // verdict history|run|batch
void register_serve(CLI::App& app, int& exit_code);       // serve --log-dir DIR (REST API)
void register_mcp(CLI::App& app, int& exit_code);         // the MCP server over stdio
void register_thresholds(CLI::App& app, int& exit_code);  // the detector thresholds --config may set

}  // namespace sf::cli

// sparkforensics: performance forensics for Apache Spark event logs.
//
// main() only parses arguments and dispatches through the command table below; each command
// lives in its own file and calls the library.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/commands.h"

namespace {

struct CommandEntry {
  const char* name;
  void (*register_command)(CLI::App& app, int& exit_code);
};

constexpr CommandEntry kCommands[] = {
    {"analyze", &sf::cli::register_analyze},       {"compare", &sf::cli::register_compare},
    {"store", &sf::cli::register_store},           {"verdict", &sf::cli::register_verdict},
    {"serve", &sf::cli::register_serve},           {"mcp", &sf::cli::register_mcp},
    {"thresholds", &sf::cli::register_thresholds},
};

// Levenshtein distance, for "did you mean".
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// CLI11 reads a word that names no subcommand as an extra argument ("A subcommand is required"),
// so a misspelled command is caught here first, at whichever level of the table it is: the
// message names it, the nearest command and the commands there are.
bool unknown_command(const CLI::App& app, int argc, char** argv) {
  const CLI::App* level = &app;
  std::string path = "sparkforensics";
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    const auto commands = level->get_subcommands([](const CLI::App*) { return true; });
    if (word.empty() || word.front() == '-' || commands.empty()) return false;
    const CLI::App* next = nullptr;
    std::string names, nearest;
    size_t nearest_distance = 3;  // at most two edits away
    for (const CLI::App* command : commands) {
      const std::string& name = command->get_name();
      if (name == word) next = command;
      names += (names.empty() ? "" : ", ") + name;
      if (const size_t d = edit_distance(word, name); d < nearest_distance) {
        nearest_distance = d;
        nearest = name;
      }
    }
    if (next == nullptr) {
      sf::cli::print_error(fmt::format("unknown command '{}'{}; the commands of {} are {} (--help says more)", word,
                                       nearest.empty() ? "" : fmt::format(" (did you mean '{}'?)", nearest), path,
                                       names));
      return true;
    }
    level = next;
    path += " " + next->get_name();
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"SparkForensics: why a Spark application was slow or expensive, from its event log"};
  app.set_version_flag("--version", "sparkforensics 0.1.0");
  app.require_subcommand(1);
  int exit_code = sf::cli::kExitOk;
  for (const auto& command : kCommands) command.register_command(app, exit_code);
  if (unknown_command(app, argc, argv)) return sf::cli::kExitFailed;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? sf::cli::kExitOk : sf::cli::kExitFailed;
  } catch (const std::exception& e) {
    // Nothing below main should throw; if something does, say so plainly rather than abort.
    sf::cli::print_error(fmt::format("internal error: {}", e.what()));
    return sf::cli::kExitFailed;
  }
  return exit_code;
}

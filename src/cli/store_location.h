// Where the result store is when a command is not told: $SPARKFORENSICS_STORE, else
// ./sparkforensics-results.db (an SQLite file created on first use).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace sf::cli {

std::string default_store_location();

// Adds --store to `cmd`, defaulting as above.
void add_store_option(CLI::App& cmd, std::string& location);

// Parses KEY=VALUE; false when there is no '=' or the key is empty.
bool split_key_value(const std::string& text, std::string& key, std::string& value);

}  // namespace sf::cli

#include "cli/store_location.h"

#include <cstdlib>

namespace sf::cli {

std::string default_store_location() {
  const char* env = std::getenv("SPARKFORENSICS_STORE");
  return env != nullptr && *env != '\0' ? env : "sparkforensics-results.db";
}

void add_store_option(CLI::App& cmd, std::string& location) {
  location = default_store_location();
  cmd.add_option("--store", location, "Result store: an SQLite file (store ingest creates it) or a postgresql:// URL")
      ->type_name("PATH|URL")
      // Not the value itself: a URL in the environment may hold a password.
      ->default_str("$SPARKFORENSICS_STORE, else sparkforensics-results.db");
}

bool split_key_value(const std::string& text, std::string& key, std::string& value) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  key = text.substr(0, eq);
  value = text.substr(eq + 1);
  return true;
}

}  // namespace sf::cli

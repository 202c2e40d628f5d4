// The store's tables and their migrations, shared by the SQLite and PostgreSQL stores.
//
// Migration i (1-based) takes a store from schema version i - 1 to i; a store opened by a newer
// program is migrated forward on open, inside one transaction, and a store from a newer
// program than this one is refused rather than misread. Each migration is a list of statements
// written in the SQL both databases accept, with one placeholder: {seq} for the auto-numbered
// sequence column's type.
#pragma once

#include <string>
#include <vector>

namespace sf::results {

struct Migration {
  const char* description;
  std::vector<std::string> statements;
};

// For SQLite `seq_type` is "INTEGER PRIMARY KEY AUTOINCREMENT", for PostgreSQL "BIGSERIAL PRIMARY KEY".
std::vector<Migration> store_migrations(const std::string& seq_type);

}  // namespace sf::results

// The store's tables and their migrations, shared by the SQLite and PostgreSQL stores.
//
// Migration i (1-based) takes a store from schema version i - 1 to i; a store opened by a newer
// program is migrated forward on open, inside one transaction, and a store from a newer
// program than this one is refused rather than misread. Each migration is a list of statements
// written in the SQL both databases accept, with one placeholder: {seq} for the auto-numbered
// sequence column's type.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace sf::results {

struct Migration {
  const char* description;
  std::vector<std::string> statements;
};

// For SQLite `seq_type` is "INTEGER PRIMARY KEY AUTOINCREMENT", for PostgreSQL "BIGSERIAL PRIMARY KEY".
std::vector<Migration> store_migrations(const std::string& seq_type);

// Takes a store at schema `version` to this program's: runs each later migration's statements
// through `run`, then records its version in schema_version. A store from a newer program is
// refused, naming `store`. The caller holds the transaction and rolls it back on an error.
Status apply_store_migrations(int64_t version, const std::string& seq_type, std::string_view store,
                              const std::function<Status(const std::string&)>& run);

}  // namespace sf::results

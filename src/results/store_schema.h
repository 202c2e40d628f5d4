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

// The queries a verdict asks both stores (Store::target_keys and the rest), in the SQL both
// accept, with $1, $2, ... placeholders: PostgreSQL's, and SQLite's named parameters, numbered in
// the order they first appear (so each query uses them in that order). Keys are the columns
// seq, id, subject, tree; results the columns seq, id, document.
namespace store_sql {

// $1: the name: the result of that id and those of that revision; with `latest`, the latest
// result of each subject as well.
std::string target_keys(bool latest);
// $1: a prefix of result ids (a scan of the id column, asked only when target_keys found nothing).
extern const char* const kPrefixKeys;
// $1 .. $n: the subjects; $n+1: the native order they precede.
std::string subject_keys(size_t subjects);
// $1 .. $n: the native orders.
std::string results_at(size_t orders);
// $1: the run key.
extern const char* const kRunResults;
// $1: a result's tree (not ""), $2: one of its parents: the edge, once (revision_parents, the
// graph RevisionGraph builds: every parent any result of the tree records). Ingest writes it.
extern const char* const kRevisionParent;
// Every edge, an upper bound of the distance to any ancestor (what kAncestors walks at most,
// so recorded parents that form a cycle cannot make it walk forever).
extern const char* const kParentCount;
// $1: the tree; $2: kParentCount's bound. Rows: an ancestor tree, its distance.
extern const char* const kAncestors;

}  // namespace store_sql

}  // namespace sf::results

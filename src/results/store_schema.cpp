#include "results/store_schema.h"

#include <fmt/format.h>

namespace sf::results {

std::vector<Migration> store_migrations(const std::string& seq_type) {
  return {
      {"results, their parents and quantities; identity policies",
       {"CREATE TABLE results (seq " + seq_type +
            ", id TEXT NOT NULL UNIQUE, subject TEXT NOT NULL, tree TEXT NOT NULL, run_key TEXT NOT NULL,"
            " status TEXT NOT NULL, document TEXT NOT NULL)",
        "CREATE TABLE result_parents (result_seq BIGINT NOT NULL REFERENCES results(seq), parent_tree TEXT NOT NULL,"
        " PRIMARY KEY (result_seq, parent_tree))",
        "CREATE TABLE quantities (result_seq BIGINT NOT NULL REFERENCES results(seq), name TEXT NOT NULL,"
        " value DOUBLE PRECISION NOT NULL, unit TEXT NOT NULL, direction TEXT NOT NULL, deterministic INTEGER NOT NULL,"
        " PRIMARY KEY (result_seq, name))",
        "CREATE TABLE identity_policies (version BIGINT PRIMARY KEY, document TEXT NOT NULL)"}},
      {"indexes for the comparator's lookups",
       {"CREATE INDEX results_subject ON results (subject)", "CREATE INDEX results_tree ON results (tree)",
        "CREATE INDEX results_run_key ON results (run_key)"}},
      {"verdict queries: a subject's results in native order (replaces the subject index), and the revision"
       " graph's edges once each, however many results record them",
       {"CREATE INDEX results_subject_seq ON results (subject, seq)", "DROP INDEX results_subject",
        "CREATE TABLE revision_parents (tree TEXT NOT NULL, parent_tree TEXT NOT NULL, PRIMARY KEY (tree, "
        "parent_tree))",
        "INSERT INTO revision_parents (tree, parent_tree) SELECT DISTINCT r.tree, p.parent_tree FROM results r"
        " JOIN result_parents p ON p.result_seq = r.seq WHERE r.tree <> ''"}},
  };
}

Status apply_store_migrations(int64_t version, const std::string& seq_type, std::string_view store,
                              const std::function<Status(const std::string&)>& run) {
  const std::vector<Migration> migrations = store_migrations(seq_type);
  if (version > static_cast<int64_t>(migrations.size())) {
    return Status::Unsupported(
        fmt::format("{}: store schema version {} is newer than this program's {}", store, version, migrations.size()));
  }
  for (auto i = static_cast<size_t>(version); i < migrations.size(); ++i) {
    for (const std::string& sql : migrations[i].statements) {
      if (Status s = run(sql); !s.ok()) return s.with_context(fmt::format("migration {}", i + 1));
    }
    if (Status s = run(fmt::format("UPDATE schema_version SET version = {}", i + 1)); !s.ok()) return s;
  }
  return Status();
}

namespace store_sql {

namespace {

std::string placeholders(size_t first, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) out += fmt::format("{}${}", i == 0 ? "" : ", ", first + i);
  return out;
}

}  // namespace

std::string target_keys(bool latest) {
  return fmt::format(
      "SELECT seq, id, subject, tree FROM results WHERE seq IN ("
      "SELECT seq FROM results WHERE id = $1 UNION SELECT seq FROM results WHERE tree = $1 AND length($1) > 0{})"
      " ORDER BY seq",
      latest ? " UNION SELECT MAX(seq) FROM results GROUP BY subject" : "");
}

const char* const kPrefixKeys =
    "SELECT seq, id, subject, tree FROM results WHERE substr(id, 1, length($1)) = $1 AND length($1) > 0 ORDER BY seq";

std::string subject_keys(size_t subjects) {
  return fmt::format("SELECT seq, id, subject, tree FROM results WHERE subject IN ({}) AND seq < ${} ORDER BY seq",
                     placeholders(1, subjects), subjects + 1);
}

std::string results_at(size_t orders) {
  return fmt::format("SELECT seq, id, document FROM results WHERE seq IN ({}) ORDER BY seq", placeholders(1, orders));
}

const char* const kRunResults = "SELECT seq, id, document FROM results WHERE run_key = $1 ORDER BY seq";

const char* const kRevisionParent =
    "INSERT INTO revision_parents (tree, parent_tree) VALUES ($1, $2) ON CONFLICT DO NOTHING";

const char* const kParentCount = "SELECT COUNT(*) FROM revision_parents";

// Breadth first in effect: a tree's distance is the shortest walk to it.
const char* const kAncestors =
    "WITH RECURSIVE walk(tree, depth) AS ("
    "SELECT CAST($1 AS TEXT), 0"
    " UNION SELECT p.parent_tree, w.depth + 1 FROM walk w JOIN revision_parents p ON p.tree = w.tree"
    " WHERE w.depth < $2)"
    " SELECT tree, MIN(depth) FROM walk WHERE tree <> $1 GROUP BY tree";

}  // namespace store_sql

}  // namespace sf::results

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

}  // namespace sf::results

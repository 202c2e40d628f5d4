#include "results/store_schema.h"

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

}  // namespace sf::results

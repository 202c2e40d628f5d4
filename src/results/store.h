// Store: where result documents live, behind one interface with two implementations.
//
// - SQLite (store_sqlite.cpp) for a file path: embedded, created on first use, WAL journal so
//   readers never block the writer, every ingest one IMMEDIATE transaction.
// - PostgreSQL (store_postgres.cpp) for a postgresql:// URL: a shared store for a team or CI.
// Both keep the same schema, versioned and migrated forward on open (store_schema.h), and pass
// the same test suite. Results are immutable: an ingest of a document already present (same
// content id) changes nothing and says so. Ingests are serialized by the store so the native
// order (a sequence number) is the commit order, and a comparison made earlier sees exactly a
// prefix of what a later one sees.
//
// The identity policy lives in the store too, versioned, so every reader sees the same series
// membership. With no policy stored, the built-in default (version 0) applies.
//
// Thread-safety: a Store object is used by one thread at a time; any number of processes and
// Store objects may share one store.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "results/identity_policy.h"
#include "results/result.h"

namespace sf::results {

struct IngestOutcome {
  std::string id;
  int64_t order = 0;
  bool already_present = false;
};

struct StoreOptions {
  // False for a reader (store list, verdict): an SQLite store that does not exist is NotFound,
  // and no empty file is left behind. A writer creates it on first use.
  bool create_if_missing = true;
  // Test hook: called inside the ingest transaction after every row is written, before commit.
  // Crash tests stop the process here.
  std::function<void()> before_commit;
};

class Store {
 public:
  virtual ~Store() = default;

  virtual Result<IngestOutcome> ingest(const ResultDocument& result) = 0;
  // Every result in native order.
  Result<std::vector<StoredResult>> results() { return results_after(0); }
  // The results ingested after the one of native order `order`, in native order. Orders are
  // assigned at commit, so a reader that has seen up to `order` has seen every earlier result:
  // results_after(its last order) is exactly what it has not seen.
  virtual Result<std::vector<StoredResult>> results_after(int64_t order) = 0;
  // The result with this id, or with this unique id prefix; nullopt when none.
  virtual Result<std::optional<StoredResult>> find(const std::string& id_or_prefix) = 0;

  // What a verdict needs, answered by the store with SQL over its index columns, so a verdict reads
  // the rows it uses and not every result (store_series.h puts them together). Native order
  // throughout.
  //
  // The keys a target name can mean (resolve_targets): the result of that id, those of that
  // revision, and for "latest" the latest result of each subject.
  virtual Result<std::vector<ResultKey>> target_keys(const std::string& name) = 0;
  // The keys of the results whose id starts with `prefix` (not ""): a scan of the ids.
  virtual Result<std::vector<ResultKey>> prefix_keys(const std::string& prefix) = 0;
  // The keys of the results of these subjects ingested before the one of native order `before`.
  virtual Result<std::vector<ResultKey>> subject_keys(const std::vector<std::string>& subjects, int64_t before) = 0;
  // The results of these native orders (those present), in native order.
  virtual Result<std::vector<StoredResult>> results_at(const std::vector<int64_t>& orders) = 0;
  // The results of one planned run (procedure.run_key).
  virtual Result<std::vector<StoredResult>> run_results(const std::string& run_key) = 0;
  // Every strict ancestor of `tree` with its distance in generations over the parents every result
  // records (RevisionGraph::ancestors, walked by a recursive query).
  virtual Result<std::map<std::string, int64_t>> ancestors(const std::string& tree) = 0;

  virtual Result<IdentityPolicy> identity_policy() = 0;
  // Stores the next version; policy.version must be the current version + 1.
  virtual Status set_identity_policy(const IdentityPolicy& policy) = 0;

  // Where the store is, for a reader: the SQLite file's path, or "postgresql database DB on HOST"
  // (never a URL's password).
  virtual std::string description() const = 0;

  virtual Result<int64_t> schema_version() = 0;
  // Rows of the quantities table for a result, for consistency checks: the document's own
  // quantities are the source of truth, this index must agree with them.
  virtual Result<int64_t> indexed_quantity_count(const std::string& id) = 0;
};

bool is_postgres_location(const std::string& location);

// Opens the store at `location`: a file path for SQLite (created on first use unless
// options.create_if_missing is false), or a postgresql:// URL.
Result<std::unique_ptr<Store>> open_store(const std::string& location, const StoreOptions& options = {});

Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path, const StoreOptions& options);
Result<std::unique_ptr<Store>> open_postgres_store(const std::string& url, const StoreOptions& options);

}  // namespace sf::results

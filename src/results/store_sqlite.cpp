// The SQLite store: one file, WAL journal, IMMEDIATE transactions (so two writers queue on the
// busy timeout instead of failing half-way), migrations on open.
#include <fmt/format.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "results/result_json.h"
#include "results/store.h"
#include "results/store_schema.h"

namespace sf::results {

namespace {

constexpr int kBusyTimeoutMs = 60000;

class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) stmt_ = nullptr;
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  bool ok() const { return stmt_ != nullptr; }
  Statement& bind(int index, const std::string& text) {
    sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& bind(int index, int64_t value) {
    sqlite3_bind_int64(stmt_, index, value);
    return *this;
  }
  Statement& bind(int index, double value) {
    sqlite3_bind_double(stmt_, index, value);
    return *this;
  }
  int step() { return sqlite3_step(stmt_); }
  int64_t int64(int column) const { return sqlite3_column_int64(stmt_, column); }
  std::string text(int column) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return p == nullptr ? std::string() : std::string(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
  }

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

class SqliteStore final : public Store {
 public:
  SqliteStore(sqlite3* db, std::string path, StoreOptions options)
      : db_(db), path_(std::move(path)), options_(std::move(options)) {}
  ~SqliteStore() override { sqlite3_close_v2(db_); }

  std::string description() const override { return path_; }

  Status initialize() {
    sqlite3_busy_timeout(db_, kBusyTimeoutMs);
    // Switching to WAL needs a moment alone with the file; a concurrent first open may be busy.
    for (int attempt = 0;; ++attempt) {
      Statement wal(db_, "PRAGMA journal_mode=WAL");
      if (wal.ok() && wal.step() == SQLITE_ROW && wal.text(0) == "wal") break;
      const int code = sqlite3_errcode(db_);
      if (attempt == 50 || (code != SQLITE_BUSY && code != SQLITE_LOCKED))
        return error("cannot open as a result store");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (Status s = exec("PRAGMA foreign_keys=ON"); !s.ok()) return s;
    if (Status s = exec("PRAGMA synchronous=NORMAL"); !s.ok()) return s;
    // A reader writes nothing unless the schema is behind, so it skips the check (linear in the
    // store's size: a verdict on a store of 10,000 results spent most of its time in it) and
    // reads only the pages it needs; a damaged one is still an error when read.
    if (options_.create_if_missing || schema_behind()) {
      if (Status s = check_integrity(); !s.ok()) return s;
    }
    return migrate();
  }

  // Whether opening this store migrates it (writes into it); true when that cannot be read.
  bool schema_behind() {
    Statement select(db_, "SELECT version FROM schema_version");
    return !select.ok() || select.step() != SQLITE_ROW ||
           select.int64(0) < static_cast<int64_t>(store_migrations("").size());
  }

  // A damaged file is refused before anything is written into it (by a writer, or a reader that
  // migrates the schema): SQLite writes into a file
  // with corrupt pages in the middle as long as the pages it touches look sound, and the
  // damage then spreads. quick_check reads every page, linear in the store's size (a store of
  // ten thousand results is a few MB), without the index cross-checks of integrity_check.
  Status check_integrity() {
    Statement check(db_, "PRAGMA quick_check(1)");
    if (!check.ok()) return Status::Corruption(fmt::format("{}: the result store is damaged: {}", path_, failure()));
    const int rc = check.step();
    if (rc == SQLITE_ROW && check.text(0) == "ok") return {};
    const std::string why = rc == SQLITE_ROW ? check.text(0) : failure();
    return Status::Corruption(fmt::format(
        "{}: the result store is damaged ({}); nothing was written. Restore it from a backup, or start a new store "
        "and ingest the results again",
        path_, why));
  }

  Result<IngestOutcome> ingest(const ResultDocument& result) override {
    const std::string id = result_id(result);
    if (Status s = exec("BEGIN IMMEDIATE"); !s.ok()) return fail(s);
    auto outcome = ingest_in_transaction(result, id);
    if (!outcome) {
      exec("ROLLBACK").permit_unchecked();
      return outcome;
    }
    if (options_.before_commit && !outcome->already_present) options_.before_commit();
    if (Status s = exec("COMMIT"); !s.ok()) {
      exec("ROLLBACK").permit_unchecked();
      return fail(s);
    }
    return outcome;
  }

  Result<std::vector<StoredResult>> results_after(int64_t order) override {
    Statement select(db_, "SELECT seq, id, document FROM results WHERE seq > ?1 ORDER BY seq");
    if (!select.ok()) return fail(error("reading results"));
    select.bind(1, order);
    return read_results(select);
  }

  Result<std::optional<StoredResult>> find(const std::string& id_or_prefix) override {
    auto exact = query_results("SELECT seq, id, document FROM results WHERE id = ?1", id_or_prefix);
    if (!exact) return fail(exact.error());
    if (!exact->empty()) return std::optional<StoredResult>(exact->front());
    auto prefixed = query_results(
        "SELECT seq, id, document FROM results WHERE substr(id, 1, length(?1)) = ?1 ORDER BY seq", id_or_prefix);
    if (!prefixed) return fail(prefixed.error());
    if (prefixed->size() > 1)
      return fail(
          Status::InvalidArgument(fmt::format("{}: ambiguous id prefix ({} results)", id_or_prefix, prefixed->size())));
    if (prefixed->empty()) return std::optional<StoredResult>();
    return std::optional<StoredResult>(prefixed->front());
  }

  Result<std::vector<ResultKey>> target_keys(const std::string& name) override {
    return target_keys_of(store_sql::target_keys(name == "latest"), name);
  }

  Result<std::vector<ResultKey>> prefix_keys(const std::string& prefix) override {
    return target_keys_of(store_sql::kPrefixKeys, prefix);
  }

  Result<std::vector<ResultKey>> subject_keys(const std::vector<std::string>& subjects, int64_t before) override {
    Statement select(db_, store_sql::subject_keys(subjects.size()));
    if (!select.ok()) return fail(error("reading a series"));
    int index = 1;
    for (const std::string& subject : subjects) select.bind(index++, subject);
    select.bind(index, before);
    return read_keys(select);
  }

  Result<std::vector<StoredResult>> results_at(const std::vector<int64_t>& orders) override {
    if (orders.empty()) return std::vector<StoredResult>();
    Statement select(db_, store_sql::results_at(orders.size()));
    if (!select.ok()) return fail(error("reading results"));
    for (size_t i = 0; i < orders.size(); ++i) select.bind(static_cast<int>(i + 1), orders[i]);
    return read_results(select);
  }

  Result<std::vector<StoredResult>> run_results(const std::string& run_key) override {
    Statement select(db_, store_sql::kRunResults);
    if (!select.ok()) return fail(error("reading a run"));
    select.bind(1, run_key);
    return read_results(select);
  }

  Result<std::map<std::string, int64_t>> ancestors(const std::string& tree) override {
    Statement count(db_, store_sql::kParentCount);
    if (!count.ok() || count.step() != SQLITE_ROW) return fail(error("reading the revision graph"));
    Statement select(db_, store_sql::kAncestors);
    if (!select.ok()) return fail(error("reading the revision graph"));
    select.bind(1, tree).bind(2, count.int64(0));
    std::map<std::string, int64_t> out;
    for (int rc = select.step(); rc != SQLITE_DONE; rc = select.step()) {
      if (rc != SQLITE_ROW) return fail(error("reading the revision graph"));
      out.emplace(select.text(0), select.int64(1));
    }
    return out;
  }

  Result<IdentityPolicy> identity_policy() override {
    Statement select(db_, "SELECT version, document FROM identity_policies ORDER BY version DESC LIMIT 1");
    if (!select.ok()) return fail(error("reading the identity policy"));
    const int rc = select.step();
    if (rc == SQLITE_DONE) return IdentityPolicy{};
    if (rc != SQLITE_ROW) return fail(error("reading the identity policy"));
    return parse_identity_policy(select.text(1), fmt::format("{} identity policy v{}", path_, select.int64(0)));
  }

  Status set_identity_policy(const IdentityPolicy& policy) override {
    if (Status s = exec("BEGIN IMMEDIATE"); !s.ok()) return s;
    Statement current(db_, "SELECT COALESCE(MAX(version), 0) FROM identity_policies");
    if (!current.ok() || current.step() != SQLITE_ROW) {
      exec("ROLLBACK").permit_unchecked();
      return error("reading the identity policy version");
    }
    const int64_t latest = current.int64(0);
    if (policy.version != latest + 1) {
      exec("ROLLBACK").permit_unchecked();
      return Status::InvalidArgument(fmt::format(
          "identity policy version {} is not the next one (the store has version {})", policy.version, latest));
    }
    Statement insert(db_, "INSERT INTO identity_policies (version, document) VALUES (?1, ?2)");
    if (!insert.ok() || insert.bind(1, policy.version).bind(2, identity_policy_to_json(policy)).step() != SQLITE_DONE) {
      exec("ROLLBACK").permit_unchecked();
      return error("storing the identity policy");
    }
    return exec("COMMIT");
  }

  Result<int64_t> schema_version() override {
    Statement select(db_, "SELECT version FROM schema_version");
    if (!select.ok() || select.step() != SQLITE_ROW) return fail(error("reading the schema version"));
    return select.int64(0);
  }

  Result<int64_t> indexed_quantity_count(const std::string& id) override {
    Statement select(db_, "SELECT COUNT(*) FROM quantities q JOIN results r ON q.result_seq = r.seq WHERE r.id = ?1");
    if (!select.ok() || select.bind(1, id).step() != SQLITE_ROW) return fail(error("counting quantities"));
    return select.int64(0);
  }

 private:
  Status error(std::string_view what) const {
    return Status::IOError(fmt::format("{}: {}: {}", path_, what, failure()));
  }

  // SQLite's words, and what a failed write means: "disk I/O error" alone does not say what
  // to do. (sqlite3_system_errno is no help here: by the time it is read, the rollback's own
  // system calls have replaced the write's errno.)
  std::string failure() const {
    std::string text = sqlite3_errmsg(db_);
    const int code = sqlite3_extended_errcode(db_);
    if (code == SQLITE_FULL || code == SQLITE_IOERR_WRITE || code == SQLITE_IOERR_FSYNC ||
        code == SQLITE_IOERR_TRUNCATE) {
      text += " (a write to the store failed: check the free space and file size limits where it lives)";
    }
    return text;
  }

  Status exec(const std::string& sql) {
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK) return {};
    return Status::IOError(fmt::format("{}: {}", path_, failure()));
  }

  Status migrate() {
    if (Status s = exec("BEGIN IMMEDIATE"); !s.ok()) return s;
    auto rollback = [this](Status s) {
      exec("ROLLBACK").permit_unchecked();
      return s;
    };
    if (Status s = exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"); !s.ok())
      return rollback(s);
    int64_t version = 0;
    {
      Statement select(db_, "SELECT version FROM schema_version");
      if (!select.ok()) return rollback(error("reading the schema version"));
      if (select.step() == SQLITE_ROW) {
        version = select.int64(0);
      } else if (Status s = exec("INSERT INTO schema_version (version) VALUES (0)"); !s.ok()) {
        return rollback(s);
      }
    }
    auto run = [this](const std::string& sql) { return exec(sql); };
    if (Status s = apply_store_migrations(version, "INTEGER PRIMARY KEY AUTOINCREMENT", path_, run); !s.ok()) {
      return rollback(s);
    }
    return exec("COMMIT");
  }

  Result<IngestOutcome> ingest_in_transaction(const ResultDocument& result, const std::string& id) {
    Statement existing(db_, "SELECT seq FROM results WHERE id = ?1");
    if (!existing.ok()) return fail(error("ingest"));
    if (existing.bind(1, id).step() == SQLITE_ROW) return IngestOutcome{id, existing.int64(0), true};
    Statement insert(
        db_, "INSERT INTO results (id, subject, tree, run_key, status, document) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    if (!insert.ok()) return fail(error("ingest"));
    insert.bind(1, id).bind(2, result.subject).bind(3, result.revision.tree).bind(4, result.procedure.run_key);
    insert.bind(5, std::string(to_string(result.status))).bind(6, result_to_json(result));
    if (insert.step() != SQLITE_DONE) return fail(error("ingest"));
    const int64_t seq = sqlite3_last_insert_rowid(db_);
    for (const std::string& parent : result.revision.parents) {
      Statement p(db_, "INSERT OR IGNORE INTO result_parents (result_seq, parent_tree) VALUES (?1, ?2)");
      if (!p.ok() || p.bind(1, seq).bind(2, parent).step() != SQLITE_DONE) return fail(error("ingest"));
      if (result.revision.tree.empty()) continue;
      Statement edge(db_, store_sql::kRevisionParent);
      if (!edge.ok() || edge.bind(1, result.revision.tree).bind(2, parent).step() != SQLITE_DONE)
        return fail(error("ingest"));
    }
    for (const Quantity& q : result.quantities) {
      Statement s(db_,
                  "INSERT INTO quantities (result_seq, name, value, unit, direction, deterministic) VALUES (?1, ?2, "
                  "?3, ?4, ?5, ?6)");
      if (!s.ok()) return fail(error("ingest"));
      s.bind(1, seq).bind(2, q.name).bind(3, q.value).bind(4, q.unit).bind(5, std::string(to_string(q.direction)));
      s.bind(6, static_cast<int64_t>(q.deterministic ? 1 : 0));
      if (s.step() != SQLITE_DONE) return fail(error("ingest"));
    }
    return IngestOutcome{id, seq, false};
  }

  Result<std::vector<StoredResult>> query_results(const std::string& sql, const std::string& argument) {
    Statement select(db_, sql);
    if (!select.ok()) return fail(error("reading results"));
    if (!argument.empty()) select.bind(1, argument);
    return read_results(select);
  }

  // The keys `sql` selects with its one parameter, `name`.
  Result<std::vector<ResultKey>> target_keys_of(const std::string& sql, const std::string& name) {
    Statement select(db_, sql);
    if (!select.ok()) return fail(error("finding the target"));
    select.bind(1, name);
    return read_keys(select);
  }

  Result<std::vector<ResultKey>> read_keys(Statement& select) {
    std::vector<ResultKey> out;
    for (int rc = select.step(); rc != SQLITE_DONE; rc = select.step()) {
      if (rc != SQLITE_ROW) return fail(error("reading results"));
      out.push_back({select.int64(0), select.text(1), select.text(2), select.text(3)});
    }
    return out;
  }

  Result<std::vector<StoredResult>> read_results(Statement& select) {
    std::vector<StoredResult> out;
    for (int rc = select.step(); rc != SQLITE_DONE; rc = select.step()) {
      if (rc != SQLITE_ROW) return fail(error("reading results"));
      auto document = parse_result_json(select.text(2), fmt::format("{} result {}", path_, select.text(1)));
      if (!document) return fail(Status::Corruption(document.error().message()));
      out.push_back({select.int64(0), select.text(1), std::move(*document)});
    }
    return out;
  }

  sqlite3* db_;
  std::string path_;
  StoreOptions options_;
};

}  // namespace

Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path, const StoreOptions& options) {
  std::error_code ec;
  if (!options.create_if_missing && !std::filesystem::exists(path, ec)) {
    return fail(Status::NotFound(fmt::format("{}: no result store there (store ingest creates it)", path)));
  }
  sqlite3* db = nullptr;
  const int create = options.create_if_missing ? SQLITE_OPEN_CREATE : 0;
  const int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | create | SQLITE_OPEN_FULLMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return fail(Status::IOError(fmt::format("{}: cannot open store: {}", path, message)));
  }
  auto store = std::make_unique<SqliteStore>(db, path, options);
  if (Status s = store->initialize(); !s.ok()) return fail(s);
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace sf::results

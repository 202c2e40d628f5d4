// The PostgreSQL store: the same schema and behaviour as the SQLite store, for a shared store.
//
// Ingests take a transaction-scoped advisory lock first, so they commit in sequence order and
// the native order a reader sees only ever grows at the end. Migrations take another advisory
// lock, so two programs opening a fresh database do not both create the tables.
#include <fmt/format.h>

#include <memory>

#include "results/pq_library.h"
#include "results/result_json.h"
#include "results/store.h"
#include "results/store_schema.h"

namespace sf::results {

namespace {

constexpr int64_t kIngestLock = 0x5f5f5346494e47;     // arbitrary, fixed: "__SFING"
constexpr int64_t kMigrationLock = 0x5f5f53464d4947;  // "__SFMIG"

using ResultPtr = std::unique_ptr<PGresult, decltype(&PQclear)>;

class PostgresStore final : public Store {
 public:
  PostgresStore(const PqFunctions& pq, PGconn* conn, std::string location, StoreOptions options)
      : pq_(pq), conn_(conn), location_(std::move(location)), options_(std::move(options)) {}
  ~PostgresStore() override { pq_.finish(conn_); }

  Status initialize() {
    if (Status s = command("SET client_min_messages TO warning"); !s.ok()) return s;
    return migrate();
  }

  Result<IngestOutcome> ingest(const ResultDocument& result) override {
    const std::string id = result_id(result);
    if (Status s = command("BEGIN"); !s.ok()) return fail(s);
    auto outcome = ingest_in_transaction(result, id);
    if (!outcome) {
      command("ROLLBACK").permit_unchecked();
      return outcome;
    }
    if (options_.before_commit && !outcome->already_present) options_.before_commit();
    if (Status s = command("COMMIT"); !s.ok()) return fail(s);
    return outcome;
  }

  Result<std::vector<StoredResult>> results_after(int64_t order) override {
    return query_results("SELECT seq, id, document FROM results WHERE seq > $1 ORDER BY seq", {std::to_string(order)});
  }

  Result<std::optional<StoredResult>> find(const std::string& id_or_prefix) override {
    auto exact = query_results("SELECT seq, id, document FROM results WHERE id = $1", {id_or_prefix});
    if (!exact) return fail(exact.error());
    if (!exact->empty()) return std::optional<StoredResult>(exact->front());
    auto prefixed = query_results("SELECT seq, id, document FROM results WHERE left(id, length($1)) = $1 ORDER BY seq",
                                  {id_or_prefix});
    if (!prefixed) return fail(prefixed.error());
    if (prefixed->size() > 1)
      return fail(
          Status::InvalidArgument(fmt::format("{}: ambiguous id prefix ({} results)", id_or_prefix, prefixed->size())));
    if (prefixed->empty()) return std::optional<StoredResult>();
    return std::optional<StoredResult>(prefixed->front());
  }

  Result<std::vector<ResultKey>> target_keys(const std::string& name) override {
    return query_keys(store_sql::target_keys(name == "latest"), {name});
  }

  Result<std::vector<ResultKey>> prefix_keys(const std::string& prefix) override {
    return query_keys(store_sql::kPrefixKeys, {prefix});
  }

  Result<std::vector<ResultKey>> subject_keys(const std::vector<std::string>& subjects, int64_t before) override {
    std::vector<std::string> params = subjects;
    params.push_back(std::to_string(before));
    return query_keys(store_sql::subject_keys(subjects.size()), params);
  }

  Result<std::vector<StoredResult>> results_at(const std::vector<int64_t>& orders) override {
    if (orders.empty()) return std::vector<StoredResult>();
    std::vector<std::string> params;
    for (int64_t order : orders) params.push_back(std::to_string(order));
    return query_results(store_sql::results_at(orders.size()), params);
  }

  Result<std::vector<StoredResult>> run_results(const std::string& run_key) override {
    return query_results(store_sql::kRunResults, {run_key});
  }

  Result<std::map<std::string, int64_t>> ancestors(const std::string& tree) override {
    auto count = query(store_sql::kParentCount, {});
    if (!count) return fail(count.error());
    auto rows = query(store_sql::kAncestors, {tree, pq_.getvalue(count->get(), 0, 0)});
    if (!rows) return fail(rows.error());
    std::map<std::string, int64_t> out;
    const int n = pq_.ntuples(rows->get());
    for (int i = 0; i < n; ++i)
      out.emplace(pq_.getvalue(rows->get(), i, 0), std::stoll(pq_.getvalue(rows->get(), i, 1)));
    return out;
  }

  Result<IdentityPolicy> identity_policy() override {
    auto rows = query("SELECT version, document FROM identity_policies ORDER BY version DESC LIMIT 1", {});
    if (!rows) return fail(rows.error());
    if (pq_.ntuples(rows->get()) == 0) return IdentityPolicy{};
    return parse_identity_policy(pq_.getvalue(rows->get(), 0, 1),
                                 fmt::format("{} identity policy v{}", redacted(), pq_.getvalue(rows->get(), 0, 0)));
  }

  Status set_identity_policy(const IdentityPolicy& policy) override {
    if (Status s = command("BEGIN"); !s.ok()) return s;
    if (Status s = command("LOCK TABLE identity_policies IN EXCLUSIVE MODE"); !s.ok()) return rollback(s);
    auto rows = query("SELECT COALESCE(MAX(version), 0) FROM identity_policies", {});
    if (!rows) return rollback(rows.error());
    const int64_t latest = std::stoll(pq_.getvalue(rows->get(), 0, 0));
    if (policy.version != latest + 1) {
      return rollback(Status::InvalidArgument(fmt::format(
          "identity policy version {} is not the next one (the store has version {})", policy.version, latest)));
    }
    auto inserted = query("INSERT INTO identity_policies (version, document) VALUES ($1, $2)",
                          {std::to_string(policy.version), identity_policy_to_json(policy)});
    if (!inserted) return rollback(inserted.error());
    return command("COMMIT");
  }

  Result<int64_t> schema_version() override {
    auto rows = query("SELECT version FROM schema_version", {});
    if (!rows) return fail(rows.error());
    if (pq_.ntuples(rows->get()) != 1) return fail(Status::Corruption(redacted() + ": no schema version"));
    return std::stoll(pq_.getvalue(rows->get(), 0, 0));
  }

  std::string description() const override { return redacted(); }

  Result<int64_t> indexed_quantity_count(const std::string& id) override {
    auto rows = query("SELECT COUNT(*) FROM quantities q JOIN results r ON q.result_seq = r.seq WHERE r.id = $1", {id});
    if (!rows) return fail(rows.error());
    return std::stoll(pq_.getvalue(rows->get(), 0, 0));
  }

 private:
  // The URL without a password, for messages.
  std::string redacted() const {
    const char* db = pq_.db(conn_);
    const char* host = pq_.host(conn_);
    return fmt::format("postgresql database {} on {}", db != nullptr ? db : "?", host != nullptr ? host : "?");
  }

  Status rollback(Status s) {
    command("ROLLBACK").permit_unchecked();
    return s;
  }

  Result<ResultPtr> query(const std::string& sql, const std::vector<std::string>& params) {
    std::vector<const char*> values;
    for (const std::string& p : params) values.push_back(p.c_str());
    ResultPtr result(pq_.exec_params(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                                     nullptr, nullptr, 0),
                     pq_.clear);
    const ExecStatusType status = result ? pq_.result_status(result.get()) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      return fail(Status::IOError(fmt::format("{}: {}", redacted(), pq_.error_message(conn_))));
    }
    return result;
  }

  Status command(const std::string& sql) {
    auto result = query(sql, {});
    return result ? Status() : result.error();
  }

  Status migrate() {
    if (Status s = command("BEGIN"); !s.ok()) return s;
    if (Status s = command(fmt::format("SELECT pg_advisory_xact_lock({})", kMigrationLock)); !s.ok())
      return rollback(s);
    if (Status s = command("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)"); !s.ok())
      return rollback(s);
    auto rows = query("SELECT version FROM schema_version", {});
    if (!rows) return rollback(rows.error());
    int64_t version = 0;
    if (pq_.ntuples(rows->get()) > 0) {
      version = std::stoll(pq_.getvalue(rows->get(), 0, 0));
    } else if (Status s = command("INSERT INTO schema_version (version) VALUES (0)"); !s.ok()) {
      return rollback(s);
    }
    auto run = [this](const std::string& sql) { return command(sql); };
    if (Status s = apply_store_migrations(version, "BIGSERIAL PRIMARY KEY", redacted(), run); !s.ok()) {
      return rollback(s);
    }
    return command("COMMIT");
  }

  Result<IngestOutcome> ingest_in_transaction(const ResultDocument& result, const std::string& id) {
    if (Status s = command(fmt::format("SELECT pg_advisory_xact_lock({})", kIngestLock)); !s.ok()) return fail(s);
    auto existing = query("SELECT seq FROM results WHERE id = $1", {id});
    if (!existing) return fail(existing.error());
    if (pq_.ntuples(existing->get()) > 0)
      return IngestOutcome{id, std::stoll(pq_.getvalue(existing->get(), 0, 0)), true};
    auto inserted = query(
        "INSERT INTO results (id, subject, tree, run_key, status, document) VALUES ($1, $2, $3, $4, $5, $6) RETURNING "
        "seq",
        {id, result.subject, result.revision.tree, result.procedure.run_key, std::string(to_string(result.status)),
         result_to_json(result)});
    if (!inserted) return fail(inserted.error());
    const std::string seq = pq_.getvalue(inserted->get(), 0, 0);
    for (const std::string& parent : result.revision.parents) {
      auto p = query("INSERT INTO result_parents (result_seq, parent_tree) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                     {seq, parent});
      if (!p) return fail(p.error());
      if (result.revision.tree.empty()) continue;
      auto edge = query(store_sql::kRevisionParent, {result.revision.tree, parent});
      if (!edge) return fail(edge.error());
    }
    for (const Quantity& q : result.quantities) {
      auto r = query(
          "INSERT INTO quantities (result_seq, name, value, unit, direction, deterministic) VALUES ($1, $2, $3, $4, "
          "$5, $6)",
          {seq, q.name, fmt::format("{:.17g}", q.value), q.unit, std::string(to_string(q.direction)),
           q.deterministic ? "1" : "0"});
      if (!r) return fail(r.error());
    }
    return IngestOutcome{id, std::stoll(seq), false};
  }

  Result<std::vector<ResultKey>> query_keys(const std::string& sql, const std::vector<std::string>& params) {
    auto rows = query(sql, params);
    if (!rows) return fail(rows.error());
    std::vector<ResultKey> out;
    const int n = pq_.ntuples(rows->get());
    for (int i = 0; i < n; ++i) {
      out.push_back({std::stoll(pq_.getvalue(rows->get(), i, 0)), pq_.getvalue(rows->get(), i, 1),
                     pq_.getvalue(rows->get(), i, 2), pq_.getvalue(rows->get(), i, 3)});
    }
    return out;
  }

  Result<std::vector<StoredResult>> query_results(const std::string& sql, const std::vector<std::string>& params) {
    auto rows = query(sql, params);
    if (!rows) return fail(rows.error());
    std::vector<StoredResult> out;
    const int n = pq_.ntuples(rows->get());
    for (int i = 0; i < n; ++i) {
      const std::string id = pq_.getvalue(rows->get(), i, 1);
      auto document = parse_result_json(pq_.getvalue(rows->get(), i, 2), fmt::format("{} result {}", redacted(), id));
      if (!document) return fail(Status::Corruption(document.error().message()));
      out.push_back({std::stoll(pq_.getvalue(rows->get(), i, 0)), id, std::move(*document)});
    }
    return out;
  }

  const PqFunctions& pq_;
  PGconn* conn_;
  std::string location_;
  StoreOptions options_;
};

}  // namespace

Result<std::unique_ptr<Store>> open_postgres_store(const std::string& url, const StoreOptions& options) {
  auto loaded = libpq();
  if (!loaded) return fail(loaded.error());
  const PqFunctions& pq = **loaded;
  PGconn* conn = pq.connectdb(url.c_str());
  if (conn == nullptr || pq.status(conn) != CONNECTION_OK) {
    std::string message = conn != nullptr ? pq.error_message(conn) : "out of memory";
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    pq.finish(conn);
    return fail(Status::IOError(fmt::format("cannot connect to the PostgreSQL store: {}", message)));
  }
  auto store = std::make_unique<PostgresStore>(pq, conn, url, options);
  if (Status s = store->initialize(); !s.ok()) return fail(s);
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace sf::results

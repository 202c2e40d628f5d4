// The store suite's fixture: one typed test over the Store interface, instantiated for SQLite
// and PostgreSQL.
//
// The PostgreSQL instance runs when SF_TEST_POSTGRES_URL names a server (scripts/ci-postgres.sh
// starts a throwaway one); each test gets its own schema, dropped afterwards. Without the
// variable those tests are skipped with the reason printed.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "results/store.h"
#include "trend_fixture.h"

namespace sf::results::testing {

namespace fs = std::filesystem;

inline int unique_counter() {
  static std::atomic<int> counter{0};
  return ++counter;
}

struct SqliteBackend {
  static constexpr const char* kName = "sqlite";
  static bool available(std::string&) { return true; }
  static std::string create() {
    const fs::path dir = fs::temp_directory_path() / fmt::format("sf-store-test-{}-{}", getpid(), unique_counter());
    fs::create_directories(dir);
    return (dir / "results.db").string();
  }
  static void destroy(const std::string& location) { fs::remove_all(fs::path(location).parent_path()); }
};

struct PostgresBackend {
  static constexpr const char* kName = "postgres";
  static const char* url() { return std::getenv("SF_TEST_POSTGRES_URL"); }
  static bool available(std::string& reason) {
    if (url() == nullptr || *url() == '\0') {
      reason = "SF_TEST_POSTGRES_URL is not set (scripts/ci-postgres.sh starts a throwaway server)";
      return false;
    }
    return true;
  }
  static bool exec(const std::string& sql) {
    PGconn* conn = PQconnectdb(url());
    bool ok = PQstatus(conn) == CONNECTION_OK;
    if (ok) {
      PGresult* r = PQexec(conn, ("SET client_min_messages TO warning; " + sql).c_str());
      ok = PQresultStatus(r) == PGRES_COMMAND_OK;
      if (!ok) ADD_FAILURE() << sql << ": " << PQerrorMessage(conn);
      PQclear(r);
    } else {
      ADD_FAILURE() << "cannot connect to SF_TEST_POSTGRES_URL: " << PQerrorMessage(conn);
    }
    PQfinish(conn);
    return ok;
  }
  static std::string schema_of(const std::string& location) { return location.substr(location.rfind("%3D") + 3); }
  static std::string create() {
    const std::string schema = fmt::format("sf_test_{}_{}", getpid(), unique_counter());
    exec("CREATE SCHEMA " + schema);
    const std::string base = url();
    return base + (base.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema;
  }
  static void destroy(const std::string& location) {
    exec("DROP SCHEMA IF EXISTS " + schema_of(location) + " CASCADE");
  }
};

template <class Backend>
class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string reason;
    if (!Backend::available(reason)) GTEST_SKIP() << reason;
    location_ = Backend::create();
  }
  void TearDown() override {
    if (!location_.empty()) Backend::destroy(location_);
  }

  std::unique_ptr<Store> open(const StoreOptions& options = {}) {
    auto store = open_store(location_, options);
    EXPECT_TRUE(store.has_value()) << (store ? "" : store.error().message());
    return store ? std::move(*store) : nullptr;
  }

 public:
  // Result i of a series of `subject`, its revision a child of i - 1's (also for non-typed tests).
  static ResultDocument document(int i, const std::string& subject = "job") {
    ResultDocument d = ResultBuilder(subject)
                           .tree(fmt::format("c{}", i), i > 1 ? std::vector<std::string>{fmt::format("c{}", i - 1)}
                                                              : std::vector<std::string>{})
                           .env("cluster", "ci")
                           .duration(100.0 + (i % 2) * 0.1)
                           .quantity("inputBytes", 5000, Direction::kNone, true, "bytes")
                           .document();
    d.origin = fmt::format("{} #{}", subject, i);
    return d;
  }

 protected:
  std::string location_;
};

using StoreBackends = ::testing::Types<SqliteBackend, PostgresBackend>;
struct BackendNames {
  template <class T>
  static std::string GetName(int) {
    return T::kName;
  }
};

}  // namespace sf::results::testing

// Verdict latency as the result store grows (issue 38): a fleet's store filled to 1,000, 3,000 and
// 10,000 results, and at each size the verdicts `verdict` and Python's verdict_history ask, the
// old way and the new way side by side in the same run:
//
//   old  read every stored result into memory (service::read_store), then evaluate
//        (what each verdict did before issue 38, and what a StoreSnapshot's first request does)
//   new  ask the store (service::verdict_trend(Store&) ...): it answers in SQL and the verdict
//        reads only the rows it uses (results/store_series.h)
//
// The fleet: 50 jobs (subjects) on one cluster, each run nightly at that night's revision (its
// parent the previous night's: ancestry order), 30 quantities a result shaped like
// result_from_app_model's; the store grows by nights, so each job's series grows with it (20, 60,
// 200 nights). Plus one planned run of two variants, 10 rounds. At each size:
//
//   trend, one target   verdict history --target ID (the latest result of one job)
//   trend, latest       verdict history --target latest (the latest of each of the 50 jobs)
//   run                 verdict run --run-key ... --profile variants
//
// Each is the median of --repeat runs, the store opened each time as the CLI opens it. The old and
// new documents are compared (they must be identical); times are printed, nothing is asserted.
//
// Usage: sf-bench-store [--sizes 1000,3000,10000] [--repeat 5] [--dir DIR] [--keep] [--postgres URL]
//   --keep: leave the SQLite store in DIR (its path on stderr), to ask it with `verdict` afterwards.
//   --postgres: the same on a PostgreSQL store as well, in a schema of its own (dropped after).
#include <fmt/format.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "report/verdict_json.h"
#include "results/store.h"
#include "service/verdicts.h"

namespace {

using sf::results::Direction;
using sf::results::Quantity;
using sf::results::ResultDocument;

constexpr int kJobs = 50;
constexpr int kRounds = 10;

struct Options {
  std::vector<size_t> sizes = {1000, 3000, 10000};
  int repeat = 5;
  std::string dir;
  std::string postgres;
  bool keep = false;
};

[[noreturn]] void die(const std::string& message) {
  std::fprintf(stderr, "sf-bench-store: %s\n", message.c_str());
  std::exit(1);
}

template <class T>
T take(sf::Result<T> result, const char* what) {
  if (!result) die(fmt::format("{}: {}", what, result.error().message()));
  return std::move(*result);
}

// One job's nightly result: the totals, 12 stages, 6 SQL executions and the analysis's reading.
ResultDocument nightly(int job, int night, std::mt19937& rng) {
  std::normal_distribution<double> noise(1.0, 0.02);
  ResultDocument d;
  d.subject = fmt::format("job-{:02}", job);
  d.revision.tree = fmt::format("n{:05}", night);
  if (night > 1) d.revision.parents = {fmt::format("n{:05}", night - 1)};
  d.environment = {{"cluster", "prod"}, {"executorShape", "4c-16g"}, {"sparkVersion", "3.5.1"}};
  d.origin = fmt::format("/logs/{}/night-{}.zst", d.subject, night);
  const double scale = 1.0 + job * 0.1;
  auto add = [&](std::string name, double value, std::string unit, bool deterministic = false) {
    d.quantities.push_back({std::move(name), deterministic ? value : value * noise(rng), std::move(unit),
                            Direction::kLowerIsBetter, deterministic});
  };
  add("appWallClockMs", 600'000 * scale, "ms");
  add("executorRunTimeMs", 4'000'000 * scale, "ms");
  add("executorCpuTimeMs", 3'100'000 * scale, "ms");
  add("jvmGcTimeMs", 90'000 * scale, "ms");
  add("shuffleReadBytes", 8e9 * scale, "bytes");
  add("shuffleWriteBytes", 8e9 * scale, "bytes");
  add("inputBytes", 2e10 * scale, "bytes", true);
  add("coreHours", 12 * scale, "core-hours");
  for (int s = 0; s < 12; ++s)
    add(fmt::format("stage:step {} at Job.scala:{}|nodes:{:016x}:durationMs", s, 40 + s,
                    0x9e3779b97f4a7c15ULL * (s + 1)),
        30'000 * scale, "ms");
  for (int q = 0; q < 6; ++q)
    add(fmt::format("sql:daily totals {}@{:016x}:durationMs", q, 0x2545f4914f6cdd1dULL * (q + 1)), 50'000 * scale,
        "ms");
  add("analysis:fixFirstRecoverableLowMs", 40'000 * scale, "ms");
  add("analysis:fixFirstRecoverableHighMs", 90'000 * scale, "ms");
  add("analysis:findings:skew", 2, "count", true);
  add("analysis:findings:spill", 1, "count", true);
  std::sort(d.quantities.begin(), d.quantities.end(),
            [](const Quantity& a, const Quantity& b) { return a.name < b.name; });
  return d;
}

// Round `round` of the planned run, one variant: the candidate ~5% faster.
ResultDocument attempt(int round, bool candidate, std::mt19937& rng) {
  ResultDocument d = nightly(0, 1, rng);
  d.subject = "planned";
  d.revision = {};
  d.parameters = {{"role", candidate ? "candidate" : "baseline"}};
  d.procedure = {"run-variants", round, 2 * round + (candidate ? 1 : 0)};
  d.origin = fmt::format("/logs/planned/{}-{}.zst", round, candidate ? "candidate" : "baseline");
  for (Quantity& q : d.quantities) {
    if (candidate && !q.deterministic) q.value *= 0.95;
  }
  return d;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

struct Timed {
  double old_ms = 0;
  double new_ms = 0;
};

// Times `old_way` and `new_way` alternately, --repeat times each; their documents must agree.
Timed time_both(const Options& o, const std::function<std::string()>& old_way,
                const std::function<std::string()>& new_way) {
  std::vector<double> old_ms, new_ms;
  for (int i = 0; i < o.repeat; ++i) {
    auto start = std::chrono::steady_clock::now();
    const std::string before = old_way();
    auto middle = std::chrono::steady_clock::now();
    const std::string after = new_way();
    auto end = std::chrono::steady_clock::now();
    if (before != after) die("the old and the new way gave different verdict documents");
    old_ms.push_back(std::chrono::duration<double, std::milli>(middle - start).count());
    new_ms.push_back(std::chrono::duration<double, std::milli>(end - middle).count());
  }
  return {median(old_ms), median(new_ms)};
}

struct Row {
  size_t results = 0;
  Timed one, latest, run;
};

void run_backend(const Options& o, const std::string& name, const std::string& location) {
  namespace service = sf::service;
  auto writer = take(sf::results::open_store(location), "open");
  std::printf("\n== %s store (%s): %d jobs nightly, one planned run of %d rounds\n", name.c_str(),
              writer->description().c_str(), kJobs, kRounds);
  std::mt19937 rng(38);
  size_t count = 0;
  for (int round = 1; round <= kRounds; ++round) {
    for (bool candidate : {false, true}) {
      take(writer->ingest(attempt(round, candidate, rng)), "ingest");
      ++count;
    }
  }
  const auto trend = take(service::method_config(service::VerdictMode::kTrend), "method");
  const auto paired = take(service::method_config(service::VerdictMode::kRun), "method");
  const sf::results::RunRequest run{"run-variants", "variants", "", "baseline"};
  std::vector<Row> rows;
  std::string target;
  int night = 0;
  const auto fill_started = std::chrono::steady_clock::now();
  for (size_t size : o.sizes) {
    while (count < size) {
      ++night;
      for (int job = 1; job <= kJobs && count < size; ++job, ++count) {
        const auto outcome = take(writer->ingest(nightly(job, night, rng)), "ingest");
        if (job == 7) target = outcome.id;
      }
    }
    const service::TrendRequest one{target, "", {}};
    const service::TrendRequest latest{"latest", "", {}};
    auto old_way = [&](const auto& ask) {
      return [&, ask] {
        const auto contents = take(service::read_store(location), "read");
        return sf::report::verdict_json(take(ask(contents), "verdict"));
      };
    };
    auto new_way = [&](const auto& ask) {
      return [&, ask] {
        auto store = take(service::open_store_to_ask(location), "open");
        return sf::report::verdict_json(take(ask(*store), "verdict"));
      };
    };
    auto trend_of = [&](const service::TrendRequest& request) {
      return [&trend, request](auto& store) { return service::verdict_trend(store, trend, request); };
    };
    auto run_of = [&](auto& store) { return service::verdict_run(store, paired, run); };
    Row row;
    row.results = count;
    row.one = time_both(o, old_way(trend_of(one)), new_way(trend_of(one)));
    row.latest = time_both(o, old_way(trend_of(latest)), new_way(trend_of(latest)));
    row.run = time_both(o, old_way(run_of), new_way(run_of));
    rows.push_back(row);
    std::fprintf(stderr, "sf-bench-store: %s at %zu results (%d nights, filled in %.0f s so far)\n", name.c_str(),
                 count, night, std::chrono::duration<double>(std::chrono::steady_clock::now() - fill_started).count());
  }

  std::printf("%-9s | %-30s | %-30s | %-30s\n", "results", "trend, one target (ms)", "trend, latest of 50 jobs (ms)",
              "run, 10 paired rounds (ms)");
  std::printf("%-9s | %9s %9s %9s  | %9s %9s %9s  | %9s %9s %9s\n", "", "old", "new", "old/new", "old", "new",
              "old/new", "old", "new", "old/new");
  for (const Row& r : rows) {
    std::printf("%-9zu | %9.1f %9.1f %8.1fx  | %9.1f %9.1f %8.1fx  | %9.1f %9.1f %8.1fx\n", r.results, r.one.old_ms,
                r.one.new_ms, r.one.old_ms / r.one.new_ms, r.latest.old_ms, r.latest.new_ms,
                r.latest.old_ms / r.latest.new_ms, r.run.old_ms, r.run.new_ms, r.run.old_ms / r.run.new_ms);
  }
  const Row& first = rows.front();
  const Row& last = rows.back();
  std::printf(
      "growth from %zu to %zu results (%.0fx the results):  old %.1fx / new %.1fx (one target),"
      "  old %.1fx / new %.1fx (latest),  old %.1fx / new %.1fx (run)\n",
      first.results, last.results, static_cast<double>(last.results) / static_cast<double>(first.results),
      last.one.old_ms / first.one.old_ms, last.one.new_ms / first.one.new_ms, last.latest.old_ms / first.latest.old_ms,
      last.latest.new_ms / first.latest.new_ms, last.run.old_ms / first.run.old_ms, last.run.new_ms / first.run.new_ms);
  std::printf("the old and the new way gave identical verdict documents at every size\n");
}

bool postgres_exec(const std::string& url, const std::string& sql) {
  PGconn* conn = PQconnectdb(url.c_str());
  bool ok = PQstatus(conn) == CONNECTION_OK;
  if (ok) {
    PGresult* r = PQexec(conn, ("SET client_min_messages TO warning; " + sql).c_str());
    ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok) std::fprintf(stderr, "sf-bench-store: %s: %s", sql.c_str(), PQerrorMessage(conn));
    PQclear(r);
  }
  PQfinish(conn);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) die(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--sizes") {
      o.sizes.clear();
      const std::string list = value();
      for (size_t at = 0; at < list.size();) {
        const size_t comma = std::min(list.find(',', at), list.size());
        o.sizes.push_back(std::stoul(list.substr(at, comma - at)));
        at = comma + 1;
      }
      std::sort(o.sizes.begin(), o.sizes.end());
    } else if (arg == "--repeat") {
      o.repeat = std::max(1, std::atoi(value().c_str()));
    } else if (arg == "--dir") {
      o.dir = value();
    } else if (arg == "--keep") {
      o.keep = true;
    } else if (arg == "--postgres") {
      o.postgres = value();
    } else {
      die("usage: sf-bench-store [--sizes 1000,3000,10000] [--repeat 5] [--dir DIR] [--keep] [--postgres URL]");
    }
  }
  if (o.sizes.empty() || o.sizes.front() <= 2 * kRounds) die("--sizes: each more than the planned run's results");
  namespace fs = std::filesystem;
  // A directory of its own under --dir (or the temporary directory), removed after.
  const fs::path dir =
      (o.dir.empty() ? fs::temp_directory_path() : fs::path(o.dir)) / fmt::format("sf-bench-store-{}", getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  run_backend(o, "SQLite", (dir / "results.db").string());
  if (o.keep) {
    std::fprintf(stderr, "sf-bench-store: kept %s\n", (dir / "results.db").c_str());
  } else {
    fs::remove_all(dir);
  }
  if (!o.postgres.empty()) {
    const std::string schema = fmt::format("sf_bench_store_{}", getpid());
    if (!postgres_exec(o.postgres, "CREATE SCHEMA " + schema)) die("cannot create a schema in the PostgreSQL database");
    const std::string url =
        o.postgres + (o.postgres.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema;
    run_backend(o, "PostgreSQL", url);
    if (!postgres_exec(o.postgres, "DROP SCHEMA " + schema + " CASCADE")) die("cannot drop schema " + schema);
  }
  return 0;
}

// ResultDocument: one measured run, immutable once ingested.
//
// A result records what was measured (subject, revision, parameters, environment), how
// (procedure: run_key, round, slot), whether it worked (status), and what came out (quantities,
// each with its unit, direction and whether it is deterministic). docs/result-schema.md is the
// user-facing description of the same fields; result_json.h reads and writes them.
//
// Plain values, cheap to copy, safe to share between threads once built.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace sf::results {

// What happened to the run. Only kOk results are usable references by default; the comparison
// profiles have their own rules for the others (comparator.md).
enum class RunStatus {
  kOk,        // finished and every quantity is trustworthy
  kPartial,   // finished, but some of the work did not run or was retried
  kCensored,  // stopped early (a timeout, a budget): the quantities are lower bounds
  kError,     // failed; its quantities, if any, describe a failure
  kSkipped,   // not run at all
};

// Which way is better for a quantity; kNone labels a change "changed", never good or bad.
enum class Direction { kLowerIsBetter, kHigherIsBetter, kNone };

struct Quantity {
  std::string name;  // unique within a result, e.g. "appWallClockMs"
  double value = 0;  // finite
  std::string unit;  // "ms", "bytes", "count", "core-hours", ...
  Direction direction = Direction::kLowerIsBetter;
  bool deterministic = false;  // the same input always gives the same value (compared exactly)
};

// Where the measured code came from. Ancestry (parents) lets history follow a revision graph
// instead of an arbitrary order of ingests.
struct Revision {
  std::string tree;                  // "" when the subject has no revision
  std::vector<std::string> parents;  // parent tree ids; empty when unknown
  std::string benchmark_tree;        // a separately recorded benchmark's own revision, if any
  bool clean = true;                 // false: built from uncommitted changes (local-only)
};

struct Procedure {
  std::string run_key;           // the run this attempt belongs to ("" outside a planned run)
  std::optional<int64_t> round;  // attempts of one round are paired across sides
  std::optional<int64_t> slot;   // execution position within the run, increasing in time
};

using Coordinates = std::map<std::string, std::string>;  // sorted, so output is deterministic

struct ResultDocument {
  std::string subject;  // the job or benchmark measured
  Revision revision;
  Coordinates parameters;   // "role" is the variant role (baseline, candidate, ...)
  Coordinates environment;  // cluster, sparkVersion, executorShape, ...
  Procedure procedure;
  RunStatus status = RunStatus::kOk;
  std::string origin;                // where the numbers came from, for a reader (not identity)
  std::vector<Quantity> quantities;  // sorted by name, names unique

  const Quantity* quantity(std::string_view name) const;
};

inline constexpr std::string_view kVariantRoleParameter = "role";

// Quantities named "analysis:..." are the analysis's reading of a run (its findings, the time
// it could recover: spark_result.h), not measurements. They are left out of the result's id
// (result_json.h): the same run read by another version of the program, or with other
// thresholds, is still one result, so a store's ingest stays idempotent across upgrades.
inline constexpr std::string_view kAnalysisQuantityPrefix = "analysis:";
inline bool is_analysis_quantity(std::string_view name) { return name.starts_with(kAnalysisQuantityPrefix); }

// A result as the store holds it: its content id and its place in the store's native order
// (the order of ingests, the fallback when a result records no ancestry).
struct StoredResult {
  int64_t order = 0;
  std::string id;
  ResultDocument document;
};

// What a store's index columns say of a result, without its document: enough to find a verdict's
// targets (resolve_targets) and a series' candidates (series_source.h) before reading documents.
struct ResultKey {
  int64_t order = 0;
  std::string id;
  std::string subject;
  std::string tree;  // revision.tree; "" when none
};

ResultKey result_key(const StoredResult& result);

// The id of the result `id_or_prefix` names among `results`: an exact id, or a prefix of exactly
// one id. A prefix of several is an InvalidArgument; a text naming none is returned as it is
// (the comparator then reports it as not found).
Result<std::string> resolve_result_id(const std::vector<StoredResult>& results, const std::string& id_or_prefix);

// The results a verdict's target names among `results` (native order), in that order: a result
// id or a unique prefix of one; "latest", the last result of each subject; or a revision's tree
// id, its results. `subject`, when not empty, keeps that subject's only. NotFound when nothing
// matches; InvalidArgument for an ambiguous prefix, or a revision with several results of one
// subject (none is picked implicitly: name it by id).
Result<std::vector<std::string>> resolve_targets(const std::vector<StoredResult>& results, const std::string& name,
                                                 const std::string& subject = "");
// The same over results' keys (native order). Every key `name` can mean must be there (the id,
// the revision's results, the ids it prefixes, the latest of each subject for "latest"); others
// may be, and change nothing.
Result<std::vector<std::string>> resolve_targets(const std::vector<ResultKey>& keys, const std::string& name,
                                                 const std::string& subject = "");

std::string_view to_string(RunStatus status);  // ok, partial, censored, error, skipped
std::optional<RunStatus> parse_run_status(std::string_view text);
std::string_view to_string(Direction direction);  // lower, higher, none
std::optional<Direction> parse_direction(std::string_view text);

// The value of a coordinate path: "subject", "revision.tree", "revision.benchmarkTree",
// "parameters.<key>", "environment.<key>", "procedure.runKey". nullopt when absent or unknown.
std::optional<std::string> coordinate_value(const ResultDocument& result, std::string_view path);

}  // namespace sf::results

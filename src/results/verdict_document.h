// VerdictDocument: what the comparator found, with every input and reason that led there.
//
// Plain data; report/verdict_json.h writes it (schemaVersion 1) and report/verdict_summary.h
// renders the reviewer summary. It is derived, never stored: the same results, method and
// configuration reproduce it byte for byte (docs/comparator.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "results/comparison_method.h"
#include "results/result.h"

namespace sf::results {

// One input point as the evidence shows it.
struct PointRef {
  std::string result_id;
  std::string revision;
  std::optional<double> value;
  std::string status;
  int64_t native_order = 0;
  std::optional<int64_t> ancestry_distance;  // generations back from the target (ancestry order)
  std::vector<std::string> continuity;       // mappings that joined this point to the series
};

struct Exclusion {
  std::string result_id;
  std::string reason;  // e.g. "status-error", "before-reset", "same-revision-as-target", "pair-dropped: ..."
};

// A reset, accepted change point or continuity join that shaped the reference.
struct BoundaryEvidence {
  std::string kind;  // "reset", "accepted-change-point", "continuity"
  std::string at;    // revision or result id; for continuity the mapping "path: from -> to"
  std::string reason;
  int64_t points = 0;  // points cut (reset, change point) or joined (continuity)
};

struct PairEvidence {
  int64_t round = 0;
  std::string baseline_result;
  std::string target_result;
  double baseline = 0;
  double target = 0;
};

struct Evaluation {
  // What is evaluated.
  std::string series_fingerprint;
  std::string series_label;
  Coordinates identity;
  std::string quantity;
  std::string unit;
  std::string direction;
  bool deterministic = false;
  std::string estimator;
  std::string unit_key;            // run mode: the comparison unit
  std::optional<PointRef> target;  // history mode
  // The reference and how it was formed.
  std::string ordering;             // "ancestry", "native", "unknown", or "paired-rounds"
  std::vector<PointRef> reference;  // history: nearest first
  std::vector<PairEvidence> pairs;  // run mode, by round
  std::vector<BoundaryEvidence> boundaries;
  std::vector<Exclusion> exclusions;
  int64_t exclusions_not_listed = 0;  // beyond the listed ones (a long run of failed points)
  std::vector<std::string> caveats;
  // The verdict and its numbers.
  MethodOutcome outcome;
  std::string detail;  // more about an indeterminate reason
};

struct FailedInvariant {
  std::string name;      // "two-sides", "interleaved", "equal-attempt-counts", ...
  std::string unit_key;  // "" when it affects the whole run
  std::string detail;
};

struct MissingSeries {
  std::string series_fingerprint;
  std::string series_label;
  std::string last_result_id;  // where the series was last seen
};

// The planned run a run-mode verdict evaluated (`verdict run`): its sides and units. Not
// compare::RunDescription, one side of an A/B comparison of two logs.
struct PlannedRun {
  std::string run_key;
  std::string profile;
  std::string coordinate;
  std::string baseline;
  std::string target;
  std::vector<std::string> units;
  bool local_only = false;
};

struct VerdictDocument {
  std::string mode;  // "history", "run", "batch"
  MethodConfig method;
  std::string policy_schema;
  int64_t policy_version = 0;
  std::optional<PlannedRun> run;
  std::string batch_target;  // "revision <tree>" or "runKey <key>"
  std::vector<Evaluation> evaluations;
  std::vector<FailedInvariant> failed_invariants;
  std::vector<MissingSeries> missing;
  std::vector<std::string> caveats;
};

}  // namespace sf::results

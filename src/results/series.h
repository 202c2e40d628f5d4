// Series and series points.
//
// A series is one comparison identity (identity_policy.h) x one estimator under one identity-
// policy schema; its fingerprint is a hash of exactly those three. A series point is the
// estimate one result contributes to it: with the one estimator defined so far, the result's
// recorded value of one quantity.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "results/identity_policy.h"
#include "results/result.h"

namespace sf::results {

// The estimator: a result's own value of the quantity (its producer already summarized its
// observations). Named and versioned so a later estimator starts new series, not mixed ones.
inline constexpr std::string_view kResultValueEstimator = "result-value/1";

struct SeriesPoint {
  std::string result_id;
  int64_t native_order = 0;
  std::string fingerprint;
  std::string policy_schema;
  std::string estimator;
  Coordinates identity;  // after continuity mappings
  std::string quantity;
  std::string unit;
  Direction direction = Direction::kNone;
  bool deterministic = false;
  std::optional<double> value;  // nullopt when the result does not have the quantity
  RunStatus status = RunStatus::kOk;
  std::string revision;                      // tree id; "" when none
  std::vector<std::string> continuity;       // mappings that joined this point, as "path: from -> to"
  const ResultDocument* document = nullptr;  // the source result; outlives the point by contract
};

// "s-" and 16 hex digits.
std::string series_fingerprint(const Coordinates& identity, std::string_view quantity, std::string_view estimator,
                               std::string_view policy_schema);

// The point `result` contributes to the series of `quantity`; value is nullopt when the result
// lacks it. The point refers to `result.document`, which must outlive it.
SeriesPoint series_point(const StoredResult& result, std::string_view quantity, const IdentityPolicy& policy);

// Human-readable series name: "subject quantity {k=v, ...}", the quantity as
// readable_quantity() writes it, the coordinates other than the subject in braces, leaving out
// those in `omitted`, the subject included (a summary says the ones every line shares once).
std::string series_label(const Coordinates& identity, std::string_view quantity, const Coordinates& omitted = {});
std::string series_label(const SeriesPoint& point);

// A quantity's name for a reader. A stage or SQL execution key (spark_result.h) becomes its name
// and a short fingerprint: "stage:parquet at x.scala:#|nodes:1295dda33512f46b~2:durationMs" reads
// 'stage "parquet at x.scala:#" (nodes 1295dd, 2nd) durationMs', "sql:daily totals@28871bebec0136ea:durationMs"
// reads 'SQL "daily totals" (plan 28871b) durationMs'. Any other name is returned as it is.
std::string readable_quantity(std::string_view quantity);

}  // namespace sf::results

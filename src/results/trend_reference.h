// Selecting a trend's reference (mode "history"): which preceding points of a target's series may serve.
//
// The selector reads the store's results and the identity policy; it orders the series by the
// target's ancestry (its revision's parents, transitively) when the target records parents,
// else by the store's native order, else it cannot order and says so. Only points ingested
// before the target count, so newer points never change a comparison. It honours resets and
// accepted change points, reports continuity joins, applies the status rules and takes the
// `window` nearest eligible points. evaluate_trend (trend_evaluation.h) re-checks the result.
#pragma once

#include <string>
#include <vector>

#include "results/comparison_method.h"
#include "results/identity_policy.h"
#include "results/series.h"
#include "results/series_index.h"
#include "results/series_source.h"
#include "results/verdict_document.h"

namespace sf::results {

struct TrendReference {
  std::string ordering;                // "ancestry", "native" or "unknown"
  std::vector<std::string> ancestors;  // ancestry: every ancestor tree of the target, sorted
  std::vector<SeriesPoint> points;     // nearest first
  std::vector<int64_t> distances;      // ancestry distance per point; 0 in native order
  std::vector<BoundaryEvidence> boundaries;
  std::vector<Exclusion> exclusions;
  int64_t exclusions_not_listed = 0;
};

// The source's results must outlive the returned points. The source is asked for the series'
// candidates in reference order a page at a time, until the window is full; all of them when a
// boundary applies to the target (its evidence counts every point it cuts).
Result<TrendReference> select_trend_reference(const SeriesPoint& target, SeriesSource& source,
                                              const MethodConfig& method);
// The same for one target, indexing `results` for it.
TrendReference select_trend_reference(const SeriesPoint& target, const std::vector<StoredResult>& results,
                                      const IdentityPolicy& policy, const MethodConfig& method);

}  // namespace sf::results

// The fleet summary of a result store (the dashboard's fleet page, GET /api/sf/v1/fleet):
// every subject's latest result (results::resolve_targets' "latest", as `verdict history
// --target latest` takes them), ranked and counted from the quantities `store ingest` writes.
//
//   recoverable    the latest results with the most recoverable wall-clock (the quantity
//                  analysis:fixFirstRecoverableHighMs, above 0), at most `limit`
//   costs          per currency (a cost's unit), the latest results that cost the most, at most
//                  `limit` each: two currencies are never ranked together
//   findingTypes   per finding type (analysis:findings:<type>), in how many latest results it was
//                  found and how often, at most `limit`, most applications first
//   trend          a page of the subjects with at least two results (the one whose latest result
//                  came last first): the comparator's verdict on each one's latest result for the
//                  trend's quantities, by service::verdict_trend_of (as verdict history asks
//                  it), written by report::verdict_json
// The three rankings' order, ties and cut are results::rank_fleet's (results/fleet_rankings.h),
// the fleet report's too. Results stored before the analysis quantities existed carry none: they
// are counted (withoutAnalysis), never ranked as recoverable 0. docs/server.md documents the fields.
//
// Only the trend's page is evaluated, so a store of thousands of subjects costs `trend_limit`
// evaluations per request, not thousands.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "results/comparison_method.h"
#include "service/verdicts.h"

namespace sf::service {

struct FleetRequest {
  int64_t limit = 10;        // rows of each ranking
  int64_t trend_offset = 0;  // the trend's page
  int64_t trend_limit = 20;
  std::vector<std::string> trend_quantities = {"appWallClockMs", "cost"};
  results::MethodConfig method;  // the comparator's method, as verdict's flags set it
};

// The answer's JSON text. An error only when the comparator refuses the request (an invalid method).
Result<std::string> fleet_summary_json(const StoreContents& store, const FleetRequest& request);

}  // namespace sf::service

// The fleet's rankings: which applications have the most recoverable wall-clock, which cost the
// most, which finding types are found in the most applications. One rule for both places that
// show them: the dashboard's fleet page (service/fleet_summary, over the store's latest result of
// each subject) and the fleet report (python/sparkforensics/fleet_report.py, over the fleet job's
// Parquet tables, through _core.fleet_rankings). Each front end gathers its rows its own way and
// keeps what it shows of them; this decides only the order and the cut.
//
// The order, every ranking: the figure descending, then the subject, then the application id, then
// the order the rows were given in (so equal rows stay as given, never shuffled). Subject first
// because it is the unit the page ranks (one row per subject, so there the subject alone settles
// a tie) and, in the report, keeps the runs of one job together among equal figures; the fleet
// job's subject is the application name (results::result_from_app_model), and the application id
// then tells its runs apart.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace sf::results {

// One row to rank: an application (the report) or a subject's latest result (the page).
struct FleetRow {
  std::string subject;
  std::string app_id;                         // "" when not known (the page does not need it)
  std::optional<double> recoverable_high_ms;  // the leading "Fix these first" group's high end; nullopt: no analysis
  std::optional<double> cost;                 // nullopt: not priced
  std::string currency;                       // the cost's
};

// One finding type and where it was found; the front end counts them (the report in Spark).
struct FindingTypeCount {
  std::string type;
  int64_t applications = 0;  // rows in which it was found
  double findings = 0;       // how often, over those rows
};

// The costliest rows of one currency: costs in two currencies are never ranked together.
struct CurrencyRanking {
  std::string currency;
  size_t applications = 0;  // rows priced in it, ranked or not
  std::vector<size_t> top;  // indices into the rows, costliest first, at most the limit
};

struct FleetRankings {
  std::vector<size_t> recoverable;     // indices into the rows: those above 0, most first
  std::vector<CurrencyRanking> costs;  // by currency name
  std::vector<size_t> finding_types;   // indices into the types: most applications, then most findings, then name
};

// The three rankings, each cut to its first `limit` (per currency for the costs).
FleetRankings rank_fleet(std::span<const FleetRow> rows, std::span<const FindingTypeCount> types, size_t limit);

}  // namespace sf::results

#include "results/fleet_rankings.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace sf::results {

namespace {

// The first `limit` of `indices` by `figure` descending, then subject, then application id; a
// stable sort, so rows equal in all three keep the order they were given in.
template <class Figure>
std::vector<size_t> top_rows(std::vector<size_t> indices, std::span<const FleetRow> rows, size_t limit, Figure figure) {
  std::stable_sort(indices.begin(), indices.end(), [&](size_t a, size_t b) {
    const double fa = figure(rows[a]), fb = figure(rows[b]);
    if (fa != fb) return fa > fb;
    if (rows[a].subject != rows[b].subject) return rows[a].subject < rows[b].subject;
    return rows[a].app_id < rows[b].app_id;
  });
  if (indices.size() > limit) indices.resize(limit);
  return indices;
}

}  // namespace

FleetRankings rank_fleet(std::span<const FleetRow> rows, std::span<const FindingTypeCount> types, size_t limit) {
  FleetRankings out;
  // Above 0 only: a run with nothing worth fixing first is not ranked as the least recoverable.
  std::vector<size_t> recoverable;
  std::map<std::string, std::vector<size_t>> by_currency;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].recoverable_high_ms.value_or(0) > 0) recoverable.push_back(i);
    if (rows[i].cost) by_currency[rows[i].currency].push_back(i);
  }
  out.recoverable =
      top_rows(std::move(recoverable), rows, limit, [](const FleetRow& r) { return *r.recoverable_high_ms; });
  for (auto& [currency, priced] : by_currency) {
    const size_t applications = priced.size();
    out.costs.push_back(
        {currency, applications, top_rows(std::move(priced), rows, limit, [](const FleetRow& r) { return *r.cost; })});
  }

  out.finding_types.resize(types.size());
  std::iota(out.finding_types.begin(), out.finding_types.end(), size_t{0});
  std::stable_sort(out.finding_types.begin(), out.finding_types.end(), [&](size_t a, size_t b) {
    if (types[a].applications != types[b].applications) return types[a].applications > types[b].applications;
    if (types[a].findings != types[b].findings) return types[a].findings > types[b].findings;
    return types[a].type < types[b].type;
  });
  if (out.finding_types.size() > limit) out.finding_types.resize(limit);
  return out;
}

}  // namespace sf::results

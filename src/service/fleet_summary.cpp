#include "service/fleet_summary.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "report/document_kind.h"
#include "report/verdict_json.h"
#include "results/fleet_rankings.h"
#include "results/spark_result.h"

namespace sf::service {

namespace {

using nlohmann::json;
using results::StoredResult;

using results::kFindingCountQuantityPrefix;
using results::kFixFirstRecoverableHighMsQuantity;
using results::kFixFirstRecoverableLowMsQuantity;

bool has_analysis(const results::ResultDocument& d) {
  return d.quantity(kFixFirstRecoverableHighMsQuantity) != nullptr;
}

json value_or_null(const results::ResultDocument& d, const std::string& name) {
  const results::Quantity* q = d.quantity(name);
  return q ? json(q->value) : json(nullptr);
}

// One latest result, as every table shows it.
json row_json(const StoredResult& r) {
  const results::ResultDocument& d = r.document;
  json row = {{"subject", d.subject},
              {"resultId", r.id},
              {"order", r.order},
              {"status", results::to_string(d.status)},
              {"revision", d.revision.tree},
              {"appWallClockMs", value_or_null(d, "appWallClockMs")},
              {"cost", nullptr},
              {"recoverableMs", nullptr},
              {"findings", nullptr}};
  if (const results::Quantity* cost = d.quantity("cost")) {
    row["cost"] = {{"value", cost->value}, {"currency", cost->unit}};
  }
  if (has_analysis(d)) {
    row["recoverableMs"] = {{"low", value_or_null(d, kFixFirstRecoverableLowMsQuantity)},
                            {"high", d.quantity(kFixFirstRecoverableHighMsQuantity)->value}};
    double findings = 0;
    for (const results::Quantity& q : d.quantities) {
      if (q.name.starts_with(kFindingCountQuantityPrefix)) findings += q.value;
    }
    row["findings"] = findings;
  }
  return row;
}

// What the rankings read of a latest result (results/fleet_rankings.h). The page has one row per
// subject, so the subject settles every tie and the application id is not needed.
results::FleetRow ranked_row(const StoredResult& r) {
  const results::ResultDocument& d = r.document;
  results::FleetRow row;
  row.subject = d.subject;
  if (has_analysis(d)) row.recoverable_high_ms = d.quantity(kFixFirstRecoverableHighMsQuantity)->value;
  if (const results::Quantity* cost = d.quantity("cost")) {
    row.cost = cost->value;
    row.currency = cost->unit;  // a cost's unit is its currency
  }
  return row;
}

json ranked(const std::vector<const StoredResult*>& latest, const std::vector<size_t>& order) {
  json out = json::array();
  for (size_t i : order) out.push_back(row_json(*latest[i]));
  return out;
}

}  // namespace

Result<std::string> fleet_summary_json(const StoreContents& store, const FleetRequest& request) {
  if (Status s = results::validate(request.method); !s.ok()) return fail(s);
  const std::vector<StoredResult>& results = store.results;
  const size_t limit = static_cast<size_t>(std::max<int64_t>(request.limit, 0));
  // Each subject's latest result, by the rule verdict history --target latest follows.
  std::vector<const StoredResult*> latest;
  if (!results.empty()) {
    auto ids = results::resolve_targets(results, "latest");
    if (!ids) return fail(ids.error());
    std::map<std::string, const StoredResult*> by_id;
    for (const StoredResult& r : results) by_id[r.id] = &r;
    for (const std::string& id : *ids) latest.push_back(by_id.at(id));
  }

  std::vector<results::FleetRow> rows;
  std::map<std::string, results::FindingTypeCount> types;
  int64_t without_analysis = 0;
  for (const StoredResult* r : latest) {
    rows.push_back(ranked_row(*r));
    if (!has_analysis(r->document)) {
      ++without_analysis;
      continue;
    }
    for (const results::Quantity& q : r->document.quantities) {
      if (!q.name.starts_with(kFindingCountQuantityPrefix) || q.value <= 0) continue;
      results::FindingTypeCount& t = types[q.name.substr(kFindingCountQuantityPrefix.size())];
      ++t.applications;
      t.findings += q.value;
    }
  }
  std::vector<results::FindingTypeCount> type_counts;
  for (auto& [type, count] : types) {
    count.type = type;
    type_counts.push_back(std::move(count));
  }
  const results::FleetRankings rankings = results::rank_fleet(rows, type_counts, limit);

  json costs = json::array();
  for (const results::CurrencyRanking& c : rankings.costs) {
    costs.push_back({{"currency", c.currency}, {"applications", c.applications}, {"top", ranked(latest, c.top)}});
  }
  json finding_types = json::array();
  for (size_t i : rankings.finding_types) {
    const results::FindingTypeCount& t = type_counts[i];
    finding_types.push_back({{"type", t.type}, {"applications", t.applications}, {"findings", t.findings}});
  }

  // The trend: subjects with a history (two results or more), the most recent latest result first.
  std::map<std::string, int64_t> results_of_subject;
  for (const StoredResult& r : results) ++results_of_subject[r.document.subject];
  std::vector<const StoredResult*> with_history;
  for (const StoredResult* r : latest) {
    if (results_of_subject[r->document.subject] >= 2) with_history.push_back(r);
  }
  std::sort(with_history.begin(), with_history.end(),
            [](const StoredResult* a, const StoredResult* b) { return a->order > b->order; });
  const size_t first = std::min(with_history.size(), static_cast<size_t>(std::max<int64_t>(request.trend_offset, 0)));
  const size_t page = static_cast<size_t>(std::max<int64_t>(request.trend_limit, 0));
  const size_t last = std::min(with_history.size(), first + page);
  std::vector<std::string> targets;
  json trend_rows = json::array();
  for (size_t i = first; i < last; ++i) {
    targets.push_back(with_history[i]->id);
    json row = row_json(*with_history[i]);
    row["results"] = results_of_subject[with_history[i]->document.subject];
    trend_rows.push_back(std::move(row));
  }
  auto verdicts = verdict_trend_of(store, request.method, targets, request.trend_quantities);
  if (!verdicts) return fail(verdicts.error());

  json out = {{"kind", report::kFleetSummaryDocument.kind},
              {"schemaVersion", report::kFleetSummaryDocument.schema_version},
              {"store", store.description},
              {"subjects", latest.size()},
              {"withoutAnalysis", without_analysis},
              {"limit", limit},
              {"recoverable", ranked(latest, rankings.recoverable)},
              {"costs", costs},
              {"findingTypes", finding_types},
              {"trend",
               {{"offset", first},
                {"total", with_history.size()},
                {"quantities", request.trend_quantities},
                {"rows", trend_rows},
                {"document", json::parse(report::verdict_json(*verdicts))}}}};
  return out.dump();
}

}  // namespace sf::service

#include "server/fleet_api.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "report/verdict_json.h"
#include "results/history_comparison.h"
#include "results/spark_result.h"

namespace sf::server {

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

// The first `limit` of `rows` by `key` descending, then by subject: a stable, repeatable order.
std::vector<const StoredResult*> top(std::vector<const StoredResult*> rows, size_t limit,
                                     double (*key)(const StoredResult&)) {
  std::sort(rows.begin(), rows.end(), [&](const StoredResult* a, const StoredResult* b) {
    const double ka = key(*a), kb = key(*b);
    return ka != kb ? ka > kb : a->document.subject < b->document.subject;
  });
  if (rows.size() > limit) rows.resize(limit);
  return rows;
}

double recoverable_high(const StoredResult& r) {
  return r.document.quantity(kFixFirstRecoverableHighMsQuantity)->value;
}
double cost_value(const StoredResult& r) { return r.document.quantity("cost")->value; }

json ranked(const std::vector<const StoredResult*>& rows) {
  json out = json::array();
  for (const StoredResult* r : rows) out.push_back(row_json(*r));
  return out;
}

}  // namespace

Result<std::string> fleet_json(const std::string& store, const std::vector<StoredResult>& results,
                               const results::IdentityPolicy& policy, const FleetRequest& request) {
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

  std::vector<const StoredResult*> recoverable;
  std::map<std::string, std::vector<const StoredResult*>> by_currency;
  struct TypeCount {
    int64_t applications = 0;
    double findings = 0;
  };
  std::map<std::string, TypeCount> types;
  int64_t without_analysis = 0;
  for (const StoredResult* r : latest) {
    const results::ResultDocument& d = r->document;
    if (const results::Quantity* cost = d.quantity("cost")) by_currency[cost->unit].push_back(r);
    if (!has_analysis(d)) {
      ++without_analysis;
      continue;
    }
    if (recoverable_high(*r) > 0) recoverable.push_back(r);
    for (const results::Quantity& q : d.quantities) {
      if (!q.name.starts_with(kFindingCountQuantityPrefix) || q.value <= 0) continue;
      TypeCount& t = types[q.name.substr(kFindingCountQuantityPrefix.size())];
      ++t.applications;
      t.findings += q.value;
    }
  }

  json costs = json::array();
  for (const auto& [currency, rows] : by_currency) {
    costs.push_back(
        {{"currency", currency}, {"applications", rows.size()}, {"top", ranked(top(rows, limit, cost_value))}});
  }
  std::vector<std::pair<std::string, TypeCount>> type_rows(types.begin(), types.end());
  std::sort(type_rows.begin(), type_rows.end(), [](const auto& a, const auto& b) {
    if (a.second.applications != b.second.applications) return a.second.applications > b.second.applications;
    if (a.second.findings != b.second.findings) return a.second.findings > b.second.findings;
    return a.first < b.first;
  });
  json finding_types = json::array();
  for (size_t i = 0; i < type_rows.size() && i < limit; ++i) {
    const auto& [type, count] = type_rows[i];
    finding_types.push_back({{"type", type}, {"applications", count.applications}, {"findings", count.findings}});
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
  auto verdicts = results::compare_history(results, policy, request.method, targets, request.trend_quantities);
  if (!verdicts) return fail(verdicts.error());

  json out = {{"store", store},
              {"subjects", latest.size()},
              {"withoutAnalysis", without_analysis},
              {"limit", limit},
              {"recoverable", ranked(top(recoverable, limit, recoverable_high))},
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

}  // namespace sf::server

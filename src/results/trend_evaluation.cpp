#include "results/trend_evaluation.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "results/dispersion_scaled.h"
#include "results/statistics.h"

namespace sf::results {

namespace {

Evaluation describe(const SeriesPoint& target, const TrendReference& reference) {
  Evaluation e;
  e.series_fingerprint = target.fingerprint;
  e.series_label = series_label(target);
  e.identity = target.identity;
  e.quantity = target.quantity;
  e.unit = target.unit;
  e.direction = std::string(to_string(target.direction));
  e.deterministic = target.deterministic;
  e.estimator = target.estimator;
  e.target = point_ref(target);
  e.ordering = reference.ordering;
  for (size_t i = 0; i < reference.points.size(); ++i) {
    const bool ancestry = reference.ordering == "ancestry" && i < reference.distances.size();
    e.reference.push_back(
        point_ref(reference.points[i], ancestry ? std::optional<int64_t>(reference.distances[i]) : std::nullopt));
  }
  e.boundaries = reference.boundaries;
  e.exclusions = reference.exclusions;
  e.exclusions_not_listed = reference.exclusions_not_listed;
  return e;
}

Evaluation indeterminate(Evaluation e, std::string reason, std::string detail) {
  e.outcome.verdict = Verdict::kIndeterminate;
  e.outcome.reason = std::move(reason);
  e.detail = std::move(detail);
  return e;
}

// Facts the identity projection ignores but that differ between target and reference: shown,
// never used to split or to exclude.
std::vector<std::string> caveats(const SeriesPoint& target, const std::vector<SeriesPoint>& reference) {
  std::vector<std::string> out;
  if (target.document == nullptr) return out;
  if (!target.document->revision.clean) out.push_back("target built from uncommitted changes (local-only)");
  std::map<std::string, std::map<std::string, int64_t>> differing;  // path -> reference value -> count
  auto compare = [&](const std::string& path, const std::optional<std::string>& target_value,
                     const std::optional<std::string>& value) {
    if (target.identity.count(path) != 0 || value == target_value) return;
    differing[path][value.value_or("(unset)")] += 1;
  };
  for (const SeriesPoint& p : reference) {
    if (p.document == nullptr) continue;
    std::set<std::string> paths;
    for (const auto* doc : {target.document, p.document}) {
      for (const auto& [key, value] : doc->environment) paths.insert("environment." + key);
      for (const auto& [key, value] : doc->parameters) paths.insert("parameters." + key);
    }
    for (const std::string& path : paths)
      compare(path, coordinate_value(*target.document, path), coordinate_value(*p.document, path));
  }
  for (const auto& [path, values] : differing) {
    std::string listed;
    for (const auto& [value, count] : values)
      listed += fmt::format("{}{} ({} point{})", listed.empty() ? "" : ", ", value, count, count == 1 ? "" : "s");
    out.push_back(fmt::format("{} differs: target {}, reference {}", path,
                              coordinate_value(*target.document, path).value_or("(unset)"), listed));
  }
  return out;
}

}  // namespace

PointRef point_ref(const SeriesPoint& point, std::optional<int64_t> ancestry_distance) {
  return {point.result_id,    point.revision,    point.value,     std::string(to_string(point.status)),
          point.native_order, ancestry_distance, point.continuity};
}

Evaluation evaluate_trend(const SeriesPoint& target, const TrendReference& reference, const MethodConfig& method) {
  Evaluation e = describe(target, reference);
  if (target.status != RunStatus::kOk || !target.value) {
    return indeterminate(std::move(e), "target-unusable",
                         target.value ? fmt::format("target status is {}", to_string(target.status))
                                      : fmt::format("target has no value for {}", target.quantity));
  }
  if (method.name != kDispersionScaled) {
    return indeterminate(std::move(e), "method-not-applicable",
                         fmt::format("{} compares paired rounds of one run, not history", method.name));
  }
  if (reference.ordering != "ancestry" && reference.ordering != "native") {
    return indeterminate(
        std::move(e), "ordering-unknown",
        "the target records no ancestry and the configured ordering does not allow the store's native order");
  }

  const std::set<std::string> ancestors(reference.ancestors.begin(), reference.ancestors.end());
  const std::set<std::string> allowed(method.reference_statuses.begin(), method.reference_statuses.end());
  std::vector<SeriesPoint> eligible;
  for (const SeriesPoint& p : reference.points) {
    if (p.fingerprint != target.fingerprint) {
      return indeterminate(
          std::move(e), "series-mismatch",
          fmt::format("{} is in series {}, the target in {}", p.result_id, p.fingerprint, target.fingerprint));
    }
    if (p.estimator != target.estimator) {
      return indeterminate(std::move(e), "estimator-mismatch",
                           fmt::format("{} uses {}, the target {}", p.result_id, p.estimator, target.estimator));
    }
    if (p.policy_schema != target.policy_schema) {
      return indeterminate(
          std::move(e), "policy-mismatch",
          fmt::format("{} uses {}, the target {}", p.result_id, p.policy_schema, target.policy_schema));
    }
    const bool precedes =
        p.native_order < target.native_order && (reference.ordering == "native" || ancestors.count(p.revision) != 0);
    if (!precedes) {
      return indeterminate(std::move(e), "not-preceding",
                           fmt::format("{} does not precede the target in {} order", p.result_id, reference.ordering));
    }
    if (allowed.count(std::string(to_string(p.status))) == 0 || !p.value) {
      e.exclusions.push_back({p.result_id, p.value ? fmt::format("status-{}", to_string(p.status)) : "no-value"});
      continue;
    }
    eligible.push_back(p);
  }
  e.caveats = caveats(target, eligible);

  // One point per revision, unless configuration says how to combine them.
  std::map<std::string, std::vector<double>> by_revision;
  std::vector<std::string> revision_order;
  for (const SeriesPoint& p : eligible) {
    const std::string key = p.revision.empty() ? p.result_id : p.revision;
    if (by_revision[key].empty()) revision_order.push_back(key);
    by_revision[key].push_back(*p.value);
  }
  std::vector<double> values;
  for (const std::string& key : revision_order) {
    const auto& group = by_revision[key];
    if (group.size() > 1 && method.duplicates == "reject") {
      return indeterminate(std::move(e), "duplicate-points",
                           fmt::format("revision {} contributes {} eligible points", key, group.size()));
    }
    if (group.size() > 1)
      e.caveats.push_back(fmt::format("revision {}: {} points combined by their mean", key, group.size()));
    values.push_back(mean(group));
  }

  e.outcome = dispersion_scaled_history(*target.value, values, target.deterministic, target.direction, method);
  if (e.outcome.verdict == Verdict::kIndeterminate) {
    e.detail = e.outcome.reason == "no-reference"
                   ? "no eligible preceding point in this series"
                   : fmt::format("{} reference point(s), the method needs {} and no provisional rule applies",
                                 values.size(), method.min_points);
  }
  return e;
}

}  // namespace sf::results

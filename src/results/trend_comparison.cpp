#include "results/trend_comparison.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "results/revision_graph.h"
#include "results/series.h"
#include "results/series_index.h"
#include "results/trend_evaluation.h"
#include "results/trend_reference.h"

namespace sf::results {

namespace {

VerdictDocument empty_document(std::string mode, const IdentityPolicy& policy, const MethodConfig& method) {
  VerdictDocument doc;
  doc.mode = std::move(mode);
  doc.method = method;
  doc.policy_schema = policy.schema_label();
  doc.policy_version = policy.version;
  return doc;
}

bool in_target(const StoredResult& r, const BatchRequest& request) {
  return request.revision.empty() ? r.document.procedure.run_key == request.run_key
                                  : r.document.revision.tree == request.revision;
}

// The results of the nearest preceding revision or run: what the target is expected to cover.
std::vector<const StoredResult*> preceding_group(const std::vector<StoredResult>& results, const BatchRequest& request,
                                                 const std::vector<const StoredResult*>& targets) {
  int64_t first_target = targets.front()->order;
  for (const StoredResult* t : targets) first_target = std::min(first_target, t->order);
  std::vector<const StoredResult*> group;
  std::set<std::string> parents;
  for (const StoredResult* t : targets)
    parents.insert(t->document.revision.parents.begin(), t->document.revision.parents.end());
  if (!request.revision.empty() && !parents.empty()) {
    const auto ancestors = RevisionGraph(results).ancestors(request.revision);
    int64_t nearest = -1;
    for (const StoredResult& r : results) {
      auto it = ancestors.find(r.document.revision.tree);
      if (r.order < first_target && it != ancestors.end() && (nearest < 0 || it->second < nearest))
        nearest = it->second;
    }
    for (const StoredResult& r : results) {
      auto it = ancestors.find(r.document.revision.tree);
      if (r.order < first_target && it != ancestors.end() && it->second == nearest) group.push_back(&r);
    }
    return group;
  }
  const StoredResult* latest = nullptr;
  for (const StoredResult& r : results) {
    if (r.order < first_target && !in_target(r, request) && (latest == nullptr || r.order > latest->order)) latest = &r;
  }
  if (latest == nullptr) return group;
  for (const StoredResult& r : results) {
    if (r.order >= first_target) continue;
    const bool same = request.revision.empty() ? r.document.procedure.run_key == latest->document.procedure.run_key
                                               : r.document.revision.tree == latest->document.revision.tree;
    if (same) group.push_back(&r);
  }
  return group;
}

// The target's evaluations, one per quantity (all of its own when `quantities` is empty), added to
// `doc`.
Status add_history_evaluations(SeriesSource& source, const MethodConfig& method, const std::string& target_result_id,
                               const std::vector<std::string>& quantities, VerdictDocument& doc) {
  auto target = source.result(target_result_id);
  if (!target) return target.error();
  if (*target == nullptr) return Status::NotFound(fmt::format("no result {} in the store", target_result_id));
  std::vector<std::string> names = quantities;
  if (names.empty()) {
    for (const Quantity& q : (*target)->document.quantities) names.push_back(q.name);
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const SeriesPoint point = series_point(**target, name, source.policy());
    auto reference = select_trend_reference(point, source, method);
    if (!reference) return reference.error();
    doc.evaluations.push_back(evaluate_trend(point, *reference, method));
  }
  return {};
}

}  // namespace

Result<VerdictDocument> compare_trend(const std::vector<StoredResult>& results, const IdentityPolicy& policy,
                                      const MethodConfig& method, const std::string& target_result_id,
                                      const std::vector<std::string>& quantities) {
  return compare_trend(results, policy, method, std::vector<std::string>{target_result_id}, quantities);
}

Result<VerdictDocument> compare_trend(const std::vector<StoredResult>& results, const IdentityPolicy& policy,
                                      const MethodConfig& method, const std::vector<std::string>& target_result_ids,
                                      const std::vector<std::string>& quantities) {
  SeriesIndex index(results, policy);
  return compare_trend(index, method, target_result_ids, quantities);
}

Result<VerdictDocument> compare_trend(SeriesSource& source, const MethodConfig& method,
                                      const std::vector<std::string>& target_result_ids,
                                      const std::vector<std::string>& quantities) {
  VerdictDocument doc = empty_document("history", source.policy(), method);
  for (const std::string& id : target_result_ids) {
    if (Status s = add_history_evaluations(source, method, id, quantities, doc); !s.ok()) return fail(s);
  }
  return doc;
}

Result<VerdictDocument> compare_batch(const std::vector<StoredResult>& results, const IdentityPolicy& policy,
                                      const MethodConfig& method, const BatchRequest& request) {
  if (request.revision.empty() == request.run_key.empty()) {
    return fail(Status::InvalidArgument("a batch names exactly one of a revision and a run key"));
  }
  VerdictDocument doc = empty_document("batch", policy, method);
  doc.batch_target = request.revision.empty() ? "runKey " + request.run_key : "revision " + request.revision;
  std::vector<const StoredResult*> targets;
  for (const StoredResult& r : results) {
    if (in_target(r, request)) targets.push_back(&r);
  }
  if (targets.empty()) return fail(Status::NotFound(fmt::format("no results for {}", doc.batch_target)));

  SeriesIndex index(results, policy);
  // Each series the target contributes to, with the target's points in it.
  std::map<std::string, std::vector<SeriesPoint>> present;
  for (const StoredResult* r : targets) {
    for (const Quantity& q : r->document.quantities) {
      SeriesPoint point = series_point(*r, q.name, policy);
      present[point.fingerprint].push_back(std::move(point));
    }
  }
  for (const auto& [fingerprint, points] : present) {
    if (points.size() > 1) {
      TrendReference none;
      none.ordering = "unknown";
      Evaluation e = evaluate_trend(points.back(), none, method);
      e.outcome = MethodOutcome{};
      e.outcome.reason = "duplicate-points";
      std::string ids;
      for (const SeriesPoint& p : points) ids += (ids.empty() ? "" : ", ") + p.result_id;
      e.detail =
          fmt::format("the target has {} results in this series ({}); none is picked implicitly", points.size(), ids);
      doc.evaluations.push_back(std::move(e));
      continue;
    }
    // The in-memory source answers every question.
    const TrendReference reference = *select_trend_reference(points.front(), index, method);
    doc.evaluations.push_back(evaluate_trend(points.front(), reference, method));
  }
  std::sort(doc.evaluations.begin(), doc.evaluations.end(), [](const Evaluation& a, const Evaluation& b) {
    return a.series_label != b.series_label ? a.series_label < b.series_label
                                            : a.series_fingerprint < b.series_fingerprint;
  });

  // Expected series without a target result.
  std::map<std::string, MissingSeries> expected;
  if (!request.expected.empty()) {
    for (const std::string& fingerprint : request.expected) expected[fingerprint] = {fingerprint, "", ""};
    for (const StoredResult& r : results) {  // name them from their latest point, if any
      for (const Quantity& q : r.document.quantities) {
        const SeriesPoint point = series_point(r, q.name, policy);
        auto it = expected.find(point.fingerprint);
        if (it != expected.end()) it->second = {point.fingerprint, series_label(point), r.id};
      }
    }
  } else {
    for (const StoredResult* r : preceding_group(results, request, targets)) {
      for (const Quantity& q : r->document.quantities) {
        const SeriesPoint point = series_point(*r, q.name, policy);
        expected[point.fingerprint] = {point.fingerprint, series_label(point), r->id};
      }
    }
  }
  for (const auto& [fingerprint, missing] : expected) {
    if (present.count(fingerprint) == 0) doc.missing.push_back(missing);
  }
  std::sort(doc.missing.begin(), doc.missing.end(), [](const MissingSeries& a, const MissingSeries& b) {
    return a.series_label != b.series_label ? a.series_label < b.series_label
                                            : a.series_fingerprint < b.series_fingerprint;
  });
  return doc;
}

}  // namespace sf::results

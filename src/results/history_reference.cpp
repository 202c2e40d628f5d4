#include "results/history_reference.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "results/revision_graph.h"

namespace sf::results {

namespace {

struct Candidate {
  SeriesPoint point;
  int64_t distance = 0;  // ancestry generations; 0 in native order
};

bool boundary_applies(const HistoryBoundary& boundary, const SeriesPoint& target) {
  if (!boundary.quantity.empty() && boundary.quantity != target.quantity) return false;
  for (const auto& [path, value] : boundary.match) {
    auto in_identity = target.identity.find(path);
    const std::optional<std::string> actual = in_identity != target.identity.end()
                                                  ? std::optional<std::string>(in_identity->second)
                                                  : coordinate_value(*target.document, path);
    if (actual != value) return false;
  }
  return true;
}

// The revision a boundary starts at: its atRevision, or the revision of its atResult.
std::optional<std::string> boundary_revision(const HistoryBoundary& boundary,
                                             const std::vector<StoredResult>& results) {
  if (!boundary.at_revision.empty()) return boundary.at_revision;
  for (const StoredResult& r : results) {
    if (r.id == boundary.at_result) return r.document.revision.tree;
  }
  return std::nullopt;
}

// The native-order position a boundary starts at, among the series' points and the target.
std::optional<int64_t> boundary_position(const HistoryBoundary& boundary, const SeriesPoint& target,
                                         const std::vector<Candidate>& members,
                                         const std::vector<StoredResult>& results) {
  if (!boundary.at_result.empty()) {
    for (const StoredResult& r : results) {
      if (r.id == boundary.at_result) return r.order;
    }
    return std::nullopt;
  }
  std::optional<int64_t> position;
  if (target.revision == boundary.at_revision) position = target.native_order;
  for (const Candidate& c : members) {
    if (c.point.revision == boundary.at_revision && (!position || c.point.native_order < *position))
      position = c.point.native_order;
  }
  return position;
}

// Marks the candidates each applicable boundary cuts; records the boundary.
std::vector<std::string> apply_boundaries(const SeriesPoint& target, const std::vector<Candidate>& candidates,
                                          const std::vector<StoredResult>& results, const IdentityPolicy& policy,
                                          const std::string& ordering, const RevisionGraph& graph,
                                          const std::map<std::string, int64_t>& target_ancestors,
                                          HistoryReference& out) {
  std::vector<std::string> cut_reason(candidates.size());
  for (const HistoryBoundary& boundary : policy.boundaries) {
    if (!boundary_applies(boundary, target)) continue;
    const std::string at = boundary.at_revision.empty() ? boundary.at_result : boundary.at_revision;
    std::vector<bool> cut(candidates.size(), false);
    if (ordering == "ancestry") {
      const std::optional<std::string> revision = boundary_revision(boundary, results);
      if (!revision || revision->empty()) continue;
      if (*revision != target.revision && target_ancestors.count(*revision) == 0) continue;  // not on this line
      const auto before = graph.ancestors(*revision);
      for (size_t i = 0; i < candidates.size(); ++i) cut[i] = before.count(candidates[i].point.revision) != 0;
    } else {
      const std::optional<int64_t> position = boundary_position(boundary, target, candidates, results);
      if (!position || *position > target.native_order) continue;
      for (size_t i = 0; i < candidates.size(); ++i) cut[i] = candidates[i].point.native_order < *position;
    }
    BoundaryEvidence evidence{boundary.kind, at, boundary.reason, 0};
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (!cut[i]) continue;
      ++evidence.points;
      if (cut_reason[i].empty()) cut_reason[i] = "before-" + boundary.kind;
    }
    out.boundaries.push_back(std::move(evidence));
  }
  return cut_reason;
}

void record_continuity(const SeriesPoint& target, HistoryReference& out) {
  std::map<std::string, int64_t> joined;
  for (const std::string& mapping : target.continuity) joined[mapping] += 1;
  for (const SeriesPoint& p : out.points) {
    for (const std::string& mapping : p.continuity) joined[mapping] += 1;
  }
  for (const auto& [mapping, count] : joined)
    out.boundaries.push_back({"continuity", mapping, "identity-policy continuity mapping", count});
}

}  // namespace

HistoryReference select_history_reference(const SeriesPoint& target, const SeriesIndex& index,
                                          const MethodConfig& method) {
  const std::vector<StoredResult>& results = index.results();
  const IdentityPolicy& policy = index.policy();
  HistoryReference out;
  const bool has_ancestry = target.document != nullptr && !target.document->revision.parents.empty();
  if (has_ancestry && method.ordering != "native") {
    out.ordering = "ancestry";
  } else if (method.ordering != "ancestry") {
    out.ordering = "native";
  } else {
    out.ordering = "unknown";
    return out;
  }

  const RevisionGraph& graph = index.graph();
  std::map<std::string, int64_t> target_ancestors;
  if (out.ordering == "ancestry") {
    target_ancestors = graph.ancestors(target.revision);
    for (const auto& [tree, distance] : target_ancestors) out.ancestors.push_back(tree);
  }

  // The series' points that precede the target: ingested before it and, with ancestry, on one
  // of its ancestors.
  std::vector<Candidate> candidates;
  for (const StoredResult* result : index.members(target.identity)) {
    if (result->id == target.result_id || result->order >= target.native_order) continue;
    SeriesPoint point = series_point(*result, target.quantity, policy);
    if (point.fingerprint != target.fingerprint) continue;
    int64_t distance = 0;
    if (out.ordering == "ancestry") {
      auto it = target_ancestors.find(point.revision);
      if (it == target_ancestors.end()) continue;
      distance = it->second;
    }
    candidates.push_back({std::move(point), distance});
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    return a.point.native_order > b.point.native_order;
  });

  const std::vector<std::string> cut_reason =
      apply_boundaries(target, candidates, results, policy, out.ordering, graph, target_ancestors, out);

  const std::set<std::string> allowed(method.reference_statuses.begin(), method.reference_statuses.end());
  const auto window = static_cast<size_t>(method.window);
  for (size_t i = 0; i < candidates.size() && out.points.size() < window; ++i) {
    const SeriesPoint& point = candidates[i].point;
    std::string reason = cut_reason[i];
    if (reason.empty() && !target.revision.empty() && point.revision == target.revision)
      reason = "same-revision-as-target";
    if (reason.empty() && allowed.count(std::string(to_string(point.status))) == 0)
      reason = fmt::format("status-{}", to_string(point.status));
    if (reason.empty() && !point.value) reason = "no-value";
    if (reason.empty()) {
      out.points.push_back(point);
      out.distances.push_back(candidates[i].distance);
    } else if (out.exclusions.size() < window) {
      out.exclusions.push_back({point.result_id, reason});
    } else {
      ++out.exclusions_not_listed;
    }
  }
  record_continuity(target, out);
  return out;
}

HistoryReference select_history_reference(const SeriesPoint& target, const std::vector<StoredResult>& results,
                                          const IdentityPolicy& policy, const MethodConfig& method) {
  return select_history_reference(target, SeriesIndex(results, policy), method);
}

}  // namespace sf::results

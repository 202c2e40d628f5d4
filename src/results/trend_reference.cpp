#include "results/trend_reference.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace sf::results {

namespace {

// Candidates read from the source at a time: the window (20 by default) and a few exclusions.
constexpr size_t kCandidatePage = 32;

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
Result<std::optional<std::string>> boundary_revision(const HistoryBoundary& boundary, SeriesSource& source) {
  if (!boundary.at_revision.empty()) return boundary.at_revision;
  auto at = source.result(boundary.at_result);
  if (!at) return fail(at.error());
  if (*at == nullptr) return std::optional<std::string>();
  return std::optional<std::string>((*at)->document.revision.tree);
}

// The native-order position a boundary starts at, among the series' points and the target.
Result<std::optional<int64_t>> boundary_position(const HistoryBoundary& boundary, const SeriesPoint& target,
                                                 const std::vector<Candidate>& members, SeriesSource& source) {
  if (!boundary.at_result.empty()) {
    auto at = source.result(boundary.at_result);
    if (!at) return fail(at.error());
    if (*at == nullptr) return std::optional<int64_t>();
    return std::optional<int64_t>((*at)->order);
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
Result<std::vector<std::string>> apply_boundaries(const SeriesPoint& target, const std::vector<Candidate>& candidates,
                                                  SeriesSource& source, const std::string& ordering,
                                                  const std::map<std::string, int64_t>& target_ancestors,
                                                  TrendReference& out) {
  std::vector<std::string> cut_reason(candidates.size());
  for (const HistoryBoundary& boundary : source.policy().boundaries) {
    if (!boundary_applies(boundary, target)) continue;
    const std::string at = boundary.at_revision.empty() ? boundary.at_result : boundary.at_revision;
    std::vector<bool> cut(candidates.size(), false);
    if (ordering == "ancestry") {
      auto revision = boundary_revision(boundary, source);
      if (!revision) return fail(revision.error());
      if (!*revision || (*revision)->empty()) continue;
      if (**revision != target.revision && target_ancestors.count(**revision) == 0) continue;  // not on this line
      auto before = source.ancestors(**revision);
      if (!before) return fail(before.error());
      for (size_t i = 0; i < candidates.size(); ++i) cut[i] = before->count(candidates[i].point.revision) != 0;
    } else {
      auto position = boundary_position(boundary, target, candidates, source);
      if (!position) return fail(position.error());
      if (!*position || **position > target.native_order) continue;
      for (size_t i = 0; i < candidates.size(); ++i) cut[i] = candidates[i].point.native_order < **position;
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

// The series' points that precede the target (ingested before it and, with ancestry, on one of
// its ancestors) in reference order, nearest first, read from the source as they are asked for.
class CandidateReader {
 public:
  CandidateReader(const SeriesPoint& target, SeriesSource& source) : target_(target), source_(source) {}

  // Orders the source's candidates; with ancestry, only those on `ancestors` (else nullptr).
  Status start(const std::map<std::string, int64_t>* ancestors) {
    auto keys = source_.series_candidates(target_.identity, target_.native_order);
    if (!keys) return keys.error();
    for (const ResultKey& key : *keys) {
      if (key.id == target_.result_id || key.order >= target_.native_order) continue;
      int64_t distance = 0;
      if (ancestors != nullptr) {
        auto it = ancestors->find(key.tree);
        if (it == ancestors->end()) continue;
        distance = it->second;
      }
      pending_.push_back({key.order, distance});
    }
    std::sort(pending_.begin(), pending_.end(), [](const Pending& a, const Pending& b) {
      if (a.distance != b.distance) return a.distance < b.distance;
      return a.order > b.order;
    });
    return {};
  }

  bool exhausted() const { return next_ == pending_.size(); }

  // Reads up to `count` more of them into `into`, the ones of another series left out.
  Status read(size_t count, std::vector<Candidate>& into) {
    const size_t end = std::min(pending_.size(), next_ + count);
    std::vector<int64_t> orders;
    for (size_t i = next_; i < end; ++i) orders.push_back(pending_[i].order);
    auto loaded = source_.load(orders);
    if (!loaded) return loaded.error();
    for (size_t i = 0; i < loaded->size(); ++i) {
      const StoredResult& result = *(*loaded)[i];
      SeriesPoint point = series_point(result, target_.quantity, source_.policy());
      if (point.identity != target_.identity || point.fingerprint != target_.fingerprint) continue;
      into.push_back({std::move(point), pending_[next_ + i].distance});
    }
    next_ = end;
    return {};
  }

 private:
  struct Pending {
    int64_t order = 0;
    int64_t distance = 0;
  };
  const SeriesPoint& target_;
  SeriesSource& source_;
  std::vector<Pending> pending_;
  size_t next_ = 0;
};

void record_continuity(const SeriesPoint& target, TrendReference& out) {
  std::map<std::string, int64_t> joined;
  for (const std::string& mapping : target.continuity) joined[mapping] += 1;
  for (const SeriesPoint& p : out.points) {
    for (const std::string& mapping : p.continuity) joined[mapping] += 1;
  }
  for (const auto& [mapping, count] : joined)
    out.boundaries.push_back({"continuity", mapping, "identity-policy continuity mapping", count});
}

}  // namespace

Result<TrendReference> select_trend_reference(const SeriesPoint& target, SeriesSource& source,
                                              const MethodConfig& method) {
  const IdentityPolicy& policy = source.policy();
  TrendReference out;
  const bool has_ancestry = target.document != nullptr && !target.document->revision.parents.empty();
  if (has_ancestry && method.ordering != "native") {
    out.ordering = "ancestry";
  } else if (method.ordering != "ancestry") {
    out.ordering = "native";
  } else {
    out.ordering = "unknown";
    return out;
  }

  std::map<std::string, int64_t> target_ancestors;
  if (out.ordering == "ancestry") {
    auto ancestors = source.ancestors(target.revision);
    if (!ancestors) return fail(ancestors.error());
    target_ancestors = std::move(*ancestors);
    for (const auto& [tree, distance] : target_ancestors) out.ancestors.push_back(tree);
  }

  CandidateReader reader(target, source);
  if (Status s = reader.start(out.ordering == "ancestry" ? &target_ancestors : nullptr); !s.ok()) return fail(s);
  std::vector<Candidate> candidates;
  const bool bounded = std::any_of(policy.boundaries.begin(), policy.boundaries.end(),
                                   [&](const HistoryBoundary& b) { return boundary_applies(b, target); });
  if (bounded) {
    while (!reader.exhausted()) {
      if (Status s = reader.read(kCandidatePage, candidates); !s.ok()) return fail(s);
    }
  }
  auto cut_reason = apply_boundaries(target, candidates, source, out.ordering, target_ancestors, out);
  if (!cut_reason) return fail(cut_reason.error());

  const std::set<std::string> allowed(method.reference_statuses.begin(), method.reference_statuses.end());
  const auto window = static_cast<size_t>(method.window);
  for (size_t i = 0; out.points.size() < window; ++i) {
    while (i == candidates.size() && !reader.exhausted()) {
      if (Status s = reader.read(kCandidatePage, candidates); !s.ok()) return fail(s);
    }
    if (i == candidates.size()) break;
    const SeriesPoint& point = candidates[i].point;
    std::string reason = i < cut_reason->size() ? (*cut_reason)[i] : std::string();
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

TrendReference select_trend_reference(const SeriesPoint& target, const std::vector<StoredResult>& results,
                                      const IdentityPolicy& policy, const MethodConfig& method) {
  SeriesIndex index(results, policy);
  // The in-memory source answers every question.
  return *select_trend_reference(target, index, method);
}

}  // namespace sf::results

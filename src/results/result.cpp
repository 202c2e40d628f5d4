#include "results/result.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace sf::results {

const Quantity* ResultDocument::quantity(std::string_view name) const {
  auto it = std::lower_bound(quantities.begin(), quantities.end(), name,
                             [](const Quantity& q, std::string_view n) { return q.name < n; });
  return it != quantities.end() && it->name == name ? &*it : nullptr;
}

std::string_view to_string(RunStatus status) {
  switch (status) {
    case RunStatus::kOk: return "ok";
    case RunStatus::kPartial: return "partial";
    case RunStatus::kCensored: return "censored";
    case RunStatus::kError: return "error";
    case RunStatus::kSkipped: return "skipped";
  }
  return "error";
}

std::optional<RunStatus> parse_run_status(std::string_view text) {
  for (RunStatus s :
       {RunStatus::kOk, RunStatus::kPartial, RunStatus::kCensored, RunStatus::kError, RunStatus::kSkipped}) {
    if (to_string(s) == text) return s;
  }
  return std::nullopt;
}

std::string_view to_string(Direction direction) {
  switch (direction) {
    case Direction::kLowerIsBetter: return "lower";
    case Direction::kHigherIsBetter: return "higher";
    case Direction::kNone: return "none";
  }
  return "none";
}

std::optional<Direction> parse_direction(std::string_view text) {
  for (Direction d : {Direction::kLowerIsBetter, Direction::kHigherIsBetter, Direction::kNone}) {
    if (to_string(d) == text) return d;
  }
  return std::nullopt;
}

namespace {

std::optional<std::string> lookup(const Coordinates& coordinates, std::string_view key) {
  auto it = coordinates.find(std::string(key));
  if (it == coordinates.end()) return std::nullopt;
  return it->second;
}

}  // namespace

std::optional<std::string> coordinate_value(const ResultDocument& result, std::string_view path) {
  if (path == "subject") return result.subject;
  if (path == "revision.tree") return result.revision.tree;
  if (path == "revision.benchmarkTree") return result.revision.benchmark_tree;
  if (path == "procedure.runKey") return result.procedure.run_key;
  constexpr std::string_view kParameters = "parameters.";
  constexpr std::string_view kEnvironment = "environment.";
  if (path.starts_with(kParameters)) return lookup(result.parameters, path.substr(kParameters.size()));
  if (path.starts_with(kEnvironment)) return lookup(result.environment, path.substr(kEnvironment.size()));
  return std::nullopt;
}

Result<std::string> resolve_result_id(const std::vector<StoredResult>& results, const std::string& id_or_prefix) {
  std::string resolved = id_or_prefix;
  for (const auto& r : results) {
    if (r.id == id_or_prefix) return r.id;
  }
  for (const auto& r : results) {
    if (!r.id.starts_with(id_or_prefix)) continue;
    if (resolved != id_or_prefix) return fail(Status::InvalidArgument(id_or_prefix + ": ambiguous id prefix"));
    resolved = r.id;
  }
  return resolved;
}

ResultKey result_key(const StoredResult& result) {
  return {result.order, result.id, result.document.subject, result.document.revision.tree};
}

Result<std::vector<std::string>> resolve_targets(const std::vector<StoredResult>& results, const std::string& name,
                                                 const std::string& subject) {
  std::vector<ResultKey> keys;
  keys.reserve(results.size());
  for (const StoredResult& r : results) keys.push_back(result_key(r));
  return resolve_targets(keys, name, subject);
}

Result<std::vector<std::string>> resolve_targets(const std::vector<ResultKey>& keys, const std::string& name,
                                                 const std::string& subject) {
  auto of_subject = [&](const ResultKey& r) { return subject.empty() || r.subject == subject; };
  const std::string scope = subject.empty() ? "" : fmt::format(" of subject \"{}\"", subject);
  for (const auto& r : keys) {
    if (r.id == name && of_subject(r)) return std::vector<std::string>{r.id};
  }
  if (name == "latest") {
    std::map<std::string, const ResultKey*> latest;  // by subject
    for (const auto& r : keys) {
      if (of_subject(r)) latest[r.subject] = &r;
    }
    if (latest.empty()) return fail(Status::NotFound(fmt::format("no results{} in the store", scope)));
    std::vector<const ResultKey*> in_order;
    for (const auto& [s, r] : latest) in_order.push_back(r);
    std::sort(in_order.begin(), in_order.end(), [](auto* a, auto* b) { return a->order < b->order; });
    std::vector<std::string> ids;
    for (const ResultKey* r : in_order) ids.push_back(r->id);
    return ids;
  }
  std::vector<std::string> ids;
  std::map<std::string, std::vector<std::string>> by_subject;
  for (const auto& r : keys) {
    if (r.tree != name || name.empty() || !of_subject(r)) continue;
    ids.push_back(r.id);
    by_subject[r.subject].push_back(r.id);
  }
  for (const auto& [s, subject_ids] : by_subject) {
    if (subject_ids.size() < 2) continue;
    std::string listed;
    for (const auto& id : subject_ids) listed += (listed.empty() ? "" : ", ") + id;
    return fail(Status::InvalidArgument(fmt::format("revision {} has {} results of subject \"{}\" ({}): name one by id",
                                                    name, subject_ids.size(), s, listed)));
  }
  if (!ids.empty()) return ids;
  const ResultKey* found = nullptr;
  for (const auto& r : keys) {
    if (!r.id.starts_with(name) || name.empty() || !of_subject(r)) continue;
    if (found != nullptr) return fail(Status::InvalidArgument(name + ": ambiguous result id prefix"));
    found = &r;
  }
  if (found != nullptr) return std::vector<std::string>{found->id};
  return fail(Status::NotFound(fmt::format(
      "no result{} named {} in the store: give a result id (or a unique prefix), a revision, or latest", scope, name)));
}

}  // namespace sf::results

#include "results/run_evaluation.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "results/dispersion_scaled.h"
#include "results/paired_ratio.h"
#include "results/series.h"

namespace sf::results {

namespace {

struct Attempt {
  const StoredResult* result = nullptr;
  bool baseline_side = false;
};

struct Unit {
  std::string key;
  Coordinates identity;  // without the varying coordinate
  std::vector<Attempt> attempts;
};

std::string unit_key(const Coordinates& identity) {
  std::string key;
  for (const auto& [path, value] : identity) key += fmt::format("{}{}={}", key.empty() ? "" : ", ", path, value);
  return key.empty() ? "(all)" : key;
}

bool is_failed(RunStatus s) { return s == RunStatus::kPartial || s == RunStatus::kCensored || s == RunStatus::kError; }

// Unit invariants: both sides, equal counts, one attempt per side per round, rounds contiguous
// in slot order (what "sides alternate by procedure.slot" means for ABAB and ABBA plans alike).
std::vector<FailedInvariant> unit_invariants(const Unit& unit) {
  std::vector<FailedInvariant> failed;
  int64_t baseline_count = 0, target_count = 0;
  for (const Attempt& a : unit.attempts) (a.baseline_side ? baseline_count : target_count) += 1;
  if (baseline_count == 0 || target_count == 0) {
    failed.push_back({"sides-differ-only-in-varying-coordinate", unit.key,
                      fmt::format("only the {} side has results with these coordinates",
                                  baseline_count == 0 ? "target" : "baseline")});
    return failed;
  }
  if (baseline_count != target_count) {
    failed.push_back({"equal-attempt-counts", unit.key,
                      fmt::format("baseline {} attempts, target {}", baseline_count, target_count)});
  }
  std::vector<const Attempt*> ordered;
  for (const Attempt& a : unit.attempts) {
    const Procedure& p = a.result->document.procedure;
    if (!p.round || !p.slot) {
      failed.push_back(
          {"interleaved", unit.key, fmt::format("{} records no procedure.round or procedure.slot", a.result->id)});
      return failed;
    }
    ordered.push_back(&a);
  }
  std::sort(ordered.begin(), ordered.end(), [](const Attempt* x, const Attempt* y) {
    return *x->result->document.procedure.slot < *y->result->document.procedure.slot;
  });
  std::map<int64_t, std::pair<int64_t, int64_t>> per_round;  // round -> (baseline, target) attempts
  std::set<int64_t> closed_rounds;
  std::optional<int64_t> current_round;
  for (size_t i = 0; i < ordered.size(); ++i) {
    const Procedure& p = ordered[i]->result->document.procedure;
    if (i > 0 && *p.slot == *ordered[i - 1]->result->document.procedure.slot) {
      failed.push_back({"interleaved", unit.key, fmt::format("two attempts share slot {}", *p.slot)});
      return failed;
    }
    auto& counts = per_round[*p.round];
    (ordered[i]->baseline_side ? counts.first : counts.second) += 1;
    if (current_round != p.round) {
      if (closed_rounds.count(*p.round) != 0) {
        failed.push_back(
            {"interleaved", unit.key,
             fmt::format("round {} is split by other rounds in slot order (the sides were not run alternately)",
                         *p.round)});
        return failed;
      }
      if (current_round) closed_rounds.insert(*current_round);
      current_round = p.round;
    }
  }
  for (const auto& [round, counts] : per_round) {
    if (counts.first != 1 || counts.second != 1) {
      failed.push_back({"interleaved", unit.key,
                        fmt::format("round {} has {} baseline and {} target attempts (one each expected)", round,
                                    counts.first, counts.second)});
      break;
    }
  }
  return failed;
}

// Run-wide invariants of the profile.
std::vector<FailedInvariant> run_invariants(const std::string& profile, const std::vector<Attempt>& attempts) {
  std::vector<FailedInvariant> failed;
  if (profile == "revisions") {
    std::set<std::string> baseline_trees, target_trees;
    for (const Attempt& a : attempts)
      (a.baseline_side ? baseline_trees : target_trees).insert(a.result->document.revision.tree);
    if (baseline_trees.size() != 1 || target_trees.size() != 1 || baseline_trees == target_trees) {
      failed.push_back({"one-tree-per-side", "",
                        fmt::format("baseline has {} tree id(s), target {}; they must be one each and differ",
                                    baseline_trees.size(), target_trees.size())});
    }
  }
  if (profile == "revisions" || profile == "variants") {
    std::set<std::string> benchmark_trees;
    for (const Attempt& a : attempts) benchmark_trees.insert(a.result->document.revision.benchmark_tree);
    if (benchmark_trees.size() > 1) {
      failed.push_back({"one-benchmark-tree", "",
                        fmt::format("{} different benchmark trees across sides and rounds", benchmark_trees.size())});
    }
  }
  return failed;
}

// Identity facts outside the varying coordinate that differ between the sides of a unit.
std::vector<std::string> unmatched_differences(const Unit& unit, const IdentityPolicy& policy,
                                               const std::string& coordinate) {
  std::map<std::string, std::set<std::string>> baseline_values, target_values;
  for (const Attempt& a : unit.attempts) {
    const ResultDocument& d = a.result->document;
    auto& into = a.baseline_side ? baseline_values : target_values;
    for (const auto& [key, value] : d.environment) into["environment." + key].insert(value);
  }
  std::vector<std::string> out;
  std::set<std::string> paths;
  for (const auto& [path, values] : baseline_values) paths.insert(path);
  for (const auto& [path, values] : target_values) paths.insert(path);
  for (const std::string& path : paths) {
    if (path == coordinate || in_identity(policy, path)) continue;
    if (baseline_values[path] != target_values[path])
      out.push_back(fmt::format("{} differs between the sides ({})", path, unit.key));
  }
  return out;
}

MethodOutcome run_method(const std::vector<Pair>& pairs, const Quantity& meta, const MethodConfig& method) {
  if (method.name == kPairedRatio) return paired_ratio(pairs, meta.deterministic, meta.direction, method);
  return dispersion_scaled_paired(pairs, meta.deterministic, meta.direction, method);
}

std::vector<Evaluation> evaluate_unit(const Unit& unit, const std::string& profile, const IdentityPolicy& policy,
                                      const MethodConfig& method) {
  // Pair by round; the invariants guarantee one attempt per side per round.
  std::map<int64_t, std::pair<const StoredResult*, const StoredResult*>> rounds;
  for (const Attempt& a : unit.attempts) {
    auto& slot = rounds[*a.result->document.procedure.round];
    (a.baseline_side ? slot.first : slot.second) = a.result;
  }
  std::string side_failed;
  std::vector<Exclusion> exclusions;
  std::map<int64_t, std::pair<const StoredResult*, const StoredResult*>> usable;
  for (const auto& [round, sides] : rounds) {
    std::string dropped;
    for (const StoredResult* r : {sides.first, sides.second}) {
      const RunStatus s = r->document.status;
      if (s == RunStatus::kSkipped) dropped = fmt::format("pair-dropped: round {} {} skipped", round, r->id);
      if (is_failed(s)) {
        if (profile == "variants" && side_failed.empty())
          side_failed = fmt::format("round {}: {} has status {}", round, r->id, to_string(s));
        if (dropped.empty())
          dropped = fmt::format("pair-dropped: round {} {} has status {}", round, r->id, to_string(s));
      }
    }
    if (dropped.empty()) {
      usable[round] = sides;
    } else {
      exclusions.push_back({sides.first->id, dropped});
      exclusions.push_back({sides.second->id, dropped});
    }
  }

  // Every quantity any attempt of the unit reports, with its metadata from the first reporter.
  std::map<std::string, Quantity> quantities;
  for (const auto& [round, sides] : rounds) {
    for (const StoredResult* r : {sides.first, sides.second}) {
      for (const Quantity& q : r->document.quantities) quantities.emplace(q.name, q);
    }
  }

  std::vector<Evaluation> out;
  for (const auto& [name, meta] : quantities) {
    Evaluation e;
    const StoredResult* target_example = rounds.begin()->second.second;
    const SeriesPoint point = series_point(*target_example, name, policy);
    e.series_fingerprint = point.fingerprint;
    e.series_label = series_label(unit.identity, name);
    e.identity = unit.identity;
    e.quantity = name;
    e.unit = meta.unit;
    e.direction = std::string(to_string(meta.direction));
    e.deterministic = meta.deterministic;
    e.estimator = std::string(kResultValueEstimator);
    e.unit_key = unit.key;
    e.ordering = "paired-rounds";
    e.exclusions = exclusions;
    if (!side_failed.empty()) {
      e.outcome.reason = "side-failed";
      e.detail = side_failed + " (variants are judged strictly: no verdict from the remaining rounds)";
      out.push_back(std::move(e));
      continue;
    }
    std::vector<Pair> pairs;
    for (const auto& [round, sides] : usable) {
      const Quantity* b = sides.first->document.quantity(name);
      const Quantity* t = sides.second->document.quantity(name);
      if (b == nullptr || t == nullptr) {
        e.exclusions.push_back(
            {(b == nullptr ? sides.first : sides.second)->id, fmt::format("quantity-missing: round {}", round)});
        continue;
      }
      pairs.push_back({round, b->value, t->value});
      e.pairs.push_back({round, sides.first->id, sides.second->id, b->value, t->value});
    }
    e.outcome = run_method(pairs, meta, method);
    if (e.outcome.verdict == Verdict::kIndeterminate) {
      e.detail = e.outcome.reason == "insufficient-pairs"
                     ? fmt::format("{} usable paired round(s), the method needs {}", pairs.size(), method.min_points)
                     : "a ratio needs positive values on both sides";
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

Result<VerdictDocument> evaluate_run(const RunRequest& request, const std::vector<StoredResult>& results,
                                     const IdentityPolicy& policy, const MethodConfig& method) {
  std::string coordinate = request.coordinate;
  if (request.profile == "revisions") {
    if (coordinate.empty()) coordinate = "revision.tree";
  } else if (request.profile == "variants") {
    if (coordinate.empty()) coordinate = "parameters." + std::string(kVariantRoleParameter);
  } else if (request.profile == "environments") {
    if (coordinate.empty() || !coordinate.starts_with("environment.")) {
      return fail(Status::InvalidArgument("profile environments needs --coordinate environment.<key>"));
    }
  } else {
    return fail(Status::InvalidArgument(
        fmt::format("unknown profile \"{}\" (known: revisions, variants, environments)", request.profile)));
  }

  VerdictDocument doc;
  doc.mode = "run";
  doc.method = method;
  doc.policy_schema = policy.schema_label();
  doc.policy_version = policy.version;
  PlannedRun run{request.run_key, request.profile, coordinate, request.baseline, "", {}, false};

  std::vector<Attempt> attempts;
  std::set<std::string> sides;
  for (const StoredResult& r : results) {
    if (r.document.procedure.run_key != request.run_key) continue;
    const std::optional<std::string> side = coordinate_value(r.document, coordinate);
    if (!side)
      return fail(
          Status::InvalidArgument(fmt::format("result {} of run {} has no {}", r.id, request.run_key, coordinate)));
    sides.insert(*side);
    attempts.push_back({&r, *side == request.baseline});
    if (!r.document.revision.clean) run.local_only = true;
  }
  if (attempts.empty()) return fail(Status::NotFound(fmt::format("no results with run key \"{}\"", request.run_key)));
  if (sides.count(request.baseline) == 0) {
    std::string listed;
    for (const auto& s : sides) listed += (listed.empty() ? "" : ", ") + s;
    return fail(Status::InvalidArgument(fmt::format("baseline \"{}\" is not a side of run {} (its {} values: {})",
                                                    request.baseline, request.run_key, coordinate, listed)));
  }
  for (const auto& s : sides) {
    if (s != request.baseline) run.target += (run.target.empty() ? "" : ", ") + s;
  }
  if (run.local_only) doc.caveats.push_back("local-only: a side was built from uncommitted changes");

  if (sides.size() != 2) {
    doc.failed_invariants.push_back(
        {"two-sides", "",
         fmt::format("{} has {} values in this run; a profile compares exactly two", coordinate, sides.size())});
    doc.run = run;
    return doc;
  }
  doc.failed_invariants = run_invariants(request.profile, attempts);

  std::map<std::string, Unit> units;
  for (const Attempt& a : attempts) {
    Coordinates identity = comparison_identity(a.result->document, policy);
    identity.erase(coordinate);
    const std::string key = unit_key(identity);
    Unit& unit = units[key];
    unit.key = key;
    unit.identity = identity;
    unit.attempts.push_back(a);
  }
  for (auto& [key, unit] : units) {
    run.units.push_back(key);
    for (std::string& caveat : unmatched_differences(unit, policy, coordinate))
      doc.caveats.push_back(std::move(caveat));
    if (!doc.failed_invariants.empty() && doc.failed_invariants.front().unit_key.empty()) continue;  // run-wide failure
    std::vector<FailedInvariant> failed = unit_invariants(unit);
    if (!failed.empty()) {
      doc.failed_invariants.insert(doc.failed_invariants.end(), failed.begin(), failed.end());
      continue;
    }
    for (Evaluation& e : evaluate_unit(unit, request.profile, policy, method)) doc.evaluations.push_back(std::move(e));
  }
  doc.run = run;
  return doc;
}

}  // namespace sf::results

#include "compare/run_comparison.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "compare/identity_matching.h"

namespace sf::compare {

namespace {

RunDescription describe(const model::AppModel& model, std::string label) {
  return {std::move(label), model.source.path,       model.app.id,
          model.app.name,   model.app.spark_version, model.app.duration_ms()};
}

std::vector<StageSide> sides_of(const RunIndex& run) {
  std::vector<StageSide> sides;
  for (const auto& s : run.stages) sides.push_back({s.stage_id, s.name, s.execution_id, s.totals});
  return sides;
}

const StageRecord* find_stage(const RunIndex& run, int64_t stage_id) {
  for (const auto& s : run.stages) {
    if (s.stage_id == stage_id) return &s;
  }
  return nullptr;
}

std::vector<ExecutionDelta> execution_deltas(const model::AppModel& baseline, const model::AppModel& candidate,
                                             const ExecutionAlignment& executions) {
  std::vector<ExecutionDelta> deltas;
  for (const ExecutionPair& pair : executions.pairs) {
    const model::SqlExecution* b = baseline.sql_execution(pair.base_execution_id);
    const model::SqlExecution* k = candidate.sql_execution(pair.cand_execution_id);
    if (b == nullptr || k == nullptr) continue;
    ExecutionDelta d;
    d.base_execution_id = pair.base_execution_id;
    d.cand_execution_id = pair.cand_execution_id;
    d.description = b->description;
    d.base_duration_ms = b->duration_ms();
    d.cand_duration_ms = k->duration_ms();
    if (d.base_duration_ms && d.cand_duration_ms) {
      d.delta_ms = *d.cand_duration_ms - *d.base_duration_ms;
      d.noise_ms = noise_allowance(kDurationNoise, static_cast<double>(*d.base_duration_ms));
      d.direction = direction_of(static_cast<double>(*d.delta_ms), d.noise_ms);
    }
    deltas.push_back(std::move(d));
  }
  std::sort(deltas.begin(), deltas.end(),
            [](const ExecutionDelta& x, const ExecutionDelta& y) { return x.base_execution_id < y.base_execution_id; });
  return deltas;
}

// Unrelated runs keep their figures; what they do not get is a verdict on them.
void withhold_directions(Comparison& c) {
  for (MetricDelta& d : c.metric_deltas) {
    if (d.delta) d.direction = ChangeKind::kNotComparable;
  }
  for (ExecutionDelta& d : c.execution_deltas) {
    if (d.delta_ms) d.direction = ChangeKind::kNotComparable;
  }
}

}  // namespace

std::string_view to_string(ComparisonConfidence confidence) {
  switch (confidence) {
    case ComparisonConfidence::kOk: return "ok";
    case ComparisonConfidence::kLow: return "low";
    case ComparisonConfidence::kInsufficient: return "insufficient";
  }
  return "insufficient";
}

std::string confidence_banner(ComparisonConfidence confidence, std::optional<double> runtime_coverage,
                              bool names_differ, std::string_view base_name, std::string_view cand_name) {
  if (confidence == ComparisonConfidence::kOk) return "";
  if (confidence == ComparisonConfidence::kInsufficient) {
    return "Neither run recorded any executor run time, so there is no work to compare.";
  }
  std::string banner;
  if (runtime_coverage && *runtime_coverage < kRuntimeCoverageThreshold) {
    // Rounded down, so a coverage just under the threshold never reads as 90%.
    const auto percent = static_cast<int>(std::floor(*runtime_coverage * 100));
    banner = fmt::format(
        "Only {}% of executor run time is in matched stages, so per-stage rows mostly compare unrelated work.",
        percent);
  }
  if (names_differ) {
    if (!banner.empty()) banner += " ";
    banner += fmt::format("The application names differ (\"{}\" vs \"{}\"), so these may be different jobs.", base_name,
                          cand_name);
  }
  return banner;
}

Comparison compare_runs(const model::AppModel& baseline, const model::AppModel& candidate,
                        const CompareOptions& options) {
  Comparison c;
  c.baseline = describe(baseline, options.base_label);
  c.candidate = describe(candidate, options.cand_label);
  c.normalize_patterns = options.alignment.normalizer.patterns();
  c.replanned_counts_toward_coverage = options.alignment.replanned_counts_toward_coverage;

  TokenDictionary dictionary;
  const RunIndex base_index = index_run(baseline, options.alignment.normalizer, dictionary);
  const RunIndex cand_index = index_run(candidate, options.alignment.normalizer, dictionary);
  c.alignment = align_indexed(base_index, cand_index, options.alignment);
  c.runtime_coverage = c.alignment.runtime_coverage;

  const IdentityMatching identities = match_stage_identities(baseline, candidate);
  c.matched_coverage = identities.matched_coverage;
  c.collision_identities = identities.collision_identities;

  c.metric_deltas = metric_deltas(baseline, candidate, options.analysis.rate_card);
  c.configuration = configuration_differences(baseline, candidate);
  c.execution_deltas = execution_deltas(baseline, candidate, c.alignment.executions);
  const analysis::Analysis base_analysis = analysis::analyze(baseline, options.analysis);
  const analysis::Analysis cand_analysis = analysis::analyze(candidate, options.analysis);
  c.findings = findings_delta(base_analysis.findings, cand_analysis.findings);

  for (const auto& pair : c.alignment.pairs) {
    const StageRecord* b = find_stage(base_index, pair.base_stage_id);
    const StageRecord* k = find_stage(cand_index, pair.cand_stage_id);
    if (b == nullptr || k == nullptr) continue;
    StageDelta delta{pair,
                     {b->stage_id, b->name, b->execution_id, b->totals},
                     {k->stage_id, k->name, k->execution_id, k->totals},
                     k->totals.executor_run_time_ms - b->totals.executor_run_time_ms};
    c.stage_deltas.push_back(std::move(delta));
    if (b->totals.task_skew || k->totals.task_skew) {
      c.skew_deltas.push_back({b->stage_id, k->stage_id, b->totals.task_skew, k->totals.task_skew});
    }
  }
  c.base_stages = sides_of(base_index);
  c.cand_stages = sides_of(cand_index);

  const bool names_differ = baseline.app.name != candidate.app.name;
  if (!c.runtime_coverage) {
    c.confidence = ComparisonConfidence::kInsufficient;
  } else if (*c.runtime_coverage < kRuntimeCoverageThreshold || names_differ) {
    c.confidence = ComparisonConfidence::kLow;
  } else {
    c.confidence = ComparisonConfidence::kOk;
  }
  c.banner = confidence_banner(c.confidence, c.runtime_coverage, names_differ, baseline.app.name, candidate.app.name);
  // A candidate that adds heavy new work to the same application is still that application, so
  // low coverage alone does not withhold the labels. Two sessions of one generic name ("Spark
  // shell") share nothing but stage positions: a pairing with no plan or call-site evidence behind
  // any pair is not one job. Under different names, the pairing must stand on its own: most of the
  // run time paired, and at least one pair of high or medium quality (small synthetic jobs of one
  // shape align weakly).
  auto has_pair = [&](auto&& accept) {
    return std::any_of(c.alignment.pairs.begin(), c.alignment.pairs.end(), accept);
  };
  // A pin is the caller's word, not evidence that the runs are one job.
  const bool any_evidence = !c.alignment.replanned.empty() || has_pair([](const StagePair& p) {
    return p.method != PairMethod::kPositional && p.method != PairMethod::kPinned;
  });
  const bool strong_evidence = has_pair(
      [](const StagePair& p) { return p.method != PairMethod::kPinned && pair_quality(p.method, p.score) != "low"; });
  c.comparable = c.alignment.executions.accepted && c.runtime_coverage &&
                 (names_differ ? *c.runtime_coverage >= kMinComparableCoverage && strong_evidence : any_evidence);
  if (!c.comparable && c.confidence != ComparisonConfidence::kInsufficient) {
    if (!c.banner.empty()) c.banner += ' ';
    c.banner += "The runs do not do the same work, so no change is labelled an improvement or a regression.";
  }
  if (!c.comparable) withhold_directions(c);
  return c;
}

}  // namespace sf::compare

#include "report/comparison_json.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "analysis/finding.h"

namespace sf::report {

namespace {

using json = nlohmann::ordered_json;
using namespace sf::compare;

// Ratios and scores rounded to 6 decimals, so the document does not carry float noise.
double rounded(double value) {
  return std::round(value * 1e6) / 1e6;
}

json optional_number(const std::optional<double>& value) {
  return value ? json(rounded(*value)) : json(nullptr);
}

template <class T>
json optional_integer(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

json run_json(const RunDescription& run) {
  return {{"label", run.label},
          {"path", run.path},
          {"appId", run.app_id},
          {"appName", run.app_name},
          {"sparkVersion", run.spark_version},
          {"durationMs", optional_integer(run.duration_ms)}};
}

json totals_json(const StageTotals& t) {
  return {{"executorRunTimeMs", t.executor_run_time_ms},
          {"executorCpuTimeMs", t.executor_cpu_time_ms},
          {"taskTimeMs", t.task_time_ms},
          {"durationMs", t.duration_ms},
          {"jvmGcTimeMs", t.jvm_gc_time_ms},
          {"inputBytes", t.input_bytes},
          {"outputBytes", t.output_bytes},
          {"shuffleReadBytes", t.shuffle_read_bytes},
          {"shuffleWriteBytes", t.shuffle_write_bytes},
          {"memorySpillBytes", t.memory_spill_bytes},
          {"diskSpillBytes", t.disk_spill_bytes},
          {"tasks", t.tasks},
          {"failedTasks", t.failed_tasks},
          {"taskSkew", optional_number(t.task_skew)}};
}

json stage_side_json(const StageSide& side) {
  return {{"stageId", side.stage_id},
          {"name", side.name},
          {"executionId", optional_integer(side.execution_id)},
          {"totals", totals_json(side.totals)}};
}

json metric_json(const MetricDelta& d) {
  return {{"name", d.name},
          {"unit", d.unit},
          {"baseline", optional_number(d.baseline)},
          {"candidate", optional_number(d.candidate)},
          {"delta", optional_number(d.delta)},
          {"relativeChange", optional_number(d.relative_change)},
          {"direction", to_string(d.direction)},
          {"noise", rounded(d.noise)},
          {"unavailableReason", d.unavailable_reason.empty() ? json(nullptr) : json(d.unavailable_reason)}};
}

json categories_json(const std::vector<FindingCategory>& categories) {
  json out = json::array();
  for (const auto& c : categories) {
    out.push_back({{"rule", c.rule},
                   {"band", analysis::to_string(c.band)},
                   {"baseline", c.baseline},
                   {"candidate", c.candidate}});
  }
  return out;
}

json pair_json(const StagePair& p) {
  return {{"baselineStageId", p.base_stage_id},
          {"candidateStageId", p.cand_stage_id},
          {"baselineExecutionId", optional_integer(p.base_execution_id)},
          {"candidateExecutionId", optional_integer(p.cand_execution_id)},
          {"method", to_string(p.method)},
          {"byPosition", p.method == PairMethod::kPositional},
          {"score", rounded(p.score)},
          {"quality", pair_quality(p.method, p.score)}};
}

json budget_json(const BudgetResult& r) {
  std::string kind = r.budget.kind == Budget::Kind::kRelative   ? "relative"
                     : r.budget.kind == Budget::Kind::kIncrease ? "increase"
                                                                : "ceiling";
  return {{"budget", r.budget.text},
          {"metric", r.budget.metric},
          {"kind", kind},
          {"limit", rounded(r.budget.limit)},
          {"allowed", optional_number(r.allowed)},
          {"candidate", optional_number(r.candidate)},
          {"exceeded", r.exceeded},
          {"uncheckedReason", r.unchecked_reason.empty() ? json(nullptr) : json(r.unchecked_reason)}};
}

}  // namespace

std::string comparison_json(const Comparison& c, int indent) {
  json doc;
  doc["comparisonSchemaVersion"] = kComparisonSchemaVersion;
  doc["baseline"] = run_json(c.baseline);
  doc["candidate"] = run_json(c.candidate);
  doc["confidence"] = to_string(c.confidence);
  doc["banner"] = c.banner.empty() ? json(nullptr) : json(c.banner);
  doc["runtimeCoverage"] = optional_number(c.runtime_coverage);
  doc["matchedCoverage"] = rounded(c.matched_coverage);

  doc["comparable"] = c.comparable;
  json configuration = json::array();
  for (const auto& d : c.configuration) {
    auto text = [](const std::optional<std::string>& v) { return v ? json(*v) : json(nullptr); };
    configuration.push_back({{"key", d.key},
                             {"baseline", text(d.baseline)},
                             {"candidate", text(d.candidate)},
                             {"baselineEffective", text(d.baseline_effective)},
                             {"candidateEffective", text(d.candidate_effective)},
                             {"sameInEffect", d.same_in_effect}});
  }
  doc["configurationDifferences"] = configuration;

  json metrics = json::array();
  for (const auto& d : c.metric_deltas) metrics.push_back(metric_json(d));
  doc["metricDeltas"] = metrics;
  json executions = json::array();
  for (const auto& d : c.execution_deltas) {
    executions.push_back({{"baselineExecutionId", d.base_execution_id},
                          {"candidateExecutionId", d.cand_execution_id},
                          {"description", d.description},
                          {"baselineDurationMs", optional_integer(d.base_duration_ms)},
                          {"candidateDurationMs", optional_integer(d.cand_duration_ms)},
                          {"deltaMs", optional_integer(d.delta_ms)},
                          {"noiseMs", rounded(d.noise_ms)},
                          {"direction", to_string(d.direction)}});
  }
  doc["executionDeltas"] = executions;
  doc["findingsDelta"] = {{"categories", categories_json(c.findings.categories)},
                          {"introduced", categories_json(c.findings.introduced)},
                          {"resolved", categories_json(c.findings.resolved)}};

  const auto& a = c.alignment;
  json execution_pairs = json::array();
  for (const auto& p : a.executions.pairs) {
    execution_pairs.push_back({{"baselineExecutionId", p.base_execution_id},
                               {"candidateExecutionId", p.cand_execution_id},
                               {"score", rounded(p.score)}});
  }
  doc["executionAlignment"] = {{"baselineExecutions", a.executions.base_executions},
                               {"candidateExecutions", a.executions.cand_executions},
                               {"paired", a.executions.paired},
                               {"agreement", optional_number(a.executions.agreement)},
                               {"accepted", a.executions.accepted},
                               {"bounded", a.executions.bounded},
                               {"pairs", execution_pairs}};

  json pairs = json::array();
  for (const auto& p : a.pairs) pairs.push_back(pair_json(p));
  doc["stagePairs"] = pairs;
  doc["unmatched"] = {{"baseline", a.unmatched_base}, {"candidate", a.unmatched_cand}};
  json replanned = json::array();
  for (const auto& g : a.replanned) {
    replanned.push_back({{"baselineExecutionId", g.base_execution_id},
                         {"candidateExecutionId", g.cand_execution_id},
                         {"baselineStageIds", g.base_stage_ids},
                         {"candidateStageIds", g.cand_stage_ids},
                         {"baselineTotals", totals_json(g.base_totals)},
                         {"candidateTotals", totals_json(g.cand_totals)}});
  }
  doc["replanned"] = replanned;
  doc["deltaBookkeeping"] = {{"baseline", a.bookkeeping_base}, {"candidate", a.bookkeeping_cand}};
  doc["runTime"] = {{"pairedMs", a.paired_run_time_ms},
                    {"replannedMs", a.replanned_run_time_ms},
                    {"totalMs", a.total_run_time_ms},
                    {"replannedCountsTowardCoverage", c.replanned_counts_toward_coverage}};

  json stage_deltas = json::array();
  for (const auto& d : c.stage_deltas) {
    stage_deltas.push_back({{"pair", pair_json(d.pair)},
                            {"baseline", stage_side_json(d.base)},
                            {"candidate", stage_side_json(d.cand)},
                            {"executorRunTimeDeltaMs", d.run_time_delta_ms}});
  }
  doc["stageDeltas"] = stage_deltas;
  json skew = json::array();
  for (const auto& s : c.skew_deltas) {
    skew.push_back({{"baselineStageId", s.base_stage_id},
                    {"candidateStageId", s.cand_stage_id},
                    {"baselineSkew", optional_number(s.base_skew)},
                    {"candidateSkew", optional_number(s.cand_skew)}});
  }
  doc["stageSkewDeltas"] = skew;
  doc["collisionIdentities"] = c.collision_identities;
  json base_stages = json::array(), cand_stages = json::array();
  for (const auto& s : c.base_stages) base_stages.push_back(stage_side_json(s));
  for (const auto& s : c.cand_stages) cand_stages.push_back(stage_side_json(s));
  doc["baseStages"] = base_stages;
  doc["candStages"] = cand_stages;
  doc["normalizePatterns"] = c.normalize_patterns;
  json budgets = json::array();
  for (const auto& b : c.budgets) budgets.push_back(budget_json(b));
  doc["budgets"] = budgets;
  return doc.dump(indent) + "\n";
}

}  // namespace sf::report

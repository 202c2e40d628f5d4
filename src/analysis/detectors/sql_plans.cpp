// Detectors of SQL plan shapes that cost time: duplicatePlanSubtree, smallFiles, overBroadcast,
// underBroadcast.
//
// Each reads an execution's final plan (the one that ran, after AQE) and ties what it flags to
// the stages that ran the flagged nodes: PlanNode::stage_ids, from accumulator evidence, or the
// whole execution's stages when the flagged nodes carry none (the impact specification's
// "Stage-ID attribution for Plan Advisor findings"). Sizes and counts come from the nodes' SQL
// metrics as they ran ("data size", "number of files read", "size of files read"); most scan and
// broadcast metrics are driver-side, the rest are task-side.
//
// What a fix would save comes from what the stages measured wherever the log has it: the work
// of the copies of a repeated subtree, the shuffle, sort and spill a broadcast would avoid,
// Spark's own broadcast timings; a modeled constant (a file open, a throughput) only where Spark
// does not measure, said to be one. Work is task time, so it is spread over the tasks that ran
// at once (removed_work.h), never claimed as wall-clock whole.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "analysis/detectors/detectors.h"
#include "analysis/detectors/plan_fingerprints.h"
#include "analysis/detectors/plan_text.h"
#include "analysis/detectors/removed_work.h"
#include "analysis/findings/figure_words.h"
#include "analysis/findings/finding_types.h"
#include "common/units.h"

namespace sf::analysis {

namespace {

using model::PlanMetric;
using model::PlanNode;
using model::PlanTree;
using model::SqlExecution;
using model::StageAttempt;
using units::format_bytes;
using units::format_count;
using units::format_duration_ms;
using units::format_percent;

constexpr int64_t kDefaultBroadcastThresholdBytes = 10 * 1024 * 1024;  // spark.sql.autoBroadcastJoinThreshold

// ---------------------------------------------------------------------------------------------
// Reading plans

// "Scan parquet db.sales", "Scan parquet at InMemoryFileIndex[s3://bucket/t]", "SortMergeJoin".
std::string node_label(const PlanNode& node) {
  std::string label = shortened_plan_text(node.node_name, 80);
  if (const std::string* location = metadata_value(node, "Location"); location != nullptr) {
    label += " at " + shortened_plan_text(*location, 100);
  }
  return label;
}

std::string node_key(const SqlExecution& sql, int32_t node_id) {
  return fmt::format("sql-{}.node-{}", sql.execution_id, node_id);
}

std::string execution_label(const SqlExecution& sql) {
  const std::string description = shortened_plan_text(sql.description, 60);
  return description.empty() ? fmt::format("SQL {}", sql.execution_id)
                             : fmt::format("SQL {} ({})", sql.execution_id, description);
}

SettingChange execution_setting_change(const DetectorContext& context, const SqlExecution& sql, std::string key,
                                       std::string suggested_value) {
  SettingChange change = context.setting(key, std::move(suggested_value));
  change.current_value = context.execution_property(sql, key).value_or("");
  return change;
}

// "60m": Spark's byte-string form in whole MiB, rounded up (a floor to allow) or down (a ceiling
// to stay under).
std::string mib_setting_up(double bytes) { return fmt::format("{}m", static_cast<int64_t>(std::ceil(bytes / kMiB))); }
std::string mib_setting_down(double bytes) {
  return fmt::format("{}m", static_cast<int64_t>(std::floor(bytes / kMiB)));
}

// ---------------------------------------------------------------------------------------------
// Stage attribution and the waste claim

// The stage attempts that ran the flagged nodes, by their accumulator evidence (every attempt of
// a stage id that ran); the execution's stages when the nodes have no evidence.
struct StageAttribution {
  std::vector<const StageAttempt*> attempts;
  bool narrowed = false;  // false: the execution's stages stand in
};

StageAttribution attribute_stages(const DetectorContext& context, const SqlExecution& sql,
                                  const std::set<int64_t>& node_stage_ids) {
  auto attempts_of = [&](auto&& contains) {
    std::vector<const StageAttempt*> attempts;
    for (const StageAttempt* stage : context.ran_stages()) {
      if (contains(stage->stage_id)) attempts.push_back(stage);
    }
    return attempts;
  };
  StageAttribution attribution;
  attribution.attempts = attempts_of([&](int64_t id) { return node_stage_ids.contains(id); });
  attribution.narrowed = !attribution.attempts.empty();
  if (!attribution.narrowed) {
    attribution.attempts =
        attempts_of([&](int64_t id) { return std::binary_search(sql.stage_ids.begin(), sql.stage_ids.end(), id); });
  }
  return attribution;
}

std::set<int64_t> stage_ids_of(const PlanNode& node) { return {node.stage_ids.begin(), node.stage_ids.end()}; }

std::vector<StageRef> refs_of(const std::vector<const StageAttempt*>& attempts) {
  std::vector<StageRef> refs;
  for (const StageAttempt* stage : attempts) refs.push_back(DetectorContext::ref(*stage));
  return refs;
}

// A wall-clock waste in ms spread over the stages that ran it in proportion to their durations,
// so each part is clipped against its own stage; with no stage to hold it, a cost-only claim.
WasteClaim spread_claim(const DetectorContext& context, const std::vector<const StageAttempt*>& attempts,
                        double waste_ms, EstimateMethod method) {
  WasteClaim claim;
  claim.method = method;
  claim.raw = RawWaste{waste_ms, WasteUnit::kMs};
  double total_duration = 0;
  for (const StageAttempt* stage : attempts) total_duration += context.occupancy(*stage).duration_ms;
  if (attempts.empty() || total_duration <= 0) {
    claim.kind = WasteClaim::Kind::kResourceOnly;
    return claim;
  }
  claim.kind = WasteClaim::Kind::kStages;
  for (const StageAttempt* stage : attempts) {
    const double share = context.occupancy(*stage).duration_ms / total_duration;
    claim.stages.push_back({DetectorContext::ref(*stage), waste_ms * share});
  }
  return claim;
}

std::string attribution_caveat(const StageAttribution& attribution) {
  if (attribution.narrowed) return "";
  return "No flagged plan node carries accumulator evidence of the stages that ran it, so the figure is spread "
         "over all the execution's stages.";
}

// Each plan node instance is reported once: the same node (same metric accumulators) appears
// again under a ReusedExchange, and in every execution that reads a cached plan.
class ReportedNodes {
 public:
  bool first_time(std::optional<int64_t> accumulator_id) {
    if (!accumulator_id) return true;
    return seen_.insert(*accumulator_id).second;
  }

 private:
  std::set<int64_t> seen_;
};

// ---------------------------------------------------------------------------------------------
// duplicatePlanSubtree

void report_duplicate(const DetectorContext& context, const SqlExecution& sql, const PlanFingerprints& prints,
                      const RepeatedSubtree& group, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const PlanTree& tree = sql.plan;
  std::set<int64_t> stage_ids;
  for (const SubtreeOccurrence& at : group.occurrences) {
    for (int32_t id : prints.working_nodes(at.root)) {
      const auto& ids = tree.nodes[static_cast<size_t>(id)].stage_ids;
      stage_ids.insert(ids.begin(), ids.end());
    }
  }
  const StageAttribution attribution = attribute_stages(context, sql, stage_ids);
  if (attribution.attempts.empty()) return;  // it never ran: nothing was spent twice
  // The work of the copies, not the stages' windows: a copy that waited for cores behind the
  // other one has a longer window but no more work. Computing it once removes all but one of
  // the copies' share of that work.
  const double occurrences = static_cast<double>(group.occurrences.size());
  const double redundant_fraction = (occurrences - 1) / occurrences;
  double task_time = 0;
  std::vector<RemovedWork> removed;
  for (const StageAttempt* stage : attribution.attempts) {
    const auto run_ms = static_cast<double>(stage->metric(model::TaskMetric::kExecutorRunTimeMs));
    task_time += run_ms;
    removed.push_back({stage, run_ms * redundant_fraction});
  }
  const double redundant_task_ms = task_time * redundant_fraction;
  WasteClaim claim = removed_work_claim(context, removed, EstimateMethod::kMeasured);
  double wall_ms = 0;
  for (const RemovedWork& w : removed) wall_ms += removed_wall_ms(context, w);

  std::string node_ids;
  for (const SubtreeOccurrence& at : group.occurrences) {
    node_ids += (node_ids.empty() ? "" : ", ") + std::to_string(at.root);
  }
  const int32_t first = group.occurrences.front().root;
  const std::string outline = subtree_outline(tree, first);
  Finding f;
  f.type = finding_type::kDuplicatePlanSubtree;
  f.scope = Scope::kSql;
  f.id = DetectorContext::finding_id(f.type, f.rule, node_key(sql, first));
  f.stages = refs_of(attribution.attempts);
  f.sql_execution_id = sql.execution_id;
  f.title = fmt::format("{}: the same {}-operator subtree ({}) is computed {} times", execution_label(sql),
                        group.work_nodes, outline, group.occurrences.size());
  f.explanation = fmt::format(
      "In the final plan of SQL execution {}, the subtree {} ({} operators) appears {} times (plan nodes {}) and "
      "Spark did not reuse it: no ReusedExchange or ReusedSubquery stands in for any copy, so each copy is computed "
      "from its inputs. The stages that ran these copies ({}) did {} of task work; computing it once saves {} of the "
      "{} computations, {} of that work ({}), about {} of wall-clock over the tasks that ran at once.",
      sql.execution_id, outline, group.work_nodes, group.occurrences.size(), node_ids, stage_list(attribution.attempts),
      duration_text(task_time), group.occurrences.size() - 1, group.occurrences.size(),
      format_percent(redundant_fraction), duration_text(redundant_task_ms), duration_text(wall_ms));
  f.recommendation =
      "Compute the shared part once. Persist the DataFrame it comes from before using it twice "
      "(df.persist(StorageLevel.MEMORY_AND_DISK), then unpersist() when done), or restructure the query to read and "
      "transform it once (for example one aggregation with conditional expressions instead of a self-join or a union "
      "of filtered copies). Spark reuses a repeated part by itself only when it ends in an exchange or a subquery "
      "and spark.sql.exchange.reuse is on (the default: true).";
  if (context.execution_property(sql, "spark.sql.exchange.reuse") == "false") {
    f.settings.push_back(execution_setting_change(context, sql, "spark.sql.exchange.reuse", "true"));
  }
  f.evidence = {{"occurrences", occurrences, "count"},
                {"subtreeOperators", static_cast<double>(group.work_nodes), "count"},
                {"attributedStages", static_cast<double>(attribution.attempts.size()), "count"},
                {"stageTaskTimeMs", task_time, "ms"},
                {"redundantFraction", redundant_fraction, "fraction"},
                {"redundantTaskTimeMs", redundant_task_ms, "ms"}};
  f.thresholds = {"duplicatePlanSubtree.minNodes"};
  f.confidence =
      attribution.narrowed ? context.confidence_above(group.work_nodes, t.duplicate_min_nodes) : Confidence::kLow;
  f.validation_caveat =
      "The figure charges the redundant share of the work of whole stages to the repeated subtree; stages that also "
      "did other work make it an upper bound.";
  if (!attribution.narrowed) f.validation_caveat += " " + attribution_caveat(attribution);
  f.claim = std::move(claim);
  findings.push_back(std::move(f));
}

void duplicate_plan_subtree(const DetectorContext& context, const SqlExecution& sql, std::vector<Finding>& findings) {
  if (sql.plan.empty()) return;
  PlanShapes shapes;
  const PlanFingerprints prints(sql.plan, shapes);
  for (const RepeatedSubtree& group : repeated_subtrees({&prints}, context.thresholds().duplicate_min_nodes)) {
    report_duplicate(context, sql, prints, group, findings);
  }
}

// ---------------------------------------------------------------------------------------------
// smallFiles

// What a scan measured in each stage that ran it: a columnar scan's "scan time", else the
// stage's executor run time (which holds the scan and whatever ran beside it).
struct ScanWork {
  std::vector<RemovedWork> parts;
  double task_ms = 0;
  std::string measure;  // how it was measured, in words
};

ScanWork scan_work(const DetectorContext& context, const PlanNode& scan,
                   const std::vector<const StageAttempt*>& attempts) {
  ScanWork work;
  const std::vector<StageMetricPart> scan_time = metric_parts_by_stage(context.model(), scan, plan_metric::kScanTime);
  work.measure = scan_time.empty() ? "the run time of its stages" : "its scan time";
  for (const StageAttempt* stage : attempts) {
    const double ms = scan_time.empty() ? static_cast<double>(stage->metric(model::TaskMetric::kExecutorRunTimeMs))
                                        : stage_part(scan_time, stage);
    if (ms <= 0) continue;
    work.parts.push_back({stage, ms});
    work.task_ms += ms;
  }
  return work;
}

void small_files(const DetectorContext& context, const SqlExecution& sql, ReportedNodes& reported,
                 std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const PlanNode& node : sql.plan.nodes) {
    const auto files = metric_as_ran(context.model(), sql, node, plan_metric::kFilesRead);
    const auto bytes = metric_as_ran(context.model(), sql, node, plan_metric::kFileBytesRead);
    if (!files || !bytes || *files <= 0) continue;
    const double file_count = static_cast<double>(*files);
    const double average = static_cast<double>(*bytes) / file_count;
    if (file_count < t.small_files_min_files || average >= t.small_files_max_avg_bytes) continue;
    const double ideal_files = std::max(1.0, std::ceil(static_cast<double>(*bytes) / t.small_files_target_bytes));
    const double excess = file_count - ideal_files;
    if (excess <= 0) continue;
    if (!reported.first_time(metric_accumulator(node, plan_metric::kFilesRead))) continue;
    const StageAttribution attribution = attribute_stages(context, sql, stage_ids_of(node));
    const auto metadata_ms = metric_as_ran(context.model(), sql, node, plan_metric::kMetadataTime);
    // The opens are task time: spread over the scan's stages in proportion to what the scan
    // measured there, and never more than that (the files cannot have cost more than reading them).
    const double modeled_task_ms = excess * t.file_open_overhead_ms;
    const ScanWork scan = scan_work(context, node, attribution.attempts);
    std::vector<RemovedWork> removed;
    double claimed_task_ms = 0;
    double wall_ms = 0;
    for (const RemovedWork& measured : scan.parts) {
      const double share = scan.task_ms > 0 ? measured.task_ms / scan.task_ms : 0.0;
      removed.push_back({measured.stage, std::min(measured.task_ms, modeled_task_ms * share)});
      claimed_task_ms += removed.back().task_ms;
      wall_ms += removed_wall_ms(context, removed.back());
    }

    Finding f;
    f.type = finding_type::kSmallFiles;
    f.scope = Scope::kSql;
    f.id = DetectorContext::finding_id(f.type, f.rule, node_key(sql, node.node_id));
    f.stages = refs_of(attribution.attempts);
    f.sql_execution_id = sql.execution_id;
    f.title = fmt::format("{}: {} read {} files of {} on average", execution_label(sql), node_label(node),
                          format_count(*files), format_bytes(static_cast<int64_t>(average)));
    f.explanation = fmt::format(
        "The scan {} (plan node {}) read {} files holding {} in all, {} per file on average (below "
        "smallFiles.maxAvgBytes, {}). At {} per file the same data fits in {} files; each of the {} extra files "
        "costs an open, a footer or header read and its share of task scheduling, modeled at {} ms of task time "
        "each: {}{}. Spread over the tasks that ran at once, that is about {} of wall-clock.{}",
        node_label(node), node.node_id, format_count(*files), format_bytes(*bytes),
        format_bytes(static_cast<int64_t>(average)), format_bytes(static_cast<int64_t>(t.small_files_max_avg_bytes)),
        format_bytes(static_cast<int64_t>(t.small_files_target_bytes)), format_count(static_cast<int64_t>(ideal_files)),
        format_count(static_cast<int64_t>(excess)), t.file_open_overhead_ms, duration_text(modeled_task_ms),
        claimed_task_ms + 0.5 < modeled_task_ms
            ? fmt::format(", held to the {} the scan took ({})", duration_text(scan.task_ms), scan.measure)
            : std::string(),
        duration_text(wall_ms),
        metadata_ms ? fmt::format(" Listing the files and reading their metadata took {} on the driver.",
                                  format_duration_ms(*metadata_ms))
                    : std::string());
    f.recommendation = fmt::format(
        "Compact the input into fewer, larger files (about {} each): OPTIMIZE for Delta tables, rewrite_data_files "
        "for Iceberg, or rewrite the data with repartition()/coalesce() before writing, and fix the writer that "
        "produces the small files. Until then, spark.sql.files.maxPartitionBytes (default 128 MiB) and "
        "spark.sql.files.openCostInBytes (default 4 MiB, the weight Spark gives each file when packing files into "
        "tasks) change how many files each task takes; they change the task count, not the number of files opened.",
        format_bytes(static_cast<int64_t>(t.small_files_target_bytes)));
    // spark.sql.files.maxPartitionBytes and openCostInBytes are named in the recommendation, not
    // suggested: with no value that fixes the file count, naming them as changes would say nothing.
    f.evidence = {{"filesRead", file_count, "count"},     {"bytesRead", static_cast<double>(*bytes), "bytes"},
                  {"averageFileBytes", average, "bytes"}, {"idealFileCount", ideal_files, "count"},
                  {"excessFileCount", excess, "count"},   {"modeledOpenTaskMs", modeled_task_ms, "ms"},
                  {"scanTaskMs", scan.task_ms, "ms"},     {"claimedTaskMs", claimed_task_ms, "ms"}};
    if (metadata_ms) f.evidence.push_back({"metadataTimeMs", static_cast<double>(*metadata_ms), "ms"});
    f.thresholds = {"smallFiles.maxAvgBytes", "smallFiles.minFiles", "smallFiles.targetBytes",
                    "impact.fileOpenOverheadMs"};
    f.confidence = std::min(context.confidence_below(average, t.small_files_max_avg_bytes),
                            context.confidence_above(file_count, t.small_files_min_files));
    f.validation_caveat = attribution_caveat(attribution);
    f.claim = removed_work_claim(context, removed, EstimateMethod::kModeled);
    if (removed.empty()) f.claim.raw = RawWaste{modeled_task_ms, WasteUnit::kCoreMs};
    findings.push_back(std::move(f));
  }
}

// ---------------------------------------------------------------------------------------------
// overBroadcast

bool is_broadcast_exchange(const PlanNode& node) {
  return std::string_view(node.node_name).ends_with("BroadcastExchange");
}

struct BroadcastThreshold {
  int64_t bytes = kDefaultBroadcastThresholdBytes;
  bool disabled = false;  // set to -1
  std::string key = "spark.sql.autoBroadcastJoinThreshold";
  std::string current;  // as set; "" when the default applies
};

// The size under which a join side is broadcast, as this execution ran: AQE's own threshold
// when AQE is on and it is set (Spark 3.2+), else spark.sql.autoBroadcastJoinThreshold.
BroadcastThreshold broadcast_threshold(const DetectorContext& context, const SqlExecution& sql) {
  BroadcastThreshold threshold;
  const bool adaptive = is_adaptive(sql.plan);
  auto read = [&](const std::string& key) -> bool {
    auto value = context.execution_property(sql, key);
    if (!value) return false;
    threshold.key = key;
    threshold.current = *value;
    if (value->starts_with("-")) {
      threshold.disabled = true;
      threshold.bytes = 0;
    } else if (auto bytes = parse_size_bytes(*value)) {
      threshold.bytes = *bytes;
    }
    return true;
  };
  if (adaptive && read("spark.sql.adaptive.autoBroadcastJoinThreshold")) return threshold;
  read("spark.sql.autoBroadcastJoinThreshold");
  return threshold;
}

void over_broadcast(const DetectorContext& context, const SqlExecution& sql, ReportedNodes& reported,
                    std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const PlanNode& node : sql.plan.nodes) {
    if (!is_broadcast_exchange(node)) continue;
    const auto bytes = metric_as_ran(context.model(), sql, node, plan_metric::kExchangeBytes);
    if (!bytes || static_cast<double>(*bytes) < t.broadcast_over_max_bytes) continue;
    if (!reported.first_time(metric_accumulator(node, plan_metric::kExchangeBytes))) continue;
    const StageAttribution attribution = attribute_stages(context, sql, stage_ids_of(node));
    const BroadcastThreshold threshold = broadcast_threshold(context, sql);
    const auto collect_ms = metric_as_ran(context.model(), sql, node, {"time to collect", "time to collect (ms)"});
    const auto build_ms = metric_as_ran(context.model(), sql, node, {"time to build", "time to build (ms)"});
    const auto broadcast_ms =
        metric_as_ran(context.model(), sql, node, {"time to broadcast", "time to broadcast (ms)"});
    const int64_t observed_ms = collect_ms.value_or(0) + build_ms.value_or(0) + broadcast_ms.value_or(0);
    // A shuffle join still computes the relation (the collect job's work stays) but no longer
    // builds it on the driver and sends it out: Spark times both, and the join waits for them.
    // Without those timings, the bytes at the modeled broadcast rate.
    const int64_t measured_ms = build_ms.value_or(0) + broadcast_ms.value_or(0);
    const double modeled_ms = static_cast<double>(*bytes) / t.broadcast_bandwidth_bps * 1000.0;
    const double waste = measured_ms > 0 ? static_cast<double>(measured_ms) : modeled_ms;

    Finding f;
    f.type = finding_type::kOverBroadcast;
    f.scope = Scope::kSql;
    f.id = DetectorContext::finding_id(f.type, f.rule, node_key(sql, node.node_id));
    f.stages = refs_of(attribution.attempts);
    f.sql_execution_id = sql.execution_id;
    f.title = fmt::format("{}: a {} broadcast", execution_label(sql), format_bytes(*bytes));
    const bool threshold_allowed =
        !threshold.disabled && static_cast<double>(threshold.bytes) >= static_cast<double>(*bytes);
    f.explanation = fmt::format(
        "BroadcastExchange (plan node {}) collected {} to the driver, built a relation from it and sent it to every "
        "executor; that is above broadcast.overMaxBytes ({}). {} {}",
        node.node_id, format_bytes(*bytes), format_bytes(static_cast<int64_t>(t.broadcast_over_max_bytes)),
        measured_ms > 0
            ? fmt::format("Spark measured {} collecting, {} building and {} broadcasting it; a shuffle join would "
                          "still compute it but skip the building and broadcasting: {}.",
                          format_duration_ms(collect_ms.value_or(0)), format_duration_ms(build_ms.value_or(0)),
                          format_duration_ms(broadcast_ms.value_or(0)), duration_text(waste))
            : fmt::format("The log does not time its building and broadcasting; at the modeled {} that costs about "
                          "{}.",
                          rate_words(t.broadcast_bandwidth_bps), duration_text(waste)),
        threshold_allowed
            ? fmt::format("{} is {}, so the planner was allowed to broadcast it.", threshold.key, threshold.current)
            : fmt::format("{} is {}, below this size: a broadcast hint forced it, or the planner's size estimate was "
                          "far below the real size.",
                          threshold.key, threshold.current.empty() ? "the default 10 MiB" : threshold.current));
    f.recommendation =
        threshold_allowed
            ? fmt::format(
                  "Lower {} below the size of this relation so the join runs as a shuffle join, which moves the "
                  "data in parallel instead of through the driver; a broadcast this large risks a driver "
                  "out-of-memory error and spark.sql.broadcastTimeout (default 300 s).",
                  threshold.key)
            : std::string(
                  "Remove the broadcast hint (broadcast(df), /*+ BROADCAST */) from this join, or give the planner "
                  "correct statistics (ANALYZE TABLE ... COMPUTE STATISTICS) so it picks a shuffle join; a "
                  "broadcast this large risks a driver out-of-memory error and spark.sql.broadcastTimeout "
                  "(default 300 s).");
    if (threshold_allowed) {
      // Below this relation and no higher than broadcast.overMaxBytes.
      const double suggested =
          std::min({static_cast<double>(threshold.bytes), t.broadcast_over_max_bytes, static_cast<double>(*bytes) - 1});
      f.settings.push_back(execution_setting_change(context, sql, threshold.key, mib_setting_down(suggested)));
    }
    // Kept as a broadcast, it needs time: twice what it took, in seconds, when that exceeds the default.
    const int64_t timeout_s = (2 * observed_ms + 999) / 1000;
    f.settings.push_back(execution_setting_change(context, sql, "spark.sql.broadcastTimeout",
                                                  timeout_s > 300 ? std::to_string(timeout_s) : ""));
    f.evidence = {{"broadcastBytes", static_cast<double>(*bytes), "bytes"},
                  {measured_ms > 0 ? "measuredBuildAndBroadcastMs" : "modeledWasteMs", waste, "ms"}};
    if (collect_ms) f.evidence.push_back({"collectTimeMs", static_cast<double>(*collect_ms), "ms"});
    if (build_ms) f.evidence.push_back({"buildTimeMs", static_cast<double>(*build_ms), "ms"});
    if (broadcast_ms) f.evidence.push_back({"broadcastTimeMs", static_cast<double>(*broadcast_ms), "ms"});
    f.thresholds = {"broadcast.overMaxBytes"};
    if (measured_ms <= 0) f.thresholds.push_back("impact.broadcastBandwidthBytesPerSec");
    f.confidence = context.confidence_above(static_cast<double>(*bytes), t.broadcast_over_max_bytes);
    f.validation_caveat = attribution_caveat(attribution);
    f.claim = spread_claim(context, attribution.attempts, waste,
                           measured_ms > 0 ? EstimateMethod::kMeasured : EstimateMethod::kModeled);
    findings.push_back(std::move(f));
  }
}

// ---------------------------------------------------------------------------------------------
// underBroadcast

// Which inputs of a join Spark could broadcast instead, by join type: the build side of a
// broadcast hash join must be the side whose unmatched rows are not kept.
struct BuildSides {
  bool left = false;
  bool right = false;
  std::string join_type;
};

BuildSides build_sides(std::string_view simple_string) {
  auto has = [&](std::string_view type) { return simple_string.find(type) != std::string_view::npos; };
  if (has(", FullOuter")) return {false, false, "FullOuter"};
  if (has(", LeftOuter")) return {false, true, "LeftOuter"};
  if (has(", RightOuter")) return {true, false, "RightOuter"};
  if (has(", LeftSemi")) return {false, true, "LeftSemi"};
  if (has(", LeftAnti")) return {false, true, "LeftAnti"};
  if (has(", ExistenceJoin")) return {false, true, "ExistenceJoin"};
  if (has(", Inner")) return {true, true, "Inner"};
  if (has(", Cross")) return {true, true, "Cross"};
  return {};
}

// One input of a shuffled join, followed down from the join through single-child operators
// (sorts, AQE readers and query stages, reused exchanges, wrappers) to what feeds it.
struct JoinInput {
  std::optional<int64_t> bytes;        // the exchange's "data size", or a bucketed scan's file bytes
  const PlanNode* exchange = nullptr;  // the shuffle this join's own plan ran (not a reused one)
  const PlanNode* sort = nullptr;      // the sort a sort-merge join put on this input
};

JoinInput join_input(const model::AppModel& model, const SqlExecution& sql, int32_t child) {
  const PlanTree& tree = sql.plan;
  JoinInput input;
  bool reused = false;
  const PlanNode* node = &tree.nodes[static_cast<size_t>(child)];
  for (;;) {
    const std::string_view name = node->node_name;
    if (name.starts_with("Reused")) reused = true;  // lists the exchange it reuses as its child
    if (input.sort == nullptr && name.ends_with("Sort")) input.sort = node;
    if (is_shuffle_exchange(*node)) {
      input.bytes = metric_as_ran(model, sql, *node, plan_metric::kExchangeBytes);
      if (!reused) input.exchange = node;
      return input;
    }
    if (is_source_scan(*node)) {
      input.bytes = metric_as_ran(model, sql, *node, plan_metric::kFileBytesRead);
      return input;
    }
    if (node->children.size() != 1) return input;
    node = &tree.nodes[static_cast<size_t>(node->children.front())];
  }
}

// The work a broadcast hash join would not do, stage by stage, as the log measured it:
// - the larger input's map side writes no shuffle: its exchange's "shuffle write time";
// - the join's own stage goes: with a broadcast the join runs in the larger input's stage as its
//   rows are read. Its executor run time counts, less the shuffle it writes for the operators
//   after the join (they move with the join and keep that work). Spark does not time those
//   operators apart, so this part is an upper bound;
// - where that stage ran other shuffled joins as well, only this join's own operators count:
//   the larger input's "fetch wait time", both sorts' "sort time", and their spill, which Spark
//   does not time (the spilled bytes at impact.spillIoThroughputBytesPerSec, modeled).
// The smaller input's shuffle is replaced by the broadcast and is not counted.
struct JoinWork {
  std::vector<RemovedWork> removed;
  std::vector<int64_t> join_stage_ids;  // whose run time counts whole
  double map_write_ms = 0;
  double join_stage_ms = 0;    // the join stages' run time, less their output's shuffle write
  double output_write_ms = 0;  // that shuffle write, which stays
  // This join's own operators (in every join stage): the lower bound of the join stage's part.
  double fetch_wait_ms = 0;
  double sort_ms = 0;
  double spill_bytes = 0;  // on disk, as the stages' task metrics count it
  double spill_ms = 0;     // modeled
  bool modeled = false;    // a modeled spill part is in `removed`
  double total_ms() const {
    double sum = 0;
    for (const RemovedWork& w : removed) sum += w.task_ms;
    return sum;
  }
};

JoinWork join_work(const DetectorContext& context, const SqlExecution& sql, const PlanNode& join,
                   const JoinInput& larger, const JoinInput& smaller) {
  const model::AppModel& model = context.model();
  const Thresholds& t = context.thresholds();
  JoinWork work;
  if (larger.exchange != nullptr) {
    for (const StageMetricPart& p : metric_parts_by_stage(model, *larger.exchange, plan_metric::kShuffleWriteTime)) {
      work.removed.push_back({p.stage, p.value});
      work.map_write_ms += p.value;
    }
  }
  // The shuffle writes of the plan's exchanges, and the shuffled joins, each node instance once.
  const std::vector<bool> below_reuse = nodes_below_reuse(sql.plan);
  std::vector<std::vector<StageMetricPart>> writes;
  std::set<int64_t> seen;
  std::map<int64_t, int> joins_per_stage;
  for (const PlanNode& node : sql.plan.nodes) {
    if (below_reuse[static_cast<size_t>(node.node_id)]) continue;
    if (is_shuffled_join(node)) {
      for (int64_t id : node.stage_ids) ++joins_per_stage[id];
    }
    const auto accumulator = metric_accumulator(node, plan_metric::kShuffleWriteTime);
    if (accumulator && seen.insert(*accumulator).second) {
      writes.push_back(metric_parts_by_stage(model, node, plan_metric::kShuffleWriteTime));
    }
  }
  const auto fetch_wait = larger.exchange != nullptr
                              ? metric_parts_by_stage(model, *larger.exchange, {"fetch wait time"})
                              : std::vector<StageMetricPart>{};
  std::vector<StageMetricPart> sort_time;
  std::vector<StageMetricPart> spill_size;
  for (const PlanNode* node : {larger.sort, smaller.sort, &join}) {
    if (node == nullptr) continue;
    if (node != &join) {
      auto parts = metric_parts_by_stage(model, *node, {"sort time"});
      sort_time.insert(sort_time.end(), parts.begin(), parts.end());
    }
    auto parts = metric_parts_by_stage(model, *node, {"spill size"});
    spill_size.insert(spill_size.end(), parts.begin(), parts.end());
  }
  for (const StageAttempt* stage : context.ran_stages()) {
    if (!std::binary_search(join.stage_ids.begin(), join.stage_ids.end(), stage->stage_id)) continue;
    const double fetch = stage_part(fetch_wait, stage);
    const double sort = stage_part(sort_time, stage);
    // The operators' "spill size" is in-memory bytes; the stage's task metrics say what that came
    // to on disk, so the stage's disk spill is shared in that proportion.
    double spill_disk = 0;
    const auto stage_memory = static_cast<double>(stage->metric(model::TaskMetric::kMemoryBytesSpilled));
    if (stage_memory > 0) {
      spill_disk = static_cast<double>(stage->metric(model::TaskMetric::kDiskBytesSpilled)) *
                   std::min(1.0, stage_part(spill_size, stage) / stage_memory);
    }
    const double spill = t.spill_io_ms(spill_disk);
    work.fetch_wait_ms += fetch;
    work.sort_ms += sort;
    work.spill_bytes += spill_disk;
    work.spill_ms += spill;
    if (joins_per_stage[stage->stage_id] == 1) {
      double output_write = 0;
      for (const auto& parts : writes) output_write += stage_part(parts, stage);
      const auto run = static_cast<double>(stage->metric(model::TaskMetric::kExecutorRunTimeMs));
      const double part = std::max(0.0, run - output_write);
      work.removed.push_back({stage, part});
      work.join_stage_ms += part;
      work.output_write_ms += output_write;
      work.join_stage_ids.push_back(stage->stage_id);
    } else {
      work.removed.push_back({stage, fetch + sort + spill});
      work.modeled = work.modeled || spill > 0;
    }
  }
  return work;
}

void under_broadcast(const DetectorContext& context, const SqlExecution& sql, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const BroadcastThreshold threshold = broadcast_threshold(context, sql);
  const std::vector<bool> below_reuse = nodes_below_reuse(sql.plan);
  for (const PlanNode& node : sql.plan.nodes) {
    if (!is_shuffled_join(node) || node.children.size() != 2 || below_reuse[static_cast<size_t>(node.node_id)]) {
      continue;
    }
    const BuildSides sides = build_sides(node.simple_string);
    const JoinInput left = join_input(context.model(), sql, node.children[0]);
    const JoinInput right = join_input(context.model(), sql, node.children[1]);
    // The smallest side Spark could have broadcast.
    const JoinInput* candidate = nullptr;
    const JoinInput* other = nullptr;
    std::string side_name;
    if (sides.left && left.bytes) {
      candidate = &left;
      other = &right;
      side_name = "left";
    }
    if (sides.right && right.bytes && (candidate == nullptr || *right.bytes < *candidate->bytes)) {
      candidate = &right;
      other = &left;
      side_name = "right";
    }
    if (candidate == nullptr) continue;
    const double side_bytes = static_cast<double>(*candidate->bytes);
    if (side_bytes > t.broadcast_under_max_bytes || side_bytes <= static_cast<double>(threshold.bytes)) continue;
    const StageAttribution attribution = attribute_stages(context, sql, stage_ids_of(node));
    const double suggested_bytes = std::ceil(side_bytes * 1.2 / kMiB) * kMiB;
    const JoinWork work = join_work(context, sql, node, *other, *candidate);

    // Measured work where the log has it; with none (Spark 2 plans, GPU joins), the larger
    // input's bytes at the modeled shuffle rate, on the join's stages.
    const bool measured = work.total_ms() > 0;
    const double other_bytes = other->bytes ? static_cast<double>(*other->bytes) : 0.0;
    const double fallback_ms = other_bytes / t.shuffle_throughput_bps * 1000.0;
    WasteClaim claim;
    double wall_ms = 0;
    if (measured) {
      claim = removed_work_claim(context, work.removed,
                                 work.modeled ? EstimateMethod::kModeled : EstimateMethod::kMeasured);
      for (const RemovedWork& w : work.removed) wall_ms += removed_wall_ms(context, w);
    } else {
      claim = spread_claim(context, attribution.attempts, fallback_ms, EstimateMethod::kModeled);
      wall_ms = fallback_ms;
    }
    const bool sorted = left.sort != nullptr || right.sort != nullptr;
    const std::string own_operators = fmt::format(
        "{} waiting to fetch the larger input{}{}", duration_text(work.fetch_wait_ms),
        sorted ? fmt::format(", {} sorting", duration_text(work.sort_ms)) : std::string(),
        work.spill_bytes > 0 ? fmt::format(" and {} spilled to disk (untimed by Spark; {} at the modeled {})",
                                           bytes_text(work.spill_bytes), duration_text(work.spill_ms),
                                           rate_words(t.spill_io_throughput_bps))
                             : std::string());
    std::string cost_words;
    if (!measured) {
      cost_words = fmt::format(
          "The log has no shuffle or sort timings for this join, so shuffling the other input ({}) is modeled at {}: "
          "about {}.",
          bytes_text(other_bytes), rate_words(t.shuffle_throughput_bps), duration_text(fallback_ms));
    } else {
      cost_words = fmt::format("A broadcast removes the larger input's shuffle ({} of task time writing it",
                               duration_text(work.map_write_ms));
      if (!work.join_stage_ids.empty()) {
        cost_words += fmt::format(
            ") and the join's own stage: its tasks ran {} besides the {} writing their output's shuffle, which stays "
            "(the join's own operators: {})",
            duration_text(work.join_stage_ms), duration_text(work.output_write_ms), own_operators);
      } else {
        cost_words += fmt::format(") and the join's own operators: {}", own_operators);
      }
      cost_words +=
          fmt::format(". Spread over the tasks that ran at once, about {} of wall-clock.", duration_text(wall_ms));
    }

    Finding f;
    f.type = finding_type::kUnderBroadcast;
    f.scope = Scope::kSql;
    f.id = DetectorContext::finding_id(f.type, f.rule, node_key(sql, node.node_id));
    f.sql_execution_id = sql.execution_id;
    f.title = fmt::format("{}: {} shuffled both sides though its {} side is only {}", execution_label(sql),
                          shortened_plan_text(node.node_name, 40), side_name, format_bytes(*candidate->bytes));
    f.explanation = fmt::format(
        "{} (plan node {}, {} join) shuffled both inputs, but its {} input carried only {}{} at run time, at or "
        "below broadcast.underMaxBytes ({}): small enough to broadcast, which skips shuffling {}the other side. It "
        "was not broadcast because {}. {}",
        shortened_plan_text(node.node_name, 40), node.node_id, sides.join_type, side_name,
        format_bytes(*candidate->bytes),
        other->bytes ? fmt::format(" (the other input carried {})", format_bytes(*other->bytes)) : std::string(),
        format_bytes(static_cast<int64_t>(t.broadcast_under_max_bytes)), sorted ? "and sorting " : "",
        threshold.disabled
            ? fmt::format("{} is -1 (automatic broadcasts are off)", threshold.key)
            : fmt::format("{} is {}", threshold.key,
                          threshold.current.empty() ? std::string("the default 10 MiB") : threshold.current),
        cost_words);
    const std::string value = mib_setting_up(suggested_bytes);
    const bool adaptive =
        is_adaptive(sql.plan) && !(context.spark_version() && *context.spark_version() < std::pair{3, 2});
    f.recommendation = fmt::format(
        "Let Spark broadcast the {} side: raise spark.sql.autoBroadcastJoinThreshold{} to {} (the side's size plus "
        "20%), or hint this join (broadcast(df) or /*+ BROADCAST(t) */). The planner decides from its own size "
        "estimate, which can be larger than what ran: if the join still shuffles, hint it. The driver collects the "
        "broadcast relation, so it needs that much free memory and more (a hashed relation is larger than the rows).",
        side_name,
        adaptive ? " (and spark.sql.adaptive.autoBroadcastJoinThreshold, which adaptive execution uses)" : "", value);
    // Each key that kept this side from broadcasting: the planner's, and adaptive execution's
    // (which falls back to the planner's when unset).
    const auto key_bytes = [&](const std::string& key, int64_t fallback) {
      const auto current = context.execution_property(sql, key);
      if (!current) return fallback;
      if (current->starts_with("-")) return int64_t{0};
      return parse_size_bytes(*current).value_or(fallback);
    };
    const int64_t planner_bytes = key_bytes("spark.sql.autoBroadcastJoinThreshold", kDefaultBroadcastThresholdBytes);
    if (static_cast<double>(planner_bytes) < side_bytes) {
      f.settings.push_back(execution_setting_change(context, sql, "spark.sql.autoBroadcastJoinThreshold", value));
    }
    if (adaptive &&
        static_cast<double>(key_bytes("spark.sql.adaptive.autoBroadcastJoinThreshold", planner_bytes)) < side_bytes) {
      f.settings.push_back(
          execution_setting_change(context, sql, "spark.sql.adaptive.autoBroadcastJoinThreshold", value));
    }
    f.evidence = {{"smallerSideBytes", side_bytes, "bytes"},
                  {"broadcastThresholdBytes", static_cast<double>(threshold.bytes), "bytes"}};
    if (other->bytes) f.evidence.push_back({"otherSideBytes", other_bytes, "bytes"});
    if (measured) {
      f.evidence.push_back({"mapShuffleWriteTaskMs", work.map_write_ms, "ms"});
      f.evidence.push_back({"joinStageTaskMs", work.join_stage_ms, "ms"});
      f.evidence.push_back({"joinOutputShuffleWriteTaskMs", work.output_write_ms, "ms"});
      f.evidence.push_back({"fetchWaitTaskMs", work.fetch_wait_ms, "ms"});
      f.evidence.push_back({"sortTaskMs", work.sort_ms, "ms"});
      if (work.spill_bytes > 0) {
        f.evidence.push_back({"spillDiskBytes", work.spill_bytes, "bytes"});
        f.evidence.push_back({"modeledSpillTaskMs", work.spill_ms, "ms"});
      }
      f.evidence.push_back({"removedTaskMs", work.total_ms(), "ms"});
    } else {
      f.evidence.push_back({"modeledShuffleMs", fallback_ms, "ms"});
    }
    f.thresholds = {"broadcast.underMaxBytes"};
    if (!measured) f.thresholds.push_back("impact.shuffleThroughputBytesPerSec");
    if (measured && work.modeled) f.thresholds.push_back("impact.spillIoThroughputBytesPerSec");
    f.confidence =
        threshold.disabled ? Confidence::kLow : context.confidence_below(side_bytes, t.broadcast_under_max_bytes);
    // The stages the fix changes: those whose work it removes, else the join's own.
    for (const auto& part : claim.stages) f.stages.push_back(part.stage);
    if (f.stages.empty()) f.stages = refs_of(attribution.attempts);
    f.validation_caveat = measured ? std::string() : attribution_caveat(attribution);
    if (!work.join_stage_ids.empty()) {
      f.validation_caveat +=
          "The join's stage is counted whole but for its output's shuffle write: the operators after the join move "
          "into the larger input's stage with a broadcast and keep their work, which Spark does not time apart, so "
          "the figure is an upper bound.";
    }
    if (threshold.disabled) {
      f.validation_caveat += std::string(f.validation_caveat.empty() ? "" : " ") +
                             "Automatic broadcasts were turned off on purpose; check why before turning them on.";
    }
    f.claim = std::move(claim);
    findings.push_back(std::move(f));
  }
}

}  // namespace

void detect_sql_plans(const DetectorContext& context, std::vector<Finding>& findings) {
  ReportedNodes reported_scans;
  ReportedNodes reported_broadcasts;
  for (const SqlExecution& sql : context.model().sql) {
    duplicate_plan_subtree(context, sql, findings);
    small_files(context, sql, reported_scans, findings);
    over_broadcast(context, sql, reported_broadcasts, findings);
    under_broadcast(context, sql, findings);
  }
}

}  // namespace sf::analysis

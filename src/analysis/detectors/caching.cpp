// Detectors of caching: cachingOpportunity (work later SQL executions did again: a subtree they
// computed again from its input, or stored input they read again) and cacheUtilization (a
// cache that did not fit its storage level, or that only one query read).
//
// A subtree computed again is measured: the stages of the later executions that ran nothing but
// it are work a cache removes (removed_work.h), a wall-clock claim. Reading the cache back is
// not free; it takes the place of the subtree's part of the stage that consumed its result, and
// that stage is assumed to cost as much as it did (it is not counted). Input read again with
// nothing measured about it is cost-only: the re-read is modeled at
// impact.reReadThroughputBytesPerSec, rawWaste in ms, no wall-clock claim; so are the caches that
// did not fit. A cache read once costs what its filling did and the storage it held, which the
// log does not separate from the work the single read needed anyway: informational.
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
#include "analysis/settings/heap_sizes.h"
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

// ---------------------------------------------------------------------------------------------
// cachingOpportunity

// What a scan reads: its relation and location, the columns it reads and the filters it
// applies. File scans say so in their metadata; other scans in their text.
std::string input_identity(const PlanNode& node) {
  if (const std::string* location = metadata_value(node, "Location"); location != nullptr) {
    std::string identity = node.node_name + '|' + *location;
    for (std::string_view key : {"ReadSchema", "PartitionFilters", "PushedFilters", "DataFilters"}) {
      if (const std::string* value = metadata_value(node, key)) identity += '|' + normalized_plan_text(*value);
    }
    return identity;
  }
  return node.node_name + '|' + normalized_plan_text(node.simple_string);
}

// The paths a file scan's location names: "InMemoryFileIndex(2 paths)[s3://b/x, s3://b/y]".
std::vector<std::string> location_paths(const PlanNode& node) {
  std::vector<std::string> paths;
  const std::string* location = metadata_value(node, "Location");
  if (location == nullptr) return paths;
  const size_t open = location->find('[');
  const size_t close = location->rfind(']');
  if (open == std::string::npos || close == std::string::npos || close <= open) return paths;
  std::string_view list(location->data() + open + 1, close - open - 1);
  while (!list.empty()) {
    const size_t comma = list.find(", ");
    std::string_view path = list.substr(0, comma);
    if (!path.empty() && !path.ends_with("...")) paths.emplace_back(path);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 2);
  }
  return paths;
}

// The first accumulator of a node: what tells one instance of it from another.
std::optional<int64_t> instance_id(const PlanNode& node) {
  if (node.metrics.empty()) return std::nullopt;
  return node.metrics.front().accumulator_id;
}

bool reads_data(const PlanNode& node) { return is_source_scan(node) || node.node_name == "InMemoryTableScan"; }

// The bytes a scan read: the input bytes of the stages that ran it, when it was the only
// reading operator in each of them (so the stages' input is its input), else its "size of
// files read" metric, never more than those stages read in all. That metric is the size of the
// files the scan listed, set when it is planned: a show() lists every file and its one task
// reads a few MiB of one (the kubeflow NewYorkTaxiData log: 1.81 GiB listed, 36.4 MiB read).
std::optional<int64_t> scan_bytes(const DetectorContext& context, const SqlExecution& sql, const PlanNode& node) {
  const std::optional<int64_t> listed = metric_value(node, plan_metric::kFileBytesRead);
  const model::AppModel& model = context.model();
  int64_t stage_input = 0;
  bool only_reader = !node.stage_ids.empty();
  for (int64_t stage_id : node.stage_ids) {
    auto it = model.stage_plan_nodes.find(stage_id);
    if (it == model.stage_plan_nodes.end()) {
      only_reader = false;
      continue;
    }
    for (const model::PlanNodeRef& ref : it->second) {
      if (ref.execution_id == sql.execution_id && ref.node_id == node.node_id) continue;
      const SqlExecution* other = model.sql_execution(ref.execution_id);
      if (other == nullptr || reads_data(other->plan.nodes[static_cast<size_t>(ref.node_id)])) only_reader = false;
    }
  }
  for (const StageAttempt& stage : model.stages) {
    if (std::binary_search(node.stage_ids.begin(), node.stage_ids.end(), stage.stage_id)) {
      stage_input += stage.metric(model::TaskMetric::kInputBytes);
    }
  }
  if (only_reader && (stage_input > 0 || !listed)) return stage_input;
  if (listed && stage_input > 0) return std::min(*listed, stage_input);
  return listed;
}

struct InputRead {
  const SqlExecution* sql = nullptr;
  const PlanNode* node = nullptr;
  int64_t bytes = 0;
};

struct InputReads {
  std::vector<InputRead> reads;  // in execution order
  std::vector<std::string> paths;
};

// Every read of stored input, grouped by what it reads. A scan node listed again (the same
// accumulators: the cached plan behind an InMemoryTableScan, a reused exchange) is one read.
std::map<std::string, InputReads> reads_by_input(const DetectorContext& context) {
  std::map<std::string, InputReads> inputs;
  std::set<int64_t> seen_accumulators;
  for (const SqlExecution& sql : context.model().sql) {
    for (const PlanNode& node : sql.plan.nodes) {
      if (!is_source_scan(node)) continue;
      if (auto instance = instance_id(node); instance && !seen_accumulators.insert(*instance).second) continue;
      const auto bytes = scan_bytes(context, sql, node);
      if (!bytes) continue;
      InputReads& input = inputs[input_identity(node)];
      input.reads.push_back({&sql, &node, *bytes});
      if (input.paths.empty()) input.paths = location_paths(node);
    }
  }
  return inputs;
}

// An execution from `first` to `last` wrote to one of `paths`: the reads saw different data, and
// a cache would have served stale rows.
bool rewritten_between(const DetectorContext& context, const std::vector<std::string>& paths, int64_t first,
                       int64_t last) {
  if (paths.empty()) return false;
  for (const SqlExecution& sql : context.model().sql) {
    if (sql.execution_id < first || sql.execution_id > last) continue;
    for (const PlanNode& node : sql.plan.nodes) {
      if (!node.node_name.starts_with("Execute ")) continue;
      for (const std::string& path : paths) {
        if (node.simple_string.find(path) != std::string::npos) return true;
      }
    }
  }
  return false;
}

bool rewritten_between_reads(const DetectorContext& context, const InputReads& input) {
  return rewritten_between(context, input.paths, input.reads.front().sql->execution_id,
                           input.reads.back().sql->execution_id);
}

// The stage attempts of `sql` that ran nothing but `nodes` (ascending node ids), by the plan
// nodes attributed to each: the stages computing those nodes took whole. A stage that also ran
// other operators (the one consuming their result) is not one of them.
std::vector<const StageAttempt*> stages_running_only(const DetectorContext& context, const SqlExecution& sql,
                                                     const std::vector<int32_t>& nodes) {
  std::vector<const StageAttempt*> stages;
  for (const StageAttempt* stage : context.ran_stages_of_execution(sql.execution_id)) {
    auto it = context.model().stage_plan_nodes.find(stage->stage_id);
    if (it == context.model().stage_plan_nodes.end()) continue;
    bool any = false;
    bool only = true;
    for (const model::PlanNodeRef& ref : it->second) {
      // Nodes of other executions sharing the accumulators (a cached plan listed in each) are
      // not this execution's operators.
      if (ref.execution_id != sql.execution_id) continue;
      any = true;
      only = only && std::binary_search(nodes.begin(), nodes.end(), ref.node_id);
    }
    if (any && only) stages.push_back(stage);
  }
  return stages;
}

// The root of a subtree past its wrappers: the operator whose result it is.
const PlanNode& operator_at(const model::PlanTree& tree, int32_t root) {
  const PlanNode* node = &tree.nodes[static_cast<size_t>(root)];
  while (is_wrapper(*node)) node = &tree.nodes[static_cast<size_t>(node->children.front())];
  return *node;
}

// ---------------------------------------------------------------------------------------------
// cachingOpportunity, rule recomputed: a subtree later SQL executions computed again

struct Recomputation {
  std::vector<const SqlExecution*> executions;  // that computed it, in order; the first fills a cache
  const PlanTree* first_plan = nullptr;
  int32_t first_root = 0;
  int32_t work_nodes = 0;
  std::vector<RemovedWork> removed;  // the later executions' stages that ran nothing else
  std::vector<const StageAttempt*> removed_stages;
  std::vector<int64_t> scans;  // instance ids of the stored input its later computations read
  std::vector<std::string> paths;
};

// Subtrees computed with the same plan by several SQL executions, each measured by the stages of
// the executions after the first that computing it took whole.
std::vector<Recomputation> recomputations(const DetectorContext& context) {
  const Thresholds& t = context.thresholds();
  std::vector<const SqlExecution*> executions;
  for (const SqlExecution& sql : context.model().sql) {
    // A streaming query's micro-batches run one plan over new data each time: what repeats
    // there is not a result a cache could keep.
    if (!sql.plan.empty() && !is_streaming_batch(sql)) executions.push_back(&sql);
  }
  PlanShapes shapes;  // one table: fingerprints compare across the executions
  std::vector<PlanFingerprints> prints;
  prints.reserve(executions.size());
  for (const SqlExecution* sql : executions) prints.emplace_back(sql->plan, shapes);
  std::vector<const PlanFingerprints*> plans;
  for (const PlanFingerprints& p : prints) plans.push_back(&p);

  std::vector<Recomputation> found;
  for (const RepeatedSubtree& group : repeated_subtrees(plans, t.caching_min_subtree_nodes)) {
    Recomputation r;
    r.work_nodes = group.work_nodes;
    r.first_plan = &executions[group.occurrences.front().plan]->plan;
    r.first_root = group.occurrences.front().root;
    const int64_t first_id = executions[group.occurrences.front().plan]->execution_id;
    for (const SubtreeOccurrence& at : group.occurrences) {
      const SqlExecution& sql = *executions[at.plan];
      if (r.executions.empty() || r.executions.back() != &sql) r.executions.push_back(&sql);
      const std::vector<int32_t> nodes = prints[at.plan].working_nodes(at.root);
      for (int32_t id : nodes) {
        const PlanNode& node = sql.plan.nodes[static_cast<size_t>(id)];
        if (!is_source_scan(node)) continue;
        for (std::string& path : location_paths(node)) r.paths.push_back(std::move(path));
        if (auto scan = instance_id(node); scan && sql.execution_id != first_id) r.scans.push_back(*scan);
      }
      // A copy in the first execution is duplicatePlanSubtree's; the first computes it once.
      if (sql.execution_id == first_id) continue;
      for (const StageAttempt* stage : stages_running_only(context, sql, nodes)) {
        r.removed.push_back({stage, static_cast<double>(stage->metric(model::TaskMetric::kExecutorRunTimeMs))});
        r.removed_stages.push_back(stage);
      }
    }
    if (static_cast<double>(r.executions.size()) < t.caching_min_reads || r.removed.empty()) continue;
    if (rewritten_between(context, r.paths, first_id, r.executions.back()->execution_id)) continue;
    found.push_back(std::move(r));
  }
  return found;
}

// Reports each recomputation worth a cache; returns the instance ids of the input scans they
// cover, whose re-reads are part of what they report.
std::set<int64_t> recomputed_subtrees(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  std::set<int64_t> covered_scans;
  for (Recomputation& r : recomputations(context)) {
    double task_ms = 0;
    double wall_ms = 0;
    for (const RemovedWork& w : r.removed) {
      task_ms += w.task_ms;
      wall_ms += removed_wall_ms(context, w);
    }
    if (!context.significant_ms(wall_ms, t.caching_min_recomputed_ms)) continue;
    covered_scans.insert(r.scans.begin(), r.scans.end());
    const SqlExecution& first = *r.executions.front();
    const SqlExecution& last = *r.executions.back();
    const std::string outline = subtree_outline(*r.first_plan, r.first_root);
    const std::string result = shortened_plan_text(operator_at(*r.first_plan, r.first_root).simple_string, 120);
    const size_t later = r.executions.size() - 1;

    Finding f;
    f.type = "cachingOpportunity";
    f.rule = "recomputed";
    f.scope = Scope::kApp;
    f.id = DetectorContext::finding_id(f.type, f.rule, fmt::format("sql-{}.node-{}", first.execution_id, r.first_root));
    f.claim = removed_work_claim(context, r.removed, EstimateMethod::kMeasured);
    for (const auto& part : f.claim.stages) f.stages.push_back(part.stage);
    f.title = fmt::format("The same {}-operator computation ({}) ran in {} SQL executions, from its input each time",
                          r.work_nodes, outline, r.executions.size());
    f.explanation = fmt::format(
        "SQL executions {} each computed {} ({}) with the same plan from the same input. Spark keeps no result "
        "between executions unless it is cached, so {} after SQL {} computed it again: {} {} ({}) ran nothing but "
        "this computation and did {} of task work, about {} of wall-clock over the tasks that ran at once. A cache "
        "filled by SQL {} would serve the later ones; reading it back takes the place of the computation's part of "
        "the stages that consumed its result, whose time is kept in full.",
        listed(r.executions, [](const SqlExecution* sql) { return std::to_string(sql->execution_id); }), result,
        outline, later == 1 ? std::string("the execution") : fmt::format("the {} executions", later),
        first.execution_id, later == 1 ? "its" : "their", r.removed_stages.size() == 1 ? "stage" : "stages",
        stage_list(r.removed_stages), duration_text(task_ms), duration_text(wall_ms), first.execution_id);
    f.recommendation = fmt::format(
        "Cache the DataFrame that computes {}: call .cache() on it (for a DataFrame that is "
        "persist(StorageLevel.MEMORY_AND_DISK); MEMORY_AND_DISK_SER where memory is short) before its first use, in "
        "SQL {}, run the later actions against that cached DataFrame, and unpersist() it after the last (SQL {}). "
        "In SQL, CACHE TABLE a view of it. The cache holds the result, not the input: it needs about the result's "
        "size in storage memory.",
        result, first.execution_id, last.execution_id);
    f.evidence = {{"executions", static_cast<double>(r.executions.size()), "count"},
                  {"subtreeOperators", static_cast<double>(r.work_nodes), "count"},
                  {"recomputedStages", static_cast<double>(r.removed_stages.size()), "count"},
                  {"recomputedTaskTimeMs", task_ms, "ms"},
                  {"recomputedWallClockMs", wall_ms, "ms"}};
    f.thresholds = {"cachingOpportunity.minReads", "cachingOpportunity.minSubtreeNodes",
                    "cachingOpportunity.minRecomputedMs"};
    f.confidence = std::min(context.confidence_above(static_cast<double>(r.executions.size()), t.caching_min_reads),
                            context.confidence_above(r.work_nodes, t.caching_min_subtree_nodes));
    f.validation_caveat =
        "A cache pays off only if the executions use the same DataFrame in one SparkSession and its input did not "
        "change between them. Filling the cache costs the first execution some time and the result's size in "
        "storage memory, which the figure does not subtract.";
    findings.push_back(std::move(f));
  }
  return covered_scans;
}

// ---------------------------------------------------------------------------------------------
// cachingOpportunity: stored input read again

void input_read_again(const DetectorContext& context, const std::set<int64_t>& recomputed_scans,
                      std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const auto& [identity, input] : reads_by_input(context)) {
    std::set<int64_t> executions;
    double total_bytes = 0;
    for (const InputRead& read : input.reads) {
      executions.insert(read.sql->execution_id);
      total_bytes += static_cast<double>(read.bytes);
    }
    const double execution_count = static_cast<double>(executions.size());
    if (execution_count < t.caching_min_reads || total_bytes < t.caching_min_bytes) continue;
    if (rewritten_between_reads(context, input)) continue;
    // Re-reads inside a subtree computed again are part of that finding.
    if (std::all_of(input.reads.begin() + 1, input.reads.end(), [&](const InputRead& read) {
          auto scan = instance_id(*read.node);
          return scan && recomputed_scans.contains(*scan);
        })) {
      continue;
    }
    // The first read fills a cache; what caching saves is every read after it, as far as the
    // reads before it read: a cache holds what was computed, so a show() that read 36 MiB of
    // the input leaves a later full read to read the rest from storage again.
    const InputRead& first = input.reads.front();
    double re_read_bytes = 0;
    int64_t cached = 0;
    for (const InputRead& read : input.reads) {
      re_read_bytes += static_cast<double>(std::min(read.bytes, cached));
      cached = std::max(cached, read.bytes);
    }
    if (re_read_bytes < t.caching_min_bytes / 2) continue;
    const double waste = re_read_bytes / t.re_read_throughput_bps * 1000.0;

    std::string read_list;
    std::set<StageRef> stages;
    for (size_t i = 0; i < input.reads.size(); ++i) {
      const InputRead& read = input.reads[i];
      if (i < 6) {
        read_list += fmt::format("{}SQL {} ({})", read_list.empty() ? "" : ", ", read.sql->execution_id,
                                 format_bytes(read.bytes));
      }
      if (i == 0) continue;
      for (const StageAttempt* stage : context.ran_stages()) {
        if (std::binary_search(read.node->stage_ids.begin(), read.node->stage_ids.end(), stage->stage_id)) {
          stages.insert(DetectorContext::ref(*stage));
        }
      }
    }
    if (input.reads.size() > 6) read_list += fmt::format(" and {} more", input.reads.size() - 6);
    std::string label = shortened_plan_text(first.node->node_name, 160);
    if (const std::string* location = metadata_value(*first.node, "Location")) {
      label = shortened_plan_text(label + " at " + *location, 160);
    }

    Finding f;
    f.type = "cachingOpportunity";
    f.scope = Scope::kApp;
    f.id = DetectorContext::finding_id(
        f.type, f.rule, fmt::format("scan-sql-{}.node-{}", first.sql->execution_id, first.node->node_id));
    f.stages.assign(stages.begin(), stages.end());
    f.title = fmt::format("The same input ({}) was read {} times by {} SQL executions, {} in all", label,
                          input.reads.size(), executions.size(), format_bytes(static_cast<int64_t>(total_bytes)));
    f.explanation = fmt::format(
        "{} was read with the same columns and filters by {} SQL executions: {}. The first read is needed; {} "
        "after it read {} again, which at the modeled re-read rate of {}/s costs about {}.",
        label, executions.size(), read_list,
        input.reads.size() == 2 ? std::string("the read") : fmt::format("the {} reads", input.reads.size() - 1),
        format_bytes(static_cast<int64_t>(re_read_bytes)), format_bytes(static_cast<int64_t>(t.re_read_throughput_bps)),
        format_duration_ms(static_cast<int64_t>(waste)));
    f.recommendation =
        "Read it once and keep it: persist the DataFrame after reading (df.persist(StorageLevel.MEMORY_AND_DISK), "
        "which is what df.cache() does for DataFrames; MEMORY_AND_DISK_SER where memory is short) or CACHE TABLE in "
        "SQL, run the later queries against it, and unpersist() it when the last one is done. The cache needs about "
        "the read size in storage memory (less, compressed in columnar form).";
    f.evidence = {{"reads", static_cast<double>(input.reads.size()), "count"},
                  {"executions", execution_count, "count"},
                  {"totalReadBytes", total_bytes, "bytes"},
                  {"reReadBytes", re_read_bytes, "bytes"},
                  {"modeledReReadMs", waste, "ms"}};
    f.thresholds = {"cachingOpportunity.minReads", "cachingOpportunity.minBytes", "impact.reReadThroughputBytesPerSec"};
    f.confidence = std::min(context.confidence_above(execution_count, t.caching_min_reads),
                            context.confidence_above(total_bytes, t.caching_min_bytes));
    f.validation_caveat =
        "A cache pays off only if the input did not change between the reads and the executions share one "
        "SparkSession; check that the reads are meant to see the same data.";
    f.claim.kind = WasteClaim::Kind::kResourceOnly;
    f.claim.method = EstimateMethod::kModeled;
    f.claim.raw = RawWaste{waste, WasteUnit::kMs};
    findings.push_back(std::move(f));
  }
}

// ---------------------------------------------------------------------------------------------
// cacheUtilization, rules missingPartitions and onDisk: a persisted RDD that did not fit

// What it takes to hold `extra_bytes` more in storage memory across the executors: the heap to
// add to each, at the share of the heap storage memory takes (heap_sizes.h), rounded up to
// a GiB on top of the current size (default 1g). Empty when no executor reported memory.
std::pair<std::string, std::string> memory_suggestion(const DetectorContext& context, double extra_bytes) {
  int64_t executors = 0;
  for (const model::Executor& executor : context.model().executors) {
    if (!executor.is_driver()) ++executors;
  }
  // Local mode: the driver is the only executor and its heap holds the cache.
  const std::string key = executors > 0 ? "spark.executor.memory" : "spark.driver.memory";
  executors = std::max<int64_t>(executors, 1);
  const double fraction = block_manager_share_of_heap(context.model());
  const double current = static_cast<double>(context.size_property(key).value_or(int64_t{1} << 30));
  if (fraction <= 0) return {key, ""};
  const double per_executor = extra_bytes / static_cast<double>(executors) / fraction;
  const double gib = static_cast<double>(int64_t{1} << 30);
  return {key, fmt::format("{}g", static_cast<int64_t>(std::ceil((current + per_executor) / gib)))};
}

std::vector<StageRef> stages_using(const DetectorContext& context, int64_t rdd_id) {
  std::vector<StageRef> stages;
  for (const StageAttempt* stage : context.ran_stages()) {
    if (std::binary_search(stage->rdd_ids.begin(), stage->rdd_ids.end(), rdd_id)) {
      stages.push_back(DetectorContext::ref(*stage));
    }
  }
  return stages;
}

void cache_utilization(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const auto& [rdd_id, rdd] : context.model().rdds) {
    if (!rdd.is_cached() || rdd.num_partitions <= 0) continue;
    // Logs after Spark 1.x carry no storage state in RDD infos (zero cached partitions, zero
    // sizes): with nothing cached in the record there is nothing to judge.
    if (rdd.num_cached_partitions <= 0) continue;
    const double partitions = rdd.num_partitions;
    const double cached = std::min(rdd.num_cached_partitions, rdd.num_partitions);
    const double missing = partitions - cached;
    const double missing_fraction = missing / partitions;
    // On disk by choice (DISK_ONLY) is not a shortfall; on disk under a memory-and-disk level is.
    const bool memory_and_disk = rdd.use_memory && rdd.use_disk;
    const double disk_bytes = memory_and_disk ? static_cast<double>(rdd.disk_size_bytes) : 0.0;
    const bool missing_fires = missing_fraction >= t.cache_min_missing_fraction;
    const bool disk_fires = disk_bytes > 0;
    if (!missing_fires && !disk_fires) continue;
    const double cached_bytes = static_cast<double>(rdd.memory_size_bytes + rdd.disk_size_bytes);
    const double average_partition = cached_bytes / cached;
    const double uncached_bytes = missing * average_partition;
    const double waste_bytes = uncached_bytes + disk_bytes;
    const double waste = waste_bytes / t.re_read_throughput_bps * 1000.0;
    const std::string name =
        rdd.name.empty() ? fmt::format("RDD {}", rdd_id) : fmt::format("RDD {} ({})", rdd_id, rdd.name);

    Finding f;
    f.type = "cacheUtilization";
    f.rule = missing_fires ? "missingPartitions" : "onDisk";
    f.scope = Scope::kApp;
    f.id = DetectorContext::finding_id(f.type, f.rule, fmt::format("rdd-{}", rdd_id));
    f.stages = stages_using(context, rdd_id);
    f.title = missing_fires ? fmt::format("{} is cached in only {} of {} partitions", name,
                                          format_count(rdd.num_cached_partitions), format_count(rdd.num_partitions))
                            : fmt::format("{} of cached {} sits on disk", format_bytes(rdd.disk_size_bytes), name);
    std::string text = fmt::format("{} is persisted as {}. ", name, rdd.storage_level);
    if (missing > 0) {
      text += fmt::format(
          "{} of its {} partitions ({}) are not in the cache: storage memory ran out, so they were evicted or never "
          "stored and are recomputed from their lineage each time the RDD is used. At the cached partitions' average "
          "of {} that is about {}. ",
          format_count(static_cast<int64_t>(missing)), format_count(rdd.num_partitions),
          format_percent(missing_fraction), format_bytes(static_cast<int64_t>(average_partition)),
          format_bytes(static_cast<int64_t>(uncached_bytes)));
    }
    if (disk_bytes > 0) {
      text += fmt::format(
          "{} of the cache did not fit in memory and was written to local disk, to be read back on "
          "every use. ",
          format_bytes(rdd.disk_size_bytes));
    }
    text += fmt::format("Reading {} again at the modeled {}/s costs about {} each time the RDD is used.",
                        format_bytes(static_cast<int64_t>(waste_bytes)),
                        format_bytes(static_cast<int64_t>(t.re_read_throughput_bps)),
                        format_duration_ms(static_cast<int64_t>(waste)));
    f.explanation = std::move(text);
    const auto [memory_key, memory_value] = memory_suggestion(context, waste_bytes);
    // Unified memory (spark.memory.*) since Spark 1.6; before it, a fixed storage share.
    const bool unified = context.has_setting("spark.memory.storageFraction");
    const char* share_key = unified ? "spark.memory.storageFraction" : "spark.storage.memoryFraction";
    const double share = context.number_in_effect(share_key);
    const double larger_share = std::min(0.8, std::round((share + 0.2) * 10) / 10);
    const bool kryo = context.effective_value("spark.serializer").value_or("").find("Kryo") != std::string::npos;
    f.recommendation = fmt::format(
        "Give the cache room: more heap per executor ({} {}), or a larger storage share ({}); store it serialized "
        "(MEMORY_AND_DISK_SER: often 2-5x smaller, at some CPU cost to read{}); or unpersist() cached data that "
        "later stages no longer use so this one keeps its place.",
        memory_key, memory_value.empty() ? "" : "to about " + memory_value,
        unified ? "spark.memory.storageFraction, default 0.5, is the part of spark.memory.fraction that execution "
                  "cannot evict"
                : "spark.storage.memoryFraction, default 0.6, of the heap before Spark 1.6",
        kryo ? "" : "; with Kryo, spark.serializer=org.apache.spark.serializer.KryoSerializer, smaller still");
    f.settings = {context.setting(memory_key, memory_value)};
    if (larger_share > share) f.settings.push_back(context.raise_setting(share_key, fmt::format("{:g}", larger_share)));
    f.evidence = {{"partitions", partitions, "count"},
                  {"cachedPartitions", cached, "count"},
                  {"missingFraction", missing_fraction, "fraction"},
                  {"memoryBytes", static_cast<double>(rdd.memory_size_bytes), "bytes"},
                  {"diskBytes", disk_bytes, "bytes"},
                  {"uncachedOrSpilledBytes", waste_bytes, "bytes"},
                  {"modeledReReadMs", waste, "ms"}};
    f.thresholds = {"cacheUtilization.minMissingFraction", "impact.reReadThroughputBytesPerSec"};
    f.confidence = missing_fires ? context.confidence_above(missing_fraction, t.cache_min_missing_fraction)
                                 : Confidence::kHigh;  // the log reports the bytes on disk
    f.validation_caveat =
        "Spark logs the cache state as of the stage that last reported the RDD; the estimate assumes the missing "
        "partitions are as large as the cached ones and counts one re-read per use.";
    f.claim.kind = WasteClaim::Kind::kResourceOnly;
    f.claim.method = EstimateMethod::kModeled;
    f.claim.raw = RawWaste{waste, WasteUnit::kMs};
    findings.push_back(std::move(f));
  }
}

// ---------------------------------------------------------------------------------------------
// cacheUtilization, rule singleUse: a cache that one query read

struct CacheRead {
  const SqlExecution* sql = nullptr;
  int32_t scan = 0;         // the InMemoryTableScan
  int32_t cached_plan = 0;  // its child: the plan that filled the cache
  std::vector<int32_t> cached_nodes;
};

// Every read of a cache, grouped by the cache: an InMemoryTableScan lists the plan that filled
// the cache below it, with the same accumulators in every query that reads it. A scan that is
// itself part of a cached plan belongs to that cache's filling, and a scan listed twice (the
// same accumulators) is one read.
std::map<std::vector<int64_t>, std::vector<CacheRead>> reads_by_cache(const model::AppModel& model) {
  std::map<std::vector<int64_t>, std::vector<CacheRead>> caches;
  std::set<int64_t> seen_scans;
  for (const SqlExecution& sql : model.sql) {
    PlanShapes shapes;
    const PlanFingerprints prints(sql.plan, shapes);
    for (const PlanNode& node : sql.plan.nodes) {
      if (node.node_name != "InMemoryTableScan" || node.children.size() != 1 || prints.below_reuse(node.node_id)) {
        continue;
      }
      if (auto instance = instance_id(node); instance && !seen_scans.insert(*instance).second) continue;
      const int32_t cached_plan = node.children.front();
      std::vector<int64_t> cache = prints.accumulators(cached_plan);
      if (cache.empty()) continue;  // nothing tells this cache from another
      caches[std::move(cache)].push_back({&sql, node.node_id, cached_plan, prints.working_nodes(cached_plan)});
    }
  }
  return caches;
}

// The storage level of the RDD the cache was stored as, from the stages that filled it.
std::string storage_level_of(const DetectorContext& context, const std::vector<const StageAttempt*>& stages) {
  for (const StageAttempt* stage : stages) {
    for (int64_t rdd_id : stage->rdd_ids) {
      auto it = context.model().rdds.find(rdd_id);
      if (it != context.model().rdds.end() && it->second.is_cached()) return it->second.storage_level;
    }
  }
  return "";
}

void single_use_caches(const DetectorContext& context, std::vector<Finding>& findings) {
  // A log that ends before the application did may hold the reads still to come.
  if (!context.model().app.finished) return;
  for (const auto& [cache, reads] : reads_by_cache(context.model())) {
    if (reads.size() != 1) continue;
    const CacheRead& read = reads.front();
    const SqlExecution& sql = *read.sql;
    const std::vector<const StageAttempt*> filling = stages_running_only(context, sql, read.cached_nodes);
    double fill_ms = 0;
    double fill_task_ms = 0;
    for (const StageAttempt* stage : filling) {
      fill_ms += context.occupancy(*stage).duration_ms;
      fill_task_ms += static_cast<double>(stage->metric(model::TaskMetric::kExecutorRunTimeMs));
    }
    const std::string level = storage_level_of(context, filling);
    const std::string outline = subtree_outline(sql.plan, read.cached_plan);

    Finding f;
    f.type = "cacheUtilization";
    f.rule = "singleUse";
    f.scope = Scope::kSql;
    f.sql_execution_id = sql.execution_id;
    f.id = DetectorContext::finding_id(f.type, f.rule, fmt::format("sql-{}.node-{}", sql.execution_id, read.scan));
    for (const StageAttempt* stage : filling) f.stages.push_back(DetectorContext::ref(*stage));
    std::sort(f.stages.begin(), f.stages.end());
    f.title = fmt::format("A cached DataFrame ({}) is read by one query only, SQL {}", outline, sql.execution_id);
    std::string text = fmt::format(
        "SQL {} reads a cache (InMemoryTableScan, node {}) of {}{}, and no other query of the application reads "
        "it: it was stored and never read back. ",
        sql.execution_id, read.scan, outline, level.empty() ? "" : ", stored " + level);
    if (filling.empty()) {
      text += "The cache was filled inside the stages that read it, so its cost is not apart from theirs in the log. ";
    } else {
      text += fmt::format(
          "Spark filled it in {} {} ({} of wall-clock, {} of task time), which computed its rows and stored them; "
          "without the cache the one query computes the same rows as it reads them, so part of that time is "
          "needed anyway. ",
          filling.size() == 1 ? "stage" : "stages", stage_list(filling), duration_text(fill_ms),
          duration_text(fill_task_ms));
    }
    text +=
        "It also held storage memory (and disk) until unpersist() or the end of the application; Spark logs how "
        "much only in block updates (spark.eventLog.logBlockUpdates.enabled), which the model does not read.";
    f.explanation = std::move(text);
    f.recommendation =
        "Remove the persist() (or cache()) of this DataFrame: one query reads it, so storing it costs the time to "
        "store it and its storage memory and saves nothing. Persist only a DataFrame that two or more actions use, "
        "and unpersist() it after the last.";
    f.evidence = {{"reads", 1.0, "count"},
                  {"fillStages", static_cast<double>(filling.size()), "count"},
                  {"fillStageDurationMs", fill_ms, "ms"},
                  {"fillTaskTimeMs", fill_task_ms, "ms"}};
    f.confidence = Confidence::kMedium;
    f.validation_caveat =
        "Only reads by SQL queries show in the log: a read through the RDD API (df.rdd) or by another application "
        "sharing the session does not.";
    f.band = ImpactBand::kLow;
    f.claim.kind = WasteClaim::Kind::kInformational;
    findings.push_back(std::move(f));
  }
}

}  // namespace

void detect_caching(const DetectorContext& context, std::vector<Finding>& findings) {
  const std::set<int64_t> recomputed_scans = recomputed_subtrees(context, findings);
  input_read_again(context, recomputed_scans, findings);
  cache_utilization(context, findings);
  single_use_caches(context, findings);
}

}  // namespace sf::analysis

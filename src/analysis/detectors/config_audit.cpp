// configAudit: settings that work against this application, one finding per rule that fires.
//
// Every rule needs evidence from the log that the setting mattered here (SQL shuffles for the
// AQE rules, sort-merge joins for skew join, a big shuffle for the partition count, RDD shuffles
// for the serializer, shuffles for dynamic allocation) and names Spark's documented default,
// which for several settings depends on the Spark version. SQL settings are read as each
// execution ran with them: a session-level change (modifiedConfigs) wins over the application's
// properties. Findings are informational (no waste formula); the band is medium for a rule that
// cost time on this log, low otherwise.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "analysis/detectors/detectors.h"
#include "analysis/detectors/partition_origin.h"
#include "analysis/detectors/plan_text.h"
#include "analysis/findings/figure_words.h"
#include "analysis/findings/finding_types.h"
#include "common/units.h"

namespace sf::analysis {

namespace {

using model::PlanNode;
using model::PlanTree;
using model::SqlExecution;
using model::StageAttempt;
using units::format_bytes;
using units::format_count;
using units::format_duration_ms;

using VersionPair = std::optional<std::pair<int, int>>;

bool at_least(const VersionPair& version, int major, int minor) {
  return version && *version >= std::pair{major, minor};
}

std::string version_text(const VersionPair& version) {
  return version ? fmt::format("{}.{}", version->first, version->second) : std::string("unknown");
}

// A boolean SQL setting as the execution ran with it, or its default when unset or unreadable.
bool execution_flag(const DetectorContext& context, const SqlExecution& sql, std::string_view key, bool default_value) {
  auto value = context.execution_property(sql, key);
  if (!value) return default_value;
  std::string lower = *value;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "true") return true;
  if (lower == "false") return false;
  return default_value;
}

template <typename Predicate>
bool any_node(const PlanTree& plan, Predicate&& predicate) {
  return std::any_of(plan.nodes.begin(), plan.nodes.end(), predicate);
}

Finding config_finding(std::string rule) {
  Finding f;
  f.type = finding_type::kConfigAudit;
  f.rule = std::move(rule);
  f.scope = Scope::kConfig;
  f.id = DetectorContext::finding_id(f.type, f.rule, "app");
  f.band = ImpactBand::kLow;
  f.claim.kind = WasteClaim::Kind::kInformational;
  return f;
}

// "SQL 3, 5, 8 and 4 more"
std::string execution_list(const std::vector<int64_t>& ids) {
  std::string list;
  for (size_t i = 0; i < ids.size() && i < 5; ++i) list += (list.empty() ? "SQL " : ", ") + std::to_string(ids[i]);
  if (ids.size() > 5) list += fmt::format(" and {} more", ids.size() - 5);
  return list;
}

// SQL executions matching `predicate`, by id.
template <typename Predicate>
std::vector<int64_t> executions_where(const DetectorContext& context, Predicate&& predicate) {
  std::vector<int64_t> ids;
  for (const SqlExecution& sql : context.model().sql) {
    if (predicate(sql)) ids.push_back(sql.execution_id);
  }
  return ids;
}

// ---------------------------------------------------------------------------------------------
// AQE

// AQE exists from Spark 3.0 and is on by default from 3.2.0.
bool adaptive_default(const VersionPair& version) { return at_least(version, 3, 2); }

void adaptive_execution_off(const DetectorContext& context, std::vector<Finding>& findings) {
  const VersionPair version = context.spark_version();
  if (!at_least(version, 3, 0)) return;
  const auto shuffling = executions_where(context, [&](const SqlExecution& sql) {
    return !is_streaming_batch(sql) && any_node(sql.plan, is_shuffle_exchange);
  });
  // The plan says whether AQE ran; the setting says whether that was the configuration.
  const auto without_aqe = executions_where(context, [&](const SqlExecution& sql) {
    return !is_streaming_batch(sql) && any_node(sql.plan, is_shuffle_exchange) && !is_adaptive(sql.plan) &&
           !execution_flag(context, sql, "spark.sql.adaptive.enabled", adaptive_default(version));
  });
  if (without_aqe.empty()) return;
  // What AQE would have acted on in those executions: shuffles cut into many partitions far
  // smaller than its target (it merges them), or with a partition far past the median (it splits
  // it in a join). Without such a shuffle, and stages long enough to matter, "AQE is off" is a
  // generic audit line on a log where it would have changed nothing (six copies of it on the
  // corpus's small test logs).
  const Thresholds& t = context.thresholds();
  int64_t small_partition_stages = 0;
  int64_t skewed_stages = 0;
  int64_t acted_stages = 0;
  double acted_on_ms = 0;
  for (int64_t id : without_aqe) {
    for (const StageAttempt* stage : context.ran_stages_of_execution(id)) {
      if (stage->shuffle_read_bytes() <= 0) continue;
      const auto& read = stage->quantile(model::QuantileMetric::kShuffleReadBytes);
      const bool small =
          stage->num_tasks > context.total_cores() && static_cast<double>(read.p50) < t.partition_target_bytes / 8;
      const bool skewed =
          static_cast<double>(read.max) >= t.skew_bytes_max_to_median_ratio * static_cast<double>(read.p50) &&
          static_cast<double>(read.max - read.p50) >= t.skew_min_bytes_excess;
      if (!small && !skewed) continue;
      small_partition_stages += small ? 1 : 0;
      skewed_stages += skewed ? 1 : 0;
      ++acted_stages;
      acted_on_ms += context.occupancy(*stage).duration_ms;
    }
  }
  if (!context.significant_ms(acted_on_ms, t.stage_min_duration_ms)) return;
  // How the first affected execution came to run without AQE.
  const SqlExecution& example = *context.model().sql_execution(without_aqe.front());
  const bool session_set = std::any_of(example.modified_configs.begin(), example.modified_configs.end(),
                                       [](const auto& kv) { return kv.first == "spark.sql.adaptive.enabled"; });
  const std::optional<std::string> app_set = context.property("spark.sql.adaptive.enabled");
  const std::string source =
      session_set ? std::string("was set to false in the session that ran them")
      : app_set   ? fmt::format("is set to {} for the application", *app_set)
                  : fmt::format("is not set, so Spark {}'s default (false) applied", version_text(version));
  Finding f = config_finding(finding_rule::kAdaptiveExecutionOff);
  f.title = fmt::format("Adaptive query execution was off for {} of {} SQL executions that shuffle", without_aqe.size(),
                        shuffling.size());
  f.explanation = fmt::format(
      "spark.sql.adaptive.enabled {}; Spark documents its default as false in 3.0 and 3.1 and true since 3.2.0. {} "
      "shuffled data without AQE ({}), so shuffle partition counts, join strategies and the handling of skewed "
      "partitions were fixed at planning time from estimates instead of adjusted to the sizes each shuffle actually "
      "produced.",
      source, without_aqe.size() == 1 ? std::string("One execution") : fmt::format("{} executions", without_aqe.size()),
      execution_list(without_aqe));
  std::string acted =
      fmt::format(" AQE would have acted on {} of their shuffle stages, which ran {}:", format_count(acted_stages),
                  format_duration_ms(as_int(acted_on_ms)));
  if (small_partition_stages > 0) {
    acted += fmt::format(" {} cut into partitions of under {} at the median, which it merges",
                         format_count(small_partition_stages), format_bytes(as_int(t.partition_target_bytes / 8)));
  }
  if (skewed_stages > 0) {
    acted += fmt::format("{} {} with a partition far past the median, which it splits in a join",
                         small_partition_stages > 0 ? ";" : "", format_count(skewed_stages));
  }
  f.explanation += acted + ".";
  f.recommendation =
      "Turn AQE on: it merges small shuffle partitions, turns a sort-merge join into a broadcast join when one side "
      "turns out small, and splits skewed partitions, all from the sizes measured at run time.";
  f.settings = {context.setting("spark.sql.adaptive.enabled", "true")};
  f.evidence = {{"executionsWithoutAqe", static_cast<double>(without_aqe.size()), "count"},
                {"executionsWithShuffles", static_cast<double>(shuffling.size()), "count"},
                {"stagesAqeWouldActOn", static_cast<double>(acted_stages), "count"},
                {"stagesAqeWouldActOnMs", acted_on_ms, "ms"}};
  f.confidence = Confidence::kHigh;  // the setting and the plans agree
  findings.push_back(std::move(f));
}

void coalesce_partitions_off(const DetectorContext& context, std::vector<Finding>& findings) {
  const auto affected = executions_where(context, [&](const SqlExecution& sql) {
    return is_adaptive(sql.plan) && any_node(sql.plan, is_shuffle_exchange) &&
           !execution_flag(context, sql, "spark.sql.adaptive.coalescePartitions.enabled", true);
  });
  if (affected.empty()) return;
  Finding f = config_finding(finding_rule::kCoalescePartitionsOff);
  f.title = fmt::format("AQE ran without partition coalescing in {} SQL execution{} that shuffle{}", affected.size(),
                        affected.size() == 1 ? "" : "s", affected.size() == 1 ? "s" : "");
  f.explanation = fmt::format(
      "spark.sql.adaptive.coalescePartitions.enabled was false (its documented default is true since Spark 3.0.0) "
      "while AQE was on in {} ({}). Every shuffle then keeps spark.sql.shuffle.partitions partitions however little "
      "data it carries, so small shuffles run as many near-empty tasks.",
      affected.size() == 1 ? std::string("one execution") : fmt::format("{} executions", affected.size()),
      execution_list(affected));
  f.recommendation =
      "Let AQE coalesce: it merges contiguous small shuffle partitions up to "
      "spark.sql.adaptive.advisoryPartitionSizeInBytes (default 64 MiB) and leaves large ones alone.";
  f.settings = {context.setting("spark.sql.adaptive.coalescePartitions.enabled", "true")};
  f.evidence = {{"affectedExecutions", static_cast<double>(affected.size()), "count"}};
  f.confidence = Confidence::kHigh;
  findings.push_back(std::move(f));
}

void skew_join_off(const DetectorContext& context, std::vector<Finding>& findings) {
  int64_t joins = 0;
  const auto affected = executions_where(context, [&](const SqlExecution& sql) {
    if (!is_adaptive(sql.plan) || execution_flag(context, sql, "spark.sql.adaptive.skewJoin.enabled", true)) {
      return false;
    }
    const auto count = std::count_if(sql.plan.nodes.begin(), sql.plan.nodes.end(), is_shuffled_join);
    joins += count;
    return count > 0;
  });
  if (affected.empty()) return;
  Finding f = config_finding(finding_rule::kSkewJoinOff);
  f.title =
      fmt::format("AQE skew-join handling was off for {} shuffled join{}", format_count(joins), joins == 1 ? "" : "s");
  f.explanation = fmt::format(
      "spark.sql.adaptive.skewJoin.enabled was false (its documented default is true since Spark 3.0.0) while AQE "
      "was on, in {} with {} sort-merge or shuffled hash joins ({}). A skewed join key then leaves one task with "
      "most of the data, and the whole stage waits for it.",
      affected.size() == 1 ? std::string("one execution") : fmt::format("{} executions", affected.size()),
      format_count(joins), execution_list(affected));
  f.recommendation =
      "Turn skew-join handling back on: AQE splits a partition larger than spark.sql.adaptive.skewJoin."
      "skewedPartitionFactor (default 5) times the median and above spark.sql.adaptive.skewJoin."
      "skewedPartitionThresholdInBytes (default 256 MiB) into smaller tasks.";
  f.settings = {context.setting("spark.sql.adaptive.skewJoin.enabled", "true")};
  f.evidence = {{"affectedExecutions", static_cast<double>(affected.size()), "count"},
                {"shuffledJoins", static_cast<double>(joins), "count"}};
  f.confidence = Confidence::kHigh;
  findings.push_back(std::move(f));
}

// ---------------------------------------------------------------------------------------------
// spark.sql.shuffle.partitions

void default_shuffle_partitions(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  constexpr int32_t kDefaultPartitions = 200;
  std::vector<const StageAttempt*> oversized;
  for (const StageAttempt* stage : context.ran_stages()) {
    if (!stage->sql_execution_id || stage->num_tasks <= 0 || stage->num_tasks > kDefaultPartitions) continue;
    const SqlExecution* sql = context.model().sql_execution(*stage->sql_execution_id);
    if (sql == nullptr) continue;
    const auto partitions = context.execution_property(*sql, "spark.sql.shuffle.partitions");
    if (partitions && *partitions != "200") continue;
    // Only a count the setting gave: a repartition(n), a coalesce, a single partition or
    // adaptive execution set theirs, and raising the setting would not change them (two
    // findings of one report must agree on what sets a count). Without a plan to say, the count
    // must be the setting's value.
    const PartitionSource source = partition_origin(context.model(), *stage).source;
    if (source != PartitionSource::kShufflePartitions &&
        !(source == PartitionSource::kUnknown && stage->num_tasks == kDefaultPartitions)) {
      continue;
    }
    const double bytes = static_cast<double>(stage->shuffle_read_bytes());
    // A big shuffle is only a problem for 200 partitions when each one gets too much of it.
    if (bytes < t.config_default_partitions_min_shuffle_bytes) continue;
    if (bytes / stage->num_tasks <= t.partition_target_bytes) continue;
    oversized.push_back(stage);
  }
  if (oversized.empty()) return;
  const StageAttempt& largest = **std::max_element(oversized.begin(), oversized.end(), [](auto* a, auto* b) {
    return a->shuffle_read_bytes() < b->shuffle_read_bytes();
  });
  const double bytes = static_cast<double>(largest.shuffle_read_bytes());
  const double per_task = bytes / largest.num_tasks;
  // Partitions of about the target size, in whole waves over the cluster's cores.
  const double cores = context.total_cores();
  const auto suggested = static_cast<int64_t>(std::ceil(std::ceil(bytes / t.partition_target_bytes) / cores) * cores);
  const std::optional<std::string> set = context.property("spark.sql.shuffle.partitions");

  Finding f = config_finding(finding_rule::kDefaultShufflePartitions);
  for (const StageAttempt* stage : oversized) f.stages.push_back(DetectorContext::ref(*stage));
  f.sql_execution_id = largest.sql_execution_id;
  f.title = fmt::format("spark.sql.shuffle.partitions is the default 200 while {} read {} of shuffle in {} tasks",
                        DetectorContext::stage_label(largest), format_bytes(static_cast<int64_t>(bytes)),
                        format_count(largest.num_tasks));
  f.explanation = fmt::format(
      "spark.sql.shuffle.partitions is {} (the documented default is 200). {} stage{} read more than "
      "configAudit.defaultPartitionsMinShuffleBytes ({}) of shuffle data in at most 200 tasks; the largest, {}, read "
      "{} in {} tasks, {} per task, above partitionSizing.targetBytes ({}). Partitions this large spill to disk, "
      "strain executor memory and make each task long, and AQE can merge small partitions but not split these.",
      set ? "set to 200" : "not set", format_count(static_cast<int64_t>(oversized.size())),
      oversized.size() == 1 ? "" : "s",
      format_bytes(static_cast<int64_t>(t.config_default_partitions_min_shuffle_bytes)),
      DetectorContext::stage_label(largest), format_bytes(static_cast<int64_t>(bytes)), format_count(largest.num_tasks),
      format_bytes(static_cast<int64_t>(per_task)), format_bytes(static_cast<int64_t>(t.partition_target_bytes)));
  f.recommendation = fmt::format(
      "Raise spark.sql.shuffle.partitions to about {} (about {} per partition for the largest shuffle, in whole waves "
      "of the {} cores). With AQE on, small shuffles are coalesced back down, so a higher number costs little "
      "elsewhere; to raise only AQE's starting point, set spark.sql.adaptive.coalescePartitions.initialPartitionNum "
      "instead.",
      format_count(suggested), format_bytes(static_cast<int64_t>(t.partition_target_bytes)),
      format_count(static_cast<int64_t>(cores)));
  f.settings = {context.setting("spark.sql.shuffle.partitions", std::to_string(suggested))};
  f.evidence = {{"largestShuffleReadBytes", bytes, "bytes"},
                {"tasks", static_cast<double>(largest.num_tasks), "count"},
                {"shuffleBytesPerTask", per_task, "bytes"},
                {"stagesAffected", static_cast<double>(oversized.size()), "count"}};
  f.thresholds = {"configAudit.defaultPartitionsMinShuffleBytes", "partitionSizing.targetBytes"};
  f.confidence = context.confidence_above(per_task, t.partition_target_bytes);
  f.band = ImpactBand::kMedium;  // these stages ran with oversized partitions on this log
  findings.push_back(std::move(f));
}

// ---------------------------------------------------------------------------------------------
// Executors

void executor_cores_high(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  if (context.local_master()) return;
  // What the executors reported wins over the setting (standalone takes every core of a worker
  // when the setting is absent).
  int32_t reported = 0;
  for (const model::Executor& executor : context.model().executors) {
    if (!executor.is_driver()) reported = std::max(reported, executor.total_cores);
  }
  // Databricks sizes executors by node type, and GPU executors by cores per GPU: the guidance
  // does not apply there.
  if (context.databricks() || context.property("spark.executor.resource.gpu.amount")) return;
  const std::optional<double> set = context.number_property("spark.executor.cores");
  const double cores = reported > 0 ? reported : set.value_or(0);
  if (cores <= t.config_max_executor_cores) return;
  const auto target = static_cast<int64_t>(std::floor(t.config_max_executor_cores));
  if (target <= 0) return;

  Finding f = config_finding(finding_rule::kExecutorCoresHigh);
  f.title = fmt::format("Executors run {} tasks at once, more than {}", static_cast<int64_t>(cores), target);
  f.explanation = fmt::format(
      "Each executor ran up to {} concurrent tasks in one JVM ({}; the documented default of spark.executor.cores is 1 "
      "on YARN and Kubernetes and all of a worker's cores in standalone mode). Past about {} concurrent tasks per "
      "executor, HDFS and object-store clients lose per-task throughput, and one large heap shared by many tasks has "
      "longer garbage-collection pauses; losing one executor also loses more work at once.",
      static_cast<int64_t>(cores),
      reported > 0
          ? fmt::format("as the executors registered{}", set ? fmt::format(", spark.executor.cores={}", *set) : "")
          : fmt::format("spark.executor.cores={}", *set),
      target);
  f.recommendation = fmt::format(
      "Use executors of about {} cores and proportionally more of them, keeping the memory per core: the same cores "
      "and memory in all, split over more JVMs.",
      target);
  f.settings = {context.setting("spark.executor.cores", std::to_string(target))};
  if (auto instances = context.number_property("spark.executor.instances")) {
    const auto scaled = static_cast<int64_t>(std::ceil(*instances * cores / static_cast<double>(target)));
    f.settings.push_back(context.setting("spark.executor.instances", std::to_string(scaled)));
  }
  if (auto memory = context.size_property("spark.executor.memory")) {
    const double gib = static_cast<double>(int64_t{1} << 30);
    const auto scaled =
        static_cast<int64_t>(std::ceil(static_cast<double>(*memory) * static_cast<double>(target) / cores / gib));
    f.settings.push_back(context.setting("spark.executor.memory", fmt::format("{}g", std::max<int64_t>(1, scaled))));
  }
  f.evidence = {{"coresPerExecutor", cores, "count"}};
  f.thresholds = {"configAudit.maxExecutorCores"};
  f.confidence = context.confidence_above(cores, t.config_max_executor_cores);
  f.validation_caveat =
      "This is general sizing guidance; keep larger executors where measurements of this workload "
      "show they do better.";
  findings.push_back(std::move(f));
}

// ---------------------------------------------------------------------------------------------
// spark.serializer

bool looks_like_pyspark(const DetectorContext& context) {
  return std::any_of(context.model().stages.begin(), context.model().stages.end(),
                     [](const StageAttempt& stage) { return stage.details.find("py4j.") != std::string::npos; });
}

void java_serializer(const DetectorContext& context, std::vector<Finding>& findings) {
  const std::optional<std::string> serializer = context.property("spark.serializer");
  if (serializer && serializer->find("KryoSerializer") != std::string::npos) return;
  const auto& jobs = context.model().jobs;
  const auto rdd_jobs =
      std::count_if(jobs.begin(), jobs.end(), [](const model::Job& job) { return !job.sql_execution_id; });
  // RDD-heavy: most jobs come from the RDD API, where spark.serializer encodes the records.
  if (jobs.empty() || 2 * rdd_jobs <= static_cast<int64_t>(jobs.size())) return;
  // Python RDDs reach the JVM as pickled bytes: the JVM serializer hardly matters there.
  if (looks_like_pyspark(context)) return;
  int64_t rdd_shuffle_bytes = 0;
  for (const StageAttempt& stage : context.model().stages) {
    if (!stage.sql_execution_id) rdd_shuffle_bytes += stage.metric(model::TaskMetric::kShuffleWriteBytes);
  }
  int64_t serialized_cache_bytes = 0;
  for (const auto& [id, rdd] : context.model().rdds) {
    if (rdd.is_cached() && (!rdd.deserialized || rdd.use_disk))
      serialized_cache_bytes += rdd.memory_size_bytes + rdd.disk_size_bytes;
  }
  // Serialization cost grows with the bytes: below what the shuffle detector counts as a big
  // shuffle, the serializer is not worth a finding.
  const Thresholds& t = context.thresholds();
  if (static_cast<double>(rdd_shuffle_bytes + serialized_cache_bytes) < t.config_serializer_min_bytes) return;

  Finding f = config_finding(finding_rule::kJavaSerializer);
  f.title = fmt::format("RDD data was serialized with Java serialization ({} of RDD shuffle writes)",
                        format_bytes(rdd_shuffle_bytes));
  f.explanation = fmt::format(
      "spark.serializer is {} (the documented default is org.apache.spark.serializer.JavaSerializer). {} of the "
      "application's {} jobs came from the RDD API, whose shuffled{} records are written with spark.serializer: the "
      "RDD stages wrote {} of shuffle data{}. Spark's tuning guide calls Kryo significantly faster and more compact "
      "than Java serialization, often by as much as 10x. (DataFrame and SQL stages use their own encoders and are "
      "not affected; since Spark 2.0 RDDs of simple types and strings are shuffled with Kryo already.)",
      serializer ? *serializer : std::string("not set"), format_count(rdd_jobs),
      format_count(static_cast<int64_t>(jobs.size())), serialized_cache_bytes > 0 ? " and serialized-cached" : "",
      format_bytes(rdd_shuffle_bytes),
      serialized_cache_bytes > 0
          ? fmt::format(" and {} was cached in serialized form", format_bytes(serialized_cache_bytes))
          : std::string());
  f.recommendation =
      "Switch to Kryo and register the classes you shuffle or cache (conf.registerKryoClasses or "
      "spark.kryo.classesToRegister); spark.kryo.registrationRequired=true makes an unregistered class an error "
      "instead of a silent full class name in every record.";
  f.settings = {context.setting("spark.serializer", "org.apache.spark.serializer.KryoSerializer")};
  f.evidence = {{"rddJobs", static_cast<double>(rdd_jobs), "count"},
                {"jobs", static_cast<double>(jobs.size()), "count"},
                {"rddShuffleWriteBytes", static_cast<double>(rdd_shuffle_bytes), "bytes"},
                {"serializedCacheBytes", static_cast<double>(serialized_cache_bytes), "bytes"}};
  f.thresholds = {"configAudit.serializerMinBytes"};
  f.confidence = Confidence::kMedium;
  findings.push_back(std::move(f));
}

// ---------------------------------------------------------------------------------------------
// Dynamic allocation

void dynamic_allocation_without_shuffle_service(const DetectorContext& context, std::vector<Finding>& findings) {
  const VersionPair version = context.spark_version();
  if (!context.dynamic_allocation() || context.local_master()) return;
  if (context.bool_property("spark.shuffle.service.enabled") == true) return;
  // Before 3.0, and from 3.0 without shuffle tracking, Spark refuses to start dynamic
  // allocation without the shuffle service: a log of a run cannot show that combination.
  if (!at_least(version, 3, 0)) return;
  // Decommissioning migrates shuffle files off executors before they go.
  if (context.bool_property("spark.decommission.enabled") == true &&
      context.bool_property("spark.storage.decommission.enabled") == true &&
      context.bool_property("spark.storage.decommission.shuffleBlocks.enabled") != false) {
    return;
  }
  const std::optional<bool> tracking_set = context.bool_property("spark.dynamicAllocation.shuffleTracking.enabled");
  const bool tracking = tracking_set.value_or(at_least(version, 3, 4));  // on by default since 3.4.0
  if (!tracking || context.property("spark.dynamicAllocation.shuffleTracking.timeout")) return;
  int64_t shuffle_bytes = 0;
  for (const StageAttempt& stage : context.model().stages)
    shuffle_bytes += stage.metric(model::TaskMetric::kShuffleWriteBytes);
  if (shuffle_bytes <= 0) return;
  int64_t removed = 0;
  for (const model::Executor& executor : context.model().executors) {
    if (!executor.is_driver() && executor.remove_time_ms) ++removed;
  }
  const bool kubernetes = context.property("spark.master").value_or("").starts_with("k8s://");

  Finding f = config_finding(finding_rule::kDynamicAllocationWithoutShuffleService);
  f.title = "Dynamic allocation keeps executors that hold shuffle files: no external shuffle service";
  f.explanation = fmt::format(
      "spark.dynamicAllocation.enabled=true, but spark.shuffle.service.enabled is {} (documented default false). "
      "Dynamic allocation then relies on shuffle tracking ({}) with spark.dynamicAllocation.shuffleTracking.timeout "
      "unset (documented default: infinity): an executor that holds shuffle files a live job may still read is never "
      "released, idle or not, so the application scales down only as jobs end. The run wrote {} of shuffle data; {} "
      "executors were removed during it.",
      context.property("spark.shuffle.service.enabled").value_or("not set"),
      tracking_set ? "spark.dynamicAllocation.shuffleTracking.enabled=true"
                   : "spark.dynamicAllocation.shuffleTracking.enabled, on by default since Spark 3.4.0",
      format_bytes(shuffle_bytes), format_count(removed));
  if (kubernetes && at_least(version, 3, 1)) {
    f.recommendation =
        "Kubernetes has no external shuffle service: let executors hand their shuffle files to others before they "
        "go (spark.decommission.enabled=true with spark.storage.decommission.enabled=true, which migrates shuffle "
        "blocks by default), or bound how long shuffle data keeps an executor with "
        "spark.dynamicAllocation.shuffleTracking.timeout (an executor released early can force its shuffle output "
        "to be recomputed).";
    f.settings = {context.setting("spark.decommission.enabled", "true"),
                  context.setting("spark.storage.decommission.enabled", "true"),
                  context.setting("spark.dynamicAllocation.shuffleTracking.timeout", "30min")};
  } else if (kubernetes) {
    f.recommendation =
        "Kubernetes has no external shuffle service, and shuffle-block migration on decommission needs Spark 3.1: "
        "bound how long shuffle data keeps an executor with spark.dynamicAllocation.shuffleTracking.timeout (an "
        "executor released early can force its shuffle output to be recomputed), or upgrade and use decommissioning.";
    f.settings = {context.setting("spark.dynamicAllocation.shuffleTracking.timeout", "30min")};
  } else {
    f.recommendation =
        "Run the external shuffle service on every node (YARN auxiliary service or standalone worker) and enable "
        "it, so shuffle files outlive their executors and idle executors can go; or bound how long shuffle data keeps "
        "an executor with spark.dynamicAllocation.shuffleTracking.timeout (an executor released early can force its "
        "shuffle output to be recomputed).";
    f.settings = {context.setting("spark.shuffle.service.enabled", "true"),
                  context.setting("spark.dynamicAllocation.shuffleTracking.timeout", "30min")};
  }
  f.evidence = {{"shuffleWriteBytes", static_cast<double>(shuffle_bytes), "bytes"},
                {"executorsRemoved", static_cast<double>(removed), "count"}};
  f.confidence = Confidence::kMedium;
  findings.push_back(std::move(f));
}

// ---------------------------------------------------------------------------------------------
// Speculation

void speculation_untuned(const DetectorContext& context, std::vector<Finding>& findings) {
  const VersionPair version = context.spark_version();
  if (context.bool_property("spark.speculation") != true) return;
  // Spark 4.0 made the conservative values (3 and 0.9) the defaults.
  if (!version || at_least(version, 4, 0)) return;
  if (context.property("spark.speculation.multiplier") || context.property("spark.speculation.quantile")) return;
  int64_t launched = 0;
  int64_t killed_time_ms = 0;
  for (const StageAttempt& stage : context.model().stages) {
    launched += stage.tasks_speculative;
    killed_time_ms += stage.killed_task_time_ms;
  }
  Finding f = config_finding(finding_rule::kSpeculationUntuned);
  f.title = "Speculation is on with Spark's aggressive pre-4.0 defaults";
  f.explanation = fmt::format(
      "spark.speculation=true on Spark {} with spark.speculation.multiplier and spark.speculation.quantile unset, so "
      "their documented defaults before 4.0 apply: a copy of any task running 1.5 times longer than the median is "
      "launched once 75% of a stage's tasks are done. Ordinary variation in task time meets that bar, and the copies "
      "take cores from real work; Spark 4.0 raised the defaults to 3 and 0.9 for this reason. This run launched {} "
      "speculative copies, and killed task attempts ran {}.",
      version_text(version), format_count(launched), format_duration_ms(killed_time_ms));
  f.recommendation =
      "Copy only clear outliers: set Spark 4.0's defaults, and raise spark.speculation.minTaskRuntime (default 100 ms) "
      "if short tasks are being copied.";
  f.settings = {context.setting("spark.speculation.multiplier", "3"),
                context.setting("spark.speculation.quantile", "0.9")};
  f.evidence = {{"speculativeLaunches", static_cast<double>(launched), "count"},
                {"killedTaskTimeMs", static_cast<double>(killed_time_ms), "ms"}};
  f.confidence = Confidence::kMedium;
  findings.push_back(std::move(f));
}

}  // namespace

void detect_config(const DetectorContext& context, std::vector<Finding>& findings) {
  adaptive_execution_off(context, findings);
  coalesce_partitions_off(context, findings);
  skew_join_off(context, findings);
  default_shuffle_partitions(context, findings);
  executor_cores_high(context, findings);
  java_serializer(context, findings);
  dynamic_allocation_without_shuffle_service(context, findings);
  speculation_untuned(context, findings);
}

}  // namespace sf::analysis

// Detectors of memory pressure and of memory held but not used: gc, spill, memoryUtilization
// (variants wasteModel, memoryBand with rules heapOverProvisioned and
// heapNearCapacity, and dataUnavailable).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/detectors/databricks_scaling.h"
#include "analysis/detectors/detectors.h"
#include "analysis/detectors/executor_count.h"
#include "analysis/detectors/partition_origin.h"
#include "analysis/detectors/plan_text.h"
#include "analysis/detectors/removed_work.h"
#include "analysis/findings/figure_words.h"
#include "analysis/findings/finding_types.h"
#include "analysis/settings/cluster_shape.h"
#include "analysis/settings/heap_sizes.h"
#include "common/units.h"

namespace sf::analysis {

namespace {

using model::ExecutorMetric;
using model::StageAttempt;
using model::TaskMetric;
using units::format_bytes;
using units::format_count;
using units::format_duration_ms;
using units::format_percent;

// Headroom over the observed peak when sizing a heap: the JVM needs free space to collect.
constexpr double kHeapHeadroom = 1.3;
// Smallest partition size worth suggesting: below this, task overhead dominates.
constexpr double kMinSuggestedPartitionBytes = 16 * kMiB;

// "4g": a heap size as spark.executor.memory takes it, rounded up to a whole GiB.
std::string gib_setting(double bytes) {
  return fmt::format("{}g", std::max<int64_t>(1, static_cast<int64_t>(std::ceil(bytes / kGiB - 1e-9))));
}

// The heap to suggest for `needed` bytes: whole GiB, or whole 512 MiB steps when rounding up to a
// GiB would not go below the current heap (a small heap has nothing to give back otherwise).
std::string heap_setting(double needed, double current) {
  if (std::ceil(needed / kGiB - 1e-9) * kGiB < current) return gib_setting(needed);
  constexpr double kStep = 512 * kMiB;
  const double stepped = std::max(1.0, std::ceil(needed / kStep - 1e-9)) * kStep;
  return fmt::format("{}m", static_cast<int64_t>(stepped / kMiB));
}

int64_t peak_heap_of(const model::ExecutorMetricPeaks& peaks) {
  return peaks.present ? peaks.values[index_of(ExecutorMetric::kJvmHeapMemory)] : 0;
}

std::optional<double> context_memory_bytes(const DetectorContext& context, std::string_view key) {
  const auto bytes = context.memory_property_bytes(key);
  if (!bytes) return std::nullopt;
  return static_cast<double>(*bytes);
}

// Executors that run tasks: those that announced cores (in local mode that is the driver; the
// driver of a cluster-mode app has none). Logs without cores fall back to every non-driver.
std::vector<const model::Executor*> task_executors(const model::AppModel& model) {
  std::vector<const model::Executor*> executors;
  for (const auto& e : model.executors) {
    if (e.total_cores > 0) executors.push_back(&e);
  }
  if (executors.empty()) {
    for (const auto& e : model.executors) {
      if (!e.is_driver()) executors.push_back(&e);
    }
  }
  return executors;
}

struct HeapSize {
  double bytes = 0;
  std::string source;  // the property it came from, or how it was estimated
};

// One executor's heap: spark.executor.memory (spark.driver.memory for a local-mode driver), or,
// when unset, inverted from the block manager's unified region, which Spark sizes as
// (heap - 300 MiB) x spark.memory.fraction.
std::optional<HeapSize> heap_of(const DetectorContext& context, const model::Executor& executor) {
  const char* key = executor.is_driver() ? "spark.driver.memory" : "spark.executor.memory";
  if (auto bytes = context_memory_bytes(context, key)) return HeapSize{*bytes, key};
  const double region = static_cast<double>(executor.max_onheap_memory_bytes.value_or(executor.max_memory_bytes));
  if (region <= 0) return std::nullopt;
  return HeapSize{heap_behind_block_manager(context.model(), region),
                  fmt::format("estimated from the block manager's memory: {} is not set", key)};
}

// The heap the application gave its executors: the largest over the task executors.
std::optional<HeapSize> app_heap(const DetectorContext& context, const std::vector<const model::Executor*>& executors) {
  std::optional<HeapSize> largest;
  for (const model::Executor* e : executors) {
    const auto heap = heap_of(context, *e);
    if (heap && (!largest || heap->bytes > largest->bytes)) largest = heap;
  }
  return largest;
}

// Cores each executor runs tasks on: spark.executor.cores, else what the executors announced.
std::optional<int32_t> cores_per_executor(const DetectorContext& context) {
  if (auto cores = context.number_property("spark.executor.cores"); cores && *cores >= 1) {
    return static_cast<int32_t>(*cores);
  }
  int32_t most = 0;
  for (const auto& e : context.model().executors) most = std::max(most, e.total_cores);
  if (most > 0) return most;
  return std::nullopt;
}

// The application's window, and each executor's part of it.
struct AppWindow {
  double start_ms = 0;
  double end_ms = 0;
};

std::optional<AppWindow> app_window(const DetectorContext& context) {
  const auto& app = context.model().app;
  if (!app.start_time_ms) return std::nullopt;
  const double start = static_cast<double>(*app.start_time_ms);
  return AppWindow{start, start + context.app_duration_ms()};
}

double lifetime_ms(const model::Executor& e, const AppWindow& window) {
  const double added = e.add_time_ms ? static_cast<double>(*e.add_time_ms) : window.start_ms;
  const double removed = e.remove_time_ms ? static_cast<double>(*e.remove_time_ms) : window.end_ms;
  return std::max(0.0, std::min(removed, window.end_ms) - std::max(added, window.start_ms));
}

bool app_caches_data(const model::AppModel& model) {
  return std::any_of(model.rdds.begin(), model.rdds.end(), [](const auto& entry) { return entry.second.is_cached(); });
}

// The heap to suggest for twice the memory per task: double, but never past the compressed-
// pointer limit, and nothing when what is left below it is not worth a change (under 1.5x).
std::optional<double> bigger_heap(double heap_bytes) {
  const double doubled = 2 * heap_bytes;
  if (doubled <= kCompressedOopsHeapBytes) return doubled;
  if (kCompressedOopsHeapBytes >= 1.5 * heap_bytes) return kCompressedOopsHeapBytes;
  return std::nullopt;
}

// Memory outside the heap and the overhead that the container is sized for too: Spark's
// off-heap region when enabled, and the Python workers' spark.executor.pyspark.memory.
// Spark's own off-heap pool (spark.memory.offHeap.*), where Photon keeps its data.
double spark_off_heap_bytes(const DetectorContext& context) {
  if (!context.bool_property("spark.memory.offHeap.enabled").value_or(false)) return 0;
  // Unlike the heap settings, a unitless off-heap size is bytes.
  const auto size = context.property("spark.memory.offHeap.size");
  return static_cast<double>(size ? parse_size_bytes(*size).value_or(0) : 0);
}

double off_heap_bytes(const DetectorContext& context) {
  return spark_off_heap_bytes(context) + context_memory_bytes(context, "spark.executor.pyspark.memory").value_or(0);
}

// How a task gets more memory, in words: a bigger heap or fewer tasks sharing it, or on Databricks
// (where both come with the workers' node type) a node type with more memory per core.
std::string more_memory_words(const DetectorContext& context) {
  return context.databricks()
             ? "a worker node type with more memory per core (on Databricks an executor's heap and cores come with "
               "its node type)"
             : "a bigger executor heap (spark.executor.memory) or fewer tasks sharing one (spark.executor.cores); "
               "either doubles what a task gets";
}

// On Databricks a worker's heap comes with its node type: the advice for a heap of `heap_bytes`,
// `direction` "more" or "less" memory per core than today's.
std::string databricks_heap_words(std::string_view direction, double heap_bytes) {
  return fmt::format(
      "On Databricks the heap follows the workers' node type: choose a type with {} memory per core (about {} of "
      "heap, the peak with 30% headroom)",
      direction, format_bytes(as_int(heap_bytes)));
}

// The settings that give each task more memory: a bigger heap, or fewer tasks sharing it; the
// recommendation says where the heap stops and what the container then asks for.
void more_memory_per_task(const DetectorContext& context, Finding& f) {
  if (context.databricks()) return;  // the node type, which no setting chooses
  // In local mode the tasks run in the driver's JVM: its heap is the one that matters.
  if (context.local_master()) {
    const std::optional<int64_t> heap = context.memory_property_bytes("spark.driver.memory");
    f.settings.push_back(context.raise_setting("spark.driver.memory",
                                               gib_setting(2 * static_cast<double>(heap.value_or(int64_t{1} << 30)))));
    return;
  }
  const auto executors = task_executors(context.model());
  const auto cores = cores_per_executor(context);
  const bool can_halve_cores = cores && *cores >= 2;
  if (const auto heap = app_heap(context, executors)) {
    const std::optional<double> bigger = bigger_heap(heap->bytes);
    if (bigger) {
      const std::string value = gib_setting(*bigger);
      f.settings.push_back(context.setting("spark.executor.memory", value));
      if (*bigger < 2 * heap->bytes) {
        f.recommendation += fmt::format(
            " The heap stops at {}: from 32 GiB the JVM loses compressed object pointers, every reference takes "
            "twice the room, and a 32-48 GiB heap holds fewer objects than a 31 GiB one.",
            value);
      }
      const double overhead = memory_overhead_bytes(context.model(), "executor", *bigger);
      const double off_heap = off_heap_bytes(context);
      f.recommendation += fmt::format(
          " With spark.executor.memory={} each executor asks its cluster manager for about {} (heap, {} of "
          "overhead{}): check that a node has room for it.",
          value, format_bytes(as_int(*bigger + overhead + off_heap)), format_bytes(as_int(overhead)),
          off_heap > 0 ? fmt::format(", {} off-heap and Python", format_bytes(as_int(off_heap))) : "");
    } else {
      f.recommendation += fmt::format(
          " The heap is {} already: more would cross 32 GiB, where the JVM loses compressed object pointers and "
          "holds fewer objects, not more. {}",
          format_bytes(as_int(heap->bytes)),
          can_halve_cores ? "Fewer cores per executor is the way to give each task more, with twice the executors "
                            "so as many tasks run at once."
                          : "Give each task more by spreading the work over more executors or partitions.");
    }
  } else {
    // No heap in the log: twice the one set, or Spark's default of 1 GiB.
    const double set =
        static_cast<double>(context.memory_property_bytes("spark.executor.memory").value_or(int64_t{1} << 30));
    f.settings.push_back(context.raise_setting("spark.executor.memory", gib_setting(2 * set)));
  }
  // Fewer cores per executor give each task more heap but run fewer tasks at once: a setting
  // only where the heap cannot grow, and then with twice the executors, so the cluster still runs
  // as many tasks (halving the cores alone halves the application's parallelism). How it gets them
  // is the cluster's rule: a standalone master makes them from the same cores by itself.
  const bool heap_grows = std::any_of(f.settings.begin(), f.settings.end(),
                                      [](const SettingChange& c) { return c.key == "spark.executor.memory"; });
  if (can_halve_cores && !heap_grows) {
    const CountAdvice twice = executor_count_advice(context, 2 * executors_today(context), *cores / 2);
    f.settings.push_back(context.setting("spark.executor.cores", std::to_string(*cores / 2)));
    f.settings.insert(f.settings.end(), twice.settings.begin(), twice.settings.end());
    f.recommendation += " " + twice.text;
  }
}

// The options Spark 3.3 and later put in front of extraJavaOptions itself when the application
// starts (the JDK module openings, IPv4 and Netty defaults), so they are in the log's value but
// not what the user wrote; Spark adds them again to whatever value is set.
bool spark_supplied_java_option(std::string_view option) {
  constexpr std::string_view kPrefixes[] = {"--add-opens=",
                                            "--add-exports=",
                                            "--add-modules=",
                                            "--enable-native-access=",
                                            "--sun-misc-unsafe-memory-access=",
                                            "-Djava.net.preferIPv6Addresses=",
                                            "-Dio.netty."};
  return option == "-XX:+IgnoreUnrecognizedVMOptions" ||
         std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                     [&](std::string_view prefix) { return option.starts_with(prefix); });
}

// G1 with an earlier concurrent cycle, as Spark's tuning guide suggests for GC-bound jobs, kept
// with whatever other JVM options the application passes. Another collector's flag is dropped:
// the JVM refuses to start with two. From Java 9, G1 is the JVM's default and sizes its
// concurrent cycle itself (adaptive IHOP, which a fixed InitiatingHeapOccupancyPercent only
// seeds): there the only change worth making is dropping another collector the options chose.
// nullopt when nothing would change.
std::optional<SettingChange> g1_options(const DetectorContext& context) {
  const std::string current = context.property("spark.executor.extraJavaOptions").value_or("");
  const auto version = context.version();
  const bool spark_supplements = version && *version >= SparkVersion{3, 3};
  const bool g1_by_default = context.java_major_version().value_or(8) >= 9;
  constexpr std::string_view kOtherCollectors[] = {"-XX:+UseConcMarkSweepGC", "-XX:+UseParallelGC",
                                                   "-XX:+UseParallelOldGC", "-XX:+UseSerialGC"};
  std::string suggested;
  std::string written;  // the application's own options, without those Spark supplies
  bool has_g1 = false;
  bool has_occupancy = false;
  bool other_collector = false;
  size_t position = 0;
  while (position < current.size()) {
    const size_t start = current.find_first_not_of(' ', position);
    if (start == std::string::npos) break;
    const size_t end = std::min(current.find(' ', start), current.size());
    const std::string_view option(current.data() + start, end - start);
    position = end;
    if (spark_supplements && spark_supplied_java_option(option)) continue;
    if (!written.empty()) written += ' ';
    written += option;
    if (std::find(std::begin(kOtherCollectors), std::end(kOtherCollectors), option) != std::end(kOtherCollectors)) {
      other_collector = true;
      continue;
    }
    has_g1 = has_g1 || option == "-XX:+UseG1GC";
    has_occupancy = has_occupancy || option.starts_with("-XX:InitiatingHeapOccupancyPercent");
    if (!suggested.empty()) suggested += ' ';
    suggested += option;
  }
  if (g1_by_default && !other_collector) return std::nullopt;
  if (!has_g1) suggested += suggested.empty() ? "-XX:+UseG1GC" : " -XX:+UseG1GC";
  if (!has_occupancy && !g1_by_default) suggested += " -XX:InitiatingHeapOccupancyPercent=35";
  if (suggested == written) return std::nullopt;
  return context.setting("spark.executor.extraJavaOptions", suggested);
}

// The recommendation's words for the collector change g1_options suggests, or for why there is none.
std::string collector_words(const DetectorContext& context, const std::optional<SettingChange>& g1) {
  if (!g1) {
    return context.java_major_version().value_or(8) >= 9
               ? " The JVM (Java 9 or later) already collects with G1 and starts its concurrent cycle when it needs "
                 "to; no collector flag will help."
               : "";
  }
  return context.java_major_version().value_or(8) >= 9
             ? " Drop the collector the JVM options choose: G1, the default from Java 9, collects a heap under this "
               "load with shorter pauses."
             : " Use G1 with an earlier concurrent cycle.";
}

// ---------------------------------------------------------------------------------------------
// gc

// What the executors' own GC counters say about a stage, when the log has them (Spark 3.0+
// executor metrics, cumulative per executor, so the stage's peak is at least its own share).
// G1 counts its young and mixed pauses as MinorGC and only full collections as MajorGC: a stage
// whose executors had no major collection by its end collected objects its tasks still held,
// which a bigger heap does not change (on real Spark, a 512 MiB and a 1 GiB heap gave the same
// 20% GC for a collect_list over 80 groups; only a heap so small it ran full collections, and
// then failed, did worse).
struct CollectorCounters {
  bool logged = false;
  double minor_ms = 0;
  double major_ms = 0;
};

CollectorCounters collector_counters(const StageAttempt& stage) {
  const model::ExecutorMetricPeaks& peaks = stage.peak_executor_metrics;
  CollectorCounters counters;
  if (!peaks.present) return counters;
  counters.minor_ms = static_cast<double>(peaks.values[index_of(ExecutorMetric::kMinorGcTime)]);
  counters.major_ms = static_cast<double>(peaks.values[index_of(ExecutorMetric::kMajorGcTime)]);
  counters.logged = counters.minor_ms > 0 || counters.major_ms > 0;
  return counters;
}

// Aggregates that keep each group's values as JVM objects until the group is done: Spark's
// ObjectHashAggregate (and its sort-based fallback) runs collect_list, collect_set, percentile
// and typed aggregators that way, one object per value. `labels` names them
// ("ObjectHashAggregate (collect_list)"); `build_ms` is the task time they spent building their
// groups in the stage ("time in aggregation build", which holds the collections they caused).
struct ObjectHoldingAggregates {
  std::vector<std::string> labels;
  double build_ms = 0;
};

ObjectHoldingAggregates object_holding_aggregates(const model::AppModel& model, const StageAttempt& stage) {
  constexpr std::string_view kFunctions[] = {"collect_list(", "collect_set(", "percentile(", "array_agg("};
  ObjectHoldingAggregates found;
  const auto it = model.stage_plan_nodes.find(stage.stage_id);
  if (it == model.stage_plan_nodes.end()) return found;
  for (const model::PlanNodeRef& ref : it->second) {
    const model::SqlExecution* sql = model.sql_execution(ref.execution_id);
    if (sql == nullptr || ref.node_id < 0 || static_cast<size_t>(ref.node_id) >= sql->plan.nodes.size()) continue;
    const model::PlanNode& node = sql->plan.nodes[static_cast<size_t>(ref.node_id)];
    if (node.node_name != "ObjectHashAggregate" && node.node_name != "SortAggregate") continue;
    bool holds = false;
    for (std::string_view function : kFunctions) {
      if (node.simple_string.find(function) == std::string::npos) continue;
      holds = true;
      std::string label = fmt::format("{} ({})", node.node_name, function.substr(0, function.size() - 1));
      if (std::find(found.labels.begin(), found.labels.end(), label) == found.labels.end()) {
        found.labels.push_back(std::move(label));
      }
    }
    if (holds) found.build_ms += stage_part(metric_parts_by_stage(model, node, {"time in aggregation build"}), &stage);
  }
  return found;
}

std::string aggregate_without_lists_words(const ObjectHoldingAggregates& holders) {
  return fmt::format(
      "The stage runs {}, which keeps every value of a group as a JVM object until the group is done: when the "
      "list only feeds a pick or a count (its newest element, its size), an aggregate that keeps no list does the "
      "same work without the objects: max_by/min_by, count, sum, approx_count_distinct.",
      holders.labels.front());
}

// Whether a stage's GC is a finding of its own: a share of its run time past gc.warnRatio, over
// enough run time. Over little run time a GC share is noise (class loading, a first compile);
// what counts as little scales with the application, as every detector's floor does: a 30 s
// stage of a one-minute run is most of it.
bool gc_heavy(const DetectorContext& context, const StageAttempt& stage) {
  const Thresholds& t = context.thresholds();
  if (!context.ran_long_enough(stage)) return false;
  const double run_time = static_cast<double>(stage.metric(TaskMetric::kExecutorRunTimeMs));
  if (run_time <= 0 || !context.significant_ms(run_time, t.gc_min_run_time_ms)) return false;
  return static_cast<double>(stage.metric(TaskMetric::kJvmGcTimeMs)) / run_time >= t.gc_warn_ratio;
}

// The GC past the warning level of a GC-heavy stage, in task time.
double excess_gc_ms(const DetectorContext& context, const StageAttempt& stage) {
  return static_cast<double>(stage.metric(TaskMetric::kJvmGcTimeMs)) -
         context.thresholds().gc_warn_ratio * static_cast<double>(stage.metric(TaskMetric::kExecutorRunTimeMs));
}

// Keeping no list takes the building away in every stage of the SQL execution that runs such
// an aggregate (a partial aggregation and its final merge), so one finding claims them all: the
// execution's first GC-heavy stage whose aggregates' building took longer than its GC past the
// warning level (gc() claims the building there). Its other stages that run one, with their build
// time; nullopt for a stage whose execution's earlier stage claims them.
std::optional<std::vector<RemovedWork>> other_object_aggregate_stages(const DetectorContext& context,
                                                                      const StageAttempt& stage) {
  std::vector<RemovedWork> others;
  if (!stage.sql_execution_id) return others;
  for (const StageAttempt* other : context.ran_stages()) {
    if (other == &stage || other->sql_execution_id != stage.sql_execution_id) continue;
    const double build_ms = object_holding_aggregates(context.model(), *other).build_ms;
    if (build_ms <= 0) continue;
    if (other->stage_id < stage.stage_id && gc_heavy(context, *other) && build_ms > excess_gc_ms(context, *other)) {
      return std::nullopt;
    }
    const double run_time = static_cast<double>(other->metric(TaskMetric::kExecutorRunTimeMs));
    others.push_back({other, std::min(build_ms, run_time)});
  }
  return others;
}

void gc(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const auto executors = task_executors(context.model());
  const auto heap = app_heap(context, executors);
  for (const StageAttempt* stage : context.ran_stages()) {
    if (!gc_heavy(context, *stage)) continue;
    const double duration = context.occupancy(*stage).duration_ms;
    const double run_time = static_cast<double>(stage->metric(TaskMetric::kExecutorRunTimeMs));
    const double gc_time = static_cast<double>(stage->metric(TaskMetric::kJvmGcTimeMs));
    const double ratio = gc_time / run_time;
    // GC core time, turned into wall-clock at the stage's average concurrency (run / duration).
    const double waste = gc_time / (run_time / duration);
    const double peak_heap = static_cast<double>(peak_heap_of(stage->peak_executor_metrics));

    Finding f = DetectorContext::stage_finding(*stage, finding_type::kGc);
    f.title = fmt::format("{}: garbage collection took {} of executor run time", DetectorContext::stage_label(*stage),
                          format_percent(ratio));
    std::string heap_words;
    const bool heap_never_filled = heap && peak_heap > 0 && peak_heap / heap->bytes <= t.memory_over_provisioned_ratio;
    const CollectorCounters counters = collector_counters(*stage);
    const bool young_only = counters.logged && counters.major_ms <= 0;
    if (heap && peak_heap > 0) {
      heap_words = fmt::format(" The executors' JVM heap peaked at {} during the stage, {} of the {} heap ({}).",
                               format_bytes(as_int(peak_heap)), format_percent(peak_heap / heap->bytes),
                               format_bytes(as_int(heap->bytes)), heap->source);
    } else if (heap) {
      heap_words = fmt::format(" The executors' heap is {} ({}); the log has no heap peaks for this stage.",
                               format_bytes(as_int(heap->bytes)), heap->source);
    }
    std::string collector_counter_words;
    if (counters.logged) {
      collector_counter_words = fmt::format(
          " By the stage's end its executors had spent {} in young-generation collections and {} in full ones.",
          format_duration_ms(as_int(counters.minor_ms)), format_duration_ms(as_int(counters.major_ms)));
    }
    f.explanation = fmt::format(
        "The stage's tasks spent {} in JVM garbage collection out of {} of executor run time ({}, against a warning "
        "level of {}). At the stage's average of {:.1f} tasks in flight over its {} that is about {} of its "
        "wall-clock.{}{}",
        format_duration_ms(as_int(gc_time)), format_duration_ms(as_int(run_time)), format_percent(ratio),
        format_percent(t.gc_warn_ratio), run_time / duration, format_duration_ms(as_int(duration)),
        format_duration_ms(as_int(waste)), heap_words, collector_counter_words);
    const std::optional<SettingChange> g1 = g1_options(context);
    // The aggregate that holds the objects is named whichever way the heap went: with full
    // collections too (a heap that did fill), keeping no list is the fix; more memory is the
    // fallback for a list that is needed whole.
    const ObjectHoldingAggregates holders = object_holding_aggregates(context.model(), *stage);
    if (heap_never_filled || young_only) {
      f.recommendation =
          young_only ? "No full collection ran: the collector spent its time copying objects the tasks still held, "
                       "and a bigger heap or fewer tasks per executor does not change how many there are."
                     : "The heap never came close to full, so a bigger heap will not help: the collector is busy "
                       "with objects the tasks make and drop.";
      f.recommendation += collector_words(context, g1);
      if (!holders.labels.empty()) {
        f.recommendation += " " + aggregate_without_lists_words(holders);
      } else {
        f.recommendation +=
            " Look for per-row object churn: UDFs, collect_list over wide groups, Java/Scala closures building "
            "objects per record.";
      }
      if (g1) f.settings.push_back(*g1);
      // Kryo serializes RDD records; a SQL stage's rows are Spark's own binary rows already.
      if (!stage->sql_execution_id && !context.property("spark.serializer")) {
        f.recommendation += " Serialize RDD records with Kryo.";
        f.settings.push_back(context.setting("spark.serializer", "org.apache.spark.serializer.KryoSerializer"));
      }
    } else {
      f.recommendation = holders.labels.empty() ? std::string("Give each task more memory: ")
                                                : aggregate_without_lists_words(holders) +
                                                      " If the list is needed whole, give each task more memory: ";
      f.recommendation += more_memory_words(context) + "." + collector_words(context, g1);
      more_memory_per_task(context, f);
      if (g1) f.settings.push_back(*g1);
      if (app_caches_data(context.model())) {
        // Unified memory (spark.memory.fraction) since Spark 1.6; before it, storage had a fixed
        // share of the heap, spark.storage.memoryFraction.
        const std::optional<double> unified = unified_memory_fraction(context.model());
        const char* share_key = unified ? "spark.memory.fraction" : "spark.storage.memoryFraction";
        const double share = unified ? *unified : context.effective_number(share_key).value_or(0);
        if (share > 0.3) {
          f.recommendation += fmt::format(
              " The application caches data: lowering {} leaves more heap to the tasks' own objects at the price of "
              "caching less.",
              share_key);
          f.settings.push_back(
              context.lower_setting(share_key, fmt::format("{:g}", std::round((share - 0.1) * 100) / 100)));
        }
      }
    }
    f.evidence = {{"jvmGcTimeMs", gc_time, "ms"},
                  {"executorRunTimeMs", run_time, "ms"},
                  {"gcRatio", ratio, "ratio"},
                  {"stageDurationMs", duration, "ms"},
                  {"modeledGcWallClockMs", waste, "ms"}};
    if (peak_heap > 0) f.evidence.push_back({"peakJvmHeapBytes", peak_heap, "bytes"});
    if (heap) f.evidence.push_back({"heapBytes", heap->bytes, "bytes"});
    if (counters.logged) {
      f.evidence.push_back({"minorGcTimeMs", counters.minor_ms, "ms"});
      f.evidence.push_back({"majorGcTimeMs", counters.major_ms, "ms"});
    }
    f.thresholds = {"gc.warnRatio", "gc.minRunTimeMs", "stage.minDurationMs"};
    f.confidence = std::min(context.confidence_above(ratio, t.gc_warn_ratio),
                            context.confidence_above(run_time, t.gc_min_run_time_ms));
    f.validation_caveat =
        "The recoverable time assumes the fix brings GC down to the warning level; how far a bigger heap or fewer "
        "tasks per executor lowers it depends on how much of the heap the tasks keep alive.";
    // The fix shortens every task by its GC past the warning level, the longest ones too
    // (removed_work.h), not only the stage above its longest task as it ran.
    const double excess_gc = excess_gc_ms(context, *stage);
    f.evidence.push_back({"gcPastWarnLevelMs", excess_gc, "ms"});
    // An aggregate that holds its groups as objects is the cause: an aggregate that keeps no list
    // takes its building away, collections and all, not only the GC past the warning level.
    std::vector<RemovedWork> removed = {{stage, excess_gc}};
    if (holders.build_ms > excess_gc) {
      const auto others = other_object_aggregate_stages(context, *stage);
      if (!others) continue;  // an earlier stage's finding claims this one's building
      removed.front().task_ms = std::min(holders.build_ms, run_time);
      f.evidence.push_back({"objectAggregateBuildMs", holders.build_ms, "ms"});
      if (!others->empty()) {
        double others_ms = 0;
        for (const RemovedWork& w : *others) others_ms += w.task_ms;
        f.evidence.push_back({"otherStagesObjectAggregateBuildMs", others_ms, "ms"});
        removed.insert(removed.end(), others->begin(), others->end());
      }
      f.validation_caveat =
          "The recoverable time is the collecting aggregates' own build time (their collections included), in this "
          "stage and in the execution's other stages that run them: an "
          "aggregate that keeps no list still reads every row, so it is the high side of what the change saves "
          "there; what later stages do with the lists (sorting, exploding, shuffling them) is not counted.";
    }
    f.claim = removed_work_claim(context, removed, EstimateMethod::kModeled);
    // A few hundred ms of GC in a short stage (class loading, a first compile) is not a problem.
    double claimed_ms = 0;
    for (const WasteClaim::StageWaste& part : f.claim.stages) claimed_ms += part.waste_ms;
    if (!context.significant_ms(claimed_ms, t.stage_min_duration_ms)) continue;
    findings.push_back(std::move(f));
  }
}

// ---------------------------------------------------------------------------------------------
// spill

// Splitting each partition this many ways brings a task's spill down to the target size.
// How many ways to split a spilling task so its data fits: what it held in memory (its peak
// execution memory, what it got before spilling) against what it had to handle (that, plus what
// it spilled, as it was in memory), with room for as much again: sorts and aggregations take
// memory in whole pages (64 MiB at most) and keep a pointer array beside the rows, so a task
// whose rows just fit still spills (measured on real Spark: a 6-way split of tasks that held
// 64 MiB and spilled 240 MiB each still spilled). Without peaks in the log: its disk spill
// (`disk_bytes`, the stage's) against the partition target.
int64_t split_factor(const StageAttempt& stage, const Thresholds& t, double disk_bytes) {
  const model::Quantiles& peak = stage.quantile(model::QuantileMetric::kPeakExecutionMemoryBytes);
  const double tasks =
      static_cast<double>(std::max<int64_t>(1, stage.quantile(model::QuantileMetric::kDurationMs).count));
  if (peak.p50 <= 0) {
    const double disk_per_task = disk_bytes / tasks;
    if (t.partition_target_bytes <= 0) return 2;
    return std::max<int64_t>(2, static_cast<int64_t>(std::ceil(disk_per_task / t.partition_target_bytes)));
  }
  const double held = static_cast<double>(peak.p50);
  const double spilled_per_task = static_cast<double>(stage.metric(TaskMetric::kMemoryBytesSpilled)) / tasks;
  return std::max<int64_t>(2, static_cast<int64_t>(std::ceil((held + spilled_per_task) / held * 2)));
}

// The bytes a stage's spill wrote to disk: reported, or where the log's Spark reported only the
// memory side (before 2.3: SPARK-3577), modeled from it (spill.unreportedDiskShare).
struct SpilledToDisk {
  double bytes = 0;
  double median_task_bytes = 0;
  bool modeled = false;
};

SpilledToDisk spilled_to_disk(const DetectorContext& context, const StageAttempt& stage) {
  const double reported = static_cast<double>(stage.metric(TaskMetric::kDiskBytesSpilled));
  const double memory = static_cast<double>(stage.metric(TaskMetric::kMemoryBytesSpilled));
  const auto version = context.version();
  if (reported > 0 || memory <= 0 || !version || *version >= SparkVersion{2, 3}) {
    return {reported, static_cast<double>(stage.quantile(model::QuantileMetric::kDiskBytesSpilled).p50), false};
  }
  const double share = context.thresholds().spill_unreported_disk_share;
  return {memory * share, static_cast<double>(stage.quantile(model::QuantileMetric::kMemoryBytesSpilled).p50) * share,
          true};
}

void spill(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  for (const StageAttempt* stage : context.ran_stages()) {
    if (!context.ran_long_enough(*stage)) continue;
    const SpilledToDisk spilled = spilled_to_disk(context, *stage);
    const double disk = spilled.bytes;
    const double memory = static_cast<double>(stage->metric(TaskMetric::kMemoryBytesSpilled));
    if (disk <= 0 && memory <= 0) continue;
    const double duration = context.occupancy(*stage).duration_ms;
    const double spill_task_ms = t.spill_io_ms(disk);
    const StageWork work = context.work(*stage);
    if (!context.significant_ms(spill_task_ms / std::max(1.0, std::min(work.cores, work.tasks)),
                                t.stage_min_duration_ms) &&
        disk < t.spill_min_disk_bytes) {
      continue;
    }
    const int64_t partitions = stage->num_tasks > 0 ? stage->num_tasks : std::max<int64_t>(1, stage->tasks_started);
    const double per_task = disk / static_cast<double>(partitions);
    const int64_t factor = split_factor(*stage, t, disk);
    const double median_task_spill = spilled.median_task_bytes;

    Finding f = DetectorContext::stage_finding(*stage, finding_type::kSpill);
    if (spilled.modeled) {
      f.title = fmt::format("{}: tasks spilled {} from memory to disk", DetectorContext::stage_label(*stage),
                            format_bytes(as_int(memory)));
      f.explanation = fmt::format(
          "The stage's tasks ran out of execution memory and spilled {} of data as it was in memory, {} per task "
          "over its {} partitions. Spark before 2.3 does not report what its Tungsten sorters wrote to disk "
          "(SPARK-3577), so "
          "the disk side is modeled at {:g} of the memory side: about {} ({} per task). Writing that and reading it "
          "back, at an assumed {} of spilled bytes, takes about {} of task time; the stage ran {}.",
          format_bytes(as_int(memory)), format_bytes(as_int(memory / static_cast<double>(partitions))),
          format_count(partitions), t.spill_unreported_disk_share, format_bytes(as_int(disk)),
          format_bytes(as_int(per_task)), rate_words(t.spill_io_throughput_bps),
          format_duration_ms(as_int(spill_task_ms)), format_duration_ms(as_int(duration)));
    } else {
      f.title = fmt::format("{}: tasks spilled {} ({} in memory) to disk", DetectorContext::stage_label(*stage),
                            format_bytes(as_int(disk)), format_bytes(as_int(memory)));
      f.explanation = fmt::format(
          "The stage's tasks ran out of execution memory and spilled {} of data as it was in memory ({} on disk), {} "
          "per task over its {} partitions (the median task spilled {} to disk). Writing that and reading it back, at "
          "an assumed {} of spilled bytes, takes about {} of task time; the stage ran {}.",
          format_bytes(as_int(memory)), format_bytes(as_int(disk)), format_bytes(as_int(per_task)),
          format_count(partitions), format_bytes(as_int(median_task_spill)), rate_words(t.spill_io_throughput_bps),
          format_duration_ms(as_int(spill_task_ms)), format_duration_ms(as_int(duration)));
    }
    const PartitionAdvice split = partition_count_advice(context, *stage, partitions * factor);
    f.recommendation = fmt::format(
        "Split the stage's partitions {} ways (about {}), so each task's data fits in the memory it held before "
        "spilling. {}{}Or give each task more memory: {}.",
        factor, partitions * factor, split.text, split.text.empty() ? "" : " ", more_memory_words(context));
    f.settings = split.settings;
    more_memory_per_task(context, f);
    f.evidence = {{"diskBytesSpilled", disk, "bytes"},
                  {"memoryBytesSpilled", memory, "bytes"},
                  {"partitions", static_cast<double>(partitions), "count"},
                  {"diskSpillPerTaskBytes", per_task, "bytes"},
                  {"medianTaskDiskSpillBytes", median_task_spill, "bytes"},
                  {"modeledSpillIoMs", spill_task_ms, "ms"},
                  {"splitFactor", static_cast<double>(factor), "count"},
                  {"stageDurationMs", duration, "ms"}};
    if (spilled.modeled) f.evidence.push_back({"unreportedDiskShare", t.spill_unreported_disk_share, "fraction"});
    f.thresholds = {"spill.minDiskBytes", "stage.minDurationMs", "significance.appShare"};
    if (spilled.modeled) f.thresholds.push_back("spill.unreportedDiskShare");
    f.confidence = context.confidence_above(std::max(disk, 1.0), t.spill_min_disk_bytes);
    f.validation_caveat = fmt::format(
        "The spill time is modeled at an assumed {} of disk throughput (impact.spillIoThroughputBytesPerSec), not "
        "measured; sorting and serializing the spilled data costs more besides.",
        rate_words(t.spill_io_throughput_bps));
    // Fixed, the tasks no longer spill: their spill time goes, the rest is spread over the split.
    const double work_share = work.data_work_ms > 0 ? std::max(0.0, 1.0 - spill_task_ms / work.data_work_ms) : 1.0;
    const double waste = context.claim_reshaped_stage(f, *stage, static_cast<double>(partitions * factor), work_share,
                                                      EstimateMethod::kModeled);
    if (waste < t.significance_min_ms) continue;
    findings.push_back(std::move(f));
  }
}

// ---------------------------------------------------------------------------------------------
// memoryUtilization

// What every memoryUtilization variant reads.
struct MemoryPicture {
  std::vector<const model::Executor*> executors;  // task executors
  HeapSize heap;                                  // per executor
  AppWindow window;
  double app_duration_ms = 0;
  double peak_heap_bytes = 0;  // max JVMHeapMemory over the task executors
  std::string peak_executor_id;
  int64_t executors_with_peaks = 0;
};

Finding memory_finding(std::string rule) {
  Finding f;
  f.type = "memoryUtilization";
  f.rule = std::move(rule);
  f.scope = Scope::kApp;
  f.id = DetectorContext::finding_id(f.type, f.rule, "app");
  return f;
}

bool any_out_of_memory_failure(const model::AppModel& model) {
  for (const auto& stage : model.stages) {
    for (const auto& failure : stage.failure_reasons) {
      if (failure.reason.find("OutOfMemoryError") != std::string::npos ||
          failure.reason.find("exceeding memory limits") != std::string::npos) {
        return true;
      }
    }
  }
  return false;
}

void data_unavailable(const DetectorContext& context, const MemoryPicture& picture, std::vector<Finding>& findings) {
  // Before Spark 3.0 no executor logs its heap use: saying so on every such log, with "upgrade"
  // as the remedy, is about the log, not the application (four corpus logs of Spark 1.5-2.3).
  const auto version = context.spark_version();
  const bool before_3 = version && version->first < 3;
  if (before_3) return;
  Finding f = memory_finding("dataUnavailable");
  f.title = "No executor reported its JVM heap use: heap sizing cannot be judged";
  f.explanation = fmt::format(
      "None of the {} executors that ran tasks logged a JVMHeapMemory peak (Task Executor Metrics or "
      "SparkListenerStageExecutorMetrics), so how much of the {} heap the application used is unknown.",
      format_count(static_cast<int64_t>(picture.executors.size())), format_bytes(as_int(picture.heap.bytes)));
  f.recommendation =
      "Log per-stage executor memory peaks (spark.eventLog.logStageExecutorMetrics) and poll executor metrics during "
      "tasks (spark.executor.metrics.pollingInterval), so heap use can be compared with the heap size.";
  f.settings = {context.setting("spark.eventLog.logStageExecutorMetrics", "true"),
                context.setting("spark.executor.metrics.pollingInterval", "5s")};
  f.evidence = {{"taskExecutors", static_cast<double>(picture.executors.size()), "count"},
                {"heapBytes", picture.heap.bytes, "bytes"}};
  f.thresholds = {"memoryUtilization.minAppDurationMs"};
  f.confidence = Confidence::kHigh;  // the log says so
  f.band = ImpactBand::kInfo;
  f.claim.kind = WasteClaim::Kind::kInformational;
  findings.push_back(std::move(f));
}

// The heap setting against the largest heap any executor used. Returns true when the heap was
// found over-provisioned (wasteModel then stays silent: it would count the same memory).
bool memory_band(const DetectorContext& context, const MemoryPicture& picture, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const double heap = picture.heap.bytes;
  const double peak = picture.peak_heap_bytes;
  const double ratio = peak / heap;

  const std::string peak_words = fmt::format(
      "The largest JVM heap use any executor reported was {} (executor {}), {} of the {} heap ({}); {} of {} "
      "executors reported heap peaks.",
      format_bytes(as_int(peak)), picture.peak_executor_id, format_percent(ratio), format_bytes(as_int(heap)),
      picture.heap.source, format_count(picture.executors_with_peaks),
      format_count(static_cast<int64_t>(picture.executors.size())));
  if (ratio <= t.memory_over_provisioned_ratio) {
    // Beside an off-heap pool at least as large (Photon's, or spark.memory.offHeap.* set by hand)
    // the heap holds little of the data by design: what it left unused says nothing about what
    // the executors needed, and shrinking it frees nothing the platform would give to more work.
    if (spark_off_heap_bytes(context) >= heap) return true;
    Finding f = memory_finding("heapOverProvisioned");
    // Every executor held at least (heap - the largest peak) it never used, the whole run long.
    const double unused_mb = (heap - peak) / kMiB;
    const double waste_mb_seconds = unused_mb * picture.app_duration_ms / 1000.0;
    const std::string suggested = heap_setting(peak * kHeapHeadroom, heap);
    f.title =
        fmt::format("Executors used at most {} of their {} heap", format_percent(ratio), format_bytes(as_int(heap)));
    f.explanation = fmt::format(
        "{} Each executor held at least {} it never used for the application's {}: {:.0f} MB-seconds per executor.",
        peak_words, format_bytes(as_int(heap - peak)), format_duration_ms(as_int(picture.app_duration_ms)),
        waste_mb_seconds);
    if (context.databricks()) {
      // The worker's memory is paid for whatever the heap is set to: a smaller node type frees it.
      f.recommendation = databricks_heap_words("less", peak * kHeapHeadroom) +
                         ", or give the unused memory work (more cores per worker, data the application reads more "
                         "than once cached).";
    } else if (parse_size_bytes(suggested).value_or(0) < heap) {
      f.recommendation = fmt::format(
          "Size the heap to the observed peak with 30% headroom: spark.executor.memory={} (from {}), and run more "
          "executors or cores in the memory freed.",
          suggested, format_bytes(as_int(heap)));
      f.settings = {context.setting("spark.executor.memory", suggested)};
    } else {
      f.recommendation =
          "The heap is already as small as Spark sensibly runs with; give the unused memory work instead: more "
          "cores per executor (spark.executor.cores), or cache data the application reads more than once.";
    }
    f.evidence = {{"peakJvmHeapBytes", peak, "bytes"},
                  {"heapBytes", heap, "bytes"},
                  {"peakToHeapRatio", ratio, "ratio"},
                  {"appDurationMs", picture.app_duration_ms, "ms"},
                  {"executorsWithPeaks", static_cast<double>(picture.executors_with_peaks), "count"}};
    f.thresholds = {"memoryUtilization.overProvisionedRatio", "memoryUtilization.minAppDurationMs"};
    f.confidence = context.confidence_below(ratio, t.memory_over_provisioned_ratio);
    f.validation_caveat =
        "JVMHeapMemory is sampled (at heartbeats or the polling interval), so a short spike between samples is "
        "missed; the figure is per executor, not summed over the cluster.";
    f.claim.kind = WasteClaim::Kind::kResourceOnly;
    f.claim.method = EstimateMethod::kMeasured;
    f.claim.raw = RawWaste{waste_mb_seconds, WasteUnit::kMbSeconds};
    findings.push_back(std::move(f));
    return true;
  }
  if (ratio >= t.memory_near_capacity_ratio) {
    Finding f = memory_finding("heapNearCapacity");
    const std::string suggested = gib_setting(peak * kHeapHeadroom);
    const bool oom = any_out_of_memory_failure(context.model());
    f.title = fmt::format("Executors used {} of their {} heap: close to running out", format_percent(ratio),
                          format_bytes(as_int(heap)));
    f.explanation =
        fmt::format("{} A heap this full leaves the collector little room and risks OutOfMemoryError{}.", peak_words,
                    oom ? "; tasks of this application did fail with out-of-memory errors" : "");
    if (context.databricks()) {
      f.recommendation =
          databricks_heap_words("more", peak * kHeapHeadroom) + ", or keep it and use smaller partitions.";
    } else {
      f.recommendation = fmt::format(
          "Give the executors more heap: spark.executor.memory={} (the peak with 30% headroom), or keep the heap and "
          "run fewer tasks per executor (spark.executor.cores) or smaller partitions.",
          suggested);
      f.settings = {context.setting("spark.executor.memory", suggested)};
      if (const auto cores = cores_per_executor(context); cores && *cores >= 2) {
        f.settings.push_back(context.setting("spark.executor.cores", std::to_string(*cores - 1)));
      }
    }
    f.evidence = {{"peakJvmHeapBytes", peak, "bytes"},
                  {"heapBytes", heap, "bytes"},
                  {"peakToHeapRatio", ratio, "ratio"},
                  {"executorsWithPeaks", static_cast<double>(picture.executors_with_peaks), "count"}};
    f.thresholds = {"memoryUtilization.nearCapacityRatio", "memoryUtilization.minAppDurationMs"};
    f.confidence = oom ? Confidence::kHigh : Confidence::kMedium;
    f.band = oom ? ImpactBand::kMedium : ImpactBand::kLow;
    f.validation_caveat =
        "A JVM lets its heap fill with garbage before collecting, so a full heap alone is not proof of pressure: "
        "check the gc findings and out-of-memory failures.";
    f.claim.kind = WasteClaim::Kind::kInformational;
    findings.push_back(std::move(f));
  }
  return false;
}

// Memory held but unused, executor by executor: (its heap - its own peak) x its lifetime.
void waste_model(const DetectorContext& context, const MemoryPicture& picture, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  double wasted_mb_seconds = 0;
  double allocated_mb_seconds = 0;
  for (const model::Executor* e : picture.executors) {
    const double peak = static_cast<double>(peak_heap_of(e->peak_metrics));
    const auto heap = heap_of(context, *e);
    if (peak <= 0 || !heap) continue;  // unmeasured executors are left out, not guessed
    const double seconds = lifetime_ms(*e, picture.window) / 1000.0;
    allocated_mb_seconds += heap->bytes / kMiB * seconds;
    wasted_mb_seconds += std::max(0.0, heap->bytes - peak) / kMiB * seconds;
  }
  if (allocated_mb_seconds <= 0) return;
  const double used_share = 1.0 - wasted_mb_seconds / allocated_mb_seconds;
  if (used_share > t.memory_waste_model_max_used_share) return;
  Finding f = memory_finding("wasteModel");
  f.title = fmt::format("Executors used {} of the heap they held over their lifetimes", format_percent(used_share));
  f.explanation = fmt::format(
      "Weighting each executor's own heap peak by how long it lived, the executors used {} of the {:.0f} MB-seconds "
      "of heap they held; {:.0f} MB-seconds were never used. The hungriest executor ({}) peaked at {} of the {} "
      "heap, so the heap cannot simply be cut for all of them: memory use differs between executors.",
      format_percent(used_share), allocated_mb_seconds, wasted_mb_seconds, picture.peak_executor_id,
      format_bytes(as_int(picture.peak_heap_bytes)), format_bytes(as_int(picture.heap.bytes)));
  f.recommendation =
      "Executors that use little of their heap are mostly idle or get little of the data. Release idle executors "
      "with dynamic allocation, and look at the stages whose data lands on few executors (skew findings).";
  f.settings = {context.setting("spark.dynamicAllocation.enabled", "true")};
  f.evidence = {{"wastedMbSeconds", wasted_mb_seconds, "mbSeconds"},
                {"allocatedMbSeconds", allocated_mb_seconds, "mbSeconds"},
                {"usedShare", used_share, "fraction"},
                {"peakJvmHeapBytes", picture.peak_heap_bytes, "bytes"},
                {"executorsWithPeaks", static_cast<double>(picture.executors_with_peaks), "count"}};
  f.thresholds = {"memoryUtilization.wasteModelMaxUsedShare", "memoryUtilization.minAppDurationMs"};
  f.confidence = context.confidence_below(used_share, t.memory_waste_model_max_used_share);
  f.validation_caveat = "Executors that reported no heap peak are left out of both sums.";
  f.claim.kind = WasteClaim::Kind::kResourceOnly;
  f.claim.method = EstimateMethod::kMeasured;
  f.claim.raw = RawWaste{wasted_mb_seconds, WasteUnit::kMbSeconds};
  findings.push_back(std::move(f));
}

void memory_utilization(const DetectorContext& context, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  MemoryPicture picture;
  picture.app_duration_ms = context.app_duration_ms();
  if (picture.app_duration_ms <= 0 || picture.app_duration_ms < t.memory_min_app_duration_ms) return;
  const auto window = app_window(context);
  if (!window) return;
  picture.window = *window;
  picture.executors = task_executors(context.model());
  if (picture.executors.empty()) return;
  const auto heap = app_heap(context, picture.executors);
  if (!heap || heap->bytes <= 0) return;
  picture.heap = *heap;
  for (const model::Executor* e : picture.executors) {
    const auto peak = static_cast<double>(peak_heap_of(e->peak_metrics));
    if (peak <= 0) continue;
    ++picture.executors_with_peaks;
    if (peak > picture.peak_heap_bytes) {
      picture.peak_heap_bytes = peak;
      picture.peak_executor_id = e->id;
    }
  }

  if (picture.executors_with_peaks == 0) {
    data_unavailable(context, picture, findings);
    return;
  }
  if (!memory_band(context, picture, findings)) waste_model(context, picture, findings);
}

}  // namespace

void detect_memory(const DetectorContext& context, std::vector<Finding>& findings) {
  gc(context, findings);
  spill(context, findings);
  memory_utilization(context, findings);
}

}  // namespace sf::analysis

#include "analysis/settings/spark_settings.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

#include "common/text.h"

namespace sf::analysis {

namespace {

using Type = SettingType;
constexpr SparkVersion version_of(int major, int minor) { return {major, minor}; }

// Defaults by version, newest last.
constexpr SettingDefault kFalse[] = {{version_of(1, 0), "false"}};
constexpr SettingDefault kTrue[] = {{version_of(1, 0), "true"}};
constexpr SettingDefault kNone[] = {{version_of(1, 0), ""}};
constexpr SettingDefault kAdaptive[] = {{version_of(1, 6), "false"}, {version_of(3, 2), "true"}};
constexpr SettingDefault kAqeTrue[] = {{version_of(3, 0), "true"}};
constexpr SettingDefault kSkewThreshold[] = {{version_of(3, 0), "256MB"}};
constexpr SettingDefault kSkewFactor[] = {{version_of(3, 0), "5"}};
constexpr SettingDefault kAdvisory[] = {{version_of(3, 0), "64MB"}};
constexpr SettingDefault kMinPartitionSize[] = {{version_of(3, 2), "1MB"}};
constexpr SettingDefault kShufflePartitions[] = {{version_of(1, 0), "200"}};
constexpr SettingDefault kStateStoreProvider[] = {
    {version_of(2, 0), "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"}};
constexpr SettingDefault kBroadcast[] = {{version_of(1, 1), "10MB"}};
constexpr SettingDefault kMaxPartitionBytes[] = {{version_of(2, 0), "128MB"}};
constexpr SettingDefault kOpenCost[] = {{version_of(2, 0), "4MB"}};
constexpr SettingDefault kExecutorMemory[] = {{version_of(1, 0), "1g"}};
constexpr SettingDefault kMemoryFraction[] = {{version_of(1, 6), "0.75"}, {version_of(2, 0), "0.6"}};
constexpr SettingDefault kStorageFraction[] = {{version_of(1, 6), "0.5"}};
constexpr SettingDefault kOverheadFactor[] = {{version_of(3, 3), "0.1"}};
constexpr SettingDefault kSpeculationMultiplier[] = {{version_of(1, 0), "1.5"}, {version_of(4, 0), "3"}};
constexpr SettingDefault kSpeculationQuantile[] = {{version_of(1, 0), "0.75"}, {version_of(4, 0), "0.9"}};
constexpr SettingDefault kIdleTimeout[] = {{version_of(1, 2), "60s"}};
constexpr SettingDefault kShuffleTracking[] = {{version_of(3, 0), "false"}, {version_of(3, 4), "true"}};
constexpr SettingDefault kShuffleTrackingTimeout[] = {{version_of(3, 0), ""}};  // infinity
constexpr SettingDefault kBacklogTimeout[] = {{version_of(1, 2), "1s"}};
constexpr SettingDefault kMinExecutors[] = {{version_of(1, 2), "0"}};
constexpr SettingDefault kSerializer[] = {{version_of(1, 0), "org.apache.spark.serializer.JavaSerializer"}};
constexpr SettingDefault kCodec[] = {{version_of(1, 0), "snappy"}, {version_of(1, 4), "lz4"}};
constexpr SettingDefault kLocalityWait[] = {{version_of(1, 0), "3s"}};
constexpr SettingDefault kCrossJoin[] = {{version_of(2, 1), "false"}, {version_of(3, 0), "true"}};
constexpr SettingDefault kBloomFilter[] = {{version_of(3, 3), "false"}, {version_of(3, 4), "true"}};
constexpr SettingDefault kPythonArrow[] = {{version_of(3, 5), "false"}, {version_of(4, 1), "true"}};
constexpr SettingDefault kCachedPartitioning[] = {
    {version_of(3, 2), "false"}, {version_of(3, 5), "true"}, {version_of(4, 0), "false"}};
constexpr SettingDefault kRolling[] = {{version_of(3, 0), "false"}, {version_of(4, 0), "true"}};
constexpr SettingDefault kTaskCpus[] = {{version_of(1, 0), "1"}};
constexpr SettingDefault kPollingInterval[] = {{version_of(3, 0), "0"}};
constexpr SettingDefault kOne[] = {{version_of(1, 0), "1"}};
constexpr SettingDefault kDriverMemory[] = {{version_of(1, 0), "1g"}};
constexpr SettingDefault kMinOverhead[] = {{version_of(4, 0), "384m"}};
constexpr SettingDefault kZeroBytes[] = {{version_of(1, 6), "0"}};
constexpr SettingDefault kPodBatch[] = {{version_of(2, 3), "5"}, {version_of(4, 0), "10"}, {version_of(4, 2), "20"}};
constexpr SettingDefault kPodBatchDelay[] = {{version_of(2, 3), "1s"}};
constexpr SettingDefault kLegacyStorageFraction[] = {{version_of(1, 0), "0.6"}};
constexpr SettingDefault kPullPolicy[] = {{version_of(2, 3), "IfNotPresent"}};
constexpr SettingDefault kYarnQueue[] = {{version_of(1, 0), "default"}};
constexpr SettingDefault kLegacySafetyFraction[] = {{version_of(1, 0), "0.9"}};

constexpr SparkSetting kSettings[] = {
    {"spark.decommission.enabled", Type::kBoolean, version_of(3, 1), kFalse, "",
     "executors hand over their blocks before they go"},
    {"spark.default.parallelism", Type::kInteger, version_of(1, 0), kNone, "",
     "partitions of RDD shuffles and parallelize (default: the cores of the cluster)"},
    {"spark.driver.cores", Type::kInteger, version_of(1, 3), kOne, "", "cores of the driver (cluster deploy mode)"},
    {"spark.driver.memory", Type::kMemoryMiB, version_of(1, 0), kDriverMemory, "", "driver heap"},
    {"spark.driver.memoryOverhead", Type::kMemoryMiB, version_of(2, 3), kNone, "",
     "non-heap memory of the driver (default: spark.driver.memoryOverheadFactor of the heap, at least 384 MiB)"},
    {"spark.driver.memoryOverheadFactor", Type::kDouble, version_of(3, 3), kOverheadFactor, "",
     "non-heap memory of the driver, as a share of the heap (at least 384 MiB)"},
    {"spark.driver.minMemoryOverhead", Type::kMemoryMiB, version_of(4, 0), kMinOverhead, "",
     "the least non-heap memory of the driver when it is not set"},
    {"spark.dynamicAllocation.enabled", Type::kBoolean, version_of(1, 2), kFalse, "",
     "executors added and removed with the load"},
    {"spark.dynamicAllocation.executorAllocationRatio", Type::kDouble, version_of(2, 4), kOne, "",
     "the share of the tasks' need asked for (1: a task slot for every pending or running task)"},
    {"spark.dynamicAllocation.executorIdleTimeout", Type::kDurationSeconds, version_of(1, 2), kIdleTimeout, "",
     "an executor idle this long is removed"},
    {"spark.dynamicAllocation.initialExecutors", Type::kInteger, version_of(1, 3), kNone,
     "spark.dynamicAllocation.minExecutors", "executors to start with"},
    {"spark.dynamicAllocation.maxExecutors", Type::kInteger, version_of(1, 2), kNone, "",
     "the most executors (default: no bound)"},
    {"spark.dynamicAllocation.minExecutors", Type::kInteger, version_of(1, 2), kMinExecutors, "",
     "executors always kept"},
    {"spark.dynamicAllocation.schedulerBacklogTimeout", Type::kDurationSeconds, version_of(1, 2), kBacklogTimeout, "",
     "tasks waiting this long ask for more executors"},
    {"spark.dynamicAllocation.shuffleTracking.enabled", Type::kBoolean, version_of(3, 0), kShuffleTracking, "",
     "dynamic allocation without an external shuffle service: executors holding shuffle data are kept"},
    {"spark.dynamicAllocation.shuffleTracking.timeout", Type::kDuration, version_of(3, 0), kShuffleTrackingTimeout, "",
     "how long an executor holding shuffle data is kept (default: as long as the data is needed)"},
    {"spark.dynamicAllocation.sustainedSchedulerBacklogTimeout", Type::kDurationSeconds, version_of(1, 2), kNone,
     "spark.dynamicAllocation.schedulerBacklogTimeout",
     "while tasks keep waiting, more executors are asked for every this long, twice as many each round"},
    {"spark.eventLog.logStageExecutorMetrics", Type::kBoolean, version_of(3, 0), kFalse, "",
     "per-stage executor memory peaks in the event log"},
    {"spark.eventLog.rolling.enabled", Type::kBoolean, version_of(3, 0), kRolling, "",
     "the event log rolled over several files"},
    {"spark.executor.cores", Type::kInteger, version_of(1, 0), kNone, "",
     "task slots per executor (1 on YARN and Kubernetes, a worker's cores in standalone)"},
    {"spark.executor.extraJavaOptions", Type::kText, version_of(1, 0), kNone, "", "JVM options of the executors"},
    {"spark.executor.instances", Type::kInteger, version_of(1, 0), kNone, "",
     "executors to run without dynamic allocation"},
    {"spark.executor.memory", Type::kMemoryMiB, version_of(1, 0), kExecutorMemory, "", "executor heap"},
    {"spark.executor.memoryOverhead", Type::kMemoryMiB, version_of(2, 3), kNone, "",
     "non-heap memory per executor (default: spark.executor.memoryOverheadFactor of the heap, at least 384 MiB)"},
    {"spark.executor.memoryOverheadFactor", Type::kDouble, version_of(3, 3), kOverheadFactor, "",
     "non-heap memory per executor, as a share of the heap (at least 384 MiB)"},
    {"spark.executor.metrics.pollingInterval", Type::kDuration, version_of(3, 0), kPollingInterval, "",
     "how often executor memory is sampled (0: at each heartbeat)"},
    {"spark.executor.minMemoryOverhead", Type::kMemoryMiB, version_of(4, 0), kMinOverhead, "",
     "the least non-heap memory per executor when it is not set"},
    {"spark.executor.pyspark.memory", Type::kMemoryMiB, version_of(2, 4), kNone, "",
     "memory of each executor's Python workers, on top of the JVM's (default: not bounded, not asked for)"},
    {"spark.io.compression.codec", Type::kText, version_of(1, 0), kCodec, "",
     "codec of shuffle, spill and broadcast data"},
    {"spark.kubernetes.allocation.batch.delay", Type::kDuration, version_of(2, 3), kPodBatchDelay, "",
     "time between rounds of executor pod allocation"},
    {"spark.kubernetes.allocation.batch.size", Type::kInteger, version_of(2, 3), kPodBatch, "",
     "executor pods asked for in each round of allocation (a round a second)"},
    {"spark.kubernetes.container.image.pullPolicy", Type::kText, version_of(2, 3), kPullPolicy, "",
     "when a pod pulls its container image (Always: every pod pulls it again)"},
    {"spark.kubernetes.executor.podTemplateFile", Type::kText, version_of(3, 0), kNone, "",
     "a pod template the executor pods are made from (node selectors, tolerations, affinity)"},
    {"spark.kubernetes.memoryOverheadFactor", Type::kDouble, version_of(2, 3), kNone, "",
     "Kubernetes' share of the heap for non-heap memory (where spark.executor.memoryOverheadFactor is unset)"},
    {"spark.locality.wait", Type::kDuration, version_of(1, 0), kLocalityWait, "",
     "how long a task waits for a slot near its data"},
    {"spark.memory.fraction", Type::kDouble, version_of(1, 6), kMemoryFraction, "",
     "the heap share (after 300 MiB) for execution and storage"},
    {"spark.memory.offHeap.enabled", Type::kBoolean, version_of(1, 6), kFalse, "",
     "execution and storage may use off-heap memory"},
    {"spark.memory.offHeap.size", Type::kBytes, version_of(1, 6), kZeroBytes, "",
     "off-heap memory per executor, on top of the heap"},
    {"spark.memory.storageFraction", Type::kDouble, version_of(1, 6), kStorageFraction, "",
     "the part of that share that cached blocks keep from execution"},
    {"spark.scheduler.minRegisteredResourcesRatio", Type::kDouble, version_of(1, 1), kNone, "",
     "the share of executors to wait for before the first task (0.8 on YARN and Kubernetes)"},
    {"spark.serializer", Type::kText, version_of(1, 0), kSerializer, "",
     "serializer of RDD shuffles and serialized caches"},
    {"spark.shuffle.compress", Type::kBoolean, version_of(1, 0), kTrue, "", "shuffle output compressed"},
    {"spark.shuffle.service.enabled", Type::kBoolean, version_of(1, 2), kFalse, "",
     "the external shuffle service serves shuffle files"},
    {"spark.speculation", Type::kBoolean, version_of(1, 0), kFalse, "", "slow tasks are run again on another executor"},
    {"spark.speculation.multiplier", Type::kDouble, version_of(1, 0), kSpeculationMultiplier, "",
     "a task this many times slower than the median is speculated"},
    {"spark.speculation.quantile", Type::kDouble, version_of(1, 0), kSpeculationQuantile, "",
     "the share of a stage's tasks that must finish before any is speculated"},
    {"spark.sql.adaptive.advisoryPartitionSizeInBytes", Type::kBytes, version_of(3, 0), kAdvisory,
     "spark.sql.adaptive.shuffle.targetPostShuffleInputSize", "the partition size adaptive execution aims at"},
    {"spark.sql.adaptive.autoBroadcastJoinThreshold", Type::kBytes, version_of(3, 2), kNone,
     "spark.sql.autoBroadcastJoinThreshold", "the broadcast threshold adaptive execution applies to measured sizes"},
    {"spark.sql.adaptive.coalescePartitions.enabled", Type::kBoolean, version_of(3, 0), kAqeTrue, "",
     "adaptive execution merges small shuffle partitions"},
    {"spark.sql.adaptive.coalescePartitions.minPartitionSize", Type::kBytes, version_of(3, 2), kMinPartitionSize, "",
     "the smallest partition coalescing leaves"},
    {"spark.sql.adaptive.enabled", Type::kBoolean, version_of(1, 6), kAdaptive, "",
     "adaptive query execution (re-planning at each shuffle; full from 3.0)"},
    {"spark.sql.adaptive.skewJoin.enabled", Type::kBoolean, version_of(3, 0), kAqeTrue, "",
     "adaptive execution splits skewed partitions of sort-merge joins"},
    {"spark.sql.adaptive.skewJoin.skewedPartitionFactor", Type::kDouble, version_of(3, 0), kSkewFactor, "",
     "a partition this many times the median (and past the threshold) is skewed"},
    {"spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", Type::kBytes, version_of(3, 0), kSkewThreshold, "",
     "a partition must also be this large to be split"},
    {"spark.sql.autoBroadcastJoinThreshold", Type::kBytes, version_of(1, 1), kBroadcast, "",
     "a join side estimated under this size is broadcast (-1: never)"},
    {"spark.sql.crossJoin.enabled", Type::kBoolean, version_of(2, 1), kCrossJoin, "",
     "joins without a condition allowed"},
    {"spark.sql.execution.pythonUDF.arrow.enabled", Type::kBoolean, version_of(3, 5), kPythonArrow, "",
     "Python UDFs exchange rows with Python in Arrow batches"},
    {"spark.sql.files.maxPartitionBytes", Type::kBytes, version_of(2, 0), kMaxPartitionBytes, "",
     "the most file bytes one scan task reads"},
    {"spark.sql.files.openCostInBytes", Type::kBytes, version_of(2, 0), kOpenCost, "",
     "what opening a file costs, in bytes, when files are packed into scan tasks"},
    {"spark.sql.hive.metastorePartitionPruning", Type::kBoolean, version_of(1, 5), kTrue, "",
     "partition filters pushed to the Hive metastore"},
    {"spark.sql.optimizer.canChangeCachedPlanOutputPartitioning", Type::kBoolean, version_of(3, 2), kCachedPartitioning,
     "", "adaptive execution may re-plan the partitioning of a cached plan"},
    {"spark.sql.optimizer.runtime.bloomFilter.enabled", Type::kBoolean, version_of(3, 3), kBloomFilter, "",
     "a selective join side filters the other through a runtime bloom filter"},
    {"spark.sql.shuffle.partitions", Type::kInteger, version_of(1, 0), kShufflePartitions, "",
     "partitions of SQL shuffles (before adaptive execution coalesces them)"},
    {"spark.sql.streaming.stateStore.providerClass", Type::kText, version_of(2, 0), kStateStoreProvider, "",
     "where a streaming query keeps its state: the executors' heap (HDFS-backed), or RocksDB off it (Spark 3.2+)"},
    {"spark.storage.decommission.enabled", Type::kBoolean, version_of(3, 1), kFalse, "",
     "a decommissioned executor moves its blocks"},
    {"spark.storage.decommission.rddBlocks.enabled", Type::kBoolean, version_of(3, 1), kTrue, "",
     "a decommissioned executor moves its cached blocks"},
    {"spark.storage.decommission.shuffleBlocks.enabled", Type::kBoolean, version_of(3, 1), kTrue, "",
     "a decommissioned executor moves its shuffle files"},
    {"spark.storage.memoryFraction", Type::kDouble, version_of(1, 0), kLegacyStorageFraction, "",
     "the heap share for cached blocks before unified memory (Spark 1.6; after it only in legacy mode)"},
    {"spark.storage.safetyFraction", Type::kDouble, version_of(1, 0), kLegacySafetyFraction, "",
     "the part of spark.storage.memoryFraction the block manager counts as its memory, before unified memory"},
    {"spark.task.cpus", Type::kInteger, version_of(1, 0), kTaskCpus, "", "cores each task takes"},
    {"spark.yarn.exclude.nodes", Type::kText, version_of(3, 0), kNone, "", "YARN nodes executors are never placed on"},
    {"spark.yarn.queue", Type::kText, version_of(1, 0), kYarnQueue, "",
     "the YARN queue the application's containers come from"},
};

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// A number and the unit after it.
std::optional<std::pair<double, std::string>> number_and_unit(std::string_view text) {
  text = text::trim(text);
  if (text.empty()) return std::nullopt;
  double number = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || !std::isfinite(number)) return std::nullopt;
  return std::pair{number,
                   lower(text::trim(std::string_view(end, static_cast<size_t>(text.data() + text.size() - end))))};
}

// `unitless_ms`: what a bare number means, as the setting's timeConf unit says.
std::optional<double> duration_ms(std::string_view text, double unitless_ms) {
  auto parsed = number_and_unit(text);
  if (!parsed) return std::nullopt;
  const auto& [number, unit] = *parsed;
  if (unit.empty()) return number * unitless_ms;
  if (unit == "ms") return number;
  if (unit == "s") return number * 1e3;
  if (unit == "m" || unit == "min") return number * 6e4;
  if (unit == "h") return number * 3.6e6;
  if (unit == "d") return number * 8.64e7;
  if (unit == "us") return number / 1e3;
  return std::nullopt;
}

std::optional<double> number_of(const SparkSetting& setting, std::string_view text) {
  switch (setting.type) {
    case Type::kInteger:
    case Type::kDouble: {
      auto parsed = number_and_unit(text);
      if (!parsed || !parsed->second.empty()) return std::nullopt;
      return parsed->first;
    }
    case Type::kBytes: {
      auto bytes = parse_size_bytes(text);
      if (!bytes && text::trim(text) == "-1") return -1.0;  // a threshold switched off
      return bytes ? std::optional<double>(static_cast<double>(*bytes)) : std::nullopt;
    }
    case Type::kMemoryMiB: {
      const std::string_view t = text::trim(text);
      const bool unitless =
          !t.empty() && std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c); });
      auto bytes = parse_size_bytes(unitless ? std::string(t) + "m" : std::string(t));
      return bytes ? std::optional<double>(static_cast<double>(*bytes)) : std::nullopt;
    }
    case Type::kDuration: return duration_ms(text, 1);
    case Type::kDurationSeconds: return duration_ms(text, 1e3);
    case Type::kBoolean:
    case Type::kText: return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> parse_size_bytes(std::string_view text) {
  auto parsed = number_and_unit(text);
  if (!parsed || parsed->first < 0) return std::nullopt;
  const auto& [number, unit] = *parsed;
  double multiplier = 1;
  if (unit.empty() || unit == "b") {
    multiplier = 1;
  } else if (unit == "k" || unit == "kb") {
    multiplier = 1024.0;
  } else if (unit == "m" || unit == "mb") {
    multiplier = 1024.0 * 1024;
  } else if (unit == "g" || unit == "gb") {
    multiplier = 1024.0 * 1024 * 1024;
  } else if (unit == "t" || unit == "tb") {
    multiplier = 1024.0 * 1024 * 1024 * 1024;
  } else {
    return std::nullopt;
  }
  return static_cast<int64_t>(number * multiplier);
}

std::span<const SparkSetting> spark_settings() { return kSettings; }

const SparkSetting* find_spark_setting(std::string_view key) {
  auto it = std::lower_bound(std::begin(kSettings), std::end(kSettings), key,
                             [](const SparkSetting& s, std::string_view k) { return s.key < k; });
  return it != std::end(kSettings) && it->key == key ? &*it : nullptr;
}

std::optional<SparkVersion> parse_spark_version(std::string_view text) {
  SparkVersion version;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), version.major);
  if (ec != std::errc() || end == text.data() + text.size() || *end != '.') return std::nullopt;
  auto [end2, ec2] = std::from_chars(end + 1, text.data() + text.size(), version.minor);
  if (ec2 != std::errc() || version.major <= 0) return std::nullopt;
  return version;
}

bool exists_in(const SparkSetting& setting, std::optional<SparkVersion> version) {
  return !version || *version >= setting.since;
}

std::optional<std::string_view> default_for(const SparkSetting& setting, std::optional<SparkVersion> version) {
  const SettingDefault* found = nullptr;
  for (const SettingDefault& d : setting.defaults) {
    if (!version || d.since <= *version) found = &d;
  }
  if (found == nullptr || found->value.empty()) return std::nullopt;
  return found->value;
}

std::optional<std::string> effective_setting_value(const model::AppModel& model, std::string_view key) {
  if (const std::string* set = model.environment.spark_property(key)) return *set;
  const SparkSetting* known = find_spark_setting(key);
  if (known == nullptr) return std::nullopt;
  const std::optional<SparkVersion> version = parse_spark_version(model.app.spark_version);
  const SparkSetting* fallback = known->falls_back_to.empty() ? nullptr : find_spark_setting(known->falls_back_to);
  if (!known->falls_back_to.empty()) {
    if (const std::string* set = model.environment.spark_property(known->falls_back_to)) return *set;
  }
  if (auto d = default_for(*known, version)) return std::string(*d);
  if (fallback == nullptr) return std::nullopt;
  if (auto d = default_for(*fallback, version)) return std::string(*d);
  return std::nullopt;
}

std::optional<double> setting_number(const SparkSetting& setting, std::string_view text) {
  return number_of(setting, text);
}

std::optional<double> effective_setting_number(const model::AppModel& model, std::string_view key) {
  const SparkSetting* setting = find_spark_setting(key);
  const std::optional<std::string> value = effective_setting_value(model, key);
  if (setting == nullptr || !value) return std::nullopt;
  if (auto number = setting_number(*setting, *value)) return number;
  // A value set but not readable (a redacted or templated one): the version's default.
  const auto fallback = default_for(*setting, parse_spark_version(model.app.spark_version));
  return fallback ? setting_number(*setting, *fallback) : std::nullopt;
}

std::optional<int> compare_values(const SparkSetting& setting, std::string_view a, std::string_view b) {
  if (setting.type == Type::kBoolean || setting.type == Type::kText) {
    const bool same =
        setting.type == Type::kBoolean ? lower(text::trim(a)) == lower(text::trim(b)) : text::trim(a) == text::trim(b);
    if (same) return 0;
    return std::nullopt;  // no order
  }
  auto x = number_of(setting, a);
  auto y = number_of(setting, b);
  if (!x || !y) return std::nullopt;
  if (std::abs(*x - *y) <= 1e-9 * std::max(std::abs(*x), std::abs(*y))) return 0;
  return *x < *y ? -1 : 1;
}

}  // namespace sf::analysis

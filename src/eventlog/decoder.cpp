#include "eventlog/decoder.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <span>

#include "common/text.h"
#include "eventlog/json_reading.h"

namespace sf::eventlog {

namespace od = simdjson::ondemand;
using json::for_each_element;
using json::for_each_field;
using json::for_each_known_field;
using json::read_bool;
using json::read_int;
using json::read_optional_int;
using json::read_string;
using json::read_string_view;
using simdjson::error_code;
using simdjson::SUCCESS;

namespace {

// ------------------------------------------------------------------------------------------
// Event names

enum class EventKind {
  kTaskEnd,
  kTaskStart,
  kLogStart,
  kDatabricksMetadata,
  kApplicationStart,
  kApplicationEnd,
  kEnvironmentUpdate,
  kResourceProfileAdded,
  kExecutorAdded,
  kExecutorRemoved,
  kBlockManagerAdded,
  kBlockManagerRemoved,
  kJobStart,
  kJobEnd,
  kStageSubmitted,
  kStageCompleted,
  kStageExecutorMetrics,
  kUnpersistRdd,
  kExecutorExcluded,
  kExecutorExcludedForStage,
  kExecutorUnexcluded,
  kNodeExcluded,
  kNodeExcludedForStage,
  kNodeUnexcluded,
  kSqlExecutionStart,
  kSqlExecutionEnd,
  kSqlAdaptiveExecutionUpdate,
  kSqlAdaptiveMetricUpdates,
  kDriverAccumUpdates,
  kMiscellaneousProcessAdded,
  kUnknown,
};

struct EventName {
  std::string_view simple_name;  // the class name without its package
  EventKind kind;
};

// Most frequent first: task events are almost every line of a log.
constexpr std::array kEventNames = {
    EventName{"SparkListenerTaskEnd", EventKind::kTaskEnd},
    EventName{"SparkListenerTaskStart", EventKind::kTaskStart},
    EventName{"SparkListenerStageSubmitted", EventKind::kStageSubmitted},
    EventName{"SparkListenerStageCompleted", EventKind::kStageCompleted},
    EventName{"SparkListenerJobStart", EventKind::kJobStart},
    EventName{"SparkListenerJobEnd", EventKind::kJobEnd},
    EventName{"SparkListenerStageExecutorMetrics", EventKind::kStageExecutorMetrics},
    EventName{"SparkListenerDriverAccumUpdates", EventKind::kDriverAccumUpdates},
    EventName{"SparkListenerSQLExecutionStart", EventKind::kSqlExecutionStart},
    EventName{"SparkListenerSQLExecutionEnd", EventKind::kSqlExecutionEnd},
    EventName{"SparkListenerSQLAdaptiveExecutionUpdate", EventKind::kSqlAdaptiveExecutionUpdate},
    EventName{"SparkListenerSQLAdaptiveSQLMetricUpdates", EventKind::kSqlAdaptiveMetricUpdates},
    EventName{"SparkListenerExecutorAdded", EventKind::kExecutorAdded},
    EventName{"SparkListenerExecutorRemoved", EventKind::kExecutorRemoved},
    EventName{"SparkListenerBlockManagerAdded", EventKind::kBlockManagerAdded},
    EventName{"SparkListenerBlockManagerRemoved", EventKind::kBlockManagerRemoved},
    EventName{"SparkListenerUnpersistRDD", EventKind::kUnpersistRdd},
    EventName{"SparkListenerLogStart", EventKind::kLogStart},
    EventName{"DBCEventLoggingListenerMetadata", EventKind::kDatabricksMetadata},
    EventName{"SparkListenerApplicationStart", EventKind::kApplicationStart},
    EventName{"SparkListenerApplicationEnd", EventKind::kApplicationEnd},
    EventName{"SparkListenerEnvironmentUpdate", EventKind::kEnvironmentUpdate},
    EventName{"SparkListenerResourceProfileAdded", EventKind::kResourceProfileAdded},
    EventName{"SparkListenerExecutorExcluded", EventKind::kExecutorExcluded},
    EventName{"SparkListenerExecutorBlacklisted", EventKind::kExecutorExcluded},
    EventName{"SparkListenerExecutorExcludedForStage", EventKind::kExecutorExcludedForStage},
    EventName{"SparkListenerExecutorBlacklistedForStage", EventKind::kExecutorExcludedForStage},
    EventName{"SparkListenerExecutorUnexcluded", EventKind::kExecutorUnexcluded},
    EventName{"SparkListenerExecutorUnblacklisted", EventKind::kExecutorUnexcluded},
    EventName{"SparkListenerNodeExcluded", EventKind::kNodeExcluded},
    EventName{"SparkListenerNodeBlacklisted", EventKind::kNodeExcluded},
    EventName{"SparkListenerNodeExcludedForStage", EventKind::kNodeExcludedForStage},
    EventName{"SparkListenerNodeBlacklistedForStage", EventKind::kNodeExcludedForStage},
    EventName{"SparkListenerNodeUnexcluded", EventKind::kNodeUnexcluded},
    EventName{"SparkListenerNodeUnblacklisted", EventKind::kNodeUnexcluded},
    EventName{"SparkListenerMiscellaneousProcessAdded", EventKind::kMiscellaneousProcessAdded},
};

// Core events are logged by simple name, SQL and scheduler extras by fully qualified class
// name; both are matched by the simple name.
EventKind classify(std::string_view event_name) {
  if (auto dot = event_name.rfind('.'); dot != std::string_view::npos) event_name.remove_prefix(dot + 1);
  for (const auto& entry : kEventNames) {
    if (entry.simple_name == event_name) return entry.kind;
  }
  return EventKind::kUnknown;
}

// ------------------------------------------------------------------------------------------
// Required fields: what each modeled event, and each object inside one, must carry. In its place
// a default (job 0, stage 0, task 0, accumulator 0) would put the line's figures on another
// job's, stage's or metric's, so a line without one is malformed and names what it lacks. The
// lists follow the fields Spark's JsonProtocol reads without a fallback, where the model uses
// them; required_fields() (decoder.h) spells every path out for the tests.

using RequiredList = std::span<const std::string_view>;

constexpr std::string_view kLogStartRequired[] = {"Spark Version"};
constexpr std::string_view kApplicationStartRequired[] = {"App Name", "Timestamp"};
constexpr std::string_view kApplicationEndRequired[] = {"Timestamp"};
constexpr std::string_view kEnvironmentUpdateRequired[] = {"Spark Properties"};
constexpr std::string_view kResourceProfileAddedRequired[] = {"Resource Profile Id"};
constexpr std::string_view kExecutorAddedRequired[] = {"Executor ID", "Executor Info"};
constexpr std::string_view kExecutorInfoRequired[] = {"Host", "Total Cores"};
constexpr std::string_view kExecutorRemovedRequired[] = {"Executor ID"};
constexpr std::string_view kBlockManagerAddedRequired[] = {"Block Manager ID", "Maximum Memory"};
constexpr std::string_view kBlockManagerRemovedRequired[] = {"Block Manager ID"};
constexpr std::string_view kBlockManagerIdRequired[] = {"Executor ID"};
constexpr std::string_view kJobStartRequired[] = {"Job ID"};
constexpr std::string_view kJobEndRequired[] = {"Job ID", "Job Result"};
constexpr std::string_view kJobResultRequired[] = {"Result"};
constexpr std::string_view kStageEventRequired[] = {"Stage Info"};
constexpr std::string_view kStageInfoRequired[] = {"Stage ID", "Number of Tasks"};
constexpr std::string_view kStageExecutorMetricsRequired[] = {"Executor ID", "Stage ID", "Stage Attempt ID",
                                                              "Executor Metrics"};
constexpr std::string_view kTaskStartRequired[] = {"Stage ID", "Task Info"};
constexpr std::string_view kTaskEndRequired[] = {"Stage ID", "Task End Reason", "Task Info"};
constexpr std::string_view kTaskInfoRequired[] = {"Task ID", "Index", "Launch Time", "Executor ID", "Host"};
constexpr std::string_view kTaskEndReasonRequired[] = {"Reason"};
constexpr std::string_view kUnpersistRddRequired[] = {"RDD ID"};
constexpr std::string_view kExecutorExclusionRequired[] = {"executorId"};
constexpr std::string_view kNodeExclusionRequired[] = {"hostId"};
constexpr std::string_view kMiscellaneousProcessRequired[] = {"processId"};
constexpr std::string_view kSqlExecutionStartRequired[] = {"executionId", "time"};
constexpr std::string_view kSqlExecutionEndRequired[] = {"executionId", "time"};
constexpr std::string_view kSqlAdaptiveExecutionUpdateRequired[] = {"executionId", "sparkPlanInfo"};
constexpr std::string_view kSqlAdaptiveMetricUpdatesRequired[] = {"executionId", "sqlPlanMetrics"};
constexpr std::string_view kDriverAccumUpdatesRequired[] = {"executionId", "accumUpdates"};
constexpr std::string_view kPlanNodeRequired[] = {"nodeName"};
constexpr std::string_view kPlanMetricRequired[] = {"name", "accumulatorId"};

// Where each list applies: the event (its simple class name) and the object's path in it ("" for
// the event's own object, "[]" for every element of an array).
struct RequiredObject {
  std::string_view event;
  std::string_view at;
  RequiredList keys;
};

constexpr RequiredObject kRequiredObjects[] = {
    {"SparkListenerLogStart", "", kLogStartRequired},
    {"SparkListenerApplicationStart", "", kApplicationStartRequired},
    {"SparkListenerApplicationEnd", "", kApplicationEndRequired},
    {"SparkListenerEnvironmentUpdate", "", kEnvironmentUpdateRequired},
    {"SparkListenerResourceProfileAdded", "", kResourceProfileAddedRequired},
    {"SparkListenerExecutorAdded", "", kExecutorAddedRequired},
    {"SparkListenerExecutorAdded", "Executor Info", kExecutorInfoRequired},
    {"SparkListenerExecutorRemoved", "", kExecutorRemovedRequired},
    {"SparkListenerBlockManagerAdded", "", kBlockManagerAddedRequired},
    {"SparkListenerBlockManagerAdded", "Block Manager ID", kBlockManagerIdRequired},
    {"SparkListenerBlockManagerRemoved", "", kBlockManagerRemovedRequired},
    {"SparkListenerBlockManagerRemoved", "Block Manager ID", kBlockManagerIdRequired},
    {"SparkListenerJobStart", "", kJobStartRequired},
    {"SparkListenerJobStart", "Stage Infos/[]", kStageInfoRequired},
    {"SparkListenerJobEnd", "", kJobEndRequired},
    {"SparkListenerJobEnd", "Job Result", kJobResultRequired},
    {"SparkListenerStageSubmitted", "", kStageEventRequired},
    {"SparkListenerStageSubmitted", "Stage Info", kStageInfoRequired},
    {"SparkListenerStageCompleted", "", kStageEventRequired},
    {"SparkListenerStageCompleted", "Stage Info", kStageInfoRequired},
    {"SparkListenerStageExecutorMetrics", "", kStageExecutorMetricsRequired},
    {"SparkListenerTaskStart", "", kTaskStartRequired},
    {"SparkListenerTaskStart", "Task Info", kTaskInfoRequired},
    {"SparkListenerTaskEnd", "", kTaskEndRequired},
    {"SparkListenerTaskEnd", "Task Info", kTaskInfoRequired},
    {"SparkListenerTaskEnd", "Task End Reason", kTaskEndReasonRequired},
    {"SparkListenerUnpersistRDD", "", kUnpersistRddRequired},
    {"SparkListenerExecutorExcluded", "", kExecutorExclusionRequired},
    {"SparkListenerExecutorExcludedForStage", "", kExecutorExclusionRequired},
    {"SparkListenerExecutorUnexcluded", "", kExecutorExclusionRequired},
    {"SparkListenerNodeExcluded", "", kNodeExclusionRequired},
    {"SparkListenerNodeExcludedForStage", "", kNodeExclusionRequired},
    {"SparkListenerNodeUnexcluded", "", kNodeExclusionRequired},
    {"SparkListenerMiscellaneousProcessAdded", "", kMiscellaneousProcessRequired},
    {"SparkListenerSQLExecutionStart", "", kSqlExecutionStartRequired},
    {"SparkListenerSQLExecutionStart", "sparkPlanInfo", kPlanNodeRequired},
    {"SparkListenerSQLExecutionStart", "sparkPlanInfo/metrics/[]", kPlanMetricRequired},
    {"SparkListenerSQLExecutionEnd", "", kSqlExecutionEndRequired},
    {"SparkListenerSQLAdaptiveExecutionUpdate", "", kSqlAdaptiveExecutionUpdateRequired},
    {"SparkListenerSQLAdaptiveExecutionUpdate", "sparkPlanInfo", kPlanNodeRequired},
    {"SparkListenerSQLAdaptiveSQLMetricUpdates", "", kSqlAdaptiveMetricUpdatesRequired},
    {"SparkListenerSQLAdaptiveSQLMetricUpdates", "sqlPlanMetrics/[]", kPlanMetricRequired},
    {"SparkListenerDriverAccumUpdates", "", kDriverAccumUpdatesRequired},
};

// Which of an object's required keys its reader saw, key by key.
class RequiredKeys {
 public:
  explicit RequiredKeys(RequiredList names) : names_(names) {}
  void note(std::string_view key) {
    for (size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == key) seen_ |= uint32_t{1} << i;
    }
  }
  // The first required key the object lacked, or "" when it had them all.
  std::string_view missing() const {
    for (size_t i = 0; i < names_.size(); ++i) {
      if ((seen_ & (uint32_t{1} << i)) == 0) return names_[i];
    }
    return {};
  }

 private:
  RequiredList names_;
  uint32_t seen_ = 0;
};

// The bits of a key table's indices that a required list names, for the task events' readers,
// which see fields by index (a bit per index, set as each field is read).
template <size_t N>
constexpr uint32_t required_mask(const json::KeyTable<N>& table, RequiredList names) {
  uint32_t mask = 0;
  for (std::string_view name : names) {
    for (size_t i = 0; i < N; ++i) {
      if (table.keys[i] == name) mask |= uint32_t{1} << i;
    }
  }
  return mask;
}

// The first required key whose bit is not in `seen`.
template <size_t N>
std::string_view first_unseen(const json::KeyTable<N>& table, RequiredList names, uint32_t seen) {
  for (std::string_view name : names) {
    for (size_t i = 0; i < N; ++i) {
      if (table.keys[i] == name && (seen & (uint32_t{1} << i)) == 0) return name;
    }
  }
  return {};
}

// The required field a reader did not find, as its path from the event's object: the reader of
// the innermost object names the key, and each reader above it puts its own key in front.
struct MissingField {
  std::string path;

  error_code report(std::string_view key) {
    path.assign(key);
    return simdjson::NO_SUCH_FIELD;
  }
  // Passes on `error` from the reader of the object at `key`, naming where it was.
  error_code within(std::string_view key, error_code error) {
    if (error == simdjson::NO_SUCH_FIELD && !path.empty()) path.insert(0, std::string(key) + "/");
    return error;
  }
};

// ------------------------------------------------------------------------------------------
// Key tables: JSON keys -> task metric slots, for the flat metric objects of a task.

using spark::ExecutorMetric;
using spark::TaskMetric;

template <size_t N>
struct MetricKeys {
  json::KeyTable<N> table;
  std::array<TaskMetric, N> slots;
};

template <size_t N>
constexpr MetricKeys<N> metric_keys(const std::pair<std::string_view, TaskMetric> (&entries)[N]) {
  MetricKeys<N> keys{};
  for (size_t i = 0; i < N; ++i) {
    keys.table.keys[i] = entries[i].first;
    keys.slots[i] = entries[i].second;
  }
  return keys;
}

// In the order Spark's JsonProtocol writes them, so the hinted lookup hits first time.
constexpr auto kTaskMetricKeys = metric_keys({
    {"Executor Deserialize Time", TaskMetric::kExecutorDeserializeTimeMs},
    {"Executor Deserialize CPU Time", TaskMetric::kExecutorDeserializeCpuTimeNs},
    {"Executor Run Time", TaskMetric::kExecutorRunTimeMs},
    {"Executor CPU Time", TaskMetric::kExecutorCpuTimeNs},
    {"Peak Execution Memory", TaskMetric::kPeakExecutionMemoryBytes},
    {"Peak On Heap Execution Memory", TaskMetric::kPeakOnHeapExecutionMemoryBytes},
    {"Peak Off Heap Execution Memory", TaskMetric::kPeakOffHeapExecutionMemoryBytes},
    {"Result Size", TaskMetric::kResultSizeBytes},
    {"JVM GC Time", TaskMetric::kJvmGcTimeMs},
    {"Result Serialization Time", TaskMetric::kResultSerializationTimeMs},
    {"Memory Bytes Spilled", TaskMetric::kMemoryBytesSpilled},
    {"Disk Bytes Spilled", TaskMetric::kDiskBytesSpilled},
});

// The nested groups of "Task Metrics", after the scalar metrics above.
enum MetricGroup : size_t { kShuffleReadGroup, kShuffleWriteGroup, kInputGroup, kOutputGroup, kGroupCount };

constexpr auto kShuffleReadKeys = metric_keys({
    {"Remote Blocks Fetched", TaskMetric::kShuffleRemoteBlocksFetched},
    {"Local Blocks Fetched", TaskMetric::kShuffleLocalBlocksFetched},
    {"Fetch Wait Time", TaskMetric::kShuffleFetchWaitTimeMs},
    {"Remote Bytes Read", TaskMetric::kShuffleRemoteBytesRead},
    {"Remote Bytes Read To Disk", TaskMetric::kShuffleRemoteBytesReadToDisk},
    {"Local Bytes Read", TaskMetric::kShuffleLocalBytesRead},
    {"Total Records Read", TaskMetric::kShuffleRecordsRead},
    {"Remote Requests Duration", TaskMetric::kShuffleRemoteReqsDurationMs},
});

// "Push Based Shuffle" (Spark 3.2) and "Shuffle Push Read Metrics" (3.3+) name these alike.
constexpr json::KeyTable<2> kPushGroupKeys{{"Push Based Shuffle", "Shuffle Push Read Metrics"}};
constexpr auto kPushReadKeys = metric_keys({
    {"Corrupt Merged Block Chunks", TaskMetric::kPushCorruptMergedBlockChunks},
    {"Merged Fetch Fallback Count", TaskMetric::kPushMergedFetchFallbackCount},
    {"Merged Fallback Count", TaskMetric::kPushMergedFetchFallbackCount},
    {"Merged Remote Blocks Fetched", TaskMetric::kPushMergedRemoteBlocksFetched},
    {"Merged Local Blocks Fetched", TaskMetric::kPushMergedLocalBlocksFetched},
    {"Merged Remote Chunks Fetched", TaskMetric::kPushMergedRemoteChunksFetched},
    {"Merged Local Chunks Fetched", TaskMetric::kPushMergedLocalChunksFetched},
    {"Merged Remote Bytes Read", TaskMetric::kPushMergedRemoteBytesRead},
    {"Merged Local Bytes Read", TaskMetric::kPushMergedLocalBytesRead},
    {"Merged Remote Requests Duration", TaskMetric::kPushMergedRemoteReqsDurationMs},
});

constexpr auto kShuffleWriteKeys = metric_keys({
    {"Shuffle Bytes Written", TaskMetric::kShuffleWriteBytes},
    {"Shuffle Write Time", TaskMetric::kShuffleWriteTimeNs},
    {"Shuffle Records Written", TaskMetric::kShuffleWriteRecords},
});

constexpr auto kInputKeys = metric_keys({
    {"Bytes Read", TaskMetric::kInputBytes},
    {"Records Read", TaskMetric::kInputRecords},
});

constexpr auto kOutputKeys = metric_keys({
    {"Bytes Written", TaskMetric::kOutputBytes},
    {"Records Written", TaskMetric::kOutputRecords},
});

json::KeyTable<spark::kExecutorMetricCount> executor_metric_keys() {
  json::KeyTable<spark::kExecutorMetricCount> table{};
  for (size_t i = 0; i < spark::kExecutorMetricCount; ++i) {
    table.keys[i] = spark::executor_metric_name(static_cast<ExecutorMetric>(i));
  }
  return table;
}
const json::KeyTable<spark::kExecutorMetricCount> kExecutorMetricKeys = executor_metric_keys();

// ------------------------------------------------------------------------------------------
// Field readers shared by several events

bool is_null(od::value& value) {
  bool null = false;
  return value.is_null().get(null) == SUCCESS && null;
}

template <size_t N>
error_code read_metric_object(od::value& value, spark::TaskMetricValues& metrics, const MetricKeys<N>& keys) {
  if (is_null(value)) return SUCCESS;
  return for_each_known_field(value, keys.table, [&](size_t index, od::value& v) -> error_code {
    return read_int(v, metrics[spark::index_of(keys.slots[index])]);
  });
}

error_code read_shuffle_read_metrics(od::value& value, spark::TaskMetricValues& metrics) {
  if (is_null(value)) return SUCCESS;
  size_t hint = 0;
  size_t push_hint = 0;
  od::object object;
  if (auto error = value.get_object().get(object)) return error;
  for (auto field_result : object) {
    od::field field;
    if (auto error = std::move(field_result).get(field)) return error;
    const od::raw_json_string key = field.key();
    od::value v = field.value();
    const size_t index = kShuffleReadKeys.table.find(key, hint);
    error_code error = SUCCESS;
    if (index < kShuffleReadKeys.slots.size()) {
      error = read_int(v, metrics[spark::index_of(kShuffleReadKeys.slots[index])]);
    } else if (kPushGroupKeys.find(key, push_hint) < kPushGroupKeys.keys.size()) {
      error = read_metric_object(v, metrics, kPushReadKeys);
    }
    if (error) return error;
  }
  return SUCCESS;
}

// The keys of "Task Metrics": its scalar metrics, then its nested groups, in one table so the
// hinted lookup follows Spark's order through both.
constexpr size_t kTaskMetricScalarCount = kTaskMetricKeys.slots.size();
constexpr auto kTaskMetricsFieldKeys = [] {
  constexpr std::array<std::string_view, kGroupCount> kGroupKeys{"Shuffle Read Metrics", "Shuffle Write Metrics",
                                                                 "Input Metrics", "Output Metrics"};
  json::KeyTable<kTaskMetricScalarCount + kGroupCount> table{};
  for (size_t i = 0; i < kTaskMetricScalarCount; ++i) table.keys[i] = kTaskMetricKeys.table.keys[i];
  for (size_t i = 0; i < kGroupCount; ++i) table.keys[kTaskMetricScalarCount + i] = kGroupKeys[i];
  return table;
}();

error_code read_task_metrics(od::value& value, spark::TaskMetricValues& metrics, bool& present) {
  if (is_null(value)) return SUCCESS;
  present = true;
  return for_each_known_field(value, kTaskMetricsFieldKeys, [&](size_t index, od::value& v) -> error_code {
    if (index < kTaskMetricScalarCount) return read_int(v, metrics[spark::index_of(kTaskMetricKeys.slots[index])]);
    switch (index - kTaskMetricScalarCount) {
      case kShuffleReadGroup: return read_shuffle_read_metrics(v, metrics);
      case kShuffleWriteGroup: return read_metric_object(v, metrics, kShuffleWriteKeys);
      case kInputGroup: return read_metric_object(v, metrics, kInputKeys);
      case kOutputGroup: return read_metric_object(v, metrics, kOutputKeys);
      default: return SUCCESS;
    }
  });
}

error_code read_executor_metrics(od::value& value, spark::ExecutorMetricPeaks& peaks) {
  if (is_null(value)) return SUCCESS;
  peaks.present = true;
  return for_each_known_field(value, kExecutorMetricKeys, [&](size_t index, od::value& v) -> error_code {
    return read_int(v, peaks.values[index]);
  });
}

// The IDs of an accumulables array ("Accumulables" of Task Info, "Accumulator Updates"). "ID"
// comes first in Spark's accumulable objects, so find_field (which looks forward from the
// current field) finds it at once; the rest of each object is skipped unread. An object without
// "ID" is not an accumulable the model can use and is skipped.
error_code read_accumulator_ids(od::value& value, std::vector<int64_t>& ids) {
  return for_each_element(value, [&](od::value& element) -> error_code {
    od::value id_value;
    auto error = element.find_field("ID").get(id_value);
    if (error == simdjson::NO_SUCH_FIELD) return SUCCESS;
    if (error) return error;
    int64_t id = 0;
    if (auto e = read_int(id_value, id)) return e;
    ids.push_back(id);
    return SUCCESS;
  });
}

// An accumulables array in full: spark::Accumulable (a stage's) or TaskAccumulable (a task's,
// which also has its update). An object without "ID" is skipped.
template <class AccumulableType>
error_code read_accumulables(od::value& value, std::vector<AccumulableType>& out) {
  return for_each_element(value, [&](od::value& element) -> error_code {
    AccumulableType accumulable;
    bool has_id = false;
    auto error = for_each_field(element, [&](std::string_view key, od::value& v) -> error_code {
      if (key == "ID") {
        has_id = true;
        return read_int(v, accumulable.id);
      }
      if (key == "Name") return read_string(v, accumulable.name, kMaxNameBytes);
      if (key == "Value") return json::read_as_text(v, accumulable.value, kMaxTextBytes);
      if (key == "Internal") return read_bool(v, accumulable.internal);
      if (key == "Metadata") return json::read_as_text(v, accumulable.metadata, kMaxNameBytes);
      if constexpr (requires { accumulable.update; }) {
        if (key == "Update") return json::read_as_text(v, accumulable.update, kMaxTextBytes);
      }
      return SUCCESS;
    });
    if (error) return error;
    if (has_id) out.push_back(std::move(accumulable));
    return SUCCESS;
  });
}

// StorageLevel.description in Spark: "Disk Memory Deserialized 1x Replicated" and so on.
std::string storage_level_description(bool use_disk, bool use_memory, bool use_off_heap, bool deserialized,
                                      int32_t replication) {
  if (!use_disk && !use_memory && !use_off_heap) return "";
  std::string result;
  if (use_disk) result += "Disk ";
  if (use_memory) result += use_off_heap ? "Memory (off heap) " : "Memory ";
  result += deserialized ? "Deserialized " : "Serialized ";
  result += std::to_string(replication) + "x Replicated";
  return result;
}

error_code read_rdd_info(od::value& value, spark::RddInfo& rdd) {
  bool use_off_heap = false;
  auto error = for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    if (key == "RDD ID") return read_int(v, rdd.rdd_id);
    if (key == "Name") return read_string(v, rdd.name, kMaxNameBytes);
    if (key == "Scope") return read_string(v, rdd.scope, kMaxTextBytes);
    if (key == "Callsite") return read_string(v, rdd.callsite, kMaxTextBytes);
    if (key == "Parent IDs") return json::read_int_array(v, rdd.parent_ids);
    if (key == "Barrier") return read_bool(v, rdd.barrier);
    if (key == "Number of Partitions") return read_int(v, rdd.num_partitions);
    if (key == "Number of Cached Partitions") return read_int(v, rdd.num_cached_partitions);
    if (key == "Memory Size") return read_int(v, rdd.memory_size_bytes);
    if (key == "Disk Size") return read_int(v, rdd.disk_size_bytes);
    if (key == "Storage Level") {
      return for_each_field(v, [&](std::string_view level_key, od::value& lv) -> error_code {
        if (level_key == "Use Disk") return read_bool(lv, rdd.use_disk);
        if (level_key == "Use Memory") return read_bool(lv, rdd.use_memory);
        if (level_key == "Use Off Heap") return read_bool(lv, use_off_heap);
        if (level_key == "Deserialized") return read_bool(lv, rdd.deserialized);
        if (level_key == "Replication") return read_int(lv, rdd.replication);
        return SUCCESS;
      });
    }
    return SUCCESS;
  });
  if (error) return error;
  std::sort(rdd.parent_ids.begin(), rdd.parent_ids.end());
  rdd.storage_level =
      storage_level_description(rdd.use_disk, rdd.use_memory, use_off_heap, rdd.deserialized, rdd.replication);
  return SUCCESS;
}

error_code read_stage_info(od::value& value, StageInfo& info, MissingField& missing) {
  RequiredKeys required(kStageInfoRequired);
  auto error = for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    required.note(key);
    if (key == "Stage ID") return read_int(v, info.stage_id);
    if (key == "Stage Attempt ID") return read_int(v, info.attempt_id);
    if (key == "Stage Name") return read_string(v, info.name, kMaxNameBytes);
    if (key == "Number of Tasks") return read_int(v, info.num_tasks);
    if (key == "RDD Info") {
      return for_each_element(v, [&](od::value& element) -> error_code {
        spark::RddInfo rdd;
        if (auto e = read_rdd_info(element, rdd)) return e;
        info.rdds.push_back(std::move(rdd));
        return SUCCESS;
      });
    }
    if (key == "Parent IDs") return json::read_int_array(v, info.parent_ids);
    if (key == "Details") return read_string(v, info.details, kMaxTextBytes);
    if (key == "Submission Time") return read_optional_int(v, info.submission_time_ms);
    if (key == "Completion Time") return read_optional_int(v, info.completion_time_ms);
    if (key == "Failure Reason") return json::read_optional_string(v, info.failure_reason, kMaxTextBytes);
    if (key == "Accumulables") return read_accumulables(v, info.accumulables);
    if (key == "Resource Profile Id") return read_int(v, info.resource_profile_id);
    if (key == "Shuffle Push Enabled") return read_bool(v, info.shuffle_push_enabled);
    if (key == "Shuffle Push Mergers Count") return read_int(v, info.shuffle_mergers_count);
    return SUCCESS;
  });
  if (error) return error;
  if (auto key = required.missing(); !key.empty()) return missing.report(key);
  std::sort(info.parent_ids.begin(), info.parent_ids.end());
  return SUCCESS;
}

error_code read_properties(od::value& value, SubmissionProperties& properties) {
  bool is_null = false;
  if (auto error = value.is_null().get(is_null)) return error;
  if (is_null) return SUCCESS;
  return for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    if (key == "spark.sql.execution.id") {
      int64_t id = 0;
      // A non-numeric id is ignored rather than failing the whole job event.
      if (read_int(v, id) == SUCCESS) properties.sql_execution_id = id;
      return SUCCESS;
    }
    if (key == "spark.job.description") return read_string(v, properties.job_description, kMaxTextBytes);
    if (key == "spark.jobGroup.id") return read_string(v, properties.job_group, kMaxNameBytes);
    if (key == "spark.job.tags") return read_string(v, properties.job_tags, kMaxTextBytes);
    if (key == "spark.scheduler.pool") return read_string(v, properties.scheduler_pool, kMaxNameBytes);
    return SUCCESS;
  });
}

constexpr json::KeyTable<14> kTaskInfoKeys{{"Task ID", "Index", "Attempt", "Partition ID", "Launch Time", "Executor ID",
                                             "Host", "Locality", "Speculative", "Getting Result Time", "Finish Time",
                                             "Failed", "Killed", "Accumulables"}};

constexpr uint32_t kTaskInfoRequiredMask = required_mask(kTaskInfoKeys, kTaskInfoRequired);

// Task Info; its accumulables go to `accumulables` in full when given, else their ids to
// `accumulator_ids` when given, else nowhere.
error_code read_task_info(od::value& value, TaskInfo& info, MissingField& missing, json::CutStrings& cut,
                          std::vector<int64_t>* accumulator_ids, std::vector<TaskAccumulable>* accumulables = nullptr) {
  uint32_t seen = 0;
  auto error = for_each_known_field(value, kTaskInfoKeys, [&](size_t index, od::value& v) -> error_code {
    seen |= uint32_t{1} << index;
    switch (index) {
      case 0: return read_int(v, info.task_id);
      case 1: return read_int(v, info.index);
      case 2: return read_int(v, info.attempt);
      case 3: {
        int32_t partition = -1;
        if (auto e = read_int(v, partition)) return e;
        info.partition_id = partition;
        return SUCCESS;
      }
      case 4: return read_int(v, info.launch_time_ms);
      case 5: return read_string_view(v, info.executor_id, kMaxNameBytes, cut);
      case 6: return read_string_view(v, info.host, kMaxNameBytes, cut);
      case 7: return read_string_view(v, info.locality, kMaxNameBytes, cut);
      case 8: return read_bool(v, info.speculative);
      case 9: return read_int(v, info.getting_result_time_ms);
      case 10: return read_int(v, info.finish_time_ms);
      case 11: return read_bool(v, info.failed);
      case 12: return read_bool(v, info.killed);
      case 13:
        if (accumulables != nullptr) return read_accumulables(v, *accumulables);
        return accumulator_ids != nullptr ? read_accumulator_ids(v, *accumulator_ids) : SUCCESS;
      default: return SUCCESS;
    }
  });
  if (error) return error;
  if ((seen & kTaskInfoRequiredMask) != kTaskInfoRequiredMask) {
    return missing.report(first_unseen(kTaskInfoKeys, kTaskInfoRequired, seen));
  }
  return SUCCESS;
}


TaskEndReason parse_reason(std::string_view reason) {
  if (reason == "Success") return TaskEndReason::kSuccess;
  if (reason == "TaskKilled") return TaskEndReason::kTaskKilled;
  if (reason == "ExceptionFailure") return TaskEndReason::kExceptionFailure;
  if (reason == "ExecutorLostFailure") return TaskEndReason::kExecutorLostFailure;
  if (reason == "FetchFailed") return TaskEndReason::kFetchFailed;
  if (reason == "TaskCommitDenied") return TaskEndReason::kTaskCommitDenied;
  if (reason == "Resubmitted") return TaskEndReason::kResubmitted;
  if (reason == "TaskResultLost") return TaskEndReason::kTaskResultLost;
  return TaskEndReason::kUnknownReason;
}

constexpr json::KeyTable<17> kTaskEndReasonKeys{{"Reason", "Class Name", "Kill Reason", "Loss Reason",
                                                 "Accumulator Updates", "Job ID", "Partition ID", "Attempt Number",
                                                 "Description", "Full Stack Trace", "Message", "Exit Caused By App",
                                                 "Block Manager Address", "Shuffle ID", "Map ID", "Map Index",
                                                 "Reduce ID"}};

error_code read_fetch_failed_address(od::value& value, TaskEnd::FetchFailedBlock& block, json::CutStrings& cut) {
  bool is_null = false;
  if (auto error = value.is_null().get(is_null)) return error;
  if (is_null) return SUCCESS;
  block.has_address = true;
  return for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    if (key == "Executor ID") return read_string_view(v, block.executor_id, kMaxNameBytes, cut);
    if (key == "Host") return read_string_view(v, block.host, kMaxNameBytes, cut);
    if (key == "Port") return read_int(v, block.port);
    return SUCCESS;
  });
}

error_code read_task_end_reason(od::value& value, TaskEnd& event, MissingField& missing, json::CutStrings& cut) {
  bool has_reason = false;
  auto error = for_each_known_field(value, kTaskEndReasonKeys, [&](size_t index, od::value& v) -> error_code {
    switch (index) {
      case 0:
        has_reason = true;
        if (auto e = read_string_view(v, event.reason_text, kMaxNameBytes, cut)) return e;
        event.reason = parse_reason(event.reason_text);
        return SUCCESS;
      case 1: return read_string_view(v, event.exception_class, kMaxNameBytes, cut);
      case 2: return read_string_view(v, event.kill_reason, kMaxTextBytes, cut);
      case 3: return read_string_view(v, event.loss_reason, kMaxTextBytes, cut);
      case 4: return read_accumulator_ids(v, event.accumulator_ids);
      case 5: return read_int(v, event.commit_denied_job);
      case 6: return read_int(v, event.commit_denied_partition);
      case 7: return read_int(v, event.commit_denied_attempt);
      case 8: return read_string_view(v, event.description, kMaxTextBytes, cut);
      case 9: return read_string_view(v, event.full_stack_trace, kMaxTextBytes, cut);
      case 10: return read_string_view(v, event.fetch_failed_message, kMaxTextBytes, cut);
      case 11: return read_bool(v, event.exit_caused_by_app);
      case 12: return read_fetch_failed_address(v, event.fetch_failed, cut);
      case 13: return read_int(v, event.fetch_failed.shuffle_id);
      case 14: return read_int(v, event.fetch_failed.map_id);
      case 15: return read_optional_int(v, event.fetch_failed.map_index);
      case 16: return read_int(v, event.fetch_failed.reduce_id);
      default: return SUCCESS;
    }
  });
  if (error) return error;
  return has_reason ? SUCCESS : missing.report(kTaskEndReasonRequired[0]);
}

// A sparkPlanInfo tree, flattened in preorder. Depth is bounded so a hostile line cannot
// exhaust the stack (simdjson bounds JSON depth too; this keeps the two consistent).
constexpr int kMaxPlanDepth = 1000;

// A plan's nodes and metrics are most of a SQL-heavy log's bytes: like the task events, their keys
// are found by position in Spark's fixed order (SparkPlanInfo, SQLPlanMetric), not compared as text.
constexpr json::KeyTable<3> kPlanMetricKeys{{"name", "accumulatorId", "metricType"}};
constexpr uint32_t kPlanMetricRequiredMask = required_mask(kPlanMetricKeys, kPlanMetricRequired);

error_code read_plan_metrics(od::value& value, std::vector<spark::PlanMetric>& metrics, MissingField& missing) {
  return for_each_element(value, [&](od::value& element) -> error_code {
    spark::PlanMetric metric;
    uint32_t seen = 0;
    auto error = for_each_known_field(element, kPlanMetricKeys, [&](size_t index, od::value& v) -> error_code {
      seen |= uint32_t{1} << index;
      switch (index) {
        case 0: return read_string(v, metric.name, kMaxNameBytes);
        case 1: return read_int(v, metric.accumulator_id);
        case 2: return read_string(v, metric.metric_type, kMaxNameBytes);
        default: return SUCCESS;
      }
    });
    if (error) return error;
    if ((seen & kPlanMetricRequiredMask) != kPlanMetricRequiredMask) {
      return missing.within("[]", missing.report(first_unseen(kPlanMetricKeys, kPlanMetricRequired, seen)));
    }
    metrics.push_back(std::move(metric));
    return SUCCESS;
  });
}

constexpr json::KeyTable<5> kPlanNodeKeys{{"nodeName", "simpleString", "children", "metadata", "metrics"}};
constexpr uint32_t kPlanNodeRequiredMask = required_mask(kPlanNodeKeys, kPlanNodeRequired);

error_code read_plan_node(od::value& value, spark::PlanTree& tree, int depth, MissingField& missing) {
  if (depth > kMaxPlanDepth) return simdjson::DEPTH_ERROR;
  const auto node_id = static_cast<int32_t>(tree.nodes.size());
  tree.nodes.emplace_back();
  tree.nodes[node_id].node_id = node_id;
  uint32_t seen = 0;
  auto error = for_each_known_field(value, kPlanNodeKeys, [&](size_t index, od::value& v) -> error_code {
    seen |= uint32_t{1} << index;
    switch (index) {
      case 0: return read_string(v, tree.nodes[node_id].node_name, kMaxNameBytes);
      case 1: return read_string(v, tree.nodes[node_id].simple_string, kMaxTextBytes);
      case 2:
        return for_each_element(v, [&](od::value& child) -> error_code {
          const auto child_id = static_cast<int32_t>(tree.nodes.size());
          if (auto e = read_plan_node(child, tree, depth + 1, missing)) return missing.within("children/[]", e);
          tree.nodes[node_id].children.push_back(child_id);
          return SUCCESS;
        });
      case 3: return json::read_key_values(v, tree.nodes[node_id].metadata, kMaxNameBytes, kMaxTextBytes);
      case 4: return missing.within("metrics", read_plan_metrics(v, tree.nodes[node_id].metrics, missing));
      default: return SUCCESS;
    }
  });
  if (error) return error;
  if ((seen & kPlanNodeRequiredMask) != kPlanNodeRequiredMask) {
    return missing.report(first_unseen(kPlanNodeKeys, kPlanNodeRequired, seen));
  }
  return SUCCESS;
}

error_code read_plan(od::value& value, spark::PlanTree& tree, MissingField& missing) {
  tree.nodes.clear();
  bool is_null = false;
  if (auto error = value.is_null().get(is_null)) return error;
  if (is_null) return SUCCESS;
  return read_plan_node(value, tree, 0, missing);
}

error_code read_resource_requests(od::value& value, std::vector<spark::ResourceRequest>& out) {
  auto error = for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    spark::ResourceRequest request;
    request.name = text::cut_text(key, kMaxNameBytes);
    auto e = for_each_field(v, [&](std::string_view field, od::value& fv) -> error_code {
      if (field == "Resource Name") return read_string(fv, request.name, kMaxNameBytes);
      if (field == "Amount") return json::read_double(fv, request.amount);
      if (field == "Discovery Script") return read_string(fv, request.discovery_script, kMaxTextBytes);
      if (field == "Vendor") return read_string(fv, request.vendor, kMaxNameBytes);
      return SUCCESS;
    });
    if (e) return e;
    out.push_back(std::move(request));
    return SUCCESS;
  });
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return error;
}

error_code read_resources(od::value& value, std::vector<spark::ResourceInformation>& out) {
  auto error = for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    spark::ResourceInformation info;
    info.name = text::cut_text(key, kMaxNameBytes);
    auto e = for_each_field(v, [&](std::string_view field, od::value& fv) -> error_code {
      if (field == "name") return read_string(fv, info.name, kMaxNameBytes);
      if (field == "addresses") {
        return for_each_element(fv, [&](od::value& address) -> error_code {
          std::string text;
          if (auto ae = read_string(address, text, kMaxNameBytes)) return ae;
          info.addresses.push_back(std::move(text));
          return SUCCESS;
        });
      }
      return SUCCESS;
    });
    if (e) return e;
    out.push_back(std::move(info));
    return SUCCESS;
  });
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return error;
}

// True when nothing but whitespace follows what has been consumed of the line.
bool at_end(od::document& doc) {
  const char* location = nullptr;
  return doc.current_location().get(location) != SUCCESS;
}

// ------------------------------------------------------------------------------------------
// Task events: nearly every line of a log, so read by key table rather than by key comparisons.
// "Event" is entry 0 of each table, so the hinted lookup starts in step; it was read already.

constexpr json::KeyTable<8> kTaskEndKeys{{
    "Event", "Stage ID", "Stage Attempt ID", "Task Type", "Task End Reason", "Task Info", "Task Executor Metrics",
    "Task Metrics"}};

constexpr uint32_t kTaskEndRequiredMask = required_mask(kTaskEndKeys, kTaskEndRequired);

error_code read_task_end_field(size_t index, od::value& v, TaskEnd& e, MissingField& missing, json::CutStrings& cut,
                               bool task_accumulables) {
  switch (index) {
    case 1: return read_int(v, e.stage_id);
    case 2: return read_int(v, e.stage_attempt_id);
    case 3: return read_string_view(v, e.task_type, kMaxNameBytes, cut);
    case 4: return missing.within("Task End Reason", read_task_end_reason(v, e, missing, cut));
    case 5:
      return missing.within("Task Info", read_task_info(v, e.info, missing, cut, &e.accumulator_ids,
                                                        task_accumulables ? &e.accumulables : nullptr));
    case 6: return read_executor_metrics(v, e.executor_metrics);
    case 7: return read_task_metrics(v, e.metrics, e.has_metrics);
    default: return SUCCESS;  // "Event", read already
  }
}

constexpr json::KeyTable<4> kTaskStartKeys{{"Event", "Stage ID", "Stage Attempt ID", "Task Info"}};
constexpr uint32_t kTaskStartRequiredMask = required_mask(kTaskStartKeys, kTaskStartRequired);

error_code read_task_start_field(size_t index, od::value& v, TaskStart& e, MissingField& missing,
                                 json::CutStrings& cut) {
  switch (index) {
    case 1: return read_int(v, e.stage_id);
    case 2: return read_int(v, e.stage_attempt_id);
    case 3: return missing.within("Task Info", read_task_info(v, e.info, missing, cut, nullptr));
    default: return SUCCESS;
  }
}

void reset(TaskEnd& e) {
  std::vector<int64_t> ids = std::move(e.accumulator_ids);  // keep its capacity
  ids.clear();
  e = TaskEnd{};
  e.accumulator_ids = std::move(ids);
}

}  // namespace

// ------------------------------------------------------------------------------------------
// The decoder

struct Decoder::Impl {
  explicit Impl(const DecoderOptions& o) : options(o) {}

  const DecoderOptions options;
  od::parser parser;
  // The required field the line being decoded lacks, for its malformed-line message.
  MissingField missing;
  // Over-long strings of the line's task event, cut, for the views the event holds.
  json::CutStrings cut;
  // Reused across lines so the hot events allocate nothing once warmed up.
  TaskEnd task_end;
  TaskStart task_start;

  // The accumulator ids last handed over per stage attempt, for omit_repeated_accumulator_ids:
  // a few entries, least recently used replaced (stages that run at once are few).
  struct HandedIds {
    int64_t stage_id = -1;
    int32_t attempt_id = -1;
    uint64_t last_use = 0;
    std::vector<int64_t> ids;
  };
  std::array<HandedIds, 8> handed_ids;
  uint64_t handed_clock = 0;

  // Empties `e.accumulator_ids` when they repeat what was last handed over for its stage attempt.
  void omit_repeated_ids(TaskEnd& e) {
    if (e.accumulator_ids.empty()) return;
    HandedIds* victim = &handed_ids[0];
    ++handed_clock;
    for (HandedIds& entry : handed_ids) {
      if (entry.stage_id == e.stage_id && entry.attempt_id == e.stage_attempt_id) {
        entry.last_use = handed_clock;
        if (entry.ids == e.accumulator_ids) {
          e.accumulator_ids.clear();
        } else {
          entry.ids = e.accumulator_ids;
        }
        return;
      }
      if (entry.last_use < victim->last_use) victim = &entry;
    }
    victim->stage_id = e.stage_id;
    victim->attempt_id = e.stage_attempt_id;
    victim->last_use = handed_clock;
    victim->ids = e.accumulator_ids;
  }

  error_code decode_event(EventKind kind, od::document& doc, EventHandler& handler);
  error_code decode_task_end(od::document& doc, EventHandler& handler);
  error_code decode_task_start(od::document& doc, EventHandler& handler);
  void emit(TaskEnd& e, EventHandler& handler) {
    if (options.omit_repeated_accumulator_ids) omit_repeated_ids(e);
    handler.on(e);
  }

  // The fields of a task event's object by table index, then a check that the line ends there.
  template <size_t N, class F>
  error_code decode_known_fields(od::document& doc, const json::KeyTable<N>& table, F&& on_field) {
    od::object object;
    if (auto error = doc.get_object().get(object)) return error;
    if (auto error = json::for_each_known_field(object, table, on_field)) return error;
    if (!at_end(doc)) return simdjson::TRAILING_CONTENT;
    return SUCCESS;
  }

  template <class Event, class F>
  error_code decode_fields(od::document& doc, Event& event, RequiredList required_keys, F&& on_field) {
    od::object object;
    if (auto error = doc.get_object().get(object)) return error;
    RequiredKeys required(required_keys);
    for (auto field_result : object) {
      od::field field;
      if (auto error = std::move(field_result).get(field)) return error;
      const std::string_view key = json::key_view(field);
      if (key == "Event") continue;
      required.note(key);
      if (auto error = on_field(key, field.value(), event)) return error;
    }
    if (!at_end(doc)) return simdjson::TRAILING_CONTENT;
    if (auto key = required.missing(); !key.empty()) return missing.report(key);
    return SUCCESS;
  }

  // A nested object at `key`: its fields to on_field(key, value), then its required keys checked.
  template <class F>
  error_code read_object(std::string_view key, od::value& value, RequiredList required_keys, F&& on_field) {
    RequiredKeys required(required_keys);
    auto error = for_each_field(value, [&](std::string_view k, od::value& v) -> error_code {
      required.note(k);
      return on_field(k, v);
    });
    if (error) return error;
    if (auto k = required.missing(); !k.empty()) return missing.within(key, missing.report(k));
    return SUCCESS;
  }

  template <class Event, class F>
  error_code decode_and_emit(od::document& doc, EventHandler& handler, RequiredList required, F&& on_field) {
    Event event;
    if (auto error = decode_fields(doc, event, required, on_field)) return error;
    handler.on(event);
    return SUCCESS;
  }
};

std::vector<RequiredField> required_fields() {
  std::vector<RequiredField> fields;
  for (const RequiredObject& object : kRequiredObjects) {
    for (std::string_view key : object.keys) {
      std::string path(object.at);
      if (!path.empty()) path += '/';
      path += key;
      fields.push_back({object.event, std::move(path)});
    }
  }
  return fields;
}

Decoder::Decoder(const DecoderOptions& options) : impl_(std::make_unique<Impl>(options)) {}
Decoder::~Decoder() = default;

namespace {

std::string describe(error_code error) {
  switch (error) {
    case simdjson::TAPE_ERROR:
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
      return "invalid or truncated JSON";
    case simdjson::INCORRECT_TYPE:
      return "a field has the wrong type";
    case simdjson::NUMBER_ERROR:
    case simdjson::NUMBER_OUT_OF_RANGE:
      return "a number is malformed or out of range";
    case simdjson::DEPTH_ERROR:
      return "nesting is too deep";
    case simdjson::UTF8_ERROR:
      return "invalid UTF-8";
    case simdjson::NO_SUCH_FIELD:
      return "a required field is missing";
    case simdjson::TRAILING_CONTENT:
      return "text after the JSON object";
    default:
      return simdjson::error_message(error);
  }
}

constexpr std::string_view kTaskEndPrefix = R"({"Event":"SparkListenerTaskEnd")";
constexpr std::string_view kTaskStartPrefix = R"({"Event":"SparkListenerTaskStart")";

// The parser capacity kept between lines (see Decoder::decode).
constexpr size_t kKeptParserCapacityBytes = size_t{16} << 20;

// The outcome of decoding a modeled event; a required field it lacked is named with its event.
DecodeResult finish_decode(error_code error, std::string_view event_name, const MissingField& missing) {
  if (error == simdjson::NO_SUCH_FIELD && !missing.path.empty()) {
    std::string message(event_name);
    message += " has no \"";
    message += missing.path;
    message += "\" (a required field)";
    return {DecodeOutcome::kMalformed, std::move(message)};
  }
  if (error) return {DecodeOutcome::kMalformed, describe(error)};
  return {DecodeOutcome::kEvent, {}};
}

}  // namespace

DecodeResult Decoder::decode(std::string_view line, EventHandler& handler) {
  line = text::trim(line);
  if (line.empty()) return {DecodeOutcome::kBlank, {}};
  // simdjson keeps the buffers of the longest line it parsed (its string buffer is touched as
  // far as a long escaped string went): after a long line they go back before an ordinary one,
  // rather than stay for the rest of the log.
  if (impl_->parser.capacity() > kKeptParserCapacityBytes && line.size() <= kKeptParserCapacityBytes) [[unlikely]] {
    // Should it fail, the parser is left empty and the next parse allocates what it needs.
    [[maybe_unused]] const error_code released = impl_->parser.allocate(kKeptParserCapacityBytes);
  }
  impl_->cut.clear();

  // Spark writes "Event" first. The task events, nearly every line of a log, are recognized from
  // the line's first bytes and decoded in one pass, without looking "Event" up and rewinding;
  // what the prefix says is exactly what finding "Event" would say (its closing quote follows a
  // letter, so it is not escaped). Whether the line is valid JSON is still simdjson's to say.
  const bool task_end = line.starts_with(kTaskEndPrefix);
  const bool task_start = !task_end && line.starts_with(kTaskStartPrefix);

  od::document doc;
  if (auto error = impl_->parser.iterate(line.data(), line.size(), line.size() + kLinePadding).get(doc)) {
    return {DecodeOutcome::kMalformed, describe(error)};
  }
  impl_->missing.path.clear();
  if (task_end) return finish_decode(impl_->decode_task_end(doc, handler), "SparkListenerTaskEnd", impl_->missing);
  if (task_start) {
    return finish_decode(impl_->decode_task_start(doc, handler), "SparkListenerTaskStart", impl_->missing);
  }

  std::string_view event_name;
  if (auto error = doc.find_field_unordered("Event").get_string().get(event_name)) {
    return {DecodeOutcome::kMalformed,
            error == simdjson::NO_SUCH_FIELD ? "no \"Event\" field" : describe(error)};
  }
  const EventKind kind = classify(event_name);
  if (kind == EventKind::kUnknown) {
    // Walk the rest of the line so a damaged line is counted as malformed, not as an unknown
    // event. Unknown events are rare; the walk costs nothing that matters.
    std::string name = text::cut_text(event_name, kMaxNameBytes);
    doc.rewind();
    std::string_view raw;
    if (auto error = doc.raw_json().get(raw)) return {DecodeOutcome::kMalformed, describe(error)};
    if (!at_end(doc)) return {DecodeOutcome::kMalformed, describe(simdjson::TRAILING_CONTENT)};
    handler.on_unknown_event(name);
    return {DecodeOutcome::kUnknownEvent, {}};
  }
  const std::string name(event_name.substr(event_name.rfind('.') + 1));  // rewinding invalidates the view
  doc.rewind();
  return finish_decode(impl_->decode_event(kind, doc, handler), name, impl_->missing);
}

error_code Decoder::Impl::decode_task_end(od::document& doc, EventHandler& handler) {
  TaskEnd& e = task_end;
  reset(e);
  uint32_t seen = 0;
  auto error = decode_known_fields(doc, kTaskEndKeys, [&](size_t index, od::value& v) -> error_code {
    seen |= uint32_t{1} << index;
    return read_task_end_field(index, v, e, missing, cut, options.task_accumulables);
  });
  if (error) return error;
  if ((seen & kTaskEndRequiredMask) != kTaskEndRequiredMask) {
    return missing.report(first_unseen(kTaskEndKeys, kTaskEndRequired, seen));
  }
  emit(e, handler);
  return SUCCESS;
}

error_code Decoder::Impl::decode_task_start(od::document& doc, EventHandler& handler) {
  TaskStart& e = task_start;
  e = TaskStart{};
  uint32_t seen = 0;
  auto error = decode_known_fields(doc, kTaskStartKeys, [&](size_t index, od::value& v) -> error_code {
    seen |= uint32_t{1} << index;
    return read_task_start_field(index, v, e, missing, cut);
  });
  if (error) return error;
  if ((seen & kTaskStartRequiredMask) != kTaskStartRequiredMask) {
    return missing.report(first_unseen(kTaskStartKeys, kTaskStartRequired, seen));
  }
  handler.on(e);
  return SUCCESS;
}

error_code Decoder::Impl::decode_event(EventKind kind, od::document& doc, EventHandler& handler) {
  using V = od::value;
  switch (kind) {
    case EventKind::kTaskEnd:
      return decode_task_end(doc, handler);
    case EventKind::kTaskStart:
      return decode_task_start(doc, handler);
    case EventKind::kLogStart:
      return decode_and_emit<LogStart>(doc, handler, RequiredList(kLogStartRequired), [](std::string_view key, V& v, LogStart& e) -> error_code {
        if (key == "Spark Version") return read_string(v, e.spark_version, kMaxNameBytes);
        return SUCCESS;
      });
    case EventKind::kDatabricksMetadata:
      return decode_and_emit<DatabricksMetadata>(doc, handler, RequiredList({}), [](std::string_view key, V& v, DatabricksMetadata& e) -> error_code {
            if (key == "Spark Version") return read_string(v, e.spark_version, kMaxNameBytes);
            if (key == "Timestamp") return read_optional_int(v, e.timestamp_ms);
            return SUCCESS;
          });
    case EventKind::kApplicationStart:
      return decode_and_emit<ApplicationStart>(doc, handler, RequiredList(kApplicationStartRequired), [](std::string_view key, V& v, ApplicationStart& e) -> error_code {
            if (key == "App Name") return read_string(v, e.app_name, kMaxNameBytes);
            if (key == "App ID") return read_string(v, e.app_id, kMaxNameBytes);
            if (key == "App Attempt ID") return json::read_optional_string(v, e.attempt_id, kMaxNameBytes);
            if (key == "Timestamp") return read_optional_int(v, e.timestamp_ms);
            if (key == "User") return read_string(v, e.user, kMaxNameBytes);
            if (key == "Driver Logs") return json::read_key_values(v, e.driver_logs, kMaxNameBytes, kMaxTextBytes);
            if (key == "Driver Attributes") return json::read_key_values(v, e.driver_attributes, kMaxNameBytes, kMaxTextBytes);
            return SUCCESS;
          });
    case EventKind::kApplicationEnd:
      return decode_and_emit<ApplicationEnd>(doc, handler, RequiredList(kApplicationEndRequired), [](std::string_view key, V& v, ApplicationEnd& e) -> error_code {
                                               if (key == "Timestamp") return read_optional_int(v, e.timestamp_ms);
                                               if (key == "ExitCode") return read_optional_int(v, e.exit_code);
                                               return SUCCESS;
                                             });
    case EventKind::kEnvironmentUpdate:
      return decode_and_emit<EnvironmentUpdate>(doc, handler, RequiredList(kEnvironmentUpdateRequired), [](std::string_view key, V& v, EnvironmentUpdate& e) -> error_code {
            if (key == "JVM Information") return json::read_key_values(v, e.jvm_information, kMaxNameBytes, kMaxTextBytes);
            if (key == "Spark Properties") return json::read_key_values(v, e.spark_properties, kMaxNameBytes, kMaxTextBytes);
            if (key == "System Properties") return json::read_key_values(v, e.system_properties, kMaxNameBytes, kMaxTextBytes);
            if (key == "Hadoop Properties") return json::read_key_values(v, e.hadoop_properties, kMaxNameBytes, kMaxTextBytes);
            if (key == "Metrics Properties") return json::read_key_values(v, e.metrics_properties, kMaxNameBytes, kMaxTextBytes);
            if (key == "Classpath Entries") return json::read_key_values(v, e.classpath_entries, kMaxNameBytes, kMaxTextBytes);
            return SUCCESS;
          });
    case EventKind::kResourceProfileAdded:
      return decode_and_emit<ResourceProfileAdded>(doc, handler, RequiredList(kResourceProfileAddedRequired), [](std::string_view key, V& v, ResourceProfileAdded& e) -> error_code {
            if (key == "Resource Profile Id") return read_int(v, e.profile.id);
            if (key == "Executor Resource Requests") return read_resource_requests(v, e.profile.executor_resources);
            if (key == "Task Resource Requests") return read_resource_requests(v, e.profile.task_resources);
            return SUCCESS;
          });
    case EventKind::kExecutorAdded:
      return decode_and_emit<ExecutorAdded>(doc, handler, RequiredList(kExecutorAddedRequired), [this](std::string_view key, V& v, ExecutorAdded& e) -> error_code {
        if (key == "Timestamp") return read_optional_int(v, e.timestamp_ms);
        if (key == "Executor ID") return read_string(v, e.executor_id, kMaxNameBytes);
        if (key == "Executor Info") {
          return read_object(key, v, kExecutorInfoRequired, [&](std::string_view k, V& iv) -> error_code {
            if (k == "Host") return read_string(iv, e.host, kMaxNameBytes);
            if (k == "Total Cores") {
              e.has_total_cores = true;
              return read_int(iv, e.total_cores);
            }
            if (k == "Log Urls") return json::read_key_values(iv, e.log_urls, kMaxNameBytes, kMaxTextBytes);
            if (k == "Attributes") return json::read_key_values(iv, e.attributes, kMaxNameBytes, kMaxTextBytes);
            if (k == "Resources") return read_resources(iv, e.resources);
            if (k == "Resource Profile Id") return read_int(iv, e.resource_profile_id);
            return SUCCESS;
          });
        }
        return SUCCESS;
      });
    case EventKind::kExecutorRemoved:
      return decode_and_emit<ExecutorRemoved>(doc, handler, RequiredList(kExecutorRemovedRequired), [](std::string_view key, V& v, ExecutorRemoved& e) -> error_code {
                                                if (key == "Timestamp") return read_optional_int(v, e.timestamp_ms);
                                                if (key == "Executor ID") return read_string(v, e.executor_id, kMaxNameBytes);
                                                if (key == "Removed Reason") return read_string(v, e.reason, kMaxTextBytes);
                                                return SUCCESS;
                                              });
    case EventKind::kBlockManagerAdded:
      return decode_and_emit<BlockManagerAdded>(doc, handler, RequiredList(kBlockManagerAddedRequired), [this](std::string_view key, V& v, BlockManagerAdded& e) -> error_code {
            if (key == "Timestamp") return read_optional_int(v, e.timestamp_ms);
            if (key == "Maximum Memory") return read_int(v, e.max_memory_bytes);
            if (key == "Maximum Onheap Memory") return read_optional_int(v, e.max_onheap_memory_bytes);
            if (key == "Maximum Offheap Memory") return read_optional_int(v, e.max_offheap_memory_bytes);
            if (key == "Block Manager ID") {
              return read_object(key, v, kBlockManagerIdRequired, [&](std::string_view k, V& bv) -> error_code {
                if (k == "Executor ID") return read_string(bv, e.executor_id, kMaxNameBytes);
                if (k == "Host") return read_string(bv, e.host, kMaxNameBytes);
                if (k == "Port") return read_optional_int(bv, e.port);
                return SUCCESS;
              });
            }
            return SUCCESS;
          });
    case EventKind::kBlockManagerRemoved:
      return decode_and_emit<BlockManagerRemoved>(doc, handler, RequiredList(kBlockManagerRemovedRequired), [this](std::string_view key, V& v, BlockManagerRemoved& e) -> error_code {
            if (key == "Timestamp") return read_optional_int(v, e.timestamp_ms);
            if (key == "Block Manager ID") {
              return read_object(key, v, kBlockManagerIdRequired, [&](std::string_view k, V& bv) -> error_code {
                if (k == "Executor ID") return read_string(bv, e.executor_id, kMaxNameBytes);
                return SUCCESS;
              });
            }
            return SUCCESS;
          });
    case EventKind::kJobStart:
      return decode_and_emit<JobStart>(doc, handler, RequiredList(kJobStartRequired), [this](std::string_view key, V& v, JobStart& e) -> error_code {
        if (key == "Job ID") return read_int(v, e.job_id);
        if (key == "Submission Time") return read_optional_int(v, e.submission_time_ms);
        if (key == "Stage IDs") return json::read_int_array(v, e.stage_ids);
        if (key == "Stage Infos") {
          return for_each_element(v, [&](V& element) -> error_code {
            StageInfo info;
            if (auto se = read_stage_info(element, info, missing)) return missing.within("Stage Infos/[]", se);
            e.stage_infos.push_back(std::move(info));
            return SUCCESS;
          });
        }
        if (key == "Properties") return read_properties(v, e.properties);
        return SUCCESS;
      });
    case EventKind::kJobEnd:
      return decode_and_emit<JobEnd>(doc, handler, RequiredList(kJobEndRequired), [this](std::string_view key, V& v, JobEnd& e) -> error_code {
        if (key == "Job ID") return read_int(v, e.job_id);
        if (key == "Completion Time") return read_optional_int(v, e.completion_time_ms);
        if (key == "Job Result") {
          return read_object(key, v, kJobResultRequired, [&](std::string_view k, V& rv) -> error_code {
            if (k == "Result") {
              std::string_view result;
              if (auto re = read_string_view(rv, result)) return re;
              e.succeeded = result == "JobSucceeded";
              return SUCCESS;
            }
            if (k == "Exception") {
              return for_each_field(rv, [&](std::string_view ek, V& ev) -> error_code {
                if (ek == "Message") return read_string(ev, e.failure_message, kMaxTextBytes);
                return SUCCESS;
              });
            }
            return SUCCESS;
          });
        }
        return SUCCESS;
      });
    case EventKind::kStageSubmitted:
      return decode_and_emit<StageSubmitted>(doc, handler, RequiredList(kStageEventRequired), [this](std::string_view key, V& v, StageSubmitted& e) -> error_code {
                                               if (key == "Stage Info") return missing.within(key, read_stage_info(v, e.info, missing));
                                               if (key == "Properties") return read_properties(v, e.properties);
                                               return SUCCESS;
                                             });
    case EventKind::kStageCompleted:
      return decode_and_emit<StageCompleted>(doc, handler, RequiredList(kStageEventRequired), [this](std::string_view key, V& v, StageCompleted& e) -> error_code {
                                               if (key == "Stage Info") return missing.within(key, read_stage_info(v, e.info, missing));
                                               return SUCCESS;
                                             });
    case EventKind::kStageExecutorMetrics:
      return decode_and_emit<StageExecutorMetrics>(doc, handler, RequiredList(kStageExecutorMetricsRequired), [](std::string_view key, V& v, StageExecutorMetrics& e) -> error_code {
            if (key == "Executor ID") return read_string(v, e.executor_id, kMaxNameBytes);
            if (key == "Stage ID") return read_int(v, e.stage_id);
            if (key == "Stage Attempt ID") return read_int(v, e.stage_attempt_id);
            if (key == "Executor Metrics") return read_executor_metrics(v, e.metrics);
            return SUCCESS;
          });
    case EventKind::kMiscellaneousProcessAdded:
      return decode_and_emit<MiscellaneousProcessAdded>(doc, handler, RequiredList(kMiscellaneousProcessRequired), [](std::string_view key, V& v, MiscellaneousProcessAdded& e) -> error_code {
            if (key == "time") return read_optional_int(v, e.timestamp_ms);
            if (key == "processId") return read_string(v, e.process_id, kMaxNameBytes);
            if (key == "info") {
              return for_each_field(v, [&](std::string_view k, V& iv) -> error_code {
                if (k == "hostPort") return read_string(iv, e.host_port, kMaxNameBytes);
                if (k == "cores") return read_int(iv, e.cores);
                if (k == "logUrlInfo") return json::read_key_values(iv, e.log_urls, kMaxNameBytes, kMaxTextBytes);
                return SUCCESS;
              });
            }
            return SUCCESS;
          });
    case EventKind::kUnpersistRdd:
      return decode_and_emit<UnpersistRdd>(doc, handler, RequiredList(kUnpersistRddRequired), [](std::string_view key, V& v, UnpersistRdd& e) -> error_code {
        if (key == "RDD ID") return read_int(v, e.rdd_id);
        return SUCCESS;
      });
    case EventKind::kExecutorExcluded:
    case EventKind::kExecutorExcludedForStage:
    case EventKind::kExecutorUnexcluded:
    case EventKind::kNodeExcluded:
    case EventKind::kNodeExcludedForStage:
    case EventKind::kNodeUnexcluded: {
      ExclusionChange change;
      const bool node = kind == EventKind::kNodeExcluded || kind == EventKind::kNodeExcludedForStage ||
                        kind == EventKind::kNodeUnexcluded;
      change.target = node ? ExclusionChange::Target::kNode : ExclusionChange::Target::kExecutor;
      change.excluded = kind != EventKind::kExecutorUnexcluded && kind != EventKind::kNodeUnexcluded;
      const RequiredList required(node ? kNodeExclusionRequired : kExecutorExclusionRequired);
      auto error = decode_fields(doc, change, required, [](std::string_view key, V& v, ExclusionChange& e) -> error_code {
        if (key == "executorId" || key == "hostId") return read_string(v, e.id, kMaxNameBytes);
        if (key == "stageId") return read_optional_int(v, e.stage_id);
        if (key == "stageAttemptId") return read_optional_int(v, e.stage_attempt_id);
        if (key == "time") return read_optional_int(v, e.timestamp_ms);
        return SUCCESS;
      });
      if (error) return error;
      handler.on(change);
      return SUCCESS;
    }
    case EventKind::kSqlExecutionStart:
      return decode_and_emit<SqlExecutionStart>(doc, handler, RequiredList(kSqlExecutionStartRequired), [this](std::string_view key, V& v, SqlExecutionStart& e) -> error_code {
            if (key == "executionId") return read_int(v, e.execution_id);
            if (key == "rootExecutionId") return read_optional_int(v, e.root_execution_id);
            if (key == "description") return read_string(v, e.description, kMaxTextBytes);
            if (key == "details") return read_string(v, e.details, kMaxTextBytes);
            if (key == "physicalPlanDescription") return read_string(v, e.physical_plan_description, kMaxTextBytes);
            if (key == "sparkPlanInfo") return missing.within(key, read_plan(v, e.plan, missing));
            if (key == "time") return read_optional_int(v, e.time_ms);
            if (key == "modifiedConfigs") return json::read_key_values(v, e.modified_configs, kMaxNameBytes, kMaxTextBytes);
            if (key == "queryId") return json::read_optional_string(v, e.query_id, kMaxNameBytes);
            return SUCCESS;
          });
    case EventKind::kSqlExecutionEnd:
      return decode_and_emit<SqlExecutionEnd>(doc, handler, RequiredList(kSqlExecutionEndRequired), [](std::string_view key, V& v, SqlExecutionEnd& e) -> error_code {
                                                if (key == "executionId") return read_int(v, e.execution_id);
                                                if (key == "time") return read_optional_int(v, e.time_ms);
                                                if (key == "errorMessage") return json::read_optional_string(v, e.error_message, kMaxTextBytes);
                                                return SUCCESS;
                                              });
    case EventKind::kSqlAdaptiveExecutionUpdate:
      return decode_and_emit<SqlAdaptiveExecutionUpdate>(doc, handler, RequiredList(kSqlAdaptiveExecutionUpdateRequired), [this](std::string_view key, V& v, SqlAdaptiveExecutionUpdate& e) -> error_code {
            if (key == "executionId") return read_int(v, e.execution_id);
            if (key == "physicalPlanDescription") return read_string(v, e.physical_plan_description, kMaxTextBytes);
            if (key == "sparkPlanInfo") return missing.within(key, read_plan(v, e.plan, missing));
            return SUCCESS;
          });
    case EventKind::kSqlAdaptiveMetricUpdates:
      return decode_and_emit<SqlAdaptiveMetricUpdates>(doc, handler, RequiredList(kSqlAdaptiveMetricUpdatesRequired), [this](std::string_view key, V& v, SqlAdaptiveMetricUpdates& e) -> error_code {
            if (key == "executionId") return read_int(v, e.execution_id);
            if (key == "sqlPlanMetrics") return missing.within(key, read_plan_metrics(v, e.metrics, missing));
            return SUCCESS;
          });
    case EventKind::kDriverAccumUpdates:
      return decode_and_emit<DriverAccumUpdates>(doc, handler, RequiredList(kDriverAccumUpdatesRequired), [](std::string_view key, V& v, DriverAccumUpdates& e) -> error_code {
            if (key == "executionId") return read_int(v, e.execution_id);
            if (key == "accumUpdates") {
              return for_each_element(v, [&](V& pair) -> error_code {
                std::array<int64_t, 2> values{};
                size_t n = 0;
                auto pe = for_each_element(pair, [&](V& element) -> error_code {
                  if (n >= 2) return simdjson::INCORRECT_TYPE;
                  return read_int(element, values[n++]);
                });
                if (pe) return pe;
                if (n != 2) return simdjson::INCORRECT_TYPE;
                e.updates.emplace_back(values[0], values[1]);
                return SUCCESS;
              });
            }
            return SUCCESS;
          });
    case EventKind::kUnknown:
      break;
  }
  return SUCCESS;
}

}  // namespace sf::eventlog

// The task events, TaskStart and TaskEnd: nearly every line of a log, so their fields are found
// by key table (their position in Spark's fixed order, hinted) rather than compared as text, and
// the events themselves are reused from line to line (DecodeState) so that they allocate nothing
// once warmed up.
#include <array>
#include <utility>

#include "eventlog/event_decoders.h"
#include "eventlog/field_readers.h"

namespace sf::eventlog::decoding {

namespace {

// ------------------------------------------------------------------------------------------
// Task metrics: JSON keys -> task metric slots, for the flat metric objects of "Task Metrics".

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

// ------------------------------------------------------------------------------------------
// Task Info and the reason a task ended

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

constexpr json::KeyTable<17> kTaskEndReasonKeys{
    {"Reason", "Class Name", "Kill Reason", "Loss Reason", "Accumulator Updates", "Job ID", "Partition ID",
     "Attempt Number", "Description", "Full Stack Trace", "Message", "Exit Caused By App", "Block Manager Address",
     "Shuffle ID", "Map ID", "Map Index", "Reduce ID"}};

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

// ------------------------------------------------------------------------------------------
// The events' own objects. "Event" is entry 0 of each table, so the hinted lookup starts in
// step; it was read already.

constexpr json::KeyTable<8> kTaskEndKeys{{"Event", "Stage ID", "Stage Attempt ID", "Task Type", "Task End Reason",
                                          "Task Info", "Task Executor Metrics", "Task Metrics"}};

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

// The fields of a task event's object by table index, then a check that the line ends there.
template <size_t N, class F>
error_code decode_known_fields(od::document& doc, const json::KeyTable<N>& table, F&& on_field) {
  od::object object;
  if (auto error = doc.get_object().get(object)) return error;
  if (auto error = json::for_each_known_field(object, table, on_field)) return error;
  if (!at_end(doc)) return simdjson::TRAILING_CONTENT;
  return SUCCESS;
}

}  // namespace

void HandedAccumulatorIds::omit_repeats(TaskEnd& e) {
  if (e.accumulator_ids.empty()) return;
  Entry* victim = &entries_[0];
  ++clock_;
  for (Entry& entry : entries_) {
    if (entry.stage_id == e.stage_id && entry.attempt_id == e.stage_attempt_id) {
      entry.last_use = clock_;
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
  victim->last_use = clock_;
  victim->ids = e.accumulator_ids;
}

error_code decode_task_end(od::document& doc, DecodeState& state, EventHandler& handler) {
  TaskEnd& e = state.task_end;
  reset(e);
  uint32_t seen = 0;
  auto error = decode_known_fields(doc, kTaskEndKeys, [&](size_t index, od::value& v) -> error_code {
    seen |= uint32_t{1} << index;
    return read_task_end_field(index, v, e, state.missing, state.cut, state.options.task_accumulables);
  });
  if (error) return error;
  if ((seen & kTaskEndRequiredMask) != kTaskEndRequiredMask) {
    return state.missing.report(first_unseen(kTaskEndKeys, kTaskEndRequired, seen));
  }
  if (state.options.omit_repeated_accumulator_ids) state.handed_ids.omit_repeats(e);
  handler.on(e);
  return SUCCESS;
}

error_code decode_task_start(od::document& doc, DecodeState& state, EventHandler& handler) {
  TaskStart& e = state.task_start;
  e = TaskStart{};
  uint32_t seen = 0;
  auto error = decode_known_fields(doc, kTaskStartKeys, [&](size_t index, od::value& v) -> error_code {
    seen |= uint32_t{1} << index;
    return read_task_start_field(index, v, e, state.missing, state.cut);
  });
  if (error) return error;
  if ((seen & kTaskStartRequiredMask) != kTaskStartRequiredMask) {
    return state.missing.report(first_unseen(kTaskStartKeys, kTaskStartRequired, seen));
  }
  handler.on(e);
  return SUCCESS;
}

}  // namespace sf::eventlog::decoding

#include "spark/task_metrics.h"

#include <algorithm>

namespace sf::spark {

std::string_view task_metric_name(TaskMetric metric) {
  switch (metric) {
    case TaskMetric::kDurationMs: return "durationMs";
    case TaskMetric::kExecutorRunTimeMs: return "executorRunTimeMs";
    case TaskMetric::kExecutorCpuTimeNs: return "executorCpuTimeNs";
    case TaskMetric::kExecutorDeserializeTimeMs: return "executorDeserializeTimeMs";
    case TaskMetric::kExecutorDeserializeCpuTimeNs: return "executorDeserializeCpuTimeNs";
    case TaskMetric::kResultSizeBytes: return "resultSizeBytes";
    case TaskMetric::kJvmGcTimeMs: return "jvmGcTimeMs";
    case TaskMetric::kResultSerializationTimeMs: return "resultSerializationTimeMs";
    case TaskMetric::kGettingResultTimeMs: return "gettingResultTimeMs";
    case TaskMetric::kSchedulerDelayMs: return "schedulerDelayMs";
    case TaskMetric::kPeakExecutionMemoryBytes: return "peakExecutionMemoryBytes";
    case TaskMetric::kPeakOnHeapExecutionMemoryBytes: return "peakOnHeapExecutionMemoryBytes";
    case TaskMetric::kPeakOffHeapExecutionMemoryBytes: return "peakOffHeapExecutionMemoryBytes";
    case TaskMetric::kMemoryBytesSpilled: return "memorySpillBytes";
    case TaskMetric::kDiskBytesSpilled: return "diskSpillBytes";
    case TaskMetric::kInputBytes: return "inputBytes";
    case TaskMetric::kInputRecords: return "inputRecords";
    case TaskMetric::kOutputBytes: return "outputBytes";
    case TaskMetric::kOutputRecords: return "outputRecords";
    case TaskMetric::kShuffleRemoteBlocksFetched: return "shuffleRemoteBlocksFetched";
    case TaskMetric::kShuffleLocalBlocksFetched: return "shuffleLocalBlocksFetched";
    case TaskMetric::kShuffleFetchWaitTimeMs: return "shuffleFetchWaitTimeMs";
    case TaskMetric::kShuffleRemoteBytesRead: return "shuffleRemoteReadBytes";
    case TaskMetric::kShuffleRemoteBytesReadToDisk: return "shuffleRemoteReadToDiskBytes";
    case TaskMetric::kShuffleLocalBytesRead: return "shuffleLocalReadBytes";
    case TaskMetric::kShuffleRecordsRead: return "shuffleReadRecords";
    case TaskMetric::kShuffleRemoteReqsDurationMs: return "shuffleRemoteReqsDurationMs";
    case TaskMetric::kShuffleWriteBytes: return "shuffleWriteBytes";
    case TaskMetric::kShuffleWriteRecords: return "shuffleWriteRecords";
    case TaskMetric::kShuffleWriteTimeNs: return "shuffleWriteTimeNs";
    case TaskMetric::kPushCorruptMergedBlockChunks: return "pushCorruptMergedBlockChunks";
    case TaskMetric::kPushMergedFetchFallbackCount: return "pushMergedFetchFallbackCount";
    case TaskMetric::kPushMergedRemoteBlocksFetched: return "pushMergedRemoteBlocksFetched";
    case TaskMetric::kPushMergedLocalBlocksFetched: return "pushMergedLocalBlocksFetched";
    case TaskMetric::kPushMergedRemoteChunksFetched: return "pushMergedRemoteChunksFetched";
    case TaskMetric::kPushMergedLocalChunksFetched: return "pushMergedLocalChunksFetched";
    case TaskMetric::kPushMergedRemoteBytesRead: return "pushMergedRemoteReadBytes";
    case TaskMetric::kPushMergedLocalBytesRead: return "pushMergedLocalReadBytes";
    case TaskMetric::kPushMergedRemoteReqsDurationMs: return "pushMergedRemoteReqsDurationMs";
    case TaskMetric::kCount: break;
  }
  return "unknown";
}

std::string_view quantile_metric_name(QuantileMetric metric) {
  switch (metric) {
    case QuantileMetric::kDurationMs: return "durationMs";
    case QuantileMetric::kExecutorRunTimeMs: return "executorRunTimeMs";
    case QuantileMetric::kExecutorCpuTimeNs: return "executorCpuTimeNs";
    case QuantileMetric::kExecutorDeserializeTimeMs: return "executorDeserializeTimeMs";
    case QuantileMetric::kJvmGcTimeMs: return "jvmGcTimeMs";
    case QuantileMetric::kResultSerializationTimeMs: return "resultSerializationTimeMs";
    case QuantileMetric::kGettingResultTimeMs: return "gettingResultTimeMs";
    case QuantileMetric::kSchedulerDelayMs: return "schedulerDelayMs";
    case QuantileMetric::kPeakExecutionMemoryBytes: return "peakExecutionMemoryBytes";
    case QuantileMetric::kResultSizeBytes: return "resultSizeBytes";
    case QuantileMetric::kInputBytes: return "inputBytes";
    case QuantileMetric::kInputRecords: return "inputRecords";
    case QuantileMetric::kOutputBytes: return "outputBytes";
    case QuantileMetric::kOutputRecords: return "outputRecords";
    case QuantileMetric::kShuffleReadBytes: return "shuffleReadBytes";
    case QuantileMetric::kShuffleReadRecords: return "shuffleReadRecords";
    case QuantileMetric::kShuffleRemoteBytesRead: return "shuffleRemoteReadBytes";
    case QuantileMetric::kShuffleFetchWaitTimeMs: return "shuffleFetchWaitTimeMs";
    case QuantileMetric::kShuffleWriteBytes: return "shuffleWriteBytes";
    case QuantileMetric::kShuffleWriteRecords: return "shuffleWriteRecords";
    case QuantileMetric::kShuffleWriteTimeNs: return "shuffleWriteTimeNs";
    case QuantileMetric::kMemoryBytesSpilled: return "memorySpillBytes";
    case QuantileMetric::kDiskBytesSpilled: return "diskSpillBytes";
    case QuantileMetric::kCount: break;
  }
  return "unknown";
}

int64_t quantile_metric_value(QuantileMetric metric, const TaskMetricValues& v) {
  auto at = [&v](TaskMetric m) { return v[index_of(m)]; };
  switch (metric) {
    case QuantileMetric::kDurationMs: return at(TaskMetric::kDurationMs);
    case QuantileMetric::kExecutorRunTimeMs: return at(TaskMetric::kExecutorRunTimeMs);
    case QuantileMetric::kExecutorCpuTimeNs: return at(TaskMetric::kExecutorCpuTimeNs);
    case QuantileMetric::kExecutorDeserializeTimeMs: return at(TaskMetric::kExecutorDeserializeTimeMs);
    case QuantileMetric::kJvmGcTimeMs: return at(TaskMetric::kJvmGcTimeMs);
    case QuantileMetric::kResultSerializationTimeMs: return at(TaskMetric::kResultSerializationTimeMs);
    case QuantileMetric::kGettingResultTimeMs: return at(TaskMetric::kGettingResultTimeMs);
    case QuantileMetric::kSchedulerDelayMs: return at(TaskMetric::kSchedulerDelayMs);
    case QuantileMetric::kPeakExecutionMemoryBytes: return at(TaskMetric::kPeakExecutionMemoryBytes);
    case QuantileMetric::kResultSizeBytes: return at(TaskMetric::kResultSizeBytes);
    case QuantileMetric::kInputBytes: return at(TaskMetric::kInputBytes);
    case QuantileMetric::kInputRecords: return at(TaskMetric::kInputRecords);
    case QuantileMetric::kOutputBytes: return at(TaskMetric::kOutputBytes);
    case QuantileMetric::kOutputRecords: return at(TaskMetric::kOutputRecords);
    case QuantileMetric::kShuffleReadBytes:
      return at(TaskMetric::kShuffleLocalBytesRead) + at(TaskMetric::kShuffleRemoteBytesRead);
    case QuantileMetric::kShuffleReadRecords: return at(TaskMetric::kShuffleRecordsRead);
    case QuantileMetric::kShuffleRemoteBytesRead: return at(TaskMetric::kShuffleRemoteBytesRead);
    case QuantileMetric::kShuffleFetchWaitTimeMs: return at(TaskMetric::kShuffleFetchWaitTimeMs);
    case QuantileMetric::kShuffleWriteBytes: return at(TaskMetric::kShuffleWriteBytes);
    case QuantileMetric::kShuffleWriteRecords: return at(TaskMetric::kShuffleWriteRecords);
    case QuantileMetric::kShuffleWriteTimeNs: return at(TaskMetric::kShuffleWriteTimeNs);
    case QuantileMetric::kMemoryBytesSpilled: return at(TaskMetric::kMemoryBytesSpilled);
    case QuantileMetric::kDiskBytesSpilled: return at(TaskMetric::kDiskBytesSpilled);
    case QuantileMetric::kCount: break;
  }
  return 0;
}

std::string_view executor_metric_name(ExecutorMetric metric) {
  switch (metric) {
    case ExecutorMetric::kJvmHeapMemory: return "JVMHeapMemory";
    case ExecutorMetric::kJvmOffHeapMemory: return "JVMOffHeapMemory";
    case ExecutorMetric::kOnHeapExecutionMemory: return "OnHeapExecutionMemory";
    case ExecutorMetric::kOffHeapExecutionMemory: return "OffHeapExecutionMemory";
    case ExecutorMetric::kOnHeapStorageMemory: return "OnHeapStorageMemory";
    case ExecutorMetric::kOffHeapStorageMemory: return "OffHeapStorageMemory";
    case ExecutorMetric::kOnHeapUnifiedMemory: return "OnHeapUnifiedMemory";
    case ExecutorMetric::kOffHeapUnifiedMemory: return "OffHeapUnifiedMemory";
    case ExecutorMetric::kDirectPoolMemory: return "DirectPoolMemory";
    case ExecutorMetric::kMappedPoolMemory: return "MappedPoolMemory";
    case ExecutorMetric::kProcessTreeJvmVMemory: return "ProcessTreeJVMVMemory";
    case ExecutorMetric::kProcessTreeJvmRssMemory: return "ProcessTreeJVMRSSMemory";
    case ExecutorMetric::kProcessTreePythonVMemory: return "ProcessTreePythonVMemory";
    case ExecutorMetric::kProcessTreePythonRssMemory: return "ProcessTreePythonRSSMemory";
    case ExecutorMetric::kProcessTreeOtherVMemory: return "ProcessTreeOtherVMemory";
    case ExecutorMetric::kProcessTreeOtherRssMemory: return "ProcessTreeOtherRSSMemory";
    case ExecutorMetric::kMinorGcCount: return "MinorGCCount";
    case ExecutorMetric::kMinorGcTime: return "MinorGCTime";
    case ExecutorMetric::kMajorGcCount: return "MajorGCCount";
    case ExecutorMetric::kMajorGcTime: return "MajorGCTime";
    case ExecutorMetric::kTotalGcTime: return "TotalGCTime";
    case ExecutorMetric::kConcurrentGcCount: return "ConcurrentGCCount";
    case ExecutorMetric::kConcurrentGcTime: return "ConcurrentGCTime";
    case ExecutorMetric::kCount: break;
  }
  return "unknown";
}

void ExecutorMetricPeaks::merge(const ExecutorMetricPeaks& other) {
  if (!other.present) return;
  present = true;
  for (size_t i = 0; i < kExecutorMetricCount; ++i) values[i] = std::max(values[i], other.values[i]);
}

void fill_task_info_timings(TaskMetricValues& metrics, int64_t launch_time_ms, int64_t finish_time_ms,
                            int64_t getting_result_start_ms, bool has_metrics) {
  const int64_t duration_ms = finish_time_ms > 0 ? std::max<int64_t>(0, finish_time_ms - launch_time_ms) : 0;
  metrics[index_of(TaskMetric::kDurationMs)] = duration_ms;
  const int64_t getting_result_ms = getting_result_start_ms > 0 && finish_time_ms > 0
                                        ? std::max<int64_t>(0, finish_time_ms - getting_result_start_ms)
                                        : 0;
  metrics[index_of(TaskMetric::kGettingResultTimeMs)] = getting_result_ms;
  if (has_metrics) {
    metrics[index_of(TaskMetric::kSchedulerDelayMs)] =
        std::max<int64_t>(0, duration_ms - metrics[index_of(TaskMetric::kExecutorRunTimeMs)] -
                                 metrics[index_of(TaskMetric::kExecutorDeserializeTimeMs)] -
                                 metrics[index_of(TaskMetric::kResultSerializationTimeMs)] - getting_result_ms);
  }
}

}  // namespace sf::spark

// The task metrics Spark reports per task attempt, as one fixed-size array.
//
// Every metric of a SparkListenerTaskEnd's "Task Metrics" (and the timing fields of its
// "Task Info") has a slot here, so a task's metrics are one flat array of int64 and the per-stage
// sums are an array of the same shape: no map, no allocation per task. Units are in the names.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sf::spark {

enum class TaskMetric : uint8_t {
  kDurationMs,  // Task Info: Finish Time - Launch Time
  kExecutorRunTimeMs,
  kExecutorCpuTimeNs,
  kExecutorDeserializeTimeMs,
  kExecutorDeserializeCpuTimeNs,
  kResultSizeBytes,
  kJvmGcTimeMs,
  kResultSerializationTimeMs,
  kGettingResultTimeMs,  // Task Info: Finish Time - Getting Result Time, when fetched
  kSchedulerDelayMs,     // duration - run - deserialize - serialize - getting result, >= 0
  kPeakExecutionMemoryBytes,
  kPeakOnHeapExecutionMemoryBytes,
  kPeakOffHeapExecutionMemoryBytes,
  kMemoryBytesSpilled,
  kDiskBytesSpilled,
  kInputBytes,
  kInputRecords,
  kOutputBytes,
  kOutputRecords,
  kShuffleRemoteBlocksFetched,
  kShuffleLocalBlocksFetched,
  kShuffleFetchWaitTimeMs,
  kShuffleRemoteBytesRead,
  kShuffleRemoteBytesReadToDisk,
  kShuffleLocalBytesRead,
  kShuffleRecordsRead,
  kShuffleRemoteReqsDurationMs,
  kShuffleWriteBytes,
  kShuffleWriteRecords,
  kShuffleWriteTimeNs,
  // Push-based shuffle ("Push Based Shuffle" in Spark 3.2, "Shuffle Push Read Metrics" later).
  kPushCorruptMergedBlockChunks,
  kPushMergedFetchFallbackCount,
  kPushMergedRemoteBlocksFetched,
  kPushMergedLocalBlocksFetched,
  kPushMergedRemoteChunksFetched,
  kPushMergedLocalChunksFetched,
  kPushMergedRemoteBytesRead,
  kPushMergedLocalBytesRead,
  kPushMergedRemoteReqsDurationMs,
  kCount
};

inline constexpr size_t kTaskMetricCount = static_cast<size_t>(TaskMetric::kCount);
using TaskMetricValues = std::array<int64_t, kTaskMetricCount>;

constexpr size_t index_of(TaskMetric m) { return static_cast<size_t>(m); }

// camelCase name with its unit, as it appears in the JSON documents ("executorRunTimeMs").
std::string_view task_metric_name(TaskMetric metric);

// The metrics whose distribution over a stage's successful tasks is kept exactly
// (min, p5, p25, p50, p75, p95, max). Derived sums (shuffle read bytes = local + remote) are
// their own entries.
enum class QuantileMetric : uint8_t {
  kDurationMs,
  kExecutorRunTimeMs,
  kExecutorCpuTimeNs,
  kExecutorDeserializeTimeMs,
  kJvmGcTimeMs,
  kResultSerializationTimeMs,
  kGettingResultTimeMs,
  kSchedulerDelayMs,
  kPeakExecutionMemoryBytes,
  kResultSizeBytes,
  kInputBytes,
  kInputRecords,
  kOutputBytes,
  kOutputRecords,
  kShuffleReadBytes,  // local + remote
  kShuffleReadRecords,
  kShuffleRemoteBytesRead,
  kShuffleFetchWaitTimeMs,
  kShuffleWriteBytes,
  kShuffleWriteRecords,
  kShuffleWriteTimeNs,
  kMemoryBytesSpilled,
  kDiskBytesSpilled,
  kCount
};

inline constexpr size_t kQuantileMetricCount = static_cast<size_t>(QuantileMetric::kCount);
constexpr size_t index_of(QuantileMetric m) { return static_cast<size_t>(m); }

std::string_view quantile_metric_name(QuantileMetric metric);

// Fills the slots Spark derives from a task's Task Info rather than its metrics, as the History
// Server does: duration (finish - launch), getting result time (finish - fetch start, when the
// result was fetched) and, when the task reported metrics, scheduler delay (duration - run -
// deserialize - serialize - getting result, at least 0). A finish time of 0 means unfinished.
void fill_task_info_timings(TaskMetricValues& metrics, int64_t launch_time_ms, int64_t finish_time_ms,
                            int64_t getting_result_start_ms, bool has_metrics);

// The value of a quantile metric for one task, from its task metrics.
int64_t quantile_metric_value(QuantileMetric metric, const TaskMetricValues& values);

// Executor memory and GC metrics ("Task Executor Metrics", "Executor Metrics" of
// SparkListenerStageExecutorMetrics), kept as peaks.
enum class ExecutorMetric : uint8_t {
  kJvmHeapMemory,
  kJvmOffHeapMemory,
  kOnHeapExecutionMemory,
  kOffHeapExecutionMemory,
  kOnHeapStorageMemory,
  kOffHeapStorageMemory,
  kOnHeapUnifiedMemory,
  kOffHeapUnifiedMemory,
  kDirectPoolMemory,
  kMappedPoolMemory,
  kProcessTreeJvmVMemory,
  kProcessTreeJvmRssMemory,
  kProcessTreePythonVMemory,
  kProcessTreePythonRssMemory,
  kProcessTreeOtherVMemory,
  kProcessTreeOtherRssMemory,
  kMinorGcCount,
  kMinorGcTime,
  kMajorGcCount,
  kMajorGcTime,
  kTotalGcTime,
  kConcurrentGcCount,
  kConcurrentGcTime,
  kCount
};

inline constexpr size_t kExecutorMetricCount = static_cast<size_t>(ExecutorMetric::kCount);
constexpr size_t index_of(ExecutorMetric m) { return static_cast<size_t>(m); }

// Spark's own name of the metric ("JVMHeapMemory"), used both in logs and in Spark's REST API.
std::string_view executor_metric_name(ExecutorMetric metric);

// Peak values of the executor metrics; `present` is false until any sample was seen, and a
// metric a Spark version does not report stays 0.
struct ExecutorMetricPeaks {
  bool present = false;
  std::array<int64_t, kExecutorMetricCount> values{};

  void merge(const ExecutorMetricPeaks& other);
};

}  // namespace sf::spark

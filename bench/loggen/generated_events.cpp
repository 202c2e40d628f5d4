#include "loggen/generated_events.h"

namespace sf::loggen {

using spark::TaskMetric;

// Spark 3.5's TaskMetrics accumulators in registration order (InternalAccumulator names).
const std::array<InternalAccumulator, kInternalAccumulatorCount> kInternalAccumulators = {{
    {"internal.metrics.executorDeserializeTime", TaskMetric::kExecutorDeserializeTimeMs},
    {"internal.metrics.executorDeserializeCpuTime", TaskMetric::kExecutorDeserializeCpuTimeNs},
    {"internal.metrics.executorRunTime", TaskMetric::kExecutorRunTimeMs},
    {"internal.metrics.executorCpuTime", TaskMetric::kExecutorCpuTimeNs},
    {"internal.metrics.resultSize", TaskMetric::kResultSizeBytes},
    {"internal.metrics.jvmGCTime", TaskMetric::kJvmGcTimeMs},
    {"internal.metrics.resultSerializationTime", TaskMetric::kResultSerializationTimeMs},
    {"internal.metrics.memoryBytesSpilled", TaskMetric::kMemoryBytesSpilled},
    {"internal.metrics.diskBytesSpilled", TaskMetric::kDiskBytesSpilled},
    {"internal.metrics.peakExecutionMemory", TaskMetric::kPeakExecutionMemoryBytes},
    {"internal.metrics.updatedBlockStatuses", TaskMetric::kCount},
    {"internal.metrics.shuffle.read.remoteBlocksFetched", TaskMetric::kShuffleRemoteBlocksFetched},
    {"internal.metrics.shuffle.read.localBlocksFetched", TaskMetric::kShuffleLocalBlocksFetched},
    {"internal.metrics.shuffle.read.remoteBytesRead", TaskMetric::kShuffleRemoteBytesRead},
    {"internal.metrics.shuffle.read.remoteBytesReadToDisk", TaskMetric::kShuffleRemoteBytesReadToDisk},
    {"internal.metrics.shuffle.read.localBytesRead", TaskMetric::kShuffleLocalBytesRead},
    {"internal.metrics.shuffle.read.fetchWaitTime", TaskMetric::kShuffleFetchWaitTimeMs},
    {"internal.metrics.shuffle.read.recordsRead", TaskMetric::kShuffleRecordsRead},
    {"internal.metrics.shuffle.read.remoteReqsDuration", TaskMetric::kShuffleRemoteReqsDurationMs},
    {"internal.metrics.shuffle.push.read.corruptMergedBlockChunks", TaskMetric::kPushCorruptMergedBlockChunks},
    {"internal.metrics.shuffle.push.read.mergedFetchFallbackCount", TaskMetric::kPushMergedFetchFallbackCount},
    {"internal.metrics.shuffle.push.read.remoteMergedBlocksFetched", TaskMetric::kPushMergedRemoteBlocksFetched},
    {"internal.metrics.shuffle.push.read.localMergedBlocksFetched", TaskMetric::kPushMergedLocalBlocksFetched},
    {"internal.metrics.shuffle.push.read.remoteMergedChunksFetched", TaskMetric::kPushMergedRemoteChunksFetched},
    {"internal.metrics.shuffle.push.read.localMergedChunksFetched", TaskMetric::kPushMergedLocalChunksFetched},
    {"internal.metrics.shuffle.push.read.remoteMergedBytesRead", TaskMetric::kPushMergedRemoteBytesRead},
    {"internal.metrics.shuffle.push.read.localMergedBytesRead", TaskMetric::kPushMergedLocalBytesRead},
    {"internal.metrics.shuffle.push.read.remoteMergedReqsDuration", TaskMetric::kPushMergedRemoteReqsDurationMs},
    {"internal.metrics.shuffle.write.bytesWritten", TaskMetric::kShuffleWriteBytes},
    {"internal.metrics.shuffle.write.recordsWritten", TaskMetric::kShuffleWriteRecords},
    {"internal.metrics.shuffle.write.writeTime", TaskMetric::kShuffleWriteTimeNs},
    {"internal.metrics.input.bytesRead", TaskMetric::kInputBytes},
    {"internal.metrics.input.recordsRead", TaskMetric::kInputRecords},
    {"internal.metrics.output.bytesWritten", TaskMetric::kOutputBytes},
    {"internal.metrics.output.recordsWritten", TaskMetric::kOutputRecords},
}};

}  // namespace sf::loggen

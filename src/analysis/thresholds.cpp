#include "analysis/thresholds.h"

#include <array>


namespace sf::analysis {

namespace {

using T = Thresholds;

// clang-format off
const std::array kRegistry = {
    ThresholdInfo{"impact.shuffleThroughputBytesPerSec", "bytes/s", "network rate a shuffle read is modeled at (1 Gbit/s)", &T::shuffle_throughput_bps},
    ThresholdInfo{"impact.spillIoThroughputBytesPerSec", "bytes/s", "rate a byte spilled to disk is written and read back at", &T::spill_io_throughput_bps},
    ThresholdInfo{"impact.broadcastBandwidthBytesPerSec", "bytes/s", "rate a broadcast is collected and sent at", &T::broadcast_bandwidth_bps},
    ThresholdInfo{"impact.reReadThroughputBytesPerSec", "bytes/s", "rate re-reading uncached input is modeled at", &T::re_read_throughput_bps},
    ThresholdInfo{"impact.fileOpenOverheadMs", "ms", "cost of opening one more file in a scan", &T::file_open_overhead_ms},
    ThresholdInfo{"impact.taskOverheadMs", "ms", "the most a task's scheduling, launch and result handling is taken to cost in a stage of at most two tasks a core, whose tasks were mostly their core's first (measured below it, and in stages of more waves)", &T::task_overhead_ms},
    ThresholdInfo{"impact.networkFetchPenaltyMs", "ms", "extra core time of a task run away from its data", &T::network_fetch_penalty_ms},
    ThresholdInfo{"impact.executorStartupOverheadMs", "ms", "core time an executor spends starting up", &T::executor_startup_overhead_ms},
    ThresholdInfo{"impact.serialGate", "fraction", "gate at which a stage counts as having run alone", &T::serial_gate},
    ThresholdInfo{"impact.regressionGuardGate", "fraction", "gate past which a real waste must show wall-clock", &T::regression_guard_gate},
    ThresholdInfo{"band.criticalShare", "fraction", "recoverable share of the app wall-clock for the critical band", &T::band_critical_share},
    ThresholdInfo{"band.highShare", "fraction", "recoverable share of the app wall-clock for the high band", &T::band_high_share},
    ThresholdInfo{"band.mediumShare", "fraction", "recoverable share of the app wall-clock for the medium band", &T::band_medium_share},
    ThresholdInfo{"confidence.mediumMargin", "ratio", "value at 1.5x its threshold: medium", &T::confidence_medium_margin},
    ThresholdInfo{"confidence.highMargin", "ratio", "at 3x: high", &T::confidence_high_margin},
    ThresholdInfo{"stage.minDurationMs", "ms", "shorter stages are below every stage time detector", &T::stage_min_duration_ms},
    ThresholdInfo{"significance.appShare", "fraction", "a time under a detector's absolute floor still matters at this share of the application", &T::significance_app_share},
    ThresholdInfo{"significance.minMs", "ms", "never below this", &T::significance_min_ms},
    ThresholdInfo{"significance.minCoreHours", "coreHours", "a cost-only finding of less core time is not reported", &T::significance_min_core_hours},
    ThresholdInfo{"significance.minGiBHours", "gibHours", "a cost-only finding of less memory time is not reported", &T::significance_min_gib_hours},
    ThresholdInfo{"rollup.fixFirstMinShare", "fraction", "recoverable share of the app a group needs to be offered as fix first (and significance.minMs)", &T::fix_first_min_share},
    ThresholdInfo{"retryWaste.minWasteMs", "ms", "floor: failed-attempt time, as wall-clock, below which it is noise", &T::retry_min_waste_ms},
    ThresholdInfo{"retryWaste.minFailedShare", "fraction", "failed attempts' share of the stage's task time", &T::retry_min_failed_share},
    ThresholdInfo{"retryWaste.minAppShare", "fraction", "that wall-clock's share of the application's", &T::retry_min_app_share},
    ThresholdInfo{"speculationWaste.minWasteMs", "ms", "floor: wall-clock the losing attempts cost work waiting for their slots (or significant for a short app)", &T::speculation_min_waste_ms},
    ThresholdInfo{"speculationWaste.minKilledShare", "fraction", "killed attempts' share of the stage's task time", &T::speculation_min_killed_share},
    ThresholdInfo{"coldStart.minGapMs", "ms", "application start to first task launch", &T::cold_start_min_gap_ms},
    ThresholdInfo{"coldStart.minShare", "fraction", "of the application's wall-clock", &T::cold_start_min_share},
    ThresholdInfo{"driverTime.minShare", "fraction", "time after the first job with no job or SQL execution running (the driver's own code), of the app", &T::driver_time_min_share},
    ThresholdInfo{"driverTime.minMs", "ms", "and at least this (or significant for a short app)", &T::driver_time_min_ms},
    ThresholdInfo{"gc.warnRatio", "ratio", "GC time / executor run time (Spark's UI flags >10%)", &T::gc_warn_ratio},
    ThresholdInfo{"gc.minRunTimeMs", "ms", "stage executor run time below which GC is noise", &T::gc_min_run_time_ms},
    ThresholdInfo{"skew.minTasks", "count", "successful tasks needed to speak of a distribution", &T::skew_min_tasks},
    ThresholdInfo{"skew.maxToMedianRatio", "ratio", "longest task vs the median", &T::skew_max_to_median_ratio},
    ThresholdInfo{"skew.p95ToMedianRatio", "ratio", "p95 task vs the median", &T::skew_p95_to_median_ratio},
    ThresholdInfo{"skew.minExcessMs", "ms", "longest (or p95) minus median, at least", &T::skew_min_excess_ms},
    ThresholdInfo{"skew.bytesMaxToMedianRatio", "ratio", "largest partition vs the median (shuffle read, input)", &T::skew_bytes_max_to_median_ratio},
    ThresholdInfo{"skew.minBytesExcess", "bytes", "256 MiB more than the median partition", &T::skew_min_bytes_excess},
    ThresholdInfo{"straggler.maxToMedianRatio", "ratio", "longest task vs the median", &T::straggler_max_to_median_ratio},
    ThresholdInfo{"straggler.minExcessMs", "ms", "longest minus median, at least", &T::straggler_min_excess_ms},
    ThresholdInfo{"straggler.lostCopyToMedianRatio", "ratio", "a losing speculative copy's run vs the median: past it the outliers are slow on any host", &T::straggler_lost_copy_to_median_ratio},
    ThresholdInfo{"stageShape.lowParallelismTaskRatio", "ratio", "tasks below this share of the cores", &T::low_parallelism_task_ratio},
    ThresholdInfo{"stageShape.minDurationMs", "ms", "stages shorter than this are not shape-checked", &T::shape_min_duration_ms},
    ThresholdInfo{"stageShape.lastWaveMinShare", "fraction", "the stage's time past its task time spread over its cores, of its duration", &T::last_wave_min_share},
    ThresholdInfo{"stageShape.dataExplosionRatio", "ratio", "output / input", &T::data_explosion_ratio},
    ThresholdInfo{"stageShape.dataExplosionMinOutputBytes", "bytes", "1 GiB", &T::data_explosion_min_output_bytes},
    ThresholdInfo{"stageShape.taskStageSkewRatio", "ratio", "one task's share of the stage's wall-clock", &T::task_stage_skew_ratio},
    ThresholdInfo{"stageShape.taskStageSkewMinExcessMs", "ms", "longest task past the median, at least", &T::task_stage_skew_min_excess_ms},
    ThresholdInfo{"slowHost.meanRatio", "ratio", "host's mean task time vs the median of host means", &T::slow_host_mean_ratio},
    ThresholdInfo{"slowHost.durationShareRatio", "ratio", "host's share of task time vs its share of tasks", &T::slow_host_duration_share_ratio},
    ThresholdInfo{"slowHost.bytesRatio", "ratio", "host's bytes per task vs the other hosts'", &T::slow_host_bytes_ratio},
    ThresholdInfo{"slowHost.minTasks", "count", "successful tasks a host needs to be judged", &T::slow_host_min_tasks},
    ThresholdInfo{"slowHost.minHosts", "count", "hosts a stage needs for a comparison", &T::slow_host_min_hosts},
    ThresholdInfo{"slowHost.minExcessMs", "ms", "host mean minus stage median, at least", &T::slow_host_min_excess_ms},
    ThresholdInfo{"slowHost.minBytesExcess", "bytes", "bytes a host read past its share, at least", &T::slow_host_min_bytes_excess},
    ThresholdInfo{"duplicatePlanSubtree.minNodes", "count", "nodes a repeated subtree needs to matter", &T::duplicate_min_nodes},
    ThresholdInfo{"shuffle.minReadBytes", "bytes", "1 GiB read by the stage", &T::shuffle_min_read_bytes},
    ThresholdInfo{"shuffle.minMeasuredShare", "fraction", "fetch wait + shuffle write time vs the tasks' run time", &T::shuffle_min_measured_share},
    ThresholdInfo{"spill.minDiskBytes", "bytes", "256 MiB spilled to disk by the stage", &T::spill_min_disk_bytes},
    ThresholdInfo{"spill.unreportedDiskShare", "fraction", "disk bytes per memory byte spilled, modeled where Spark before 2.3 did not report them", &T::spill_unreported_disk_share},
    ThresholdInfo{"stageSlowness.infoMinMs", "ms", "a stage longer than 5 minutes", &T::stage_slowness_info_min_ms},
    ThresholdInfo{"stageSlowness.minAppShare", "fraction", "and a quarter of the application", &T::stage_slowness_min_app_share},
    ThresholdInfo{"partitionSizing.maxBytes", "bytes", "one task's shuffle read or input: 1 GiB is too big", &T::partition_max_bytes},
    ThresholdInfo{"partitionSizing.targetBytes", "bytes", "what a partition should hold: 128 MiB", &T::partition_target_bytes},
    ThresholdInfo{"partitionSizing.skewRatio", "ratio", "largest partition vs the median", &T::partition_skew_ratio},
    ThresholdInfo{"partitionSizing.minShuffleBytes", "bytes", "stage shuffle read for lowShuffleParallelism", &T::partition_min_shuffle_bytes},
    ThresholdInfo{"partitionSizing.lowParallelismFactor", "ratio", "average bytes per task past factor x target", &T::partition_low_parallelism_factor},
    ThresholdInfo{"partitionSizing.minSkewExcessBytes", "bytes", "largest partition past the median, at least", &T::partition_min_skew_excess_bytes},
    ThresholdInfo{"tinyTask.maxMedianMs", "ms", "median task shorter than this", &T::tiny_task_max_median_ms},
    ThresholdInfo{"tinyTask.minTasks", "count", "with at least this many tasks", &T::tiny_task_min_tasks},
    ThresholdInfo{"smallFiles.maxAvgBytes", "bytes", "32 MiB average file", &T::small_files_max_avg_bytes},
    ThresholdInfo{"smallFiles.minFiles", "count", "files read by one scan", &T::small_files_min_files},
    ThresholdInfo{"smallFiles.targetBytes", "bytes", "128 MiB: what a file should hold", &T::small_files_target_bytes},
    ThresholdInfo{"broadcast.overMaxBytes", "bytes", "a broadcast past 512 MiB", &T::broadcast_over_max_bytes},
    ThresholdInfo{"broadcast.underMaxBytes", "bytes", "a sort-merge side under 100 MiB could broadcast", &T::broadcast_under_max_bytes},
    ThresholdInfo{"pythonUdf.minOutsideShare", "fraction", "task time in Python workers / run time of the stages that ran the UDF", &T::python_udf_min_outside_share},
    ThresholdInfo{"pythonUdf.minOutsideMs", "ms", "task time in Python workers, at least", &T::python_udf_min_outside_ms},
    ThresholdInfo{"pythonUdf.arrowSavingShare", "fraction", "modeled share of a pickled UDF's Python time that Arrow batches save, when the log does not split that time", &T::python_udf_arrow_saving_share},
    ThresholdInfo{"memoryUtilization.overProvisionedRatio", "ratio", "peak heap used / heap size at or below", &T::memory_over_provisioned_ratio},
    ThresholdInfo{"memoryUtilization.nearCapacityRatio", "ratio", "peak heap used / heap size at or above", &T::memory_near_capacity_ratio},
    ThresholdInfo{"memoryUtilization.minAppDurationMs", "ms", "apps shorter than 5 minutes are not judged", &T::memory_min_app_duration_ms},
    ThresholdInfo{"memoryUtilization.wasteModelMaxUsedShare", "fraction", "lifetime-weighted used share of heap at or below", &T::memory_waste_model_max_used_share},
    ThresholdInfo{"utilization.minFraction", "fraction", "busy share of the peak cores over the app", &T::utilization_min_fraction},
    ThresholdInfo{"utilization.minAppDurationMs", "ms", "apps shorter than this are not judged", &T::utilization_min_app_duration_ms},
    ThresholdInfo{"coreLocality.minNonLocalShare", "fraction", "RACK_LOCAL and ANY tasks of all tasks", &T::locality_min_non_local_share},
    ThresholdInfo{"coreLocality.minNonLocalTasks", "count", "non-local tasks needed before locality matters", &T::locality_min_non_local_tasks},
    ThresholdInfo{"autoscalingChurn.maxLifetimeMs", "ms", "executors that lived less than 2 minutes", &T::churn_max_lifetime_ms},
    ThresholdInfo{"autoscalingChurn.minShortLived", "count", "at least this many of them", &T::churn_min_short_lived},
    ThresholdInfo{"whatIf.maxReplayError", "fraction", "a replay of the run (the log's ramp; today's size) off the measured wall-clock by at most this share", &T::what_if_max_replay_error},
    ThresholdInfo{"allocationRamp.minGainMs", "ms", "wall-clock Spark's default ramp would win, at least", &T::ramp_min_gain_ms},
    ThresholdInfo{"allocationRamp.minShare", "fraction", "and that share of the application's wall-clock", &T::ramp_min_share},
    ThresholdInfo{"coreBound.minGainMs", "ms", "wall-clock up to twice the executors would win, at least", &T::core_bound_min_gain_ms},
    ThresholdInfo{"coreBound.minShare", "fraction", "and that share of the application's wall-clock", &T::core_bound_min_share},
    ThresholdInfo{"coreBound.maxExtraExecutorHours", "fraction", "for at most this much more executor time than today's replay", &T::core_bound_max_extra_hours},
    ThresholdInfo{"coreBound.minWaves", "count", "a stage ran in waves: its tasks over the cores of its window", &T::core_bound_min_waves},
    ThresholdInfo{"coreBound.minBusyShare", "fraction", "with its cores busy: task time over cores x the stage's duration", &T::core_bound_min_busy_share},
    ThresholdInfo{"jobFailureRate.minRate", "fraction", "failed jobs / jobs", &T::job_failure_min_rate},
    ThresholdInfo{"jobFailureRate.minFailed", "count", "failed jobs needed to report", &T::job_failure_min_failed},
    ThresholdInfo{"cachingOpportunity.minReads", "count", "SQL executions that scan the same input, or compute the same subtree", &T::caching_min_reads},
    ThresholdInfo{"cachingOpportunity.minBytes", "bytes", "and at least 1 GiB read in all, half that a cache would have served (input re-read)", &T::caching_min_bytes},
    ThresholdInfo{"cachingOpportunity.minSubtreeNodes", "count", "operators a subtree computed again needs to matter", &T::caching_min_subtree_nodes},
    ThresholdInfo{"cachingOpportunity.minRecomputedMs", "ms", "wall-clock of computing it again, at least (or significant for a short app)", &T::caching_min_recomputed_ms},
    ThresholdInfo{"cacheUtilization.minMissingFraction", "fraction", "cached partitions missing from the cache", &T::cache_min_missing_fraction},
    ThresholdInfo{"failures.minFailedTasks", "count", "failed task attempts of one root cause", &T::failures_min_failed_tasks},
    ThresholdInfo{"configAudit.maxExecutorCores", "count", "more cores per executor than this hurts throughput", &T::config_max_executor_cores},
    ThresholdInfo{"configAudit.defaultPartitionsMinShuffleBytes", "bytes", "10 GiB under 200 partitions", &T::config_default_partitions_min_shuffle_bytes},
    ThresholdInfo{"configAudit.serializerMinBytes", "bytes", "RDD shuffle and serialized cache bytes before the serializer matters", &T::config_serializer_min_bytes},
};
// clang-format on

}  // namespace
std::span<const ThresholdInfo> threshold_registry() { return kRegistry; }

const ThresholdInfo* find_threshold(std::string_view name) {
  for (const auto& info : kRegistry) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

}  // namespace sf::analysis

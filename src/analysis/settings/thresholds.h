// Every threshold and constant the detectors and the impact model use, in one place.
//
// Each has a dotted name (detector.what), a unit, a documented default and a one-line reason;
// docs/detectors.md explains where each comes from. A user overrides any of them with a JSON
// config file (`analyze --config FILE`):
//
//   { "thresholds": { "skew.maxToMedianRatio": 4, "impact.shuffleThroughputBytesPerSec": 250000000 } }
//
// An unknown name or a value of the wrong type is an error naming the file and the key, so a
// typo never silently leaves a default in place. The analysis document lists every threshold
// with its value and whether it was overridden, and each finding names the ones it tested.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace sf::analysis {

struct Thresholds {
  // --- Impact model constants -----------------------------------------------------------------
  double shuffle_throughput_bps = 125e6;        // network rate a shuffle read is modeled at (1 Gbit/s)
  double spill_io_throughput_bps = 200e6;       // rate a byte spilled to disk is written and read back at
  double broadcast_bandwidth_bps = 125e6;       // rate a broadcast is collected and sent at
  double re_read_throughput_bps = 200e6;        // rate re-reading uncached input is modeled at
  double file_open_overhead_ms = 10;            // cost of opening one more file in a scan
  double task_overhead_ms = 20;                 // most a task's scheduling + launch + result cost is taken to be
  double network_fetch_penalty_ms = 50;         // extra core time of a task run away from its data
  double executor_startup_overhead_ms = 30000;  // core time an executor spends starting up
  double serial_gate = 0.999;                   // gate at which a stage counts as having run alone
  double regression_guard_gate = 0.95;          // gate past which a real waste must show wall-clock

  // The task time a disk spill of `disk_bytes` is modeled to cost, written and read back: each
  // byte on disk once at spill_io_throughput_bps. Spark does not time a spill: a spill that stays
  // in the page cache costs less, one to a busy disk more.
  double spill_io_ms(double disk_bytes) const { return disk_bytes / spill_io_throughput_bps * 1000.0; }

  // --- Impact bands: recoverable share of the application's wall-clock -------------------------
  double band_critical_share = 0.25;
  double band_high_share = 0.10;
  double band_medium_share = 0.03;

  // --- Confidence: how far past its threshold a finding sits ------------------------------------
  double confidence_medium_margin = 1.5;  // value at 1.5x its threshold: medium
  double confidence_high_margin = 3.0;    // at 3x: high

  // --- Stage noise floor ------------------------------------------------------------------------
  double stage_min_duration_ms = 5000;  // shorter stages are below every stage time detector
  // A time under a detector's absolute floor still matters when it is this share of the
  // application (a 3 s stage of a 12 s run), but never under significance.minMs.
  double significance_app_share = 0.05;
  double significance_min_ms = 500;
  // A cost-only finding (no wall-clock to recover) below these is not reported: a fraction of a
  // cent of core time or memory is not a problem, whatever its share of a small run.
  double significance_min_core_hours = 1.0;
  double significance_min_gib_hours = 8.0;
  double fix_first_min_share = 0.01;  // a time group "Fix these first" leads with: this share of the app at least

  // --- retryWaste -------------------------------------------------------------------------------
  double retry_min_waste_ms = 1000;      // floor: failed-attempt time, as wall-clock, below which it is noise
  double retry_min_failed_share = 0.05;  // failed attempts' share of the stage's task time
  double retry_min_app_share = 0.02;     // that wall-clock's share of the application's

  // --- speculationWaste -------------------------------------------------------------------------
  double speculation_min_waste_ms = 10000;     // wall-clock the losing attempts cost waiting work
  double speculation_min_killed_share = 0.05;  // killed attempts' share of the stage's task time

  // --- coldStart --------------------------------------------------------------------------------
  double cold_start_min_gap_ms = 30000;  // application start to first task launch
  double cold_start_min_share = 0.05;    // of the application's wall-clock
  double driver_time_min_share = 0.15;   // time after the first job with no job or query running, of the app
  double driver_time_min_ms = 30000;     // ... and at least this (or significant for a short app)

  // --- gc ---------------------------------------------------------------------------------------
  double gc_warn_ratio = 0.10;        // GC time / executor run time (Spark's UI flags >10%)
  double gc_min_run_time_ms = 60000;  // stage executor run time below which GC is noise

  // --- skew and straggler -----------------------------------------------------------------------
  double skew_min_tasks = 5;                  // successful tasks needed to speak of a distribution
  double skew_max_to_median_ratio = 5;        // longest task vs the median
  double skew_p95_to_median_ratio = 2.5;      // p95 task vs the median
  double skew_min_excess_ms = 30000;          // longest (or p95) minus median, at least
  double skew_bytes_max_to_median_ratio = 5;  // largest partition vs the median (shuffle read, input)
  double skew_min_bytes_excess = 268435456;   // 256 MiB more than the median partition
  double straggler_max_to_median_ratio = 3;   // longest task vs the median
  double straggler_min_excess_ms = 30000;     // longest minus median, at least
  // A speculative copy that ran this many medians on another host and still lost to the original:
  // the stage's outliers are slow wherever they run, so no straggler finding.
  double straggler_lost_copy_to_median_ratio = 2;

  // --- stageShape -------------------------------------------------------------------------------
  double low_parallelism_task_ratio = 0.5;              // tasks below this share of the cores
  double shape_min_duration_ms = 60000;                 // stages shorter than this are not shape-checked
  double last_wave_min_share = 0.25;                    // the stage's time past its task time spread over its cores
  double data_explosion_ratio = 10;                     // output / input
  double data_explosion_min_output_bytes = 1073741824;  // 1 GiB
  double task_stage_skew_ratio = 0.5;                   // one task's share of the stage's wall-clock
  double task_stage_skew_min_excess_ms = 30000;         // longest task past the median, at least

  // --- slowHost ---------------------------------------------------------------------------------
  double slow_host_mean_ratio = 1.5;              // host's mean task time vs the median of host means
  double slow_host_duration_share_ratio = 1.5;    // host's share of task time vs its share of tasks
  double slow_host_bytes_ratio = 1.5;             // host's bytes per task vs the other hosts'
  double slow_host_min_tasks = 5;                 // successful tasks a host needs to be judged
  double slow_host_min_hosts = 3;                 // hosts a stage needs for a comparison
  double slow_host_min_excess_ms = 5000;          // host mean minus stage median, at least
  double slow_host_min_bytes_excess = 268435456;  // bytes a host read past its share, at least

  // --- duplicatePlanSubtree ---------------------------------------------------------------------
  double duplicate_min_nodes = 3;  // nodes a repeated subtree needs to matter

  // --- shuffle ----------------------------------------------------------------------------------
  double shuffle_min_read_bytes = 1073741824;  // 1 GiB read by the stage
  double shuffle_min_measured_share = 0.25;    // fetch wait + shuffle write time vs the tasks' run time

  // --- spill ------------------------------------------------------------------------------------
  double spill_min_disk_bytes = 268435456;  // 256 MiB spilled to disk by the stage
  // Before Spark 2.3 the Tungsten sorters reported a spill's memory bytes and not its disk bytes
  // (SPARK-3577): the disk bytes are modeled as this share of the memory bytes, the least the
  // real Spark runs of this project and the corpus logs that report both show.
  double spill_unreported_disk_share = 0.2;

  // --- stageSlowness ----------------------------------------------------------------------------
  double stage_slowness_info_min_ms = 300000;  // a stage longer than 5 minutes
  double stage_slowness_min_app_share = 0.25;  // and a quarter of the application

  // --- partitionSizing --------------------------------------------------------------------------
  double partition_max_bytes = 1073741824;             // one task's shuffle read or input: 1 GiB is too big
  double partition_target_bytes = 134217728;           // what a partition should hold: 128 MiB
  double partition_skew_ratio = 5;                     // largest partition vs the median
  double partition_min_shuffle_bytes = 1073741824;     // stage shuffle read for lowShuffleParallelism
  double partition_low_parallelism_factor = 2;         // average bytes per task past factor x target
  double partition_min_skew_excess_bytes = 134217728;  // largest partition past the median, at least

  // --- tinyTask ---------------------------------------------------------------------------------
  double tiny_task_max_median_ms = 100;  // median task shorter than this
  double tiny_task_min_tasks = 100;      // with at least this many tasks

  // --- smallFiles -------------------------------------------------------------------------------
  double small_files_max_avg_bytes = 33554432;  // 32 MiB average file
  double small_files_min_files = 100;           // files read by one scan
  double small_files_target_bytes = 134217728;  // 128 MiB: what a file should hold

  // --- broadcast sizing -------------------------------------------------------------------------
  double broadcast_over_max_bytes = 536870912;   // a broadcast past 512 MiB
  double broadcast_under_max_bytes = 104857600;  // a sort-merge side under 100 MiB could broadcast

  // --- pythonUdf --------------------------------------------------------------------------------
  double python_udf_min_outside_share = 0.1;   // task time in Python workers / run time of its stages
  double python_udf_min_outside_ms = 1000;     // task time in Python workers, at least
  double python_udf_arrow_saving_share = 0.4;  // of a pickled UDF's Python time, saved by Arrow batches (modeled)

  // --- memoryUtilization ------------------------------------------------------------------------
  double memory_over_provisioned_ratio = 0.5;      // peak heap used / heap size at or below
  double memory_near_capacity_ratio = 0.9;         // peak heap used / heap size at or above
  double memory_min_app_duration_ms = 300000;      // apps shorter than 5 minutes are not judged
  double memory_waste_model_max_used_share = 0.5;  // lifetime-weighted used share of heap at or below

  // --- utilization ------------------------------------------------------------------------------
  double utilization_min_fraction = 0.5;            // busy share of the peak cores over the app
  double utilization_min_app_duration_ms = 300000;  // apps shorter than this are not judged

  // --- coreLocality -----------------------------------------------------------------------------
  double locality_min_non_local_share = 0.2;  // RACK_LOCAL and ANY tasks of all tasks
  double locality_min_non_local_tasks = 100;  // non-local tasks needed before locality matters

  // --- autoscalingChurn -------------------------------------------------------------------------
  double churn_max_lifetime_ms = 120000;  // executors that lived less than 2 minutes
  double churn_min_short_lived = 3;       // at least this many of them

  // --- executorStartup (Kubernetes) --------------------------------------------------------------
  // A pod on a node with room and its image cached is scheduled, started and registered in a few
  // seconds; what an executor took beyond this from its request to its registration is delay.
  double startup_expected_ms = 10000;
  double startup_min_waste_ms = 10000;  // wall-clock the delay cost the stages that waited, at least

  // --- what-if replays (allocationRamp, coreBound) --------------------------------------------
  double what_if_max_replay_error = 0.2;  // |replayed - measured| / measured, the replay to trust

  // --- allocationRamp ---------------------------------------------------------------------------
  double ramp_min_gain_ms = 5000;  // wall-clock the default ramp would win, at least
  double ramp_min_share = 0.05;    // and at least this share of the application's

  // --- coreBound ----------------------------------------------------------------------------------
  double core_bound_min_gain_ms = 20000;    // wall-clock up to twice the executors would win, at least
  double core_bound_min_share = 0.1;        // and at least this share of the application's
  double core_bound_max_extra_hours = 0.2;  // for at most this much more executor time
  double core_bound_min_waves = 2;          // a stage in waves: tasks / cores
  double core_bound_min_busy_share = 0.75;  // task time / (cores x the stage's duration)

  // --- jobFailureRate ---------------------------------------------------------------------------
  double job_failure_min_rate = 0.1;  // failed jobs / jobs
  double job_failure_min_failed = 1;  // failed jobs needed to report

  // --- cachingOpportunity and cacheUtilization --------------------------------------------------
  double caching_min_reads = 2;              // the same input scanned (or subtree computed) by this many executions
  double caching_min_bytes = 1073741824;     // and at least 1 GiB read in all
  double caching_min_subtree_nodes = 3;      // operators a recomputed subtree needs to matter
  double caching_min_recomputed_ms = 30000;  // its recomputation's wall-clock (or significant for a short app)
  double cache_min_missing_fraction = 0.1;   // cached partitions missing from the cache

  // --- failures ---------------------------------------------------------------------------------
  double failures_min_failed_tasks = 1;  // failed task attempts of one root cause

  // --- Structured Streaming ---------------------------------------------------------------------
  double streaming_min_batches = 5;                       // batches a query needs before its figures are judged
  double streaming_over_trigger_share = 0.2;              // share of batches longer than the trigger interval
  double streaming_processed_to_input_ratio = 0.9;        // recent processed rate under this share of the input rate
  double streaming_state_min_batches = 10;                // batches of a stateful query before its growth is judged
  double streaming_state_growth_fit = 0.8;                // r squared of a line through the state rows, at least
  double streaming_state_min_rows = 1000;                 // state rows at the last batch, at least
  double streaming_partitions_per_core = 4;               // a stateful operator's partitions over the cores
  double streaming_min_rows_per_partition = 1000;         // median rows of a batch per partition, under this
  double streaming_rocksdb_min_state_bytes = 1073741824;  // state on the heap past which RocksDB is suggested
  double streaming_min_files_per_batch = 2;               // a file sink's files a batch writes (median), at least
  double streaming_small_file_bytes = 16777216;           // ... of fewer bytes each than this (16 MiB)

  // --- configAudit ------------------------------------------------------------------------------
  double config_max_executor_cores = 5;  // more cores per executor than this hurts throughput
  double config_default_partitions_min_shuffle_bytes = 10737418240;  // 10 GiB under 200 partitions
  double config_serializer_min_bytes = 1073741824;  // RDD shuffle + serialized cache before the serializer matters
};

// Where a threshold lives in Thresholds, with what the analysis document says of it.
struct ThresholdInfo {
  std::string_view name;  // "skew.maxToMedianRatio"
  std::string_view unit;  // "ratio", "ms", "bytes", "bytes/s", "fraction", "count"
  std::string_view description;
  double Thresholds::*field;
};

// Every threshold, in a stable order.
std::span<const ThresholdInfo> threshold_registry();
const ThresholdInfo* find_threshold(std::string_view name);

}  // namespace sf::analysis

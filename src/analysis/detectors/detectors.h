// The detector families, one file each. Each appends its findings; the analyzer runs them in
// this order and estimates impact afterwards. docs/detectors.md (assembled from docs/detectors/,
// one file per family) has one section per finding type: trigger, formula, thresholds, basis,
// recommendation and an example from a real log.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "analysis/detectors/detector_context.h"
#include "analysis/models/what_if.h"

namespace sf::analysis {

using DetectorFn = void (*)(const DetectorContext&, std::vector<Finding>&);

// retryWaste, speculationWaste, stageFailed, failures, jobFailureRate
void detect_task_failures(const DetectorContext& context, std::vector<Finding>& findings);
// skew, straggler, stageShape (lowParallelism, dataExplosion, taskStageSkew), tinyTask
void detect_task_distribution(const DetectorContext& context, std::vector<Finding>& findings);
// slowHost (hostMeanRatio, durationShare, multiDim), coreLocality
void detect_hosts(const DetectorContext& context, std::vector<Finding>& findings);
// gc, spill, memoryUtilization (wasteModel, memoryBand, dataUnavailable)
void detect_memory(const DetectorContext& context, std::vector<Finding>& findings);
// shuffle, partitionSizing (maxPartitionTooBig, shufflePartitionSkew, lowShuffleParallelism)
void detect_shuffle(const DetectorContext& context, std::vector<Finding>& findings);
// duplicatePlanSubtree, smallFiles, overBroadcast, underBroadcast
void detect_sql_plans(const DetectorContext& context, std::vector<Finding>& findings);
// pythonUdf (builtinExists, rowAtATime, vectorized)
void detect_python_udfs(const DetectorContext& context, std::vector<Finding>& findings);
// cachingOpportunity, cacheUtilization
void detect_caching(const DetectorContext& context, std::vector<Finding>& findings);
// coldStart, executorStartup, driverTime, stageSlowness, utilization, autoscalingChurn
void detect_timeline(const DetectorContext& context, std::vector<Finding>& findings);
// configAudit
void detect_config(const DetectorContext& context, std::vector<Finding>& findings);
// streamingFallingBehind (batchOverTrigger, inputOutpacesProcessing), streamingStateGrowth,
// streamingShufflePartitions, streamingSmallFiles
void detect_streaming(const DetectorContext& context, std::vector<Finding>& findings);
// incompleteRun, logDefect
void detect_run_state(const DetectorContext& context, std::vector<Finding>& findings);

// allocationRamp: reads the what-if's replays of the ramp (what_if.h), so the analyzer runs it
// once the economics are worked out, after the families below.
void detect_allocation_ramp(const DetectorContext& context, const WhatIf& what_if, std::vector<Finding>& findings);
// coreBound: reads the what-if's curve (today's executors and twice as many), and the findings
// before it (idle cores rule it out), so it runs last.
void detect_core_bound(const DetectorContext& context, const WhatIf& what_if, std::vector<Finding>& findings);

struct DetectorFamily {
  std::string_view name;
  DetectorFn run;
};

std::span<const DetectorFamily> detector_families();

}  // namespace sf::analysis

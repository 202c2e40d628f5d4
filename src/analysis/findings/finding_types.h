// Every finding type the analysis reports: its rules, scope, basis, method and reference page,
// and the names code reads findings by.
//
// A finding is matched by its type, rule and evidence names outside the detector that wrote it
// (same_fix.cpp pairs findings, core_bound.cpp defers to utilization, impact.cpp exempts
// jobFailureRate from the significance floor). Written as string literals at both ends, a rename
// at one end silently disables the other; both ends name the constants below instead. The
// registry is also the content of docs/detectors.md's "Finding types" table (written from it by
// FindingTypes.TheDetectorReferenceTableIsTheRegistry), and the analysis tests fail on a finding
// whose type or rule it does not list.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "analysis/findings/finding.h"

namespace sf::analysis {

// Finding::type. Character arrays rather than string_views: they convert to the std::string
// parameters detectors build findings with, and compare with Finding::type either way.
namespace finding_type {
// failures
inline constexpr char kRetryWaste[] = "retryWaste";
inline constexpr char kSpeculationWaste[] = "speculationWaste";
inline constexpr char kStageFailed[] = "stageFailed";
inline constexpr char kFailures[] = "failures";
inline constexpr char kJobFailureRate[] = "jobFailureRate";
inline constexpr char kIncompleteRun[] = "incompleteRun";
inline constexpr char kLogDefect[] = "logDefect";
// task distribution
inline constexpr char kSkew[] = "skew";
inline constexpr char kStraggler[] = "straggler";
inline constexpr char kStageShape[] = "stageShape";
inline constexpr char kTinyTask[] = "tinyTask";
// hosts
inline constexpr char kSlowHost[] = "slowHost";
inline constexpr char kCoreLocality[] = "coreLocality";
// SQL plans, Python UDFs, caching
inline constexpr char kDuplicatePlanSubtree[] = "duplicatePlanSubtree";
inline constexpr char kSmallFiles[] = "smallFiles";
inline constexpr char kOverBroadcast[] = "overBroadcast";
inline constexpr char kUnderBroadcast[] = "underBroadcast";
inline constexpr char kPythonUdf[] = "pythonUdf";
inline constexpr char kCachingOpportunity[] = "cachingOpportunity";
inline constexpr char kCacheUtilization[] = "cacheUtilization";
// config audit, memory, shuffle
inline constexpr char kConfigAudit[] = "configAudit";
inline constexpr char kGc[] = "gc";
inline constexpr char kSpill[] = "spill";
inline constexpr char kMemoryUtilization[] = "memoryUtilization";
inline constexpr char kShuffle[] = "shuffle";
inline constexpr char kPartitionSizing[] = "partitionSizing";
// timeline
inline constexpr char kColdStart[] = "coldStart";
inline constexpr char kDriverTime[] = "driverTime";
inline constexpr char kStageSlowness[] = "stageSlowness";
inline constexpr char kUtilization[] = "utilization";
inline constexpr char kAutoscalingChurn[] = "autoscalingChurn";
inline constexpr char kAllocationRamp[] = "allocationRamp";
inline constexpr char kExecutorStartup[] = "executorStartup";
inline constexpr char kCoreBound[] = "coreBound";
// Structured Streaming
inline constexpr char kStreamingFallingBehind[] = "streamingFallingBehind";
inline constexpr char kStreamingStateGrowth[] = "streamingStateGrowth";
inline constexpr char kStreamingShufflePartitions[] = "streamingShufflePartitions";
inline constexpr char kStreamingSmallFiles[] = "streamingSmallFiles";
}  // namespace finding_type

// Finding::rule, under the type that takes it.
namespace finding_rule {
inline constexpr char kNone[] = "";  // the type's finding that has no rule
// retryWaste
inline constexpr char kFailedStageAttempt[] = "failedStageAttempt";
inline constexpr char kFailedTasks[] = "failedTasks";
// stageFailed
inline constexpr char kCancelledByShutdown[] = "cancelledByShutdown";
// failures (its other rules are the failure reasons the log names)
inline constexpr char kStoppedWhileRunning[] = "stoppedWhileRunning";
// incompleteRun
inline constexpr char kNoApplicationEnd[] = "noApplicationEnd";
inline constexpr char kReadError[] = "readError";
inline constexpr char kMissingParts[] = "missingParts";
// logDefect
inline constexpr char kTimesOutsideRun[] = "timesOutsideRun";
// skew
inline constexpr char kDurationMax[] = "durationMax";
inline constexpr char kDurationP95[] = "durationP95";
inline constexpr char kInputMax[] = "inputMax";
inline constexpr char kShuffleReadMax[] = "shuffleReadMax";
// stageShape
inline constexpr char kLowParallelism[] = "lowParallelism";
inline constexpr char kDataExplosion[] = "dataExplosion";
inline constexpr char kTaskStageSkew[] = "taskStageSkew";
inline constexpr char kLongLastWave[] = "longLastWave";
// slowHost
inline constexpr char kHostMeanRatio[] = "hostMeanRatio";
inline constexpr char kDurationShare[] = "durationShare";
inline constexpr char kMultiDim[] = "multiDim";
// pythonUdf
inline constexpr char kBuiltinExists[] = "builtinExists";
inline constexpr char kRowAtATime[] = "rowAtATime";
inline constexpr char kVectorized[] = "vectorized";
// cachingOpportunity, cacheUtilization
inline constexpr char kRecomputed[] = "recomputed";
inline constexpr char kMissingPartitions[] = "missingPartitions";
inline constexpr char kOnDisk[] = "onDisk";
inline constexpr char kSingleUse[] = "singleUse";
// configAudit
inline constexpr char kAdaptiveExecutionOff[] = "adaptiveExecutionOff";
inline constexpr char kCoalescePartitionsOff[] = "coalescePartitionsOff";
inline constexpr char kSkewJoinOff[] = "skewJoinOff";
inline constexpr char kDefaultShufflePartitions[] = "defaultShufflePartitions";
inline constexpr char kExecutorCoresHigh[] = "executorCoresHigh";
inline constexpr char kJavaSerializer[] = "javaSerializer";
inline constexpr char kDynamicAllocationWithoutShuffleService[] = "dynamicAllocationWithoutShuffleService";
inline constexpr char kSpeculationUntuned[] = "speculationUntuned";
// memoryUtilization
inline constexpr char kWasteModel[] = "wasteModel";
inline constexpr char kHeapOverProvisioned[] = "heapOverProvisioned";
inline constexpr char kHeapNearCapacity[] = "heapNearCapacity";
inline constexpr char kDataUnavailable[] = "dataUnavailable";
// partitionSizing
inline constexpr char kMaxPartitionTooBig[] = "maxPartitionTooBig";
inline constexpr char kShufflePartitionSkew[] = "shufflePartitionSkew";
inline constexpr char kLowShuffleParallelism[] = "lowShuffleParallelism";
// driverTime
inline constexpr char kOutsideJobs[] = "outsideJobs";
// streamingFallingBehind
inline constexpr char kBatchOverTrigger[] = "batchOverTrigger";
inline constexpr char kInputOutpacesProcessing[] = "inputOutpacesProcessing";
// streamingStateGrowth
inline constexpr char kUnbounded[] = "unbounded";
// streamingShufflePartitions
inline constexpr char kTooManyForBatch[] = "tooManyForBatch";
// streamingSmallFiles
inline constexpr char kFilesPerBatch[] = "filesPerBatch";
}  // namespace finding_rule

// Evidence::name of the figures code other than the writing detector reads; the rest of a
// finding's evidence is only rendered, and is named where it is written.
namespace evidence_key {
inline constexpr char kHostMeanTaskMs[] = "hostMeanTaskMs";              // slowHost
inline constexpr char kTaskDurationMaxMs[] = "taskDurationMaxMs";        // skew, straggler
inline constexpr char kDataMaxToMedianRatio[] = "dataMaxToMedianRatio";  // skew, straggler
inline constexpr char kFailedJobs[] = "failedJobs";                      // jobFailureRate
inline constexpr char kCancelledByShutdown[] = "cancelledByShutdown";    // jobFailureRate
}  // namespace evidence_key

// One row of docs/detectors.md's "Finding types" table: a type, or the rules of a type that
// differ in scope, basis or reference from its others (cachingOpportunity, cacheUtilization).
// Every member has a default so that rows written with designated initializers may leave the
// optional ones out (g++ 12 warns of members left out that have none).
struct FindingTypeInfo {
  std::string_view type{};
  std::vector<std::string_view> rules{};  // the Finding::rule values; finding_rule::kNone for none
  // Rules the log supplies beyond `rules`, in words ("" when `rules` are all): failures takes
  // the name of the failure reason each root cause ended with.
  std::string_view rules_from_log{};
  std::string_view variant{};  // what a rule-less row is, where the type has another row ("input re-read")
  std::vector<Scope> scopes{};
  std::string_view basis{};            // in words: "stage claim", "resourceOnly (core-hours)", ...
  std::string_view method{};           // "measured", "modeled", ...; "—" when informational
  std::string_view reference_title{};  // the detector family page: "failures", "task distribution"
  std::string_view reference{};        // under docs/: "detectors/failures.md#retrywaste-stage-measured"
  std::string_view corpus_note{};      // said after the count of corpus logs it fires on; may be ""
};

// Every row, in the order of docs/detectors.md (grouped by detector family).
std::span<const FindingTypeInfo> finding_type_registry();

// The row that registers a finding of this type and rule, or nullptr when none does.
const FindingTypeInfo* find_finding_type(std::string_view type, std::string_view rule);

// Every evidence_key constant.
std::span<const std::string_view> evidence_keys();

}  // namespace sf::analysis

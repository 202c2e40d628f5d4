// required_fields() (decoder.h): the lists of required_fields.h, each with the event and the
// object it applies to, so the tests can take every required field out of a line in turn.
#include "eventlog/required_fields.h"

#include "eventlog/decoder.h"

namespace sf::eventlog::decoding {
namespace {

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
    {"StreamingQueryListener$QueryStartedEvent", "", kStreamingQueryEventRequired},
    {"StreamingQueryListener$QueryProgressEvent", "", kStreamingProgressEventRequired},
    {"StreamingQueryListener$QueryProgressEvent", "progress", kStreamingProgressRequired},
    {"StreamingQueryListener$QueryIdleEvent", "", kStreamingQueryEventRequired},
    {"StreamingQueryListener$QueryTerminatedEvent", "", kStreamingQueryEventRequired},
    {"SparkListenerConnectSessionStarted", "", kConnectSessionRequired},
    {"SparkListenerConnectSessionClosed", "", kConnectSessionRequired},
    {"SparkListenerConnectOperationStarted", "", kConnectOperationRequired},
    {"SparkListenerConnectOperationAnalyzed", "", kConnectOperationRequired},
    {"SparkListenerConnectOperationReadyForExecution", "", kConnectOperationRequired},
    {"SparkListenerConnectOperationFinished", "", kConnectOperationRequired},
    {"SparkListenerConnectOperationFailed", "", kConnectOperationRequired},
    {"SparkListenerConnectOperationCanceled", "", kConnectOperationRequired},
    {"SparkListenerConnectOperationClosed", "", kConnectOperationRequired},
};

}  // namespace
}  // namespace sf::eventlog::decoding

namespace sf::eventlog {

std::vector<RequiredField> required_fields() {
  std::vector<RequiredField> fields;
  for (const auto& object : decoding::kRequiredObjects) {
    for (std::string_view key : object.keys) {
      std::string path(object.at);
      if (!path.empty()) path += '/';
      path += key;
      fields.push_back({object.event, std::move(path)});
    }
  }
  return fields;
}

}  // namespace sf::eventlog

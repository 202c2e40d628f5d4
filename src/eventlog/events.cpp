// Names of the event enums, for diagnostics and reports.
#include "eventlog/events.h"

namespace sf::eventlog {

std::string_view to_string(TaskEndReason reason) {
  switch (reason) {
    case TaskEndReason::kSuccess: return "Success";
    case TaskEndReason::kResubmitted: return "Resubmitted";
    case TaskEndReason::kTaskKilled: return "TaskKilled";
    case TaskEndReason::kTaskCommitDenied: return "TaskCommitDenied";
    case TaskEndReason::kExceptionFailure: return "ExceptionFailure";
    case TaskEndReason::kExecutorLostFailure: return "ExecutorLostFailure";
    case TaskEndReason::kFetchFailed: return "FetchFailed";
    case TaskEndReason::kTaskResultLost: return "TaskResultLost";
    case TaskEndReason::kUnknownReason: return "UnknownReason";
  }
  return "UnknownReason";
}

}  // namespace sf::eventlog

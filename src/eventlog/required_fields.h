// Required fields: what each modeled event, and each object inside one, must carry, and how the
// event decoders (decode_*.cpp) say which one a line lacked. In its place a default (job 0,
// stage 0, task 0, accumulator 0) would put the line's figures on another job's, stage's or
// metric's, so a line without one is malformed and names what it lacks. The lists follow the
// fields Spark's JsonProtocol reads without a fallback, where the model uses them;
// required_fields() (decoder.h, required_fields.cpp) spells every path out for the tests.
//
// Private to the eventlog layer. Everything here is constant or per line, so safe to share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "eventlog/json_reading.h"

namespace sf::eventlog::decoding {

using RequiredList = std::span<const std::string_view>;

inline constexpr std::string_view kLogStartRequired[] = {"Spark Version"};
inline constexpr std::string_view kApplicationStartRequired[] = {"App Name", "Timestamp"};
inline constexpr std::string_view kApplicationEndRequired[] = {"Timestamp"};
inline constexpr std::string_view kEnvironmentUpdateRequired[] = {"Spark Properties"};
inline constexpr std::string_view kResourceProfileAddedRequired[] = {"Resource Profile Id"};
inline constexpr std::string_view kExecutorAddedRequired[] = {"Executor ID", "Executor Info"};
inline constexpr std::string_view kExecutorInfoRequired[] = {"Host", "Total Cores"};
inline constexpr std::string_view kExecutorRemovedRequired[] = {"Executor ID"};
inline constexpr std::string_view kBlockManagerAddedRequired[] = {"Block Manager ID", "Maximum Memory"};
inline constexpr std::string_view kBlockManagerRemovedRequired[] = {"Block Manager ID"};
inline constexpr std::string_view kBlockManagerIdRequired[] = {"Executor ID"};
inline constexpr std::string_view kJobStartRequired[] = {"Job ID"};
inline constexpr std::string_view kJobEndRequired[] = {"Job ID", "Job Result"};
inline constexpr std::string_view kJobResultRequired[] = {"Result"};
inline constexpr std::string_view kStageEventRequired[] = {"Stage Info"};
inline constexpr std::string_view kStageInfoRequired[] = {"Stage ID", "Number of Tasks"};
inline constexpr std::string_view kStageExecutorMetricsRequired[] = {"Executor ID", "Stage ID", "Stage Attempt ID",
                                                                     "Executor Metrics"};
inline constexpr std::string_view kTaskStartRequired[] = {"Stage ID", "Task Info"};
inline constexpr std::string_view kTaskEndRequired[] = {"Stage ID", "Task End Reason", "Task Info"};
inline constexpr std::string_view kTaskInfoRequired[] = {"Task ID", "Index", "Launch Time", "Executor ID", "Host"};
inline constexpr std::string_view kTaskEndReasonRequired[] = {"Reason"};
inline constexpr std::string_view kUnpersistRddRequired[] = {"RDD ID"};
inline constexpr std::string_view kExecutorExclusionRequired[] = {"executorId"};
inline constexpr std::string_view kNodeExclusionRequired[] = {"hostId"};
inline constexpr std::string_view kMiscellaneousProcessRequired[] = {"processId"};
inline constexpr std::string_view kSqlExecutionStartRequired[] = {"executionId", "time"};
inline constexpr std::string_view kSqlExecutionEndRequired[] = {"executionId", "time"};
inline constexpr std::string_view kSqlAdaptiveExecutionUpdateRequired[] = {"executionId", "sparkPlanInfo"};
inline constexpr std::string_view kSqlAdaptiveMetricUpdatesRequired[] = {"executionId", "sqlPlanMetrics"};
inline constexpr std::string_view kStreamingQueryEventRequired[] = {"id", "runId"};
inline constexpr std::string_view kStreamingProgressEventRequired[] = {"progress"};
inline constexpr std::string_view kStreamingProgressRequired[] = {"id", "runId", "batchId"};
inline constexpr std::string_view kConnectSessionRequired[] = {"sessionId"};
inline constexpr std::string_view kConnectOperationRequired[] = {"jobTag", "operationId"};
inline constexpr std::string_view kDriverAccumUpdatesRequired[] = {"executionId", "accumUpdates"};
inline constexpr std::string_view kPlanNodeRequired[] = {"nodeName"};
inline constexpr std::string_view kPlanMetricRequired[] = {"name", "accumulatorId"};

// Which of an object's required keys its reader saw, key by key.
class RequiredKeys {
 public:
  explicit RequiredKeys(RequiredList names) : names_(names) {}
  void note(std::string_view key) {
    for (size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == key) seen_ |= uint32_t{1} << i;
    }
  }
  // The first required key the object lacked, or "" when it had them all.
  std::string_view missing() const {
    for (size_t i = 0; i < names_.size(); ++i) {
      if ((seen_ & (uint32_t{1} << i)) == 0) return names_[i];
    }
    return {};
  }

 private:
  RequiredList names_;
  uint32_t seen_ = 0;
};

// The bits of a key table's indices that a required list names, for the readers that see fields
// by index (a bit per index, set as each field is read): the task events' and the SQL plans'.
template <size_t N>
constexpr uint32_t required_mask(const json::KeyTable<N>& table, RequiredList names) {
  uint32_t mask = 0;
  for (std::string_view name : names) {
    for (size_t i = 0; i < N; ++i) {
      if (table.keys[i] == name) mask |= uint32_t{1} << i;
    }
  }
  return mask;
}

// The first required key whose bit is not in `seen`.
template <size_t N>
std::string_view first_unseen(const json::KeyTable<N>& table, RequiredList names, uint32_t seen) {
  for (std::string_view name : names) {
    for (size_t i = 0; i < N; ++i) {
      if (table.keys[i] == name && (seen & (uint32_t{1} << i)) == 0) return name;
    }
  }
  return {};
}

// The required field a reader did not find, as its path from the event's object: the reader of
// the innermost object names the key, and each reader above it puts its own key in front.
struct MissingField {
  std::string path;

  json::error_code report(std::string_view key) {
    path.assign(key);
    return simdjson::NO_SUCH_FIELD;
  }
  // Passes on `error` from the reader of the object at `key`, naming where it was.
  json::error_code within(std::string_view key, json::error_code error) {
    if (error == simdjson::NO_SUCH_FIELD && !path.empty()) path.insert(0, std::string(key) + "/");
    return error;
  }
};

}  // namespace sf::eventlog::decoding

// The job and stage events: a job's start and end, a stage's submission and completion (with
// the RDDs it computes), a stage's executor metric peaks, and an RDD dropped from storage.
#include <algorithm>
#include <string>
#include <utility>

#include "eventlog/event_decoders.h"
#include "eventlog/field_readers.h"

namespace sf::eventlog::decoding {

namespace {

// StorageLevel.description in Spark: "Disk Memory Deserialized 1x Replicated" and so on.
std::string storage_level_description(bool use_disk, bool use_memory, bool use_off_heap, bool deserialized,
                                      int32_t replication) {
  if (!use_disk && !use_memory && !use_off_heap) return "";
  std::string result;
  if (use_disk) result += "Disk ";
  if (use_memory) result += use_off_heap ? "Memory (off heap) " : "Memory ";
  result += deserialized ? "Deserialized " : "Serialized ";
  result += std::to_string(replication) + "x Replicated";
  return result;
}

error_code read_rdd_info(od::value& value, spark::RddInfo& rdd) {
  bool use_off_heap = false;
  auto error = for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    if (key == "RDD ID") return read_int(v, rdd.rdd_id);
    if (key == "Name") return read_string(v, rdd.name, kMaxNameBytes);
    if (key == "Scope") return read_string(v, rdd.scope, kMaxTextBytes);
    if (key == "Callsite") return read_string(v, rdd.callsite, kMaxTextBytes);
    if (key == "Parent IDs") return json::read_int_array(v, rdd.parent_ids);
    if (key == "Barrier") return read_bool(v, rdd.barrier);
    if (key == "Number of Partitions") return read_int(v, rdd.num_partitions);
    if (key == "Number of Cached Partitions") return read_int(v, rdd.num_cached_partitions);
    if (key == "Memory Size") return read_int(v, rdd.memory_size_bytes);
    if (key == "Disk Size") return read_int(v, rdd.disk_size_bytes);
    if (key == "Storage Level") {
      return for_each_field(v, [&](std::string_view level_key, od::value& lv) -> error_code {
        if (level_key == "Use Disk") return read_bool(lv, rdd.use_disk);
        if (level_key == "Use Memory") return read_bool(lv, rdd.use_memory);
        if (level_key == "Use Off Heap") return read_bool(lv, use_off_heap);
        if (level_key == "Deserialized") return read_bool(lv, rdd.deserialized);
        if (level_key == "Replication") return read_int(lv, rdd.replication);
        return SUCCESS;
      });
    }
    return SUCCESS;
  });
  if (error) return error;
  std::sort(rdd.parent_ids.begin(), rdd.parent_ids.end());
  rdd.storage_level =
      storage_level_description(rdd.use_disk, rdd.use_memory, use_off_heap, rdd.deserialized, rdd.replication);
  return SUCCESS;
}

error_code read_stage_info(od::value& value, StageInfo& info, MissingField& missing) {
  RequiredKeys required(kStageInfoRequired);
  auto error = for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    required.note(key);
    if (key == "Stage ID") return read_int(v, info.stage_id);
    if (key == "Stage Attempt ID") return read_int(v, info.attempt_id);
    if (key == "Stage Name") return read_string(v, info.name, kMaxNameBytes);
    if (key == "Number of Tasks") return read_int(v, info.num_tasks);
    if (key == "RDD Info") {
      return for_each_element(v, [&](od::value& element) -> error_code {
        spark::RddInfo rdd;
        if (auto e = read_rdd_info(element, rdd)) return e;
        info.rdds.push_back(std::move(rdd));
        return SUCCESS;
      });
    }
    if (key == "Parent IDs") return json::read_int_array(v, info.parent_ids);
    if (key == "Details") return read_string(v, info.details, kMaxTextBytes);
    if (key == "Submission Time") return read_optional_int(v, info.submission_time_ms);
    if (key == "Completion Time") return read_optional_int(v, info.completion_time_ms);
    if (key == "Failure Reason") return json::read_optional_string(v, info.failure_reason, kMaxTextBytes);
    if (key == "Accumulables") return read_accumulables(v, info.accumulables);
    if (key == "Resource Profile Id") return read_int(v, info.resource_profile_id);
    if (key == "Shuffle Push Enabled") return read_bool(v, info.shuffle_push_enabled);
    if (key == "Shuffle Push Mergers Count") return read_int(v, info.shuffle_mergers_count);
    return SUCCESS;
  });
  if (error) return error;
  if (auto key = required.missing(); !key.empty()) return missing.report(key);
  std::sort(info.parent_ids.begin(), info.parent_ids.end());
  return SUCCESS;
}

error_code read_properties(od::value& value, SubmissionProperties& properties) {
  bool is_null = false;
  if (auto error = value.is_null().get(is_null)) return error;
  if (is_null) return SUCCESS;
  return for_each_field(value, [&](std::string_view key, od::value& v) -> error_code {
    if (key == "spark.sql.execution.id") {
      int64_t id = 0;
      // A non-numeric id is ignored rather than failing the whole job event.
      if (read_int(v, id) == SUCCESS) properties.sql_execution_id = id;
      return SUCCESS;
    }
    if (key == "spark.job.description") return read_string(v, properties.job_description, kMaxTextBytes);
    if (key == "spark.jobGroup.id") return read_string(v, properties.job_group, kMaxNameBytes);
    if (key == "spark.job.tags") return read_string(v, properties.job_tags, kMaxTextBytes);
    if (key == "spark.scheduler.pool") return read_string(v, properties.scheduler_pool, kMaxNameBytes);
    if (key == "sql.streaming.queryId") return read_string(v, properties.streaming_query_id, kMaxNameBytes);
    if (key == "streaming.sql.batchId") {
      int64_t batch = 0;
      if (read_int(v, batch) == SUCCESS) properties.streaming_batch_id = batch;  // as the SQL execution id
      return SUCCESS;
    }
    return SUCCESS;
  });
}

}  // namespace

error_code decode_job_start(od::document& doc, DecodeState& state, EventHandler& handler) {
  MissingField& missing = state.missing;
  return decode_and_emit<JobStart>(doc, handler, kJobStartRequired, missing,
                                   [&](std::string_view key, od::value& v, JobStart& e) -> error_code {
                                     if (key == "Job ID") return read_int(v, e.job_id);
                                     if (key == "Submission Time") return read_optional_int(v, e.submission_time_ms);
                                     if (key == "Stage IDs") return json::read_int_array(v, e.stage_ids);
                                     if (key == "Stage Infos") {
                                       return for_each_element(v, [&](od::value& element) -> error_code {
                                         StageInfo info;
                                         if (auto se = read_stage_info(element, info, missing))
                                           return missing.within("Stage Infos/[]", se);
                                         e.stage_infos.push_back(std::move(info));
                                         return SUCCESS;
                                       });
                                     }
                                     if (key == "Properties") return read_properties(v, e.properties);
                                     return SUCCESS;
                                   });
}

error_code decode_job_end(od::document& doc, DecodeState& state, EventHandler& handler) {
  MissingField& missing = state.missing;
  return decode_and_emit<JobEnd>(
      doc, handler, kJobEndRequired, missing, [&](std::string_view key, od::value& v, JobEnd& e) -> error_code {
        if (key == "Job ID") return read_int(v, e.job_id);
        if (key == "Completion Time") return read_optional_int(v, e.completion_time_ms);
        if (key == "Job Result") {
          return read_object(key, v, kJobResultRequired, missing, [&](std::string_view k, od::value& rv) -> error_code {
            if (k == "Result") {
              std::string_view result;
              if (auto re = read_string_view(rv, result)) return re;
              e.succeeded = result == "JobSucceeded";
              return SUCCESS;
            }
            if (k == "Exception") {
              return for_each_field(rv, [&](std::string_view ek, od::value& ev) -> error_code {
                if (ek == "Message") return read_string(ev, e.failure_message, kMaxTextBytes);
                return SUCCESS;
              });
            }
            return SUCCESS;
          });
        }
        return SUCCESS;
      });
}

error_code decode_stage_submitted(od::document& doc, DecodeState& state, EventHandler& handler) {
  MissingField& missing = state.missing;
  return decode_and_emit<StageSubmitted>(doc, handler, kStageEventRequired, missing,
                                         [&](std::string_view key, od::value& v, StageSubmitted& e) -> error_code {
                                           if (key == "Stage Info")
                                             return missing.within(key, read_stage_info(v, e.info, missing));
                                           if (key == "Properties") return read_properties(v, e.properties);
                                           return SUCCESS;
                                         });
}

error_code decode_stage_completed(od::document& doc, DecodeState& state, EventHandler& handler) {
  MissingField& missing = state.missing;
  return decode_and_emit<StageCompleted>(doc, handler, kStageEventRequired, missing,
                                         [&](std::string_view key, od::value& v, StageCompleted& e) -> error_code {
                                           if (key == "Stage Info")
                                             return missing.within(key, read_stage_info(v, e.info, missing));
                                           return SUCCESS;
                                         });
}

error_code decode_stage_executor_metrics(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<StageExecutorMetrics>(
      doc, handler, kStageExecutorMetricsRequired, state.missing,
      [](std::string_view key, od::value& v, StageExecutorMetrics& e) -> error_code {
        if (key == "Executor ID") return read_string(v, e.executor_id, kMaxNameBytes);
        if (key == "Stage ID") return read_int(v, e.stage_id);
        if (key == "Stage Attempt ID") return read_int(v, e.stage_attempt_id);
        if (key == "Executor Metrics") return read_executor_metrics(v, e.metrics);
        return SUCCESS;
      });
}

error_code decode_unpersist_rdd(od::document& doc, DecodeState& state, EventHandler& handler) {
  return decode_and_emit<UnpersistRdd>(doc, handler, kUnpersistRddRequired, state.missing,
                                       [](std::string_view key, od::value& v, UnpersistRdd& e) -> error_code {
                                         if (key == "RDD ID") return read_int(v, e.rdd_id);
                                         return SUCCESS;
                                       });
}

}  // namespace sf::eventlog::decoding

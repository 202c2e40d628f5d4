#include "loggen/event_writer.h"

namespace sf::loggen {

namespace {

constexpr std::string_view kSqlEventPrefix = "org.apache.spark.sql.execution.ui.";

std::string_view locality_name(Locality locality) {
  switch (locality) {
    case Locality::kProcessLocal: return "PROCESS_LOCAL";
    case Locality::kNodeLocal: return "NODE_LOCAL";
    case Locality::kRackLocal: return "RACK_LOCAL";
    case Locality::kAny: return "ANY";
  }
  return "ANY";
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// JsonOut

void JsonOut::escaped(std::string_view text) {
  size_t clean = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    buffer_.append(text.data() + clean, text.data() + i);
    switch (c) {
      case '"': raw("\\\""); break;
      case '\\': raw("\\\\"); break;
      case '\n': raw("\\n"); break;
      case '\t': raw("\\t"); break;
      case '\r': raw("\\r"); break;
      default: fmt::format_to(std::back_inserter(buffer_), "\\u{:04x}", c); break;
    }
    clean = i + 1;
  }
  buffer_.append(text.data() + clean, text.data() + text.size());
}

void JsonOut::string_map(const Properties& entries) {
  buffer_.push_back('{');
  bool first = true;
  for (const auto& [key, value] : entries) {
    if (!first) buffer_.push_back(',');
    first = false;
    string(key);
    buffer_.push_back(':');
    string(value);
  }
  buffer_.push_back('}');
}

// ---------------------------------------------------------------------------------------------
// The application

void EventWriter::log_start(std::string_view spark_version) {
  out_.raw(R"({"Event":"SparkListenerLogStart","Spark Version":)");
  out_.string(spark_version);
  out_.raw("}\n");
}

void EventWriter::resource_profile_added(int32_t executor_cores, int64_t executor_memory_mb) {
  out_.raw(R"({"Event":"SparkListenerResourceProfileAdded","Resource Profile Id":0,)"
           R"("Executor Resource Requests":{"cores":{"Resource Name":"cores","Amount":)");
  out_.number(executor_cores);
  out_.raw(R"(,"Discovery Script":"","Vendor":""},"memory":{"Resource Name":"memory","Amount":)");
  out_.number(executor_memory_mb);
  out_.raw(R"(,"Discovery Script":"","Vendor":""},"offHeap":{"Resource Name":"offHeap","Amount":0,)"
           R"("Discovery Script":"","Vendor":""}},"Task Resource Requests":{"cpus":{"Resource Name":"cpus",)"
           R"("Amount":1.0}}})"
           "\n");
}

void EventWriter::environment_update(const Properties& jvm, const Properties& spark, const Properties& hadoop,
                                     const Properties& system, const Properties& classpath) {
  out_.raw(R"({"Event":"SparkListenerEnvironmentUpdate","JVM Information":)");
  out_.string_map(jvm);
  out_.raw(R"(,"Spark Properties":)");
  out_.string_map(spark);
  out_.raw(R"(,"Hadoop Properties":)");
  out_.string_map(hadoop);
  out_.raw(R"(,"System Properties":)");
  out_.string_map(system);
  out_.raw(R"(,"Metrics Properties":{"*.sink.servlet.class":"org.apache.spark.metrics.sink.MetricsServlet",)"
           R"("*.sink.servlet.path":"/metrics/json"},"Classpath Entries":)");
  out_.string_map(classpath);
  out_.raw("}\n");
}

void EventWriter::application_start(std::string_view app_name, std::string_view app_id, int64_t time_ms,
                                    std::string_view user, std::string_view attempt_id, const Properties& driver_logs) {
  out_.raw(R"({"Event":"SparkListenerApplicationStart","App Name":)");
  out_.string(app_name);
  out_.raw(R"(,"App ID":)");
  out_.string(app_id);
  out_.raw(R"(,"Timestamp":)");
  out_.number(time_ms);
  out_.raw(R"(,"User":)");
  out_.string(user);
  out_.raw(R"(,"App Attempt ID":)");
  out_.string(attempt_id);
  out_.raw(R"(,"Driver Logs":)");
  out_.string_map(driver_logs);
  out_.raw("}\n");
}

void EventWriter::application_end(int64_t time_ms) {
  out_.raw(R"({"Event":"SparkListenerApplicationEnd","Timestamp":)");
  out_.number(time_ms);
  out_.raw(R"(,"ExitCode":0})"
           "\n");
}

// ---------------------------------------------------------------------------------------------
// Executors and block managers

void EventWriter::executor_added(const ExecutorInfo& executor, std::string_view user) {
  const std::string node = executor.host + ":8042";
  const std::string logs = "http://" + node + "/node/containerlogs/" + executor.container_id + "/" + std::string(user);
  out_.raw(R"({"Event":"SparkListenerExecutorAdded","Timestamp":)");
  out_.number(executor.add_ms);
  out_.raw(R"(,"Executor ID":)");
  out_.string(executor.id);
  out_.raw(R"(,"Executor Info":{"Host":)");
  out_.string(executor.host);
  out_.raw(R"(,"Total Cores":)");
  out_.number(executor.cores);
  out_.raw(R"(,"Log Urls":{"stdout":)");
  out_.string(logs + "/stdout?start=-4096");
  out_.raw(R"(,"stderr":)");
  out_.string(logs + "/stderr?start=-4096");
  out_.raw(R"(},"Attributes":{"NM_HTTP_ADDRESS":)");
  out_.string(node);
  out_.raw(R"(,"USER":)");
  out_.string(user);
  out_.raw(R"(,"LOG_FILES":"stderr,stdout","NM_HTTP_PORT":"8042","CLUSTER_ID":"","NM_PORT":"8041",)"
           R"("HTTP_SCHEME":"http://","NM_HOST":)");
  out_.string(executor.host);
  out_.raw(R"(,"CONTAINER_ID":)");
  out_.string(executor.container_id);
  out_.raw(R"(},"Resources":{},"Resource Profile Id":0,"Registration Time":)");
  out_.number(executor.add_ms);
  out_.raw(R"(,"Request Time":)");
  out_.number(executor.add_ms - 2100);
  out_.raw("}}\n");
}

void EventWriter::executor_removed(const ExecutorInfo& executor, int64_t time_ms, std::string_view reason) {
  out_.raw(R"({"Event":"SparkListenerExecutorRemoved","Timestamp":)");
  out_.number(time_ms);
  out_.raw(R"(,"Executor ID":)");
  out_.string(executor.id);
  out_.raw(R"(,"Removed Reason":)");
  out_.string(reason);
  out_.raw("}\n");
}

void EventWriter::block_manager_added(std::string_view executor_id, std::string_view host, int32_t port,
                                      int64_t max_memory_bytes, int64_t time_ms) {
  out_.raw(R"({"Event":"SparkListenerBlockManagerAdded","Block Manager ID":{"Executor ID":)");
  out_.string(executor_id);
  out_.raw(R"(,"Host":)");
  out_.string(host);
  out_.raw(R"(,"Port":)");
  out_.number(port);
  out_.raw(R"(},"Maximum Memory":)");
  out_.number(max_memory_bytes);
  out_.raw(R"(,"Timestamp":)");
  out_.number(time_ms);
  out_.raw(R"(,"Maximum Onheap Memory":)");
  out_.number(max_memory_bytes);
  out_.raw(R"(,"Maximum Offheap Memory":0})"
           "\n");
}

void EventWriter::block_manager_removed(std::string_view executor_id, std::string_view host, int32_t port,
                                        int64_t time_ms) {
  out_.raw(R"({"Event":"SparkListenerBlockManagerRemoved","Block Manager ID":{"Executor ID":)");
  out_.string(executor_id);
  out_.raw(R"(,"Host":)");
  out_.string(host);
  out_.raw(R"(,"Port":)");
  out_.number(port);
  out_.raw(R"(},"Timestamp":)");
  out_.number(time_ms);
  out_.raw("}\n");
}

// ---------------------------------------------------------------------------------------------
// Jobs and stages

void EventWriter::rdd_info(const RddDesc& rdd) {
  out_.raw(R"({"RDD ID":)");
  out_.number(rdd.id);
  out_.raw(R"(,"Name":)");
  out_.string(rdd.name);
  if (!rdd.scope_json.empty()) {
    out_.raw(R"(,"Scope":)");
    out_.string(rdd.scope_json);
  }
  out_.raw(R"(,"Callsite":)");
  out_.string(rdd.callsite);
  out_.raw(R"(,"Parent IDs":[)");
  for (size_t i = 0; i < rdd.parent_ids.size(); ++i) {
    if (i > 0) out_.raw(",");
    out_.number(rdd.parent_ids[i]);
  }
  out_.raw(R"(],"Storage Level":{"Use Disk":)");
  out_.boolean(rdd.storage.use_disk);
  out_.raw(R"(,"Use Memory":)");
  out_.boolean(rdd.storage.use_memory);
  out_.raw(R"(,"Use Off Heap":false,"Deserialized":)");
  out_.boolean(rdd.storage.deserialized);
  out_.raw(R"(,"Replication":)");
  out_.number(rdd.storage.replication);
  out_.raw(R"(},"Barrier":false,"DeterministicLevel":"DETERMINATE","Number of Partitions":)");
  out_.number(rdd.num_partitions);
  out_.raw(R"(,"Number of Cached Partitions":0,"Memory Size":0,"Disk Size":0})");
}

void EventWriter::stage_info(const StageAttemptDesc& stage, bool include_accumulables) {
  out_.raw(R"({"Stage ID":)");
  out_.number(stage.stage_id);
  out_.raw(R"(,"Stage Attempt ID":)");
  out_.number(stage.attempt_id);
  out_.raw(R"(,"Stage Name":)");
  out_.string(stage.name);
  out_.raw(R"(,"Number of Tasks":)");
  out_.number(stage.num_tasks);
  out_.raw(R"(,"RDD Info":[)");
  for (size_t i = 0; i < stage.rdds.size(); ++i) {
    if (i > 0) out_.raw(",");
    rdd_info(stage.rdds[i]);
  }
  out_.raw(R"(],"Parent IDs":[)");
  for (size_t i = 0; i < stage.parent_ids.size(); ++i) {
    if (i > 0) out_.raw(",");
    out_.number(stage.parent_ids[i]);
  }
  out_.raw(R"(],"Details":)");
  out_.string(stage.details);
  if (stage.submission_ms) {
    out_.raw(R"(,"Submission Time":)");
    out_.number(*stage.submission_ms);
  }
  if (stage.completion_ms) {
    out_.raw(R"(,"Completion Time":)");
    out_.number(*stage.completion_ms);
  }
  if (stage.failure_reason) {
    out_.raw(R"(,"Failure Reason":)");
    out_.string(*stage.failure_reason);
  }
  out_.raw(R"(,"Accumulables":[)");
  if (include_accumulables) {
    // SQL metrics were registered with the plan, before this attempt's task metrics: lower ids.
    bool first = true;
    for (size_t i = 0; i < stage.sql_metrics.size(); ++i) {
      if (i >= stage.sql_updated.size() || stage.sql_updated[i] == 0) continue;
      if (!first) out_.raw(",");
      first = false;
      out_.raw(R"({"ID":)");
      out_.number(stage.sql_metrics[i].accumulator_id);
      out_.raw(R"(,"Name":)");
      out_.string(stage.sql_metrics[i].name);
      out_.raw(R"(,"Value":)");
      out_.quoted_number(*stage.sql_metrics[i].total);
      out_.raw(R"(,"Internal":true,"Count Failed Values":true,"Metadata":"sql"})");
    }
    for (size_t i = 0; i < kInternalAccumulatorCount; ++i) {
      const int64_t value = stage.accumulator_totals[i];
      if (value == 0) continue;
      if (!first) out_.raw(",");
      first = false;
      out_.raw(R"({"ID":)");
      out_.number(stage.internal_accumulator_base + static_cast<int64_t>(i));
      out_.raw(R"(,"Name":)");
      out_.string(kInternalAccumulators[i].name);
      out_.raw(R"(,"Value":)");
      out_.number(value);
      out_.raw(R"(,"Internal":true,"Count Failed Values":true})");
    }
  }
  out_.raw(R"(],"Resource Profile Id":0,"Shuffle Push Enabled":false,"Shuffle Push Mergers Count":0})");
}

void EventWriter::properties(const JobProperties& p) {
  out_.raw(R"({"spark.job.interruptOnCancel":"false")");
  if (p.sql_execution_id) {
    out_.raw(R"(,"spark.sql.execution.root.id":)");
    out_.quoted_number(*p.sql_execution_id);
    out_.raw(R"(,"__fetch_continuous_blocks_in_batch_enabled":"true")");
  }
  if (!p.description.empty()) {
    out_.raw(R"(,"spark.job.description":)");
    out_.string(p.description);
  }
  if (!p.job_group.empty()) {
    out_.raw(R"(,"spark.jobGroup.id":)");
    out_.string(p.job_group);
  }
  if (p.sql_execution_id) {
    out_.raw(R"(,"spark.sql.execution.id":)");
    out_.quoted_number(*p.sql_execution_id);
  }
  out_.raw("}");
}

void EventWriter::job_start(int64_t job_id, int64_t time_ms, std::span<const StageAttemptDesc* const> stages,
                            const JobProperties& p) {
  out_.raw(R"({"Event":"SparkListenerJobStart","Job ID":)");
  out_.number(job_id);
  out_.raw(R"(,"Submission Time":)");
  out_.number(time_ms);
  out_.raw(R"(,"Stage Infos":[)");
  for (size_t i = 0; i < stages.size(); ++i) {
    if (i > 0) out_.raw(",");
    stage_info(*stages[i], true);
  }
  out_.raw(R"(],"Stage IDs":[)");
  for (size_t i = 0; i < stages.size(); ++i) {
    if (i > 0) out_.raw(",");
    out_.number(stages[i]->stage_id);
  }
  out_.raw(R"(],"Properties":)");
  properties(p);
  out_.raw("}\n");
}

void EventWriter::job_end(int64_t job_id, int64_t time_ms, const std::optional<std::string>& failure) {
  out_.raw(R"({"Event":"SparkListenerJobEnd","Job ID":)");
  out_.number(job_id);
  out_.raw(R"(,"Completion Time":)");
  out_.number(time_ms);
  if (failure) {
    out_.raw(R"(,"Job Result":{"Result":"JobFailed","Exception":{"Message":)");
    out_.string(*failure);
    out_.raw(R"(,"Stack Trace":[{"Declaring Class":"org.apache.spark.scheduler.DAGScheduler",)"
             R"("Method Name":"failJobAndIndependentStages","File Name":"DAGScheduler.scala","Line Number":2898}]}}})"
             "\n");
  } else {
    out_.raw(R"(,"Job Result":{"Result":"JobSucceeded"}})"
             "\n");
  }
}

void EventWriter::stage_submitted(const StageAttemptDesc& stage) {
  out_.raw(R"({"Event":"SparkListenerStageSubmitted","Stage Info":)");
  stage_info(stage, false);
  out_.raw(R"(,"Properties":)");
  properties(*stage.properties);
  out_.raw("}\n");
}

void EventWriter::stage_completed(const StageAttemptDesc& stage) {
  out_.raw(R"({"Event":"SparkListenerStageCompleted","Stage Info":)");
  stage_info(stage, true);
  out_.raw("}\n");
}

void EventWriter::unpersist_rdd(int64_t rdd_id) {
  out_.raw(R"({"Event":"SparkListenerUnpersistRDD","RDD ID":)");
  out_.number(rdd_id);
  out_.raw("}\n");
}

// ---------------------------------------------------------------------------------------------
// Tasks

void EventWriter::task_info(const StageAttemptDesc& /*stage*/, const TaskAttempt& task, const ExecutorInfo& executor,
                            std::span<const AccumulatorUpdate> updates, bool finished) {
  out_.raw(R"({"Task ID":)");
  out_.number(task.task_id);
  out_.raw(R"(,"Index":)");
  out_.number(task.index);
  out_.raw(R"(,"Attempt":)");
  out_.number(task.attempt);
  out_.raw(R"(,"Partition ID":)");
  out_.number(task.partition);
  out_.raw(R"(,"Launch Time":)");
  out_.number(task.launch_ms);
  out_.raw(R"(,"Executor ID":)");
  out_.clean_string(executor.id);
  out_.raw(R"(,"Host":)");
  out_.clean_string(executor.host);
  out_.raw(R"(,"Locality":")");
  out_.raw(locality_name(task.locality));
  out_.raw(R"(","Speculative":)");
  out_.boolean(task.speculative);
  out_.raw(R"(,"Getting Result Time":)");
  out_.number(finished ? task.getting_result_ms : 0);
  out_.raw(R"(,"Finish Time":)");
  out_.number(finished ? task.finish_ms : 0);
  const bool killed = finished && task.end == TaskEndKind::kKilled;
  const bool failed = finished && !killed && task.end != TaskEndKind::kSuccess;
  out_.raw(R"(,"Failed":)");
  out_.boolean(failed);
  out_.raw(R"(,"Killed":)");
  out_.boolean(killed);
  out_.raw(R"(,"Accumulables":[)");
  for (size_t i = 0; i < updates.size(); ++i) {
    const AccumulatorUpdate& u = updates[i];
    if (i > 0) out_.raw(",");
    out_.raw(R"({"ID":)");
    out_.number(u.id);
    out_.raw(R"(,"Name":)");
    out_.clean_string(u.name);
    if (u.sql) {
      out_.raw(R"(,"Update":)");
      out_.quoted_number(u.update);
      out_.raw(R"(,"Value":)");
      out_.quoted_number(u.value);
      out_.raw(R"(,"Internal":true,"Count Failed Values":true,"Metadata":"sql"})");
    } else {
      out_.raw(R"(,"Update":)");
      out_.number(u.update);
      out_.raw(R"(,"Value":)");
      out_.number(u.value);
      out_.raw(R"(,"Internal":true,"Count Failed Values":true})");
    }
  }
  out_.raw("]}");
}

void EventWriter::task_start(const StageAttemptDesc& stage, const TaskAttempt& task, const ExecutorInfo& executor) {
  out_.raw(R"({"Event":"SparkListenerTaskStart","Stage ID":)");
  out_.number(stage.stage_id);
  out_.raw(R"(,"Stage Attempt ID":)");
  out_.number(stage.attempt_id);
  out_.raw(R"(,"Task Info":)");
  task_info(stage, task, executor, {}, false);
  out_.raw("}\n");
}

void EventWriter::task_end_reason(const TaskEndReason* reason, std::span<const AccumulatorUpdate> updates) {
  auto accumulator_updates = [&] {
    out_.raw(R"(,"Accumulator Updates":[)");
    bool first = true;
    for (const AccumulatorUpdate& u : updates) {
      if (u.sql) continue;
      if (!first) out_.raw(",");
      first = false;
      out_.raw(R"({"ID":)");
      out_.number(u.id);
      out_.raw(R"(,"Update":)");
      out_.quoted_number(u.update);
      out_.raw(R"(,"Internal":false,"Count Failed Values":true})");
    }
    out_.raw("]");
  };
  if (reason == nullptr) {
    out_.raw(R"({"Reason":"Success"})");
    return;
  }
  switch (reason->kind) {
    case TaskEndKind::kSuccess: out_.raw(R"({"Reason":"Success"})"); return;
    case TaskEndKind::kExceptionFailure: {
      static constexpr std::string_view kFrames[][3] = {
          {"org.apache.spark.sql.execution.datasources.FileFormatWriter$", "executeTask", "FileFormatWriter.scala"},
          {"org.apache.spark.scheduler.ResultTask", "runTask", "ResultTask.scala"},
          {"org.apache.spark.executor.Executor$TaskRunner", "run", "Executor.scala"},
      };
      static constexpr int kLines[] = {418, 93, 620};
      out_.raw(R"({"Reason":"ExceptionFailure","Class Name":)");
      out_.string(reason->text);
      out_.raw(R"(,"Description":)");
      out_.string(reason->description);
      out_.raw(R"(,"Stack Trace":[)");
      std::string full = reason->text + ": " + reason->description;
      for (size_t i = 0; i < 3; ++i) {
        if (i > 0) out_.raw(",");
        out_.raw(R"({"Declaring Class":)");
        out_.string(kFrames[i][0]);
        out_.raw(R"(,"Method Name":)");
        out_.string(kFrames[i][1]);
        out_.raw(R"(,"File Name":)");
        out_.string(kFrames[i][2]);
        out_.raw(R"(,"Line Number":)");
        out_.number(kLines[i]);
        out_.raw("}");
        full += fmt::format("\n\tat {}.{}({}:{})", kFrames[i][0], kFrames[i][1], kFrames[i][2], kLines[i]);
      }
      out_.raw(R"(],"Full Stack Trace":)");
      out_.string(full + "\n");
      accumulator_updates();
      out_.raw("}");
      return;
    }
    case TaskEndKind::kExecutorLost:
      out_.raw(R"({"Reason":"ExecutorLostFailure","Executor ID":)");
      out_.string(reason->executor_id);
      out_.raw(R"(,"Exit Caused By App":)");
      out_.boolean(reason->exit_caused_by_app);
      out_.raw(R"(,"Loss Reason":)");
      out_.string(reason->text);
      out_.raw("}");
      return;
    case TaskEndKind::kFetchFailed:
      out_.raw(R"({"Reason":"FetchFailed","Block Manager Address":{"Executor ID":)");
      out_.string(reason->executor_id);
      out_.raw(R"(,"Host":)");
      out_.string(reason->host);
      out_.raw(R"(,"Port":)");
      out_.number(reason->port);
      out_.raw(R"(},"Shuffle ID":)");
      out_.number(reason->shuffle_id);
      out_.raw(R"(,"Map ID":)");
      out_.number(reason->map_id);
      out_.raw(R"(,"Map Index":)");
      out_.number(reason->map_index);
      out_.raw(R"(,"Reduce ID":)");
      out_.number(reason->reduce_id);
      out_.raw(R"(,"Message":)");
      out_.string(reason->text);
      out_.raw("}");
      return;
    case TaskEndKind::kKilled:
      out_.raw(R"({"Reason":"TaskKilled","Kill Reason":)");
      out_.string(reason->text);
      accumulator_updates();
      out_.raw("}");
      return;
  }
}

void EventWriter::task_metrics(const spark::TaskMetricValues& m) {
  using spark::index_of;
  using spark::TaskMetric;
  auto field = [&](std::string_view key_with_quote_colon, TaskMetric metric) {
    out_.raw(key_with_quote_colon);
    out_.number(m[index_of(metric)]);
  };
  field(R"({"Executor Deserialize Time":)", TaskMetric::kExecutorDeserializeTimeMs);
  field(R"(,"Executor Deserialize CPU Time":)", TaskMetric::kExecutorDeserializeCpuTimeNs);
  field(R"(,"Executor Run Time":)", TaskMetric::kExecutorRunTimeMs);
  field(R"(,"Executor CPU Time":)", TaskMetric::kExecutorCpuTimeNs);
  field(R"(,"Peak Execution Memory":)", TaskMetric::kPeakExecutionMemoryBytes);
  field(R"(,"Result Size":)", TaskMetric::kResultSizeBytes);
  field(R"(,"JVM GC Time":)", TaskMetric::kJvmGcTimeMs);
  field(R"(,"Result Serialization Time":)", TaskMetric::kResultSerializationTimeMs);
  field(R"(,"Memory Bytes Spilled":)", TaskMetric::kMemoryBytesSpilled);
  field(R"(,"Disk Bytes Spilled":)", TaskMetric::kDiskBytesSpilled);
  field(R"(,"Shuffle Read Metrics":{"Remote Blocks Fetched":)", TaskMetric::kShuffleRemoteBlocksFetched);
  field(R"(,"Local Blocks Fetched":)", TaskMetric::kShuffleLocalBlocksFetched);
  field(R"(,"Fetch Wait Time":)", TaskMetric::kShuffleFetchWaitTimeMs);
  field(R"(,"Remote Bytes Read":)", TaskMetric::kShuffleRemoteBytesRead);
  field(R"(,"Remote Bytes Read To Disk":)", TaskMetric::kShuffleRemoteBytesReadToDisk);
  field(R"(,"Local Bytes Read":)", TaskMetric::kShuffleLocalBytesRead);
  field(R"(,"Total Records Read":)", TaskMetric::kShuffleRecordsRead);
  field(R"(,"Remote Requests Duration":)", TaskMetric::kShuffleRemoteReqsDurationMs);
  field(R"(,"Push Based Shuffle":{"Corrupt Merged Block Chunks":)", TaskMetric::kPushCorruptMergedBlockChunks);
  field(R"(,"Merged Fetch Fallback Count":)", TaskMetric::kPushMergedFetchFallbackCount);
  field(R"(,"Merged Remote Blocks Fetched":)", TaskMetric::kPushMergedRemoteBlocksFetched);
  field(R"(,"Merged Local Blocks Fetched":)", TaskMetric::kPushMergedLocalBlocksFetched);
  field(R"(,"Merged Remote Chunks Fetched":)", TaskMetric::kPushMergedRemoteChunksFetched);
  field(R"(,"Merged Local Chunks Fetched":)", TaskMetric::kPushMergedLocalChunksFetched);
  field(R"(,"Merged Remote Bytes Read":)", TaskMetric::kPushMergedRemoteBytesRead);
  field(R"(,"Merged Local Bytes Read":)", TaskMetric::kPushMergedLocalBytesRead);
  field(R"(,"Merged Remote Requests Duration":)", TaskMetric::kPushMergedRemoteReqsDurationMs);
  field(R"(}},"Shuffle Write Metrics":{"Shuffle Bytes Written":)", TaskMetric::kShuffleWriteBytes);
  field(R"(,"Shuffle Write Time":)", TaskMetric::kShuffleWriteTimeNs);
  field(R"(,"Shuffle Records Written":)", TaskMetric::kShuffleWriteRecords);
  field(R"(},"Input Metrics":{"Bytes Read":)", TaskMetric::kInputBytes);
  field(R"(,"Records Read":)", TaskMetric::kInputRecords);
  field(R"(},"Output Metrics":{"Bytes Written":)", TaskMetric::kOutputBytes);
  field(R"(,"Records Written":)", TaskMetric::kOutputRecords);
  out_.raw(R"(},"Updated Blocks":[]})");
}

// Plausible JVM and GC peaks: cosmetic (no model field is compared against them), derived only
// from the task id and executor so that they are deterministic without drawing random numbers.
void EventWriter::task_executor_metrics(const TaskAttempt& task) {
  const auto mix = static_cast<int64_t>((static_cast<uint64_t>(task.task_id) * 2654435761ULL) % 1000003ULL);
  const int64_t heap = 805306368 + mix * 1400;  // 0.75 .. 2.1 GiB
  const int64_t off_heap = 157286400 + (mix % 9973) * 5000;
  const int64_t execution = task.metrics[spark::index_of(spark::TaskMetric::kPeakExecutionMemoryBytes)];
  const int64_t storage = 8388608 + (mix % 4099) * 2048;
  const int64_t minor_gc = 12 + task.executor * 3 + (mix % 37);
  const int64_t major_gc = 2 + (mix % 5);
  out_.raw(R"({"JVMHeapMemory":)");
  out_.number(heap);
  out_.raw(R"(,"JVMOffHeapMemory":)");
  out_.number(off_heap);
  out_.raw(R"(,"OnHeapExecutionMemory":)");
  out_.number(execution);
  out_.raw(R"(,"OffHeapExecutionMemory":0,"OnHeapStorageMemory":)");
  out_.number(storage);
  out_.raw(R"(,"OffHeapStorageMemory":0,"OnHeapUnifiedMemory":)");
  out_.number(storage + execution);
  out_.raw(R"(,"OffHeapUnifiedMemory":0,"DirectPoolMemory":)");
  out_.number(16777216 + (mix % 811) * 4096);
  out_.raw(R"(,"MappedPoolMemory":0,"ProcessTreeJVMVMemory":0,"ProcessTreeJVMRSSMemory":0,)"
           R"("ProcessTreePythonVMemory":0,"ProcessTreePythonRSSMemory":0,"ProcessTreeOtherVMemory":0,)"
           R"("ProcessTreeOtherRSSMemory":0,"MinorGCCount":)");
  out_.number(minor_gc);
  out_.raw(R"(,"MinorGCTime":)");
  out_.number(minor_gc * 23);
  out_.raw(R"(,"MajorGCCount":)");
  out_.number(major_gc);
  out_.raw(R"(,"MajorGCTime":)");
  out_.number(major_gc * 180);
  out_.raw(R"(,"TotalGCTime":)");
  out_.number(minor_gc * 23 + major_gc * 180);
  out_.raw(R"(,"ConcurrentGCCount":0,"ConcurrentGCTime":0})");
}

void EventWriter::task_end(const StageAttemptDesc& stage, const TaskAttempt& task, const ExecutorInfo& executor,
                           const TaskEndReason* reason, std::span<const AccumulatorUpdate> updates) {
  out_.raw(R"({"Event":"SparkListenerTaskEnd","Stage ID":)");
  out_.number(stage.stage_id);
  out_.raw(R"(,"Stage Attempt ID":)");
  out_.number(stage.attempt_id);
  out_.raw(stage.result_stage ? std::string_view(R"(,"Task Type":"ResultTask","Task End Reason":)")
                              : std::string_view(R"(,"Task Type":"ShuffleMapTask","Task End Reason":)"));
  task_end_reason(reason, updates);
  out_.raw(R"(,"Task Info":)");
  task_info(stage, task, executor, updates, true);
  out_.raw(R"(,"Task Executor Metrics":)");
  task_executor_metrics(task);
  if (task.has_metrics) {
    out_.raw(R"(,"Task Metrics":)");
    task_metrics(task.metrics);
  }
  out_.raw("}\n");
}

// ---------------------------------------------------------------------------------------------
// SQL

void EventWriter::plan_node(const PlanDesc& plan, int32_t node_index) {
  const PlanNodeDesc& node = plan.nodes[static_cast<size_t>(node_index)];
  out_.raw(R"({"nodeName":)");
  out_.string(node.name);
  out_.raw(R"(,"simpleString":)");
  out_.string(node.simple_string);
  out_.raw(R"(,"children":[)");
  for (size_t i = 0; i < node.children.size(); ++i) {
    if (i > 0) out_.raw(",");
    plan_node(plan, node.children[i]);
  }
  out_.raw(R"(],"metadata":)");
  out_.string_map(node.metadata);
  out_.raw(R"(,"metrics":[)");
  for (size_t i = 0; i < node.metrics.size(); ++i) {
    if (i > 0) out_.raw(",");
    out_.raw(R"({"name":)");
    out_.string(node.metrics[i].name);
    out_.raw(R"(,"accumulatorId":)");
    out_.number(node.metrics[i].accumulator_id);
    out_.raw(R"(,"metricType":)");
    out_.string(node.metrics[i].metric_type);
    out_.raw("}");
  }
  out_.raw("]}");
}

void EventWriter::sql_execution_start(int64_t execution_id, std::string_view description, std::string_view details,
                                      const PlanDesc& plan, int64_t time_ms) {
  out_.raw(R"({"Event":")");
  out_.raw(kSqlEventPrefix);
  out_.raw(R"(SparkListenerSQLExecutionStart","executionId":)");
  out_.number(execution_id);
  out_.raw(R"(,"rootExecutionId":)");
  out_.number(execution_id);
  out_.raw(R"(,"description":)");
  out_.string(description);
  out_.raw(R"(,"details":)");
  out_.string(details);
  out_.raw(R"(,"physicalPlanDescription":)");
  out_.string(plan.description);
  out_.raw(R"(,"sparkPlanInfo":)");
  plan_node(plan, 0);
  out_.raw(R"(,"time":)");
  out_.number(time_ms);
  out_.raw(R"(,"modifiedConfigs":{}})"
           "\n");
}

void EventWriter::sql_adaptive_execution_update(int64_t execution_id, const PlanDesc& plan) {
  out_.raw(R"({"Event":")");
  out_.raw(kSqlEventPrefix);
  out_.raw(R"(SparkListenerSQLAdaptiveExecutionUpdate","executionId":)");
  out_.number(execution_id);
  out_.raw(R"(,"physicalPlanDescription":)");
  out_.string(plan.description);
  out_.raw(R"(,"sparkPlanInfo":)");
  plan_node(plan, 0);
  out_.raw("}\n");
}

void EventWriter::driver_accum_updates(int64_t execution_id, std::span<const std::pair<int64_t, int64_t>> updates) {
  out_.raw(R"({"Event":")");
  out_.raw(kSqlEventPrefix);
  out_.raw(R"(SparkListenerDriverAccumUpdates","executionId":)");
  out_.number(execution_id);
  out_.raw(R"(,"accumUpdates":[)");
  for (size_t i = 0; i < updates.size(); ++i) {
    if (i > 0) out_.raw(",");
    out_.raw("[");
    out_.number(updates[i].first);
    out_.raw(",");
    out_.number(updates[i].second);
    out_.raw("]");
  }
  out_.raw("]}\n");
}

void EventWriter::sql_execution_end(int64_t execution_id, int64_t time_ms, std::string_view error_message) {
  out_.raw(R"({"Event":")");
  out_.raw(kSqlEventPrefix);
  out_.raw(R"(SparkListenerSQLExecutionEnd","executionId":)");
  out_.number(execution_id);
  out_.raw(R"(,"time":)");
  out_.number(time_ms);
  out_.raw(R"(,"errorMessage":)");
  out_.string(error_message);
  out_.raw("}\n");
}

}  // namespace sf::loggen

#include "report/model_json.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "report/economics_json.h"
#include "report/findings_json.h"

namespace sf::report {

namespace {

using json = nlohmann::ordered_json;
using namespace sf::model;

json optional_int(const std::optional<int64_t>& value) { return value ? json(*value) : json(nullptr); }

json plain_key_values(const KeyValues& values) {
  json out = json::object();
  for (const auto& [key, value] : values) out[key] = value;
  return out;
}

json peaks_json(const ExecutorMetricPeaks& peaks) {
  if (!peaks.present) return nullptr;
  json out = json::object();
  for (size_t i = 0; i < kExecutorMetricCount; ++i) {
    out[std::string(executor_metric_name(static_cast<ExecutorMetric>(i)))] = peaks.values[i];
  }
  return out;
}

json app_json(const AppModel& model) {
  const AppInfo& app = model.app;
  json out;
  out["id"] = app.id;
  out["name"] = app.name;
  out["attemptId"] = app.attempt_id ? json(*app.attempt_id) : json(nullptr);
  out["user"] = app.user;
  out["sparkVersion"] = app.spark_version;
  out["databricks"] = app.databricks;
  out["startTimeMs"] = optional_int(app.start_time_ms);
  out["endTimeMs"] = optional_int(app.end_time_ms);
  out["lastEventTimeMs"] = optional_int(app.last_event_time_ms);
  out["durationMs"] = optional_int(app.duration_ms());
  out["finished"] = app.finished;
  out["exitCode"] = app.exit_code ? json(*app.exit_code) : json(nullptr);
  out["peakConcurrentCores"] = model.peak_concurrent_cores;
  out["peakConcurrentExecutors"] = model.peak_concurrent_executors;
  out["peakCoresFromExecutorCount"] = model.peak_cores_from_executor_count;
  out["driverLogs"] = plain_key_values(app.driver_logs);
  return out;
}

json environment_json(const Environment& env) {
  json out;
  out["jvmInformation"] = plain_key_values(env.jvm_information);
  out["sparkProperties"] = plain_key_values(env.spark_properties);
  out["systemProperties"] = plain_key_values(env.system_properties);
  out["hadoopProperties"] = plain_key_values(env.hadoop_properties);
  out["metricsProperties"] = plain_key_values(env.metrics_properties);
  out["classpathEntryCount"] = env.classpath_entries.size();
  json profiles = json::array();
  for (const auto& profile : env.resource_profiles) {
    auto requests = [](const std::vector<ResourceRequest>& list) {
      json items = json::array();
      for (const auto& r : list) {
        items.push_back({{"name", r.name}, {"amount", r.amount}, {"discoveryScript", r.discovery_script}, {"vendor", r.vendor}});
      }
      return items;
    };
    profiles.push_back({{"id", profile.id},
                        {"executorResources", requests(profile.executor_resources)},
                        {"taskResources", requests(profile.task_resources)}});
  }
  out["resourceProfiles"] = std::move(profiles);
  return out;
}

json executors_json(const AppModel& model) {
  json out = json::array();
  for (const Executor& e : model.executors) {
    json x;
    x["executorId"] = e.id;
    x["host"] = e.host;
    x["totalCores"] = e.total_cores;
    x["resourceProfileId"] = e.resource_profile_id;
    x["addTimeMs"] = optional_int(e.add_time_ms);
    x["removeTimeMs"] = optional_int(e.remove_time_ms);
    x["removeReason"] = e.remove_reason;
    x["maxMemoryBytes"] = e.max_memory_bytes;
    x["maxOnHeapMemoryBytes"] = optional_int(e.max_onheap_memory_bytes);
    x["maxOffHeapMemoryBytes"] = optional_int(e.max_offheap_memory_bytes);
    x["tasks"] = {{"total", e.tasks_total}, {"succeeded", e.tasks_succeeded}, {"failed", e.tasks_failed}, {"killed", e.tasks_killed}};
    x["totalDurationMs"] = e.total_duration_ms;
    x["totalGcTimeMs"] = e.total_gc_time_ms;
    x["totalInputBytes"] = e.total_input_bytes;
    x["totalShuffleReadBytes"] = e.total_shuffle_read_bytes;
    x["totalShuffleWriteBytes"] = e.total_shuffle_write_bytes;
    x["excluded"] = e.excluded;
    x["excludedInStages"] = e.excluded_in_stages;
    x["peakMetrics"] = peaks_json(e.peak_metrics);
    json resources = json::object();
    for (const auto& r : e.resources) resources[r.name] = {{"name", r.name}, {"addresses", r.addresses}};
    x["resources"] = std::move(resources);
    x["attributes"] = plain_key_values(e.attributes);
    x["logUrls"] = plain_key_values(e.log_urls);
    out.push_back(std::move(x));
  }
  return out;
}

json jobs_json(const AppModel& model) {
  json out = json::array();
  for (const Job& j : model.jobs) {
    json x;
    x["jobId"] = j.job_id;
    x["name"] = j.name;
    x["description"] = j.description;
    x["jobGroup"] = j.job_group;
    x["status"] = to_string(j.status);
    x["submissionTimeMs"] = optional_int(j.submission_time_ms);
    x["completionTimeMs"] = optional_int(j.completion_time_ms);
    x["durationMs"] = optional_int(j.duration_ms());
    x["failureReason"] = j.failure_reason;
    x["sqlExecutionId"] = optional_int(j.sql_execution_id);
    x["stageIds"] = j.stage_ids;
    x["numTasks"] = j.num_tasks;
    x["numCompletedTasks"] = j.num_completed_tasks;
    x["numSkippedTasks"] = j.num_skipped_tasks;
    x["numFailedTasks"] = j.num_failed_tasks;
    x["numKilledTasks"] = j.num_killed_tasks;
    x["numActiveTasks"] = j.num_active_tasks;
    x["numCompletedIndices"] = j.num_completed_indices;
    x["numActiveStages"] = j.num_active_stages;
    x["numCompletedStages"] = j.num_completed_stages;
    x["numSkippedStages"] = j.num_skipped_stages;
    x["numFailedStages"] = j.num_failed_stages;
    out.push_back(std::move(x));
  }
  return out;
}

json quantiles_json(const Quantiles& q) {
  return {{"count", q.count}, {"min", q.min}, {"p5", q.p5},   {"p25", q.p25},
          {"p50", q.p50},     {"p75", q.p75}, {"p95", q.p95}, {"max", q.max}};
}

json stage_json(const AppModel& model, const StageAttempt& s) {
  json x;
  x["stageId"] = s.stage_id;
  x["attemptId"] = s.attempt_id;
  x["name"] = s.name;
  x["status"] = to_string(s.status);
  x["numTasks"] = s.num_tasks;
  x["submissionTimeMs"] = optional_int(s.submission_time_ms);
  x["firstTaskLaunchedTimeMs"] = optional_int(s.first_task_launched_time_ms);
  x["completionTimeMs"] = optional_int(s.completion_time_ms);
  x["durationMs"] = optional_int(s.duration_ms());
  x["failureReason"] = s.failure_reason;
  x["description"] = s.description;
  x["schedulingPool"] = s.scheduling_pool;
  x["jobIds"] = s.job_ids;
  x["sqlExecutionId"] = optional_int(s.sql_execution_id);
  x["parentIds"] = s.parent_ids;
  x["rddIds"] = s.rdd_ids;
  x["resourceProfileId"] = s.resource_profile_id;
  x["shufflePushEnabled"] = s.shuffle_push_enabled;
  x["tasks"] = {{"started", s.tasks_started},     {"succeeded", s.tasks_succeeded},
                {"failed", s.tasks_failed},       {"killed", s.tasks_killed},
                {"speculative", s.tasks_speculative}, {"active", s.tasks_active},
                {"completedIndices", s.completed_indices}, {"failedTimeMs", s.failed_task_time_ms},
                {"killedTimeMs", s.killed_task_time_ms}};
  json locality = json::object();
  for (size_t i = 0; i < kLocalityLevelCount; ++i) {
    locality[std::string(to_string(static_cast<LocalityLevel>(i)))] = s.locality_counts[i];
  }
  x["localityCounts"] = std::move(locality);
  json metrics;
  for (size_t i = 0; i < kTaskMetricCount; ++i) {
    metrics[std::string(task_metric_name(static_cast<TaskMetric>(i)))] = s.metric_sums[i];
  }
  metrics["shuffleReadBytes"] = s.shuffle_read_bytes();
  x["metrics"] = std::move(metrics);
  json quantiles;
  for (size_t i = 0; i < kQuantileMetricCount; ++i) {
    quantiles[std::string(quantile_metric_name(static_cast<QuantileMetric>(i)))] = quantiles_json(s.quantiles[i]);
  }
  x["quantiles"] = std::move(quantiles);
  x["maxTaskDurationMs"] = s.max_task_duration_ms;
  x["maxTaskDurationTaskId"] = optional_int(s.max_task_duration_task_id);
  json killed = json::object();
  for (const auto& [reason, count] : s.killed_tasks_summary) killed[reason] = count;
  x["killedTasksSummary"] = std::move(killed);
  json failures = json::array();
  for (const auto& f : s.failure_reasons) failures.push_back({{"reason", f.reason}, {"count", f.count}});
  x["failureReasons"] = std::move(failures);
  json executors = json::array();
  for (const auto& e : s.executors) {
    executors.push_back({{"executorId", e.executor_id},
                         {"host", e.host},
                         {"tasksSucceeded", e.tasks_succeeded},
                         {"tasksFailed", e.tasks_failed},
                         {"tasksKilled", e.tasks_killed},
                         {"taskTimeMs", e.task_time_ms},
                         {"succeededTaskTimeMs", e.succeeded_task_time_ms},
                         {"executorRunTimeMs", e.executor_run_time_ms},
                         {"jvmGcTimeMs", e.jvm_gc_time_ms},
                         {"inputBytes", e.input_bytes},
                         {"inputRecords", e.input_records},
                         {"outputBytes", e.output_bytes},
                         {"outputRecords", e.output_records},
                         {"shuffleReadBytes", e.shuffle_read_bytes},
                         {"shuffleReadRecords", e.shuffle_read_records},
                         {"shuffleWriteBytes", e.shuffle_write_bytes},
                         {"shuffleWriteRecords", e.shuffle_write_records},
                         {"memorySpillBytes", e.memory_bytes_spilled},
                         {"diskSpillBytes", e.disk_bytes_spilled},
                         {"excluded", e.excluded},
                         {"peakMetrics", peaks_json(e.peak_metrics)}});
  }
  x["executors"] = std::move(executors);
  json hosts = json::array();
  for (const auto& h : s.hosts) {
    hosts.push_back({{"host", h.host},
                     {"executors", h.executors},
                     {"tasksSucceeded", h.tasks_succeeded},
                     {"tasksFailed", h.tasks_failed},
                     {"tasksKilled", h.tasks_killed},
                     {"taskTimeMs", h.task_time_ms},
                     {"succeededTaskTimeMs", h.succeeded_task_time_ms},
                     {"executorRunTimeMs", h.executor_run_time_ms},
                     {"jvmGcTimeMs", h.jvm_gc_time_ms},
                     {"inputBytes", h.input_bytes},
                     {"shuffleReadBytes", h.shuffle_read_bytes},
                     {"shuffleWriteBytes", h.shuffle_write_bytes},
                     {"diskSpillBytes", h.disk_bytes_spilled}});
  }
  x["hosts"] = std::move(hosts);
  x["peakExecutorMetrics"] = peaks_json(s.peak_executor_metrics);
  json accumulables = json::array();
  for (const auto& a : s.accumulables) accumulables.push_back({{"id", a.id}, {"name", a.name}, {"value", a.value}});
  x["accumulables"] = std::move(accumulables);
  json plan_nodes = json::array();
  if (auto it = model.stage_plan_nodes.find(s.stage_id); it != model.stage_plan_nodes.end()) {
    for (const auto& ref : it->second) plan_nodes.push_back({{"executionId", ref.execution_id}, {"nodeId", ref.node_id}});
  }
  x["planNodes"] = std::move(plan_nodes);
  x["details"] = s.details;
  return x;
}

json plan_json(const PlanTree& tree) {
  json nodes = json::array();
  for (const PlanNode& node : tree.nodes) {
    json metrics = json::array();
    for (const auto& m : node.metrics) {
      metrics.push_back({{"name", m.name},
                         {"accumulatorId", m.accumulator_id},
                         {"metricType", m.metric_type},
                         {"value", optional_int(m.value)}});
    }
    nodes.push_back({{"nodeId", node.node_id},
                     {"nodeName", node.node_name},
                     {"simpleString", node.simple_string},
                     {"children", node.children},
                     {"stageIds", node.stage_ids},
                     {"metrics", std::move(metrics)},
                     {"metadata", plain_key_values(node.metadata)}});
  }
  return nodes;
}

json sql_json(const AppModel& model, const JsonOptions& options) {
  json out = json::array();
  for (const SqlExecution& s : model.sql) {
    json x;
    x["executionId"] = s.execution_id;
    x["rootExecutionId"] = optional_int(s.root_execution_id);
    x["description"] = s.description;
    x["startTimeMs"] = optional_int(s.start_time_ms);
    x["endTimeMs"] = optional_int(s.end_time_ms);
    x["durationMs"] = optional_int(s.duration_ms());
    x["errorMessage"] = s.error_message ? json(*s.error_message) : json(nullptr);
    x["jobIds"] = s.job_ids;
    x["stageIds"] = s.stage_ids;
    x["adaptiveUpdates"] = s.adaptive_updates;
    x["planNodeCount"] = s.plan.nodes.size();
    x["modifiedConfigs"] = plain_key_values(s.modified_configs);
    json driver = json::array();
    for (const auto& [id, value] : s.driver_accum_updates) driver.push_back({{"accumulatorId", id}, {"value", value}});
    x["driverAccumUpdates"] = std::move(driver);
    if (options.include_plans) {
      x["plan"] = plan_json(s.plan);
      json earlier = json::array();
      for (const auto& version : s.earlier_plans) earlier.push_back({{"nodes", plan_json(version.plan)}});
      x["earlierPlans"] = std::move(earlier);
      json adaptive = json::array();
      for (const auto& m : s.adaptive_metrics) {
        adaptive.push_back({{"name", m.name}, {"accumulatorId", m.accumulator_id}, {"metricType", m.metric_type}});
      }
      x["adaptiveMetrics"] = std::move(adaptive);
      x["physicalPlanDescription"] = s.physical_plan_description;
    }
    x["details"] = s.details;
    out.push_back(std::move(x));
  }
  return out;
}

json rdds_json(const AppModel& model) {
  json out = json::array();
  for (const auto& [id, r] : model.rdds) {
    if (!r.is_cached()) continue;  // only cached RDDs are of interest past their stage
    out.push_back({{"rddId", r.rdd_id},
                   {"name", r.name},
                   {"storageLevel", r.storage_level},
                   {"numPartitions", r.num_partitions},
                   {"numCachedPartitions", r.num_cached_partitions},
                   {"memorySizeBytes", r.memory_size_bytes},
                   {"diskSizeBytes", r.disk_size_bytes},
                   {"callsite", r.callsite}});
  }
  return out;
}

json diagnostics_json(const Diagnostics& d) {
  json out;
  out["linesRead"] = d.lines_read;
  out["eventsDecoded"] = d.events_decoded;
  out["blankLines"] = d.blank_lines;
  out["skippedLines"] = d.malformed_lines;
  json malformed = json::array();
  for (const auto& m : d.malformed) {
    malformed.push_back({{"part", m.part}, {"line", m.line_number}, {"byteOffset", m.byte_offset}, {"reason", m.reason}});
  }
  out["malformedLines"] = std::move(malformed);
  json unknown = json::object();
  for (const auto& [name, count] : d.unknown_events) unknown[name] = count;
  out["unknownEvents"] = std::move(unknown);
  json orphans = json::object();
  for (const auto& [kind, count] : d.orphan_events) orphans[kind] = count;
  out["orphanEvents"] = std::move(orphans);
  out["incomplete"] = d.incomplete;
  out["truncatedLastLine"] = d.truncated_last_line;
  out["readError"] = d.read_error ? json(*d.read_error) : json(nullptr);
  out["missingParts"] = d.missing_parts;
  out["notes"] = d.notes;
  return out;
}

}  // namespace

std::string analysis_json(const AppModel& model, const analysis::Analysis* analysis, const JsonOptions& options) {
  json doc;
  doc["schemaVersion"] = kAnalysisSchemaVersion;
  json source;
  source["path"] = model.source.path;
  source["layout"] = model.source.layout;
  source["inProgress"] = model.source.in_progress;
  json parts = json::array();
  for (const auto& p : model.source.parts) {
    parts.push_back({{"name", p.name},
                     {"codec", p.codec},
                     {"storedBytes", p.stored_bytes},
                     {"uncompressedBytes", p.uncompressed_bytes},
                     {"lines", p.lines}});
  }
  source["parts"] = std::move(parts);
  doc["source"] = std::move(source);
  doc["app"] = app_json(model);
  doc["environment"] = environment_json(model.environment);
  doc["executors"] = executors_json(model);
  doc["jobs"] = jobs_json(model);
  json stages = json::array();
  for (const auto& s : model.stages) stages.push_back(stage_json(model, s));
  doc["stages"] = std::move(stages);
  doc["sql"] = sql_json(model, options);
  doc["rdds"] = rdds_json(model);
  doc["diagnostics"] = diagnostics_json(model.diagnostics);
  if (analysis != nullptr) {
    doc["findings"] = findings_json(*analysis);
    doc["rollup"] = rollup_json(*analysis);
    doc["analysisConfig"] = analysis_config_json(*analysis);
    doc["economics"] = economics_json(analysis->economics);
  }
  // Invalid UTF-8 in a log's strings is replaced rather than failing the whole document.
  return doc.dump(options.indent, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace sf::report

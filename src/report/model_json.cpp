#include "report/model_json.h"

#include <future>
#include <unordered_map>

#include "common/json_writer.h"
#include "report/connect_json.h"
#include "report/document_kind.h"
#include "report/economics_json.h"
#include "report/findings_json.h"
#include "report/streaming_json.h"

namespace sf::report {

namespace {

using namespace sf::model;

// A JSON object has each name once: a key a log repeats keeps its first place and its last
// value. `pairs` is a vector of (key, value); most are sorted by key, which proves them unique.
template <typename Pairs, typename WriteValue>
void write_unique_members(JsonWriter& w, const Pairs& pairs, WriteValue write_value) {
  bool strictly_sorted = true;
  for (size_t i = 1; i < pairs.size() && strictly_sorted; ++i) strictly_sorted = pairs[i - 1].first < pairs[i].first;
  w.begin_object();
  if (strictly_sorted) {
    for (const auto& [key, value] : pairs) {
      w.key(key);
      write_value(value);
    }
  } else {
    std::unordered_map<std::string_view, size_t> last;
    for (size_t i = 0; i < pairs.size(); ++i) last[pairs[i].first] = i;
    for (const auto& pair : pairs) {
      auto it = last.find(pair.first);
      if (it == last.end()) continue;
      w.key(pair.first);
      write_value(pairs[it->second].second);
      last.erase(it);
    }
  }
  w.end_object();
}

template <typename Pairs>
void write_unique_pairs(JsonWriter& w, const Pairs& pairs) {
  write_unique_members(w, pairs, [&](const auto& value) { w.value(value); });
}

void write_peaks(JsonWriter& w, const ExecutorMetricPeaks& peaks) {
  if (!peaks.present) return w.null();
  w.object([&] {
    for (size_t i = 0; i < kExecutorMetricCount; ++i) {
      w.field(executor_metric_name(static_cast<ExecutorMetric>(i)), peaks.values[i]);
    }
  });
}

void write_source(JsonWriter& w, const SourceInfo& source) {
  w.object([&] {
    w.field("path", source.path);
    w.field("layout", source.layout);
    w.field("inProgress", source.in_progress);
    w.array_field("parts", [&] {
      for (const auto& p : source.parts) {
        w.object([&] {
          w.field("name", p.name);
          w.field("codec", p.codec);
          w.field("storedBytes", p.stored_bytes);
          w.field("uncompressedBytes", p.uncompressed_bytes);
          w.field("lines", p.lines);
        });
      }
    });
  });
}

void write_app(JsonWriter& w, const AppModel& model) {
  const AppInfo& app = model.app;
  w.object([&] {
    w.field("id", app.id);
    w.field("name", app.name);
    w.field("attemptId", app.attempt_id);
    w.field("user", app.user);
    w.field("sparkVersion", app.spark_version);
    w.field("databricks", app.databricks);
    w.field("startTimeMs", app.start_time_ms);
    w.field("endTimeMs", app.end_time_ms);
    w.field("lastEventTimeMs", app.last_event_time_ms);
    w.field("durationMs", app.duration_ms());
    w.field("finished", app.finished);
    w.field("exitCode", app.exit_code);
    w.field("peakConcurrentCores", model.peak_concurrent_cores);
    w.field("peakConcurrentExecutors", model.peak_concurrent_executors);
    w.field("peakCoresFromExecutorCount", model.peak_cores_from_executor_count);
    w.key("driverLogs");
    write_unique_pairs(w, app.driver_logs);
  });
}

void write_resource_requests(JsonWriter& w, const std::vector<ResourceRequest>& requests) {
  w.array([&] {
    for (const auto& r : requests) {
      w.object([&] {
        w.field("name", r.name);
        w.field("amount", r.amount);
        w.field("discoveryScript", r.discovery_script);
        w.field("vendor", r.vendor);
      });
    }
  });
}

void write_environment(JsonWriter& w, const Environment& env) {
  w.object([&] {
    w.key("jvmInformation");
    write_unique_pairs(w, env.jvm_information);
    w.key("sparkProperties");
    write_unique_pairs(w, env.spark_properties);
    w.key("systemProperties");
    write_unique_pairs(w, env.system_properties);
    w.key("hadoopProperties");
    write_unique_pairs(w, env.hadoop_properties);
    w.key("metricsProperties");
    write_unique_pairs(w, env.metrics_properties);
    w.field("classpathEntryCount", env.classpath_entries.size());
    w.array_field("resourceProfiles", [&] {
      for (const auto& profile : env.resource_profiles) {
        w.object([&] {
          w.field("id", profile.id);
          w.key("executorResources");
          write_resource_requests(w, profile.executor_resources);
          w.key("taskResources");
          write_resource_requests(w, profile.task_resources);
        });
      }
    });
  });
}

void write_executor(JsonWriter& w, const Executor& e) {
  w.object([&] {
    w.field("executorId", e.id);
    w.field("host", e.host);
    w.field("totalCores", e.total_cores);
    w.field("resourceProfileId", e.resource_profile_id);
    w.field("addTimeMs", e.add_time_ms);
    w.field("requestTimeMs", e.request_time_ms);
    w.field("registrationTimeMs", e.registration_time_ms);
    w.field("removeTimeMs", e.remove_time_ms);
    w.field("removeReason", e.remove_reason);
    w.field("maxMemoryBytes", e.max_memory_bytes);
    w.field("maxOnHeapMemoryBytes", e.max_onheap_memory_bytes);
    w.field("maxOffHeapMemoryBytes", e.max_offheap_memory_bytes);
    w.object_field("tasks", [&] {
      w.field("total", e.tasks_total);
      w.field("succeeded", e.tasks_succeeded);
      w.field("failed", e.tasks_failed);
      w.field("killed", e.tasks_killed);
    });
    w.field("totalDurationMs", e.total_duration_ms);
    w.field("totalGcTimeMs", e.total_gc_time_ms);
    w.field("totalInputBytes", e.total_input_bytes);
    w.field("totalShuffleReadBytes", e.total_shuffle_read_bytes);
    w.field("totalShuffleWriteBytes", e.total_shuffle_write_bytes);
    w.field("excluded", e.excluded);
    w.field("excludedInStages", e.excluded_in_stages);
    w.key("peakMetrics");
    write_peaks(w, e.peak_metrics);
    std::vector<std::pair<std::string_view, const ResourceInformation*>> resources;
    for (const auto& r : e.resources) resources.emplace_back(r.name, &r);
    w.key("resources");
    write_unique_members(w, resources, [&](const ResourceInformation* r) {
      w.object([&] {
        w.field("name", r->name);
        w.field("addresses", r->addresses);
      });
    });
    w.key("attributes");
    write_unique_pairs(w, e.attributes);
    w.key("logUrls");
    write_unique_pairs(w, e.log_urls);
  });
}

void write_job(JsonWriter& w, const Job& j) {
  w.object([&] {
    w.field("jobId", j.job_id);
    w.field("name", j.name);
    w.field("description", j.description);
    w.field("jobGroup", j.job_group);
    w.field("status", to_string(j.status));
    w.field("submissionTimeMs", j.submission_time_ms);
    w.field("completionTimeMs", j.completion_time_ms);
    w.field("durationMs", j.duration_ms());
    w.field("failureReason", j.failure_reason);
    w.field("sqlExecutionId", j.sql_execution_id);
    w.field("stageIds", j.stage_ids);
    w.field("numTasks", j.num_tasks);
    w.field("numCompletedTasks", j.num_completed_tasks);
    w.field("numSkippedTasks", j.num_skipped_tasks);
    w.field("numFailedTasks", j.num_failed_tasks);
    w.field("numKilledTasks", j.num_killed_tasks);
    w.field("numActiveTasks", j.num_active_tasks);
    w.field("numCompletedIndices", j.num_completed_indices);
    w.field("numActiveStages", j.num_active_stages);
    w.field("numCompletedStages", j.num_completed_stages);
    w.field("numSkippedStages", j.num_skipped_stages);
    w.field("numFailedStages", j.num_failed_stages);
  });
}

void write_quantiles(JsonWriter& w, const Quantiles& q) {
  w.object([&] {
    w.field("count", q.count);
    w.field("min", q.min);
    w.field("p5", q.p5);
    w.field("p25", q.p25);
    w.field("p50", q.p50);
    w.field("p75", q.p75);
    w.field("p95", q.p95);
    w.field("max", q.max);
  });
}

void write_stage_executor(JsonWriter& w, const ExecutorStageSummary& e) {
  w.object([&] {
    w.field("executorId", e.executor_id);
    w.field("host", e.host);
    w.field("tasksSucceeded", e.tasks_succeeded);
    w.field("tasksFailed", e.tasks_failed);
    w.field("tasksKilled", e.tasks_killed);
    w.field("taskTimeMs", e.task_time_ms);
    w.field("succeededTaskTimeMs", e.succeeded_task_time_ms);
    w.field("executorRunTimeMs", e.executor_run_time_ms);
    w.field("jvmGcTimeMs", e.jvm_gc_time_ms);
    w.field("inputBytes", e.input_bytes);
    w.field("inputRecords", e.input_records);
    w.field("outputBytes", e.output_bytes);
    w.field("outputRecords", e.output_records);
    w.field("shuffleReadBytes", e.shuffle_read_bytes);
    w.field("shuffleReadRecords", e.shuffle_read_records);
    w.field("shuffleWriteBytes", e.shuffle_write_bytes);
    w.field("shuffleWriteRecords", e.shuffle_write_records);
    w.field("memorySpillBytes", e.memory_bytes_spilled);
    w.field("diskSpillBytes", e.disk_bytes_spilled);
    w.field("excluded", e.excluded);
    w.key("peakMetrics");
    write_peaks(w, e.peak_metrics);
  });
}

void write_stage_host(JsonWriter& w, const HostStageSummary& h) {
  w.object([&] {
    w.field("host", h.host);
    w.field("executors", h.executors);
    w.field("tasksSucceeded", h.tasks_succeeded);
    w.field("tasksFailed", h.tasks_failed);
    w.field("tasksKilled", h.tasks_killed);
    w.field("taskTimeMs", h.task_time_ms);
    w.field("succeededTaskTimeMs", h.succeeded_task_time_ms);
    w.field("executorRunTimeMs", h.executor_run_time_ms);
    w.field("jvmGcTimeMs", h.jvm_gc_time_ms);
    w.field("inputBytes", h.input_bytes);
    w.field("shuffleReadBytes", h.shuffle_read_bytes);
    w.field("shuffleWriteBytes", h.shuffle_write_bytes);
    w.field("diskSpillBytes", h.disk_bytes_spilled);
  });
}

}  // namespace

void write_stage(JsonWriter& w, const AppModel& model, const StageAttempt& s) {
  w.object([&] {
    w.field("stageId", s.stage_id);
    w.field("attemptId", s.attempt_id);
    w.field("name", s.name);
    w.field("status", to_string(s.status));
    w.field("numTasks", s.num_tasks);
    w.field("submissionTimeMs", s.submission_time_ms);
    w.field("firstTaskLaunchedTimeMs", s.first_task_launched_time_ms);
    w.field("completionTimeMs", s.completion_time_ms);
    w.field("durationMs", s.duration_ms());
    w.field("failureReason", s.failure_reason);
    w.field("description", s.description);
    w.field("schedulingPool", s.scheduling_pool);
    w.field("jobIds", s.job_ids);
    w.field("sqlExecutionId", s.sql_execution_id);
    w.field("parentIds", s.parent_ids);
    w.field("rddIds", s.rdd_ids);
    w.field("resourceProfileId", s.resource_profile_id);
    w.field("shufflePushEnabled", s.shuffle_push_enabled);
    w.object_field("tasks", [&] {
      w.field("started", s.tasks_started);
      w.field("succeeded", s.tasks_succeeded);
      w.field("failed", s.tasks_failed);
      w.field("killed", s.tasks_killed);
      w.field("speculative", s.tasks_speculative);
      w.field("active", s.tasks_active);
      w.field("completedIndices", s.completed_indices);
      w.field("failedTimeMs", s.failed_task_time_ms);
      w.field("killedTimeMs", s.killed_task_time_ms);
    });
    w.object_field("localityCounts", [&] {
      for (size_t i = 0; i < kLocalityLevelCount; ++i) {
        w.field(to_string(static_cast<LocalityLevel>(i)), s.locality_counts[i]);
      }
    });
    w.object_field("metrics", [&] {
      for (size_t i = 0; i < kTaskMetricCount; ++i) {
        w.field(task_metric_name(static_cast<TaskMetric>(i)), s.metric_sums[i]);
      }
      w.field("shuffleReadBytes", s.shuffle_read_bytes());
    });
    w.object_field("quantiles", [&] {
      for (size_t i = 0; i < kQuantileMetricCount; ++i) {
        w.key(quantile_metric_name(static_cast<QuantileMetric>(i)));
        write_quantiles(w, s.quantiles[i]);
      }
    });
    w.field("maxTaskDurationMs", s.max_task_duration_ms);
    w.field("maxTaskDurationTaskId", s.max_task_duration_task_id);
    w.key("killedTasksSummary");
    write_unique_pairs(w, s.killed_tasks_summary);
    w.array_field("failureReasons", [&] {
      for (const auto& f : s.failure_reasons) {
        w.object([&] {
          w.field("reason", f.reason);
          w.field("count", f.count);
        });
      }
    });
    w.array_field("executors", [&] {
      for (const auto& e : s.executors) write_stage_executor(w, e);
    });
    w.array_field("hosts", [&] {
      for (const auto& h : s.hosts) write_stage_host(w, h);
    });
    w.key("peakExecutorMetrics");
    write_peaks(w, s.peak_executor_metrics);
    w.array_field("accumulables", [&] {
      for (const auto& a : s.accumulables) {
        w.object([&] {
          w.field("id", a.id);
          w.field("name", a.name);
          w.field("value", a.value);
        });
      }
    });
    w.array_field("planNodes", [&] {
      auto it = model.stage_plan_nodes.find(s.stage_id);
      if (it == model.stage_plan_nodes.end()) return;
      for (const auto& ref : it->second) {
        w.object([&] {
          w.field("executionId", ref.execution_id);
          w.field("nodeId", ref.node_id);
        });
      }
    });
    w.field("details", s.details);
  });
}

void write_plan_metrics(JsonWriter& w, const PlanNode& node) {
  w.array([&] {
    for (const auto& m : node.metrics) {
      w.object([&] {
        w.field("name", m.name);
        w.field("accumulatorId", m.accumulator_id);
        w.field("metricType", m.metric_type);
        w.field("value", m.value);
      });
    }
  });
}

namespace {

void write_plan_node(JsonWriter& w, const PlanNode& node) {
  w.object([&] {
    w.field("nodeId", node.node_id);
    w.field("nodeName", node.node_name);
    w.field("simpleString", node.simple_string);
    w.field("children", node.children);
    w.field("stageIds", node.stage_ids);
    w.key("metrics");
    write_plan_metrics(w, node);
    w.key("metadata");
    write_unique_pairs(w, node.metadata);
  });
}

void write_plan(JsonWriter& w, const PlanTree& tree) {
  w.array([&] {
    for (const PlanNode& node : tree.nodes) write_plan_node(w, node);
  });
}

void write_sql_execution(JsonWriter& w, const SqlExecution& s, const JsonOptions& options) {
  w.object([&] {
    w.field("executionId", s.execution_id);
    w.field("rootExecutionId", s.root_execution_id);
    w.field("description", s.description);
    w.field("startTimeMs", s.start_time_ms);
    w.field("endTimeMs", s.end_time_ms);
    w.field("durationMs", s.duration_ms());
    w.field("errorMessage", s.error_message);
    w.field("jobIds", s.job_ids);
    w.field("stageIds", s.stage_ids);
    w.field("adaptiveUpdates", s.adaptive_updates);
    w.field("planNodeCount", s.plan.nodes.size());
    w.key("modifiedConfigs");
    write_unique_pairs(w, s.modified_configs);
    w.array_field("driverAccumUpdates", [&] {
      for (const auto& update : s.driver_accum_updates) {  // (id, value); no binding: clang 14 captures none
        w.object([&] {
          w.field("accumulatorId", update.first);
          w.field("value", update.second);
        });
      }
    });
    if (options.include_plans) {
      w.key("plan");
      write_plan(w, s.plan);
      w.array_field("earlierPlans", [&] {
        for (const auto& version : s.earlier_plans) {
          w.object([&] {
            w.key("nodes");
            write_plan(w, version.plan);
          });
        }
      });
      w.array_field("adaptiveMetrics", [&] {
        for (const auto& m : s.adaptive_metrics) {
          w.object([&] {
            w.field("name", m.name);
            w.field("accumulatorId", m.accumulator_id);
            w.field("metricType", m.metric_type);
          });
        }
      });
      w.field("physicalPlanDescription", s.physical_plan_description);
    }
    w.field("details", s.details);
  });
}

void write_cached_rdds(JsonWriter& w, const AppModel& model) {
  w.array([&] {
    for (const auto& entry : model.rdds) {
      const auto& r = entry.second;  // a reference, not a binding: clang 14 lets no lambda capture one
      if (!r.is_cached()) continue;  // only cached RDDs are of interest past their stage
      w.object([&] {
        w.field("rddId", r.rdd_id);
        w.field("name", r.name);
        w.field("storageLevel", r.storage_level);
        w.field("numPartitions", r.num_partitions);
        w.field("numCachedPartitions", r.num_cached_partitions);
        w.field("memorySizeBytes", r.memory_size_bytes);
        w.field("diskSizeBytes", r.disk_size_bytes);
        w.field("callsite", r.callsite);
      });
    }
  });
}

void write_diagnostics(JsonWriter& w, const Diagnostics& d) {
  w.object([&] {
    w.field("linesRead", d.lines_read);
    w.field("eventsDecoded", d.events_decoded);
    w.field("blankLines", d.blank_lines);
    w.field("skippedLines", d.malformed_lines);
    w.array_field("malformedLines", [&] {
      for (const auto& m : d.malformed) {
        w.object([&] {
          w.field("part", m.part);
          w.field("line", m.line_number);
          w.field("byteOffset", m.byte_offset);
          w.field("reason", m.reason);
        });
      }
    });
    w.key("unknownEvents");
    write_unique_pairs(w, d.unknown_events);
    w.key("orphanEvents");
    write_unique_pairs(w, d.orphan_events);
    w.field("incomplete", d.incomplete);
    w.field("truncatedLastLine", d.truncated_last_line);
    w.field("readError", d.read_error);
    w.field("missingParts", d.missing_parts);
    w.field("timesOutsideRun", d.times_outside_run);
    w.field("notes", d.notes);
  });
}

}  // namespace

namespace {

// The sections of the model, which the analysis does not change: the document's first part.
void write_model_sections(JsonWriter& w, const AppModel& model, const JsonOptions& options) {
  write_document_kind(w, kAnalysisDocument);
  w.key("source");
  write_source(w, model.source);
  w.key("app");
  write_app(w, model);
  w.key("environment");
  write_environment(w, model.environment);
  w.array_field("executors", [&] {
    for (const Executor& e : model.executors) write_executor(w, e);
  });
  w.array_field("jobs", [&] {
    for (const Job& j : model.jobs) write_job(w, j);
  });
  w.array_field("stages", [&] {
    for (const auto& s : model.stages) write_stage(w, model, s);
  });
  w.array_field("sql", [&] {
    for (const SqlExecution& s : model.sql) write_sql_execution(w, s, options);
  });
  w.key("rdds");
  write_cached_rdds(w, model);
  w.key("streamingQueries");
  write_streaming_queries(w, model.streaming_queries);
  w.key("connectSessions");
  write_connect_sessions(w, model.connect_sessions);
  w.key("connectOperations");
  write_connect_operations(w, model.connect_operations);
  w.key("diagnostics");
  write_diagnostics(w, model.diagnostics);
}

void write_analysis_sections(JsonWriter& w, const analysis::Analysis& analysis) {
  w.key("findings");
  write_findings(w, analysis);
  w.key("rollup");
  write_rollup(w, analysis);
  w.key("analysisConfig");
  write_analysis_config(w, analysis);
  w.key("economics");
  write_economics(w, analysis.economics);
  w.key("streaming");
  write_streaming_summaries(w, analysis);
  w.key("connect");
  write_connect_summaries(w, analysis.connect);
}

}  // namespace

namespace {

void write_document(JsonWriter& w, const AppModel& model, const analysis::Analysis* analysis,
                    const JsonOptions& options) {
  w.object([&] {
    write_model_sections(w, model, options);
    if (analysis != nullptr) write_analysis_sections(w, *analysis);
  });
}

void write_document_while_analyzing(JsonWriter& w, const AppModel& model,
                                    const std::function<const analysis::Analysis&()>& analyze,
                                    const JsonOptions& options) {
  w.begin_object();
  // The writer changes hands once: the other thread writes the first part, and get() makes what
  // it wrote (and handed to a drain) visible here before this thread goes on.
  auto first_part = std::async(std::launch::async, [&] { write_model_sections(w, model, options); });
  const analysis::Analysis& analysis = analyze();
  first_part.get();
  write_analysis_sections(w, analysis);
  w.end_object();
}

// The text `write` makes, with the document's final newline: returned, or with a sink handed to
// it in pieces as it is written (and "" returned).
std::string document_text(int indent, const TextSink& sink, const std::function<void(JsonWriter&)>& write) {
  std::string out;
  JsonWriter w(out, indent, sink);
  write(w);
  out += '\n';
  if (sink) {
    sink(out);
    out.clear();
  }
  return out;
}

}  // namespace

std::string analysis_json(const AppModel& model, const analysis::Analysis* analysis, const JsonOptions& options) {
  return document_text(options.indent, {}, [&](JsonWriter& w) { write_document(w, model, analysis, options); });
}

std::string analysis_json_while_analyzing(const AppModel& model,
                                          const std::function<const analysis::Analysis&()>& analyze,
                                          const JsonOptions& options) {
  return document_text(options.indent, {},
                       [&](JsonWriter& w) { write_document_while_analyzing(w, model, analyze, options); });
}

void stream_analysis_json(const AppModel& model, const analysis::Analysis* analysis, const JsonOptions& options,
                          const TextSink& sink) {
  document_text(options.indent, sink, [&](JsonWriter& w) { write_document(w, model, analysis, options); });
}

void stream_analysis_json_while_analyzing(const AppModel& model,
                                          const std::function<const analysis::Analysis&()>& analyze,
                                          const JsonOptions& options, const TextSink& sink) {
  document_text(options.indent, sink,
                [&](JsonWriter& w) { write_document_while_analyzing(w, model, analyze, options); });
}

}  // namespace sf::report

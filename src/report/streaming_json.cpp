#include "report/streaming_json.h"

#include <algorithm>

#include "common/json_writer.h"

namespace sf::report {

namespace {

using model::StreamingBatch;
using model::StreamingPhase;

void write_phases(JsonWriter& w, const StreamingBatch& b) {
  w.object([&] {
    for (size_t p = 0; p < model::kStreamingPhaseCount; ++p) {
      if (b.phase_ms[p]) w.field(model::streaming_phase_name(static_cast<StreamingPhase>(p)), *b.phase_ms[p]);
    }
  });
}

void write_batch(JsonWriter& w, const StreamingBatch& b) {
  w.object([&] {
    w.field("batchId", b.batch_id);
    w.field("startMs", b.start_ms);
    w.field("durationMs", b.duration_ms);
    w.key("phasesMs");
    write_phases(w, b);
    w.field("inputRows", b.input_rows);
    w.field("inputRowsPerSecond", b.input_rows_per_second);
    w.field("processedRowsPerSecond", b.processed_rows_per_second);
    w.field("stateRows", b.state_rows);
    w.field("stateRowsUpdated", b.state_rows_updated);
    w.field("stateRowsRemoved", b.state_rows_removed);
    w.field("stateMemoryBytes", b.state_memory_bytes);
    w.field("rowsDroppedByWatermark", b.rows_dropped_by_watermark);
    w.field("shufflePartitions", b.shuffle_partitions);
    w.field("watermarkMs", b.watermark_ms);
    w.field("eventTimeMaxMs", b.event_time_max_ms);
    w.field("outputRows", b.output_rows);
    w.field("jobs", b.jobs);
    w.field("tasks", b.tasks);
    w.field("outputBytes", b.output_bytes);
    w.field("outputTasks", b.output_tasks);
  });
}

}  // namespace

void write_streaming_query(JsonWriter& w, const model::StreamingQuery& q, bool with_batches) {
  w.object([&] {
    w.field("id", q.id);
    w.field("runId", q.run_id);
    w.field("name", q.name);
    w.field("startMs", q.start_ms);
    w.field("terminated", q.terminated);
    w.field("exception", q.exception);
    w.field("errorClass", q.error_class);
    w.field("sources", q.sources);
    w.field("sink", q.sink);
    w.field("stateOperators", q.state_operators);
    w.field("jobTags", q.job_tags);
    w.field("idleEvents", q.idle_events);
    w.field("batchesNotKept", q.batches_not_kept);
    if (with_batches) {
      w.key("batches");
      write_streaming_batches(w, q, 0, q.batches.size());
    }
  });
}

void write_streaming_batches(JsonWriter& w, const model::StreamingQuery& query, size_t begin, size_t end) {
  end = std::min(end, query.batches.size());
  w.array([&] {
    for (size_t i = begin; i < end; ++i) write_batch(w, query.batches[i]);
  });
}

void write_streaming_queries(JsonWriter& w, const std::vector<model::StreamingQuery>& queries) {
  w.array([&] {
    for (const model::StreamingQuery& q : queries) write_streaming_query(w, q);
  });
}

const analysis::StreamingQuerySummary* find_streaming_run(const analysis::Analysis& analysis, std::string_view run_id) {
  for (const analysis::StreamingQuerySummary& s : analysis.streaming) {
    if (s.run_id == run_id) return &s;
  }
  return nullptr;
}

std::vector<const analysis::Finding*> streaming_run_findings(const analysis::Analysis& analysis,
                                                             const analysis::StreamingQuerySummary& run) {
  // Appended rather than "/" + key: g++ 12 warns (-Wrestrict, a false positive) on the latter.
  std::string suffix(1, '/');
  suffix += run.finding_key;
  std::vector<const analysis::Finding*> out;
  for (const analysis::Finding& f : analysis.findings) {
    if (f.id.size() > suffix.size() && f.id.compare(f.id.size() - suffix.size(), suffix.size(), suffix) == 0) {
      out.push_back(&f);
    }
  }
  return out;
}

void write_streaming_run_row(JsonWriter& w, const model::StreamingQuery& query,
                             const analysis::StreamingQuerySummary& summary, size_t findings) {
  w.object([&] {
    w.field("runId", query.run_id);
    w.field("id", query.id);
    w.field("name", query.name);
    w.field("label", summary.label);
    w.field("status", analysis::to_string(summary.status));
    w.field("startMs", query.start_ms);
    w.field("durationMs", summary.run_duration_ms);
    w.field("inputRowsPerSecond", summary.input_rows_per_second);
    w.field("processedRowsPerSecond", summary.processed_rows_per_second);
    w.field("latestBatchId", summary.latest_batch_id);
    w.field("batches", summary.batches);
    w.field("exception", query.exception);
    w.field("errorClass", query.error_class);
    w.field("findings", findings);
  });
}

void write_streaming_summary(JsonWriter& w, const analysis::StreamingQuerySummary& s,
                             const std::vector<const analysis::Finding*>& findings) {
  w.object([&] {
    w.field("runId", s.run_id);
    w.field("label", s.label);
    w.field("status", analysis::to_string(s.status));
    w.field("runDurationMs", s.run_duration_ms);
    w.field("latestBatchId", s.latest_batch_id);
    w.array_field("findingIds", [&] {
      for (const analysis::Finding* f : findings) w.value(f->id);
    });
    w.field("batches", s.batches);
    w.field("batchesWithInput", s.batches_with_input);
    w.object_field("trigger", [&] {
      w.field("intervalMs", s.trigger_interval_ms);
      w.field("basis", analysis::to_string(s.trigger_basis));
    });
    w.field("batchesOverTrigger", s.batches_over_trigger);
    w.field("timeOverTriggerMs", s.time_over_trigger_ms);
    w.object_field("durationMs", [&] {
      w.field("p50", s.duration_p50_ms);
      w.field("p95", s.duration_p95_ms);
      w.field("p90AfterFirst", s.steady_duration_p90_ms);
      w.field("max", s.duration_max_ms);
      w.field("total", s.total_batch_ms);
    });
    w.field("inputRows", s.input_rows);
    w.field("inputRowsPerSecond", s.input_rows_per_second);
    w.field("processedRowsPerSecond", s.processed_rows_per_second);
    w.field("recentInputRowsPerSecond", s.recent_input_rows_per_second);
    w.field("recentProcessedRowsPerSecond", s.recent_processed_rows_per_second);
    w.field("rowsPerBatchP50", s.rows_per_batch_p50);
    w.field("tasksPerBatchP50", s.tasks_per_batch_p50);
    w.field("batchesWithOutput", s.batches_with_output);
    w.field("outputTasksPerBatchP50", s.output_tasks_per_batch_p50);
    w.field("outputBytesPerTask", s.output_bytes_per_task);
    w.key("state");
    if (!s.stateful) {
      w.null();
    } else {
      w.object([&] {
        w.field("rowsFirst", s.state_rows_first);
        w.field("rowsLast", s.state_rows_last);
        w.field("rowsMax", s.state_rows_max);
        w.field("memoryLastBytes", s.state_memory_last_bytes);
        w.field("memoryMaxBytes", s.state_memory_max_bytes);
        w.field("rowsPerBatch", s.state_rows_per_batch);
        w.field("growthFit", s.state_growth_fit);
        w.field("rowsRemoved", s.state_rows_removed);
        w.field("rowsDroppedByWatermark", s.rows_dropped_by_watermark);
        w.field("shufflePartitions", s.shuffle_partitions);
      });
    }
    w.key("watermarkLagMs");
    if (!s.has_watermark()) {
      w.null();
    } else {
      w.object([&] {
        w.field("last", s.watermark_lag_last_ms);
        w.field("max", s.watermark_lag_max_ms);
      });
    }
    w.array_field("phases", [&] {
      for (const auto& p : s.phases) {
        w.object([&] {
          w.field("phase", model::streaming_phase_name(p.phase));
          w.field("ms", p.ms);
          w.field("share", p.share);
        });
      }
    });
  });
}

void write_streaming_summaries(JsonWriter& w, const analysis::Analysis& analysis) {
  w.array([&] {
    for (const analysis::StreamingQuerySummary& s : analysis.streaming) {
      write_streaming_summary(w, s, streaming_run_findings(analysis, s));
    }
  });
}

}  // namespace sf::report

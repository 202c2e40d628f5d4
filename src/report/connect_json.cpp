#include "report/connect_json.h"

#include "common/json_writer.h"
#include "report/findings_json.h"

namespace sf::report {

void write_connect_sessions(JsonWriter& w, const std::vector<model::ConnectSession>& sessions) {
  w.array([&] {
    for (const model::ConnectSession& s : sessions) {
      w.object([&] {
        w.field("sessionId", s.session_id);
        w.field("userId", s.user_id);
        w.field("startMs", s.start_ms);
        w.field("endMs", s.end_ms);
        w.field("operations", s.operations);
      });
    }
  });
}

const analysis::ConnectOperationSummary* find_connect_operation(const analysis::Analysis& analysis,
                                                                std::string_view operation_id) {
  for (const analysis::ConnectOperationSummary& s : analysis.connect) {
    if (s.operation_id == operation_id) return &s;
  }
  return nullptr;
}

void write_connect_operation(JsonWriter& w, const model::ConnectOperation& op) {
  w.object([&] {
    w.field("operationId", op.operation_id);
    w.field("sessionId", op.session_id);
    w.field("jobTag", op.job_tag);
    w.field("userId", op.user_id);
    w.field("userName", op.user_name);
    w.field("statement", op.statement);
    w.field("statementSummary", op.statement_summary());
    w.field("sessionTags", op.session_tags);
    w.field("status", model::to_string(op.status));
    w.field("startedMs", op.started_ms);
    w.field("analyzedMs", op.analyzed_ms);
    w.field("readyMs", op.ready_ms);
    w.field("finishedMs", op.finished_ms);
    w.field("closedMs", op.closed_ms);
    w.field("durationMs", op.duration_ms());
    w.field("error", op.error);
    w.field("producedRows", op.produced_rows);
    w.field("jobIds", op.job_ids);
    w.field("sqlExecutionIds", op.sql_execution_ids);
  });
}

void write_connect_operations(JsonWriter& w, const std::vector<model::ConnectOperation>& operations) {
  w.array([&] {
    for (const model::ConnectOperation& op : operations) write_connect_operation(w, op);
  });
}

void write_connect_summary(JsonWriter& w, const analysis::ConnectOperationSummary& s) {
  w.object([&] {
    w.field("operationId", s.operation_id);
    w.field("jobs", s.jobs);
    w.key("stageAttempts");
    write_stage_refs(w, s.stages);
    w.field("taskTimeMs", s.task_time_ms);
    w.field("findingIds", s.finding_ids);
    w.field("cost", s.cost);
    w.field("analysisMs", s.analysis_ms);
    w.field("planningMs", s.planning_ms);
    w.field("executionMs", s.execution_ms);
    w.field("resultMs", s.result_ms);
  });
}

void write_connect_summaries(JsonWriter& w, const std::vector<analysis::ConnectOperationSummary>& summaries) {
  w.array([&] {
    for (const analysis::ConnectOperationSummary& s : summaries) write_connect_summary(w, s);
  });
}

}  // namespace sf::report

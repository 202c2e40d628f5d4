#include "model/connect_builder.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "model/sort_unique.h"

namespace sf::model {

using Phase = eventlog::ConnectOperationEvent::Phase;

void ConnectBuilder::on(const eventlog::ConnectSessionEvent& e) {
  ConnectSession& session = sessions_[e.session_id];
  session.session_id = e.session_id;
  if (!e.user_id.empty()) session.user_id = e.user_id;
  (e.started ? session.start_ms : session.end_ms) = e.time_ms;
}

void ConnectBuilder::on(const eventlog::ConnectOperationEvent& e) {
  ConnectOperation& op = operations_[e.operation_id];
  op.operation_id = e.operation_id;
  if (op.job_tag.empty()) op.job_tag = e.job_tag;
  switch (e.phase) {
    case Phase::kStarted:
      op.started_ms = e.time_ms;
      op.session_id = e.session_id;
      op.user_id = e.user_id;
      op.user_name = e.user_name;
      op.statement = e.statement;
      op.session_tags = e.session_tags;
      break;
    case Phase::kAnalyzed: op.analyzed_ms = e.time_ms; break;
    case Phase::kReadyForExecution: op.ready_ms = e.time_ms; break;
    case Phase::kFinished:
      op.finished_ms = e.time_ms;
      op.produced_rows = e.produced_rows;
      if (op.status == ConnectOperationStatus::kRunning) op.status = ConnectOperationStatus::kFinished;
      break;
    case Phase::kFailed:
      op.finished_ms = e.time_ms;
      op.error = e.error_message;
      op.status = ConnectOperationStatus::kFailed;
      break;
    case Phase::kCanceled:
      op.finished_ms = e.time_ms;
      op.status = ConnectOperationStatus::kCanceled;
      break;
    case Phase::kClosed: op.closed_ms = e.time_ms; break;
  }
}

void ConnectBuilder::finish(const std::vector<Job>& jobs, const Redaction& redaction,
                            std::vector<ConnectSession>& sessions, std::vector<ConnectOperation>& operations) {
  std::unordered_map<std::string_view, ConnectOperation*> by_tag;
  for (auto& [id, op] : operations_) by_tag[op.job_tag] = &op;
  for (const Job& job : jobs) {
    for (const std::string& tag : job.tags) {
      auto found = by_tag.find(tag);
      if (found == by_tag.end()) continue;
      found->second->job_ids.push_back(job.job_id);
      if (job.sql_execution_id) found->second->sql_execution_ids.push_back(*job.sql_execution_id);
    }
  }
  for (auto& [id, op] : operations_) {
    sort_unique(op.job_ids);
    sort_unique(op.sql_execution_ids);
    redaction.redact_text(op.statement);
    redaction.redact_text(op.error);
    if (auto s = sessions_.find(op.session_id); s != sessions_.end()) ++s->second.operations;
    operations.push_back(std::move(op));
  }
  for (auto& [id, session] : sessions_) sessions.push_back(std::move(session));
  std::sort(operations.begin(), operations.end(), [](const ConnectOperation& a, const ConnectOperation& b) {
    return std::tie(a.started_ms, a.operation_id) < std::tie(b.started_ms, b.operation_id);
  });
  std::sort(sessions.begin(), sessions.end(), [](const ConnectSession& a, const ConnectSession& b) {
    return std::tie(a.start_ms, a.session_id) < std::tie(b.start_ms, b.session_id);
  });
}

}  // namespace sf::model

// ConnectBuilder: folds Spark Connect's server events into the model's sessions and operations
// (connect_session.h), for ModelBuilder. An operation is found by its id, so the phases of
// operations that run at once interleave freely; a phase for an operation whose start the log
// lacks opens it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "eventlog/events.h"
#include "model/app_model.h"
#include "model/redaction.h"

namespace sf::model {

class ConnectBuilder {
 public:
  void on(const eventlog::ConnectSessionEvent& e);
  void on(const eventlog::ConnectOperationEvent& e);

  // The sessions by start, the operations by start, each with the jobs whose tags hold its job
  // tag (and their SQL executions) from `jobs`, its free text redacted.
  void finish(const std::vector<Job>& jobs, const Redaction& redaction, std::vector<ConnectSession>& sessions,
              std::vector<ConnectOperation>& operations);

 private:
  std::map<std::string, ConnectSession> sessions_;      // by session id
  std::map<std::string, ConnectOperation> operations_;  // by operation id
};

}  // namespace sf::model

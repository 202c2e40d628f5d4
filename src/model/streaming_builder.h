// StreamingBuilder: folds Structured Streaming's listener events into the model's query runs
// (streaming_query.h), for ModelBuilder. A run is found by its run id, so events of queries that
// run at once interleave freely; a progress event for a run whose start the log lacks (a log cut
// at its head) opens the run.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "eventlog/events.h"
#include "model/app_model.h"
#include "model/redaction.h"

namespace sf::model {

class StreamingBuilder {
 public:
  // At most `max_batches` batches are kept over all runs; the rest are counted per run.
  explicit StreamingBuilder(uint64_t max_batches) : max_batches_(max_batches) {}

  void on(const eventlog::StreamingQueryStarted& e);
  void on(const eventlog::StreamingQueryProgress& e);
  void on(const eventlog::StreamingQueryIdle& e);
  void on(const eventlog::StreamingQueryTerminated& e);

  // The runs, by start time then run id, with each batch's jobs, tasks and output from the
  // model's finished jobs and stages, and their free text redacted. A note for each run whose
  // batches were not all kept.
  std::vector<StreamingQuery> finish(const AppModel& model, const Redaction& redaction, std::set<std::string>& notes);

 private:
  StreamingQuery& run(const std::string& id, const std::string& run_id);

  uint64_t max_batches_;
  uint64_t kept_ = 0;
  std::map<std::string, StreamingQuery> runs_;  // by run id
};

}  // namespace sf::model

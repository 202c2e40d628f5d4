// RunBuilder: event logs of whole runs for comparison tests, described as a sequence of
// queries (SQL executions with their plans and stages) and RDD jobs, written with ScenarioLog
// and loaded through load_event_log like any log.
//
// A plan node names the stage (by its index within the query) whose tasks run it; the builder
// gives such a node a metric accumulator and the stage's tasks updates of it, which is how
// Spark's logs tie plan nodes to stages. Ids (executions, jobs, stages, accumulators) are
// allocated in order, so two builders fed the same calls write the same log.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/app_model.h"
#include "support/scenario_log.h"

namespace sf::compare::testing {

struct QueryNode {
  std::string name;
  std::string text;  // simpleString; default: name
  int stage = -1;    // index of the query stage that runs it; -1: none
  std::vector<QueryNode> children;
};

struct QueryStage {
  std::string name;
  int64_t run_ms = 1000;  // executor run time of each of its tasks
  int tasks = 2;
  std::string call_site{};       // default: a user frame of the query's call site
  int64_t disk_spill_bytes = 0;  // per task
  int64_t input_bytes = 0;       // per task
};

struct Query {
  std::string description;
  QueryNode plan;
  std::vector<QueryStage> stages;
  std::string call_site = "com.acme.Job$.main(Job.scala:10)";  // user frame of its stages
};

class RunBuilder {
 public:
  explicit RunBuilder(std::string app_id, std::string app_name = "nightly job");

  RunBuilder& query(const Query& query);
  RunBuilder& property(std::string key, std::string value);
  RunBuilder& spark_version(std::string version);
  // Stages of one job outside any SQL execution.
  RunBuilder& rdd_job(const std::vector<QueryStage>& stages);
  // Skips `n` stage ids before the next stage (as AQE or other jobs do between runs).
  RunBuilder& skip_stage_ids(int64_t n);

  const sf::testing::ScenarioLog& log() const { return log_; }
  // Writes the log to a per-test temporary directory and loads it; fails the test on error.
  model::AppModel load() const;

 private:
  sf::testing::StageSpec stage_spec(const QueryStage& stage, const std::string& call_site,
                                    const std::vector<int64_t>& accumulators);

  std::string app_id_;
  sf::testing::ScenarioLog log_;
  int64_t now_ms_ = 1000;
  int64_t next_execution_ = 0;
  int64_t next_job_ = 0;
  int64_t next_stage_ = 0;
  int64_t next_accumulator_ = 1000;
};

// A scan -> filter -> exchange chain reading `table`, all run by stage `stage`.
QueryNode scan_chain(const std::string& table, const std::string& column, int stage);

}  // namespace sf::compare::testing

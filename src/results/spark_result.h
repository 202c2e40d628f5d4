// A result document from a Spark application model: the quantities one event log measures.
//
// App wall-clock, executor run time, CPU time, GC time, shuffle read and write bytes, spill
// bytes (disk and memory), input bytes (deterministic: the same job on the same data reads the
// same bytes), failed tasks and core-hours; then the duration of each SQL execution and each
// stage, keyed by stage_key.h so they line up across runs. And the cost: the cores and memory
// held, the driver's included, at the context's rate card (analysis/economics/cost.h), in its currency.
// Then the analysis's reading of the run, named "analysis:..." (left out of the result's id,
// result.h): the recoverable wall-clock of the group "Fix these first" leads with and the number
// of findings of each type, so a fleet page over the store can rank and count them.
// docs/result-schema.md lists them.
#pragma once

#include <optional>

#include "analysis/analyzer.h"
#include "analysis/economics/rate_card.h"
#include "model/app_model.h"
#include "results/result.h"

namespace sf::results {

// What the caller knows that the log does not: which job this is, at which revision, how it
// was run. Empty subject: the application name. Environment entries override what the log says.
struct SparkResultContext {
  std::string subject;
  Revision revision;
  Coordinates parameters;
  Coordinates environment;
  Procedure procedure;
  std::optional<RunStatus> status;  // nullopt: from the log (see spark_result.cpp)
  std::string origin;
  analysis::RateCard rate_card = analysis::default_rate_card();  // what "cost" is priced with
};

// The names of the "analysis:" quantities: what result_from_app_model writes and the fleet page
// reads. A finding type's count is kFindingCountQuantityPrefix + the type.
inline const std::string kFixFirstRecoverableLowMsQuantity =
    std::string(kAnalysisQuantityPrefix) + "fixFirstRecoverableLowMs";
inline const std::string kFixFirstRecoverableHighMsQuantity =
    std::string(kAnalysisQuantityPrefix) + "fixFirstRecoverableHighMs";
inline const std::string kFindingCountQuantityPrefix = std::string(kAnalysisQuantityPrefix) + "findings:";

// `analysis`: the model's analysis (analysis::analyze), for the "analysis:" quantities.
ResultDocument result_from_app_model(const model::AppModel& app, const analysis::Analysis& analysis,
                                     const SparkResultContext& context);

// The status an event log implies, and why when it is not ok. The run is what counts: an
// application that exited non-zero is an error; one whose log has no end (still running, or
// cut) or could not be read to its end is partial; anything else is ok, a failed job inside an
// otherwise complete run included (its failed tasks are a quantity of their own).
struct LogStatus {
  RunStatus status = RunStatus::kOk;
  std::string reason;  // "" when ok: "the application exited with code 1", ...
};
LogStatus status_of_log(const model::AppModel& app);

// A log's result as every front end that stores one makes it: the document under `context` with
// its cost priced at `rates` (the config's rate card) and its origin naming `source`, and why its
// status is not ok ("" when it is): the status the caller gave ("as <status_given_by> says", e.g.
// "--status"), or else the log's own.
struct LogResult {
  ResultDocument document;
  std::string status_reason;
};
LogResult result_of_log(const model::AppModel& app, const analysis::Analysis& analysis, SparkResultContext context,
                        const analysis::RateCard& rates, std::string_view source, std::string_view status_given_by);

// A context must be consistent before anything is read: parents need the revision they are the
// parents of; a round or a slot needs the run key they belong to.
Status validate(const SparkResultContext& context);

// A run as a front end was told about it (store ingest's flags, the MCP tool's arguments, the
// Python package's keyword arguments), before it is a context.
struct IngestDescription {
  std::string subject;
  std::string revision;
  std::vector<std::string> parents;
  std::string benchmark_tree;
  bool dirty = false;
  std::string variant;  // parameters.role, unless the parameters name a role themselves
  Coordinates parameters;
  Coordinates environment;
  std::string run_key;
  std::optional<int64_t> round;
  std::optional<int64_t> slot;
  std::string status;  // "": from the log
};

// The context a description gives, checked by validate(). A status parse_run_status does not read
// is an error naming it as the front end calls it (`status_name`: "--status", "status").
Result<SparkResultContext> context_of(const IngestDescription& run, std::string_view status_name);

// The origin recorded for a result read from an event log: "spark event log <source> (<app id>)".
std::string event_log_origin(std::string_view source, std::string_view app_id);
// The <source> of such an origin; nullopt for any other origin (a result file's own words).
std::optional<std::string> event_log_source(std::string_view origin);

}  // namespace sf::results

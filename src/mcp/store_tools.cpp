// store_ingest and verdict: `sparkforensics store ingest` and `sparkforensics verdict` on the
// result store the server was started with (--store).
#include <fmt/format.h>

#include "mcp/log_reference.h"
#include "mcp/session.h"
#include "mcp/tools.h"
#include "report/verdict_json.h"
#include "report/verdict_summary.h"
#include "results/spark_result.h"
#include "results/store.h"
#include "service/verdicts.h"

namespace sf::mcp {

namespace {

constexpr size_t kMaxSummaryBytes = 4000;
constexpr const char* kNoStore = "no result store: restart the server with --store PATH|postgresql://URL";

// store_ingest creates the store on first use; the verdict tool reads the session's snapshot.
Result<std::unique_ptr<results::Store>> open_store_for_ingest(const McpSession& session) {
  const std::string& location = session.options().store_location;
  if (location.empty()) return fail(Status::InvalidArgument(kNoStore));
  return results::open_store(location);
}

Result<results::SparkResultContext> context_from(const ToolArguments& arguments) {
  results::IngestDescription run;
  run.subject = arguments.string("subject");
  run.revision = arguments.string("revision");
  run.parents = arguments.string_list("parents");
  run.benchmark_tree = arguments.string("benchmarkTree");
  run.dirty = arguments.boolean("dirty", false);
  if (arguments.has("variant")) run.variant = arguments.string("variant");
  run.run_key = arguments.string("runKey");
  run.round = arguments.optional_integer("round");
  run.slot = arguments.optional_integer("slot");
  if (arguments.has("status")) run.status = arguments.string("status");
  for (const auto& [key, value] : arguments.string_map("parameters")) run.parameters[key] = value;
  for (const auto& [key, value] : arguments.string_map("environment")) run.environment[key] = value;
  return results::context_of(run, "status");
}

}  // namespace

Tool store_ingest_tool() {
  Tool tool;
  tool.name = "store_ingest";
  tool.title = "Store a run in the result store";
  tool.description =
      "Reads an event log and stores its result document (app wall-clock, run time, CPU, GC, shuffle, spill, input, "
      "failed tasks, core-hours, and each SQL execution's and stage's duration) in the result store (--store), with "
      "what the log does not know: the subject, revision, parameters, environment and the planned run it belongs "
      "to. Storing the same log with the same context again stores nothing new.";
  tool.read_only = false;
  tool.parameters = log_reference_parameters();
  for (Parameter p : {
           text_parameter("subject", "The job or benchmark measured (default: the application name)"),
           text_parameter("revision", "The revision's tree id"),
           list_parameter("parents", "Parent tree ids of the revision"),
           text_parameter("benchmarkTree", "The tree id of a separately recorded benchmark"),
           flag_parameter("dirty", "Built from uncommitted changes (comparisons are local-only)"),
           text_parameter("variant", "The variant role (parameters.role), e.g. baseline or candidate"),
           map_parameter("parameters", "Parameters of the run, KEY: VALUE"),
           map_parameter("environment", "Environment facts, e.g. cluster, executorShape"),
           text_parameter("runKey", "The planned run this attempt belongs to"),
           integer_parameter("round", "The round within the run (attempts of a round are paired)", std::nullopt,
                             std::nullopt),
           integer_parameter("slot", "The execution position within the run", std::nullopt, std::nullopt),
           choice_parameter("status", "The run's status (default: from the log)",
                            {"ok", "partial", "censored", "error", "skipped"}),
       }) {
    tool.parameters.push_back(std::move(p));
  }
  tool.output_schema = Json::parse(R"({"type": "object",
    "required": ["resultId", "order", "alreadyPresent", "quantities", "subject", "analysisId"],
    "properties": {"resultId": {"type": "string"}, "order": {"type": "integer"}, "alreadyPresent": {"type": "boolean"},
                   "quantities": {"type": "integer"}, "subject": {"type": "string"},
                   "analysisId": {"type": "string"}}})");
  tool.run = [](const ToolArguments& arguments, ToolContext& context) {
    auto c = context_from(arguments);
    if (!c) return ToolResult::error(c.error().message());
    auto store = open_store_for_ingest(context.session);
    if (!store) return ToolResult::error(store.error().message());
    auto loaded = load_named_log(arguments, context);
    if (!loaded) return ToolResult::error(loaded.error().message());
    // Priced at the server's --config rate card, as `store ingest --config` prices it.
    const results::ResultDocument document =
        results::result_of_log(loaded->model(), loaded->analysis(), *c, loaded->log->analysis_options().rate_card,
                               loaded->source, "status")
            .document;
    auto outcome = (*store)->ingest(document);
    if (!outcome) return ToolResult::error(outcome.error().message());
    ToolResult result;
    result.structured = {{"resultId", outcome->id},
                         {"order", outcome->order},
                         {"alreadyPresent", outcome->already_present},
                         {"quantities", document.quantities.size()},
                         {"subject", document.subject},
                         {"analysisId", loaded->analysis_id}};
    result.summary = fmt::format("{} {} ({} quantities, subject \"{}\") from {}",
                                 outcome->already_present ? "already present" : "ingested", outcome->id,
                                 document.quantities.size(), document.subject, loaded->source);
    return result;
  };
  return tool;
}

Tool verdict_tool() {
  Tool tool;
  tool.name = "verdict";
  tool.title = "Did performance change beyond noise?";
  tool.description =
      "Evaluates results in the result store (--store). mode \"history\": a target result against the preceding "
      "points of its series (dispersion-scaled by default). mode \"run\": the two sides of one planned run, paired by "
      "round (paired-ratio by default). Each evaluation says regressed, improved, changed, no-change-detected or "
      "indeterminate, with the effect and the noise that decided it.";
  tool.parameters = {
      choice_parameter("mode", "history or run", {"history", "run"}, true),
      text_parameter("target",
                     "history: the target: a result id (or a unique prefix of it), a revision (its results), or "
                     "latest (the last result of each subject)"),
      list_parameter("quantities", "history: only these quantities (default: all of the target's)"),
      text_parameter("runKey", "run: the planned run"),
      choice_parameter("profile", "run: what varies between the sides", {"revisions", "variants", "environments"}),
      text_parameter("coordinate", "run: the varying coordinate (default: revision.tree or parameters.role)"),
      text_parameter("baseline", "run: the baseline side's value of the coordinate"),
      choice_parameter("method", "The comparison method (default: by mode)", {"dispersion-scaled", "paired-ratio"}),
      integer_parameter("limit", "Evaluations kept (default 50, at most 500)", 1, 500),
  };
  tool.output_schema = Json::parse(R"({"type": "object", "required": ["mode", "counts", "evaluationTotal", "document"],
    "properties": {"mode": {"enum": ["history", "run"]},
      "counts": {"type": "object", "required": ["regressed", "improved", "changed", "no-change-detected",
                                                "indeterminate", "missing"],
                 "additionalProperties": {"type": "integer"}},
      "evaluationTotal": {"type": "integer"},
      "document": {"type": "object", "required": ["schemaVersion", "kind", "mode", "method", "evaluations"],
                   "properties": {"evaluations": {"type": "array"}}}}})");
  tool.run = [](const ToolArguments& arguments, ToolContext& context) {
    const std::string mode = arguments.string("mode");
    if (mode == "history" && !arguments.has("target")) {
      return ToolResult::error("mode history needs \"target\" (a result id from store_ingest, a revision or latest)");
    }
    if (mode == "run" && (!arguments.has("runKey") || !arguments.has("profile") || !arguments.has("baseline"))) {
      return ToolResult::error("mode run needs \"runKey\", \"profile\" and \"baseline\"");
    }
    service::MethodChoice choice;
    if (arguments.has("method")) choice.name = arguments.string("method");
    auto method =
        service::method_config(mode == "run" ? service::VerdictMode::kRun : service::VerdictMode::kTrend, choice);
    if (!method) return ToolResult::error(method.error().message());
    if (context.session.options().store_location.empty()) return ToolResult::error(kNoStore);
    auto store = context.session.stored_results().current();
    if (!store) return ToolResult::error(store.error().message());

    Result<results::VerdictDocument> document =
        mode == "history" ? service::verdict_trend(
                                **store, *method, {arguments.string("target"), "", arguments.string_list("quantities")})
                          : service::verdict_run(**store, *method,
                                                 {arguments.string("runKey"), arguments.string("profile"),
                                                  arguments.string("coordinate"), arguments.string("baseline")});
    if (!document) return ToolResult::error(document.error().message());

    Json doc = Json::parse(report::verdict_json(*document));
    const size_t total = doc["evaluations"].size();
    const size_t limit = static_cast<size_t>(arguments.integer("limit", 50));
    if (total > limit) doc["evaluations"].get_ref<Json::array_t&>().resize(limit);
    Json counts = Json::object();
    for (auto verdict : {results::Verdict::kRegressed, results::Verdict::kImproved, results::Verdict::kChanged,
                         results::Verdict::kNoChangeDetected, results::Verdict::kIndeterminate}) {
      counts[std::string(results::to_string(verdict))] = report::count_verdict(*document, verdict);
    }
    counts["missing"] = document->missing.size();
    ToolResult result;
    result.summary = report::verdict_text(*document);
    if (result.summary.size() > kMaxSummaryBytes) {
      result.summary.resize(kMaxSummaryBytes);
      result.summary += "\n... (the document has every evaluation)";
    }
    result.structured = {
        {"mode", mode}, {"counts", std::move(counts)}, {"evaluationTotal", total}, {"document", std::move(doc)}};
    return result;
  };
  return tool;
}

}  // namespace sf::mcp

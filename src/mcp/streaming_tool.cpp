// streaming_queries: the Structured Streaming query runs of one log, as the dashboard's streaming
// pages show them: each run's row (Spark UI's Structured Streaming tab) and summary, or one run
// with a page of its micro-batches. Every entry is written by report/streaming_json.h or taken
// from the analysis document, so it reads as `analyze -f json` and GET logs/L/streaming say it.
#include <fmt/format.h>

#include "common/json_writer.h"
#include "common/units.h"
#include "mcp/log_reference.h"
#include "mcp/paging.h"
#include "mcp/session.h"
#include "mcp/tools.h"
#include "report/streaming_json.h"

namespace sf::mcp {

namespace {

constexpr int64_t kDefaultRuns = 20;
constexpr int64_t kMaxRuns = 100;
constexpr int64_t kDefaultBatches = 50;
constexpr int64_t kMaxBatches = 500;

Json run_row(const NamedLog& log, const analysis::StreamingQuerySummary& s) {
  const model::StreamingQuery& q = log.model().streaming_queries[s.query_index];
  std::string text;
  JsonWriter w(text);
  report::write_streaming_run_row(w, q, s, report::streaming_run_findings(log.analysis(), s).size());
  return Json::parse(text);
}

std::string rate_text(const std::optional<double>& rows_per_second) {
  return rows_per_second ? fmt::format("{:.0f}/s", *rows_per_second) : std::string("-");
}

std::string run_line(const analysis::StreamingQuerySummary& s) {
  return fmt::format("{} \"{}\" run {}: {}, {} batches, median {}, input {} processed {}",
                     analysis::to_string(s.status), s.label, s.run_id,
                     s.trigger_interval_ms ? "trigger " + units::format_duration_ms(*s.trigger_interval_ms)
                                           : std::string("trigger not inferred"),
                     units::format_count(s.batches), units::format_duration_ms(s.duration_p50_ms),
                     rate_text(s.input_rows_per_second), rate_text(s.processed_rows_per_second));
}

const char* kRowSchema = R"({"type": "object",
  "required": ["runId", "id", "name", "label", "status", "startMs", "durationMs", "inputRowsPerSecond",
               "processedRowsPerSecond", "latestBatchId", "batches", "exception", "errorClass", "findings"],
  "properties": {"runId": {"type": "string"}, "id": {"type": "string"}, "name": {"type": "string"},
                 "label": {"type": "string"}, "status": {"enum": ["RUNNING", "FINISHED", "FAILED"]},
                 "startMs": {"type": ["integer", "null"]}, "durationMs": {"type": ["integer", "null"]},
                 "inputRowsPerSecond": {"type": ["number", "null"]},
                 "processedRowsPerSecond": {"type": ["number", "null"]},
                 "latestBatchId": {"type": ["integer", "null"]}, "batches": {"type": "integer"},
                 "exception": {"type": ["string", "null"]}, "errorClass": {"type": ["string", "null"]},
                 "findings": {"type": "integer"}}})";

}  // namespace

Tool streaming_queries_tool() {
  Tool tool;
  tool.name = "streaming_queries";
  tool.title = "Structured Streaming queries";
  tool.description =
      "The Structured Streaming query runs of an analyzed log, as Spark UI's Structured Streaming tab lists them "
      "(status, start, duration, average input and process rates, latest batch, error), each with its summary: the "
      "trigger interval inferred from the batches' starts, batches over it, batch durations, rates, state growth, "
      "watermark lag and time per phase. With runId: that run, its findings' ids and a page of its micro-batches "
      "(duration, phases, input rows and rates, state rows and memory, watermark, jobs and tasks).";
  tool.parameters = log_reference_parameters();
  tool.parameters.push_back(
      text_parameter("runId", "A run's runId (from the list): answer with that run and a page of its batches"));
  for (auto& p : paging_parameters(kDefaultBatches, kMaxBatches)) tool.parameters.push_back(std::move(p));
  tool.parameters.back().description =
      fmt::format("Items to return: runs (default {}, at most {}) or, with runId, batches (default {}, at most {})",
                  kDefaultRuns, kMaxRuns, kDefaultBatches, kMaxBatches);
  Json schema = Json::parse(R"({"type": "object", "required": ["analysisId", "page"],
    "properties": {"analysisId": {"type": "string"}, "page": {},
                   "runs": {"type": "array", "items": {"type": "object", "required": ["run", "summary"],
                            "properties": {"run": {}, "summary": {"type": "object"}}}},
                   "run": {}, "query": {"type": "object"}, "summary": {"type": "object"},
                   "findingIds": {"type": "array", "items": {"type": "string"}},
                   "batches": {"type": "array", "items": {"type": "object"}}}})");
  schema["properties"]["page"] = page_schema();
  schema["properties"]["run"] = Json::parse(kRowSchema);
  schema["properties"]["runs"]["items"]["properties"]["run"] = Json::parse(kRowSchema);
  tool.output_schema = std::move(schema);
  tool.run = [](const ToolArguments& arguments, ToolContext& context) {
    auto loaded = load_named_log(arguments, context);
    if (!loaded) return ToolResult::error(loaded.error().message());
    const NamedLog& log = *loaded;
    const auto& summaries = log.analysis().streaming;
    const Json& doc = log.document();
    ToolResult result;
    Json& out = result.structured;
    out["analysisId"] = log.analysis_id;
    const std::string run_id = arguments.string("runId");
    if (run_id.empty()) {
      if (arguments.integer("limit", kDefaultRuns) > kMaxRuns) {
        return ToolResult::error(fmt::format("limit: at most {} runs a page", kMaxRuns));
      }
      const PageWindow window = page_window(summaries.size(), arguments, kDefaultRuns);
      out["page"] = page_json(window);
      Json runs = Json::array();
      result.summary = fmt::format("{} streaming query run{}", summaries.size(), summaries.size() == 1 ? "" : "s");
      if (summaries.empty()) result.summary += ": this application ran no Structured Streaming query";
      for (size_t i = window.begin; i < window.end; ++i) {
        const analysis::StreamingQuerySummary& s = summaries[i];
        runs.push_back({{"run", run_row(log, s)}, {"summary", doc["streaming"][i]}});
        result.summary += "\n- " + run_line(s);
      }
      if (window.end < window.total) result.summary += fmt::format("\nmore from offset {}", window.end);
      if (!summaries.empty()) result.summary += "\nstreaming_queries with a runId gives its batches.";
      out["runs"] = std::move(runs);
      return result;
    }
    const analysis::StreamingQuerySummary* found = report::find_streaming_run(log.analysis(), run_id);
    if (found == nullptr) {
      return ToolResult::error(
          fmt::format("no streaming query run \"{}\" in {} ({} runs); streaming_queries without "
                      "runId lists them",
                      run_id, log.analysis_id, summaries.size()));
    }
    // "streaming" is in "streamingQueries"' order: a summary's query index is its place too.
    const analysis::StreamingQuerySummary& s = *found;
    Json query = doc["streamingQueries"][s.query_index];
    Json batches = std::move(query["batches"]);
    query.erase("batches");
    const PageWindow window = page_window(batches.size(), arguments, kDefaultBatches);
    out["page"] = page_json(window);
    out["run"] = run_row(log, s);
    out["query"] = std::move(query);
    out["summary"] = doc["streaming"][s.query_index];
    const Json ids = out["summary"]["findingIds"];
    out["findingIds"] = ids;
    out["batches"] = page_of(batches, window);
    result.summary = run_line(s);
    if (!ids.empty())
      result.summary += fmt::format("\n{} finding(s), explain_finding explains one: {}", ids.size(), ids.dump());
    if (window.end > window.begin) {
      result.summary += fmt::format("\nbatches {} to {} of {}", window.begin + 1, window.end, window.total);
    }
    if (window.end < window.total) result.summary += fmt::format("; more from offset {}", window.end);
    return result;
  };
  return tool;
}

}  // namespace sf::mcp

// Structured Streaming in the analysis document: "streamingQueries", each query run and its
// micro-batches as the model holds them (model part), and "streaming", each run's figures as the
// analysis works them out (streaming_summary.h). docs/analysis-schema.md lists every field.
// The dashboard API's and MCP's streaming answers are written from the same pieces (one query,
// one summary, a window of batches), with the run listing of Spark UI's Structured Streaming tab
// (docs/server.md).
#pragma once

#include <string_view>
#include <vector>

#include "analysis/analyzer.h"
#include "analysis/models/streaming_summary.h"
#include "model/app_model.h"

namespace sf {
class JsonWriter;
}

namespace sf::report {

void write_streaming_queries(JsonWriter& w, const std::vector<model::StreamingQuery>& queries);
// Every run's summary, each with the ids of its findings.
void write_streaming_summaries(JsonWriter& w, const analysis::Analysis& analysis);

// One entry of "streamingQueries": with its batches, or without the "batches" field.
void write_streaming_query(JsonWriter& w, const model::StreamingQuery& query, bool with_batches = true);
// One entry of "streaming": the summary, with the ids of the findings about its run.
void write_streaming_summary(JsonWriter& w, const analysis::StreamingQuerySummary& summary,
                             const std::vector<const analysis::Finding*>& findings);
// The batches [begin, end) of a query, as an array of "batches" entries.
void write_streaming_batches(JsonWriter& w, const model::StreamingQuery& query, size_t begin, size_t end);

// The run whose run id is `run_id`, or null: how the dashboard and MCP find the run asked for.
const analysis::StreamingQuerySummary* find_streaming_run(const analysis::Analysis& analysis, std::string_view run_id);

// The analysis's findings about one run (their ids end with its summary's finding_key), in the
// analysis's order: what the dashboard and MCP list with a run.
std::vector<const analysis::Finding*> streaming_run_findings(const analysis::Analysis& analysis,
                                                             const analysis::StreamingQuerySummary& run);

// A run as a row of the Structured Streaming tab's list: runId, id, name, label, status, startMs,
// durationMs (the summary's run duration), inputRowsPerSecond and processedRowsPerSecond (the summary's),
// latestBatchId, batches, exception, errorClass, and findings (how many of the analysis's findings are about this run).
void write_streaming_run_row(JsonWriter& w, const model::StreamingQuery& query,
                             const analysis::StreamingQuerySummary& summary, size_t findings);

}  // namespace sf::report

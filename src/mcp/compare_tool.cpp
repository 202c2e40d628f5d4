// compare_runs: `sparkforensics compare` for an assistant: the comparison document of a
// baseline and a candidate run, its per-stage lists cut to a page.
#include <fmt/format.h>

#include "compare/budget.h"
#include "compare/run_comparison.h"
#include "mcp/log_reference.h"
#include "mcp/session.h"
#include "mcp/tools.h"
#include "report/comparison_json.h"
#include "report/comparison_text.h"
#include "service/log_analysis.h"

namespace sf::mcp {

namespace {

// The comparison document's lists that grow with the number of stages.
constexpr const char* kStageLists[] = {"stagePairs", "stageDeltas", "stageSkewDeltas", "baseStages", "candStages"};

}  // namespace

Tool compare_runs_tool() {
  Tool tool;
  tool.name = "compare_runs";
  tool.title = "Compare two runs";
  tool.description =
      "Compares a candidate run of a job with a baseline run: the confidence of the stage pairing (ok, low, "
      "insufficient, with the reason), whole-run metric deltas, findings introduced and resolved, and per-stage "
      "changes with how each stage was paired. normalizePath is a list of regular expressions (RE2 syntax) whose "
      "matches are rewritten to one token before stages are paired, e.g. an output directory named after the run; "
      "it affects pairing only. budgets (METRIC=LIMIT, e.g. wallClock=+5%) are evaluated too.";
  tool.parameters = {
      log_reference_object("baseline", "The baseline run: path, analysisId or historyServer"),
      log_reference_object("candidate", "The candidate run: path, analysisId or historyServer"),
      list_parameter("normalizePath", "Regular expressions rewritten to one token before stages are paired"),
      list_parameter("budgets", "METRIC=LIMIT budgets, e.g. wallClock=+5%, spill=0, gcTime=+10%"),
      integer_parameter("limit", "Items kept in each per-stage list (default 20, at most 200)", 1, 200),
  };
  tool.output_schema = Json::parse(R"({"type": "object",
    "required": ["baselineAnalysisId", "candidateAnalysisId", "comparison", "listTotals", "budgetExceeded"],
    "properties": {"baselineAnalysisId": {"type": "string"}, "candidateAnalysisId": {"type": "string"},
      "comparison": {"type": "object", "required": ["comparisonSchemaVersion", "baseline", "candidate", "confidence",
                                                    "banner", "runtimeCoverage", "metricDeltas", "findingsDelta",
                                                    "stagePairs", "stageDeltas"],
                     "properties": {"confidence": {"enum": ["ok", "low", "insufficient"]},
                                    "banner": {"type": ["string", "null"]},
                                    "metricDeltas": {"type": "array"}, "stagePairs": {"type": "array"}}},
      "listTotals": {"type": "object", "additionalProperties": {"type": "integer"}},
      "budgetExceeded": {"type": "boolean"}}})");
  tool.run = [](const ToolArguments& arguments, ToolContext& context) {
    service::ComparisonRequest request;
    request.budgets = arguments.string_list("budgets");
    request.normalize_patterns = arguments.string_list("normalizePath");
    // Findings compared at the server's --config thresholds, as its analyses are made.
    auto plan = service::plan_comparison(request, context.session.catalog().analysis_options());
    if (!plan) return ToolResult::error(plan.error().message());
    auto base = load_named_log(arguments.object("baseline"), context, {0, 2});
    if (!base) return ToolResult::error("baseline: " + base.error().message());
    auto cand = load_named_log(arguments.object("candidate"), context, {1, 2});
    if (!cand) return ToolResult::error("candidate: " + cand.error().message());

    auto compared = service::compare_models(base->model(), cand->model(), *plan);
    if (!compared) return ToolResult::error(compared.error().message());
    compare::Comparison& comparison = *compared;
    comparison.baseline.path = base->source;
    comparison.candidate.path = cand->source;

    Json doc = Json::parse(report::comparison_json(comparison, -1));
    const size_t limit = static_cast<size_t>(arguments.integer("limit", 20));
    Json totals = Json::object();
    for (const char* list : kStageLists) {
      if (!doc.contains(list) || !doc[list].is_array()) continue;
      totals[list] = doc[list].size();
      if (doc[list].size() > limit) doc[list].get_ref<Json::array_t&>().resize(limit);
    }
    ToolResult result;
    result.structured = {{"baselineAnalysisId", base->analysis_id},
                         {"candidateAnalysisId", cand->analysis_id},
                         {"comparison", std::move(doc)},
                         {"listTotals", std::move(totals)},
                         {"budgetExceeded", compare::any_exceeded(comparison.budgets)}};
    report::ComparisonTextOptions text_options;
    text_options.top_stages = 5;
    result.summary = report::comparison_text(comparison, text_options);
    return result;
  };
  return tool;
}

}  // namespace sf::mcp

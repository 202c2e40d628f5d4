// analyze_event_log, get_findings, explain_finding: the analysis of one log, as `analyze` gives
// it, from the analysis document (report::analysis_json) of the loaded log.
#include <fmt/format.h>

#include "analysis/findings/finding_filter.h"
#include "mcp/log_reference.h"
#include "mcp/paging.h"
#include "mcp/session.h"
#include "mcp/tools.h"
#include "report/analysis_text.h"
#include "report/finding_text.h"

namespace sf::mcp {

namespace {

constexpr size_t kFixFirstGroups = 5;
constexpr size_t kTopFindings = 5;

Json brief_finding(const Json& finding) {
  return {{"id", finding["id"]},
          {"type", finding["type"]},
          {"title", finding["title"]},
          {"impactBand", finding["impactBand"]},
          {"stageIds", finding["stageIds"]}};
}

const Json kBriefFindingSchema = Json::parse(R"({"type": "object",
  "required": ["id", "type", "title", "impactBand", "stageIds"],
  "properties": {"id": {"type": "string"}, "type": {"type": "string"}, "title": {"type": "string"},
                 "impactBand": {"enum": ["critical", "high", "medium", "low", "info"]},
                 "stageIds": {"type": "array", "items": {"type": "integer"}}}})");

const Json kFindingSchema = Json::parse(R"({"type": "object",
  "required": ["id", "type", "rule", "scope", "stageIds", "title", "explanation", "recommendation", "settings",
               "evidence", "thresholds", "confidence", "impactBand", "impactEstimate"],
  "properties": {"id": {"type": "string"}, "type": {"type": "string"}, "title": {"type": "string"},
                 "explanation": {"type": "string"}, "recommendation": {"type": "string"},
                 "impactBand": {"enum": ["critical", "high", "medium", "low", "info"]},
                 "confidence": {"enum": ["low", "medium", "high"]},
                 "stageIds": {"type": "array", "items": {"type": "integer"}},
                 "evidence": {"type": "array", "items": {"type": "object", "required": ["name", "value", "unit"]}},
                 "impactEstimate": {"type": "object", "required": ["basis", "wallClock", "estimateMethod", "rawWaste"]}}})");

Json with_schema(std::string_view text) { return Json::parse(text); }

}  // namespace

Tool analyze_event_log_tool() {
  Tool tool;
  tool.name = "analyze_event_log";
  tool.title = "Analyze a Spark event log";
  tool.description =
      "Reads one Spark application's event log (a local path, or a History Server base URL + application id + "
      "optional attempt) and says what wasted time: the application, how the log read, the findings by impact band, "
      "and the finding types to fix first with the wall-clock they could recover. Returns an analysisId for the "
      "other tools. Long logs report progress and can be cancelled.";
  tool.parameters = log_reference_parameters();
  Json schema = with_schema(R"({"type": "object",
    "required": ["analysisId", "source", "app", "diagnostics", "counts", "findingsByBand", "fixFirst", "topFindings"],
    "properties": {
      "analysisId": {"type": "string"}, "source": {"type": "string"},
      "app": {"type": "object", "required": ["id", "name", "sparkVersion", "durationMs", "finished"],
              "properties": {"id": {"type": "string"}, "name": {"type": "string"},
                             "attemptId": {"type": ["string", "null"]}, "sparkVersion": {"type": "string"},
                             "user": {"type": "string"}, "durationMs": {"type": ["integer", "null"]},
                             "finished": {"type": "boolean"}}},
      "diagnostics": {"type": "object", "required": ["linesRead", "skippedLines", "incomplete", "readError"],
                      "properties": {"linesRead": {"type": "integer"}, "skippedLines": {"type": "integer"},
                                     "incomplete": {"type": "boolean"}, "readError": {"type": ["string", "null"]}}},
      "counts": {"type": "object", "required": ["executors", "jobs", "stageAttempts", "sqlExecutions", "findings"],
                 "additionalProperties": {"type": "integer"}},
      "findingsByBand": {"type": "object", "additionalProperties": {"type": "integer"}},
      "fixFirst": {"type": "array", "items": {"type": "object", "required": ["type", "tier", "findingIds"]}},
      "topFindings": {"type": "array"}}})");
  schema["properties"]["topFindings"]["items"] = kBriefFindingSchema;
  tool.output_schema = std::move(schema);
  tool.run = [](const ToolArguments& arguments, ToolContext& context) {
    auto loaded = load_named_log(arguments, context);
    if (!loaded) return ToolResult::error(loaded.error().message());
    const NamedLog& log = *loaded;
    const Json& doc = log.document();
    ToolResult result;
    Json& out = result.structured;
    out["analysisId"] = log.analysis_id;
    out["source"] = log.source;
    Json app;
    for (const char* key : {"id", "name", "attemptId", "sparkVersion", "user", "durationMs", "finished"}) {
      app[key] = doc["app"][key];
    }
    out["app"] = std::move(app);
    Json diagnostics;
    for (const char* key : {"linesRead", "skippedLines", "incomplete", "readError"}) {
      diagnostics[key] = doc["diagnostics"][key];
    }
    out["diagnostics"] = std::move(diagnostics);
    out["counts"] = {{"executors", doc["executors"].size()},
                     {"jobs", doc["jobs"].size()},
                     {"stageAttempts", doc["stages"].size()},
                     {"sqlExecutions", doc["sql"].size()},
                     {"findings", doc["findings"].size()}};
    Json bands = {{"critical", 0}, {"high", 0}, {"medium", 0}, {"low", 0}, {"info", 0}};
    for (const auto& finding : log.analysis().findings) {
      const std::string band(analysis::to_string(finding.band));
      bands[band] = bands[band].get<int64_t>() + 1;
    }
    out["findingsByBand"] = std::move(bands);
    Json fix_first = Json::array();
    for (const auto& group : doc["rollup"]) {
      if (fix_first.size() == kFixFirstGroups) break;
      fix_first.push_back(group);
    }
    out["fixFirst"] = std::move(fix_first);
    Json top = Json::array();
    for (const auto& finding : doc["findings"]) {
      if (top.size() == kTopFindings) break;
      top.push_back(brief_finding(finding));
    }
    out["topFindings"] = std::move(top);
    result.summary =
        report::analysis_summary_line(log.source, log.model(), log.analysis()) +
        fmt::format("\nanalysisId {}: get_findings lists the findings, explain_finding explains one.", log.analysis_id);
    return result;
  };
  return tool;
}

Tool get_findings_tool() {
  Tool tool;
  tool.name = "get_findings";
  tool.title = "List findings";
  tool.description =
      "The findings of an analyzed log, most important first (impact band, then recoverable wall-clock), filtered "
      "by impact band, finding type and stage, one page at a time. Each finding has its evidence, impact estimate "
      "and recommendation.";
  tool.parameters = log_reference_parameters();
  tool.parameters.push_back(
      list_parameter("impactBand", "Only findings in these bands", {"critical", "high", "medium", "low", "info"}));
  tool.parameters.push_back(list_parameter("type", "Only findings of these types, e.g. skew, spill, gcPressure"));
  tool.parameters.push_back(integer_parameter("stage", "Only findings about this stage id", 0, std::nullopt));
  for (auto& p : paging_parameters(20, 100)) tool.parameters.push_back(std::move(p));
  Json schema = with_schema(R"({"type": "object", "required": ["analysisId", "page", "findings"],
    "properties": {"analysisId": {"type": "string"}, "page": {}, "findings": {"type": "array"}}})");
  schema["properties"]["page"] = page_schema();
  schema["properties"]["findings"]["items"] = kFindingSchema;
  tool.output_schema = std::move(schema);
  tool.run = [](const ToolArguments& arguments, ToolContext& context) {
    auto loaded = load_named_log(arguments, context);
    if (!loaded) return ToolResult::error(loaded.error().message());
    const NamedLog& log = *loaded;
    analysis::FindingFilter filter;
    for (const auto& band : arguments.string_list("impactBand"))
      filter.bands.insert(*analysis::parse_impact_band(band));
    for (const auto& type : arguments.string_list("type")) filter.types.insert(type);
    if (auto stage = arguments.optional_integer("stage")) filter.stage_ids.insert(*stage);
    const std::vector<size_t> passing = analysis::filter_findings(log.analysis().findings, filter);
    const PageWindow window = page_window(passing.size(), arguments, 20);
    ToolResult result;
    result.structured["analysisId"] = log.analysis_id;
    result.structured["page"] = page_json(window);
    Json findings = Json::array();
    result.summary = fmt::format("{} finding{} match", passing.size(), passing.size() == 1 ? "" : "s");
    if (window.end > window.begin) result.summary += fmt::format("; {} to {}:", window.begin + 1, window.end);
    for (size_t i = window.begin; i < window.end; ++i) {
      const analysis::Finding& finding = log.analysis().findings[passing[i]];
      findings.push_back(log.document()["findings"][passing[i]]);
      const std::string impact = report::impact_phrase(finding);
      result.summary += fmt::format("\n- [{}] {}: {}{}", analysis::to_string(finding.band), finding.id, finding.title,
                                    impact.empty() ? "" : " (" + impact + ")");
    }
    if (window.end < window.total) result.summary += fmt::format("\nmore from offset {}", window.end);
    result.structured["findings"] = std::move(findings);
    return result;
  };
  return tool;
}

Tool explain_finding_tool() {
  Tool tool;
  tool.name = "explain_finding";
  tool.title = "Explain a finding";
  tool.description =
      "One finding in full: the evidence with its figures, how its impact was estimated (basis, method, the raw waste "
      "and the wall-clock range), the thresholds it was tested against, and what to change, with Spark settings.";
  tool.parameters = log_reference_parameters();
  tool.parameters.push_back(text_parameter("findingId", "The finding's id, e.g. skew/max/stage-12.0", true));
  Json schema = with_schema(R"({"type": "object",
    "required": ["analysisId", "finding", "impact", "formula", "recommendation", "settings"],
    "properties": {"analysisId": {"type": "string"}, "finding": {},
                   "impact": {"type": "string"}, "recommendation": {"type": "string"}, "settings": {"type": "string"},
                   "formula": {"type": "object", "required": ["basis", "estimateMethod", "rawWaste", "wallClock",
                                                             "evidence", "thresholds"]}}})");
  schema["properties"]["finding"] = kFindingSchema;
  tool.output_schema = std::move(schema);
  tool.run = [](const ToolArguments& arguments, ToolContext& context) {
    auto loaded = load_named_log(arguments, context);
    if (!loaded) return ToolResult::error(loaded.error().message());
    const NamedLog& log = *loaded;
    const std::string id = arguments.string("findingId");
    const auto& findings = log.analysis().findings;
    // A finding folded into another (one fix, one entry) is explained as itself, where it lives.
    const analysis::Finding* found = nullptr;
    const Json* found_doc = nullptr;
    for (size_t i = 0; i < findings.size() && found == nullptr; ++i) {
      const Json& entry = log.document()["findings"][i];
      if (findings[i].id == id) {
        found = &findings[i];
        found_doc = &entry;
      }
      for (size_t k = 0; k < findings[i].also_answers.size() && found == nullptr; ++k) {
        if (findings[i].also_answers[k].finding.id != id) continue;
        found = &findings[i].also_answers[k].finding;
        found_doc = &entry["alsoAnswers"][k]["finding"];
      }
    }
    if (found == nullptr) {
      return ToolResult::error(fmt::format("no finding \"{}\" in {} ({} findings); get_findings lists their ids", id,
                                           log.analysis_id, findings.size()));
    }
    const analysis::Finding& finding = *found;
    const Json& doc = *found_doc;
    ToolResult result;
    Json& out = result.structured;
    out["analysisId"] = log.analysis_id;
    out["finding"] = doc;
    out["impact"] = report::impact_phrase(finding);
    out["formula"] = {{"basis", doc["impactEstimate"]["basis"]},
                      {"estimateMethod", doc["impactEstimate"]["estimateMethod"]},
                      {"rawWaste", doc["impactEstimate"]["rawWaste"]},
                      {"wallClock", doc["impactEstimate"]["wallClock"]},
                      {"evidence", doc["evidence"]},
                      {"thresholds", doc["thresholds"]}};
    out["recommendation"] = finding.recommendation;
    out["settings"] = report::settings_phrase(finding);
    result.summary = fmt::format("{} [{}] {}\n{}", finding.id, analysis::to_string(finding.band), finding.title,
                                 finding.explanation);
    if (!out["impact"].get<std::string>().empty()) result.summary += "\nImpact: " + out["impact"].get<std::string>();
    result.summary += "\nWhat to change: " + finding.recommendation;
    if (!finding.settings.empty()) result.summary += "\nSettings: " + report::settings_phrase(finding);
    return result;
  };
  return tool;
}

}  // namespace sf::mcp

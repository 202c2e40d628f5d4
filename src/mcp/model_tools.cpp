// get_stage, get_sql_execution, get_slowest: parts of the model of one log, taken from its
// analysis document so they read exactly as `analyze -f json` writes them.
#include <fmt/format.h>

#include "common/units.h"
#include "mcp/log_reference.h"
#include "mcp/session.h"
#include "mcp/tools.h"
#include "model/slowest.h"

namespace sf::mcp {

namespace {

std::string duration_text(const Json& duration_ms) {
  return duration_ms.is_number() ? units::format_duration_ms(duration_ms.get<int64_t>()) : "-";
}

Json brief_stage(const Json& stage) {
  return {{"stageId", stage["stageId"]},
          {"attemptId", stage["attemptId"]},
          {"name", stage["name"]},
          {"status", stage["status"]},
          {"durationMs", stage["durationMs"]},
          {"numTasks", stage["numTasks"]},
          {"sqlExecutionId", stage["sqlExecutionId"]}};
}

const Json kBriefStageSchema = Json::parse(R"({"type": "object",
  "required": ["stageId", "attemptId", "name", "status", "durationMs", "numTasks", "sqlExecutionId"],
  "properties": {"stageId": {"type": "integer"}, "attemptId": {"type": "integer"}, "name": {"type": "string"},
                 "status": {"type": "string"}, "durationMs": {"type": ["integer", "null"]},
                 "numTasks": {"type": "integer"}, "sqlExecutionId": {"type": ["integer", "null"]}}})");

// Ids of the findings about a stage, in the analysis' order.
Json findings_about_stage(const NamedLog& log, int64_t stage_id) {
  Json ids = Json::array();
  for (const auto& finding : log.analysis().findings) {
    for (const auto& stage : finding.stages) {
      if (stage.stage_id != stage_id) continue;
      ids.push_back(finding.id);
      break;
    }
  }
  return ids;
}

}  // namespace

Tool get_stage_tool() {
  Tool tool;
  tool.name = "get_stage";
  tool.title = "Get a stage";
  tool.description =
      "One stage attempt of an analyzed log: task counts, every task metric summed, exact task quantiles (duration, "
      "GC, shuffle, spill, ...), per-host aggregates, the SQL plan nodes attributed to it, and the findings about it. "
      "Per-executor rows and accumulables are included on request.";
  tool.parameters = log_reference_parameters();
  tool.parameters.push_back(integer_parameter("stageId", "The stage id", 0, std::nullopt, true));
  tool.parameters.push_back(
      integer_parameter("attemptId", "The stage attempt (default: the last one)", 0, std::nullopt));
  tool.parameters.push_back(flag_parameter("includeExecutors", "Add the per-executor rows (long on big clusters)"));
  tool.parameters.push_back(flag_parameter("includeAccumulables", "Add the stage's accumulator values"));
  tool.output_schema =
      Json::parse(R"({"type": "object", "required": ["analysisId", "stage", "attemptIds", "findingIds"],
    "properties": {"analysisId": {"type": "string"},
      "stage": {"type": "object", "required": ["stageId", "attemptId", "name", "status", "metrics", "quantiles", "hosts",
                                               "planNodes"],
                "properties": {"stageId": {"type": "integer"}, "attemptId": {"type": "integer"},
                               "metrics": {"type": "object"}, "quantiles": {"type": "object"},
                               "hosts": {"type": "array"}, "planNodes": {"type": "array"}}},
      "attemptIds": {"type": "array", "items": {"type": "integer"}},
      "findingIds": {"type": "array", "items": {"type": "string"}}}})");
  tool.run = [](const ToolArguments& arguments, ToolContext& context) {
    auto loaded = load_named_log(arguments, context);
    if (!loaded) return ToolResult::error(loaded.error().message());
    const NamedLog& log = *loaded;
    const int64_t stage_id = arguments.integer("stageId", 0);
    const auto attempt = arguments.optional_integer("attemptId");
    const Json* chosen = nullptr;
    Json attempts = Json::array();
    for (const auto& stage : log.document()["stages"]) {
      if (stage["stageId"] != stage_id) continue;
      attempts.push_back(stage["attemptId"]);
      if (!attempt || stage["attemptId"] == *attempt) chosen = &stage;  // stages are sorted: the last attempt wins
    }
    if (chosen == nullptr) {
      return ToolResult::error(
          attempts.empty()
              ? fmt::format("no stage {} in {}; get_slowest with kind \"stages\" lists stages", stage_id,
                            log.analysis_id)
              : fmt::format("stage {} has no attempt {}; its attempts are {}", stage_id, *attempt, attempts.dump()));
    }
    ToolResult result;
    Json stage = *chosen;
    if (!arguments.boolean("includeExecutors", false)) {
      stage["executorCount"] = stage["executors"].size();
      stage.erase("executors");
    }
    if (!arguments.boolean("includeAccumulables", false)) stage.erase("accumulables");
    result.structured["analysisId"] = log.analysis_id;
    result.structured["findingIds"] = findings_about_stage(log, stage_id);
    result.structured["attemptIds"] = std::move(attempts);
    const Json& q = stage["quantiles"]["durationMs"];
    result.summary = fmt::format("stage {}.{} \"{}\" {}: {}, {} tasks, task duration p50 {} / max {}; {} finding(s)",
                                 stage_id, stage["attemptId"].get<int64_t>(), stage["name"].get<std::string>(),
                                 stage["status"].get<std::string>(), duration_text(stage["durationMs"]),
                                 stage["numTasks"].get<int64_t>(), duration_text(q["p50"]), duration_text(q["max"]),
                                 result.structured["findingIds"].size());
    result.structured["stage"] = std::move(stage);
    return result;
  };
  return tool;
}

Tool get_sql_execution_tool() {
  Tool tool;
  tool.name = "get_sql_execution";
  tool.title = "Get a SQL execution";
  tool.description =
      "One SQL execution of an analyzed log: its final plan tree (nodes with metrics and the stages they ran in), the "
      "earlier plan versions adaptive query execution (AQE) replaced, and its stages. The physical plan text is "
      "included on request.";
  tool.parameters = log_reference_parameters();
  tool.parameters.push_back(integer_parameter("executionId", "The SQL execution id", 0, std::nullopt, true));
  tool.parameters.push_back(flag_parameter("includePhysicalPlan", "Add Spark's physical plan description (long)"));
  Json schema = Json::parse(R"({"type": "object", "required": ["analysisId", "execution", "planVersions", "stages"],
    "properties": {"analysisId": {"type": "string"},
      "execution": {"type": "object", "required": ["executionId", "description", "durationMs", "plan", "earlierPlans"],
                    "properties": {"executionId": {"type": "integer"}, "plan": {"type": "array"},
                                   "earlierPlans": {"type": "array"}}},
      "planVersions": {"type": "integer"},
      "stages": {"type": "array"}}})");
  schema["properties"]["stages"]["items"] = kBriefStageSchema;
  tool.output_schema = std::move(schema);
  tool.run = [](const ToolArguments& arguments, ToolContext& context) {
    auto loaded = load_named_log(arguments, context);
    if (!loaded) return ToolResult::error(loaded.error().message());
    const NamedLog& log = *loaded;
    const int64_t id = arguments.integer("executionId", 0);
    const Json* found = nullptr;
    for (const auto& execution : log.document()["sql"]) {
      if (execution["executionId"] == id) found = &execution;
    }
    if (found == nullptr) {
      return ToolResult::error(
          fmt::format("no SQL execution {} in {} ({} executions); get_slowest with kind \"sql\" "
                      "lists them",
                      id, log.analysis_id, log.document()["sql"].size()));
    }
    Json execution = *found;
    if (!arguments.boolean("includePhysicalPlan", false)) execution.erase("physicalPlanDescription");
    Json stages = Json::array();
    for (const auto& stage : log.document()["stages"]) {
      if (stage["sqlExecutionId"] == id) stages.push_back(brief_stage(stage));
    }
    ToolResult result;
    const size_t versions = execution["earlierPlans"].size() + 1;
    result.summary =
        fmt::format("SQL execution {} \"{}\": {}, {} plan nodes, {} plan version(s), {} stage attempt(s)", id,
                    execution["description"].get<std::string>(), duration_text(execution["durationMs"]),
                    execution["plan"].size(), versions, stages.size());
    result.structured["analysisId"] = log.analysis_id;
    result.structured["execution"] = std::move(execution);
    result.structured["planVersions"] = versions;
    result.structured["stages"] = std::move(stages);
    return result;
  };
  return tool;
}

Tool get_slowest_tool() {
  Tool tool;
  tool.name = "get_slowest";
  tool.title = "Slowest stages, jobs or SQL executions";
  tool.description =
      "The longest stage attempts, jobs or SQL executions of an analyzed log, longest first (what the text report's "
      "\"Top stages by duration\" lists).";
  tool.parameters = log_reference_parameters();
  tool.parameters.push_back(choice_parameter("kind", "What to list", {"stages", "jobs", "sql"}, true));
  tool.parameters.push_back(integer_parameter("limit", "How many (default 10, at most 100)", 1, 100));
  tool.output_schema = Json::parse(R"({"type": "object", "required": ["analysisId", "kind", "items"],
    "properties": {"analysisId": {"type": "string"}, "kind": {"enum": ["stages", "jobs", "sql"]},
      "items": {"type": "array", "items": {"type": "object", "required": ["id", "name", "durationMs"],
        "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "durationMs": {"type": "integer"},
                       "status": {"type": "string"}, "stageIds": {"type": "array", "items": {"type": "integer"}},
                       "sqlExecutionId": {"type": ["integer", "null"]}}}}}})");
  tool.run = [](const ToolArguments& arguments, ToolContext& context) {
    auto loaded = load_named_log(arguments, context);
    if (!loaded) return ToolResult::error(loaded.error().message());
    const NamedLog& log = *loaded;
    const std::string kind = arguments.string("kind");
    const size_t limit = static_cast<size_t>(arguments.integer("limit", 10));
    const model::AppModel& model = log.model();
    Json items = Json::array();
    if (kind == "stages") {
      for (const auto* stage : model::slowest_stages(model, limit)) {
        const Json& doc = log.document()["stages"][static_cast<size_t>(stage - model.stages.data())];
        items.push_back({{"id", fmt::format("{}.{}", stage->stage_id, stage->attempt_id)},
                         {"name", stage->name},
                         {"durationMs", *stage->duration_ms()},
                         {"status", doc["status"]},
                         {"stageIds", {stage->stage_id}},
                         {"sqlExecutionId", doc["sqlExecutionId"]}});
      }
    } else if (kind == "jobs") {
      for (const auto* job : model::slowest_jobs(model, limit)) {
        const Json& doc = log.document()["jobs"][static_cast<size_t>(job - model.jobs.data())];
        items.push_back({{"id", std::to_string(job->job_id)},
                         {"name", job->description.empty() ? job->name : job->description},
                         {"durationMs", *job->duration_ms()},
                         {"status", doc["status"]},
                         {"stageIds", doc["stageIds"]},
                         {"sqlExecutionId", doc["sqlExecutionId"]}});
      }
    } else {
      for (const auto* execution : model::slowest_sql_executions(model, limit)) {
        const Json& doc = log.document()["sql"][static_cast<size_t>(execution - model.sql.data())];
        items.push_back({{"id", std::to_string(execution->execution_id)},
                         {"name", execution->description},
                         {"durationMs", *execution->duration_ms()},
                         {"status", doc["errorMessage"].is_null() ? "succeeded" : "failed"},
                         {"stageIds", doc["stageIds"]},
                         {"sqlExecutionId", execution->execution_id}});
      }
    }
    ToolResult result;
    result.summary = fmt::format("{} slowest {}:", items.size(), kind);
    for (const auto& item : items) {
      result.summary += fmt::format("\n- {} {} {}", item["id"].get<std::string>(), duration_text(item["durationMs"]),
                                    item["name"].get<std::string>());
    }
    result.structured = {{"analysisId", log.analysis_id}, {"kind", kind}, {"items", std::move(items)}};
    return result;
  };
  return tool;
}

}  // namespace sf::mcp

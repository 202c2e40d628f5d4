// get_economics: where the time and the money go in one analyzed log (analysis/economics/economics.h), cut
// from the analysis document's "economics" section: the time split, the critical path, the
// what-if curve and the cost, with the costliest jobs, SQL executions, stages and findings (the
// per-item lists grow with the log, so only the `limit` costliest of each are returned).
#include <algorithm>

#include <fmt/format.h>

#include "mcp/log_reference.h"
#include "mcp/session.h"
#include "mcp/tools.h"
#include "report/economics_text.h"

namespace sf::mcp {

namespace {

constexpr int64_t kDefaultLimit = 10;
constexpr int64_t kMostLimit = 100;

// The `limit` items of `items` with the highest `key`, highest first (ties keep document order).
Json costliest(const Json& items, const char* key, size_t limit) {
  std::vector<Json> sorted;
  for (const Json& item : items) {
    if (item.contains(key) && item[key].is_number()) sorted.push_back(item);
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [key](const Json& a, const Json& b) { return a[key].get<double>() > b[key].get<double>(); });
  if (sorted.size() > limit) sorted.resize(limit);
  return Json(sorted);
}

}  // namespace

Tool get_economics_tool() {
  Tool tool;
  tool.name = "get_economics";
  tool.title = "Where the time and the money go";
  tool.description =
      "For an analyzed log: the time split between the driver alone and the executors (before the first job, between "
      "jobs, after the last), the critical path (the least wall-clock with unlimited executors, the ideal with "
      "today's cores and no skew, the stages on the path), the what-if curve (a scheduler simulation of the run on N "
      "executors, with its knee) and the cost at the rate card's prices, with the costliest jobs, SQL executions, "
      "stages and findings.";
  tool.parameters = log_reference_parameters();
  tool.parameters.push_back(integer_parameter("limit",
                                              "How many of the costliest jobs, SQL executions, stages and "
                                              "findings to list (default 10)",
                                              1, kMostLimit));
  tool.output_schema = Json::parse(R"({"type": "object",
    "required": ["analysisId", "cluster", "timeSplit", "criticalPath", "whatIf", "cost", "costliest", "counts"],
    "properties": {"analysisId": {"type": "string"}, "cluster": {"type": "object"},
                   "timeSplit": {"type": ["object", "null"]}, "criticalPath": {"type": ["object", "null"]},
                   "whatIf": {"type": ["object", "null"]}, "cost": {"type": "object"},
                   "costliest": {"type": "object", "required": ["jobs", "sql", "stages", "findings"]},
                   "counts": {"type": "object", "additionalProperties": {"type": "integer"}}}})");
  tool.run = [](const ToolArguments& arguments, ToolContext& context) {
    auto loaded = load_named_log(arguments, context);
    if (!loaded) return ToolResult::error(loaded.error().message());
    const NamedLog& log = *loaded;
    const Json& economics = log.document()["economics"];
    const auto limit = static_cast<size_t>(arguments.optional_integer("limit").value_or(kDefaultLimit));
    ToolResult result;
    Json& out = result.structured;
    out["analysisId"] = log.analysis_id;
    out["cluster"] = economics["cluster"];
    out["timeSplit"] = economics["timeSplit"];
    out["criticalPath"] = economics["criticalPath"];
    if (out["criticalPath"].is_object() && out["criticalPath"]["stages"].size() > limit) {
      // The path's first stages: where the chain starts is what to read first. (The count is
      // added after the cut: a new key moves the object's members, and `stages` with them.)
      Json& stages = out["criticalPath"]["stages"];
      const size_t on_path = stages.size();
      stages.erase(stages.begin() + static_cast<std::ptrdiff_t>(limit), stages.end());
      out["criticalPath"]["stagesOnPath"] = on_path;
    }
    out["whatIf"] = economics["whatIf"];
    Json cost = economics["cost"];
    cost.erase("stages");
    cost.erase("findings");
    out["cost"] = std::move(cost);
    out["costliest"] = {{"jobs", costliest(economics["jobs"], "cost", limit)},
                        {"sql", costliest(economics["sql"], "cost", limit)},
                        {"stages", costliest(economics["cost"]["stages"], "cost", limit)},
                        {"findings", costliest(economics["cost"]["findings"], "high", limit)}};
    out["counts"] = {{"jobs", economics["jobs"].size()},
                     {"sql", economics["sql"].size()},
                     {"stages", economics["cost"]["stages"].size()},
                     {"findings", economics["cost"]["findings"].size()}};
    std::string text;
    report::economics_text_section(text, log.analysis().economics);
    result.summary = fmt::format("{}: where the time and the money go{}", log.analysis_id, text);
    return result;
  };
  return tool;
}

}  // namespace sf::mcp

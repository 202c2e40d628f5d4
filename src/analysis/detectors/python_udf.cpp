// The Python UDF detector: pythonUdf.
//
// A Python node of a final plan (BatchEvalPython, ArrowEvalPython, the pandas and Arrow function
// nodes) hands its rows to Python worker processes and waits for them: that time is outside the
// JVM and its CPU is not the task's. Spark 4.1+ measures it on the node ("time to run Python
// workers", split into starting, initializing and executing the function); before that the
// detector reads it off the stages that ran the node: executor run time less the task thread's
// CPU, GC and shuffle fetch waits. What a fix recovers depends on the fix: a builtin function
// removes the Python time; Arrow batches for a pickled UDF remove the moving of rows, not the
// function's own time.
#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

#include <fmt/format.h>

#include "analysis/detectors/detectors.h"
#include "analysis/detectors/plan_text.h"
#include "analysis/detectors/removed_work.h"
#include "analysis/findings/figure_words.h"
#include "analysis/findings/finding_types.h"
#include "common/units.h"

namespace sf::analysis {

namespace {

using model::PlanNode;
using model::SqlExecution;
using model::StageAttempt;
using model::TaskMetric;

// The Python nodes of Spark 2.3 to 4.3 plans (node names without a GPU plugin's "Gpu" prefix).
// Row-at-a-time nodes pickle each row to the worker; the others exchange Arrow batches.
struct PythonNodeKind {
  std::string_view node_name;
  bool row_at_a_time;
  std::string_view what;
};

constexpr std::array kPythonNodes = {
    PythonNodeKind{"BatchEvalPython", true, "a row-at-a-time (pickled) Python UDF"},
    PythonNodeKind{"BatchEvalPythonUDTF", true, "a row-at-a-time (pickled) Python UDTF"},
    PythonNodeKind{"ArrowEvalPython", false, "an Arrow-optimized or pandas UDF"},
    PythonNodeKind{"ArrowEvalPythonUDTF", false, "an Arrow-optimized Python UDTF"},
    PythonNodeKind{"MapInPandas", false, "mapInPandas"},
    PythonNodeKind{"MapInArrow", false, "mapInArrow"},
    PythonNodeKind{"PythonMapInArrow", false, "mapInArrow"},
    PythonNodeKind{"FlatMapGroupsInPandas", false, "groupBy().applyInPandas"},
    PythonNodeKind{"FlatMapGroupsInArrow", false, "groupBy().applyInArrow"},
    PythonNodeKind{"FlatMapCoGroupsInPandas", false, "cogroup().applyInPandas"},
    PythonNodeKind{"FlatMapCoGroupsInArrow", false, "cogroup().applyInArrow"},
    PythonNodeKind{"AggregateInPandas", false, "a grouped-aggregate pandas UDF"},
    PythonNodeKind{"ArrowAggregatePython", false, "a grouped-aggregate pandas UDF"},
    PythonNodeKind{"WindowInPandas", false, "a pandas UDF over a window"},
    PythonNodeKind{"ArrowWindowPython", false, "a pandas UDF over a window"},
    PythonNodeKind{"FlatMapGroupsInPandasWithState", false, "applyInPandasWithState"},
    PythonNodeKind{"TransformWithStateInPandas", false, "transformWithStateInPandas"},
    PythonNodeKind{"TransformWithStateInPySpark", false, "transformWithState"},
};

const PythonNodeKind* python_node_kind(const PlanNode& node) {
  std::string_view name = node.node_name;
  if (name.starts_with("Gpu")) name.remove_prefix(3);
  for (const PythonNodeKind& kind : kPythonNodes) {
    if (kind.node_name == name) return &kind;
  }
  return nullptr;
}

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '<' || c == '>' || c == '$' || c == '.';
}

// The Python functions a node calls: the calls at the top level of its text, after the node's
// name ("BatchEvalPython [to_upper(name#1)#2], [pythonUDF0#7]" -> to_upper). Their arguments are
// nested calls and are not functions of the node; a window's specification is Spark's own.
std::vector<std::string> python_functions(const PlanNode& node) {
  std::string_view text = node.simple_string;
  if (const size_t at = text.find(node.node_name); at != std::string_view::npos) {
    text.remove_prefix(at + node.node_name.size());
  }
  std::vector<std::string> names;
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ')') depth = std::max(0, depth - 1);
    if (text[i] != '(') continue;
    if (depth++ > 0) continue;
    size_t start = i;
    while (start > 0 && identifier_char(text[start - 1])) --start;
    std::string name(text.substr(start, i - start));
    if (name.empty() || name == "windowspecdefinition" || name == "specifiedwindowframe") continue;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  }
  return names;
}

// Builtins a Python function's name says it reimplements, by the name's words ("to_upper",
// "upperCase", "strip_udf"). Only names whose words leave exactly one of these (or are a builtin's
// own name) count: a UDF's name is a hint, not its code.
struct BuiltinWord {
  std::string_view word;
  std::string_view builtin;
};

constexpr std::array kBuiltinWords = {
    BuiltinWord{"upper", "upper"},
    BuiltinWord{"uppercase", "upper"},
    BuiltinWord{"ucase", "upper"},
    BuiltinWord{"lower", "lower"},
    BuiltinWord{"lowercase", "lower"},
    BuiltinWord{"lcase", "lower"},
    BuiltinWord{"trim", "trim"},
    BuiltinWord{"strip", "trim"},
    BuiltinWord{"ltrim", "ltrim"},
    BuiltinWord{"lstrip", "ltrim"},
    BuiltinWord{"rtrim", "rtrim"},
    BuiltinWord{"rstrip", "rtrim"},
    BuiltinWord{"length", "length"},
    BuiltinWord{"len", "length"},
    BuiltinWord{"reverse", "reverse"},
    BuiltinWord{"initcap", "initcap"},
    BuiltinWord{"capitalize", "initcap"},
    BuiltinWord{"titlecase", "initcap"},
    BuiltinWord{"abs", "abs"},
    BuiltinWord{"sqrt", "sqrt"},
    BuiltinWord{"round", "round"},
    BuiltinWord{"floor", "floor"},
    BuiltinWord{"ceil", "ceil"},
    BuiltinWord{"concat", "concat"},
    BuiltinWord{"replace", "regexp_replace"},
    BuiltinWord{"split", "split"},
    BuiltinWord{"substring", "substring"},
    BuiltinWord{"substr", "substring"},
    BuiltinWord{"lpad", "lpad"},
    BuiltinWord{"rpad", "rpad"},
    BuiltinWord{"md5", "md5"},
    BuiltinWord{"sha1", "sha1"},
    BuiltinWord{"sha256", "sha2"},
    BuiltinWord{"sha2", "sha2"},
    BuiltinWord{"crc32", "crc32"},
    BuiltinWord{"base64", "base64"},
    BuiltinWord{"hex", "hex"},
    BuiltinWord{"coalesce", "coalesce"},
    BuiltinWord{"greatest", "greatest"},
    BuiltinWord{"least", "least"},
    BuiltinWord{"exp", "exp"},
    BuiltinWord{"log10", "log10"},
    BuiltinWord{"pow", "pow"},
    BuiltinWord{"power", "pow"},
    BuiltinWord{"levenshtein", "levenshtein"},
    BuiltinWord{"soundex", "soundex"},
    BuiltinWord{"regexp_replace", "regexp_replace"},
    BuiltinWord{"regexp_extract", "regexp_extract"},
    BuiltinWord{"to_date", "to_date"},
    BuiltinWord{"to_timestamp", "to_timestamp"},
    BuiltinWord{"date_format", "date_format"},
    BuiltinWord{"datediff", "datediff"},
    BuiltinWord{"date_add", "date_add"},
};

// Words that say nothing of what a function does ("to_upper", "my_strip_udf", "upperCase").
constexpr std::array<std::string_view, 16> kFillerWords = {"udf", "py",  "python", "fn",    "func", "function",
                                                           "to",  "get", "do",     "apply", "my",   "make",
                                                           "col", "str", "string", "case"};

std::optional<std::string_view> builtin_word(std::string_view word) {
  for (const BuiltinWord& b : kBuiltinWords) {
    if (b.word == word) return b.builtin;
  }
  return std::nullopt;
}

std::optional<std::string_view> builtin_for(std::string_view function) {
  std::string lowered;
  std::vector<std::string> words(1);
  for (size_t i = 0; i < function.size(); ++i) {
    const char c = function[i];
    const bool upper = std::isupper(static_cast<unsigned char>(c)) != 0;
    const char low = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    lowered += low;
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      if (!words.back().empty()) words.emplace_back();
      continue;
    }
    if (upper && i > 0 && std::islower(static_cast<unsigned char>(function[i - 1])) && !words.back().empty()) {
      words.emplace_back();  // camelCase: "upperCase" -> upper, case
    }
    words.back() += low;
  }
  while (!lowered.empty() && lowered.front() == '_') lowered.erase(lowered.begin());
  if (auto whole = builtin_word(lowered)) return whole;
  std::erase_if(words, [](const std::string& w) {
    return w.empty() || std::find(kFillerWords.begin(), kFillerWords.end(), w) != kFillerWords.end();
  });
  if (words.size() != 1) return std::nullopt;
  return builtin_word(words.front());
}

// The time one stage attempt's tasks spent in this node's Python workers.
struct PythonStageTime {
  const StageAttempt* stage = nullptr;
  double outside_ms = 0;   // in Python workers (measured), or off the task thread's CPU (estimated)
  double start_ms = 0;     // starting workers (Spark 4.1+)
  double init_ms = 0;      // initializing them
  double function_ms = 0;  // executing the Python function (Spark 4.1+)
};

// Task time off the task thread's CPU that is neither GC nor a wait for shuffle blocks: in
// BatchEvalPython and friends the task thread waits for the Python worker's results.
double off_cpu_ms(const StageAttempt& stage) {
  const double run = static_cast<double>(stage.metric(TaskMetric::kExecutorRunTimeMs));
  const double cpu = static_cast<double>(stage.metric(TaskMetric::kExecutorCpuTimeNs)) / 1e6;
  const double gc = static_cast<double>(stage.metric(TaskMetric::kJvmGcTimeMs));
  const double fetch = static_cast<double>(stage.metric(TaskMetric::kShuffleFetchWaitTimeMs));
  return std::max(0.0, run - cpu - gc - fetch);
}

struct PythonTime {
  std::vector<PythonStageTime> stages;
  bool measured = false;  // from the node's own Python metrics
  // The function's own time is known and leaves room for the moving of rows: Spark times the
  // worker's phases on both sides of the pipe, and under load they need not add up.
  bool split = false;
  double outside_ms = 0;
  double start_ms = 0;
  double init_ms = 0;
  double function_ms = 0;
  double run_ms = 0;  // executor run time of those stages
};

// Python nodes without metrics of their own, per stage id: they share its off-CPU time.
using SharingNodes = std::map<int64_t, int>;

PythonTime python_time(const model::AppModel& model, const PlanNode& node,
                       const std::vector<const StageAttempt*>& attempts, const SharingNodes& sharing) {
  PythonTime time;
  const auto total = metric_parts_by_stage(model, node, {"time to run Python workers"});
  const auto start = metric_parts_by_stage(model, node, {"time to start Python workers"});
  const auto init = metric_parts_by_stage(model, node, {"time to initialize Python workers"});
  const auto function = metric_parts_by_stage(model, node, {"time to execute Python code"});
  time.measured = !total.empty();
  for (const StageAttempt* stage : attempts) {
    const double run = static_cast<double>(stage->metric(TaskMetric::kExecutorRunTimeMs));
    PythonStageTime s{stage};
    if (time.measured) {
      // A worker's time lies within its task's: never more than the stage's run time.
      s.outside_ms = std::min(stage_part(total, stage), run);
      s.start_ms = stage_part(start, stage);
      s.init_ms = stage_part(init, stage);
      s.function_ms = stage_part(function, stage);
    } else {
      const auto it = sharing.find(stage->stage_id);
      s.outside_ms = off_cpu_ms(*stage) / std::max(1, it == sharing.end() ? 1 : it->second);
    }
    time.run_ms += run;
    time.outside_ms += s.outside_ms;
    time.start_ms += s.start_ms;
    time.init_ms += s.init_ms;
    time.function_ms += s.function_ms;
    time.stages.push_back(s);
  }
  time.split = !function.empty() && time.start_ms + time.init_ms + time.function_ms <= time.outside_ms;
  return time;
}

std::string node_text(const SqlExecution& sql, const PlanNode& node) {
  return fmt::format("{} (plan node {} of SQL execution {})", node.node_name, node.node_id, sql.execution_id);
}

std::string function_list(const std::vector<std::string>& functions) {
  std::string list;
  for (const std::string& f : functions) list += (list.empty() ? "" : ", ") + f;
  return list.empty() ? "its Python function" : list;
}

// What the log's Spark version offers instead of a pickled UDF, and the setting to flip.
struct ArrowAdvice {
  std::string text;
  std::optional<SettingChange> setting;
};

ArrowAdvice arrow_advice(const DetectorContext& context, const SqlExecution& sql, bool udtf) {
  const auto version = context.spark_version();
  const std::string key =
      udtf ? "spark.sql.execution.pythonUDTF.arrow.enabled" : "spark.sql.execution.pythonUDF.arrow.enabled";
  const std::string decorator = udtf ? "@udtf(useArrow=True)" : "@udf(useArrow=True)";
  const auto current = context.execution_property(sql, key);
  if (version && *version < std::pair{3, 5}) {
    return {udtf ? std::string("Spark before 3.5 has no Arrow-optimized UDTF; return rows in batches from a pandas "
                               "function instead (mapInPandas), or upgrade to Spark 3.5 or later.")
                 : std::string("Before Spark 3.5 the vectorized form is a pandas UDF (@pandas_udf with type hints, "
                               "Spark 3.0+): it receives whole columns as pandas Series in Arrow batches."),
            std::nullopt};
  }
  // Spark 4.2 turned Arrow on by default for Python UDFs and UDTFs.
  const bool default_on = version && *version >= std::pair{4, 2};
  if (current == "false" || (!default_on && current != "true")) {
    SettingChange change = context.setting(key, "true");
    change.current_value = current.value_or("");
    return {fmt::format("Let Spark exchange Arrow batches with the workers instead of pickled rows: set {}=true, or "
                        "mark the function {} (Spark 3.5+); a pandas UDF (@pandas_udf) goes further and hands the "
                        "function whole columns.",
                        key, decorator),
            change};
  }
  return {fmt::format("{} is on (the default since Spark 4.2), yet this UDF ran pickled: PyArrow or pandas was "
                      "missing on the driver when it was defined (PySpark then falls back with a warning), or it "
                      "was defined with useArrow=False. Install pyarrow and pandas where the job is submitted, or "
                      "mark the function {}.",
                      key, decorator),
          std::nullopt};
}

// How the time outside the JVM was reached, in words: Spark's own timing of the workers, or
// the stages' off-CPU estimate.
std::string describe_python_time(const DetectorContext& context, const PythonTime& time) {
  std::string words;
  if (time.measured) {
    words = fmt::format("Spark measured {} in its Python workers", duration_text(time.outside_ms));
    if (time.start_ms + time.init_ms > 0) {
      words += fmt::format(" ({} of it starting them and {} initializing them)", duration_text(time.start_ms),
                           duration_text(time.init_ms));
    }
    if (time.function_ms > 0) words += fmt::format(", {} executing the function", duration_text(time.function_ms));
    words += time.split ? fmt::format(
                              "; the rest, {}, is rows moving between the JVM and Python and the JVM waiting for them.",
                              duration_text(time.outside_ms - time.start_ms - time.init_ms - time.function_ms))
                        : std::string(".");
  } else {
    words = fmt::format(
        "Spark {} does not time Python workers; the tasks of those stages spent {} off the task thread's CPU that was "
        "neither GC nor waiting for shuffle blocks, which is where a task waits for its Python worker (an estimate: "
        "other waits count too).",
        context.model().app.spark_version.empty() ? std::string("of this log") : context.model().app.spark_version,
        duration_text(time.outside_ms));
  }
  return words;
}

void report_python_node(const DetectorContext& context, const SqlExecution& sql, const PlanNode& node,
                        const PythonNodeKind& kind, const SharingNodes& sharing, std::vector<Finding>& findings) {
  const Thresholds& t = context.thresholds();
  const std::vector<int64_t> stage_ids = pipeline_stage_ids(sql.plan, node.node_id);
  std::vector<const StageAttempt*> attempts;
  for (const StageAttempt* stage : context.ran_stages()) {
    // A failed attempt's time is the failure's to explain (retryWaste, failures), not a faster
    // UDF's to win back: the attempt is run again or the job is lost either way.
    if (stage->status == model::StageStatus::kFailed) continue;
    if (std::binary_search(stage_ids.begin(), stage_ids.end(), stage->stage_id)) attempts.push_back(stage);
  }
  if (attempts.empty()) return;  // nothing ran it that the log can tie to it
  const PythonTime time = python_time(context.model(), node, attempts, sharing);
  if (time.outside_ms < t.python_udf_min_outside_ms || time.run_ms <= 0 ||
      time.outside_ms / time.run_ms < t.python_udf_min_outside_share) {
    return;
  }
  const std::vector<std::string> functions = python_functions(node);
  std::optional<std::string_view> builtin;
  std::string builtin_function;
  for (const std::string& f : functions) {
    if (auto b = builtin_for(f)) {
      builtin = b;
      builtin_function = f;
      break;
    }
  }
  const bool udtf = std::string_view(node.node_name).ends_with("UDTF");

  // What the fix recovers, stage by stage: all the Python time for a builtin; for Arrow batches
  // instead of pickled rows, the moving of rows (the time that is neither starting workers nor
  // running the function, when Spark measured those), else a modeled share.
  std::vector<RemovedWork> removed;
  EstimateMethod method = EstimateMethod::kMeasured;
  double recoverable_ms = 0;
  for (const PythonStageTime& s : time.stages) {
    double part = s.outside_ms;
    if (!builtin && kind.row_at_a_time) {
      if (time.split) {
        part = std::max(0.0, s.outside_ms - s.start_ms - s.init_ms - s.function_ms);
      } else {
        part = s.outside_ms * t.python_udf_arrow_saving_share;
        method = EstimateMethod::kModeled;
      }
    }
    recoverable_ms += part;
    removed.push_back({s.stage, part});
  }

  Finding f;
  f.type = finding_type::kPythonUdf;
  f.rule = builtin              ? finding_rule::kBuiltinExists
           : kind.row_at_a_time ? finding_rule::kRowAtATime
                                : finding_rule::kVectorized;
  f.scope = Scope::kSql;
  f.id = DetectorContext::finding_id(f.type, f.rule, fmt::format("sql-{}.node-{}", sql.execution_id, node.node_id));
  f.sql_execution_id = sql.execution_id;
  for (const StageAttempt* stage : attempts) f.stages.push_back(DetectorContext::ref(*stage));
  std::string stages_text;
  for (const StageAttempt* stage : attempts) {
    stages_text += fmt::format("{}{}.{}", stages_text.empty() ? "" : ", ", stage->stage_id, stage->attempt_id);
  }
  f.title = fmt::format("SQL {}: {} spent {} of task time in Python workers ({})", sql.execution_id,
                        function_list(functions), duration_text(time.outside_ms), kind.what);
  const std::string measured_words = describe_python_time(context, time);
  f.explanation = fmt::format(
      "{} ran {} ({}) in Python worker processes, outside the JVM, in stage(s) {}. {} That is {} of those stages' "
      "run time of {}.",
      node_text(sql, node), function_list(functions), kind.what, stages_text, measured_words,
      units::format_percent(time.outside_ms / time.run_ms), duration_text(time.run_ms));
  if (builtin) {
    f.recommendation = fmt::format(
        "Use Spark's builtin {0}() (pyspark.sql.functions.{0}, e.g. F.{0}(col)) instead of the Python function {1}: "
        "it runs inside the JVM, in generated code, with no rows sent to Python.",
        *builtin, builtin_function);
    f.validation_caveat = fmt::format(
        "The builtin is inferred from the function's name ({}); check that {}() does what it does (nulls included).",
        builtin_function, *builtin);
  } else if (kind.row_at_a_time) {
    ArrowAdvice advice = arrow_advice(context, sql, udtf);
    f.recommendation = fmt::format(
        "If pyspark.sql.functions has an expression that does what {} does, use it: it runs in the JVM. Otherwise: {}",
        function_list(functions), advice.text);
    if (advice.setting) f.settings.push_back(std::move(*advice.setting));
    f.validation_caveat =
        time.split ? "The figure is the time rows spent moving to and from Python, which Arrow batches cut; the "
                     "function's own time stays."
                   : fmt::format(
                         "The log does not split the Python time, so the saving of Arrow batches is modeled "
                         "at pythonUdf.arrowSavingShare ({}) of it.",
                         units::format_percent(t.python_udf_arrow_saving_share));
  } else {
    f.recommendation = fmt::format(
        "{} already exchanges Arrow batches with its workers. If pyspark.sql.functions has an expression that does "
        "what {} does, use it: it runs in the JVM with no worker at all; otherwise the time is the function's own "
        "and falls only with faster Python code.",
        node.node_name, function_list(functions));
  }
  f.validation_caveat += std::string(f.validation_caveat.empty() ? "" : " ") +
                         (time.measured ? "The workers' time overlaps the JVM computing their input (a separate "
                                          "thread feeds them rows), so where that work is heavy the saving is smaller."
                                        : "The time outside the JVM is estimated from the stages' off-CPU time, not "
                                          "measured on the node.");
  f.evidence = {{"pythonTimeMs", time.outside_ms, "ms"},
                {"stageRunTimeMs", time.run_ms, "ms"},
                {"pythonShareOfRunTime", time.outside_ms / time.run_ms, "fraction"}};
  // A vectorized UDF with no builtin to name has no fix to price.
  if (builtin || kind.row_at_a_time) f.evidence.push_back({"recoverableTaskMs", recoverable_ms, "ms"});
  if (time.split) {
    f.evidence.push_back({"workerStartMs", time.start_ms, "ms"});
    f.evidence.push_back({"workerInitMs", time.init_ms, "ms"});
    f.evidence.push_back({"pythonFunctionMs", time.function_ms, "ms"});
  }
  if (auto sent = metric_as_ran(context.model(), sql, node, {"data sent to Python workers"})) {
    f.evidence.push_back({"bytesSentToPython", static_cast<double>(*sent), "bytes"});
  }
  if (auto returned = metric_as_ran(context.model(), sql, node, {"data returned from Python workers"})) {
    f.evidence.push_back({"bytesReturnedFromPython", static_cast<double>(*returned), "bytes"});
  }
  f.thresholds = {"pythonUdf.minOutsideShare", "pythonUdf.minOutsideMs"};
  if (method == EstimateMethod::kModeled) f.thresholds.push_back("pythonUdf.arrowSavingShare");
  f.confidence = context.confidence_above(time.outside_ms / time.run_ms, t.python_udf_min_outside_share);
  if (builtin || !time.measured) f.confidence = std::min(f.confidence, Confidence::kMedium);
  if (!builtin && !kind.row_at_a_time) {
    // No change to name, so no figure to recover: the finding says where the time went, banded
    // by that time's share of the application as the wall-clock of its stages.
    f.claim.kind = WasteClaim::Kind::kInformational;
    double wall_ms = 0;
    for (const RemovedWork& w : removed) wall_ms += removed_wall_ms(context, w);
    const double share = context.app_duration_ms() > 0 ? wall_ms / context.app_duration_ms() : 0.0;
    f.band = share >= t.band_critical_share ? ImpactBand::kCritical
             : share >= t.band_high_share   ? ImpactBand::kHigh
             : share >= t.band_medium_share ? ImpactBand::kMedium
                                            : ImpactBand::kLow;
  } else {
    f.claim = removed_work_claim(context, removed, method);
  }
  findings.push_back(std::move(f));
}

}  // namespace

void detect_python_udfs(const DetectorContext& context, std::vector<Finding>& findings) {
  std::set<int64_t> reported;  // a node listed again (a cached plan read by several executions)
  for (const SqlExecution& sql : context.model().sql) {
    const std::vector<bool> below_reuse = nodes_below_reuse(sql.plan);
    std::vector<const PlanNode*> nodes;
    for (const PlanNode& node : sql.plan.nodes) {
      if (python_node_kind(node) != nullptr && !below_reuse[static_cast<size_t>(node.node_id)]) nodes.push_back(&node);
    }
    SharingNodes sharing;
    for (const PlanNode* node : nodes) {
      if (!metric_as_ran(context.model(), sql, *node, {"time to run Python workers"})) {
        for (int64_t id : pipeline_stage_ids(sql.plan, node->node_id)) ++sharing[id];
      }
    }
    for (const PlanNode* node : nodes) {
      if (!node->metrics.empty() && !reported.insert(node->metrics.front().accumulator_id).second) continue;
      report_python_node(context, sql, *node, *python_node_kind(*node), sharing, findings);
    }
  }
}

}  // namespace sf::analysis

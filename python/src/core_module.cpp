// sparkforensics._core: the library's front end for Python, as thin as the command line's.
//
// Every call reads logs and stores through the same library calls as `sparkforensics analyze`,
// `compare`, `store ingest` and `verdict history`, and returns the same JSON text those commands
// print; the Python layer (sparkforensics/__init__.py) parses it. The GIL is released while
// the library works, so threads of a notebook or of a Spark Python worker can analyze side by
// side. A failed Status becomes sparkforensics.Error carrying the library's message (the file,
// the line, what was wrong) and the status code's name.
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "common/units.h"
#include "report/comparison_json.h"
#include "report/economics_text.h"
#include "report/model_json.h"
#include "report/verdict_json.h"
#include "results/fleet_rankings.h"
#include "results/result_json.h"
#include "results/spark_result.h"
#include "results/store.h"
#include "service/log_analysis.h"
#include "service/verdicts.h"

namespace nb = nanobind;
using namespace sf;

namespace {

// Thrown with the GIL released; nanobind turns it into sparkforensics.Error once it holds the
// GIL again (the translator registered below).
struct LibraryError : std::runtime_error {
  LibraryError(StatusCode status_code, const std::string& message) : std::runtime_error(message), code(status_code) {}
  StatusCode code;
};

[[noreturn]] void raise(const Status& status) { throw LibraryError(status.code(), status.message()); }

template <class T>
T take(Result<T> result) {
  if (!result) raise(result.error());
  return std::move(*result);
}

using service::ReadSettings;

// The --config document from a file (config_path) or from text (config_text, messages naming
// "config"); neither: the defaults. `threads` as --threads (0: the loader's default).
ReadSettings read_settings(const std::string& config_path, const std::optional<std::string>& config_text,
                           unsigned threads) {
  service::ReadFlags flags;
  flags.threads = threads;
  const auto document =
      config_text ? service::ConfigDocument::of_text(*config_text) : service::ConfigDocument::file(config_path);
  return take(service::read_settings(document, flags));
}

// The --config document checked as reading a log checks it, without a log: the fleet's driver
// checks it once before its executors read thousands of logs with it.
void check_config(const std::string& config_path, const std::optional<std::string>& config_text) {
  read_settings(config_path, config_text, 0);
}

// `shown_as`, when not empty, is the path the document names as its source: a log handed over
// as bytes is read from a private copy whose path means nothing to the caller.
model::AppModel load(const std::string& path, const std::string& shown_as, const ReadSettings& settings) {
  model::AppModel model = take(service::load_log(path, settings));
  if (!shown_as.empty()) model.source.path = shown_as;
  return model;
}

std::string analyze_json(const std::string& path, const std::string& shown_as, const std::string& config_path,
                         const std::optional<std::string>& config_text, unsigned threads) {
  nb::gil_scoped_release release;
  const ReadSettings settings = read_settings(config_path, config_text, threads);
  const model::AppModel model = load(path, shown_as, settings);
  const analysis::Analysis analysis = service::analyze(model, settings);
  return report::analysis_json(model, &analysis);
}

std::string compare_json(const std::string& base_path, const std::string& cand_path,
                         const std::vector<std::string>& normalize_paths, const std::string& config_path,
                         const std::optional<std::string>& config_text, unsigned threads) {
  nb::gil_scoped_release release;
  const ReadSettings settings = read_settings(config_path, config_text, threads);
  service::ComparisonRequest request;
  request.normalize_patterns = normalize_paths;
  const service::ComparisonPlan plan = take(service::plan_comparison(request, settings.analysis));
  const model::AppModel base = load(base_path, "", settings);
  const model::AppModel cand = load(cand_path, "", settings);
  return report::comparison_json(take(service::compare_models(base, cand, plan)));
}

// What `store ingest` takes from its flags, as keyword arguments.
using IngestContext = results::IngestDescription;

results::SparkResultContext to_context(const IngestContext& in) { return take(results::context_of(in, "status")); }

// A loaded log's result document as JSON, and why its status is not ok ("" when it is), as
// `store ingest --config` makes them: the context the caller gave (checked by to_context before
// the log was read), its origin naming `origin_path`.
std::pair<std::string, std::string> result_of(const model::AppModel& model, const analysis::Analysis& analysis,
                                              const results::SparkResultContext& c, const ReadSettings& settings,
                                              const std::string& origin_path) {
  auto [document, reason] =
      results::result_of_log(model, analysis, c, settings.analysis.rate_card, origin_path, "the status given");
  return {results::result_to_json(document), std::move(reason)};
}

// The result document `store ingest LOG` would store, as JSON (`origin_path`: the path its
// origin names, as `store ingest` names the path it was given), and the reason its status is not
// ok ("" when it is).
std::pair<std::string, std::string> result_json(const std::string& path, const std::string& origin_path,
                                                const IngestContext& context, const std::string& config_path,
                                                const std::optional<std::string>& config_text, unsigned threads) {
  nb::gil_scoped_release release;
  const results::SparkResultContext c = to_context(context);
  const ReadSettings settings = read_settings(config_path, config_text, threads);
  const model::AppModel model = load(path, "", settings);
  const analysis::Analysis analysis = service::analyze(model, settings);  // its "analysis:" quantities
  return result_of(model, analysis, c, settings, origin_path.empty() ? path : origin_path);
}

// One load for both documents the fleet job keeps of a log: (analysis JSON, result document JSON,
// why the result's status is not ok). `shown_as` as in analyze_json, and the path the result's
// origin names, as result_json's origin_path.
std::tuple<std::string, std::string, std::string> analysis_and_result_json(
    const std::string& path, const std::string& shown_as, const IngestContext& context, const std::string& config_path,
    const std::optional<std::string>& config_text, unsigned threads) {
  nb::gil_scoped_release release;
  const results::SparkResultContext c = to_context(context);
  const ReadSettings settings = read_settings(config_path, config_text, threads);
  const model::AppModel model = load(path, shown_as, settings);
  const analysis::Analysis analysis = service::analyze(model, settings);
  auto [result, reason] = result_of(model, analysis, c, settings, shown_as.empty() ? path : shown_as);
  return {report::analysis_json(model, &analysis), std::move(result), std::move(reason)};
}

// Stores result documents, each (JSON text, the source its messages name), through one open
// store: (id, order, already present) for each, in order. One open per batch, not per document:
// the fleet's driver stores thousands of results in a run, and opening (connecting to PostgreSQL,
// checking the schema) cost more than ingesting.
std::vector<std::tuple<std::string, int64_t, bool>> store_ingest_json(
    const std::string& location, const std::vector<std::pair<std::string, std::string>>& documents) {
  nb::gil_scoped_release release;
  std::vector<results::ResultDocument> parsed;
  parsed.reserve(documents.size());
  for (const auto& [json, source] : documents) parsed.push_back(take(results::parse_result_json(json, source)));
  auto store = take(results::open_store(location));
  std::vector<std::tuple<std::string, int64_t, bool>> outcomes;
  outcomes.reserve(parsed.size());
  for (const results::ResultDocument& document : parsed) {
    const results::IngestOutcome outcome = take(store->ingest(document));
    outcomes.emplace_back(outcome.id, outcome.order, outcome.already_present);
  }
  return outcomes;
}

// Every stored result as (order, id, document JSON), in native order.
std::vector<std::tuple<int64_t, std::string, std::string>> store_results(const std::string& location) {
  nb::gil_scoped_release release;
  std::vector<std::tuple<int64_t, std::string, std::string>> out;
  for (const results::StoredResult& r : take(service::read_store(location)).results)
    out.emplace_back(r.order, r.id, results::result_to_json(r.document));
  return out;
}

// `verdict history --format json`: the verdict document of the targets `target` names.
std::string verdict_history_json(const std::string& location, const std::string& target, const std::string& subject,
                                 const std::vector<std::string>& quantities,
                                 const std::optional<std::string>& method_config_json) {
  nb::gil_scoped_release release;
  service::MethodChoice choice;
  choice.config_text = method_config_json;
  choice.config_source = "method_config";
  const results::MethodConfig method = take(service::method_config(service::VerdictMode::kTrend, choice));
  auto store = take(service::open_store_to_ask(location));  // it answers in SQL: no reading every result
  auto document = take(service::verdict_trend(*store, method, {target, subject, quantities}));
  return report::verdict_json(document);
}

// The fleet report's rankings by the dashboard's fleet page's rule (results/fleet_rankings.h).
// Rows: (subject, application id, recoverable high ms or None, cost or None, currency); types:
// (type, applications, findings). The answer holds indices into them: (the recoverable ranking,
// [(currency, rows priced in it, its ranking)], the finding types' ranking).
using FleetRowTuple = std::tuple<std::string, std::string, std::optional<double>, std::optional<double>, std::string>;
using FindingTypeTuple = std::tuple<std::string, int64_t, double>;
using CurrencyRankingTuple = std::tuple<std::string, size_t, std::vector<size_t>>;
std::tuple<std::vector<size_t>, std::vector<CurrencyRankingTuple>, std::vector<size_t>> fleet_rankings(
    const std::vector<FleetRowTuple>& rows, const std::vector<FindingTypeTuple>& types, size_t limit) {
  std::vector<results::FleetRow> fleet_rows;
  fleet_rows.reserve(rows.size());
  for (const auto& [subject, app_id, recoverable_high_ms, cost, currency] : rows)
    fleet_rows.push_back({subject, app_id, recoverable_high_ms, cost, currency});
  std::vector<results::FindingTypeCount> type_counts;
  type_counts.reserve(types.size());
  for (const auto& [type, applications, findings] : types) type_counts.push_back({type, applications, findings});
  nb::gil_scoped_release release;
  results::FleetRankings ranked = results::rank_fleet(fleet_rows, type_counts, limit);
  std::vector<CurrencyRankingTuple> costs;
  for (results::CurrencyRanking& c : ranked.costs) costs.emplace_back(c.currency, c.applications, std::move(c.top));
  return {std::move(ranked.recoverable), std::move(costs), std::move(ranked.finding_types)};
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "The SparkForensics library (C++), for the sparkforensics package; use that package's functions.";
  static nb::exception<LibraryError> error(m, "Error");
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const LibraryError& e) {
      // str(error) is the library's message; error.code the status code's name ("not found", ...).
      nb::object instance = nb::borrow(error.ptr())(nb::str(e.what()));
      const std::string_view code = to_string(e.code);
      instance.attr("code") = nb::str(code.data(), code.size());
      PyErr_SetObject(error.ptr(), instance.ptr());
    }
  });

  nb::class_<IngestContext>(m, "IngestContext")
      .def(nb::init<>())
      .def_rw("subject", &IngestContext::subject)
      .def_rw("revision", &IngestContext::revision)
      .def_rw("parents", &IngestContext::parents)
      .def_rw("benchmark_tree", &IngestContext::benchmark_tree)
      .def_rw("dirty", &IngestContext::dirty)
      .def_rw("variant", &IngestContext::variant)
      .def_rw("params", &IngestContext::parameters)
      .def_rw("env", &IngestContext::environment)
      .def_rw("run_key", &IngestContext::run_key)
      .def_rw("round", &IngestContext::round)
      .def_rw("slot", &IngestContext::slot)
      .def_rw("status", &IngestContext::status);

  m.def("analyze_json", &analyze_json, nb::arg("path"), nb::arg("shown_as"), nb::arg("config_path"),
        nb::arg("config_text").none(), nb::arg("threads"));
  m.def("compare_json", &compare_json, nb::arg("base_path"), nb::arg("cand_path"), nb::arg("normalize_paths"),
        nb::arg("config_path"), nb::arg("config_text").none(), nb::arg("threads"));
  m.def("result_json", &result_json, nb::arg("path"), nb::arg("origin_path"), nb::arg("context"),
        nb::arg("config_path"), nb::arg("config_text").none(), nb::arg("threads"));
  m.def("analysis_and_result_json", &analysis_and_result_json, nb::arg("path"), nb::arg("shown_as"), nb::arg("context"),
        nb::arg("config_path"), nb::arg("config_text").none(), nb::arg("threads"));
  m.def("check_config", &check_config, nb::arg("config_path"), nb::arg("config_text").none());
  m.def("store_ingest_json", &store_ingest_json, nb::arg("location"), nb::arg("documents"));
  m.def("store_results", &store_results, nb::arg("location"));
  // Money as the text and Markdown reports write it ("0.1929 USD", "12.50 EUR"): the fleet report's one rule.
  m.def("format_money", &report::format_money, nb::arg("amount"), nb::arg("currency"));
  // A duration as every report writes it ("1h 02m", "3m 05s", "12.3s", "450 ms").
  m.def("format_duration_ms", &units::format_duration_ms, nb::arg("ms"));
  m.def("verdict_history_json", &verdict_history_json, nb::arg("location"), nb::arg("target"), nb::arg("subject"),
        nb::arg("quantities"), nb::arg("method_config_json").none());
  m.def("fleet_rankings", &fleet_rankings, nb::arg("rows"), nb::arg("types"), nb::arg("limit"));
}

#include "server/dashboard/dashboard_api.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "common/json_writer.h"
#include "compare/run_comparison.h"
#include "fetch/history_server_request.h"
#include "report/comparison_json.h"
#include "report/connect_json.h"
#include "report/findings_json.h"
#include "report/model_json.h"
#include "report/plan_diff_json.h"
#include "report/streaming_json.h"
#include "report/timeline_json.h"
#include "report/verdict_json.h"
#include "results/comparison_method.h"
#include "results/revision_graph.h"
#include "results/run_evaluation.h"
#include "results/spark_result.h"
#include "results/trend_comparison.h"
#include "server/dashboard/stage_task_page.h"
#include "server/dashboard/static_files.h"
#include "service/fleet_summary.h"
#include "service/log_analysis.h"
#include "service/verdicts.h"

namespace sf::server {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::string_view kApiPrefix = "/api/sf/v1/";

// A request the API answers with an error: HTTP status, stable code, message.
struct ApiError {
  int status;
  std::string code;
  std::string message;
};

// What a step of a request gives: its value, or the error the request is answered with.
template <class T>
using ApiResult = tl::expected<T, ApiError>;

tl::unexpected<ApiError> refuse(int status, std::string code, std::string message) {
  return tl::unexpected<ApiError>(ApiError{status, std::move(code), std::move(message)});
}

tl::unexpected<ApiError> bad_parameter(std::string message) { return refuse(400, "bad-parameter", std::move(message)); }

RestResponse error_response(const ApiError& error) {
  RestResponse out;
  out.status = error.status;
  out.body = json{{"error", {{"code", error.code}, {"message", error.message}}}}.dump();
  out.headers.emplace_back("Cache-Control", "no-store");
  return out;
}

// A document already written as JSON text.
RestResponse text_json_response(std::string body) {
  RestResponse out;
  out.status = 200;
  out.body = std::move(body);
  out.headers.emplace_back("Cache-Control", "no-store");
  return out;
}

template <class Json>
RestResponse json_response(const Json& body, int status = 200) {
  RestResponse out;
  out.status = status;
  out.body = body.dump();
  out.headers.emplace_back("Cache-Control", "no-store");
  return out;
}

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    out.emplace_back(path.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string text_param(const QueryParams& query, const std::string& name) {
  auto it = query.find(name);
  return it == query.end() || it->second.empty() ? std::string() : it->second.front();
}

std::vector<std::string> text_params(const QueryParams& query, const std::string& name) {
  auto it = query.find(name);
  return it == query.end() ? std::vector<std::string>() : it->second;
}

ApiResult<std::optional<double>> number_param(const QueryParams& query, const std::string& name) {
  const std::string text = text_param(query, name);
  if (text.empty()) return std::optional<double>();
  // As strtod reads one, a leading '+' included.
  const std::string_view digits = std::string_view(text).substr(text[0] == '+' ? 1 : 0);
  double value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (!digits.empty() && ec == std::errc() && end == digits.data() + digits.size() && std::isfinite(value)) {
    return std::optional<double>(value);
  }
  return bad_parameter("\"" + name + "\" must be a number");
}

ApiResult<int64_t> int_param(const QueryParams& query, const std::string& name, int64_t fallback, int64_t min_value,
                             int64_t max_value) {
  const std::string text = text_param(query, name);
  if (text.empty()) return fallback;
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < min_value || n > max_value) {
    return bad_parameter("\"" + name + "\" must be an integer from " + std::to_string(min_value) + " to " +
                         std::to_string(max_value));
  }
  return n;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

json optional_json(const std::optional<int64_t>& value) { return value ? json(*value) : json(nullptr); }

json parse_json(const ParseSnapshot& p) {
  json out;
  out["id"] = p.id;
  out["log"] = p.log.empty() ? json(nullptr) : json(p.log);
  out["state"] = to_string(p.state);
  out["bytesDone"] = p.bytes_done;
  out["bytesTotal"] = p.bytes_total;
  out["lines"] = p.lines;
  out["elapsedMs"] = p.elapsed_ms;
  out["etaMs"] = optional_json(p.eta_ms);
  out["error"] = p.error_code.empty() ? json(nullptr) : json{{"code", p.error_code}, {"message", p.error_message}};
  return out;
}

// A log's figures for the application list, from its analysis.
json analysis_summary(const catalog::LoadedLog& log) {
  const analysis::Analysis& a = log.analysis();
  json bands = json::object();
  for (const analysis::Finding& f : a.findings) {
    const std::string band(analysis::to_string(f.band));
    bands[band] = bands.value(band, 0) + 1;
  }
  json top = nullptr;
  json top_type = nullptr;
  if (const analysis::RollupGroup* g = analysis::leading_fix_first_group(a.rollup)) {
    top = {{"low", g->recoverable_low_ms}, {"high", g->recoverable_high_ms}};
    top_type = g->type;
  }
  return {{"findings", a.findings.size()}, {"bandCounts", bands}, {"topRecoverableMs", top}, {"topType", top_type}};
}

std::string file_name(const std::string& path) { return fs::path(path).filename().string(); }

// Why a request that changes something is refused as another site's, or nullopt.
std::optional<ApiError> cross_site(const QueryParams& headers) {
  const std::string marker = text_param(headers, "X-SparkForensics");
  const std::string site = text_param(headers, "Sec-Fetch-Site");
  if (marker == "1" && (site.empty() || site == "same-origin" || site == "none")) return std::nullopt;
  return ApiError{403, "cross-site-request",
                  "a POST must come from the dashboard's own page (with the header X-SparkForensics: 1)"};
}

}  // namespace

// One API request: the path's segments after /api/sf/v1/, answered with a document or an ApiError.
class DashboardApi::Request {
 public:
  Request(DashboardApi& api, const std::string& method, std::vector<std::string> segments, const QueryParams& query)
      : api_(api), method_(method), seg_(std::move(segments)), query_(query) {}

  ApiResult<RestResponse> answer() {
    if (seg_.size() == 1 && seg_[0] == "applications") return get(&Request::applications);
    if (seg_.size() == 1 && seg_[0] == "limits") return get(&Request::limits);
    if (seg_.size() == 1 && seg_[0] == "parses") return post(&Request::start_parse);
    if (seg_.size() == 2 && seg_[0] == "parses") return get(&Request::parse_status);
    if (seg_.size() == 1 && seg_[0] == "history-server") return post(&Request::history_server);
    if (seg_.size() == 1 && seg_[0] == "uploads") {
      // A body is taken by accept_body; a POST that reaches here had none.
      if (method_ != "POST") return refuse(405, "method-not-allowed", "uploads take POST with the file as the body");
      return refuse(400, "empty-upload", "the upload has no body: the file is empty");
    }
    if (seg_.size() == 1 && seg_[0] == "compare") return get(&Request::comparison);
    if (seg_.size() == 2 && seg_[0] == "compare" && seg_[1] == "plan") return get(&Request::plan_diff);
    if (seg_.size() == 1 && seg_[0] == "fleet") return get(&Request::fleet);
    if (seg_.size() == 2 && seg_[0] == "history") {
      if (seg_[1] == "subjects") return get(&Request::history_subjects);
      if (seg_[1] == "series") return get(&Request::history_series);
      if (seg_[1] == "run") return get(&Request::history_run);
      if (seg_[1] == "batch") return get(&Request::history_batch);
    }
    if (seg_.size() >= 3 && seg_[0] == "logs") {
      if (seg_[2] == "analysis" && seg_.size() == 3) return get(&Request::analysis);
      if (seg_[2] == "timeline" && seg_.size() == 3) return get(&Request::timeline);
      if (seg_[2] == "streaming" && seg_.size() == 3) return get(&Request::streaming_runs);
      if (seg_[2] == "streaming" && seg_.size() == 4) return get(&Request::streaming_run);
      if (seg_[2] == "connect" && seg_.size() == 3) return get(&Request::connect_operations);
      if (seg_[2] == "connect" && seg_.size() == 4) return get(&Request::connect_operation);
      if (seg_[2] == "stages" && seg_.size() == 5) return get(&Request::stage);
      if (seg_[2] == "stages" && seg_.size() == 6 && seg_[5] == "tasks") return get(&Request::stage_tasks);
    }
    return refuse(404, "not-found", "no such API resource");
  }

 private:
  using Handler = ApiResult<RestResponse> (Request::*)();
  ApiResult<RestResponse> get(Handler handler) {
    if (method_ != "GET" && method_ != "HEAD") return refuse(405, "method-not-allowed", "this resource takes GET");
    return (this->*handler)();
  }
  ApiResult<RestResponse> post(Handler handler) {
    if (method_ != "POST") return refuse(405, "method-not-allowed", "this resource takes POST");
    return (this->*handler)();
  }

  // applications?offset&limit&q: the uploads and downloads read as event logs first, newest
  // first (what the user just brought in stays on the first page, whatever its start time), then
  // the --log-dir's in the History Server's order. q matches an id, name, user, log or file name.
  ApiResult<RestResponse> applications() {
    const auto offset = int_param(query_, "offset", 0, 0, int64_t{1} << 40);
    if (!offset) return tl::unexpected(offset.error());
    const auto limit = int_param(query_, "limit", 50, 1, 500);
    if (!limit) return tl::unexpected(limit.error());
    const std::string needle = lower(text_param(query_, "q"));
    struct Row {
      const catalog::AttemptListing* listing;
      std::string log;
      std::string_view source;  // log-dir, upload, download
    };
    std::vector<Row> rows;
    auto add = [&](const catalog::AttemptListing& a, std::string log, std::string_view source) {
      if (!needle.empty()) {
        const std::string haystack =
            lower(a.app_id + "\n" + a.app_name + "\n" + a.user + "\n" + log + "\n" + file_name(a.log_path));
        if (haystack.find(needle) == std::string::npos) return;
      }
      rows.push_back({&a, std::move(log), source});
    };
    const std::vector<UploadStore::Listed> own = api_.uploads_->listed();
    for (const UploadStore::Listed& u : own) add(u.listing, "~" + u.id, u.download ? "download" : "upload");
    const std::vector<catalog::ApplicationListing> apps = api_.logs_.applications();
    for (const catalog::ApplicationListing& app : apps) {
      for (const catalog::AttemptListing& a : app.attempts) add(a, file_name(a.log_path), "log-dir");
    }
    json out_rows = json::array();
    for (int64_t i = *offset; i < static_cast<int64_t>(rows.size()) && i < *offset + *limit; ++i) {
      const Row& r = rows[static_cast<size_t>(i)];
      const catalog::AttemptListing& a = *r.listing;
      json row;
      row["log"] = r.log;
      row["source"] = std::string(r.source);
      row["fileName"] = file_name(a.log_path);
      row["appId"] = a.app_id;
      row["attemptId"] = a.attempt_id ? json(*a.attempt_id) : json(nullptr);
      row["name"] = a.app_name;
      row["user"] = a.user;
      row["startTimeMs"] = optional_json(a.start_time_ms);
      row["endTimeMs"] = optional_json(a.end_time_ms);
      row["durationMs"] = optional_json(a.duration_ms());
      row["completed"] = a.completed;
      row["storedBytes"] = a.stored_bytes;
      const auto loaded = r.source == "log-dir" ? api_.logs_.loaded_if_current(a.log_path)
                                                : api_.logs_.own_file_loaded_if_current(a.log_path);
      row["analysis"] = loaded ? analysis_summary(*loaded) : json(nullptr);
      out_rows.push_back(std::move(row));
    }
    return json_response(
        json{{"total", rows.size()}, {"offset", *offset}, {"limit", *limit}, {"applications", out_rows}});
  }

  // What the page checks before it sends anything: an upload's size limit.
  ApiResult<RestResponse> limits() {
    const UploadLimits& u = api_.uploads_->limits();
    return json_response(json{{"maxUploadBytes", u.max_upload_bytes}, {"maxFolderFiles", u.max_files}});
  }

  // Where the dashboard's log name points: a listed log of --log-dir, an upload or a download.
  struct LogRef {
    std::string path;
    bool own_file = false;
  };
  ApiResult<LogRef> resolve_log(const std::string& log) const {
    if (log.size() > 2 && log[0] == '~') {
      auto path = api_.uploads_->path(log.substr(1));
      if (!path) return refuse(404, "not-found", "no such log: " + log + " (uploads are kept while the server runs)");
      return LogRef{path->string(), true};
    }
    for (const catalog::ApplicationListing& app : api_.logs_.applications()) {
      for (const catalog::AttemptListing& a : app.attempts) {
        if (file_name(a.log_path) == log) return LogRef{a.log_path, false};
      }
    }
    return refuse(404, "not-found", "no such log in the log directory: " + log);
  }

  using Loaded = std::shared_ptr<const catalog::LoadedLog>;
  ApiResult<Loaded> load(const std::string& log) const {
    const auto ref = resolve_log(log);
    if (!ref) return tl::unexpected(ref.error());
    return load(*ref);
  }
  ApiResult<Loaded> load(const LogRef& ref) const {
    auto loaded = ref.own_file ? api_.logs_.load_own_file(ref.path) : api_.logs_.load(ref.path);
    if (!loaded) {
      const Status& e = loaded.error();
      return refuse(e.code() == StatusCode::kNotFound || e.code() == StatusCode::kOutsideRoot ? 404 : 422,
                    error_code_of(e), api_.uploads_->without_directory(e.message()));
    }
    return std::move(*loaded);
  }

  ApiResult<RestResponse> start_parse() {
    const std::string log = text_param(query_, "log");
    if (log.empty()) return bad_parameter("name the log: parses?log=<log>");
    const auto ref = resolve_log(log);
    if (!ref) return tl::unexpected(ref.error());
    ParseJobs::Source source;
    source.log = log;
    source.path = ref->path;
    source.own_file = ref->own_file;
    const UploadStore* uploads = api_.uploads_.get();
    source.message_filter = [uploads](std::string message) { return uploads->without_directory(std::move(message)); };
    auto started = api_.parses_.start(std::move(source));
    if (!started) return refuse(503, "busy", "every reader is taken and the queue is full; try again shortly");
    return json_response(parse_json(*started), 202);
  }

  ApiResult<RestResponse> parse_status() {
    auto found = api_.parses_.find(seg_[1]);
    if (!found) return refuse(404, "not-found", "no such parse: " + seg_[1]);
    return json_response(parse_json(*found));
  }

  ApiResult<RestResponse> history_server() {
    auto request = fetch::validate_history_server_request(text_param(query_, "baseUrl"), text_param(query_, "appId"),
                                                          text_param(query_, "attemptId"));
    if (!request) {
      const auto code = fetch::history_server_error_of(request.error());
      return refuse(400, code ? std::string(fetch::to_string(*code)) : "invalid-base-url", request.error().message());
    }
    auto download = api_.uploads_->reserve_download(request->app_id);
    if (!download) return refuse(500, "write-failed", "the download could not be saved locally");
    auto started = api_.parses_.start_fetch(*request, download->file, "~" + download->id, api_.options_.fetch);
    if (!started) return refuse(503, "busy", "every reader is taken and the queue is full; try again shortly");
    return json_response(parse_json(*started), 202);
  }

  ApiResult<RestResponse> analysis() {
    return load(seg_[1]).map([](const Loaded& log) { return text_json_response(log->analysis_text()); });
  }

  ApiResult<RestResponse> timeline() {
    return load(seg_[1]).map([](const Loaded& log) { return text_json_response(report::timeline_json(log->model())); });
  }

  // --- Structured Streaming: Spark UI's Structured Streaming tab as JSON (the History Server has
  // no REST endpoint for it). The figures are the model's and the analysis's summaries
  // (report/streaming_json.h), as in the analysis document.

  // logs/L/streaming: every query run, as the tab's list, each with its summary.
  ApiResult<RestResponse> streaming_runs() {
    const auto log = load(seg_[1]);
    if (!log) return tl::unexpected(log.error());
    const model::AppModel& model = (*log)->model();
    const analysis::Analysis& analysis = (*log)->analysis();
    std::string body;
    JsonWriter w(body);
    w.object([&] {
      w.array_field("runs", [&] {
        for (const analysis::StreamingQuerySummary& s : analysis.streaming) {
          const model::StreamingQuery& q = model.streaming_queries[s.query_index];
          const auto findings = report::streaming_run_findings(analysis, s);
          w.object([&] {
            w.key("run");
            report::write_streaming_run_row(w, q, s, findings.size());
            w.key("summary");
            report::write_streaming_summary(w, s, findings);
          });
        }
      });
    });
    return text_json_response(std::move(body));
  }

  // logs/L/streaming/R: the run R (its run id): its row, the query with its batches, its summary
  // and its findings.
  ApiResult<RestResponse> streaming_run() {
    const auto log = load(seg_[1]);
    if (!log) return tl::unexpected(log.error());
    const model::AppModel& model = (*log)->model();
    const analysis::Analysis& analysis = (*log)->analysis();
    const analysis::StreamingQuerySummary* found = report::find_streaming_run(analysis, seg_[3]);
    if (found == nullptr) return refuse(404, "not-found", "no streaming query run " + seg_[3] + " in this application");
    const model::StreamingQuery& q = model.streaming_queries[found->query_index];
    const auto findings = report::streaming_run_findings(analysis, *found);
    std::string body;
    JsonWriter w(body);
    w.object([&] {
      w.key("run");
      report::write_streaming_run_row(w, q, *found, findings.size());
      w.key("query");
      report::write_streaming_query(w, q);
      w.key("summary");
      report::write_streaming_summary(w, *found, findings);
      w.array_field("findings", [&] {
        for (const analysis::Finding* f : findings) report::write_finding(w, *f, analysis.thresholds);
      });
    });
    return text_json_response(std::move(body));
  }

  // --- Spark Connect: which client operation cost what (report/connect_json.h), as in the
  // analysis document.

  // logs/L/connect: the sessions, and every operation with what it cost, in the model's order.
  ApiResult<RestResponse> connect_operations() {
    const auto log = load(seg_[1]);
    if (!log) return tl::unexpected(log.error());
    const model::AppModel& model = (*log)->model();
    const analysis::Analysis& analysis = (*log)->analysis();
    std::string body;
    JsonWriter w(body);
    w.object([&] {
      w.key("sessions");
      report::write_connect_sessions(w, model.connect_sessions);
      w.array_field("operations", [&] {
        for (const analysis::ConnectOperationSummary& s : analysis.connect) {
          w.object([&] {
            w.key("operation");
            report::write_connect_operation(w, model.connect_operations[s.operation_index]);
            w.key("summary");
            report::write_connect_summary(w, s);
          });
        }
      });
    });
    return text_json_response(std::move(body));
  }

  // logs/L/connect/O: the operation O (its operation id), what it cost and its findings.
  ApiResult<RestResponse> connect_operation() {
    const auto log = load(seg_[1]);
    if (!log) return tl::unexpected(log.error());
    const model::AppModel& model = (*log)->model();
    const analysis::Analysis& analysis = (*log)->analysis();
    const analysis::ConnectOperationSummary* found = report::find_connect_operation(analysis, seg_[3]);
    if (found == nullptr)
      return refuse(404, "not-found", "no Spark Connect operation " + seg_[3] + " in this application");
    std::string body;
    JsonWriter w(body);
    w.object([&] {
      w.key("operation");
      report::write_connect_operation(w, model.connect_operations[found->operation_index]);
      w.key("summary");
      report::write_connect_summary(w, *found);
      w.array_field("findings", [&] {
        for (const analysis::Finding& f : analysis.findings) {
          if (std::find(found->finding_ids.begin(), found->finding_ids.end(), f.id) != found->finding_ids.end()) {
            report::write_finding(w, f, analysis.thresholds);
          }
        }
      });
    });
    return text_json_response(std::move(body));
  }

  // The stage attempt logs/L/stages/S/A names, in the loaded log.
  struct StageIn {
    int64_t stage_id = 0;
    int32_t attempt_id = 0;
    const model::StageAttempt* stage = nullptr;
  };
  ApiResult<StageIn> stage_of(const model::AppModel& model) const {
    const auto stage_id = parse_number(seg_[3], "stage");
    if (!stage_id) return tl::unexpected(stage_id.error());
    const auto attempt_id = parse_number(seg_[4], "stage attempt");
    if (!attempt_id) return tl::unexpected(attempt_id.error());
    const model::StageAttempt* stage = model.stage(*stage_id, static_cast<int32_t>(*attempt_id));
    if (stage == nullptr)
      return refuse(404, "not-found", "no stage " + seg_[3] + "." + seg_[4] + " in this application");
    return StageIn{*stage_id, static_cast<int32_t>(*attempt_id), stage};
  }

  // logs/L/stages/S/A/tasks?offset&length&sortBy&order&bins
  ApiResult<RestResponse> stage_tasks() {
    const auto ref = resolve_log(seg_[1]);
    if (!ref) return tl::unexpected(ref.error());
    const auto log = load(*ref);
    if (!log) return tl::unexpected(log.error());
    const auto stage = stage_of((*log)->model());
    if (!stage) return tl::unexpected(stage.error());
    TaskPageRequest request;
    const auto offset = int_param(query_, "offset", request.offset, 0, int64_t{1} << 40);
    if (!offset) return tl::unexpected(offset.error());
    const auto length = int_param(query_, "length", request.length, 1, kMaxTaskPageLength);
    if (!length) return tl::unexpected(length.error());
    const auto bins = int_param(query_, "bins", request.bins, 1, kMaxHistogramBins);
    if (!bins) return tl::unexpected(bins.error());
    request.offset = *offset;
    request.length = *length;
    request.bins = static_cast<int>(*bins);
    if (const std::string sort = text_param(query_, "sortBy"); !sort.empty()) request.sort_by = sort;
    const std::string order = text_param(query_, "order");
    if (!order.empty() && order != "asc" && order != "desc") return bad_parameter("\"order\" must be asc or desc");
    request.descending = order != "asc";
    // A log this server wrote (an upload, a download) lives outside --log-dir, as when it was read.
    const io::PathConfinement own_file;
    auto tasks = api_.task_tables_.get(**log, stage->stage_id, stage->attempt_id,
                                       ref->own_file ? own_file : api_.logs_.confinement());
    if (!tasks) {
      const Status& e = tasks.error();
      return refuse(e.code() == StatusCode::kLimitExceeded ? 413 : 422, error_code_of(e),
                    api_.uploads_->without_directory(e.message()));
    }
    auto page = stage_task_page_json(**tasks, request);
    if (!page) return bad_parameter(page.error().message());
    return text_json_response(std::move(*page));
  }

  // logs/L/stages/S/A: the stage attempt's entry of the analysis document, its findings, and
  // its attributed plan nodes with their names and metrics.
  ApiResult<RestResponse> stage() {
    const auto log = load(seg_[1]);
    if (!log) return tl::unexpected(log.error());
    const model::AppModel& model = (*log)->model();
    const auto stage = stage_of(model);
    if (!stage) return tl::unexpected(stage.error());
    const analysis::Analysis& analysis = (*log)->analysis();
    std::string body;
    JsonWriter w(body);
    w.object([&] {
      w.key("stage");
      report::write_stage(w, model, *stage->stage);
      w.array_field("findings", [&] {
        const analysis::StageRef ref{stage->stage_id, stage->attempt_id};
        for (const analysis::Finding& f : analysis.findings) {
          if (std::find(f.stages.begin(), f.stages.end(), ref) != f.stages.end()) {
            report::write_finding(w, f, analysis.thresholds);
          }
        }
      });
      w.array_field("planNodes", [&] { write_attributed_plan_nodes(w, model, stage->stage_id); });
    });
    return text_json_response(std::move(body));
  }

  // The plan nodes the model attributes to a stage, with their names and metrics.
  static void write_attributed_plan_nodes(JsonWriter& w, const model::AppModel& model, int64_t stage_id) {
    auto refs = model.stage_plan_nodes.find(stage_id);
    if (refs == model.stage_plan_nodes.end()) return;
    for (const auto& ref : refs->second) {
      for (const model::SqlExecution& x : model.sql) {
        if (x.execution_id != ref.execution_id) continue;
        const auto node_id = static_cast<size_t>(ref.node_id);
        if (node_id >= x.plan.nodes.size()) continue;
        const model::PlanNode& node = x.plan.nodes[node_id];
        w.object([&] {
          w.field("executionId", ref.execution_id);
          w.field("nodeId", node_id);
          w.field("nodeName", node.node_name);
          w.field("simpleString", node.simple_string);
          w.key("metrics");
          report::write_plan_metrics(w, node);
        });
      }
    }
  }

  // --- Comparison: the same library calls as `compare` (compare::compare_runs, the document
  // comparison_json writes), over two logs the dashboard knows.
  struct ComparisonInputs {
    Loaded base;
    Loaded cand;
    service::ComparisonPlan plan;
  };
  ApiResult<ComparisonInputs> comparison_inputs() const {
    const std::string base = text_param(query_, "base");
    const std::string cand = text_param(query_, "cand");
    if (base.empty() || cand.empty()) return bad_parameter("name both logs: compare?base=<log>&cand=<log>");
    service::ComparisonRequest request;
    request.normalize_patterns = text_params(query_, "normalize");
    request.pins = text_params(query_, "pin");
    auto plan = service::plan_comparison(request, api_.logs_.analysis_options());
    if (!plan) return bad_parameter(plan.error().message());
    auto base_log = load(base);
    if (!base_log) return tl::unexpected(base_log.error());
    auto cand_log = load(cand);
    if (!cand_log) return tl::unexpected(cand_log.error());
    return ComparisonInputs{std::move(*base_log), std::move(*cand_log), std::move(*plan)};
  }

  ApiResult<RestResponse> comparison() {
    const auto in = comparison_inputs();
    if (!in) return tl::unexpected(in.error());
    auto c = service::compare_models(in->base->model(), in->cand->model(), in->plan);
    if (!c) return refuse(400, "bad-pin", c.error().message());
    // The runs by the names the dashboard knows them by, not the server's paths.
    c->baseline.path = text_param(query_, "base");
    c->candidate.path = text_param(query_, "cand");
    return text_json_response(report::comparison_json(*c, -1));
  }

  ApiResult<RestResponse> plan_diff() {
    const auto in = comparison_inputs();
    if (!in) return tl::unexpected(in.error());
    const auto base_id = int_param(query_, "baseExecution", -1, 0, int64_t{1} << 62);
    if (!base_id) return tl::unexpected(base_id.error());
    const auto cand_id = int_param(query_, "candExecution", -1, 0, int64_t{1} << 62);
    if (!cand_id) return tl::unexpected(cand_id.error());
    if (*base_id < 0 || *cand_id < 0) {
      return bad_parameter("name both executions: baseExecution=<id>&candExecution=<id>");
    }
    const model::SqlExecution* b = in->base->model().sql_execution(*base_id);
    const model::SqlExecution* c = in->cand->model().sql_execution(*cand_id);
    if (b == nullptr) return refuse(404, "not-found", "the baseline has no SQL execution " + std::to_string(*base_id));
    if (c == nullptr) return refuse(404, "not-found", "the candidate has no SQL execution " + std::to_string(*cand_id));
    return text_json_response(report::plan_diff_json(*b, *c, in->plan.options.alignment.normalizer));
  }

  // --- History: the result store of serve --store, its results kept between requests
  // (results::StoreSnapshot), evaluated with the calls `verdict` makes (compare_trend,
  // evaluate_run, compare_batch), the answer verdict -f json's document.
  using StoreContents = results::StoreSnapshot::Contents;
  ApiResult<std::shared_ptr<const StoreContents>> read_store() const {
    if (api_.options_.store_location.empty()) {
      return refuse(404, "no-store", "serve was started without --store: there is no result store to show");
    }
    auto store = api_.store_.current();
    // No store where serve was told to look (its default, ./sparkforensics-results.db, included):
    // the pages say how to get one, rather than report a failure.
    if (!store && store.error().code() == StatusCode::kNotFound) {
      return refuse(404, "no-store", store.error().message() + "; or start serve with --store PATH|postgresql://...");
    }
    if (!store) return refuse(502, "store-error", store.error().message());
    return std::move(*store);
  }

  // verdict's method flags, as query parameters.
  ApiResult<results::MethodConfig> method_config(service::VerdictMode mode) const {
    service::MethodChoice choice;
    if (std::string m = text_param(query_, "method"); !m.empty()) choice.name = m;
    const auto k = number_param(query_, "k");
    if (!k) return tl::unexpected(k.error());
    const auto window = number_param(query_, "window");
    if (!window) return tl::unexpected(window.error());
    const auto min_points = number_param(query_, "minPoints");
    if (!min_points) return tl::unexpected(min_points.error());
    const auto min_effect = number_param(query_, "minEffect");
    if (!min_effect) return tl::unexpected(min_effect.error());
    const auto provisional_noise = number_param(query_, "provisionalNoise");
    if (!provisional_noise) return tl::unexpected(provisional_noise.error());
    choice.k = *k;
    if (*window) choice.window = static_cast<int64_t>(**window);
    if (*min_points) choice.min_points = static_cast<int64_t>(**min_points);
    choice.min_effect = *min_effect;
    choice.provisional_noise = *provisional_noise;
    if (std::string o = text_param(query_, "ordering"); !o.empty()) choice.ordering = o;
    if (std::string d = text_param(query_, "duplicates"); !d.empty()) choice.duplicates = d;
    auto config = service::method_config(mode, choice);
    if (!config) return bad_parameter(config.error().message());
    return *config;
  }

  // A question the store could not answer: 404 for what it does not hold, 400 otherwise.
  static tl::unexpected<ApiError> verdict_error(const Status& status) {
    if (status.code() == StatusCode::kNotFound) return refuse(404, "not-found", status.message());
    return bad_parameter(status.message());
  }

  // The log a result was read from, by the name the dashboard opens it with: the listed log
  // whose real path is the recorded source's, else the only listed log of that file name.
  class LogNames {
   public:
    explicit LogNames(const catalog::LogCatalog& logs) {
      for (const catalog::ApplicationListing& app : logs.applications()) {
        for (const catalog::AttemptListing& a : app.attempts) {
          std::error_code ec;
          const fs::path real = fs::weakly_canonical(a.log_path, ec);
          const std::string name = file_name(a.log_path);
          if (!ec) by_path_[real.string()] = name;
          ++by_name_[name];
        }
      }
    }
    json of(const results::StoredResult& r) const {
      const auto source = results::event_log_source(r.document.origin);
      if (!source) return nullptr;
      std::error_code ec;
      const fs::path real = fs::weakly_canonical(*source, ec);
      if (!ec) {
        if (auto it = by_path_.find(real.string()); it != by_path_.end()) return it->second;
      }
      const std::string name = fs::path(*source).filename().string();
      if (auto it = by_name_.find(name); it != by_name_.end() && it->second == 1) return name;
      return nullptr;
    }

   private:
    std::map<std::string, std::string> by_path_;
    std::map<std::string, int> by_name_;
  };

  static json result_json(const results::StoredResult& r, const LogNames& names) {
    const results::ResultDocument& d = r.document;
    return {{"id", r.id},
            {"order", r.order},
            {"subject", d.subject},
            {"revision", d.revision.tree},
            {"parents", d.revision.parents},
            {"runKey", d.procedure.run_key},
            {"round", optional_json(d.procedure.round)},
            {"slot", optional_json(d.procedure.slot)},
            {"status", results::to_string(d.status)},
            {"parameters", d.parameters},
            {"environment", d.environment},
            {"log", names.of(r)}};
  }

  RestResponse verdict_response(const StoreContents& store, const results::VerdictDocument& doc,
                                const std::vector<const results::StoredResult*>& shown) const {
    const LogNames names(api_.logs_);
    json results = json::array();
    for (const results::StoredResult* r : shown) results.push_back(result_json(*r, names));
    return json_response(
        json{{"store", store.description}, {"results", results}, {"document", json::parse(report::verdict_json(doc))}});
  }

  ApiResult<RestResponse> history_subjects() {
    const auto read = read_store();
    if (!read) return tl::unexpected(read.error());
    const auto& store = *read;
    struct Subject {
      size_t results = 0;
      std::set<std::string> revisions;
      std::set<std::string> run_keys;
      int64_t last_order = 0;
    };
    std::map<std::string, Subject> subjects;
    for (const results::StoredResult& r : store->results) {
      Subject& s = subjects[r.document.subject];
      ++s.results;
      if (!r.document.revision.tree.empty()) s.revisions.insert(r.document.revision.tree);
      if (!r.document.procedure.run_key.empty()) s.run_keys.insert(r.document.procedure.run_key);
      s.last_order = std::max(s.last_order, r.order);
    }
    json out = json::array();
    for (const auto& [name, s] : subjects) {
      out.push_back({{"subject", name},
                     {"results", s.results},
                     {"revisions", s.revisions.size()},
                     {"runKeys", s.run_keys},
                     {"lastOrder", s.last_order}});
    }
    return json_response(json{{"store", store->description}, {"subjects", out}});
  }

  // The subject's results in ancestry order (the chart's x axis).
  static ApiResult<std::vector<const results::StoredResult*>> subject_results(const StoreContents& store,
                                                                              const std::string& subject) {
    std::vector<const results::StoredResult*> of_subject;
    for (const results::StoredResult& r : store.results) {
      if (r.document.subject == subject) of_subject.push_back(&r);
    }
    if (of_subject.empty()) return refuse(404, "not-found", "no results of subject \"" + subject + "\" in the store");
    return results::RevisionGraph(store.results).ancestry_order(of_subject);
  }

  ApiResult<RestResponse> history_series() {
    const std::string subject = text_param(query_, "subject");
    if (subject.empty()) return bad_parameter("name the subject: history/series?subject=<subject>");
    const auto method = method_config(service::VerdictMode::kTrend);
    if (!method) return tl::unexpected(method.error());
    const auto read = read_store();
    if (!read) return tl::unexpected(read.error());
    const auto& store = *read;
    const auto of_subject = subject_results(*store, subject);
    if (!of_subject) return tl::unexpected(of_subject.error());
    const auto& ordered = *of_subject;
    const std::string quantity = text_param(query_, "quantity");
    std::vector<std::string> targets;
    std::vector<std::string> quantities;
    if (quantity.empty()) {
      // Every series of the subject, each judged at its latest point.
      auto latest = results::resolve_targets(store->results, "latest", subject);
      if (!latest) return refuse(404, "not-found", latest.error().message());
      targets = *latest;
    } else {
      for (const results::StoredResult* r : ordered) {
        if (r->document.quantity(quantity) != nullptr) targets.push_back(r->id);
      }
      if (targets.empty()) return refuse(404, "not-found", "no result of \"" + subject + "\" has " + quantity);
      quantities.push_back(quantity);
    }
    auto doc = service::verdict_trend_of(*store, *method, targets, quantities);
    if (!doc) return verdict_error(doc.error());
    if (const std::string fingerprint = text_param(query_, "fingerprint"); !fingerprint.empty()) {
      std::erase_if(doc->evaluations,
                    [&](const results::Evaluation& e) { return e.series_fingerprint != fingerprint; });
    }
    return verdict_response(*store, *doc, ordered);
  }

  ApiResult<RestResponse> history_run() {
    const auto method = method_config(service::VerdictMode::kRun);
    if (!method) return tl::unexpected(method.error());
    results::RunRequest request{text_param(query_, "runKey"), text_param(query_, "profile"),
                                text_param(query_, "coordinate"), text_param(query_, "baseline")};
    if (request.run_key.empty() || request.profile.empty() || request.baseline.empty()) {
      return bad_parameter("name the run: history/run?runKey=<key>&profile=<profile>&baseline=<value>");
    }
    const auto read = read_store();
    if (!read) return tl::unexpected(read.error());
    const auto& store = *read;
    auto doc = service::verdict_run(*store, *method, request);
    if (!doc) return verdict_error(doc.error());
    std::vector<const results::StoredResult*> shown;
    for (const results::StoredResult& r : store->results) {
      if (r.document.procedure.run_key == request.run_key) shown.push_back(&r);
    }
    return verdict_response(*store, *doc, shown);
  }

  ApiResult<RestResponse> history_batch() {
    const auto method = method_config(service::VerdictMode::kBatch);
    if (!method) return tl::unexpected(method.error());
    results::BatchRequest request;
    request.revision = text_param(query_, "revision");
    request.run_key = text_param(query_, "runKey");
    if (request.revision.empty() == request.run_key.empty()) {
      return bad_parameter("name one target: history/batch?revision=<tree> or ?runKey=<key>");
    }
    request.expected = text_params(query_, "expect");
    const auto read = read_store();
    if (!read) return tl::unexpected(read.error());
    const auto& store = *read;
    auto doc = service::verdict_batch(*store, *method, request);
    if (!doc) return verdict_error(doc.error());
    // The target's results and every reference point's, for the links to the compare page.
    std::set<std::string> ids;
    for (const results::Evaluation& e : doc->evaluations) {
      if (e.target) ids.insert(e.target->result_id);
      for (const results::PointRef& p : e.reference) ids.insert(p.result_id);
    }
    std::vector<const results::StoredResult*> shown;
    for (const results::StoredResult& r : store->results) {
      if (ids.count(r.id) != 0) shown.push_back(&r);
    }
    return verdict_response(*store, *doc, shown);
  }

  // fleet?limit&trendOffset&trendLimit&quantity...: service/fleet_summary.h, over the same store.
  ApiResult<RestResponse> fleet() {
    service::FleetRequest request;
    const auto limit = int_param(query_, "limit", 10, 1, 100);
    if (!limit) return tl::unexpected(limit.error());
    const auto trend_offset = int_param(query_, "trendOffset", 0, 0, int64_t{1} << 40);
    if (!trend_offset) return tl::unexpected(trend_offset.error());
    const auto trend_limit = int_param(query_, "trendLimit", 20, 1, 100);
    if (!trend_limit) return tl::unexpected(trend_limit.error());
    request.limit = *limit;
    request.trend_offset = *trend_offset;
    request.trend_limit = *trend_limit;
    if (auto quantities = text_params(query_, "quantity"); !quantities.empty()) request.trend_quantities = quantities;
    const auto method = method_config(service::VerdictMode::kTrend);
    if (!method) return tl::unexpected(method.error());
    request.method = *method;
    const auto read = read_store();
    if (!read) return tl::unexpected(read.error());
    auto answer = service::fleet_summary_json(**read, request);
    if (!answer) return bad_parameter(answer.error().message());
    return text_json_response(std::move(*answer));
  }

  static ApiResult<int64_t> parse_number(const std::string& text, const std::string& what) {
    int64_t n = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size() || n < 0) {
      return refuse(404, "not-found", "no " + what + " " + text);
    }
    return n;
  }

  DashboardApi& api_;
  const std::string& method_;
  const std::vector<std::string> seg_;
  const QueryParams& query_;
};

DashboardApi::DashboardApi(catalog::LogCatalog& logs, StageTaskCache& task_tables, DashboardOptions options,
                           std::unique_ptr<UploadStore> uploads)
    : logs_(logs),
      task_tables_(task_tables),
      options_(std::move(options)),
      uploads_(std::move(uploads)),
      store_(options_.store_location),
      parses_(logs, options_.parse_threads, options_.max_waiting_parses, [this](const ParseJobs::Source& source) {
        // An upload or download read as an event log joins the application list.
        if (source.own_file && source.log.size() > 1 && source.log[0] == '~') uploads_->mark_read(source.log.substr(1));
      }) {}

DashboardApi::~DashboardApi() = default;

Result<std::unique_ptr<DashboardApi>> DashboardApi::create(catalog::LogCatalog& logs, StageTaskCache& task_tables,
                                                           DashboardOptions options) {
  auto uploads = UploadStore::create(options.upload_parent, options.uploads);
  if (!uploads) return fail(uploads.error());
  return std::unique_ptr<DashboardApi>(new DashboardApi(logs, task_tables, std::move(options), std::move(*uploads)));
}

RestResponse DashboardApi::handle(const std::string& method, const std::string& path, const QueryParams& query,
                                  const QueryParams& headers) {
  if (path.rfind(kApiPrefix, 0) != 0) {
    if (method != "GET" && method != "HEAD") {
      return error_response({405, "method-not-allowed", "the dashboard's pages take GET"});
    }
    return static_file(path);
  }
  if (method == "POST") {
    if (auto refused = cross_site(headers)) return error_response(*refused);
  }
  Request request(*this, method, split_path(std::string_view(path).substr(kApiPrefix.size())), query);
  auto answer = request.answer();
  if (!answer) return error_response(answer.error());
  return std::move(*answer);
}

std::optional<BodyHandling> DashboardApi::accept_body(const std::string& method, const std::string& path,
                                                      const QueryParams& query, const QueryParams& headers,
                                                      std::optional<uint64_t> content_length) {
  if (path != std::string(kApiPrefix) + "uploads" || method != "POST") return std::nullopt;
  if (auto refused = cross_site(headers)) {
    BodyHandling out;
    out.refusal = error_response(*refused);
    return out;
  }
  return uploads_->receive(text_param(query, "name"), text_param(query, "folder"), text_param(query, "upload"),
                           content_length);
}

}  // namespace sf::server

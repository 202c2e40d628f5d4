#include "history_server/rest_router.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/text.h"
#include "history_server/history_server_json.h"
#include "history_server/log_zip.h"
#include "history_server/sql_table.h"
#include "history_server/task_table.h"

namespace sf::history_server {

namespace {

// A document written as it is walked: `write` writes it into the answer's body, and returns a
// Status where it can fail partway (a task table that cannot be read), in which case the
// answer is that error and the half-written body is dropped.
template <typename Write>
Result<RestResponse> json_response(Write&& write) {
  RestResponse out;
  JsonWriter w(out.body);
  if constexpr (std::is_void_v<std::invoke_result_t<Write, JsonWriter&>>) {
    write(w);
  } else {
    if (Status written = write(w); !written.ok()) return fail(std::move(written));
  }
  return out;
}

RestResponse json_body(std::string body) {
  RestResponse out;
  out.body = std::move(body);
  return out;
}

int status_for(const Status& status) {
  switch (status.code()) {
    case StatusCode::kNotFound:
    case StatusCode::kOutsideRoot:  // as if it were not there: where it points is not said
      return 404;
    case StatusCode::kInvalidArgument: return 400;
    case StatusCode::kLimitExceeded: return 413;
    case StatusCode::kUnavailable: return 503;
    default: return 500;
  }
}

RestResponse error_response(int status, const std::string& message) {
  RestResponse out;
  out.status = status;
  out.content_type = "text/plain; charset=utf-8";
  out.body = message + "\n";
  return out;
}

RestResponse error_response(const Status& error) { return error_response(status_for(error), error.message()); }

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
  return text;
}

std::string joined(const std::vector<std::string>& values, std::string_view separator) {
  std::string out;
  for (const std::string& v : values) {
    if (!out.empty()) out.append(separator);
    out.append(v);
  }
  return out;
}

Status bad_value(const std::string& name, const std::string& value, const std::string& expected) {
  return Status::InvalidArgument("Bad value for parameter \"" + name + "\": \"" + value + "\" (expected " + expected +
                                 ")");
}

// The parameters of one request, read with the History Server's defaults; a malformed value is
// an InvalidArgument (400) naming the parameter.
class Params {
 public:
  explicit Params(const QueryParams& query) : query_(query) {}

  const std::vector<std::string>* all(const std::string& name) const {
    auto it = query_.find(name);
    return it == query_.end() ? nullptr : &it->second;
  }
  std::optional<std::string> text(const std::string& name) const {
    const auto* values = all(name);
    if (values == nullptr || values->empty()) return std::nullopt;
    return values->front();
  }
  // A boolean as JAX-RS reads one (Boolean.valueOf): "true" in any case, anything else is false.
  bool flag(const std::string& name, bool fallback) const {
    auto value = text(name);
    if (!value) return fallback;
    return upper(*value) == "TRUE";
  }
  Result<int64_t> integer(const std::string& name, int64_t fallback,
                          int64_t min_value = std::numeric_limits<int64_t>::min()) const {
    auto value = text(name);
    if (!value) return fallback;
    int64_t n = 0;
    auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), n);
    if (ec != std::errc() || end != value->data() + value->size() || n < min_value) {
      return fail(bad_value(name, *value,
                            min_value == std::numeric_limits<int64_t>::min()
                                ? std::string("an integer")
                                : "an integer >= " + std::to_string(min_value)));
    }
    return n;
  }
  // A parameter Spark's UI endpoints read without a default: missing is a 400 naming it.
  Result<std::string> required_text(const std::string& name) const {
    auto value = text(name);
    if (!value) return fail(Status::InvalidArgument("Missing parameter \"" + name + "\""));
    return *value;
  }
  // An Int as Scala's toInt reads one (Integer.parseInt: an optional sign, then digits).
  Result<std::optional<int32_t>> int32(const std::string& name) const {
    auto value = text(name);
    if (!value) return std::optional<int32_t>();
    std::string_view digits = *value;
    if (digits.starts_with('+') && digits.size() > 1 && digits[1] != '-') digits.remove_prefix(1);
    int32_t n = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
      return fail(bad_value(name, *value, "a 32-bit integer"));
    }
    return std::optional<int32_t>(n);
  }
  Result<int32_t> int32_or(const std::string& name, int32_t fallback) const {
    auto value = int32(name);
    if (!value) return fail(value.error());
    return value->value_or(fallback);
  }
  Result<int32_t> required_int32(const std::string& name) const {
    if (auto present = required_text(name); !present) return fail(present.error());
    auto value = int32(name);
    if (!value) return fail(value.error());
    return **value;
  }
  // A date parameter, `fallback` (a date Spark's default names) when absent.
  Result<int64_t> date(const std::string& name, std::string_view fallback) const {
    const std::string value = text(name).value_or(std::string(fallback));
    auto ms = parse_history_server_date_param(value);
    if (!ms) return fail(bad_value(name, value, "a date, yyyy-MM-dd or yyyy-MM-ddTHH:mm:ss.SSSGMT"));
    return *ms;
  }
  // Comma-separated numbers ("0.05,0.25,0.5"), sorted as Spark sorts them. Each is trimmed as
  // Java's Double.parseDouble trims (Spark reads them with toDouble): clients send "0.05, 0.25".
  // Spark takes any number, one above 1 picking the largest value and one below 0 the smallest
  // (its index is min(q * n, n - 1)); NaN and the infinities, which JSON cannot say, are refused.
  Result<std::vector<double>> quantiles(const std::vector<double>& fallback) const {
    auto value = text("quantiles");
    if (!value) return fallback;
    std::vector<double> out;
    size_t start = 0;
    while (start <= value->size()) {
      size_t end = value->find(',', start);
      if (end == std::string::npos) end = value->size();
      const std::string_view item = text::trim(std::string_view(value->data() + start, end - start));
      double q = 0;
      auto [parsed_end, ec] = std::from_chars(item.data(), item.data() + item.size(), q);
      if (item.empty() || ec != std::errc() || parsed_end != item.data() + item.size() || !std::isfinite(q)) {
        return fail(bad_value("quantiles", *value, "comma-separated numbers"));
      }
      out.push_back(q);
      start = end + 1;
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  // Every value of a repeated enum parameter, upper-cased, each checked against `allowed`.
  Result<std::vector<std::string>> statuses(const std::string& name, const std::vector<std::string>& allowed) const {
    std::vector<std::string> out;
    const auto* values = all(name);
    if (values == nullptr) return out;
    for (const std::string& value : *values) {
      const std::string v = upper(value);
      if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
        return fail(bad_value(name, value, "one of " + joined(allowed, ", ")));
      }
      out.push_back(v);
    }
    return out;
  }

 private:
  const QueryParams& query_;
};

Result<int64_t> parse_id(const std::string& text, const std::string& what) {
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 0) {
    return fail(Status::NotFound("unknown " + what + ": " + text));
  }
  return n;
}

bool contains(const std::vector<std::string>& values, std::string_view v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// The stage detail's parameters, read once for every stage a request writes.
struct StageDetailParams {
  bool details = false;
  bool with_summaries = false;
  std::vector<std::string> task_statuses;
  std::vector<double> quantiles;
};

// ---------------------------------------------------------------------------------------------

class Request {
 public:
  Request(catalog::LogCatalog& logs, StageTaskCache& tasks, SqlMetricValueCache& sql_metrics, ResponseCache& responses,
          const RestPath& path, const QueryParams& query)
      : logs_(logs), tasks_(tasks), sql_metrics_(sql_metrics), responses_(responses), path_(path), params_(query) {}

  Result<RestResponse> answer() {
    const auto& seg = path_.segments;
    if (seg.size() == 1 && seg[0] == "version") {
      return json_response([](JsonWriter& w) { w.object([&] { w.field("spark", kHistoryServerVersion); }); });
    }
    if (seg.empty() || seg[0] != "applications") return unknown_resource();
    if (path_.app_id.empty()) return application_list();
    const std::vector<std::string>& r = path_.resource;
    if (r.empty()) return application();

    // Without an attempt id, the History Server's download is every attempt's log in one zip.
    if (r[0] == "logs" && r.size() == 1 && !path_.attempt_id) {
      if (auto every = every_attempt_log(); every.size() > 1) return logs_zip(every);
    }
    auto attempt = logs_.find(path_.app_id, path_.attempt_id);
    if (!attempt) return fail(attempt.error());
    attempt_ = std::move(*attempt);
    if (r[0] == "logs" && r.size() == 1) return logs_zip({attempt_.log_path});
    auto loaded = logs_.load(attempt_.log_path);
    if (!loaded) return fail(loaded.error());
    log_ = std::move(*loaded);
    // The same request about the same version of the log is answered with the same bytes.
    const std::string key = log_->path() + '\n' + path_text() + '?' + canonical_query();
    if (auto kept = responses_.find(key, log_->files())) return json_body(*kept);
    auto out = log_resource(log_->model(), r);
    if (out && out->status == 200 && !out->write_body) responses_.keep(key, log_->files(), out->body);
    return out;
  }

 private:
  Result<RestResponse> unknown_resource() const { return fail(Status::NotFound("unknown resource: /" + path_text())); }

  // What the request asks of the loaded log.
  Result<RestResponse> log_resource(const model::AppModel& m, const std::vector<std::string>& r) {
    if (r[0] == "jobs" && r.size() == 1) return jobs(m);
    if (r[0] == "jobs" && r.size() == 2) return one_job(m, r[1]);
    if (r[0] == "stages") return stages(m, r);
    if ((r[0] == "executors" || r[0] == "allexecutors") && r.size() == 1) {
      return json_response([&](JsonWriter& w) { executors(w, m, r[0] == "executors"); });
    }
    // A History Server has no live executors to ask for their threads, whichever the id.
    if (r[0] == "executors" && r.size() == 3 && r[2] == "threads") {
      return fail(Status::Unavailable("Thread dumps not available through the history server."));
    }
    if (r[0] == "storage" && r.size() >= 2 && r[1] == "rdd") return storage(m, r);
    if (r[0] == "environment" && r.size() == 1) return json_response([&](JsonWriter& w) { write_environment(w, m); });
    if (r[0] == "sql" && r.size() == 2 && r[1] == "sqlTable") return sql_table(m);
    if (r[0] == "sql" && r.size() <= 2) return sql(m, r);
    if (r[0] == "allmiscellaneousprocess" && r.size() == 1) {
      return json_response([&](JsonWriter& w) {
        w.array([&] {
          for (const model::MiscellaneousProcess& p : m.miscellaneous_processes) write_miscellaneous_process(w, p);
        });
      });
    }
    return unknown_resource();
  }

  // The query as one text, whatever order its parameters came in (QueryParams is sorted).
  std::string canonical_query() const {
    std::string out;
    for (const auto& [name, values] : path_.query) {
      for (const std::string& v : values) {
        // Lengths first: no name or value can pass for two.
        out.append(std::to_string(name.size())).append(1, ':').append(name);
        out.append(std::to_string(v.size())).append(1, ':').append(v);
      }
    }
    return out;
  }

  std::string path_text() const { return joined(path_.segments, "/"); }

  // The log directory every attempt names (logSourceName): --log-dir's real path.
  std::string log_source() const {
    const auto& root = logs_.confinement().root();
    return root ? root->string() : std::string();
  }

  // applications?status&minDate&maxDate&minEndDate&maxEndDate&limit
  Result<RestResponse> application_list() const {
    const auto status = params_.statuses("status", {"COMPLETED", "RUNNING"});
    if (!status) return fail(status.error());
    const bool include_completed = status->empty() || contains(*status, "COMPLETED");
    const bool include_running = status->empty() || contains(*status, "RUNNING");
    const auto min_date = params_.date("minDate", "2010-01-01");
    if (!min_date) return fail(min_date.error());
    const auto max_date = params_.date("maxDate", "3000-01-01");
    if (!max_date) return fail(max_date.error());
    const auto min_end = params_.date("minEndDate", "2010-01-01");
    if (!min_end) return fail(min_end.error());
    const auto max_end = params_.date("maxEndDate", "3000-01-01");
    if (!max_end) return fail(max_end.error());
    // A negative limit lists nothing, as Scala's take(n) does.
    const auto limit = params_.integer("limit", std::numeric_limits<int64_t>::max());
    if (!limit) return fail(limit.error());
    const std::string source = log_source();
    return json_response([&](JsonWriter& w) {
      int64_t listed = 0;
      w.begin_array();
      for (const catalog::ApplicationListing& app : logs_.applications()) {
        if (listed >= *limit) break;
        const bool running = app.attempts.empty() || !app.attempts.front().completed;
        if (running ? !include_running : !include_completed) continue;
        // An app is kept when any attempt falls in the window (ApplicationListResource.isAttemptInRange);
        // a running attempt's end counts as "now", inside any window ending in the future.
        const auto& attempts = app.attempts;
        const bool in_range = std::any_of(attempts.begin(), attempts.end(), [&](const catalog::AttemptListing& a) {
          const int64_t start = a.start_time_ms.value_or(-1);
          const bool start_ok = start >= *min_date && start <= *max_date;
          const int64_t end = a.end_time_ms.value_or(-1);
          const bool end_ok = running ? *max_end > now_ms() : (end >= *min_end && end <= *max_end);
          return start_ok && end_ok;
        });
        if (!in_range) continue;
        write_application(w, app, source);
        ++listed;
      }
      w.end_array();
    });
  }

  static int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  // applications/<id>, or applications/<id>/<attempt> (one attempt's info).
  Result<RestResponse> application() const {
    for (const catalog::ApplicationListing& app : logs_.applications()) {
      if (app.id != path_.app_id) continue;
      if (!path_.attempt_id) return json_response([&](JsonWriter& w) { write_application(w, app, log_source()); });
      for (const catalog::AttemptListing& attempt : app.attempts) {
        if (attempt.attempt_id.value_or("") == *path_.attempt_id) {
          return json_response([&](JsonWriter& w) { write_application_attempt(w, attempt, log_source()); });
        }
      }
      return fail(Status::NotFound("unknown app: " + path_.app_id + ", attempt: " + *path_.attempt_id));
    }
    return fail(Status::NotFound("no such app: " + path_.app_id));
  }

  Result<RestResponse> jobs(const model::AppModel& m) const {
    const auto status = params_.statuses("status", {"RUNNING", "SUCCEEDED", "FAILED", "UNKNOWN"});
    if (!status) return fail(status.error());
    const KilledTasksByJob killed = killed_tasks_by_job(m);
    return json_response([&](JsonWriter& w) {
      w.array([&] {
        for (auto it = m.jobs.rbegin(); it != m.jobs.rend(); ++it) {
          if (!status->empty() && !contains(*status, std::string(model::to_string(it->status)))) continue;
          write_job(w, *it, killed);
        }
      });
    });
  }

  Result<RestResponse> one_job(const model::AppModel& m, const std::string& id) const {
    const auto job_id = parse_id(id, "job");
    if (!job_id) return fail(job_id.error());
    const model::Job* job = m.job(*job_id);
    if (job == nullptr) return fail(Status::NotFound("unknown job: " + id));
    return json_response([&](JsonWriter& w) { write_job(w, *job, killed_tasks_by_job(m)); });
  }

  Result<std::shared_ptr<const StageTasks>> tasks_of(const model::StageAttempt& s) {
    return tasks_.get(*log_, s.stage_id, s.attempt_id, logs_.confinement());
  }

  // The stage detail's parameters; `details_default` differs between the list and one stage.
  Result<StageDetailParams> stage_detail_params(bool details_default) const {
    StageDetailParams p;
    p.details = params_.flag("details", details_default);
    p.with_summaries = params_.flag("withSummaries", false);
    auto statuses = params_.statuses("taskStatus", {"RUNNING", "KILLED", "FAILED", "SUCCESS", "UNKNOWN"});
    if (!statuses) return fail(statuses.error());
    p.task_statuses = std::move(*statuses);
    auto quantiles = params_.quantiles({0.0, 0.25, 0.5, 0.75, 1.0});
    if (!quantiles) return fail(quantiles.error());
    p.quantiles = std::move(*quantiles);
    return p;
  }

  // One stage's detail as the parameters ask; `tasks` holds the stage's task table while the
  // detail points into it.
  Result<StageDetail> stage_detail(const model::StageAttempt& s, const StageDetailParams& p,
                                   std::shared_ptr<const StageTasks>& tasks) {
    StageDetail detail;
    detail.with_tasks = p.details;
    detail.with_executor_summary = p.details;
    detail.with_summaries = p.with_summaries;
    detail.task_statuses = p.task_statuses;
    detail.quantiles = p.quantiles;
    if (detail.with_tasks || detail.with_summaries || (p.details && s.tasks_speculative > 0)) {
      auto read = tasks_of(s);
      if (!read) return fail(read.error());
      tasks = std::move(*read);
      detail.tasks = tasks.get();
    }
    return detail;
  }

  Status write_stage_document(JsonWriter& w, const model::AppModel& m, const model::StageAttempt& s,
                              const StageDetailParams& p) {
    std::shared_ptr<const StageTasks> tasks;
    auto detail = stage_detail(s, p, tasks);
    if (!detail) return detail.error();
    write_stage(w, m, s, *detail);
    return {};
  }

  Result<RestResponse> stages(const model::AppModel& m, const std::vector<std::string>& r) {
    if (r.size() == 1) return stage_list(m);
    const auto stage_id = parse_id(r[1], "stage");
    if (!stage_id) return fail(stage_id.error());
    const std::span<const model::StageAttempt> attempts = m.attempts_of(*stage_id);
    if (attempts.empty()) return fail(Status::NotFound("unknown stage: " + r[1]));
    if (r.size() == 2) {
      const auto p = stage_detail_params(true);
      if (!p) return fail(p.error());
      return json_response([&](JsonWriter& w) {
        w.begin_array();
        for (const model::StageAttempt& s : attempts) {
          if (Status written = write_stage_document(w, m, s, *p); !written.ok()) return written;
        }
        w.end_array();
        return Status();
      });
    }
    const auto attempt_id = parse_id(r[2], "stage attempt");
    if (!attempt_id) return fail(attempt_id.error());
    const model::StageAttempt* s = m.stage(*stage_id, static_cast<int32_t>(*attempt_id));
    if (s == nullptr) {
      std::vector<std::string> found;
      for (const model::StageAttempt& a : attempts) found.push_back(std::to_string(a.attempt_id));
      return fail(
          Status::NotFound("unknown attempt for stage " + r[1] + ".  Found attempts: [" + joined(found, ",") + "]"));
    }
    if (r.size() == 3) {
      const auto p = stage_detail_params(true);
      if (!p) return fail(p.error());
      return json_response([&](JsonWriter& w) { return write_stage_document(w, m, *s, *p); });
    }
    if (r.size() == 4 && r[3] == "taskSummary") {
      const auto quantiles = params_.quantiles({0.05, 0.25, 0.5, 0.75, 0.95});
      if (!quantiles) return fail(quantiles.error());
      const auto tasks = tasks_of(*s);
      if (!tasks) return fail(tasks.error());
      if (!has_task_metric_distributions(**tasks)) {
        return fail(Status::NotFound("No tasks reported metrics for " + r[1] + " / " + r[2] + " yet."));
      }
      return json_response([&](JsonWriter& w) { write_task_metric_distributions(w, **tasks, *quantiles); });
    }
    if (r.size() == 4 && r[3] == "taskList") return task_list(m, *s);
    if (r.size() == 4 && r[3] == "taskTable") return task_table(m, *s);
    return unknown_resource();
  }

  // stages?status&details&taskStatus&withSummaries&quantiles
  Result<RestResponse> stage_list(const model::AppModel& m) {
    const auto status = params_.statuses("status", {"ACTIVE", "COMPLETE", "PENDING", "SKIPPED", "FAILED"});
    if (!status) return fail(status.error());
    const auto p = stage_detail_params(false);
    if (!p) return fail(p.error());
    // With details, Spark 3.4 and later leave out a stage none of whose tasks has a status asked for.
    const bool by_task_status = p->details && params_.all("taskStatus") != nullptr;
    return json_response([&](JsonWriter& w) {
      w.begin_array();
      for (auto it = m.stages.rbegin(); it != m.stages.rend(); ++it) {
        if (!status->empty() && !contains(*status, std::string(model::to_string(it->status)))) continue;
        std::shared_ptr<const StageTasks> tasks;
        const auto detail = stage_detail(*it, *p, tasks);
        if (!detail) return detail.error();
        if (by_task_status && !detail->shows_a_task()) continue;
        write_stage(w, m, *it, *detail);
      }
      w.end_array();
      return Status();
    });
  }

  // stages/<id>/<attempt>/taskList?offset&length&sortBy&status
  Result<RestResponse> task_list(const model::AppModel& m, const model::StageAttempt& s) {
    // A negative offset skips nothing; Spark refuses a length below 1 (its KVStore's max()).
    const auto offset = params_.integer("offset", 0);
    if (!offset) return fail(offset.error());
    const auto length = params_.integer("length", 20, 1);
    if (!length) return fail(length.error());
    const auto status = params_.statuses("status", {"RUNNING", "KILLED", "FAILED", "SUCCESS", "UNKNOWN"});
    if (!status) return fail(status.error());
    const std::string sort = params_.text("sortBy").value_or("ID");
    // TaskSorting: by id, or by the run-time index (tasks_sorted_by) either way.
    TaskSortIndex index = TaskSortIndex::kExecutorRunTime;
    bool ascending = true;
    if (upper(sort) == "ID") {
      index = TaskSortIndex::kTaskId;
    } else if (upper(sort) == "DECREASING_RUNTIME" || sort == "-runtime") {
      ascending = false;
    } else if (upper(sort) != "INCREASING_RUNTIME" && sort != "runtime") {
      return fail(bad_value("sortBy", sort, "ID, INCREASING_RUNTIME, DECREASING_RUNTIME, runtime or -runtime"));
    }
    const auto tasks = tasks_of(s);
    if (!tasks) return fail(tasks.error());
    std::vector<const TaskRecord*> rows;
    for (const TaskRecord* t : tasks_sorted_by(**tasks, index, ascending)) {
      if (status->empty() || contains(*status, t->status)) rows.push_back(t);
    }
    const int64_t first = std::max<int64_t>(*offset, 0);
    return json_response([&](JsonWriter& w) {
      w.array([&] {
        for (int64_t i = first; i < static_cast<int64_t>(rows.size()) && i < first + *length; ++i) {
          write_task(w, m, *rows[static_cast<size_t>(i)]);
        }
      });
    });
  }

  // The query as Spark's UI endpoints read it: every name and value URL-decoded once more
  // (decode_url_parameter); what URLDecoder refuses is a 400 naming the parameter.
  Result<QueryParams> url_decoded_query() const {
    QueryParams out;
    for (const auto& [name, values] : path_.query) {
      auto decoded_name = decode_url_parameter(name);
      if (!decoded_name) {
        return fail(
            Status::InvalidArgument("Bad parameter name \"" + name + "\" (a '%' not followed by two hex digits)"));
      }
      for (const std::string& value : values) {
        auto decoded = decode_url_parameter(value);
        if (!decoded) {
          return fail(Status::InvalidArgument("Bad value for parameter \"" + name + "\": \"" + value +
                                              "\" (a '%' not followed by two hex digits)"));
        }
        out[*decoded_name].push_back(std::move(*decoded));
      }
    }
    return out;
  }

  // stages/<id>/<attempt>/taskTable: the stage page's DataTables request (StagesResource.taskTable).
  // numTasks, the stage's task count as the page knows it, is echoed as recordsTotal (a string);
  // without a search, the page of `length` tasks from `start` sorted by columnNameToSort,
  // order[0][dir] "asc" or else descending; with one, the first numTasks tasks so sorted, those
  // the search finds, and their page (recordsFiltered, a string, counts them).
  Result<RestResponse> task_table(const model::AppModel& m, const model::StageAttempt& s) {
    const auto query = url_decoded_query();
    if (!query) return fail(query.error());
    const Params table(*query);
    const auto records_total = table.required_text("numTasks");
    if (!records_total) return fail(records_total.error());
    const auto num_tasks = table.required_int32("numTasks");
    if (!num_tasks) return fail(num_tasks.error());
    const std::string search = table.text("search[value]").value_or("");
    auto column = table.required_text("columnNameToSort");
    if (!column) return fail(column.error());
    if (java_lower_case(*column) == "logs") *column = "Index";
    const bool ascending = java_lower_case(table.text("order[0][dir]").value_or("")) == "asc";
    int32_t start = 0;
    int32_t length = *num_tasks;
    if (search.empty()) {
      const auto from = table.required_int32("start");
      if (!from) return fail(from.error());
      const auto count = table.required_int32("length");
      if (!count) return fail(count.error());
      start = *from;
      length = *count;
    }
    const std::optional<TaskSortIndex> index = task_sort_index_of_column(*column);
    if (!index) {
      return fail(Status::InvalidArgument("Bad value for parameter \"columnNameToSort\": \"" + *column +
                                          "\" (not a column of the task table)"));
    }
    // The History Server's store refuses to list fewer than one task (a 500 there).
    if (length < 1)
      return fail(bad_value(search.empty() ? "length" : "numTasks", std::to_string(length), "an integer >= 1"));
    const auto tasks = tasks_of(s);
    if (!tasks) return fail(tasks.error());
    const std::vector<const TaskRecord*> sorted = tasks_sorted_by(**tasks, *index, ascending);
    const auto first = static_cast<size_t>(std::clamp<int64_t>(start, 0, static_cast<int64_t>(sorted.size())));
    std::vector<const TaskRecord*> rows(sorted.begin() + static_cast<std::ptrdiff_t>(first),
                                        sorted.begin() + static_cast<std::ptrdiff_t>(std::min<size_t>(
                                                             sorted.size(), first + static_cast<size_t>(length))));
    std::string records_filtered = *records_total;
    if (!search.empty() && !rows.empty()) {
      const std::string wanted = java_lower_case(search);
      std::vector<const TaskRecord*> found;
      for (const TaskRecord* t : rows) {
        if (task_matches_search(*t, wanted)) found.push_back(t);
      }
      records_filtered = std::to_string(found.size());
      rows.clear();
      if (!found.empty()) {
        const auto page_start = table.required_int32("start");
        if (!page_start) return fail(page_start.error());
        const auto page_length = table.required_int32("length");
        if (!page_length) return fail(page_length.error());
        const auto [from, to] = scala_slice(found.size(), *page_start, *page_length);
        rows.assign(found.begin() + static_cast<std::ptrdiff_t>(from), found.begin() + static_cast<std::ptrdiff_t>(to));
      }
    }
    return json_response([&](JsonWriter& w) {
      SortedObject out(w);
      out.member("aaData", [&m, &rows](JsonWriter& rw) {
        rw.array([&] {
          for (const TaskRecord* t : rows) write_task(rw, m, *t);
        });
      });
      out.field("recordsTotal", *records_total);
      out.field("recordsFiltered", records_filtered);
      out.write();
    });
  }

  // sql/sqlTable: the SQL page's DataTables request (SqlResource.sqlTable). A groupSubExecution
  // that is not a boolean is the default, as Spark reads it; draw, start and length must be Ints.
  Result<RestResponse> sql_table(const model::AppModel& m) const {
    const auto query = url_decoded_query();
    if (!query) return fail(query.error());
    const Params table(*query);
    SqlTableQuery q;
    const auto draw = table.int32_or("draw", 0);
    if (!draw) return fail(draw.error());
    q.draw = *draw;
    if (auto group = table.text("groupSubExecution")) {
      const std::string value = java_lower_case(*group);
      if (value == "true" || value == "false") q.group_sub_executions = value == "true";
    }
    q.search = table.text("search[value]").value_or("");
    q.status = table.text("status").value_or("");
    if (auto column = table.text("order[0][column]")) {
      if (auto name = table.text("columns[" + *column + "][name]")) q.sort_column = *name;
    }
    q.sort_direction = table.text("order[0][dir]").value_or("desc");
    const auto start = table.int32_or("start", 0);
    if (!start) return fail(start.error());
    q.start = *start;
    const auto length = table.int32_or("length", 20);
    if (!length) return fail(length.error());
    q.length = *length;
    return json_response([&](JsonWriter& w) { write_sql_table(w, m, q); });
  }

  void executors(JsonWriter& w, const model::AppModel& m, bool active_only) const {
    std::vector<const model::Executor*> list;
    for (const model::Executor& e : m.executors) {
      if (!active_only || !e.remove_time_ms) list.push_back(&e);
    }
    // The History Server lists by executor id as text: active executors descending (from its
    // "active" index, reversed), all executors ascending.
    std::sort(list.begin(), list.end(), [&](const model::Executor* a, const model::Executor* b) {
      return active_only ? a->id > b->id : a->id < b->id;
    });
    w.array([&] {
      for (const model::Executor* e : list) write_executor(w, m, *e);
    });
  }

  Result<RestResponse> storage(const model::AppModel& m, const std::vector<std::string>& r) const {
    if (r.size() == 2) {
      return json_response([&](JsonWriter& w) {
        w.array([&] {
          for (const auto& [id, rdd] : m.rdds) {
            if (rdd.num_cached_partitions > 0) write_rdd_storage(w, rdd);
          }
        });
      });
    }
    if (r.size() == 3) {
      const auto id = parse_id(r[2], "rdd");
      if (!id) return fail(id.error());
      auto it = m.rdds.find(*id);
      if (it == m.rdds.end() || !it->second.is_cached()) return fail(Status::NotFound("no rdd found w/ id " + r[2]));
      return json_response([&](JsonWriter& w) { write_rdd_storage(w, it->second); });
    }
    return unknown_resource();
  }

  Result<RestResponse> sql(const model::AppModel& m, const std::vector<std::string>& r) {
    const bool details = params_.flag("details", true);
    const bool plan = params_.flag("planDescription", true);
    // The plan metrics' values, read from the log's tasks on the first request that shows them.
    std::shared_ptr<const SqlMetricValues> values;
    if (details && !m.sql.empty()) {
      auto read = sql_metrics_.get(*log_, logs_.confinement());
      if (!read) return fail(read.error());
      values = std::move(*read);
    }
    auto values_of = [&](const model::SqlExecution& x) { return values ? values->of(x.execution_id) : nullptr; };
    if (r.size() == 2) {
      const auto id = parse_id(r[1], "execution id");
      if (!id) return fail(id.error());
      const model::SqlExecution* x = m.sql_execution(*id);
      if (x == nullptr) return fail(Status::NotFound("unknown query execution id: " + r[1]));
      return json_response([&](JsonWriter& w) { write_sql_execution(w, m, *x, details, plan, values_of(*x)); });
    }
    // Spark 4's list: every execution unless a length above 0 asks for a page (a negative offset
    // starts at the first).
    const auto length = params_.integer("length", -1);
    if (!length) return fail(length.error());
    const auto offset = *length > 0 ? params_.integer("offset", 0) : Result<int64_t>(0);
    if (!offset) return fail(offset.error());
    const int64_t first = std::max<int64_t>(*offset, 0);
    const int64_t end = *length > 0 ? first + *length : std::numeric_limits<int64_t>::max();
    return json_response([&](JsonWriter& w) {
      w.array([&] {
        for (int64_t i = first; i < static_cast<int64_t>(m.sql.size()) && i < end; ++i) {
          const model::SqlExecution& x = m.sql[static_cast<size_t>(i)];
          write_sql_execution(w, m, x, details, plan, values_of(x));
        }
      });
    });
  }

  // Streamed: the zip of a large log is sent as it is built (log_zip.h), never held whole.
  // The logs of every attempt of the application asked for (none when it is not listed).
  std::vector<std::string> every_attempt_log() const {
    std::vector<std::string> out;
    for (const catalog::ApplicationListing& app : logs_.applications()) {
      if (app.id != path_.app_id) continue;
      for (const catalog::AttemptListing& a : app.attempts) out.push_back(a.log_path);
    }
    return out;
  }

  Result<RestResponse> logs_zip(const std::vector<std::string>& log_paths) const {
    auto zip = EventLogZip::open(log_paths, logs_.confinement());
    if (!zip) return fail(zip.error());
    RestResponse out;
    out.content_type = "application/octet-stream";
    std::string name = "eventLogs-" + path_.app_id + (path_.attempt_id ? "-" + *path_.attempt_id : "") + ".zip";
    out.content_disposition = "attachment; filename=" + name;
    out.write_body = [zip = std::move(*zip)](const BodySink& sink) { return zip.write(sink); };
    return out;
  }

  catalog::LogCatalog& logs_;
  StageTaskCache& tasks_;
  SqlMetricValueCache& sql_metrics_;
  ResponseCache& responses_;
  const RestPath& path_;
  Params params_;
  catalog::AttemptListing attempt_;
  std::shared_ptr<const catalog::LoadedLog> log_;
};

}  // namespace

RestResponse RestRouter::handle(std::string_view method, std::string_view path, const QueryParams& query) const {
  if (method != "GET" && method != "HEAD") {
    return error_response(405, "method " + std::string(method) + " not allowed: the REST API is read-only (GET)");
  }
  RestPath parsed = parse_rest_path(path);
  parsed.query = query;
  Request request(logs_, tasks_, sql_metrics_, responses_, parsed, parsed.query);
  auto answer = request.answer();
  if (!answer) return error_response(answer.error());
  return std::move(*answer);
}

RestResponse with_body_written(RestResponse response) {
  if (!response.write_body) return response;
  std::string body;
  const Status written = response.write_body([&body](std::string_view bytes) {
    body.append(bytes);
    return true;
  });
  response.write_body = nullptr;
  if (!written.ok()) return error_response(written);
  response.body = std::move(body);
  return response;
}

RestResponse RestRouter::handle(std::string_view method, std::string_view target) const {
  const size_t q = target.find('?');
  const QueryParams query = q == std::string_view::npos ? QueryParams{} : parse_query_string(target.substr(q + 1));
  return handle(method, target.substr(0, q), query);
}

}  // namespace sf::history_server

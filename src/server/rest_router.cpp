#include "server/rest_router.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>

#include "common/text.h"
#include "server/history_server_json.h"
#include "server/log_zip.h"
#include "server/sql_table.h"
#include "server/task_table.h"

namespace sf::server {

namespace {

// A request that cannot be answered with a document: the status and its message.
struct RequestError {
  int status;
  std::string message;
};

// A document written as it is walked: `write` writes it into the answer's body.
template <typename Write>
RestResponse json_response(Write&& write) {
  RestResponse out;
  JsonWriter w(out.body);
  write(w);
  return out;
}

RestResponse json_body(std::string body) {
  RestResponse out;
  out.body = std::move(body);
  return out;
}

RestResponse error_response(const RequestError& error) {
  RestResponse out;
  out.status = error.status;
  out.content_type = "text/plain; charset=utf-8";
  out.body = error.message + "\n";
  return out;
}

int status_for(const Status& status) {
  switch (status.code()) {
    case StatusCode::kNotFound:
    case StatusCode::kOutsideRoot:  // as if it were not there: where it points is not said
      return 404;
    case StatusCode::kInvalidArgument:
      return 400;
    case StatusCode::kLimitExceeded:
      return 413;
    default:
      return 500;
  }
}

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

// The parameters of one request, read with the History Server's defaults; a malformed value
// throws RequestError (400) naming the parameter.
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
  int64_t integer(const std::string& name, int64_t fallback,
                  int64_t min_value = std::numeric_limits<int64_t>::min()) const {
    auto value = text(name);
    if (!value) return fallback;
    int64_t n = 0;
    auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), n);
    if (ec != std::errc() || end != value->data() + value->size() || n < min_value) {
      throw bad(name, *value, min_value == std::numeric_limits<int64_t>::min()
                                  ? std::string("an integer")
                                  : "an integer >= " + std::to_string(min_value));
    }
    return n;
  }
  // A parameter Spark's UI endpoints read without a default: missing is a 400 naming it.
  std::string required_text(const std::string& name) const {
    auto value = text(name);
    if (!value) throw RequestError{400, "Missing parameter \"" + name + "\""};
    return *value;
  }
  // An Int as Scala's toInt reads one (Integer.parseInt: an optional sign, then digits).
  std::optional<int32_t> int32(const std::string& name) const {
    auto value = text(name);
    if (!value) return std::nullopt;
    std::string_view digits = *value;
    if (digits.starts_with('+') && digits.size() > 1 && digits[1] != '-') digits.remove_prefix(1);
    int32_t n = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
      throw bad(name, *value, "a 32-bit integer");
    }
    return n;
  }
  int32_t required_int32(const std::string& name) const {
    required_text(name);
    return *int32(name);
  }
  std::optional<int64_t> date(const std::string& name) const {
    auto value = text(name);
    if (!value) return std::nullopt;
    auto ms = parse_history_server_date_param(*value);
    if (!ms) throw bad(name, *value, "a date, yyyy-MM-dd or yyyy-MM-ddTHH:mm:ss.SSSGMT");
    return ms;
  }
  // Comma-separated numbers ("0.05,0.25,0.5"), sorted as Spark sorts them. Each is trimmed as
  // Java's Double.parseDouble trims (Spark reads them with toDouble): clients send "0.05, 0.25".
  // Spark takes any number, one above 1 picking the largest value and one below 0 the smallest
  // (its index is min(q * n, n - 1)); NaN and the infinities, which JSON cannot say, are refused.
  std::vector<double> quantiles(const std::vector<double>& fallback) const {
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
        throw bad("quantiles", *value, "comma-separated numbers");
      }
      out.push_back(q);
      start = end + 1;
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  // Every value of a repeated enum parameter, upper-cased, each checked against `allowed`.
  std::vector<std::string> statuses(const std::string& name, const std::vector<std::string>& allowed) const {
    std::vector<std::string> out;
    const auto* values = all(name);
    if (values == nullptr) return out;
    for (const std::string& value : *values) {
      const std::string v = upper(value);
      if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
        throw bad(name, value, "one of " + joined(allowed, ", "));
      }
      out.push_back(v);
    }
    return out;
  }

 private:
  static RequestError bad(const std::string& name, const std::string& value, const std::string& expected) {
    return {400, "Bad value for parameter \"" + name + "\": \"" + value + "\" (expected " + expected + ")"};
  }
  const QueryParams& query_;
};

int64_t parse_id(const std::string& text, const std::string& what) {
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 0) {
    throw RequestError{404, "unknown " + what + ": " + text};
  }
  return n;
}

bool contains(const std::vector<std::string>& values, std::string_view v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// ---------------------------------------------------------------------------------------------

class Request {
 public:
  Request(catalog::LogCatalog& logs, StageTaskCache& tasks, SqlMetricValueCache& sql_metrics, ResponseCache& responses,
          const RestPath& path, const QueryParams& query)
      : logs_(logs), tasks_(tasks), sql_metrics_(sql_metrics), responses_(responses), path_(path), params_(query) {}

  RestResponse answer() {
    const auto& seg = path_.segments;
    if (seg.size() == 1 && seg[0] == "version") {
      return json_response([](JsonWriter& w) { w.object([&] { w.field("spark", kHistoryServerVersion); }); });
    }
    if (seg.empty() || seg[0] != "applications") throw RequestError{404, "unknown resource: /" + path_text()};
    if (path_.app_id.empty()) return json_response([this](JsonWriter& w) { application_list(w); });
    const std::vector<std::string>& r = path_.resource;
    if (r.empty()) return json_response([this](JsonWriter& w) { application(w); });

    // Without an attempt id, the History Server's download is every attempt's log in one zip.
    if (r[0] == "logs" && r.size() == 1 && !path_.attempt_id) {
      if (auto every = every_attempt_log(); every.size() > 1) return logs_zip(every);
    }
    attempt_ = take(logs_.find(path_.app_id, path_.attempt_id));
    if (r[0] == "logs" && r.size() == 1) return logs_zip({attempt_.log_path});
    log_ = take(logs_.load(attempt_.log_path));
    // The same request about the same version of the log is answered with the same bytes.
    const std::string key = log_->path() + '\n' + path_text() + '?' + canonical_query();
    if (auto kept = responses_.find(key, log_->files())) return json_body(*kept);
    RestResponse out = log_resource(log_->model(), r);
    if (out.status == 200 && !out.write_body) responses_.keep(key, log_->files(), out.body);
    return out;
  }

 private:
  // What the request asks of the loaded log.
  RestResponse log_resource(const model::AppModel& m, const std::vector<std::string>& r) {
    if (r[0] == "jobs" && r.size() == 1) return json_response([&](JsonWriter& w) { jobs(w, m); });
    if (r[0] == "jobs" && r.size() == 2) return json_response([&](JsonWriter& w) { one_job(w, m, r[1]); });
    if (r[0] == "stages") return json_response([&](JsonWriter& w) { stages(w, m, r); });
    if ((r[0] == "executors" || r[0] == "allexecutors") && r.size() == 1) {
      return json_response([&](JsonWriter& w) { executors(w, m, r[0] == "executors"); });
    }
    // A History Server has no live executors to ask for their threads, whichever the id.
    if (r[0] == "executors" && r.size() == 3 && r[2] == "threads") {
      throw RequestError{503, "Thread dumps not available through the history server."};
    }
    if (r[0] == "storage" && r.size() >= 2 && r[1] == "rdd") {
      return json_response([&](JsonWriter& w) { storage(w, m, r); });
    }
    if (r[0] == "environment" && r.size() == 1) return json_response([&](JsonWriter& w) { write_environment(w, m); });
    if (r[0] == "sql" && r.size() == 2 && r[1] == "sqlTable") {
      return json_response([&](JsonWriter& w) { sql_table(w, m); });
    }
    if (r[0] == "sql" && r.size() <= 2) return json_response([&](JsonWriter& w) { sql(w, m, r); });
    if (r[0] == "allmiscellaneousprocess" && r.size() == 1) {
      return json_response([&](JsonWriter& w) {
        w.array([&] {
          for (const model::MiscellaneousProcess& p : m.miscellaneous_processes) write_miscellaneous_process(w, p);
        });
      });
    }
    throw RequestError{404, "unknown resource: /" + path_text()};
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

  template <class T>
  T take(Result<T> result) {
    if (!result) throw RequestError{status_for(result.error()), result.error().message()};
    return std::move(*result);
  }

  std::string path_text() const { return joined(path_.segments, "/"); }

  // The log directory every attempt names (logSourceName): --log-dir's real path.
  std::string log_source() const {
    const auto& root = logs_.confinement().root();
    return root ? root->string() : std::string();
  }

  // applications?status&minDate&maxDate&minEndDate&maxEndDate&limit
  void application_list(JsonWriter& w) const {
    const auto status = params_.statuses("status", {"COMPLETED", "RUNNING"});
    const bool include_completed = status.empty() || contains(status, "COMPLETED");
    const bool include_running = status.empty() || contains(status, "RUNNING");
    const int64_t min_date = params_.date("minDate").value_or(*parse_history_server_date_param("2010-01-01"));
    const int64_t max_date = params_.date("maxDate").value_or(*parse_history_server_date_param("3000-01-01"));
    const int64_t min_end = params_.date("minEndDate").value_or(*parse_history_server_date_param("2010-01-01"));
    const int64_t max_end = params_.date("maxEndDate").value_or(*parse_history_server_date_param("3000-01-01"));
    // A negative limit lists nothing, as Scala's take(n) does.
    const int64_t limit = params_.integer("limit", std::numeric_limits<int64_t>::max());
    const std::string source = log_source();
    int64_t listed = 0;
    w.begin_array();
    for (const catalog::ApplicationListing& app : logs_.applications()) {
      if (listed >= limit) break;
      const bool running = app.attempts.empty() || !app.attempts.front().completed;
      if (running ? !include_running : !include_completed) continue;
      // An app is kept when any attempt falls in the window (ApplicationListResource.isAttemptInRange);
      // a running attempt's end counts as "now", inside any window ending in the future.
      const auto& attempts = app.attempts;
      const bool in_range = std::any_of(attempts.begin(), attempts.end(), [&](const catalog::AttemptListing& a) {
        const int64_t start = a.start_time_ms.value_or(-1);
        const bool start_ok = start >= min_date && start <= max_date;
        const int64_t end = a.end_time_ms.value_or(-1);
        const bool end_ok = running ? max_end > now_ms() : (end >= min_end && end <= max_end);
        return start_ok && end_ok;
      });
      if (!in_range) continue;
      write_application(w, app, source);
      ++listed;
    }
    w.end_array();
  }

  static int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  // applications/<id>, or applications/<id>/<attempt> (one attempt's info).
  void application(JsonWriter& w) const {
    for (const catalog::ApplicationListing& app : logs_.applications()) {
      if (app.id != path_.app_id) continue;
      if (!path_.attempt_id) return write_application(w, app, log_source());
      for (const catalog::AttemptListing& attempt : app.attempts) {
        if (attempt.attempt_id.value_or("") == *path_.attempt_id) {
          return write_application_attempt(w, attempt, log_source());
        }
      }
      throw RequestError{404, "unknown app: " + path_.app_id + ", attempt: " + *path_.attempt_id};
    }
    throw RequestError{404, "no such app: " + path_.app_id};
  }

  void jobs(JsonWriter& w, const model::AppModel& m) const {
    const auto status = params_.statuses("status", {"RUNNING", "SUCCEEDED", "FAILED", "UNKNOWN"});
    const KilledTasksByJob killed = killed_tasks_by_job(m);
    w.array([&] {
      for (auto it = m.jobs.rbegin(); it != m.jobs.rend(); ++it) {
        if (!status.empty() && !contains(status, std::string(model::to_string(it->status)))) continue;
        write_job(w, *it, killed);
      }
    });
  }

  void one_job(JsonWriter& w, const model::AppModel& m, const std::string& id) const {
    const model::Job* job = m.job(parse_id(id, "job"));
    if (job == nullptr) throw RequestError{404, "unknown job: " + id};
    write_job(w, *job, killed_tasks_by_job(m));
  }

  std::shared_ptr<const StageTasks> tasks_of(const model::StageAttempt& s) {
    return take(tasks_.get(*log_, s.stage_id, s.attempt_id, logs_.confinement()));
  }

  // The stage detail the request asks for; `details_default` differs between the list and one stage.
  // `tasks` holds the stage's task table while the detail points into it.
  StageDetail stage_detail(const model::StageAttempt& s, bool details_default,
                           std::shared_ptr<const StageTasks>& tasks) {
    StageDetail detail;
    const bool details = params_.flag("details", details_default);
    detail.with_tasks = details;
    detail.with_executor_summary = details;
    detail.with_summaries = params_.flag("withSummaries", false);
    detail.task_statuses = params_.statuses("taskStatus", {"RUNNING", "KILLED", "FAILED", "SUCCESS", "UNKNOWN"});
    detail.quantiles = params_.quantiles({0.0, 0.25, 0.5, 0.75, 1.0});
    if (detail.with_tasks || detail.with_summaries || (details && s.tasks_speculative > 0)) {
      tasks = tasks_of(s);
      detail.tasks = tasks.get();
    }
    return detail;
  }

  void stage_document(JsonWriter& w, const model::AppModel& m, const model::StageAttempt& s, bool details_default) {
    std::shared_ptr<const StageTasks> tasks;
    write_stage(w, m, s, stage_detail(s, details_default, tasks));
  }

  void stages(JsonWriter& w, const model::AppModel& m, const std::vector<std::string>& r) {
    if (r.size() == 1) {
      const auto status = params_.statuses("status", {"ACTIVE", "COMPLETE", "PENDING", "SKIPPED", "FAILED"});
      // With details, Spark 3.4 and later leave out a stage none of whose tasks has a status asked for.
      const bool by_task_status = params_.flag("details", false) && params_.all("taskStatus") != nullptr;
      w.begin_array();
      for (auto it = m.stages.rbegin(); it != m.stages.rend(); ++it) {
        if (!status.empty() && !contains(status, std::string(model::to_string(it->status)))) continue;
        std::shared_ptr<const StageTasks> tasks;
        const StageDetail detail = stage_detail(*it, false, tasks);
        if (by_task_status && !detail.shows_a_task()) continue;
        write_stage(w, m, *it, detail);
      }
      w.end_array();
      return;
    }
    const int64_t stage_id = parse_id(r[1], "stage");
    const std::span<const model::StageAttempt> attempts = m.attempts_of(stage_id);
    if (attempts.empty()) throw RequestError{404, "unknown stage: " + r[1]};
    if (r.size() == 2) {
      w.array([&] {
        for (const model::StageAttempt& s : attempts) stage_document(w, m, s, true);
      });
      return;
    }
    const model::StageAttempt* s = m.stage(stage_id, static_cast<int32_t>(parse_id(r[2], "stage attempt")));
    if (s == nullptr) {
      std::vector<std::string> found;
      for (const model::StageAttempt& a : attempts) found.push_back(std::to_string(a.attempt_id));
      throw RequestError{404, "unknown attempt for stage " + r[1] + ".  Found attempts: [" + joined(found, ",") + "]"};
    }
    if (r.size() == 3) return stage_document(w, m, *s, true);
    if (r.size() == 4 && r[3] == "taskSummary") {
      const auto quantiles = params_.quantiles({0.05, 0.25, 0.5, 0.75, 0.95});
      const auto tasks = tasks_of(*s);
      if (!has_task_metric_distributions(*tasks)) {
        throw RequestError{404, "No tasks reported metrics for " + r[1] + " / " + r[2] + " yet."};
      }
      return write_task_metric_distributions(w, *tasks, quantiles);
    }
    if (r.size() == 4 && r[3] == "taskList") return task_list(w, m, *s);
    if (r.size() == 4 && r[3] == "taskTable") return task_table(w, m, *s);
    throw RequestError{404, "unknown resource: /" + path_text()};
  }

  // stages/<id>/<attempt>/taskList?offset&length&sortBy&status
  void task_list(JsonWriter& w, const model::AppModel& m, const model::StageAttempt& s) {
    // A negative offset skips nothing; Spark refuses a length below 1 (its KVStore's max()).
    const int64_t offset = std::max<int64_t>(params_.integer("offset", 0), 0);
    const int64_t length = params_.integer("length", 20, 1);
    const auto status = params_.statuses("status", {"RUNNING", "KILLED", "FAILED", "SUCCESS", "UNKNOWN"});
    const std::string sort = params_.text("sortBy").value_or("ID");
    // TaskSorting: by id, or by the run-time index (tasks_sorted_by) either way.
    TaskSortIndex index = TaskSortIndex::kExecutorRunTime;
    bool ascending = true;
    if (upper(sort) == "ID") {
      index = TaskSortIndex::kTaskId;
    } else if (upper(sort) == "DECREASING_RUNTIME" || sort == "-runtime") {
      ascending = false;
    } else if (upper(sort) != "INCREASING_RUNTIME" && sort != "runtime") {
      throw RequestError{400, "Bad value for parameter \"sortBy\": \"" + sort +
                                  "\" (expected ID, INCREASING_RUNTIME, DECREASING_RUNTIME, runtime or -runtime)"};
    }
    const auto tasks = tasks_of(s);
    std::vector<const TaskRecord*> rows;
    for (const TaskRecord* t : tasks_sorted_by(*tasks, index, ascending)) {
      if (status.empty() || contains(status, t->status)) rows.push_back(t);
    }
    w.array([&] {
      for (int64_t i = offset; i < static_cast<int64_t>(rows.size()) && i < offset + length; ++i) {
        write_task(w, m, *rows[static_cast<size_t>(i)]);
      }
    });
  }

  // The query as Spark's UI endpoints read it: every name and value URL-decoded once more
  // (decode_url_parameter); what URLDecoder refuses is a 400 naming the parameter.
  QueryParams url_decoded_query() const {
    QueryParams out;
    for (const auto& [name, values] : path_.query) {
      auto decoded_name = decode_url_parameter(name);
      if (!decoded_name) throw RequestError{400, "Bad parameter name \"" + name + "\" (a '%' not followed by two hex digits)"};
      for (const std::string& value : values) {
        auto decoded = decode_url_parameter(value);
        if (!decoded) {
          throw RequestError{400, "Bad value for parameter \"" + name + "\": \"" + value +
                                      "\" (a '%' not followed by two hex digits)"};
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
  void task_table(JsonWriter& w, const model::AppModel& m, const model::StageAttempt& s) {
    const QueryParams query = url_decoded_query();
    const Params table(query);
    const std::string records_total = table.required_text("numTasks");
    const int32_t num_tasks = table.required_int32("numTasks");
    const std::string search = table.text("search[value]").value_or("");
    std::string column = table.required_text("columnNameToSort");
    if (java_lower_case(column) == "logs") column = "Index";
    const bool ascending = java_lower_case(table.text("order[0][dir]").value_or("")) == "asc";
    int32_t start = 0;
    int32_t length = num_tasks;
    if (search.empty()) {
      start = table.required_int32("start");
      length = table.required_int32("length");
    }
    const std::optional<TaskSortIndex> index = task_sort_index_of_column(column);
    if (!index) throw RequestError{400, "Bad value for parameter \"columnNameToSort\": \"" + column + "\" (not a column of the task table)"};
    // The History Server's store refuses to list fewer than one task (a 500 there).
    if (length < 1) {
      const std::string name = search.empty() ? "length" : "numTasks";
      throw RequestError{400, "Bad value for parameter \"" + name + "\": \"" + std::to_string(length) +
                                  "\" (expected an integer >= 1)"};
    }
    const auto tasks = tasks_of(s);
    const std::vector<const TaskRecord*> sorted = tasks_sorted_by(*tasks, *index, ascending);
    const auto first = static_cast<size_t>(std::clamp<int64_t>(start, 0, static_cast<int64_t>(sorted.size())));
    std::vector<const TaskRecord*> rows(sorted.begin() + static_cast<std::ptrdiff_t>(first),
                                        sorted.begin() + static_cast<std::ptrdiff_t>(
                                                             std::min<size_t>(sorted.size(), first + static_cast<size_t>(length))));
    std::string records_filtered = records_total;
    if (!search.empty() && !rows.empty()) {
      const std::string wanted = java_lower_case(search);
      std::vector<const TaskRecord*> found;
      for (const TaskRecord* t : rows) {
        if (task_matches_search(*t, wanted)) found.push_back(t);
      }
      records_filtered = std::to_string(found.size());
      rows.clear();
      if (!found.empty()) {
        const auto [from, to] = scala_slice(found.size(), table.required_int32("start"), table.required_int32("length"));
        rows.assign(found.begin() + static_cast<std::ptrdiff_t>(from), found.begin() + static_cast<std::ptrdiff_t>(to));
      }
    }
    SortedObject out(w);
    out.member("aaData", [&m, &rows](JsonWriter& rw) {
      rw.array([&] {
        for (const TaskRecord* t : rows) write_task(rw, m, *t);
      });
    });
    out.field("recordsTotal", records_total);
    out.field("recordsFiltered", records_filtered);
    out.write();
  }

  // sql/sqlTable: the SQL page's DataTables request (SqlResource.sqlTable). A groupSubExecution
  // that is not a boolean is the default, as Spark reads it; draw, start and length must be Ints.
  void sql_table(JsonWriter& w, const model::AppModel& m) const {
    const QueryParams query = url_decoded_query();
    const Params table(query);
    SqlTableQuery q;
    q.draw = table.int32("draw").value_or(0);
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
    q.start = table.int32("start").value_or(0);
    q.length = table.int32("length").value_or(20);
    write_sql_table(w, m, q);
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

  void storage(JsonWriter& w, const model::AppModel& m, const std::vector<std::string>& r) const {
    if (r.size() == 2) {
      w.array([&] {
        for (const auto& [id, rdd] : m.rdds) {
          if (rdd.num_cached_partitions > 0) write_rdd_storage(w, rdd);
        }
      });
      return;
    }
    if (r.size() == 3) {
      const int64_t id = parse_id(r[2], "rdd");
      auto it = m.rdds.find(id);
      if (it == m.rdds.end() || !it->second.is_cached()) throw RequestError{404, "no rdd found w/ id " + r[2]};
      return write_rdd_storage(w, it->second);
    }
    throw RequestError{404, "unknown resource: /" + path_text()};
  }

  void sql(JsonWriter& w, const model::AppModel& m, const std::vector<std::string>& r) {
    const bool details = params_.flag("details", true);
    const bool plan = params_.flag("planDescription", true);
    // The plan metrics' values, read from the log's tasks on the first request that shows them.
    std::shared_ptr<const SqlMetricValues> values;
    if (details && !m.sql.empty()) values = take(sql_metrics_.get(*log_, logs_.confinement()));
    auto values_of = [&](const model::SqlExecution& x) { return values ? values->of(x.execution_id) : nullptr; };
    if (r.size() == 2) {
      const model::SqlExecution* x = m.sql_execution(parse_id(r[1], "execution id"));
      if (x == nullptr) throw RequestError{404, "unknown query execution id: " + r[1]};
      return write_sql_execution(w, m, *x, details, plan, values_of(*x));
    }
    // Spark 4's list: every execution unless a length above 0 asks for a page (a negative offset
    // starts at the first).
    const int64_t length = params_.integer("length", -1);
    const int64_t offset = length > 0 ? std::max<int64_t>(params_.integer("offset", 0), 0) : 0;
    const int64_t end = length > 0 ? offset + length : std::numeric_limits<int64_t>::max();
    w.array([&] {
      for (int64_t i = offset; i < static_cast<int64_t>(m.sql.size()) && i < end; ++i) {
        const model::SqlExecution& x = m.sql[static_cast<size_t>(i)];
        write_sql_execution(w, m, x, details, plan, values_of(x));
      }
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

  RestResponse logs_zip(const std::vector<std::string>& log_paths) const {
    auto zip = EventLogZip::open(log_paths, logs_.confinement());
    if (!zip) throw RequestError{status_for(zip.error()), zip.error().message()};
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
    return error_response({405, "method " + std::string(method) + " not allowed: the REST API is read-only (GET)"});
  }
  RestPath parsed = parse_rest_path(path);
  parsed.query = query;
  try {
    Request request(logs_, tasks_, sql_metrics_, responses_, parsed, parsed.query);
    return request.answer();
  } catch (const RequestError& error) {
    return error_response(error);
  } catch (const std::exception& e) {
    return error_response({500, std::string("internal error: ") + e.what()});
  }
}

RestResponse with_body_written(RestResponse response) {
  if (!response.write_body) return response;
  std::string body;
  const Status written = response.write_body([&body](std::string_view bytes) {
    body.append(bytes);
    return true;
  });
  response.write_body = nullptr;
  if (!written.ok()) return error_response({status_for(written), written.message()});
  response.body = std::move(body);
  return response;
}

RestResponse RestRouter::handle(std::string_view method, std::string_view target) const {
  const size_t q = target.find('?');
  const QueryParams query = q == std::string_view::npos ? QueryParams{} : parse_query_string(target.substr(q + 1));
  return handle(method, target.substr(0, q), query);
}

}  // namespace sf::server

#include "server/dashboard/parse_jobs.h"

#include "fetch/history_server_request.h"

namespace sf::server {

namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kFinishedJobsKept = 256;

}  // namespace

struct ParseJobs::Job {
  std::string id;
  std::string log;
  uint64_t order = 0;
  Clock::time_point started = Clock::now();
  // Guarded by ParseJobs::mutex_.
  ParseSnapshot::State state = ParseSnapshot::State::kQueued;
  uint64_t bytes_done = 0;
  uint64_t bytes_total = 0;
  uint64_t lines = 0;
  std::optional<Clock::time_point> ended;
  std::optional<Clock::time_point> reading_since;  // when this state's bytes started to count
  std::string error_code;
  std::string error_message;
};

std::string_view to_string(ParseSnapshot::State state) {
  switch (state) {
    case ParseSnapshot::State::kQueued: return "queued";
    case ParseSnapshot::State::kFetching: return "fetching";
    case ParseSnapshot::State::kParsing: return "parsing";
    case ParseSnapshot::State::kDone: return "done";
    case ParseSnapshot::State::kFailed: return "failed";
  }
  return "failed";
}

std::string error_code_of(const Status& status) {
  if (auto shs = fetch::history_server_error_of(status)) return std::string(fetch::to_string(*shs));
  switch (status.code()) {
    case StatusCode::kNotFound:
    case StatusCode::kOutsideRoot: return "not-found";
    case StatusCode::kInvalidArgument:
    case StatusCode::kCorruption:
    case StatusCode::kUnsupported: return "unreadable-log";
    case StatusCode::kLimitExceeded: return "too-large";
    case StatusCode::kCancelled: return "cancelled";
    default: return "io-error";
  }
}

ParseJobs::ParseJobs(catalog::LogCatalog& logs, unsigned threads, size_t max_waiting, OnDone on_done)
    : logs_(logs), on_done_(std::move(on_done)), pool_(threads == 0 ? 1 : threads, max_waiting) {}

ParseJobs::~ParseJobs() {
  stopping_.store(true);
  pool_.finish();
}

std::shared_ptr<ParseJobs::Job> ParseJobs::new_job_locked(const std::string& log) {
  auto job = std::make_shared<Job>();
  job->order = next_;
  job->id = "p" + std::to_string(next_++);
  job->log = log;
  // Keep every job in flight and the latest finished ones.
  size_t finished = 0;
  for (const auto& [id, j] : jobs_) finished += j->ended ? 1 : 0;
  while (finished >= kFinishedJobsKept) {
    auto oldest = jobs_.end();
    for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
      if (it->second->ended && (oldest == jobs_.end() || it->second->order < oldest->second->order)) oldest = it;
    }
    jobs_.erase(oldest);
    --finished;
  }
  jobs_[job->id] = job;
  return job;
}

Result<ParseSnapshot> ParseJobs::start(Source source) {
  std::shared_ptr<Job> job;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, j] : jobs_) {
      if (j->log == source.log && !j->ended) return snapshot(*j);
    }
    job = new_job_locked(source.log);
  }
  const bool queued = pool_.try_submit([this, job, source = std::move(source)] { run_load(*job, source); });
  std::lock_guard lock(mutex_);
  if (!queued) {
    jobs_.erase(job->id);
    return fail(Status::LimitExceeded("[busy] every reader is taken and the queue is full; try again shortly"));
  }
  return snapshot(*job);
}

Result<ParseSnapshot> ParseJobs::start_fetch(fetch::HistoryServerRequest request, std::filesystem::path destination,
                                             std::string log, fetch::FetchOptions options) {
  std::shared_ptr<Job> job;
  {
    std::lock_guard lock(mutex_);
    job = new_job_locked("");
  }
  Source then;
  then.log = std::move(log);
  then.path = destination.string();
  then.own_file = true;
  const bool queued = pool_.try_submit([this, job, request = std::move(request), destination, options, then] {
    run_fetch(*job, request, destination, options, then);
  });
  std::lock_guard lock(mutex_);
  if (!queued) {
    jobs_.erase(job->id);
    return fail(Status::LimitExceeded("[busy] every reader is taken and the queue is full; try again shortly"));
  }
  return snapshot(*job);
}

void ParseJobs::run_fetch(Job& job, const fetch::HistoryServerRequest& request,
                          const std::filesystem::path& destination, fetch::FetchOptions options, const Source& then) {
  {
    std::lock_guard lock(mutex_);
    job.state = ParseSnapshot::State::kFetching;
    job.reading_since = Clock::now();
  }
  options.cancel = &stopping_;
  options.on_progress = [&](uint64_t done, uint64_t total) {
    std::lock_guard lock(mutex_);
    job.bytes_done = done;
    job.bytes_total = total;
  };
  auto fetched = fetch::fetch_history_server_logs(request, destination, options);
  if (!fetched) {
    std::lock_guard lock(mutex_);
    job.state = ParseSnapshot::State::kFailed;
    job.error_code = error_code_of(fetched.error());
    job.error_message = fetched.error().message();
    job.ended = Clock::now();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    job.log = then.log;
  }
  run_load(job, then);
}

void ParseJobs::run_load(Job& job, const Source& source) {
  {
    std::lock_guard lock(mutex_);
    job.state = ParseSnapshot::State::kParsing;
    job.bytes_done = 0;
    job.bytes_total = 0;
    job.reading_since = Clock::now();
  }
  catalog::LoadRequest request;
  request.cancel = &stopping_;
  request.progress_interval_bytes = 1 << 20;
  request.on_progress = [&](const model::LoadProgress& p) {
    std::lock_guard lock(mutex_);
    job.bytes_done = p.source_bytes_done;
    job.bytes_total = p.source_bytes_total;
    job.lines = p.lines;
  };
  auto loaded = source.own_file ? logs_.load_own_file(source.path, request) : logs_.load(source.path, request);
  Status failure;
  if (loaded) {
    try {
      (*loaded)->analysis_text();  // computed now, so the first page is served at once
    } catch (const std::exception& e) {
      failure = Status::IOError(std::string("the analysis failed: ") + e.what());
    }
  } else {
    failure = loaded.error();
  }
  if (failure.ok() && on_done_) on_done_(source);
  std::lock_guard lock(mutex_);
  job.ended = Clock::now();
  if (!failure.ok()) {
    job.state = ParseSnapshot::State::kFailed;
    job.error_code = error_code_of(failure);
    job.error_message = source.message_filter ? source.message_filter(failure.message()) : failure.message();
    return;
  }
  job.state = ParseSnapshot::State::kDone;
  if (job.bytes_total > 0) job.bytes_done = job.bytes_total;
}

std::optional<ParseSnapshot> ParseJobs::find(const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return std::nullopt;
  return snapshot(*it->second);
}

ParseSnapshot ParseJobs::snapshot(const Job& job) const {
  ParseSnapshot out;
  out.id = job.id;
  out.log = job.log;
  out.state = job.state;
  out.bytes_done = job.bytes_done;
  out.bytes_total = job.bytes_total;
  out.lines = job.lines;
  const auto now = job.ended.value_or(Clock::now());
  out.elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - job.started).count();
  if (!job.ended && job.reading_since && job.bytes_done > 0 && job.bytes_total >= job.bytes_done) {
    const double reading_ms =
        static_cast<double>(std::chrono::duration_cast<std::chrono::milliseconds>(now - *job.reading_since).count());
    const double rate = static_cast<double>(job.bytes_done) / std::max(reading_ms, 1.0);
    out.eta_ms = static_cast<int64_t>(static_cast<double>(job.bytes_total - job.bytes_done) / rate);
  }
  out.error_code = job.error_code;
  out.error_message = job.error_message;
  return out;
}

}  // namespace sf::server

#include "mcp/session.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>

#include "model/load.h"
#include "report/model_json.h"

namespace sf::mcp {

namespace fs = std::filesystem;

namespace {

report::JsonOptions one_line_with_plans() {
  report::JsonOptions options;
  options.indent = -1;
  options.include_plans = true;
  return options;
}

constexpr std::string_view kDownloadDirPrefix = "sparkforensics-mcp-";

}  // namespace

void remove_stale_download_dirs(const fs::path& temp) {
  std::error_code ec;
  for (fs::directory_iterator it(temp, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(kDownloadDirPrefix)) continue;
    const std::string_view rest = std::string_view(name).substr(kDownloadDirPrefix.size());
    pid_t pid = 0;
    const auto [after, parse_ec] = std::from_chars(rest.data(), rest.data() + rest.size(), pid);
    if (parse_ec != std::errc() || after == rest.data() + rest.size() || *after != '-' || pid <= 0) continue;
    struct stat info {};
    if (::lstat(it->path().c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != ::getuid()) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    std::error_code ignored;
    fs::remove_all(it->path(), ignored);
  }
}

McpSession::McpSession(ServerOptions options) : options_(std::move(options)) {}

McpSession::~McpSession() {
  if (download_dir_) {
    std::error_code ignored;
    fs::remove_all(*download_dir_, ignored);
  }
}

Result<McpSession::Source> McpSession::source_of(const LogReference& reference) {
  const int given = !reference.path.empty() + !reference.analysis_id.empty() + reference.history_server.has_value();
  if (given != 1) {
    return fail(Status::InvalidArgument(
        "give exactly one of \"path\" (an event log), \"analysisId\" (from analyze_event_log) or \"historyServer\" "
        "(baseUrl, appId and optional attemptId)"));
  }
  if (!reference.analysis_id.empty()) {
    std::lock_guard lock(mutex_);
    auto it = source_by_id_.find(reference.analysis_id);
    if (it == source_by_id_.end()) {
      return fail(Status::NotFound(fmt::format(
          "no analysis \"{}\" in this session; call analyze_event_log first and use the analysisId it returns",
          reference.analysis_id)));
    }
    return it->second;
  }
  if (reference.history_server) return Source{reference.history_server->logs_url(), reference.history_server};
  if (reference.path == "-") {
    return fail(Status::InvalidArgument("\"-\" (standard input) cannot be read: it carries the protocol"));
  }
  auto real = options_.log_root.resolve(reference.path);
  if (!real) return fail(real.error());
  return Source{real->string(), std::nullopt};
}

std::string McpSession::analysis_id_for(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto [it, inserted] = id_by_key_.try_emplace(key, "");
  if (inserted) it->second = fmt::format("log-{}", id_by_key_.size());
  return it->second;
}

std::shared_ptr<const LoadedLog> McpSession::cached(const std::string& key) {
  std::lock_guard lock(mutex_);
  for (auto it = recent_.begin(); it != recent_.end(); ++it) {
    if ((*it)->source != key) continue;
    recent_.splice(recent_.begin(), recent_, it);
    return recent_.front();
  }
  return nullptr;
}

void McpSession::remember(std::shared_ptr<const LoadedLog> log) {
  std::lock_guard lock(mutex_);
  recent_.push_front(std::move(log));
  while (recent_.size() > std::max<size_t>(1, options_.cached_logs)) recent_.pop_back();
}

// The path load_event_log reads: the log itself, or the History Server zip downloaded to the
// session's folder.
Result<std::string> McpSession::local_copy(const Source& source, ToolContext& context, ProgressSpan span) {
  if (!source.history_server) return source.key;
  fs::path destination;
  {
    std::lock_guard lock(mutex_);
    if (!download_dir_) {
      const fs::path temp = fs::temp_directory_path();
      remove_stale_download_dirs(temp);
      std::string pattern = (temp / fmt::format("{}{}-XXXXXX", kDownloadDirPrefix, ::getpid())).string();
      if (mkdtemp(pattern.data()) == nullptr) {
        return fail(fetch::history_server_status(fetch::HistoryServerError::kWriteFailed,
                                                 "no folder for the download could be created"));
      }
      download_dir_ = fs::path(pattern);
    }
    const auto& request = *source.history_server;
    destination = *download_dir_ / fmt::format("{}-{}{}.zip", ++downloads_, request.app_id,
                                               request.attempt_id ? "_" + *request.attempt_id : "");
  }
  fetch::FetchOptions fetch_options = options_.fetch;
  fetch_options.cancel = context.cancel;
  fetch_options.on_progress = [&](uint64_t done, uint64_t total) {
    if (total == 0) return;
    const double fraction = static_cast<double>(done) / static_cast<double>(total);
    context.report_progress(span.offset + 0.5 * fraction, span.total,
                            fmt::format("downloading {}: {} of {} bytes", source.key, done, total));
  };
  context.log(LogLevel::kInfo, "downloading " + source.key);
  auto fetched = fetch::fetch_history_server_logs(*source.history_server, destination, fetch_options);
  if (!fetched) return fail(fetched.error());
  return fetched->path.string();
}

Result<std::shared_ptr<const LoadedLog>> McpSession::load(const LogReference& reference, ToolContext& context,
                                                          ProgressSpan span) {
  auto source = source_of(reference);
  if (!source) return fail(source.error());
  if (auto hit = cached(source->key)) return hit;

  auto path = local_copy(*source, context, span);
  if (!path) return fail(path.error());
  // A download took the first half of this load's progress.
  const double start = source->history_server ? 0.5 : 0.0;
  model::LoadOptions load_options;
  load_options.cancel = context.cancel;
  // A local log's parts stay inside --log-dir too; a download is our own copy.
  if (!source->history_server) load_options.confinement = options_.log_root;
  load_options.progress_interval_bytes = 4 << 20;
  load_options.on_progress = [&](const model::LoadProgress& p) {
    if (p.source_bytes_total == 0) return;
    const double fraction = static_cast<double>(p.source_bytes_done) / static_cast<double>(p.source_bytes_total);
    context.report_progress(span.offset + start + (1 - start) * std::min(1.0, fraction), span.total,
                            fmt::format("reading {}: {} of {} bytes, {} lines", source->key, p.source_bytes_done,
                                        p.source_bytes_total, p.lines));
  };
  context.log(LogLevel::kInfo, "reading " + source->key);
  auto model = model::load_event_log(*path, load_options);
  if (!model) return fail(model.error());
  if (model->diagnostics.read_error) {
    context.log(LogLevel::kWarning, fmt::format("partial load of {}: {}", source->key, *model->diagnostics.read_error));
  }

  auto log = std::make_shared<LoadedLog>();
  log->analysis_id = analysis_id_for(source->key);
  log->source = source->key;
  log->model = std::move(*model);
  log->analysis = analysis::analyze(log->model);
  // The tools answer from the analysis document itself, so they say what `analyze -f json` says.
  log->document = Json::parse(report::analysis_json(log->model, &log->analysis, one_line_with_plans()));
  {
    std::lock_guard lock(mutex_);
    source_by_id_[log->analysis_id] = *source;
  }
  context.report_progress(span.offset + 1, span.total, "analyzed " + source->key);
  std::shared_ptr<const LoadedLog> shared = std::move(log);
  remember(shared);
  return shared;
}

}  // namespace sf::mcp

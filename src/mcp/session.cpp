#include "mcp/session.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>

namespace sf::mcp {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kDownloadDirPrefix = "sparkforensics-mcp-";

}  // namespace

std::shared_ptr<catalog::LogCatalog> make_log_catalog(io::PathConfinement root, model::LoadOptions load,
                                                      std::shared_ptr<const analysis::AnalysisOptions> analysis) {
  catalog::CatalogOptions options;
  options.root = std::move(root);
  options.max_loaded_logs = 4;
  options.load = std::move(load);  // one call analyzes one log: by default on the default threads
  options.analysis = std::move(analysis);
  return std::make_shared<catalog::LogCatalog>(std::move(options));
}

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

McpSession::McpSession(ServerOptions options) : options_(std::move(options)), stored_results_(options_.store_location) {
  if (options_.catalog == nullptr) options_.catalog = make_log_catalog();
}

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
  auto real = catalog().resolve(reference.path);
  if (!real) return fail(real.error());
  return Source{real->string(), std::nullopt};
}

std::string McpSession::analysis_id_for(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto [it, inserted] = id_by_key_.try_emplace(key, "");
  if (inserted) it->second = fmt::format("log-{}", id_by_key_.size());
  return it->second;
}

// The path the catalogue reads: the log itself, or the History Server zip downloaded to the
// session's folder (once: a later call reads the same copy).
Result<std::string> McpSession::local_copy(const Source& source, ToolContext& context, ProgressSpan span) {
  if (!source.history_server) return source.key;
  fs::path destination;
  {
    std::lock_guard lock(mutex_);
    auto known = download_by_url_.find(source.key);
    std::error_code ec;
    if (known != download_by_url_.end() && fs::is_regular_file(known->second, ec)) return known->second.string();
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
  std::lock_guard lock(mutex_);
  download_by_url_[source.key] = fetched->path;
  return fetched->path.string();
}

Result<NamedLog> McpSession::load(const LogReference& reference, ToolContext& context, ProgressSpan span) {
  auto source = source_of(reference);
  if (!source) return fail(source.error());
  auto path = local_copy(*source, context, span);
  if (!path) return fail(path.error());

  // A download took the first half of this load's progress.
  const double start = source->history_server ? 0.5 : 0.0;
  bool read_here = false;
  catalog::LoadRequest request;
  request.cancel = context.cancel;
  request.progress_interval_bytes = 4 << 20;
  request.on_progress = [&](const model::LoadProgress& p) {
    if (p.source_bytes_total == 0) return;
    const double fraction = static_cast<double>(p.source_bytes_done) / static_cast<double>(p.source_bytes_total);
    context.report_progress(span.offset + start + (1 - start) * std::min(1.0, fraction), span.total,
                            fmt::format("reading {}: {} of {} bytes, {} lines", source->key, p.source_bytes_done,
                                        p.source_bytes_total, p.lines));
  };
  request.on_read = [&] {
    read_here = true;
    context.log(LogLevel::kInfo, "reading " + source->key);
  };
  // A local log is read inside --log-dir, every part of it; a download is our own copy.
  auto loaded = source->history_server ? catalog().load_own_file(*path, request) : catalog().load(*path, request);
  if (!loaded) return fail(loaded.error());
  const auto& read_error = (*loaded)->model().diagnostics.read_error;
  if (read_here && read_error) {
    context.log(LogLevel::kWarning, fmt::format("partial load of {}: {}", source->key, *read_error));
  }

  NamedLog named{analysis_id_for(source->key), source->key, std::move(*loaded)};
  {
    std::lock_guard lock(mutex_);
    source_by_id_[named.analysis_id] = *source;
  }
  context.report_progress(span.offset + 1, span.total, "loaded " + source->key);
  return named;
}

}  // namespace sf::mcp

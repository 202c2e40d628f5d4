#include "catalog/log_catalog.h"

#include <algorithm>
#include <set>

namespace sf::catalog {

namespace fs = std::filesystem;

LogCatalog::LogCatalog(CatalogOptions options) : options_(std::move(options)), loaded_(options_.max_loaded_logs) {}

const analysis::AnalysisOptions& LogCatalog::analysis_options() const {
  static const analysis::AnalysisOptions kDefaults;
  return options_.analysis ? *options_.analysis : kDefaults;
}

Result<fs::path> LogCatalog::resolve(const std::string& path) const { return options_.root.resolve(path); }

// ---------------------------------------------------------------------------------------------
// Listing

LogCatalog::ListingRead LogCatalog::read_listing(const std::string& log_path) {
  auto metadata = read_attempt_file_metadata(log_path, options_.root);
  if (!metadata) return {fail(metadata.error())};
  {
    std::lock_guard lock(mutex_);
    auto it = known_.find(log_path);
    if (it != known_.end() && it->second.listing.same_files(*metadata)) {
      if (it->second.unreadable) return {fail(*it->second.unreadable), false, true};
      return {it->second.listing};
    }
  }
  // Read outside the lock: a slow listing holds up no one else.
  auto attempt = read_attempt_listing(log_path, options_.root);
  std::lock_guard lock(mutex_);
  if (attempt) {
    known_[log_path] = {*attempt, std::nullopt};
  } else {
    known_[log_path] = {std::move(*metadata), attempt.error()};
  }
  return {std::move(attempt), true};
}

void LogCatalog::forget_missing(const std::string& directory, const std::vector<std::string>& present) {
  const std::set<std::string> listed(present.begin(), present.end());
  const fs::path parent(directory);
  std::lock_guard lock(mutex_);
  std::erase_if(known_, [&](const auto& entry) {
    return fs::path(entry.first).parent_path() == parent && !listed.contains(entry.first);
  });
}

Result<RescanReport> LogCatalog::rescan() {
  if (!options_.root.root()) return fail(Status::InvalidArgument("no log directory to list"));
  // Listed under the root's real path: the confinement reads a relative path from the root, so a
  // relative --log-dir listed as given ("logs/app-1") was looked for at logs/logs/app-1.
  const std::string directory = options_.root.root()->string();
  auto listing = io::list_event_logs(directory, options_.root);
  if (!listing) return fail(listing.error());
  forget_missing(directory, listing->logs);
  RescanReport report;
  report.logs = listing->logs.size();
  report.unreadable = listing->refused;

  // Requests keep being served from the previous scan meanwhile.
  std::map<std::string, AttemptListing> fresh;
  for (const std::string& path : listing->logs) {
    ListingRead read = read_listing(path);
    report.read += read.read_now ? 1 : 0;
    if (read.listing) {
      fresh.emplace(path, std::move(*read.listing));
    } else if (!read.known_bad) {
      report.unreadable.push_back(read.listing.error().message());
    }
  }
  std::lock_guard lock(mutex_);
  for (const auto& [path, known_listing] : scanned_) report.removed += fresh.contains(path) ? 0 : 1;
  scanned_ = std::move(fresh);
  return report;
}

std::vector<ApplicationListing> LogCatalog::applications() const {
  std::map<std::string, ApplicationListing> by_id;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [path, listing] : scanned_) {
      ApplicationListing& app = by_id[listing.app_id];
      app.id = listing.app_id;
      app.attempts.push_back(listing);
    }
  }
  std::vector<ApplicationListing> apps;
  for (auto& [id, app] : by_id) {
    std::sort(app.attempts.begin(), app.attempts.end(), [](const AttemptListing& a, const AttemptListing& b) {
      return a.start_time_ms.value_or(-1) > b.start_time_ms.value_or(-1);
    });
    app.name = app.attempts.front().app_name;
    apps.push_back(std::move(app));
  }
  auto end_of = [](const ApplicationListing& app) {
    const AttemptListing& a = app.attempts.front();
    return a.completed ? a.end_time_ms.value_or(-1) : -1;
  };
  std::sort(apps.begin(), apps.end(), [&](const ApplicationListing& a, const ApplicationListing& b) {
    if (end_of(a) != end_of(b)) return end_of(a) > end_of(b);
    return a.id > b.id;
  });
  return apps;
}

Result<AttemptListing> LogCatalog::find(const std::string& app_id, const std::optional<std::string>& attempt_id) const {
  std::vector<AttemptListing> attempts;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [path, listing] : scanned_) {
      if (listing.app_id == app_id) attempts.push_back(listing);
    }
  }
  if (attempts.empty()) return fail(Status::NotFound("no such app: " + app_id));
  if (attempt_id) {
    for (const AttemptListing& a : attempts) {
      if (a.attempt_id == attempt_id) return a;
    }
    return fail(Status::NotFound("unknown app: " + app_id + ", attempt: " + *attempt_id));
  }
  if (attempts.size() == 1) return attempts.front();
  for (const AttemptListing& a : attempts) {
    if (!a.attempt_id) return a;
  }
  std::string ids;
  for (const AttemptListing& a : attempts) {
    if (!ids.empty()) ids += ", ";
    ids += a.attempt_id.value_or("");
  }
  return fail(Status::NotFound("app " + app_id + " has several attempts (" + ids + "): name one, applications/" +
                               app_id + "/<attempt>/..."));
}

Result<io::EventLogListing> LogCatalog::list_logs(const std::string& directory) {
  auto real = options_.root.resolve(directory);
  if (!real) return fail(real.error());
  auto listing = io::list_event_logs(real->string(), options_.root);
  if (!listing) return fail(listing.error());
  forget_missing(real->string(), listing->logs);
  return listing;
}

Result<AttemptListing> LogCatalog::listing(const std::string& log_path) { return read_listing(log_path).listing; }

// ---------------------------------------------------------------------------------------------
// Loaded logs

Result<std::shared_ptr<const LoadedLog>> LogCatalog::load(const std::string& path, const LoadRequest& request) {
  auto real = options_.root.resolve(path);
  if (!real) return fail(real.error());
  return load_real_path(real->string(), options_.root, request);
}

Result<std::shared_ptr<const LoadedLog>> LogCatalog::load_own_file(const std::string& path,
                                                                   const LoadRequest& request) {
  const io::PathConfinement anywhere;
  auto real = anywhere.resolve(path);
  if (!real) return fail(real.error());
  return load_real_path(real->string(), anywhere, request);
}

std::shared_ptr<const LoadedLog> LogCatalog::loaded_if_current(const std::string& path) const {
  return loaded_if_current_in(path, options_.root);
}

std::shared_ptr<const LoadedLog> LogCatalog::own_file_loaded_if_current(const std::string& path) const {
  return loaded_if_current_in(path, io::PathConfinement());
}

std::shared_ptr<const LoadedLog> LogCatalog::loaded_if_current_in(const std::string& path,
                                                                  const io::PathConfinement& confinement) const {
  auto real = confinement.resolve(path);
  if (!real) return nullptr;
  auto metadata = read_attempt_file_metadata(real->string(), confinement);
  if (!metadata) return nullptr;
  return loaded_.peek(real->string(), metadata->files);
}

std::shared_ptr<LogCatalog::ReadProgress> LogCatalog::progress_of(const std::string& real_path) const {
  std::lock_guard lock(mutex_);
  auto it = reads_in_flight_.find(real_path);
  return it == reads_in_flight_.end() ? nullptr : it->second;
}

Result<std::shared_ptr<const LoadedLog>> LogCatalog::load_real_path(const std::string& real_path,
                                                                    const io::PathConfinement& confinement,
                                                                    const LoadRequest& request) {
  // Read on every call, cached or not: it is the version the cache compares, and it checks every
  // part against the confinement again (a part may have become a symlink out since).
  auto metadata = read_attempt_file_metadata(real_path, confinement);
  if (!metadata) return fail(metadata.error());
  const LogFileIdentity& files = metadata->files;

  decltype(loaded_)::Waiting waiting;
  waiting.cancel = request.cancel;
  uint64_t forwarded_bytes = 0;
  if (request.on_progress) {
    waiting.on_tick = [&] {
      const std::shared_ptr<ReadProgress> progress = progress_of(real_path);
      if (progress == nullptr) return;
      model::LoadProgress latest;
      {
        std::lock_guard lock(progress->mutex);
        latest = progress->latest;
      }
      if (latest.source_bytes_done <= forwarded_bytes) return;
      forwarded_bytes = latest.source_bytes_done;
      request.on_progress(latest);
    };
  }
  return loaded_.get(
      real_path, files, [&] { return read_log(real_path, files, confinement, request); }, waiting);
}

Result<LoadedLog> LogCatalog::read_log(const std::string& real_path, const LogFileIdentity& files,
                                       const io::PathConfinement& confinement, const LoadRequest& request) {
  ++logs_read_;
  if (request.on_read) request.on_read();
  auto progress = std::make_shared<ReadProgress>();
  {
    std::lock_guard lock(mutex_);
    reads_in_flight_[real_path] = progress;
  }
  // Gone when the read ends, however it ends.
  struct InFlight {
    LogCatalog& catalog;
    const std::string& path;
    ~InFlight() {
      std::lock_guard lock(catalog.mutex_);
      catalog.reads_in_flight_.erase(path);
    }
  } in_flight{*this, real_path};
  model::LoadOptions load_options = options_.load;
  load_options.confinement = confinement;
  load_options.cancel = request.cancel;
  load_options.progress_interval_bytes = request.progress_interval_bytes;
  load_options.on_progress = [&](const model::LoadProgress& p) {
    {
      std::lock_guard lock(progress->mutex);
      progress->latest = p;
    }
    if (request.on_progress) request.on_progress(p);
  };
  auto model = model::load_event_log(real_path, load_options);
  if (!model) return fail(model.error());
  return LoadedLog(real_path, files, std::move(*model), options_.analysis);
}

}  // namespace sf::catalog

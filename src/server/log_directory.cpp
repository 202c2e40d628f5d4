#include "server/log_directory.h"

#include <algorithm>
#include <set>

#include "io/log_source.h"

namespace sf::server {

LogDirectory::LogDirectory(LogDirectoryOptions options)
    : options_(std::move(options)), models_(options_.max_loaded), tasks_(options_.max_task_stages) {}

uint64_t LogDirectory::version_of(const catalog::AttemptListing& attempt) {
  // Changes whenever the log's files change size or modification time.
  return static_cast<uint64_t>(attempt.last_updated_ms) * 1'000'003u ^ attempt.stored_bytes;
}

io::PathConfinement LogDirectory::confinement() const {
  std::lock_guard lock(mutex_);
  return confinement_;
}

Result<RescanReport> LogDirectory::rescan() {
  auto confinement = io::PathConfinement::to(options_.directory);
  if (!confinement) return fail(confinement.error());
  // Listed under the root's real path: the confinement reads a relative path from the root, so a
  // relative --log-dir listed as given ("logs/app-1") was looked for at logs/logs/app-1.
  auto listing = io::list_event_logs(confinement->root()->string(), *confinement);
  if (!listing) return fail(listing.error());
  const std::vector<std::string>& paths = listing->logs;
  RescanReport report;
  report.logs = paths.size();
  report.unreadable = listing->refused;

  std::map<std::string, catalog::AttemptListing> known;
  std::map<std::string, catalog::AttemptListing> known_unreadable;
  {
    std::lock_guard lock(mutex_);
    known = listings_;
    known_unreadable = unreadable_;
  }
  // Read outside the lock: requests keep being served from the previous listing meanwhile.
  // Files that are not logs are remembered with their metadata, so they are neither read nor
  // reported again until they change.
  std::map<std::string, catalog::AttemptListing> fresh;
  std::map<std::string, catalog::AttemptListing> unreadable;
  for (const std::string& path : paths) {
    auto metadata = catalog::read_attempt_file_metadata(path, *confinement);
    if (!metadata) {
      report.unreadable.push_back(metadata.error().message());
      continue;
    }
    auto it = known.find(path);
    if (it != known.end() && it->second.same_files(*metadata)) {
      fresh.emplace(path, it->second);
      continue;
    }
    auto bad = known_unreadable.find(path);
    if (bad != known_unreadable.end() && bad->second.same_files(*metadata)) {
      unreadable.emplace(path, bad->second);
      continue;
    }
    auto attempt = catalog::read_attempt_listing(path, *confinement);
    ++report.read;
    if (!attempt) {
      report.unreadable.push_back(attempt.error().message());
      unreadable.emplace(path, std::move(*metadata));
      continue;
    }
    fresh.emplace(path, std::move(*attempt));
  }
  for (const auto& [path, known_listing] : known) report.removed += fresh.contains(path) ? 0 : 1;
  std::lock_guard lock(mutex_);
  confinement_ = std::move(*confinement);
  listings_ = std::move(fresh);
  unreadable_ = std::move(unreadable);
  return report;
}

std::vector<catalog::ApplicationListing> LogDirectory::applications() const {
  std::map<std::string, catalog::ApplicationListing> by_id;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [path, listing] : listings_) {
      catalog::ApplicationListing& app = by_id[listing.app_id];
      app.id = listing.app_id;
      app.attempts.push_back(listing);
    }
  }
  std::vector<catalog::ApplicationListing> apps;
  for (auto& [id, app] : by_id) {
    std::sort(app.attempts.begin(), app.attempts.end(),
              [](const catalog::AttemptListing& a, const catalog::AttemptListing& b) {
      return a.start_time_ms.value_or(-1) > b.start_time_ms.value_or(-1);
    });
    app.name = app.attempts.front().app_name;
    apps.push_back(std::move(app));
  }
  auto end_of = [](const catalog::ApplicationListing& app) {
    const catalog::AttemptListing& a = app.attempts.front();
    return a.completed ? a.end_time_ms.value_or(-1) : -1;
  };
  std::sort(apps.begin(), apps.end(), [&](const catalog::ApplicationListing& a, const catalog::ApplicationListing& b) {
    if (end_of(a) != end_of(b)) return end_of(a) > end_of(b);
    return a.id > b.id;
  });
  return apps;
}

Result<catalog::AttemptListing> LogDirectory::find(const std::string& app_id,
                                          const std::optional<std::string>& attempt_id) const {
  std::vector<catalog::AttemptListing> attempts;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [path, listing] : listings_) {
      if (listing.app_id == app_id) attempts.push_back(listing);
    }
  }
  if (attempts.empty()) return fail(Status::NotFound("no such app: " + app_id));
  if (attempt_id) {
    for (const catalog::AttemptListing& a : attempts) {
      if (a.attempt_id == attempt_id) return a;
    }
    return fail(Status::NotFound("unknown app: " + app_id + ", attempt: " + *attempt_id));
  }
  if (attempts.size() == 1) return attempts.front();
  for (const catalog::AttemptListing& a : attempts) {
    if (!a.attempt_id) return a;
  }
  std::string ids;
  for (const catalog::AttemptListing& a : attempts) {
    if (!ids.empty()) ids += ", ";
    ids += a.attempt_id.value_or("");
  }
  return fail(Status::NotFound("app " + app_id + " has several attempts (" + ids + "): name one, applications/" +
                               app_id + "/<attempt>/..."));
}

Result<std::shared_ptr<const model::AppModel>> LogDirectory::model(const catalog::AttemptListing& attempt) {
  return models_.get(attempt.log_path, version_of(attempt), [&]() {
    model::LoadOptions load_options;
    load_options.threads = options_.load_threads;
    load_options.confinement = confinement();
    return model::load_event_log(attempt.log_path, load_options);
  });
}

Result<std::shared_ptr<const StageTasks>> LogDirectory::stage_tasks(const catalog::AttemptListing& attempt,
                                                                    int64_t stage_id,
                                                                    int32_t stage_attempt_id) {
  return tasks_.get({attempt.log_path, stage_id, stage_attempt_id}, version_of(attempt), [&]() {
    return load_stage_tasks(attempt.log_path, stage_id, stage_attempt_id, options_.task_limits, nullptr,
                            confinement());
  });
}

}  // namespace sf::server

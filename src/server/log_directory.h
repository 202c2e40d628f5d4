// A History Server log directory: the applications it holds, listed from file metadata and each
// log's first events, and their full models and stage tasks, loaded on demand.
//
// rescan() lists the directory again: a new log is read for its listing, a log whose size or
// modification time changed is read again (and its cached model dropped on next use), a log
// that disappeared is forgotten. Models are cached up to `max_loaded` (least recently used
// evicted), stage task tables up to `max_task_stages`; see catalog::LruLoadingCache for what a slow load
// blocks (only requests for that same log).
//
// Confinement: a log (or a part of one) that resolves outside the directory, through a symlink,
// is refused and reported as unreadable; it is never listed, loaded or downloaded.
//
// Thread-safe: rescan() may run while requests read.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "common/status.h"
#include "model/app_model.h"
#include "model/load.h"
#include "catalog/app_listing.h"
#include "catalog/lru_loading_cache.h"
#include "server/stage_tasks.h"

namespace sf::server {

struct LogDirectoryOptions {
  std::string directory;
  size_t max_loaded = 8;       // full models kept in memory
  size_t max_task_stages = 4;  // stage task tables kept in memory
  StageTaskLimits task_limits;
  unsigned load_threads = 1;  // decoding threads per model load (requests already run in parallel)
};

struct RescanReport {
  size_t logs = 0;  // event logs in the directory
  size_t read = 0;  // listings read this time (new or changed)
  size_t removed = 0;
  // "path: why", for files that could not be listed; each is reported once, until it changes.
  std::vector<std::string> unreadable;
};

class LogDirectory {
 public:
  explicit LogDirectory(LogDirectoryOptions options);

  const LogDirectoryOptions& options() const { return options_; }

  // Lists the directory again (see above). An error only when the directory cannot be read.
  Result<RescanReport> rescan();

  // Every application, as the History Server orders them: by its newest attempt's end time,
  // latest first (ties by id, descending); attempts newest start first.
  std::vector<catalog::ApplicationListing> applications() const;

  // The attempt an /applications/<id>[/<attempt>] path names. Without an attempt id the
  // application's only attempt, or its attempt without an id. NotFound names what is missing.
  Result<catalog::AttemptListing> find(const std::string& app_id, const std::optional<std::string>& attempt_id) const;

  // The attempt's model, loaded if it is not cached (or its log changed since).
  Result<std::shared_ptr<const model::AppModel>> model(const catalog::AttemptListing& attempt);

  // The tasks of one stage attempt of the attempt's log, read if not cached.
  Result<std::shared_ptr<const StageTasks>> stage_tasks(const catalog::AttemptListing& attempt, int64_t stage_id,
                                                        int32_t stage_attempt_id);

  size_t loaded_models() const { return models_.size(); }

  // The log directory as the last rescan resolved it: every log, every part of one and every
  // file a download reads must lie inside it once symlinks are resolved.
  io::PathConfinement confinement() const;

 private:
  static uint64_t version_of(const catalog::AttemptListing& attempt);

  LogDirectoryOptions options_;
  mutable std::mutex mutex_;
  io::PathConfinement confinement_;
  std::map<std::string, catalog::AttemptListing> listings_;    // by log path
  std::map<std::string, catalog::AttemptListing> unreadable_;  // files that are not logs: their metadata only
  catalog::LruLoadingCache<std::string, model::AppModel> models_;
  catalog::LruLoadingCache<std::tuple<std::string, int64_t, int32_t>, StageTasks> tasks_;
};

}  // namespace sf::server

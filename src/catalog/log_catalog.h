// The event logs a front end may read, and those it has loaded: what `serve`, `mcp` and the
// dashboard stand on, one catalogue per process.
//
// Paths: every path is resolved through the catalogue's confinement (io::PathConfinement: the
// --log-dir root, "..", every symlink resolved); a log outside it, or a log directory with a
// part outside it, is refused with OutsideRoot however it is reached (listed, loaded, or asked
// for by a path), and the check is made again on every load. Without a root every path is
// accepted (MCP without --log-dir).
//
// Listing, as the History Server's scan: rescan() lists the root; applications() and find()
// answer from the last rescan. list_logs() and listing() list any directory inside the root a
// log at a time (MCP's pages). Either way a log's listing (AttemptListing: its first events and
// its end) is read once per version of its files.
//
// Loaded logs: load() hands out a LoadedLog (the model; the analysis and its document on first
// use) from one LRU of at most `max_loaded_logs`, keyed by the log's real path and versioned by
// the identity of its files (LogFileIdentity, read again on every call: a log rewritten, appended
// to or given a new part is read again). A log is read once even when several callers ask at
// once: the others wait for that read, are told its progress, and may stop waiting.
//
// Thread-safe: every method may be called from any thread, rescan() while loads and reads go on.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "catalog/app_listing.h"
#include "catalog/loaded_log.h"
#include "catalog/lru_loading_cache.h"
#include "common/status.h"
#include "io/log_source.h"
#include "io/path_confinement.h"
#include "model/load.h"

namespace sf::catalog {

struct CatalogOptions {
  io::PathConfinement root;    // where logs may be read from (--log-dir); unconfined: anywhere
  size_t max_loaded_logs = 8;  // loaded logs kept in memory, least recently used evicted first
  // Each read's decoding threads and limits; the catalogue sets the confinement, cancellation
  // and progress. One thread by default: a front end's requests already run side by side.
  model::LoadOptions load = one_thread_load();
  // The thresholds every loaded log is analyzed with (a front end's --config); null: the defaults.
  std::shared_ptr<const analysis::AnalysisOptions> analysis;

  static model::LoadOptions one_thread_load() {
    model::LoadOptions options;
    options.threads = 1;
    return options;
  }
};

// One caller's part in a load.
struct LoadRequest {
  // The progress of the read this call waits for: its own, or the one another caller started.
  std::function<void(const model::LoadProgress&)> on_progress;
  uint64_t progress_interval_bytes = 8 << 20;
  // Set from another thread to stop this call with a Cancelled error: its own read stops (and
  // is not cached); a wait for another caller's read stops waiting, that read goes on.
  const std::atomic<bool>* cancel = nullptr;
  // Called, on the calling thread, when this call reads the log itself (it was not in memory).
  std::function<void()> on_read;
};

struct RescanReport {
  size_t logs = 0;  // event logs in the directory
  size_t read = 0;  // listings read this time (new or changed)
  size_t removed = 0;
  // "path: why", for entries that could not be listed; a log that is not one is reported once,
  // until its files change.
  std::vector<std::string> unreadable;
};

class LogCatalog {
 public:
  explicit LogCatalog(CatalogOptions options);
  LogCatalog(const LogCatalog&) = delete;
  LogCatalog& operator=(const LogCatalog&) = delete;

  const CatalogOptions& options() const { return options_; }
  // The thresholds and rate card every loaded log is analyzed with (the defaults when none given).
  const analysis::AnalysisOptions& analysis_options() const;
  const io::PathConfinement& confinement() const { return options_.root; }

  // The real path of `path` (relative paths are read from the root), or why it is refused.
  Result<std::filesystem::path> resolve(const std::string& path) const;

  // --- The History Server's scan of the root.
  // Lists the root again: a new log is read for its listing, a log whose files changed is read
  // again, a log that disappeared is forgotten. An error only when the root cannot be read (or
  // there is none).
  Result<RescanReport> rescan();
  // Every application of the last rescan, as the History Server orders them: by its newest
  // attempt's end time, latest first (ties by id, descending); attempts newest start first.
  std::vector<ApplicationListing> applications() const;
  // The attempt an /applications/<id>[/<attempt>] path names, from the last rescan. Without an
  // attempt id the application's only attempt, or its attempt without an id. NotFound names what
  // is missing.
  Result<AttemptListing> find(const std::string& app_id, const std::optional<std::string>& attempt_id) const;

  // --- One directory inside the root, a log at a time.
  // The logs in `directory` (resolved inside the root), and the entries refused.
  Result<io::EventLogListing> list_logs(const std::string& directory);
  // The listing of one log (a path list_logs gave), read unless its files are unchanged since
  // the last read; a log that is not one answers the same error until it changes.
  Result<AttemptListing> listing(const std::string& log_path);

  // --- Loaded logs.
  // The log at `path` (resolved inside the root), from memory when its files are unchanged.
  Result<std::shared_ptr<const LoadedLog>> load(const std::string& path, const LoadRequest& request = {});
  // The same for a file this program wrote itself outside the root (an MCP History Server
  // download), read without the root's confinement: never call it with a path a client gave.
  Result<std::shared_ptr<const LoadedLog>> load_own_file(const std::string& path, const LoadRequest& request = {});

  // The log at `path` if it is in memory and its files are unchanged; null otherwise. Never
  // reads the log (a stat per part): what a list shows of logs already analyzed.
  std::shared_ptr<const LoadedLog> loaded_if_current(const std::string& path) const;
  // The same for a file this program wrote itself outside the root (as load_own_file reads it).
  std::shared_ptr<const LoadedLog> own_file_loaded_if_current(const std::string& path) const;

  size_t loaded_logs() const { return loaded_.size(); }
  // How many times a log was read in full since the catalogue was made (loads not served from
  // memory and not joined to another caller's read).
  uint64_t logs_read() const { return logs_read_.load(); }

 private:
  // What the catalogue last read of one log's listing: the listing, or only its files' metadata
  // and why it is not a log.
  struct KnownLog {
    AttemptListing listing;
    std::optional<Status> unreadable;
  };
  struct ListingRead {
    Result<AttemptListing> listing;
    bool read_now = false;   // read this time (new or changed), not remembered
    bool known_bad = false;  // remembered as not a log, files unchanged
  };
  // The progress of one read in flight, for the callers waiting for it.
  struct ReadProgress {
    std::mutex mutex;
    model::LoadProgress latest;
  };

  ListingRead read_listing(const std::string& log_path);
  void forget_missing(const std::string& directory, const std::vector<std::string>& present);
  Result<std::shared_ptr<const LoadedLog>> load_real_path(const std::string& real_path,
                                                          const io::PathConfinement& confinement,
                                                          const LoadRequest& request);
  Result<LoadedLog> read_log(const std::string& real_path, const LogFileIdentity& files,
                             const io::PathConfinement& confinement, const LoadRequest& request);
  std::shared_ptr<ReadProgress> progress_of(const std::string& real_path) const;
  std::shared_ptr<const LoadedLog> loaded_if_current_in(const std::string& path,
                                                        const io::PathConfinement& confinement) const;

  const CatalogOptions options_;
  mutable std::mutex mutex_;
  std::map<std::string, KnownLog> known_;                                 // by log path as listed
  std::map<std::string, AttemptListing> scanned_;                         // the last rescan's logs, by path
  std::map<std::string, std::shared_ptr<ReadProgress>> reads_in_flight_;  // by real path
  LruLoadingCache<std::string, LoadedLog, LogFileIdentity> loaded_;
  std::atomic<uint64_t> logs_read_{0};
};

}  // namespace sf::catalog

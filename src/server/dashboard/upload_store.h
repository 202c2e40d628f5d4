// Where `serve` keeps the logs the dashboard brings in: uploaded files, uploaded rolling-log
// folders (eventlog_v2_* only) and History Server downloads, each in a folder of its own under
// one directory this server made (a fresh temporary one by default) and removes when it stops.
//
// An upload is written as it arrives (UploadStore::receive hands out a RequestBody for the HTTP
// layer), to "<name>.part", renamed to its name once whole; a body that never completes leaves
// nothing. Limits: `max_upload_bytes` per upload (a folder's files together), refused 413 at
// the head when the declared length passes it, and as soon as the bytes do otherwise;
// `max_files` per folder; `max_uploads` kept, the oldest removed first. File and folder names
// are checked (letters, digits, '.', '_', '-', '+'; no leading '.'), so nothing is written
// outside the upload's folder.
//
// Uploads are named "u1", "u2", ... and History Server downloads "h1", ...; path() gives the
// log an upload or download holds once complete. Once one has been read as an event log
// (mark_read, when its parse is done), its listing is kept with it for the application list
// (listed()); an upload that is not an event log never gets one, and an evicted one takes its
// listing with it. Thread-safe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "catalog/app_listing.h"
#include "common/status.h"
#include "server/http/http_server.h"

namespace sf::server {

struct UploadLimits {
  uint64_t max_upload_bytes = uint64_t{2} << 30;  // 2 GiB per upload (a folder's files together)
  size_t max_files = 10000;                       // files in one folder upload
  size_t max_uploads = 64;                        // uploads and downloads kept; the oldest go first
};

class UploadStore {
 public:
  // Makes a fresh directory under `parent` (the system's temporary directory when empty).
  static Result<std::unique_ptr<UploadStore>> create(const std::filesystem::path& parent, UploadLimits limits);
  ~UploadStore();  // removes the directory and everything in it
  UploadStore(const UploadStore&) = delete;
  UploadStore& operator=(const UploadStore&) = delete;

  const std::filesystem::path& directory() const { return directory_; }
  const UploadLimits& limits() const { return limits_; }

  // A body to receive the file `name`: a new upload, or, with `folder` (an eventlog_v2_* name),
  // one more file of the folder upload `upload` ("" starts a new one). Refused (with a 400 or
  // 413 answer) when a name is not accepted, the upload is unknown or full, or the declared
  // length passes the limit. finish() answers {"upload": "u1", "log": "~u1", "bytes": N}.
  BodyHandling receive(const std::string& name, const std::string& folder, const std::string& upload,
                       std::optional<uint64_t> declared_bytes);

  // A folder for one History Server download ("h1", ...), and the file to save it in.
  struct Download {
    std::string id;
    std::filesystem::path file;
  };
  Result<Download> reserve_download(const std::string& app_id);

  // The log an upload ("u1") or download ("h1") holds, once it has at least one complete file.
  std::optional<std::filesystem::path> path(const std::string& id) const;

  // Marks upload or download `id` as read: its listing (catalog::read_attempt_listing, the one
  // the log directory's applications have) is read now and kept, once. An upload that is gone,
  // not complete or not an event log is left unlisted.
  void mark_read(const std::string& id);
  // The uploads and downloads marked read and still kept, newest first.
  struct Listed {
    std::string id;         // "u1", "h1"
    bool download = false;  // a History Server download ("h..."), else an upload ("u...")
    catalog::AttemptListing listing;
  };
  std::vector<Listed> listed() const;

  // The message of a Status about a file in here, without this server's directory in it.
  std::string without_directory(std::string message) const;

 private:
  class Receiver;
  struct Entry {
    std::filesystem::path folder;              // u1/ or h1/
    std::string rolling_folder;                // eventlog_v2_* of a folder upload; "" otherwise
    std::optional<std::filesystem::path> log;  // set once a file is complete
    size_t files = 0;                          // complete or being written
    uint64_t bytes = 0;                        // complete or being written
    uint64_t order = 0;
    std::optional<catalog::AttemptListing> listing;  // set by mark_read
  };

  UploadStore(std::filesystem::path directory, UploadLimits limits);
  std::string new_entry_locked(char kind, const std::string& rolling_folder);
  void evict_locked();
  void commit(const std::string& id, const std::filesystem::path& file, uint64_t bytes, bool complete);

  const std::filesystem::path directory_;
  const UploadLimits limits_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry> entries_;
  uint64_t next_ = 1;
};

}  // namespace sf::server

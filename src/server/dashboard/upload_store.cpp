#include "server/dashboard/upload_store.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <system_error>

namespace sf::server {

namespace fs = std::filesystem;

namespace {

RestResponse error_answer(int status, const std::string& code, const std::string& message) {
  RestResponse out;
  out.status = status;
  out.body = nlohmann::json{{"error", {{"code", code}, {"message", message}}}}.dump();
  return out;
}

BodyHandling refused(int status, const std::string& code, const std::string& message) {
  BodyHandling out;
  out.refusal = error_answer(status, code, message);
  return out;
}

bool is_safe_name(const std::string& name) {
  if (name.empty() || name.size() > 255 || name.front() == '.') return false;
  for (unsigned char c : name) {
    const bool ok = std::isalnum(c) != 0 || c == '.' || c == '_' || c == '-' || c == '+';
    if (!ok) return false;
  }
  return true;
}

std::string limit_text(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

// One file being received: written to "<name>.part" on the event loop, renamed at finish().
class UploadStore::Receiver : public RequestBody {
 public:
  Receiver(UploadStore& store, std::string id, fs::path file, int fd, uint64_t already_bytes)
      : store_(store),
        id_(std::move(id)),
        file_(std::move(file)),
        part_(file_.string() + ".part"),
        fd_(fd),
        already_bytes_(already_bytes) {}
  ~Receiver() override {
    if (fd_ >= 0) ::close(fd_);
    if (!finished_) {
      std::error_code ignored;
      fs::remove(part_, ignored);
      store_.commit(id_, file_, bytes_, false);
    }
  }

  std::optional<RestResponse> write(std::string_view bytes) override {
    bytes_ += bytes.size();
    if (already_bytes_ + bytes_ > store_.limits_.max_upload_bytes) {
      return error_answer(413, "too-large",
                          "the upload passed the limit of " + limit_text(store_.limits_.max_upload_bytes) +
                              " (serve --max-upload-bytes)");
    }
    while (!bytes.empty()) {
      const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        return error_answer(500, "write-failed",
                            "the upload could not be saved (" + std::string(std::strerror(errno)) + ")");
      bytes.remove_prefix(static_cast<size_t>(n));
    }
    return std::nullopt;
  }

  RestResponse finish() override {
    const bool closed = ::close(fd_) == 0;
    fd_ = -1;
    std::error_code error;
    if (closed) fs::rename(part_, file_, error);
    if (!closed || error) return error_answer(500, "write-failed", "the upload could not be saved");
    finished_ = true;
    store_.commit(id_, file_, bytes_, true);
    RestResponse out;
    out.status = 201;
    out.body = nlohmann::json{{"upload", id_}, {"log", "~" + id_}, {"bytes", bytes_}}.dump();
    return out;
  }

 private:
  UploadStore& store_;
  const std::string id_;
  const fs::path file_;
  const fs::path part_;
  int fd_;
  const uint64_t already_bytes_;  // of the folder's other files
  uint64_t bytes_ = 0;
  bool finished_ = false;
};

UploadStore::UploadStore(fs::path directory, UploadLimits limits) : directory_(std::move(directory)), limits_(limits) {}

UploadStore::~UploadStore() {
  std::error_code ignored;
  fs::remove_all(directory_, ignored);
}

Result<std::unique_ptr<UploadStore>> UploadStore::create(const fs::path& parent, UploadLimits limits) {
  std::error_code error;
  const fs::path base = parent.empty() ? fs::temp_directory_path(error) : parent;
  if (error) return fail(Status::IOError("no temporary directory for uploads: " + error.message()));
  std::string pattern = (base / "sparkforensics-uploads-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return fail(
        Status::IOError("cannot make a directory for uploads in " + base.string() + ": " + std::strerror(errno)));
  }
  return std::unique_ptr<UploadStore>(new UploadStore(fs::path(pattern), limits));
}

std::string UploadStore::new_entry_locked(char kind, const std::string& rolling_folder) {
  evict_locked();
  const std::string id = std::string(1, kind) + std::to_string(next_);
  Entry entry;
  entry.folder = directory_ / id;
  entry.rolling_folder = rolling_folder;
  entry.order = next_++;
  entries_.emplace(id, std::move(entry));
  return id;
}

void UploadStore::evict_locked() {
  while (entries_.size() >= limits_.max_uploads) {
    auto oldest = entries_.begin();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->second.order < oldest->second.order) oldest = it;
    }
    std::error_code ignored;
    fs::remove_all(oldest->second.folder, ignored);
    entries_.erase(oldest);
  }
}

BodyHandling UploadStore::receive(const std::string& name, const std::string& folder, const std::string& upload,
                                  std::optional<uint64_t> declared_bytes) {
  if (!is_safe_name(name)) {
    return refused(400, "bad-name",
                   "a file name has letters, digits, '.', '_', '-' and '+' only, and does not start with '.'");
  }
  if (!folder.empty() && (folder.rfind("eventlog_v2_", 0) != 0 || !is_safe_name(folder))) {
    return refused(400, "not-a-rolling-log",
                   "only a rolling event log folder (eventlog_v2_<app id>) can be uploaded as a folder; choose a "
                   "single event log file instead");
  }
  if (declared_bytes && *declared_bytes > limits_.max_upload_bytes) {
    return refused(413, "too-large",
                   "the upload is larger than the limit of " + limit_text(limits_.max_upload_bytes) +
                       " (serve --max-upload-bytes)");
  }
  std::lock_guard lock(mutex_);
  std::string id = upload;
  if (id.empty()) {
    id = new_entry_locked('u', folder);
  } else {
    auto it = entries_.find(id);
    if (it == entries_.end() || id.front() != 'u' || it->second.rolling_folder.empty() ||
        it->second.rolling_folder != folder) {
      return refused(404, "no-such-upload", "no folder upload " + id + " of " + (folder.empty() ? "-" : folder));
    }
  }
  Entry& entry = entries_.at(id);
  if (entry.files >= (folder.empty() ? 1 : limits_.max_files)) {
    return refused(413, "too-many-files",
                   "a folder upload takes at most " + std::to_string(limits_.max_files) + " files");
  }
  if (declared_bytes && entry.bytes + *declared_bytes > limits_.max_upload_bytes) {
    return refused(413, "too-large",
                   "the upload is larger than the limit of " + limit_text(limits_.max_upload_bytes) +
                       " (serve --max-upload-bytes)");
  }
  const fs::path dir = folder.empty() ? entry.folder : entry.folder / folder;
  std::error_code error;
  fs::create_directories(dir, error);
  const fs::path file = dir / name;
  const int fd =
      error ? -1
            : ::open((file.string() + ".part").c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0 || fs::exists(file)) {
    if (fd >= 0) {
      ::close(fd);
      fs::remove(file.string() + ".part", error);
    }
    return refused(409, "duplicate-file", "the upload already has a file named " + name);
  }
  ++entry.files;
  const uint64_t already = entry.bytes;
  BodyHandling out;
  out.body = std::make_unique<Receiver>(*this, id, file, fd, already);
  return out;
}

void UploadStore::commit(const std::string& id, const fs::path& file, uint64_t bytes, bool complete) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return;  // evicted meanwhile
  Entry& entry = it->second;
  if (!complete) {
    if (entry.files > 0) --entry.files;
    return;
  }
  entry.bytes += bytes;
  entry.log = entry.rolling_folder.empty() ? file : entry.folder / entry.rolling_folder;
}

Result<UploadStore::Download> UploadStore::reserve_download(const std::string& app_id) {
  std::lock_guard lock(mutex_);
  const std::string id = new_entry_locked('h', "");
  Entry& entry = entries_.at(id);
  std::error_code error;
  fs::create_directories(entry.folder, error);
  if (error) return fail(Status::IOError("cannot make a folder for the download: " + error.message()));
  entry.files = 1;
  entry.log = entry.folder / ("eventLogs-" + app_id + ".zip");
  return Download{id, *entry.log};
}

std::optional<fs::path> UploadStore::path(const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return std::nullopt;
  return it->second.log;
}

void UploadStore::mark_read(const std::string& id) {
  std::optional<fs::path> log;
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(id);
    if (it == entries_.end() || it->second.listing) return;
    log = it->second.log;
  }
  if (!log) return;
  // Read outside the lock (a few reads of the log's head and tail); the file is this server's
  // own, written once, so no confinement applies.
  auto listing = catalog::read_attempt_listing(log->string());
  if (!listing) return;
  std::lock_guard lock(mutex_);
  auto it = entries_.find(id);
  if (it == entries_.end() || it->second.log != log) return;  // evicted meanwhile
  it->second.listing = std::move(*listing);
}

std::vector<UploadStore::Listed> UploadStore::listed() const {
  std::vector<std::pair<uint64_t, Listed>> found;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, entry] : entries_) {
      if (entry.listing) found.push_back({entry.order, Listed{id, id.front() == 'h', *entry.listing}});
    }
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<Listed> out;
  out.reserve(found.size());
  for (auto& [order, listed] : found) {
    // Removed behind this server's back: not listed as if it could still be opened.
    std::error_code error;
    if (!fs::exists(listed.listing.log_path, error)) continue;
    out.push_back(std::move(listed));
  }
  return out;
}

std::string UploadStore::without_directory(std::string message) const {
  const std::string prefix = directory_.string() + "/";
  for (size_t at = message.find(prefix); at != std::string::npos; at = message.find(prefix, at)) {
    // "<dir>/u1/name" -> "name"
    size_t end = message.find('/', at + prefix.size());
    if (end == std::string::npos) break;
    message.erase(at, end + 1 - at);
  }
  return message;
}

}  // namespace sf::server

// History Server zip downloads, read with libarchive (zip format only: a History Server never
// sends anything else, and bidding for other formats would only blur error messages).
#include "io/zip_archive.h"

#include <cerrno>
#include <utility>

#include "io/archive_library.h"

namespace sf::io {
namespace {

constexpr size_t kArchiveReadBlockBytes = size_t{1} << 16;

struct ArchiveReadDeleter {
  const ArchiveFunctions* la;
  void operator()(archive* handle) const { la->read_free(handle); }
};
using ArchiveHandle = std::unique_ptr<archive, ArchiveReadDeleter>;

std::string archive_message(const ArchiveFunctions& la, archive* handle) {
  const char* text = la.error_string(handle);
  return text != nullptr ? text : "unknown libarchive error";
}

std::string entry_name(const ArchiveFunctions& la, archive_entry* entry) {
  // The UTF-8 form first: in the C locale libarchive may fail to convert non-ASCII names.
  if (const char* name = la.entry_pathname_utf8(entry); name != nullptr) return name;
  if (const char* name = la.entry_pathname(entry); name != nullptr) return name;
  return {};
}

Result<ArchiveHandle> open_archive(const std::string& path) {
  auto loaded = libarchive();
  if (!loaded) return fail(loaded.error().with_context(path));
  const ArchiveFunctions& la = **loaded;
  ArchiveHandle handle(la.read_new(), ArchiveReadDeleter{&la});
  if (!handle) return fail(Status::IOError(path + ": cannot create a zip reader (out of memory)"));
  la.read_support_format_zip(handle.get());
  if (la.read_open_filename(handle.get(), path.c_str(), kArchiveReadBlockBytes) != ARCHIVE_OK) {
    const int error_number = la.errno_of(handle.get());
    std::string message = path + ": cannot open as a zip archive: " + archive_message(la, handle.get());
    if (error_number == ENOENT || error_number == ENOTDIR) return fail(Status::NotFound(std::move(message)));
    if (error_number == EACCES || error_number == EISDIR || error_number == EIO) {
      return fail(Status::IOError(std::move(message)));
    }
    return fail(Status::Corruption(std::move(message)));
  }
  return handle;
}

// Moves to the next entry; nullptr at the end of the archive.
Result<archive_entry*> next_entry(const ArchiveFunctions& la, archive* handle, const std::string& path,
                                  size_t entries_seen) {
  archive_entry* entry = nullptr;
  const int status = la.read_next_header(handle, &entry);
  if (status == ARCHIVE_EOF) return nullptr;
  if (status == ARCHIVE_OK || status == ARCHIVE_WARN) return entry;
  return fail(Status::Corruption(path + ": zip entry " + std::to_string(entries_seen + 1) +
                                 " has a bad header: " + archive_message(la, handle)));
}

class ZipEntryStream final : public ByteStream {
 public:
  ZipEntryStream(ArchiveHandle handle, std::string path, std::string entry)
      : handle_(std::move(handle)), path_(std::move(path)), entry_(std::move(entry)) {}

  Result<size_t> read(std::span<char> out) override {
    if (!error_.ok()) return fail(error_);
    if (ended_ || out.empty()) return 0;
    const ArchiveFunctions& la = *handle_.get_deleter().la;
    const la_ssize_t got = la.read_data(handle_.get(), out.data(), out.size());
    if (got < 0) {
      error_ = Status::Corruption(path_ + ": zip entry " + entry_ + " at byte " + std::to_string(bytes_read_) + ": " +
                                  archive_message(la, handle_.get()));
      return fail(error_);
    }
    if (got == 0) ended_ = true;
    bytes_read_ += static_cast<uint64_t>(got);
    return static_cast<size_t>(got);
  }

  uint64_t source_bytes_consumed() const override { return bytes_read_; }

 private:
  ArchiveHandle handle_;
  std::string path_;
  std::string entry_;
  uint64_t bytes_read_ = 0;
  bool ended_ = false;
  Status error_;
};

}  // namespace

Result<std::vector<ZipEntry>> list_zip_entries(const std::string& path) {
  auto handle = open_archive(path);
  if (!handle) return fail(handle.error());
  const ArchiveFunctions& la = *handle->get_deleter().la;
  std::vector<ZipEntry> entries;
  for (;;) {
    auto entry = next_entry(la, handle->get(), path, entries.size());
    if (!entry) return fail(entry.error());
    if (*entry == nullptr) break;
    ZipEntry listed;
    listed.name = entry_name(la, *entry);
    listed.size_bytes = la.entry_size_is_set(*entry) ? static_cast<uint64_t>(la.entry_size(*entry)) : 0;
    listed.is_directory = la.entry_filetype(*entry) == AE_IFDIR;
    entries.push_back(std::move(listed));
  }
  return entries;
}

Result<std::unique_ptr<ByteStream>> open_zip_entry(const std::string& path, const std::string& entry_name_wanted) {
  auto handle = open_archive(path);
  if (!handle) return fail(handle.error());
  const ArchiveFunctions& la = *handle->get_deleter().la;
  for (size_t seen = 0;; ++seen) {
    auto entry = next_entry(la, handle->get(), path, seen);
    if (!entry) return fail(entry.error());
    if (*entry == nullptr) break;
    if (entry_name(la, *entry) != entry_name_wanted) continue;
    if (la.entry_filetype(*entry) == AE_IFDIR) {
      return fail(Status::InvalidArgument(path + ": zip entry " + entry_name_wanted + " is a directory"));
    }
    if (la.entry_is_encrypted(*entry)) {
      return fail(Status::Unsupported(path + ": zip entry " + entry_name_wanted + " is encrypted"));
    }
    return std::make_unique<ZipEntryStream>(std::move(*handle), path, entry_name_wanted);
  }
  return fail(Status::NotFound(path + ": no entry " + entry_name_wanted + " in the zip archive"));
}

}  // namespace sf::io

#include "server/log_zip.h"

#include <archive.h>
#include <archive_entry.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

namespace sf::server {

namespace {

namespace fs = std::filesystem;

struct ArchiveCloser {
  void operator()(archive* a) const { archive_write_free(a); }
};

la_ssize_t append_to_string(archive*, void* client, const void* buffer, size_t length) {
  static_cast<std::string*>(client)->append(static_cast<const char*>(buffer), length);
  return static_cast<la_ssize_t>(length);
}

}  // namespace

Result<std::string> zip_event_log(const std::string& log_path, const io::PathConfinement& confinement,
                                  uint64_t max_bytes) {
  std::error_code ec;
  const fs::path root(log_path);
  std::vector<std::pair<fs::path, std::string>> files;  // path on disk, entry name
  // What is read is the real file, once it is known to lie inside the confinement.
  auto confined = [&](const fs::path& path) -> Result<fs::path> {
    if (!confinement.confined()) return path;
    return confinement.resolve(path.string());
  };
  if (auto inside = confined(root); !inside) return fail(inside.error());
  if (fs::is_directory(root, ec)) {
    for (const auto& entry : fs::directory_iterator(root, ec)) {
      if (entry.is_regular_file()) {
        auto real = confined(entry.path());
        if (!real) return fail(real.error());
        files.emplace_back(*real, root.filename().string() + "/" + entry.path().filename().string());
      }
    }
    std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  } else if (fs::is_regular_file(root, ec)) {
    auto real = confined(root);
    if (!real) return fail(real.error());
    files.emplace_back(*real, root.filename().string());
  } else {
    return fail(Status::NotFound(log_path + ": no such event log"));
  }
  uint64_t total = 0;
  for (const auto& [path, name] : files) total += fs::file_size(path, ec);
  if (total > max_bytes) {
    return fail(Status::LimitExceeded(log_path + ": " + std::to_string(total) + " bytes, more than the " +
                                      std::to_string(max_bytes) + " a zip download may hold"));
  }

  std::string out;
  std::unique_ptr<archive, ArchiveCloser> zip(archive_write_new());
  archive_write_set_format_zip(zip.get());
  archive_write_set_bytes_in_last_block(zip.get(), 1);
  if (archive_write_open(zip.get(), &out, nullptr, append_to_string, nullptr) != ARCHIVE_OK) {
    return fail(Status::IOError(std::string("cannot start a zip archive: ") + archive_error_string(zip.get())));
  }
  std::vector<char> buffer(size_t{1} << 20);
  for (const auto& [path, name] : files) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail(Status::IOError(path.string() + ": cannot be read"));
    std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(archive_entry_new(), archive_entry_free);
    archive_entry_set_pathname(entry.get(), name.c_str());
    archive_entry_set_size(entry.get(), static_cast<la_int64_t>(fs::file_size(path, ec)));
    archive_entry_set_filetype(entry.get(), AE_IFREG);
    archive_entry_set_perm(entry.get(), 0644);
    if (archive_write_header(zip.get(), entry.get()) != ARCHIVE_OK) {
      return fail(Status::IOError(name + ": " + archive_error_string(zip.get())));
    }
    while (in) {
      in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      const auto got = in.gcount();
      if (got > 0 && archive_write_data(zip.get(), buffer.data(), static_cast<size_t>(got)) < 0) {
        return fail(Status::IOError(name + ": " + archive_error_string(zip.get())));
      }
    }
  }
  if (archive_write_close(zip.get()) != ARCHIVE_OK) {
    return fail(Status::IOError(std::string("cannot finish the zip archive: ") + archive_error_string(zip.get())));
  }
  return out;
}

}  // namespace sf::server

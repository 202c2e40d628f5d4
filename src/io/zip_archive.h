// Reading .zip archives, as the History Server's /api/v1/applications/<id>/logs returns them.
//
// The archive holds the application's event log files: one file, or a rolling directory
// eventlog_v2_<appId>/ with its parts. Built on libarchive; entries are streamed, not
// extracted to disk.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "io/byte_stream.h"

namespace sf::io {

struct ZipEntry {
  std::string name;         // path inside the archive, '/' separated
  uint64_t size_bytes = 0;  // uncompressed size as the archive records it
  bool is_directory = false;
};

// Lists the entries of the archive at `path`, in archive order.
Result<std::vector<ZipEntry>> list_zip_entries(const std::string& path);

// Opens one entry of the archive for reading. The stream owns its own handle on the archive.
// source_bytes_consumed() reports the entry's uncompressed bytes read so far.
Result<std::unique_ptr<ByteStream>> open_zip_entry(const std::string& path, const std::string& entry_name);

}  // namespace sf::io

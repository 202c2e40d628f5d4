// libarchive, opened when a zip is first read or written (common/lazy_library.h): History Server
// downloads are zips, and serve answers the logs endpoint with one.
#pragma once

#include <archive.h>
#include <archive_entry.h>

#include "common/lazy_library.h"

namespace sf::io {

// One X-macro list laid out by hand: clang-format reflows it differently on each pass.
// clang-format off
#define SF_ARCHIVE_FUNCTIONS(X)                                                                             \
  X(read_new, archive_read_new) X(read_free, archive_read_free)                                            \
  X(read_support_format_zip, archive_read_support_format_zip)                                              \
  X(read_open_filename, archive_read_open_filename) X(read_next_header, archive_read_next_header)          \
  X(read_data, archive_read_data) X(error_string, archive_error_string) X(errno_of, archive_errno)         \
  X(write_new, archive_write_new) X(write_free, archive_write_free) X(write_close, archive_write_close)     \
  X(write_set_format_zip, archive_write_set_format_zip)                                                    \
  X(write_set_bytes_in_last_block, archive_write_set_bytes_in_last_block) X(write_open, archive_write_open) \
  X(write_header, archive_write_header) X(write_data, archive_write_data)                                  \
  X(entry_new, archive_entry_new) X(entry_free, archive_entry_free)                                        \
  X(entry_pathname, archive_entry_pathname) X(entry_pathname_utf8, archive_entry_pathname_utf8)            \
  X(entry_size, archive_entry_size) X(entry_size_is_set, archive_entry_size_is_set)                        \
  X(entry_filetype, archive_entry_filetype) X(entry_is_encrypted, archive_entry_is_encrypted)              \
  X(entry_set_pathname, archive_entry_set_pathname) X(entry_set_filetype, archive_entry_set_filetype)      \
  X(entry_set_perm, archive_entry_set_perm) X(entry_set_size, archive_entry_set_size)
// clang-format on

struct ArchiveFunctions {
  SF_ARCHIVE_FUNCTIONS(SF_LAZY_MEMBER)
};

// The functions, or why libarchive could not be loaded.
Result<const ArchiveFunctions*> libarchive();

}  // namespace sf::io

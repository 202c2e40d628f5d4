// ByteStream: a pull-based source of bytes, the one interface every input layer speaks.
//
// A file, stdin, a zip entry and every decompressor are ByteStreams; decompressors wrap the
// stream of compressed bytes they read from. Streams are single-threaded and owned by whoever
// opened them. Errors carry the stream's display name and the byte offset where they happened.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "common/status.h"

namespace sf::io {

class ByteStream {
 public:
  virtual ~ByteStream() = default;

  // Reads up to out.size() bytes into out and returns how many were read; 0 means the end of
  // the stream. A short read does not mean the end: call again.
  virtual Result<size_t> read(std::span<char> out) = 0;

  // How many bytes of the underlying file (before decompression) have been consumed so far;
  // progress reporting divides this by the file size.
  virtual uint64_t source_bytes_consumed() const = 0;
};

// A stream over an open file descriptor or path. `display_name` is used in error messages.
Result<std::unique_ptr<ByteStream>> open_file_stream(const std::string& path);
std::unique_ptr<ByteStream> stdin_stream();

// A stream that first yields `prefix` and then the rest of `inner`: lets a reader sniff the
// first bytes of a non-seekable stream (stdin) and then hand the whole stream on.
std::unique_ptr<ByteStream> prefixed_stream(std::string prefix, std::unique_ptr<ByteStream> inner);

// A stream over bytes held in memory (tests, zip entries read whole).
std::unique_ptr<ByteStream> memory_stream(std::string bytes);

// Reads the whole stream into a string, stopping with LimitExceeded past max_bytes.
Result<std::string> read_all(ByteStream& stream, size_t max_bytes);

}  // namespace sf::io

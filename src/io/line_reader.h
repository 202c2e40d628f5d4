// LineReader: splits a ByteStream into lines without copying them.
//
// Lines are views into one reusable buffer and stay valid until the next call to next().
// Every view is followed by at least kPaddingBytes readable bytes, so a JSON parser that reads
// ahead (simdjson) can parse it in place. A line longer than the configured maximum is not
// buffered: it is skipped and reported with its length. A final line without a newline is
// returned and flagged, so an in-progress log's cut last line can be told apart.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "common/status.h"
#include "io/byte_stream.h"

namespace sf::io {

struct Line {
  std::string_view text;     // without the newline (and without a trailing '\r')
  uint64_t number = 0;       // 1-based
  uint64_t byte_offset = 0;  // of the first byte of the line in the stream
  bool terminated = true;    // false for a final line with no newline
  bool too_long = false;     // skipped: text is empty, length holds its size
  uint64_t length = 0;
};

class LineReader {
 public:
  static constexpr size_t kPaddingBytes = 64;

  LineReader(ByteStream& stream, size_t max_line_bytes, size_t initial_buffer_bytes = size_t{4} << 20);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line, or nullopt at the end of the stream. When the stream fails, the lines read
  // before the failure are still returned (the unfinished last one as an unterminated line),
  // then nullopt, and error() tells what happened.
  std::optional<Line> next();

  const Status& error() const { return error_; }
  uint64_t bytes_consumed() const { return consumed_offset_; }

 private:
  bool fill();  // reads more into the buffer; false at end or error
  void grow(size_t min_capacity);

  ByteStream& stream_;
  size_t max_line_bytes_;
  std::unique_ptr<char[]> buffer_;
  size_t capacity_ = 0;  // usable bytes, excluding the padding
  size_t begin_ = 0;     // first unconsumed byte
  size_t end_ = 0;       // one past the last valid byte
  size_t scanned_ = 0;   // bytes from begin_ already known to hold no newline
  bool eof_ = false;
  bool skipping_ = false;  // inside an over-long line
  uint64_t skipped_length_ = 0;
  uint64_t skipped_offset_ = 0;
  uint64_t line_number_ = 0;
  uint64_t consumed_offset_ = 0;  // stream offset of buffer_[begin_]
  Status error_;
};

}  // namespace sf::io

// LineBatcher: cuts a log part's bytes into batches of whole lines, the unit the loader decodes
// (on one thread, or on several while it folds them in order).
//
// Two sources:
//   - a plain file, mapped into memory (MappedFile): a batch is a view into the mapping, nothing
//     is copied; pages are handed back to the kernel as batches are recycled, so memory stays
//     bounded by the batches in flight, not by the file;
//   - any ByteStream (a decompressor, stdin, a zip entry): bytes are read into pooled buffers
//     and the unfinished last line of a buffer is carried into the next one.
//
// Every batch's text is followed by at least kPaddingBytes readable bytes, so a JSON parser that
// reads ahead (simdjson) can parse its lines in place. Splitting a batch into lines, and what a
// line is, is split_lines() below; together they give the same lines as LineReader, except
// that a line is "too long" exactly when it is longer than the limit (LineReader decides on
// what it has buffered).
//
// A line too long to buffer (longer than the limit and than a batch) is not buffered: it streams
// past and comes out as a batch of its own with only its length. A line is held at most up to
// the limit, and only while it can be JSON text: one longer than kControlByteCheckBytes that
// holds a control byte is skipped the same way as soon as the byte is seen (a gzip of zeros
// behind a valid start was a 10 GiB line held to the 1 GiB limit, 1.8 GB with the copy made
// to grow it; it is now skipped after 1 MiB). The buffer grows in place (realloc, which moves
// pages rather than copying them), so holding a line costs its length, not one and a half
// times it. When the stream fails, the lines read before the failure still come out (the
// unfinished last one as an unterminated line), then next() returns false and error() says
// what happened.
//
// Thread-safety: next() is called from one thread at a time; recycle() may be called from any
// thread, concurrently with next().
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "io/byte_stream.h"

namespace sf::io {

// A read-only mapping of a whole file. Not copyable; unmapped on destruction.
class MappedFile {
 public:
  // Maps `path`; an error for what cannot be opened, stat'ed or mapped (the caller can fall back
  // to reading the file as a stream). An empty file maps to an empty view.
  static Result<std::unique_ptr<MappedFile>> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view bytes() const { return {data_, size_}; }
  // Asks the kernel to map the pages of [offset, offset + length) now, in one call, instead of
  // one fault per few pages as they are touched. A hint: failures are ignored.
  void prefault(uint64_t offset, uint64_t length) const;
  // Drops the pages wholly before `offset` from this process (they stay in the page cache):
  // what makes a mapped file's resident memory follow the reading position, not the file size.
  void release_before(uint64_t offset);

 private:
  MappedFile(const char* data, size_t size) : data_(data), size_(size) {}
  const char* data_;
  size_t size_;
  uint64_t released_ = 0;
};

// A line longer than this that holds a control byte (below 0x20, other than tab and CR) within
// the limit is skipped unread: no JSON text holds one unescaped (strings escape them; between
// tokens only space, tab, CR and LF may stand), so it can be no event, and holding it up to the
// limit would be memory for nothing. Shorter lines are left to the JSON parser, which says the
// same, so the hot path pays one comparison per line. The check is the same whatever the batch
// size and whether the file is mapped or streamed, so the lines (and the model) are too. Not
// done when the limit is this small or smaller.
inline constexpr size_t kControlByteCheckBytes = size_t{1} << 20;

// The offset of the first byte of `text` that no JSON text holds unescaped (see above), or
// npos.
size_t find_control_byte(std::string_view text);

// A control byte that got a line skipped: where in the line, and which.
struct ControlByte {
  uint64_t offset = 0;
  unsigned char value = 0;
};

// The malloc'd bytes of a batch, grown with realloc.
struct FreeBytes {
  void operator()(char* bytes) const { std::free(bytes); }
};
using BatchBytes = std::unique_ptr<char, FreeBytes>;

struct LineBatch {
  // Whole lines, each ending in '\n' except the last one of the stream when `unterminated`.
  std::string_view text;
  uint64_t byte_offset = 0;   // of text[0] in the (decompressed) stream
  uint64_t source_bytes = 0;  // bytes of the underlying file consumed once this batch was cut
  bool unterminated = false;  // the last line of `text` has no newline (the stream ended)
  // A line too long to buffer, skipped: `text` is empty; the line's length without its newline,
  // and whether a newline ended it (false when the stream ended inside it).
  bool too_long = false;
  uint64_t too_long_length = 0;
  bool too_long_terminated = true;
  // Set when the line was skipped for a control byte before the limit (kControlByteCheckBytes).
  std::optional<ControlByte> too_long_control_byte;

  // Bytes this batch holds (its buffer, padding excluded; 0 for a view into a mapped file).
  size_t held_bytes() const { return capacity_; }

 private:
  friend class LineBatcher;
  BatchBytes buffer_;    // owned bytes (stream batches, and a mapped file's last one)
  size_t capacity_ = 0;  // of buffer_, excluding the padding
};

// One line of a batch, as split_lines() hands it over.
struct BatchLine {
  std::string_view text;     // without the newline (and without a trailing '\r' before it)
  uint64_t index = 0;        // 0-based, within the batch
  uint64_t byte_offset = 0;  // in the stream
  uint64_t length = 0;       // bytes before the newline ('\r' included)
  bool terminated = true;    // false for a final line with no newline
  bool too_long = false;     // skipped: text is empty, length holds its size
  // Why a too_long line was skipped when not for its length: a control byte (kControlByteCheckBytes).
  std::optional<ControlByte> control_byte;
};

// Calls f(const BatchLine&) for every line of `batch`, in order. `max_line_bytes` is the limit
// (a longer line, or a line longer than kControlByteCheckBytes holding a control byte before the
// limit, is handed over as too_long, without its text). Returns the number of lines.
template <class F>
uint64_t split_lines(const LineBatch& batch, size_t max_line_bytes, F&& f);

class LineBatcher {
 public:
  static constexpr size_t kPaddingBytes = 64;
  static constexpr size_t kDefaultBatchBytes = size_t{1} << 20;

  // Over a stream; `stream` must outlive the batcher.
  LineBatcher(ByteStream& stream, size_t max_line_bytes, size_t batch_bytes = kDefaultBatchBytes);
  // Over a mapped file; `file` must outlive the batcher.
  LineBatcher(MappedFile& file, size_t max_line_bytes, size_t batch_bytes = kDefaultBatchBytes);
  ~LineBatcher();
  LineBatcher(const LineBatcher&) = delete;
  LineBatcher& operator=(const LineBatcher&) = delete;

  // Fills `batch` with the next batch (reusing a pooled buffer); false at the end of the stream
  // or after an error (see error()).
  bool next(LineBatch& batch);

  // Hands a batch's buffer back for reuse, and a mapped file's pages before the batch's end back
  // to the kernel. Batches of a mapped file must be recycled in the order next() gave them.
  void recycle(LineBatch& batch);

  const Status& error() const { return error_; }
  // Stream bytes cut into batches so far.
  uint64_t bytes_consumed() const { return offset_; }
  // Bytes of the underlying file consumed so far (before decompression).
  uint64_t source_bytes_consumed() const { return stream_ != nullptr ? stream_->source_bytes_consumed() : offset_; }

 private:
  bool next_from_stream(LineBatch& batch);
  bool next_from_file(LineBatch& batch);
  void take_buffer(LineBatch& batch, size_t min_capacity);
  bool read_more(LineBatch& batch, size_t& filled);  // false at end of stream or error
  // Streams past the rest of a line whose first `held` bytes fill the batch (up to the end of the
  // stream, when it has ended), and makes the batch that line, skipped.
  bool skip_line(LineBatch& batch, uint64_t held, std::optional<ControlByte> control_byte);
  void keep_carry(const char* bytes, size_t size);

  ByteStream* stream_ = nullptr;
  MappedFile* file_ = nullptr;
  size_t max_line_bytes_;
  size_t batch_bytes_;
  uint64_t offset_ = 0;  // stream offset of the next batch's first byte
  // Stream mode: the unfinished line carried over to the next batch.
  BatchBytes carry_;
  size_t carry_size_ = 0;
  size_t carry_capacity_ = 0;
  bool eof_ = false;
  Status error_;

  std::mutex pool_mutex_;
  std::vector<std::pair<BatchBytes, size_t>> pool_;  // buffers and capacities
};

// ---------------------------------------------------------------------------------------------

template <class F>
uint64_t split_lines(const LineBatch& batch, size_t max_line_bytes, F&& f) {
  BatchLine line;
  if (batch.too_long) {
    line.byte_offset = batch.byte_offset;
    line.length = batch.too_long_length;
    line.terminated = batch.too_long_terminated;
    line.too_long = true;
    line.control_byte = batch.too_long_control_byte;
    f(static_cast<const BatchLine&>(line));
    return 1;
  }
  const char* const begin = batch.text.data();
  const char* const end = begin + batch.text.size();
  const char* p = begin;
  uint64_t index = 0;
  while (p < end) {
    const void* found = std::memchr(p, '\n', static_cast<size_t>(end - p));
    const char* line_end = found != nullptr ? static_cast<const char*>(found) : end;
    const auto length = static_cast<size_t>(line_end - p);
    line.index = index++;
    line.byte_offset = batch.byte_offset + static_cast<uint64_t>(p - begin);
    line.length = length;
    line.terminated = found != nullptr;
    line.too_long = length > max_line_bytes;
    line.control_byte.reset();
    if (length > kControlByteCheckBytes && max_line_bytes > kControlByteCheckBytes) [[unlikely]] {
      const size_t at = find_control_byte({p, std::min(length, max_line_bytes)});
      if (at != std::string_view::npos) {
        line.too_long = true;
        line.control_byte = ControlByte{at, static_cast<unsigned char>(p[at])};
      }
    }
    if (line.too_long) {
      line.text = {};
    } else {
      // As LineReader: a trailing '\r' is dropped from a terminated line ("\r\n" endings).
      const bool crlf = found != nullptr && length > 0 && p[length - 1] == '\r';
      line.text = std::string_view(p, crlf ? length - 1 : length);
    }
    f(static_cast<const BatchLine&>(line));
    p = line_end + 1;
  }
  return index;
}

}  // namespace sf::io

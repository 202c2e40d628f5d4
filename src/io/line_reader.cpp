#include "io/line_reader.h"

#include <algorithm>
#include <cstring>

namespace sf::io {

LineReader::LineReader(ByteStream& stream, size_t max_line_bytes, size_t initial_buffer_bytes)
    : stream_(stream), max_line_bytes_(std::max<size_t>(max_line_bytes, 1)) {
  grow(std::max<size_t>(initial_buffer_bytes, 4096));
}

LineReader::~LineReader() = default;

void LineReader::grow(size_t min_capacity) {
  size_t capacity = std::max(capacity_ * 2, min_capacity);
  auto buffer = std::make_unique<char[]>(capacity + kPaddingBytes);
  if (end_ > begin_) std::memcpy(buffer.get(), buffer_.get() + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
  buffer_ = std::move(buffer);
  capacity_ = capacity;
  std::memset(buffer_.get() + capacity_, 0, kPaddingBytes);
}

bool LineReader::fill() {
  if (eof_) return false;
  // Make room: move the unconsumed tail to the front, or grow when it fills the buffer.
  if (begin_ > 0 && (end_ == capacity_ || begin_ > capacity_ / 2)) {
    std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == capacity_) grow(capacity_ * 2);
  auto read = stream_.read(std::span<char>(buffer_.get() + end_, capacity_ - end_));
  if (!read) {
    error_ = read.error();
    eof_ = true;
    return false;
  }
  if (*read == 0) {
    eof_ = true;
    return false;
  }
  end_ += *read;
  return true;
}

std::optional<Line> LineReader::next() {
  for (;;) {
    const char* start = buffer_.get() + begin_;
    const size_t available = end_ - begin_;
    const void* newline = available > scanned_ ? std::memchr(start + scanned_, '\n', available - scanned_) : nullptr;

    if (newline != nullptr) {
      const size_t length = static_cast<const char*>(newline) - start;
      Line line;
      line.number = ++line_number_;
      if (skipping_) {
        line.too_long = true;
        line.length = skipped_length_ + length;
        line.byte_offset = skipped_offset_;
        skipping_ = false;
      } else {
        size_t text_length = length;
        if (text_length > 0 && start[text_length - 1] == '\r') --text_length;
        line.text = std::string_view(start, text_length);
        line.length = length;
        line.byte_offset = consumed_offset_;
      }
      begin_ += length + 1;
      consumed_offset_ += length + 1;
      scanned_ = 0;
      return line;
    }
    scanned_ = available;

    // No newline yet. An over-long line is dropped as it streams past instead of buffered.
    if (skipping_ || available > max_line_bytes_) {
      if (!skipping_) {
        skipping_ = true;
        skipped_length_ = 0;
        skipped_offset_ = consumed_offset_;
      }
      skipped_length_ += available;
      consumed_offset_ += available;
      begin_ = end_;
      scanned_ = 0;
    }

    if (!fill()) {
      if (skipping_) {
        skipping_ = false;
        Line line;
        line.number = ++line_number_;
        line.too_long = true;
        line.terminated = false;
        line.length = skipped_length_;
        line.byte_offset = skipped_offset_;
        return line;
      }
      if (end_ == begin_) return std::nullopt;
      Line line;
      line.number = ++line_number_;
      line.text = std::string_view(buffer_.get() + begin_, end_ - begin_);
      line.length = line.text.size();
      line.byte_offset = consumed_offset_;
      line.terminated = false;
      consumed_offset_ += end_ - begin_;
      begin_ = end_;
      scanned_ = 0;
      // Keep the padding promise for the unterminated view.
      std::memset(buffer_.get() + end_, 0, std::min(kPaddingBytes, capacity_ + kPaddingBytes - end_));
      return line;
    }
  }
}

}  // namespace sf::io

#include "io/line_batches.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace sf::io {

// ---------------------------------------------------------------------------------------------
// MappedFile

namespace {

size_t page_size() {
  static const size_t size = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

std::string errno_text(int error_number) { return std::generic_category().message(error_number); }

// `bytes` with room for `capacity` bytes and the padding after them (zeroed), kept as they were:
// realloc, which for the large buffers of a long line remaps pages instead of copying them, so
// growing never holds the old and the new buffer at once.
BatchBytes resized(BatchBytes bytes, size_t capacity) {
  void* grown = std::realloc(bytes.get(), capacity + LineBatcher::kPaddingBytes);
  if (grown == nullptr) throw std::bad_alloc();
  (void)bytes.release();  // realloc took it
  BatchBytes out(static_cast<char*>(grown));
  std::memset(out.get() + capacity, 0, LineBatcher::kPaddingBytes);
  return out;
}

}  // namespace

size_t find_control_byte(std::string_view text) {
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  const char* p = begin;
  // Eight bytes at a time: a byte below 0x20 sets its high bit in (x - 0x20..) & ~x.
  constexpr uint64_t kLow = 0x2020202020202020ULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  for (; end - p >= 8; p += 8) {
    uint64_t word = 0;
    std::memcpy(&word, p, 8);
    if (((word - kLow) & ~word & kHigh) != 0) break;
  }
  for (; p < end; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c < 0x20 && c != '\t' && c != '\r') return static_cast<size_t>(p - begin);
  }
  return std::string_view::npos;
}

Result<std::unique_ptr<MappedFile>> MappedFile::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(Status::IOError(path + ": cannot open: " + errno_text(errno)));
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    return fail(Status::IOError(path + ": not a regular file that can be mapped"));
  }
  const auto size = static_cast<size_t>(info.st_size);
  if (size == 0) {
    ::close(fd);
    return std::unique_ptr<MappedFile>(new MappedFile(nullptr, 0));
  }
  void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int map_errno = errno;
  ::close(fd);  // the mapping keeps the file
  if (data == MAP_FAILED) return fail(Status::IOError(path + ": cannot map: " + errno_text(map_errno)));
  (void)::madvise(data, size, MADV_SEQUENTIAL);
  return std::unique_ptr<MappedFile>(new MappedFile(static_cast<const char*>(data), size));
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
}

void MappedFile::prefault(uint64_t offset, uint64_t length) const {
#ifdef MADV_POPULATE_READ
  if (data_ == nullptr || offset >= size_) return;
  const uint64_t begin = offset / page_size() * page_size();
  const uint64_t end = std::min<uint64_t>(offset + length, size_);
  (void)::madvise(const_cast<char*>(data_) + begin, end - begin, MADV_POPULATE_READ);
#else
  (void)offset;
  (void)length;
#endif
}

void MappedFile::release_before(uint64_t offset) {
  if (data_ == nullptr) return;
  const uint64_t end = std::min<uint64_t>(offset, size_) / page_size() * page_size();
  if (end <= released_) return;
  (void)::madvise(const_cast<char*>(data_) + released_, end - released_, MADV_DONTNEED);
  released_ = end;
}

// ---------------------------------------------------------------------------------------------
// LineBatcher

LineBatcher::LineBatcher(ByteStream& stream, size_t max_line_bytes, size_t batch_bytes)
    : stream_(&stream),
      max_line_bytes_(std::max<size_t>(max_line_bytes, 1)),
      batch_bytes_(std::max<size_t>(batch_bytes, 4096)) {}

LineBatcher::LineBatcher(MappedFile& file, size_t max_line_bytes, size_t batch_bytes)
    : file_(&file),
      max_line_bytes_(std::max<size_t>(max_line_bytes, 1)),
      batch_bytes_(std::max<size_t>(batch_bytes, 4096)) {}

LineBatcher::~LineBatcher() = default;

bool LineBatcher::next(LineBatch& batch) {
  batch.text = {};
  batch.unterminated = false;
  batch.too_long = false;
  batch.too_long_length = 0;
  batch.too_long_terminated = true;
  batch.too_long_control_byte.reset();
  return file_ != nullptr ? next_from_file(batch) : next_from_stream(batch);
}

void LineBatcher::take_buffer(LineBatch& batch, size_t min_capacity) {
  if (batch.buffer_ != nullptr && batch.capacity_ >= min_capacity) return;
  {
    std::lock_guard lock(pool_mutex_);
    if (batch.buffer_ != nullptr) pool_.emplace_back(std::move(batch.buffer_), batch.capacity_);
    auto it = std::find_if(pool_.begin(), pool_.end(), [&](const auto& entry) { return entry.second >= min_capacity; });
    if (it != pool_.end()) {
      batch.buffer_ = std::move(it->first);
      batch.capacity_ = it->second;
      pool_.erase(it);
      return;
    }
  }
  batch.capacity_ = std::max(min_capacity, batch_bytes_);
  batch.buffer_ = resized(std::move(batch.buffer_), batch.capacity_);
}

void LineBatcher::recycle(LineBatch& batch) {
  if (file_ != nullptr && !batch.too_long) file_->release_before(batch.byte_offset + batch.text.size());
  batch.text = {};
  if (batch.buffer_ == nullptr) return;
  if (batch.capacity_ > 4 * batch_bytes_) {  // grown for a long line: not worth keeping
    batch.buffer_.reset();
    batch.capacity_ = 0;
    return;
  }
  std::lock_guard lock(pool_mutex_);
  pool_.emplace_back(std::move(batch.buffer_), batch.capacity_);
  batch.capacity_ = 0;
}

bool LineBatcher::next_from_file(LineBatch& batch) {
  const std::string_view bytes = file_->bytes();
  if (offset_ >= bytes.size()) return false;
  const uint64_t start = offset_;
  uint64_t end = std::min<uint64_t>(start + batch_bytes_, bytes.size());
  if (end < bytes.size()) {
    // Extend to the end of the line the cut falls in.
    const void* newline = std::memchr(bytes.data() + end, '\n', bytes.size() - end);
    end =
        newline != nullptr ? static_cast<uint64_t>(static_cast<const char*>(newline) - bytes.data()) + 1 : bytes.size();
  }
  // A line here is never too long to hold (it is mapped), so over-long lines are found when the
  // batch is split. Near the end of the file the padding after the text would run past the
  // mapping: the rest of the file is taken into this batch and copied, with zeroed padding.
  if (bytes.size() - end < kPaddingBytes) end = bytes.size();
  batch.byte_offset = start;
  batch.source_bytes = end;
  const auto size = static_cast<size_t>(end - start);
  if (end == bytes.size()) {
    take_buffer(batch, size);
    std::memcpy(batch.buffer_.get(), bytes.data() + start, size);
    std::memset(batch.buffer_.get() + size, 0, kPaddingBytes);
    batch.text = std::string_view(batch.buffer_.get(), size);
  } else {
    file_->prefault(start, size + kPaddingBytes);
    batch.text = bytes.substr(start, size);
  }
  batch.unterminated = size > 0 && batch.text.back() != '\n';
  offset_ = end;
  return true;
}

bool LineBatcher::read_more(LineBatch& batch, size_t& filled) {
  auto read = stream_->read(std::span<char>(batch.buffer_.get() + filled, batch.capacity_ - filled));
  if (!read) {
    error_ = read.error();
    eof_ = true;
    return false;
  }
  if (*read == 0) {
    eof_ = true;
    return false;
  }
  filled += *read;
  return true;
}

void LineBatcher::keep_carry(const char* bytes, size_t size) {
  if (size == 0) return;
  if (carry_capacity_ < size) {
    carry_capacity_ = std::max(size, batch_bytes_);
    carry_ = resized(nullptr, carry_capacity_);
  }
  std::memcpy(carry_.get(), bytes, size);
  carry_size_ = size;
}

bool LineBatcher::skip_line(LineBatch& batch, uint64_t held, std::optional<ControlByte> control_byte) {
  uint64_t length = held;
  const uint64_t line_offset = offset_;
  bool terminated = false;
  for (;;) {
    size_t got = 0;
    if (eof_ || !read_more(batch, got)) break;
    const void* newline = std::memchr(batch.buffer_.get(), '\n', got);
    if (newline != nullptr) {
      const auto upto = static_cast<size_t>(static_cast<const char*>(newline) - batch.buffer_.get());
      length += upto;
      terminated = true;
      keep_carry(batch.buffer_.get() + upto + 1, got - upto - 1);
      break;
    }
    length += got;
  }
  batch.too_long = true;
  batch.too_long_length = length;
  batch.too_long_terminated = terminated;
  batch.too_long_control_byte = control_byte;
  batch.byte_offset = line_offset;
  batch.source_bytes = stream_->source_bytes_consumed();
  offset_ += length + (terminated ? 1 : 0);
  return true;
}

bool LineBatcher::next_from_stream(LineBatch& batch) {
  if (eof_ && carry_size_ == 0) return false;
  take_buffer(batch, std::max(batch_bytes_, carry_size_ + batch_bytes_ / 2));
  size_t filled = 0;
  if (carry_size_ > 0) {
    std::memcpy(batch.buffer_.get(), carry_.get(), carry_size_);
    filled = carry_size_;
    carry_size_ = 0;
  }
  size_t scanned = 0;          // bytes of the buffer known to hold no newline
  size_t control_checked = 0;  // bytes of the buffer's one line checked for a control byte
  // A pooled buffer may be larger than a batch: fill a batch's worth past the carried line.
  size_t fill_limit = std::min(batch.capacity_, std::max(batch_bytes_, filled + batch_bytes_ / 2));
  for (;;) {
    // Fill the buffer, then cut after its last newline.
    while (!eof_ && filled < fill_limit) {
      if (!read_more(batch, filled)) break;
    }
    const char* data = batch.buffer_.get();
    const void* last_newline = filled > scanned ? ::memrchr(data + scanned, '\n', filled - scanned) : nullptr;
    if (last_newline != nullptr) {
      const auto cut = static_cast<size_t>(static_cast<const char*>(last_newline) - data) + 1;
      // Carry the unfinished line over.
      const size_t rest = filled - cut;
      keep_carry(data + cut, rest);
      // At the end of the stream a carried-over line is all that is left: it goes out with
      // this batch if it fits (it is the unterminated last line).
      if (eof_ && rest > 0 && rest <= max_line_bytes_) {
        carry_size_ = 0;
        batch.unterminated = true;
        batch.text = std::string_view(data, filled);
      } else {
        batch.text = std::string_view(data, cut);
      }
      break;
    }
    scanned = filled;
    // The buffer holds part of one line: past kControlByteCheckBytes, a control byte in it means
    // it is no JSON text, and it is skipped now rather than held up to the limit.
    std::optional<ControlByte> control_byte;
    if (filled > kControlByteCheckBytes && max_line_bytes_ > kControlByteCheckBytes) {
      const size_t check_end = std::min(filled, max_line_bytes_);
      if (control_checked < check_end) {
        const size_t at = find_control_byte({data + control_checked, check_end - control_checked});
        if (at != std::string_view::npos) {
          control_byte = ControlByte{control_checked + at, static_cast<unsigned char>(data[control_checked + at])};
        }
        control_checked = check_end;
      }
    }
    if (eof_) {
      // No newline left: the last line of the stream, unterminated.
      if (filled == 0) return false;
      if (filled > max_line_bytes_ || control_byte) return skip_line(batch, filled, control_byte);
      batch.unterminated = true;
      batch.text = std::string_view(data, filled);
      break;
    }
    // Let an over-long line stream past, or grow the buffer (in place) and read on.
    if (filled > max_line_bytes_ || control_byte) return skip_line(batch, filled, control_byte);
    const size_t new_capacity =
        std::min(std::max(batch.capacity_ * 2, filled + batch_bytes_), max_line_bytes_ + batch_bytes_);
    batch.buffer_ = resized(std::move(batch.buffer_), new_capacity);
    batch.capacity_ = new_capacity;
    fill_limit = new_capacity;
  }
  batch.byte_offset = offset_;
  batch.source_bytes = stream_->source_bytes_consumed();
  offset_ += batch.text.size();
  // The padding after the text is readable (the buffer has kPaddingBytes past its capacity);
  // its content does not matter to the parser.
  return true;
}

}  // namespace sf::io

// Private to src/io: the per-codec decoders that open_decompressor() dispatches to, and the two
// pieces they share: CompressedInput (a reusable buffer over the compressed ByteStream that
// counts consumed bytes) and DecompressingStream (the ByteStream contract every decoder keeps:
// fill the caller's buffer, report an error only after handing over the bytes decoded before
// it, enforce DecompressLimits).
//
// Not installed, not for other layers: include "io/codec.h" and call open_decompressor().
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "common/status.h"
#include "io/byte_stream.h"
#include "io/codec.h"

namespace sf::io::detail {

// The factories codec.cpp dispatches to; each is defined in the file named after its codec.
Result<std::unique_ptr<ByteStream>> open_zstd_stream(std::unique_ptr<ByteStream> compressed, std::string display_name,
                                                     DecompressLimits limits);
Result<std::unique_ptr<ByteStream>> open_gzip_stream(std::unique_ptr<ByteStream> compressed, std::string display_name,
                                                     DecompressLimits limits);
Result<std::unique_ptr<ByteStream>> open_lz4_block_stream(std::unique_ptr<ByteStream> compressed,
                                                          std::string display_name, DecompressLimits limits);
Result<std::unique_ptr<ByteStream>> open_snappy_java_stream(std::unique_ptr<ByteStream> compressed,
                                                            std::string display_name, DecompressLimits limits);
Result<std::unique_ptr<ByteStream>> open_lzf_stream(std::unique_ptr<ByteStream> compressed, std::string display_name,
                                                    DecompressLimits limits);

// "0x05881b39": checksums in error messages.
inline std::string hex32(uint32_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text = "0x00000000";
  for (int i = 0; i < 8; ++i) text[9 - i] = kDigits[(value >> (4 * i)) & 0xF];
  return text;
}

inline uint32_t load_u32_le(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return uint32_t{b[0]} | (uint32_t{b[1]} << 8) | (uint32_t{b[2]} << 16) | (uint32_t{b[3]} << 24);
}
inline uint32_t load_u32_be(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | uint32_t{b[3]};
}
inline uint16_t load_u16_be(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return static_cast<uint16_t>((b[0] << 8) | b[1]);
}

// The compressed bytes a decoder reads, through one buffer that is reused for the stream's
// life. The buffer grows only when a block is longer than it, and then only as fast as bytes
// actually arrive (doubling), so a corrupt length field cannot make it allocate memory the
// input does not fill. offset() is the number of compressed bytes the decoder has consumed:
// the position error messages name.
class CompressedInput {
 public:
  static constexpr size_t kDefaultBufferBytes = size_t{256} * 1024;

  explicit CompressedInput(std::unique_ptr<ByteStream> inner, size_t buffer_bytes = kDefaultBufferBytes)
      : inner_(std::move(inner)), data_(new char[buffer_bytes]), capacity_(buffer_bytes) {}

  // The buffered bytes not consumed yet.
  std::span<const char> available() const { return {data_.get() + begin_, end_ - begin_}; }
  void consume(size_t n) {
    begin_ += n;
    offset_ += n;
  }
  uint64_t offset() const { return offset_; }
  bool at_end() const { return eof_ && begin_ == end_; }
  uint64_t source_bytes_consumed() const { return inner_->source_bytes_consumed(); }

  // Reads more compressed bytes after those available (for streaming decoders, which consume
  // everything they are given). Returns how many arrived; 0 once the input has ended.
  Result<size_t> fill_more() {
    if (eof_) return 0;
    if (begin_ == end_) {
      begin_ = end_ = 0;
    } else if (end_ == capacity_) {
      compact();
      if (end_ == capacity_) grow(capacity_ * 2);
    }
    return read_inner();
  }

  // Makes at least `n` contiguous bytes available unless the input ends first. Returns how
  // many are available (less than n only at the end of the input).
  Result<size_t> ensure(size_t n) {
    while (end_ - begin_ < n && !eof_) {
      if (capacity_ - begin_ < n) compact();
      if (end_ == capacity_) grow(std::min(capacity_ * 2, std::max(n, capacity_ + 1)));
      auto got = read_inner();
      if (!got) return fail(got.error());
    }
    return end_ - begin_;
  }

  // Copies up to out.size() compressed bytes into out (stored blocks): the buffered bytes
  // first, then straight from the inner stream, so a large stored block is copied once.
  // Returns how many were copied (less than out.size() only at the end of the input).
  Result<size_t> read_into(std::span<char> out) {
    size_t copied = std::min(out.size(), end_ - begin_);
    if (copied > 0) std::memcpy(out.data(), data_.get() + begin_, copied);
    consume(copied);
    while (copied < out.size() && !eof_) {
      auto got = inner_->read(out.subspan(copied));
      if (!got) return fail(got.error());
      if (*got == 0) {
        eof_ = true;
        break;
      }
      copied += *got;
      offset_ += *got;
    }
    return copied;
  }

 private:
  void compact() {
    if (begin_ == 0) return;
    std::memmove(data_.get(), data_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  void grow(size_t new_capacity) {
    std::unique_ptr<char[]> bigger(new char[new_capacity]);
    std::memcpy(bigger.get(), data_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
    data_ = std::move(bigger);
    capacity_ = new_capacity;
  }
  Result<size_t> read_inner() {
    auto got = inner_->read({data_.get() + end_, capacity_ - end_});
    if (!got) return fail(got.error());
    if (*got == 0) eof_ = true;
    end_ += *got;
    return *got;
  }

  std::unique_ptr<ByteStream> inner_;
  std::unique_ptr<char[]> data_;
  size_t capacity_;
  size_t begin_ = 0;
  size_t end_ = 0;
  uint64_t offset_ = 0;
  bool eof_ = false;
};

// The ByteStream side of every decoder. Subclasses implement decode(); read() loops over it to
// fill the caller's buffer, enforces DecompressLimits, and makes errors sticky and deferred:
// bytes decoded before an error are returned first and the error comes with the next call,
// so a reader keeps everything that decoded.
class DecompressingStream : public ByteStream {
 public:
  // Output past this many bytes is measured against max_ratio; below it, small inputs with a
  // high ratio (a 100 KiB log of repeated lines) are never stopped.
  static constexpr uint64_t kRatioGraceBytes = uint64_t{1} << 20;

  DecompressingStream(std::unique_ptr<ByteStream> compressed, std::string display_name, std::string_view codec,
                      DecompressLimits limits)
      : input_(std::move(compressed)), display_name_(std::move(display_name)), codec_(codec), limits_(limits) {}

  Result<size_t> read(std::span<char> out) final {
    if (!error_.ok()) return fail(error_);
    if (ended_ || out.empty()) return 0;
    size_t produced = 0;
    while (produced < out.size()) {
      const uint64_t room = limits_.max_output_bytes - total_output_;
      std::span<char> target = out.subspan(produced);
      // One byte past the cap tells "exactly at the cap" from "more than the cap".
      if (room < target.size()) target = target.first(static_cast<size_t>(room) + 1);
      auto decoded = decode(target);
      if (!decoded) {
        error_ = decoded.error();
        break;
      }
      if (*decoded == 0) {
        ended_ = true;
        break;
      }
      size_t n = *decoded;
      if (n > room) {
        n = static_cast<size_t>(room);
        error_ =
            Status::LimitExceeded(prefix() + "output passed the limit of " + std::to_string(limits_.max_output_bytes) +
                                  " bytes at compressed byte " + std::to_string(input_.offset()));
      }
      produced += n;
      total_output_ += n;
      if (!error_.ok()) break;
      if (ratio_exceeded()) {
        error_ = Status::LimitExceeded(prefix() + "decompression ratio passed " + std::to_string(limits_.max_ratio) +
                                       ":1 (" + std::to_string(total_output_) + " bytes from " +
                                       std::to_string(input_.offset()) + " compressed bytes)");
        break;
      }
    }
    if (produced > 0) return produced;
    if (!error_.ok()) return fail(error_);
    return 0;
  }

  uint64_t source_bytes_consumed() const final { return input_.source_bytes_consumed(); }

 protected:
  // Decodes into `out` (never empty): returns how many bytes were written, at least 1, or 0
  // at the clean end of the compressed stream.
  virtual Result<size_t> decode(std::span<char> out) = 0;

  // "app.lz4: lz4 "
  std::string prefix() const { return display_name_ + ": " + std::string(codec_) + " "; }
  // "app.lz4: lz4 block at byte 32789: checksum mismatch (...)"
  Status corruption(std::string_view unit, uint64_t offset, std::string_view what) const {
    return Status::Corruption(prefix() + std::string(unit) + " at byte " + std::to_string(offset) + ": " +
                              std::string(what));
  }
  // "app.lz4: lz4 stream ends inside the block at byte 32789 (12 of 4753 bytes present): truncated"
  Status truncated(std::string_view where, uint64_t offset, std::string_view detail = {}) const {
    std::string message =
        prefix() + "stream ends inside the " + std::string(where) + " at byte " + std::to_string(offset);
    if (!detail.empty()) message += " (" + std::string(detail) + ")";
    return Status::Corruption(message + ": truncated");
  }

  // Decoded bytes of a block that did not fit the caller's buffer, handed out by later calls.
  bool has_pending() const { return pending_begin_ < pending_end_; }
  size_t drain_pending(std::span<char> out) {
    const size_t n = std::min(out.size(), pending_end_ - pending_begin_);
    std::memcpy(out.data(), block_.get() + pending_begin_, n);
    pending_begin_ += n;
    return n;
  }
  // The reused block buffer, at least `bytes` long; callers bound `bytes` by their format's
  // maximum block size before asking.
  char* block_buffer(size_t bytes) {
    if (block_capacity_ < bytes) {
      block_.reset(new char[bytes]);
      block_capacity_ = bytes;
    }
    return block_.get();
  }
  void set_pending(size_t bytes) {
    pending_begin_ = 0;
    pending_end_ = bytes;
  }

  CompressedInput input_;

 private:
  bool ratio_exceeded() const {
    if (limits_.max_ratio == 0 || total_output_ <= kRatioGraceBytes) return false;
    const uint64_t consumed = input_.offset();
    // total_output_ > consumed * max_ratio, without overflowing the product.
    const uint64_t quotient = total_output_ / limits_.max_ratio;
    return quotient > consumed || (quotient == consumed && total_output_ % limits_.max_ratio != 0);
  }

  std::string display_name_;
  std::string_view codec_;
  DecompressLimits limits_;
  uint64_t total_output_ = 0;
  Status error_;
  bool ended_ = false;
  std::unique_ptr<char[]> block_;
  size_t block_capacity_ = 0;
  size_t pending_begin_ = 0;
  size_t pending_end_ = 0;
};

}  // namespace sf::io::detail

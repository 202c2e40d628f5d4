// lz4: Spark's LZ4CompressionCodec writes lz4-java's LZ4BlockOutputStream framing, not the lz4
// frame format. Each block is a 21-byte header and its data:
//   "LZ4Block"                magic, 8 bytes
//   token                     high nibble: method (0x10 stored raw, 0x20 lz4 block);
//                             low nibble: log2(block size) - 10, so blocks are at most 32 MiB
//   compressed length         int32 little-endian
//   decompressed length       int32 little-endian
//   checksum                  int32 little-endian: XXH32(decompressed, seed 0x9747b28c) & 0x0FFFFFFF
// A block with both lengths 0 (and checksum 0) ends a stream; another stream may follow it,
// since Spark reads concatenated streams. lz4-java's mask: StreamingXXHash32.asChecksum()
// returns getValue() & 0xFFFFFFFL, which LZ4BlockOutputStream writes and LZ4BlockInputStream
// compares.
#include <lz4.h>
#include <xxhash.h>

#include "io/decompressors.h"

namespace sf::io::detail {
namespace {

constexpr size_t kLz4BlockHeaderBytes = 8 + 1 + 4 + 4 + 4;
constexpr unsigned kMethodRaw = 0x10;
constexpr unsigned kMethodLz4 = 0x20;
constexpr unsigned kBlockSizeLogBase = 10;
constexpr uint32_t kChecksumSeed = 0x9747b28c;
constexpr uint32_t kChecksumMask = 0x0FFFFFFF;

uint32_t lz4_java_checksum(const char* data, size_t size) {
  return static_cast<uint32_t>(XXH32(data, size, kChecksumSeed)) & kChecksumMask;
}

std::string hex_bytes(std::span<const char> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    if (!text.empty()) text += ' ';
    text += kDigits[b >> 4];
    text += kDigits[b & 0xF];
  }
  return text;
}

class Lz4BlockStream final : public DecompressingStream {
 public:
  Lz4BlockStream(std::unique_ptr<ByteStream> compressed, std::string display_name, DecompressLimits limits)
      : DecompressingStream(std::move(compressed), std::move(display_name), "lz4", limits) {}

 private:
  Result<size_t> decode(std::span<char> out) override {
    if (has_pending()) return drain_pending(out);
    for (;;) {
      const uint64_t block_start = input_.offset();
      auto header_bytes = input_.ensure(kLz4BlockHeaderBytes);
      if (!header_bytes) return fail(header_bytes.error());
      if (*header_bytes == 0) {
        // After an end marker (or in an empty file) the input may end: Spark's reader stops
        // there too. After a data block it means the writer never finished the stream.
        if (at_stream_boundary_) return 0;
        return fail(Status::Corruption(prefix() + "stream ends at byte " + std::to_string(block_start) +
                                       " without its end marker: truncated"));
      }
      if (*header_bytes < kLz4BlockHeaderBytes) {
        return fail(truncated(
            "block header", block_start,
            std::to_string(*header_bytes) + " of " + std::to_string(kLz4BlockHeaderBytes) + " bytes present"));
      }
      const char* header = input_.available().data();
      if (std::string_view(header, kLz4BlockMagic.size()) != kLz4BlockMagic) {
        return fail(
            corruption("block", block_start,
                       "bad magic (expected \"LZ4Block\", found " + hex_bytes({header, kLz4BlockMagic.size()}) + ")"));
      }
      const auto token = static_cast<unsigned char>(header[8]);
      const unsigned method = token & 0xF0u;
      const uint64_t max_block_bytes = uint64_t{1} << (kBlockSizeLogBase + (token & 0x0Fu));
      const auto compressed_length = static_cast<int32_t>(load_u32_le(header + 9));
      const auto decompressed_length = static_cast<int32_t>(load_u32_le(header + 13));
      const uint32_t stored_checksum = load_u32_le(header + 17);

      if (method != kMethodRaw && method != kMethodLz4) {
        return fail(corruption("block", block_start, "unknown compression method in token " + hex32(token)));
      }
      if (compressed_length < 0 || decompressed_length < 0 ||
          static_cast<uint64_t>(decompressed_length) > max_block_bytes) {
        return fail(corruption("block", block_start,
                               "absurd lengths (compressed " + std::to_string(compressed_length) + ", decompressed " +
                                   std::to_string(decompressed_length) + ", block size " +
                                   std::to_string(max_block_bytes) + ")"));
      }
      if (decompressed_length == 0 || compressed_length == 0) {
        if (decompressed_length != 0 || compressed_length != 0 || stored_checksum != 0) {
          return fail(corruption("block", block_start,
                                 "inconsistent end marker (compressed " + std::to_string(compressed_length) +
                                     ", decompressed " + std::to_string(decompressed_length) + ", checksum " +
                                     hex32(stored_checksum) + ")"));
        }
        input_.consume(kLz4BlockHeaderBytes);
        at_stream_boundary_ = true;
        continue;
      }
      if (method == kMethodRaw && compressed_length != decompressed_length) {
        return fail(corruption("block", block_start,
                               "stored block with different lengths (compressed " + std::to_string(compressed_length) +
                                   ", decompressed " + std::to_string(decompressed_length) + ")"));
      }
      // An lz4 block never grows its data by more than this (LZ4_compressBound).
      if (method == kMethodLz4 && compressed_length > LZ4_compressBound(decompressed_length)) {
        return fail(corruption("block", block_start,
                               "absurd compressed length " + std::to_string(compressed_length) + " for " +
                                   std::to_string(decompressed_length) + " bytes"));
      }
      input_.consume(kLz4BlockHeaderBytes);
      at_stream_boundary_ = false;

      const auto block_bytes = static_cast<size_t>(decompressed_length);
      const auto compressed_bytes = static_cast<size_t>(compressed_length);
      const bool fits = block_bytes <= out.size();
      char* target = out.data();
      if (method == kMethodRaw && fits) {
        // Stored bytes go straight from the file to the caller.
        auto copied = input_.read_into({target, block_bytes});
        if (!copied) return fail(copied.error());
        if (*copied < block_bytes) return fail(block_truncated(block_start, *copied, block_bytes));
      } else {
        // The block's bytes must be there before a block buffer is sized by its header.
        auto present = input_.ensure(compressed_bytes);
        if (!present) return fail(present.error());
        if (*present < compressed_bytes) return fail(block_truncated(block_start, *present, compressed_bytes));
        if (!fits) target = block_buffer(block_bytes);
        const char* data = input_.available().data();
        if (method == kMethodRaw) {
          std::memcpy(target, data, block_bytes);
        } else {
          const int result = LZ4_decompress_safe(data, target, compressed_length, decompressed_length);
          if (result != decompressed_length) {
            return fail(corruption("block", block_start,
                                   result < 0 ? "invalid lz4 data"
                                              : "decodes to " + std::to_string(result) + " bytes, header says " +
                                                    std::to_string(block_bytes)));
          }
        }
        input_.consume(compressed_bytes);
      }
      const uint32_t computed_checksum = lz4_java_checksum(target, block_bytes);
      if (computed_checksum != stored_checksum) {
        return fail(corruption(
            "block", block_start,
            "checksum mismatch (stored " + hex32(stored_checksum) + ", computed " + hex32(computed_checksum) + ")"));
      }
      if (fits) return block_bytes;
      set_pending(block_bytes);
      return drain_pending(out);
    }
  }

  Status block_truncated(uint64_t block_start, size_t present, size_t needed) const {
    return truncated("block", block_start,
                     std::to_string(present) + " of " + std::to_string(needed) + " block bytes present");
  }

  // True at the start and right after an end marker: where the input may cleanly end.
  bool at_stream_boundary_ = true;
};

}  // namespace

Result<std::unique_ptr<ByteStream>> open_lz4_block_stream(std::unique_ptr<ByteStream> compressed,
                                                          std::string display_name, DecompressLimits limits) {
  return std::make_unique<Lz4BlockStream>(std::move(compressed), std::move(display_name), limits);
}

}  // namespace sf::io::detail

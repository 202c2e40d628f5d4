// snappy: Spark's SnappyCompressionCodec writes xerial snappy-java's SnappyOutputStream framing,
// not the snappy framing format:
//   header   0x82 'S' 'N' 'A' 'P' 'P' 'Y' 0x00, int32 big-endian version, int32 big-endian
//            compatible version (16 bytes; written with the first chunk or flush)
//   chunks   int32 big-endian compressed length, then one raw snappy block
// There is no trailer: the input ending after a whole chunk is the end. A header may appear
// again where a chunk length is expected: snappy-java's reader treats that as a concatenated
// stream (its chunk length would read as a negative int, 0x82534E41, so it cannot be a length).
#include <snappy.h>

#include "io/decompressors.h"

namespace sf::io::detail {
namespace {

constexpr size_t kSnappyJavaHeaderBytes = 8 + 4 + 4;
constexpr size_t kChunkLengthBytes = 4;
// The oldest header version snappy-java reads, and the newest "compatible version" it writes.
constexpr uint32_t kMinimumVersion = 1;
constexpr uint32_t kNewestCompatibleVersion = 1;
// Spark's chunks are 32 KiB (spark.io.compression.snappy.blockSize); anything up to lz4-java's
// 32 MiB ceiling is accepted, and longer chunks are taken as a corrupt length field.
constexpr size_t kMaxChunkBytes = size_t{32} << 20;

class SnappyJavaStream final : public DecompressingStream {
 public:
  SnappyJavaStream(std::unique_ptr<ByteStream> compressed, std::string display_name, DecompressLimits limits)
      : DecompressingStream(std::move(compressed), std::move(display_name), "snappy", limits) {}

 private:
  Result<size_t> decode(std::span<char> out) override {
    if (has_pending()) return drain_pending(out);
    for (;;) {
      if (expect_header_) {
        auto status = read_header();
        if (!status) return fail(status.error());
        if (!*status) return 0;  // an empty file: nothing was ever written
        continue;
      }
      const uint64_t chunk_start = input_.offset();
      auto length_bytes = input_.ensure(kChunkLengthBytes);
      if (!length_bytes) return fail(length_bytes.error());
      if (*length_bytes == 0) return 0;
      if (*length_bytes < kChunkLengthBytes) {
        return fail(truncated("chunk length", chunk_start, std::to_string(*length_bytes) + " of 4 bytes present"));
      }
      const char* length_field = input_.available().data();
      if (std::string_view(length_field, 4) == kSnappyJavaMagic.substr(0, 4)) {
        expect_header_ = true;  // a concatenated stream starts here
        continue;
      }
      const auto compressed_length = static_cast<int32_t>(load_u32_be(length_field));
      if (compressed_length <= 0 ||
          static_cast<size_t>(compressed_length) > snappy::MaxCompressedLength(kMaxChunkBytes)) {
        return fail(corruption("chunk", chunk_start, "absurd compressed length " + std::to_string(compressed_length)));
      }
      input_.consume(kChunkLengthBytes);
      const auto compressed_bytes = static_cast<size_t>(compressed_length);
      auto present = input_.ensure(compressed_bytes);
      if (!present) return fail(present.error());
      if (*present < compressed_bytes) {
        return fail(truncated(
            "chunk", chunk_start,
            std::to_string(*present) + " of " + std::to_string(compressed_bytes) + " compressed bytes present"));
      }
      const char* block = input_.available().data();
      size_t decompressed_bytes = 0;
      if (!snappy::GetUncompressedLength(block, compressed_bytes, &decompressed_bytes)) {
        return fail(corruption("chunk", chunk_start, "invalid snappy block (bad length preamble)"));
      }
      if (decompressed_bytes > kMaxChunkBytes) {
        return fail(
            corruption("chunk", chunk_start, "absurd decompressed length " + std::to_string(decompressed_bytes)));
      }
      if (decompressed_bytes == 0) {
        input_.consume(compressed_bytes);
        continue;
      }
      const bool fits = decompressed_bytes <= out.size();
      char* target = fits ? out.data() : block_buffer(decompressed_bytes);
      if (!snappy::RawUncompress(block, compressed_bytes, target)) {
        return fail(corruption("chunk", chunk_start, "invalid snappy block"));
      }
      input_.consume(compressed_bytes);
      if (fits) return decompressed_bytes;
      set_pending(decompressed_bytes);
      return drain_pending(out);
    }
  }

  // Reads a stream header; false when the input ends cleanly before one (an empty file, or
  // never: a concatenated header was already seen starting).
  Result<bool> read_header() {
    const uint64_t header_start = input_.offset();
    auto header_bytes = input_.ensure(kSnappyJavaHeaderBytes);
    if (!header_bytes) return fail(header_bytes.error());
    if (*header_bytes == 0 && header_start == 0) return false;
    if (*header_bytes < kSnappyJavaHeaderBytes) {
      return fail(truncated(
          "stream header", header_start,
          std::to_string(*header_bytes) + " of " + std::to_string(kSnappyJavaHeaderBytes) + " bytes present"));
    }
    const char* header = input_.available().data();
    if (std::string_view(header, kSnappyJavaMagic.size()) != kSnappyJavaMagic) {
      return fail(corruption("stream header", header_start, "bad magic (expected \\x82SNAPPY\\0)"));
    }
    const uint32_t version = load_u32_be(header + 8);
    const uint32_t compatible_version = load_u32_be(header + 12);
    if (version < kMinimumVersion) {
      return fail(corruption("stream header", header_start, "version " + std::to_string(version) + " is below 1"));
    }
    if (compatible_version > kNewestCompatibleVersion) {
      return fail(Status::Unsupported(prefix() + "stream header at byte " + std::to_string(header_start) +
                                      ": needs a reader of version " + std::to_string(compatible_version) +
                                      " (this one reads version 1)"));
    }
    input_.consume(kSnappyJavaHeaderBytes);
    expect_header_ = false;
    return true;
  }

  bool expect_header_ = true;
};

}  // namespace

Result<std::unique_ptr<ByteStream>> open_snappy_java_stream(std::unique_ptr<ByteStream> compressed,
                                                            std::string display_name, DecompressLimits limits) {
  return std::make_unique<SnappyJavaStream>(std::move(compressed), std::move(display_name), limits);
}

}  // namespace sf::io::detail

// lzf: Spark's LZFCompressionCodec writes ning compress-lzf's LZFOutputStream chunks:
//   'Z' 'V' 0  uint16 big-endian length, then that many stored bytes
//   'Z' 'V' 1  uint16 big-endian compressed length, uint16 big-endian decompressed length,
//              then one raw LZF block (liblzf's format)
// There is no stream header or trailer, so the input ending after a whole chunk is the end,
// and concatenated streams are just more chunks. The 16-bit lengths bound every chunk to
// 64 KiB, so no length field can ask for much memory.
#include <lzf.h>

#include "io/decompressors.h"

namespace sf::io::detail {
namespace {

constexpr size_t kSignatureBytes = 3;  // 'Z' 'V' type
constexpr size_t kStoredHeaderBytes = 5;
constexpr size_t kCompressedHeaderBytes = 7;
constexpr unsigned char kTypeStored = 0;
constexpr unsigned char kTypeCompressed = 1;

class LzfStream final : public DecompressingStream {
 public:
  LzfStream(std::unique_ptr<ByteStream> compressed, std::string display_name, DecompressLimits limits)
      : DecompressingStream(std::move(compressed), std::move(display_name), "lzf", limits) {}

 private:
  Result<size_t> decode(std::span<char> out) override {
    if (has_pending()) return drain_pending(out);
    for (;;) {
      const uint64_t chunk_start = input_.offset();
      auto signature_bytes = input_.ensure(kSignatureBytes);
      if (!signature_bytes) return fail(signature_bytes.error());
      if (*signature_bytes == 0) return 0;
      if (*signature_bytes < kSignatureBytes) {
        return fail(
            truncated("chunk header", chunk_start,
                      std::to_string(*signature_bytes) + " of " + std::to_string(kSignatureBytes) + " bytes present"));
      }
      const char* signature = input_.available().data();
      if (signature[0] != 'Z' || signature[1] != 'V') {
        return fail(corruption("chunk", chunk_start, "bad signature (expected \"ZV\")"));
      }
      const auto type = static_cast<unsigned char>(signature[2]);
      if (type == kTypeStored) {
        auto result = decode_stored(out, chunk_start);
        if (!result) return fail(result.error());
        if (*result > 0) return *result;
        continue;  // an empty stored chunk: legal, and nothing to hand out
      }
      if (type == kTypeCompressed) return decode_compressed(out, chunk_start);
      return fail(corruption("chunk", chunk_start, "unknown chunk type " + std::to_string(type)));
    }
  }

  Result<size_t> decode_stored(std::span<char> out, uint64_t chunk_start) {
    auto header_bytes = input_.ensure(kStoredHeaderBytes);
    if (!header_bytes) return fail(header_bytes.error());
    if (*header_bytes < kStoredHeaderBytes) {
      return fail(
          truncated("chunk header", chunk_start,
                    std::to_string(*header_bytes) + " of " + std::to_string(kStoredHeaderBytes) + " bytes present"));
    }
    const size_t length = load_u16_be(input_.available().data() + 3);
    input_.consume(kStoredHeaderBytes);
    if (length == 0) return 0;
    const bool fits = length <= out.size();
    char* target = fits ? out.data() : block_buffer(length);
    auto copied = input_.read_into({target, length});
    if (!copied) return fail(copied.error());
    if (*copied < length) {
      return fail(truncated("chunk", chunk_start,
                            std::to_string(*copied) + " of " + std::to_string(length) + " stored bytes present"));
    }
    if (fits) return length;
    set_pending(length);
    return drain_pending(out);
  }

  Result<size_t> decode_compressed(std::span<char> out, uint64_t chunk_start) {
    auto header_bytes = input_.ensure(kCompressedHeaderBytes);
    if (!header_bytes) return fail(header_bytes.error());
    if (*header_bytes < kCompressedHeaderBytes) {
      return fail(truncated(
          "chunk header", chunk_start,
          std::to_string(*header_bytes) + " of " + std::to_string(kCompressedHeaderBytes) + " bytes present"));
    }
    const char* header = input_.available().data();
    const size_t compressed_length = load_u16_be(header + 3);
    const size_t decompressed_length = load_u16_be(header + 5);
    if (compressed_length == 0 || decompressed_length == 0) {
      return fail(corruption("chunk", chunk_start,
                             "absurd lengths (compressed " + std::to_string(compressed_length) + ", decompressed " +
                                 std::to_string(decompressed_length) + ")"));
    }
    input_.consume(kCompressedHeaderBytes);
    auto present = input_.ensure(compressed_length);
    if (!present) return fail(present.error());
    if (*present < compressed_length) {
      return fail(truncated(
          "chunk", chunk_start,
          std::to_string(*present) + " of " + std::to_string(compressed_length) + " compressed bytes present"));
    }
    const bool fits = decompressed_length <= out.size();
    char* target = fits ? out.data() : block_buffer(decompressed_length);
    // liblzf checks its input (CHECK_INPUT) and never writes past the given output length.
    const unsigned decoded = lzf_decompress(input_.available().data(), static_cast<unsigned>(compressed_length), target,
                                            static_cast<unsigned>(decompressed_length));
    if (decoded != decompressed_length) {
      return fail(corruption("chunk", chunk_start,
                             decoded == 0 ? "invalid LZF data"
                                          : "decodes to " + std::to_string(decoded) + " bytes, header says " +
                                                std::to_string(decompressed_length)));
    }
    input_.consume(compressed_length);
    if (fits) return decompressed_length;
    set_pending(decompressed_length);
    return drain_pending(out);
  }
};

}  // namespace

Result<std::unique_ptr<ByteStream>> open_lzf_stream(std::unique_ptr<ByteStream> compressed, std::string display_name,
                                                    DecompressLimits limits) {
  return std::make_unique<LzfStream>(std::move(compressed), std::move(display_name), limits);
}

}  // namespace sf::io::detail

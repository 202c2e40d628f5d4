// Compression codecs of Spark event logs: naming, detection and decoding.
//
// Spark picks the codec from spark.eventLog.compression.codec and names the file after it
// (.lz4, .lzf, .snappy, .zstd); .gz and .zst are common outside Apache Spark. The extension
// says which codec a file claims; the first bytes confirm it. lz4, snappy and lzf are the
// Java libraries' own framings (lz4-java LZ4BlockOutputStream, snappy-java SnappyOutputStream,
// ning compress-lzf chunks) around standard blocks, not the lz4 frame or snappy framing formats.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "io/byte_stream.h"

namespace sf::io {

enum class Codec { kNone, kZstd, kLz4, kSnappy, kLzf, kGzip };

// Every codec that compresses (all but kNone), in declaration order.
inline constexpr Codec kCompressionCodecs[] = {Codec::kZstd, Codec::kLz4, Codec::kSnappy, Codec::kLzf, Codec::kGzip};

// "none", "zstd", "lz4", "snappy", "lzf", "gzip".
std::string_view codec_name(Codec codec);

// The codec a file name claims by its extension (an ".inprogress" suffix is looked through):
// nullopt when the name has no codec extension.
std::optional<Codec> codec_from_file_name(std::string_view file_name);
// The name an uncompressed copy of the file has: its codec extension removed, what follows it
// kept ("events_1_app.lz4.inprogress" -> "events_1_app.inprogress").
std::string without_codec_extension(std::string_view file_name);

// The first bytes of the Java libraries' framings Spark writes: lz4-java's LZ4BlockOutputStream
// (every block starts with it) and snappy-java's SnappyOutputStream (its stream header).
inline constexpr std::string_view kLz4BlockMagic = "LZ4Block";
inline constexpr std::string_view kSnappyJavaMagic{"\x82SNAPPY\x00", 8};

// What the first bytes of a file are.
enum class Magic { kJson, kZstd, kLz4Block, kSnappyJava, kLzf, kGzip, kZip, kEmpty, kUnknown };
Magic sniff_magic(std::string_view first_bytes);  // needs up to 8 bytes
std::string_view magic_name(Magic magic);
// The codec a magic stands for, when it is one.
std::optional<Codec> codec_from_magic(Magic magic);

// Wraps `compressed` in a decompressor for `codec` (kNone returns it unchanged).
// `display_name` names the file in error messages, which also give the compressed byte offset
// of the block that failed. Decompressed output is bounded by `max_output_bytes` and by the
// ratio limit, so a decompression bomb stops with LimitExceeded instead of filling memory.
struct DecompressLimits {
  // Reading streams, so output size costs time, not memory: the cap is for callers that must
  // bound the time a hostile input can take (a fetched log, a fuzz target).
  uint64_t max_output_bytes = uint64_t{1} << 44;  // 16 TiB
  // Event logs compress 10x to 45x (the corpus's zstd logs peak at 42x); a bomb runs to
  // millions. 0: no ratio check.
  uint64_t max_ratio = 1000;
};
Result<std::unique_ptr<ByteStream>> open_decompressor(Codec codec, std::unique_ptr<ByteStream> compressed,
                                                      std::string display_name, DecompressLimits limits = {});

// Decoder errors (all from the ByteStream's read()):
//   - bytes that decoded before an error are returned first; the error comes with the next
//     read() and then every read() after it;
//   - a compressed stream that ends early (a crashed or still-running writer, a partial copy)
//     is kCorruption with a message ending in ": truncated", e.g.
//     "app.lz4: lz4 stream ends at byte 4096 without its end marker: truncated";
//   - damaged data is kCorruption naming the unit and its compressed offset, e.g.
//     "app.lz4: lz4 block at byte 32789: checksum mismatch (stored 0x..., computed 0x...)";
//   - DecompressLimits are kLimitExceeded; a snappy-java header needing a newer reader is
//     kUnsupported.
// snappy-java and LZF streams have no trailer: one cut between two chunks ends cleanly.
// True for the "ends early" kind, which a reader may treat as an incomplete log rather than a
// damaged one.
bool is_truncated_stream(const Status& status);

}  // namespace sf::io

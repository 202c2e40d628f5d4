// Damaged compressed input: truncated at every byte, flipped bits, absurd length fields,
// decompression bombs. Each must end in the full data or a clean error that names the file,
// the codec and the byte offset; never a crash, a hang or a huge allocation; and every byte
// decoded before the damage must still reach the caller.
#include <gtest/gtest.h>
#include <zstd.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "io/codec.h"
#include "loggen/codec_writers.h"
#include "unit/io/decoding.h"

namespace sf::io {
namespace {

using testing::decode;
using testing::Decoded;
using testing::display_name;

std::string event_lines(size_t count, uint32_t seed = 5) {
  std::string text;
  uint32_t state = seed;
  for (size_t line = 0; line < count; ++line) {
    state = state * 1664525u + 1013904223u;
    text += "{\"Event\":\"SparkListenerTaskEnd\",\"Task ID\":" + std::to_string(line) +
            ",\"Finish Time\":" + std::to_string(1422981780767ull + state % 100000) + ",\"Host\":\"h" +
            std::to_string(state % 9) + "\"}\n";
  }
  return text;
}

// "... at byte 1234: ..." or "... at byte 1234 (...)": the offset, not a longer number.
bool names_offset(const std::string& message, size_t offset) {
  const std::string needle = "at byte " + std::to_string(offset);
  for (size_t at = message.find(needle); at != std::string::npos; at = message.find(needle, at + 1)) {
    const size_t after = at + needle.size();
    if (after < message.size() && (message[after] == ':' || message[after] == ' ')) return true;
  }
  return false;
}

bool is_prefix(const std::string& prefix, const std::string& whole) {
  return prefix.size() <= whole.size() && whole.compare(0, prefix.size(), prefix) == 0;
}

// A clean error: Corruption, naming the file, the codec and a byte offset.
::testing::AssertionResult clean_error(const Status& status, Codec codec) {
  if (status.code() != StatusCode::kCorruption) {
    return ::testing::AssertionFailure() << "code " << to_string(status.code()) << ": " << status.message();
  }
  const std::string expected_start = display_name(codec) + ": " + std::string(codec_name(codec)) + " ";
  if (status.message().rfind(expected_start, 0) != 0 || status.message().find("at byte ") == std::string::npos) {
    return ::testing::AssertionFailure() << "message does not name file, codec and offset: " << status.message();
  }
  return ::testing::AssertionSuccess();
}

// The codec writer's output with a flush after every few lines, plus where each flush ended:
// (compressed bytes, plain bytes) pairs. Everything before a boundary must decode even when
// the bytes after it are damaged.
struct Blocks {
  std::string plain;
  std::string compressed;
  std::vector<std::pair<size_t, size_t>> boundaries;
};

Blocks write_blocks(Codec codec, size_t lines, size_t lines_per_block) {
  Blocks blocks;
  std::ostringstream out;
  auto writer = loggen::make_compressed_writer(codec, out);
  blocks.boundaries.emplace_back(0, 0);
  const std::string text = event_lines(lines);
  size_t position = 0;
  size_t line = 0;
  while (position < text.size()) {
    const size_t end = text.find('\n', position) + 1;
    writer->write(std::string_view(text).substr(position, end - position));
    position = end;
    if (++line % lines_per_block == 0) {
      writer->flush();
      blocks.boundaries.emplace_back(out.str().size(), position);
    }
  }
  writer->finish();
  blocks.plain = text;
  blocks.compressed = out.str();
  return blocks;
}

// Plain bytes decodable from the first `cut` compressed bytes: those of whole blocks.
size_t plain_before(const Blocks& blocks, size_t cut) {
  size_t plain = 0;
  for (const auto& [compressed_end, plain_end] : blocks.boundaries) {
    if (compressed_end <= cut) plain = plain_end;
  }
  return plain;
}

bool is_boundary(const Blocks& blocks, size_t cut) {
  for (const auto& boundary : blocks.boundaries) {
    if (boundary.first == cut) return true;
  }
  return false;
}

// snappy-java and LZF streams have no trailer, so a cut between chunks looks like the end.
bool has_no_trailer(Codec codec) { return codec == Codec::kSnappy || codec == Codec::kLzf; }

class Faults : public ::testing::TestWithParam<Codec> {};

TEST_P(Faults, TruncatedAtEveryByte) {
  const Codec codec = GetParam();
  const Blocks blocks = write_blocks(codec, 60, 4);
  ASSERT_GT(blocks.boundaries.size(), 10u);
  for (size_t cut = 0; cut < blocks.compressed.size(); ++cut) {
    SCOPED_TRACE("cut at byte " + std::to_string(cut) + " of " + std::to_string(blocks.compressed.size()));
    const Decoded decoded = decode(codec, blocks.compressed.substr(0, cut), 1000);
    ASSERT_TRUE(is_prefix(decoded.bytes, blocks.plain)) << "decoded bytes that are not the log's";
    ASSERT_GE(decoded.bytes.size(), plain_before(blocks, cut)) << "lost bytes of whole blocks";
    if (decoded.status.ok()) {
      if (decoded.bytes.size() == blocks.plain.size()) continue;
      // Only an empty input or a trailer-less stream cut between chunks may end cleanly early.
      ASSERT_TRUE(cut == 0 || (has_no_trailer(codec) && decoded.bytes.size() == plain_before(blocks, cut)))
          << "ended cleanly with " << decoded.bytes.size() << " of " << blocks.plain.size() << " bytes";
      if (cut > 0 && codec == Codec::kSnappy) {
        ASSERT_TRUE(is_boundary(blocks, cut) || cut == 16);
      }
    } else {
      ASSERT_TRUE(clean_error(decoded.status, codec));
      ASSERT_TRUE(is_truncated_stream(decoded.status)) << decoded.status.message();
      ASSERT_EQ(decoded.reads_after_error, 2u);
    }
  }
  const Decoded whole = decode(codec, blocks.compressed, 1000);
  EXPECT_TRUE(whole.status.ok()) << whole.status.message();
  EXPECT_EQ(whole.bytes, blocks.plain);
}

TEST_P(Faults, FlippedBitsNeverCrashAndKeepEarlierBlocks) {
  // Every bit of the stream, one at a time. snappy-java, LZF and zstd without a frame
  // checksum cannot notice a flipped literal, so only the framing's promise is checked here:
  // a clean error or output, never a crash, and whole blocks before the damage intact.
  const Codec codec = GetParam();
  const Blocks blocks = write_blocks(codec, 40, 5);
  size_t errors = 0;
  for (size_t bit = 0; bit < blocks.compressed.size() * 8; ++bit) {
    std::string damaged = blocks.compressed;
    damaged[bit / 8] = static_cast<char>(damaged[bit / 8] ^ (1 << (bit % 8)));
    const Decoded decoded = decode(codec, damaged, 777);
    SCOPED_TRACE("bit " + std::to_string(bit));
    if (!decoded.status.ok()) {
      ++errors;
      ASSERT_TRUE(decoded.status.code() == StatusCode::kCorruption || decoded.status.code() == StatusCode::kUnsupported)
          << decoded.status.message();
      ASSERT_NE(decoded.status.message().find(display_name(codec) + ": "), std::string::npos);
      // Blocks that end before the damaged byte decode unchanged.
      const size_t intact = plain_before(blocks, bit / 8);
      ASSERT_GE(decoded.bytes.size(), intact);
      ASSERT_EQ(decoded.bytes.compare(0, intact, blocks.plain, 0, intact), 0);
    }
  }
  EXPECT_GT(errors, 0u);
}

TEST_P(Faults, RandomBytesAfterAValidStart) {
  // Garbage behind a real first block: whatever it claims, the decoder ends cleanly.
  const Codec codec = GetParam();
  const Blocks blocks = write_blocks(codec, 20, 5);
  const size_t keep = blocks.boundaries.at(1).first;
  uint32_t state = 99;
  for (int round = 0; round < 300; ++round) {
    std::string bytes = blocks.compressed.substr(0, keep);
    const size_t length = 1 + round * 7 % 3000;
    for (size_t i = 0; i < length; ++i) {
      state = state * 1103515245u + 12345u;
      bytes.push_back(static_cast<char>(state >> 16));
    }
    const Decoded decoded = decode(codec, bytes, 4096);
    ASSERT_GE(decoded.bytes.size(), blocks.boundaries.at(1).second) << "round " << round;
    if (!decoded.status.ok()) {
      ASSERT_TRUE(decoded.status.code() == StatusCode::kCorruption) << decoded.status.message();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, Faults, ::testing::ValuesIn(kCompressionCodecs),
                         [](const ::testing::TestParamInfo<Codec>& param) {
                           return std::string(codec_name(param.param));
                         });

// Offsets of the lz4 blocks in a stream written by the codec writer.
std::vector<size_t> lz4_block_offsets(const std::string& lz4) {
  std::vector<size_t> offsets;
  size_t position = 0;
  while (position + 21 <= lz4.size()) {
    offsets.push_back(position);
    uint32_t compressed = 0;
    for (int i = 0; i < 4; ++i) compressed |= uint32_t{static_cast<unsigned char>(lz4[position + 9 + i])} << (8 * i);
    position += 21 + compressed;
  }
  return offsets;
}

TEST(Lz4Faults, NoFlippedBitGivesWrongBytesSilently) {
  // Each flip in a block's lengths, checksum or data is caught by the decoder or the checksum,
  // or falls on a bit the format ignores (the match-length nibble of a block's last
  // sequence) and decodes to the same bytes.
  const Blocks blocks = write_blocks(Codec::kLz4, 40, 5);
  for (size_t block_start : lz4_block_offsets(blocks.compressed)) {
    uint32_t compressed = 0;
    for (int i = 0; i < 4; ++i) {
      compressed |= uint32_t{static_cast<unsigned char>(blocks.compressed[block_start + 9 + i])} << (8 * i);
    }
    for (size_t byte = block_start + 9; byte < block_start + 21 + compressed; ++byte) {
      for (int bit = 0; bit < 8; ++bit) {
        std::string damaged = blocks.compressed;
        damaged[byte] = static_cast<char>(damaged[byte] ^ (1 << bit));
        const Decoded decoded = decode(Codec::kLz4, damaged);
        if (decoded.status.ok()) {
          ASSERT_EQ(decoded.bytes, blocks.plain) << "byte " << byte << " bit " << bit;
          continue;
        }
        ASSERT_TRUE(clean_error(decoded.status, Codec::kLz4)) << "byte " << byte << " bit " << bit;
        ASSERT_TRUE(names_offset(decoded.status.message(), block_start)) << decoded.status.message();
        ASSERT_EQ(decoded.bytes, blocks.plain.substr(0, plain_before(blocks, block_start)));
      }
    }
  }
}

TEST(Lz4Faults, ChecksumMismatchMessage) {
  const Blocks blocks = write_blocks(Codec::kLz4, 40, 5);
  const size_t second_block = lz4_block_offsets(blocks.compressed).at(1);
  std::string damaged = blocks.compressed;
  damaged[second_block + 17] = static_cast<char>(damaged[second_block + 17] ^ 0x01);  // stored checksum
  const Decoded decoded = decode(Codec::kLz4, damaged);
  EXPECT_EQ(decoded.bytes, blocks.plain.substr(0, plain_before(blocks, second_block)));
  const std::string expected =
      "app.lz4: lz4 block at byte " + std::to_string(second_block) + ": checksum mismatch (stored 0x";
  EXPECT_EQ(decoded.status.message().substr(0, expected.size()), expected) << decoded.status.message();
  EXPECT_NE(decoded.status.message().find(", computed 0x"), std::string::npos);
}

TEST(Lz4Faults, ErrorComesAfterTheBytesDecodedBeforeIt) {
  const Blocks blocks = write_blocks(Codec::kLz4, 40, 5);
  const size_t third_block = lz4_block_offsets(blocks.compressed).at(2);
  std::string damaged = blocks.compressed;
  damaged[third_block] = 'X';  // bad magic
  auto stream = open_decompressor(Codec::kLz4, memory_stream(damaged), "app.lz4");
  ASSERT_TRUE(stream);
  std::string buffer(1 << 20, '\0');
  auto first = (*stream)->read(buffer);
  ASSERT_TRUE(first);
  EXPECT_EQ(*first, plain_before(blocks, third_block));
  auto second = (*stream)->read(buffer);
  ASSERT_FALSE(second);
  EXPECT_EQ(
      second.error().message().rfind("app.lz4: lz4 block at byte " + std::to_string(third_block) + ": bad magic", 0),
      0u)
      << second.error().message();
}

TEST(Lz4Faults, MissingEndMarkerIsReportedAfterAllData) {
  const std::string plain = event_lines(30);
  std::string lz4 = loggen::compress(Codec::kLz4, plain, 10);
  lz4.resize(lz4.size() - 21);  // drop the end marker, as a crashed writer leaves the file
  const Decoded decoded = decode(Codec::kLz4, lz4);
  EXPECT_EQ(decoded.bytes, plain);
  EXPECT_EQ(decoded.status.message(),
            "app.lz4: lz4 stream ends at byte " + std::to_string(lz4.size()) + " without its end marker: truncated");
}

std::string lz4_header(unsigned char token, int32_t compressed, int32_t decompressed, uint32_t checksum) {
  std::string header = "LZ4Block";
  header.push_back(static_cast<char>(token));
  for (uint32_t value : {static_cast<uint32_t>(compressed), static_cast<uint32_t>(decompressed), checksum}) {
    for (int i = 0; i < 4; ++i) header.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
  }
  return header;
}

TEST(Lz4Faults, AbsurdLengthsAreCorruptionNotAllocations) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"2 GiB decompressed", lz4_header(0x25, 100, 0x7FFFFFFF, 0)},
      {"more than the block size", lz4_header(0x25, 100, 32769, 0)},
      {"negative compressed", lz4_header(0x25, -5, 1000, 0)},
      {"compressed far past the bound", lz4_header(0x25, 0x7FFFFFFF, 1000, 0)},
      {"stored with different lengths", lz4_header(0x15, 10, 20, 0)},
      {"unknown method", lz4_header(0x35, 10, 20, 0)},
      {"end marker with a checksum", lz4_header(0x15, 0, 0, 1)},
      {"half an end marker", lz4_header(0x15, 0, 10, 0)},
  };
  for (const auto& [label, header] : cases) {
    const Decoded decoded = decode(Codec::kLz4, header + std::string(200, 'a'));
    EXPECT_TRUE(clean_error(decoded.status, Codec::kLz4)) << label;
    EXPECT_NE(decoded.status.message().find("lz4 block at byte 0: "), std::string::npos) << decoded.status.message();
  }
  // The largest legal block, with its data missing: truncated, and the buffer grows only as
  // far as bytes arrive.
  const Decoded huge = decode(Codec::kLz4, lz4_header(0x2F, 32 << 20, 32 << 20, 0) + "tail");
  EXPECT_TRUE(clean_error(huge.status, Codec::kLz4));
  EXPECT_NE(huge.status.message().find("truncated"), std::string::npos) << huge.status.message();
}

std::string be32(uint32_t value) {
  std::string bytes;
  for (int i = 3; i >= 0; --i) bytes.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
  return bytes;
}

TEST(SnappyFaults, StructuralDamageIsCaught) {
  const std::string header = loggen::compress(Codec::kSnappy, "");
  const std::string valid_chunk = loggen::compress(Codec::kSnappy, "{\"Event\":\"x\"}\n").substr(16);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"2 GiB chunk", header + be32(0x7FFFFFFF) + "abc"},
      {"zero-length chunk", header + be32(0) + "abc"},
      {"negative chunk length", header + be32(0xF0000000) + "abc"},
      {"absurd decompressed length", header + be32(5) + std::string("\xFF\xFF\xFF\xFF\x0F", 5)},
      {"bad preamble", header + be32(2) + std::string("\xFF\xFF", 2)},
      {"bad magic", std::string("\x82SNAPPX\x00", 8) + header.substr(8) + valid_chunk},
      {"copy before the start", header + be32(4) + std::string("\x08\x01\x00\x00", 4)},
  };
  for (const auto& [label, bytes] : cases) {
    const Decoded decoded = decode(Codec::kSnappy, bytes);
    EXPECT_TRUE(clean_error(decoded.status, Codec::kSnappy)) << label;
  }
  // A chunk length changed to a smaller one leaves the block short: the decoder notices.
  std::string shortened = header + valid_chunk;
  shortened[16 + 3] = static_cast<char>(shortened[16 + 3] - 1);
  EXPECT_FALSE(decode(Codec::kSnappy, shortened).status.ok());
}

TEST(SnappyFaults, NewerIncompatibleVersionIsUnsupported) {
  std::string stream = loggen::compress(Codec::kSnappy, "{}\n");
  stream[15] = '\x02';  // compatible version 2
  const Decoded decoded = decode(Codec::kSnappy, stream);
  EXPECT_EQ(decoded.status.code(), StatusCode::kUnsupported) << decoded.status.message();
}

TEST(LzfFaults, StructuralDamageIsCaught) {
  const std::string chunk = loggen::compress(Codec::kLzf, std::string(1000, 'a') + "b");
  ASSERT_EQ(chunk[2], '\x01');
  std::string wrong_length = chunk;
  wrong_length[6] = static_cast<char>(wrong_length[6] + 1);  // decompressed length one more
  std::string bad_type = chunk;
  bad_type[2] = '\x07';
  std::string bad_signature = chunk;
  bad_signature[1] = 'W';
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"decompressed length disagrees", wrong_length},
      {"unknown chunk type", bad_type},
      {"bad signature", bad_signature},
      {"zero lengths", std::string("ZV\x01\x00\x00\x00\x00", 7)},
      {"stored chunk missing its bytes", std::string("ZV\x00\xFF\xFF", 5) + "abc"},
  };
  for (const auto& [label, bytes] : cases) {
    const Decoded decoded = decode(Codec::kLzf, chunk + bytes);
    EXPECT_TRUE(clean_error(decoded.status, Codec::kLzf)) << label;
    EXPECT_EQ(decoded.bytes, std::string(1000, 'a') + "b") << label;
    EXPECT_NE(decoded.status.message().find("at byte " + std::to_string(chunk.size())), std::string::npos)
        << decoded.status.message();
  }
}

TEST(ZstdFaults, StructuralDamageIsCaught) {
  const std::string frame = loggen::compress(Codec::kZstd, event_lines(200));
  std::string bad_magic = frame;
  bad_magic[0] = '\x29';
  // Frame header: no single segment, window descriptor asking for a 2^41-byte window.
  const std::string huge_window("\x28\xB5\x2F\xFD\x00\xF8\x01\x00\x00", 9);
  for (const auto& bytes : {bad_magic, huge_window, frame + "trailing garbage"}) {
    const Decoded decoded = decode(Codec::kZstd, bytes);
    EXPECT_TRUE(clean_error(decoded.status, Codec::kZstd));
  }
  EXPECT_EQ(decode(Codec::kZstd, frame + "trailing garbage").bytes, event_lines(200));
}

// A zstd frame as the zstd tool writes it: one shot, content size in the header, and (when
// asked) an XXH64 checksum of the content.
std::string zstd_one_shot(const std::string& plain, bool checksum) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 3);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, checksum ? 1 : 0);
  std::string frame(ZSTD_compressBound(plain.size()), '\0');
  const size_t size = ZSTD_compress2(cctx, frame.data(), frame.size(), plain.data(), plain.size());
  ZSTD_freeCCtx(cctx);
  EXPECT_FALSE(ZSTD_isError(size));
  frame.resize(size);
  return frame;
}

TEST(ZstdFrames, OneShotFramesSkippableFramesAndChecksums) {
  const std::string plain = event_lines(4000);  // more than one 128 KiB block
  std::string skippable("\x50\x2A\x4D\x18\x05\x00\x00\x00hello", 13);
  const std::string compressed =
      skippable + zstd_one_shot(plain, true) + skippable + zstd_one_shot("", false) + zstd_one_shot(plain, false);
  for (size_t read_size : {size_t{1}, size_t{1000}, size_t{1} << 20}) {
    const Decoded decoded = decode(Codec::kZstd, compressed, read_size);
    EXPECT_TRUE(decoded.status.ok()) << decoded.status.message();
    EXPECT_TRUE(decoded.bytes == plain + plain) << read_size;
  }
}

TEST(ZstdFaults, FrameChecksumLeavesNoFlippedBitSilent) {
  const std::string plain = event_lines(400);
  const std::string frame = zstd_one_shot(plain, true);
  for (size_t byte = 6; byte < frame.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string damaged = frame;
      damaged[byte] = static_cast<char>(damaged[byte] ^ (1 << bit));
      const Decoded decoded = decode(Codec::kZstd, damaged, 1000);
      if (decoded.status.ok()) {
        ASSERT_TRUE(decoded.bytes == plain) << "byte " << byte << " bit " << bit;
        continue;
      }
      ASSERT_TRUE(clean_error(decoded.status, Codec::kZstd)) << "byte " << byte << " bit " << bit;
      ASSERT_TRUE(is_prefix(decoded.bytes, plain) || decoded.status.message().find("checksum") != std::string::npos)
          << decoded.status.message();
    }
  }
}

TEST(ZstdFaults, ShortInputs) {
  const Decoded magic_start = decode(Codec::kZstd, std::string("\x28\xB5", 2));
  EXPECT_TRUE(is_truncated_stream(magic_start.status)) << magic_start.status.message();
  const Decoded skippable_start = decode(Codec::kZstd, std::string("\x5A\x2A\x4D\x18\x10", 5));
  EXPECT_TRUE(is_truncated_stream(skippable_start.status)) << skippable_start.status.message();
  const Decoded not_zstd = decode(Codec::kZstd, "ab");
  EXPECT_TRUE(clean_error(not_zstd.status, Codec::kZstd));
  EXPECT_FALSE(is_truncated_stream(not_zstd.status));
  const Decoded text = decode(Codec::kZstd, "{\"Event\":\"SparkListenerLogStart\"}\n");
  EXPECT_EQ(text.status.message(), "app.zstd: zstd frame at byte 0: not a zstd frame (magic 0x7645227b)");
}

TEST(TruncatedStream, OnlyTheEndsEarlyKind) {
  EXPECT_TRUE(
      is_truncated_stream(Status::Corruption("a: lz4 stream ends at byte 4 without its end marker: truncated")));
  EXPECT_FALSE(is_truncated_stream(Status::Corruption("a: lz4 block at byte 0: bad magic")));
  EXPECT_FALSE(is_truncated_stream(Status::IOError("a: read failed: truncated")));
  EXPECT_FALSE(is_truncated_stream(Status()));
}

TEST(GzipFaults, DamagedTrailerIsCaught) {
  const std::string plain = event_lines(200);
  const std::string member = loggen::compress(Codec::kGzip, plain);
  std::string bad_crc = member;
  bad_crc[bad_crc.size() - 8] = static_cast<char>(bad_crc[bad_crc.size() - 8] ^ 0x10);
  std::string bad_size = member;
  bad_size[bad_size.size() - 1] = static_cast<char>(bad_size[bad_size.size() - 1] ^ 0x01);
  for (const auto& bytes : {bad_crc, bad_size, member + "not gzip"}) {
    const Decoded decoded = decode(Codec::kGzip, bytes);
    EXPECT_TRUE(clean_error(decoded.status, Codec::kGzip));
  }
}

TEST(GzipFaults, NoFlippedBitInTheDeflateBodyGivesWrongBytesSilently) {
  // One dynamic-Huffman member without sync flushes (whose padding bits inflate ignores):
  // a flip there breaks the code or the CRC-32/length trailer, or decodes to the same bytes.
  const std::string plain = event_lines(300);
  const std::string member = loggen::compress(Codec::kGzip, plain);
  const size_t body_end = member.size() - 8;
  // The last body byte is left out: its high bits pad the final block to a byte boundary.
  for (size_t byte = 10; byte + 1 < body_end; byte += 3) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string damaged = member;
      damaged[byte] = static_cast<char>(damaged[byte] ^ (1 << bit));
      const Decoded decoded = decode(Codec::kGzip, damaged);
      if (decoded.status.ok()) {
        ASSERT_TRUE(decoded.bytes == plain) << "byte " << byte << " bit " << bit;
        continue;
      }
      ASSERT_TRUE(clean_error(decoded.status, Codec::kGzip)) << "byte " << byte << " bit " << bit;
    }
  }
}

// 1 GiB of zeros in one zstd frame: a few tens of kilobytes on disk.
std::string zstd_bomb() {
  std::ostringstream out;
  auto writer = loggen::make_compressed_writer(Codec::kZstd, out);
  const std::string zeros(size_t{1} << 20, '\0');
  for (int i = 0; i < 1024; ++i) writer->write(zeros);
  writer->finish();
  return out.str();
}

TEST(DecompressLimits, ZstdBombStopsAtTheOutputCap) {
  const std::string bomb = zstd_bomb();
  EXPECT_LT(bomb.size(), size_t{1} << 20);
  DecompressLimits limits;
  limits.max_output_bytes = uint64_t{64} << 20;
  limits.max_ratio = 0;  // the cap alone
  const Decoded decoded = decode(Codec::kZstd, bomb, 1 << 20, limits);
  EXPECT_EQ(decoded.status.code(), StatusCode::kLimitExceeded) << decoded.status.message();
  EXPECT_EQ(decoded.bytes.size(), limits.max_output_bytes);
  EXPECT_NE(decoded.status.message().find("app.zstd: "), std::string::npos) << decoded.status.message();
}

TEST(DecompressLimits, ZstdBombStopsAtTheRatio) {
  DecompressLimits limits;
  limits.max_ratio = 100;
  const Decoded decoded = decode(Codec::kZstd, zstd_bomb(), 1 << 16, limits);
  EXPECT_EQ(decoded.status.code(), StatusCode::kLimitExceeded) << decoded.status.message();
  EXPECT_GE(decoded.bytes.size(), size_t{1} << 20);  // the first MiB is never judged
  EXPECT_LT(decoded.bytes.size(), size_t{256} << 20);
  EXPECT_NE(decoded.status.message().find("ratio"), std::string::npos) << decoded.status.message();
}

TEST(DecompressLimits, TheDefaultRatioStopsABombAndPassesRealLogs) {
  const Decoded bomb = decode(Codec::kZstd, zstd_bomb(), 1 << 16, DecompressLimits{});
  EXPECT_EQ(bomb.status.code(), StatusCode::kLimitExceeded) << bomb.status.message();
  EXPECT_LT(bomb.bytes.size(), size_t{256} << 20);
  // Event lines compress far less than 1000:1 with every codec.
  const std::string plain = event_lines(20000);
  for (Codec codec : kCompressionCodecs) {
    const Decoded log = decode(codec, loggen::compress(codec, plain), 1 << 16, DecompressLimits{});
    EXPECT_TRUE(log.status.ok()) << codec_name(codec) << ": " << log.status.message();
    EXPECT_EQ(log.bytes.size(), plain.size()) << codec_name(codec);
  }
}

TEST(DecompressLimits, EveryCodecStopsAtTheRatio) {
  // snappy tops out near 21:1 (64 bytes per 3-byte copy), so the ratio asked for is modest.
  const std::string zeros(size_t{16} << 20, '\0');
  for (Codec codec : kCompressionCodecs) {
    DecompressLimits limits;
    limits.max_ratio = 15;
    const Decoded decoded = decode(codec, loggen::compress(codec, zeros), 1 << 16, limits);
    EXPECT_EQ(decoded.status.code(), StatusCode::kLimitExceeded) << codec_name(codec);
  }
}

TEST(DecompressLimits, OutputCapIsExact) {
  const std::string plain = event_lines(1000);
  for (Codec codec : kCompressionCodecs) {
    DecompressLimits limits;
    limits.max_output_bytes = plain.size();
    const Decoded exact = decode(codec, loggen::compress(codec, plain, 7), 1000, limits);
    EXPECT_TRUE(exact.status.ok()) << codec_name(codec) << ": " << exact.status.message();
    EXPECT_EQ(exact.bytes, plain);

    limits.max_output_bytes = plain.size() - 1;
    const Decoded over = decode(codec, loggen::compress(codec, plain, 7), 1000, limits);
    EXPECT_EQ(over.status.code(), StatusCode::kLimitExceeded) << codec_name(codec);
    EXPECT_EQ(over.bytes, plain.substr(0, plain.size() - 1)) << codec_name(codec);
  }
}

}  // namespace
}  // namespace sf::io

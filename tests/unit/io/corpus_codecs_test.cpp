// The corpus's codecs/ folder: real event logs re-encoded by the Java libraries Spark uses
// (lz4-java 1.8.0, snappy-java 1.1.8.3, compress-lzf 1.0.4). Each must decode to exactly the
// bytes of its source log, found elsewhere in the corpus (plain, or zstd as Spark wrote it).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/byte_stream.h"
#include "io/codec.h"
#include "support/corpus.h"
#include "unit/io/decoding.h"

namespace sf::io {
namespace {

using testing::same_bytes;

namespace fs = std::filesystem;

constexpr size_t kMaxLogBytes = size_t{256} << 20;

constexpr const char* kAqeSource =
    "NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/aqeshuffle_eventlog.zstd";
constexpr const char* kSpark41Source =
    "kubeflow__mcp-apache-spark-history-server/skills/cli/e2e/spark-events/local-1776286786993.zstd";
constexpr const char* kBigSource =
    "NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling/"
    "tasks_executors_fail_compressed_eventlog.zstd";

// Decodes a file the way the product will: codec from the name, confirmed by the magic.
Result<std::string> decode_file(const fs::path& path) {
  auto file = open_file_stream(path.string());
  if (!file) return fail(file.error());
  const auto codec = codec_from_file_name(path.filename().string());
  auto stream = open_decompressor(codec.value_or(Codec::kNone), std::move(*file), path.filename().string());
  if (!stream) return fail(stream.error());
  return read_all(**stream, kMaxLogBytes);
}

Result<std::string> read_file(const fs::path& path) {
  auto file = open_file_stream(path.string());
  if (!file) return fail(file.error());
  return read_all(**file, kMaxLogBytes);
}

// FNV-1a 64: a short fingerprint to print beside the size when a comparison fails.
uint64_t fingerprint(const std::string& bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return hash;
}

void expect_decodes_to_source(const fs::path& encoded, const fs::path& source, Codec expected_codec) {
  auto first_bytes = read_file(encoded);
  ASSERT_TRUE(first_bytes) << first_bytes.error().message();
  EXPECT_EQ(codec_from_magic(sniff_magic(std::string_view(*first_bytes).substr(0, 8))), expected_codec);
  EXPECT_EQ(codec_from_file_name(encoded.filename().string()), expected_codec);

  auto decoded = decode_file(encoded);
  ASSERT_TRUE(decoded) << decoded.error().message();
  auto expected = decode_file(source);  // a .zstd source decodes through the zstd stream
  ASSERT_TRUE(expected) << expected.error().message();
  EXPECT_GT(expected->size(), 0u);
  EXPECT_TRUE(same_bytes(*decoded, *expected))
      << encoded << ": " << decoded->size() << " bytes, fingerprint " << fingerprint(*decoded) << "; source "
      << expected->size() << " bytes, fingerprint " << fingerprint(*expected);
}

#define SF_CODEC_CORPUS_TEST(test_name, encoded_relative, source_relative, codec) \
  TEST(CorpusCodecs, test_name) {                                                 \
    SF_REQUIRE_CORPUS_FILE(encoded, encoded_relative);                            \
    SF_REQUIRE_CORPUS_FILE(source, source_relative);                              \
    expect_decodes_to_source(encoded, source, codec);                             \
  }

SF_CODEC_CORPUS_TEST(Local1422981780767Lz4, "codecs/local-1422981780767.lz4", "spark-events/local-1422981780767",
                     Codec::kLz4)
SF_CODEC_CORPUS_TEST(Local1422981780767Snappy, "codecs/local-1422981780767.snappy", "spark-events/local-1422981780767",
                     Codec::kSnappy)
SF_CODEC_CORPUS_TEST(Local1422981780767Lzf, "codecs/local-1422981780767.lzf", "spark-events/local-1422981780767",
                     Codec::kLzf)
SF_CODEC_CORPUS_TEST(Local1651694304852Lz4, "codecs/local-1651694304852.lz4", kAqeSource, Codec::kLz4)
SF_CODEC_CORPUS_TEST(Local1651694304852Snappy, "codecs/local-1651694304852.snappy", kAqeSource, Codec::kSnappy)
SF_CODEC_CORPUS_TEST(Local1651694304852Lzf, "codecs/local-1651694304852.lzf", kAqeSource, Codec::kLzf)
SF_CODEC_CORPUS_TEST(Local1776286786993Lz4, "codecs/local-1776286786993.lz4", kSpark41Source, Codec::kLz4)
SF_CODEC_CORPUS_TEST(Local1776286786993Snappy, "codecs/local-1776286786993.snappy", kSpark41Source, Codec::kSnappy)
SF_CODEC_CORPUS_TEST(Application1603128018386_7846Lz4, "codecs/application_1603128018386_7846.lz4", kBigSource,
                     Codec::kLz4)

TEST(CorpusCodecs, RollingDirectoryPartsJoinToTheSourceLog) {
  SF_REQUIRE_CORPUS_FILE(dir, "codecs/eventlog_v2_local-1642039451826");
  SF_REQUIRE_CORPUS_FILE(source, "spark-events/local-1642039451826");
  std::string joined;
  for (int part = 1; part <= 3; ++part) {
    const fs::path path = dir / ("events_" + std::to_string(part) + "_local-1642039451826.lz4");
    auto decoded = decode_file(path);
    ASSERT_TRUE(decoded) << decoded.error().message();
    EXPECT_GT(decoded->size(), 0u) << path;
    joined += *decoded;
  }
  auto expected = read_file(source);
  ASSERT_TRUE(expected);
  EXPECT_TRUE(same_bytes(joined, *expected));
  EXPECT_TRUE(fs::exists(dir / "appstatus_local-1642039451826"));
}

// Where each lz4-java block of a stream starts, and the plain bytes before it.
struct Lz4Block {
  size_t compressed_offset;
  size_t plain_offset;
};

std::vector<Lz4Block> lz4_blocks(const std::string& lz4) {
  std::vector<Lz4Block> blocks;
  size_t position = 0;
  size_t plain = 0;
  auto le32 = [&](size_t at) {
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) value |= uint32_t{static_cast<unsigned char>(lz4[at + i])} << (8 * i);
    return value;
  };
  while (position + 21 <= lz4.size()) {
    blocks.push_back({position, plain});
    plain += le32(position + 13);
    position += 21 + le32(position + 9);
  }
  blocks.push_back({position, plain});  // the end of the file
  return blocks;
}

TEST(CorpusCodecs, BigLz4TruncatedAtEveryBlockBoundary) {
  // 1,117 blocks, 35 MiB decoded. Cut exactly at a block start, the decoder must hand over
  // every byte before the cut and then say the stream is truncated; after the end marker it
  // must end cleanly; cut one byte into a header or into a block's data, likewise truncated.
  // Every lz4-java block starts with its own magic, so the bytes from any block start on are
  // a stream too: each cut is decoded from three blocks before it (the decoder's behaviour at
  // the cut does not depend on how much came before), and every 32nd cut from the start of
  // the file (all bytes before the cut must arrive).
  SF_REQUIRE_CORPUS_FILE(encoded, "codecs/application_1603128018386_7846.lz4");
  SF_REQUIRE_CORPUS_FILE(source, kBigSource);
  auto compressed = read_file(encoded);
  ASSERT_TRUE(compressed);
  auto plain = decode_file(source);
  ASSERT_TRUE(plain);
  const std::vector<Lz4Block> blocks = lz4_blocks(*compressed);
  ASSERT_EQ(blocks.size(), 1118u);
  ASSERT_EQ(blocks.back().compressed_offset, compressed->size());
  ASSERT_EQ(blocks.back().plain_offset, plain->size());

  std::string buffer(size_t{1} << 20, '\0');
  // Decodes compressed[from.compressed_offset, cut) and checks it yields plain from
  // from.plain_offset up to plain_end, then a clean end or a truncation error.
  auto check_cut = [&](const Lz4Block& from, size_t cut, size_t plain_end, bool clean_end) {
    SCOPED_TRACE("from byte " + std::to_string(from.compressed_offset) + ", cut at byte " + std::to_string(cut));
    const size_t begin = from.compressed_offset;
    auto stream = open_decompressor(
        Codec::kLz4, memory_stream(compressed->substr(begin, std::min(cut, compressed->size()) - begin)), "big.lz4");
    ASSERT_TRUE(stream);
    size_t decoded = from.plain_offset;
    Status status;
    for (;;) {
      auto got = (*stream)->read(buffer);
      if (!got) {
        status = got.error();
        break;
      }
      if (*got == 0) break;
      ASSERT_LE(decoded + *got, plain->size());
      ASSERT_EQ(plain->compare(decoded, *got, buffer.data(), *got), 0) << "wrong bytes at " << decoded;
      decoded += *got;
    }
    ASSERT_EQ(decoded, plain_end);
    if (clean_end) {
      ASSERT_TRUE(status.ok()) << status.message();
    } else {
      ASSERT_EQ(status.code(), StatusCode::kCorruption);
      ASSERT_NE(status.message().find("truncated"), std::string::npos) << status.message();
      ASSERT_EQ(status.message().rfind("big.lz4: lz4 stream ends ", 0), 0u) << status.message();
    }
  };
  for (size_t i = 0; i < blocks.size(); ++i) {
    const Lz4Block& block = blocks[i];
    const Lz4Block& window_start = blocks[i >= 3 ? i - 3 : 0];
    const bool at_end = i + 1 == blocks.size();
    const bool after_end_marker = i + 2 == blocks.size();
    check_cut(window_start, block.compressed_offset, block.plain_offset, i == 0 || at_end);
    if (!at_end) {
      check_cut(window_start, block.compressed_offset + 1, block.plain_offset, false);
      check_cut(window_start, block.compressed_offset + 22, block.plain_offset, after_end_marker);
    }
    if (i % 32 == 0 || at_end) check_cut(blocks[0], block.compressed_offset, block.plain_offset, i == 0 || at_end);
  }
}

}  // namespace
}  // namespace sf::io

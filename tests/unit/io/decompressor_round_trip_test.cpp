// Every codec, written by the codec writers and read back by the decoders: empty input, one
// byte, sizes around the block sizes, many blocks, flushes, concatenated streams, and every
// read size from one byte to a megabyte.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "io/codec.h"
#include "loggen/codec_writers.h"
#include "unit/io/decoding.h"

namespace sf::io {
namespace {

using testing::decode;
using testing::Decoded;
using testing::same_bytes;

// Event-log-like lines: compressible, but not trivially (numbers vary).
std::string event_log_text(size_t min_bytes, uint32_t seed = 1) {
  std::string text;
  uint32_t state = seed;
  for (size_t line = 0; text.size() < min_bytes; ++line) {
    state = state * 1664525u + 1013904223u;
    text += "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":" + std::to_string(line % 97) +
            ",\"Task Info\":{\"Task ID\":" + std::to_string(line) +
            ",\"Launch Time\":" + std::to_string(1422981780767ull + state % 100000) + ",\"Executor ID\":\"" +
            std::to_string(state % 13) + "\",\"Host\":\"host-" + std::to_string(state % 7) + ".example\"}}\n";
  }
  return text;
}

// Bytes that do not compress: lz4 stores them raw, lzf in stored chunks.
std::string noise(size_t size, uint32_t seed = 7) {
  std::string bytes(size, '\0');
  uint32_t state = seed;
  for (char& c : bytes) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    c = static_cast<char>(state & 0xFF);
  }
  return bytes;
}

class RoundTrip : public ::testing::TestWithParam<Codec> {};

TEST_P(RoundTrip, EmptyInput) {
  const Codec codec = GetParam();
  const Decoded decoded = decode(codec, loggen::compress(codec, ""), 4096);
  EXPECT_TRUE(decoded.status.ok()) << decoded.status.message();
  EXPECT_EQ(decoded.bytes, "");
}

TEST_P(RoundTrip, EmptyFileIsAnEmptyStream) {
  const Decoded decoded = decode(GetParam(), "", 4096);
  EXPECT_TRUE(decoded.status.ok()) << decoded.status.message();
  EXPECT_EQ(decoded.bytes, "");
}

TEST_P(RoundTrip, OneByte) {
  const Codec codec = GetParam();
  const Decoded decoded = decode(codec, loggen::compress(codec, "{"), 4096);
  EXPECT_TRUE(decoded.status.ok()) << decoded.status.message();
  EXPECT_EQ(decoded.bytes, "{");
}

TEST_P(RoundTrip, SizesAroundTheBlockSizes) {
  const Codec codec = GetParam();
  const std::string text = event_log_text(140000);
  for (size_t size : {size_t{15}, size_t{16}, size_t{17}, size_t{32767}, size_t{32768}, size_t{32769}, size_t{65534},
                      size_t{65535}, size_t{65536}, size_t{65537}, size_t{98304}, size_t{131071}, size_t{131073}}) {
    const std::string plain = text.substr(0, size);
    const Decoded decoded = decode(codec, loggen::compress(codec, plain), 65536);
    EXPECT_TRUE(decoded.status.ok()) << size << ": " << decoded.status.message();
    EXPECT_TRUE(same_bytes(decoded.bytes, plain)) << "size " << size;
  }
}

TEST_P(RoundTrip, ManyBlocksWithEveryReadSize) {
  const Codec codec = GetParam();
  const std::string plain = event_log_text(600000);
  const std::string compressed = loggen::compress(codec, plain);
  for (size_t read_size : {size_t{1}, size_t{7}, size_t{4096}, size_t{32768}, size_t{100000}, size_t{1} << 20}) {
    const Decoded decoded = decode(codec, compressed, read_size);
    EXPECT_TRUE(decoded.status.ok()) << read_size << ": " << decoded.status.message();
    EXPECT_TRUE(same_bytes(decoded.bytes, plain)) << "read size " << read_size;
  }
}

TEST_P(RoundTrip, IncompressibleBytes) {
  const Codec codec = GetParam();
  const std::string plain = noise(300001);
  const Decoded decoded = decode(codec, loggen::compress(codec, plain), 50000);
  EXPECT_TRUE(decoded.status.ok()) << decoded.status.message();
  EXPECT_TRUE(same_bytes(decoded.bytes, plain));
}

TEST_P(RoundTrip, MixedCompressibleAndIncompressibleBlocks) {
  const Codec codec = GetParam();
  const std::string plain = event_log_text(70000) + noise(70000) + event_log_text(70000, 3) + noise(100);
  const Decoded decoded = decode(codec, loggen::compress(codec, plain), 8192);
  EXPECT_TRUE(decoded.status.ok()) << decoded.status.message();
  EXPECT_TRUE(same_bytes(decoded.bytes, plain));
}

TEST_P(RoundTrip, FlushedEveryFewLinesAsSparkDoes) {
  const Codec codec = GetParam();
  const std::string plain = event_log_text(300000);
  for (size_t lines : {size_t{1}, size_t{50}}) {
    const Decoded decoded = decode(codec, loggen::compress(codec, plain, lines), 65536);
    EXPECT_TRUE(decoded.status.ok()) << decoded.status.message();
    EXPECT_TRUE(same_bytes(decoded.bytes, plain)) << "flush every " << lines << " lines";
  }
}

TEST_P(RoundTrip, ConcatenatedStreamsReadAsOne) {
  const Codec codec = GetParam();
  const std::string first = event_log_text(50000, 11);
  const std::string second = event_log_text(70000, 12);
  const std::string third = "{\"Event\":\"SparkListenerApplicationEnd\"}\n";
  const std::string compressed = loggen::compress(codec, first, 10) + loggen::compress(codec, "") +
                                 loggen::compress(codec, second) + loggen::compress(codec, third);
  for (size_t read_size : {size_t{1}, size_t{4096}, size_t{1} << 20}) {
    const Decoded decoded = decode(codec, compressed, read_size);
    EXPECT_TRUE(decoded.status.ok()) << decoded.status.message();
    EXPECT_TRUE(same_bytes(decoded.bytes, first + second + third)) << "read size " << read_size;
  }
}

TEST_P(RoundTrip, ReadFillsTheCallersBuffer) {
  // The parser downstream reads megabytes at a time; a decoder should not hand back one
  // 32 KiB block per call when more is decodable.
  const Codec codec = GetParam();
  const std::string plain = event_log_text(3 << 20);
  auto stream = open_decompressor(codec, memory_stream(loggen::compress(codec, plain, 50)), "big");
  ASSERT_TRUE(stream);
  std::string buffer(1 << 20, '\0');
  auto got = (*stream)->read(buffer);
  ASSERT_TRUE(got) << got.error().message();
  EXPECT_EQ(*got, buffer.size());
}

TEST_P(RoundTrip, CountsEveryCompressedByteConsumed) {
  const Codec codec = GetParam();
  const std::string compressed = loggen::compress(codec, event_log_text(200000));
  auto stream = open_decompressor(codec, memory_stream(compressed), "counted");
  ASSERT_TRUE(stream);
  auto all = read_all(**stream, 1 << 30);
  ASSERT_TRUE(all) << all.error().message();
  EXPECT_EQ((*stream)->source_bytes_consumed(), compressed.size());
}

TEST_P(RoundTrip, WriterFlushWithoutDataStillDecodes) {
  const Codec codec = GetParam();
  std::ostringstream out;
  auto writer = loggen::make_compressed_writer(codec, out);
  writer->flush();
  writer->write("{\"a\":1}\n");
  writer->flush();
  writer->flush();
  writer->finish();
  const Decoded decoded = decode(codec, out.str(), 4096);
  EXPECT_TRUE(decoded.status.ok()) << decoded.status.message();
  EXPECT_EQ(decoded.bytes, "{\"a\":1}\n");
}

INSTANTIATE_TEST_SUITE_P(Codecs, RoundTrip, ::testing::ValuesIn(kCompressionCodecs),
                         [](const ::testing::TestParamInfo<Codec>& param) {
                           return std::string(codec_name(param.param));
                         });

TEST(CodecWriters, LzfFramingMatchesNing) {
  // A compressible chunk: 'Z' 'V' 1, compressed length, decompressed length (big-endian).
  const std::string plain(1000, 'a');
  const std::string lzf = loggen::compress(Codec::kLzf, plain);
  ASSERT_GE(lzf.size(), 7u);
  EXPECT_EQ(lzf.substr(0, 3), std::string("ZV\x01", 3));
  EXPECT_EQ(static_cast<unsigned char>(lzf[5]) * 256 + static_cast<unsigned char>(lzf[6]), 1000);
  // A chunk too short to compress is stored: 'Z' 'V' 0, length.
  EXPECT_EQ(loggen::compress(Codec::kLzf, "abc"), std::string("ZV\x00\x00\x03"
                                                              "abc",
                                                              8));
}

TEST(CodecWriters, Lz4FramingMatchesLz4Java) {
  const std::string lz4 = loggen::compress(Codec::kLz4, "");
  // An empty stream is just the end marker: magic, token 0x10 | level 5, three zero ints.
  EXPECT_EQ(lz4, std::string("LZ4Block\x15", 9) + std::string(12, '\0'));
  const std::string stored = loggen::compress(Codec::kLz4, "x");
  ASSERT_EQ(stored.size(), 21u + 1u + 21u);
  EXPECT_EQ(stored[8], '\x15');  // one byte does not compress: stored raw
  const std::string compressed = loggen::compress(Codec::kLz4, std::string(5000, 'x'));
  EXPECT_EQ(compressed[8], '\x25');  // lz4 method, 32 KiB block level
}

TEST(CodecWriters, SnappyJavaHeader) {
  EXPECT_EQ(loggen::compress(Codec::kSnappy, ""), std::string("\x82SNAPPY\x00\x00\x00\x00\x01\x00\x00\x00\x01", 16));
}

}  // namespace
}  // namespace sf::io

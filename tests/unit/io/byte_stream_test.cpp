// The plain streams: files, memory, a sniffed prefix put back, read_all's limit.
#include "io/byte_stream.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace sf::io {
namespace {

namespace fs = std::filesystem;

// A directory of its own for each test, removed afterwards.
class ByteStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("sf_io_byte_stream_" + std::to_string(::getpid()) + "_" + info->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write_file(const std::string& name, const std::string& bytes) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path.string();
  }

  fs::path dir_;
};

std::string pattern_bytes(size_t size) {
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>((i * 131 + i / 7) & 0xFF);
  return bytes;
}

TEST_F(ByteStreamTest, FileStreamReadsEveryByteAndCountsThem) {
  const std::string bytes = pattern_bytes(3 * 1024 * 1024 + 17);
  auto stream = open_file_stream(write_file("log", bytes));
  ASSERT_TRUE(stream) << stream.error().message();
  std::string read_back;
  std::string buffer(1 << 20, '\0');
  for (;;) {
    auto got = (*stream)->read(buffer);
    ASSERT_TRUE(got) << got.error().message();
    if (*got == 0) break;
    read_back.append(buffer.data(), *got);
    EXPECT_EQ((*stream)->source_bytes_consumed(), read_back.size());
  }
  EXPECT_EQ(read_back.size(), bytes.size());
  EXPECT_TRUE(read_back == bytes);
}

TEST_F(ByteStreamTest, MissingFileIsNotFoundAndNamesPathAndReason) {
  const std::string path = (dir_ / "no-such-log.lz4").string();
  auto stream = open_file_stream(path);
  ASSERT_FALSE(stream);
  EXPECT_EQ(stream.error().code(), StatusCode::kNotFound);
  EXPECT_NE(stream.error().message().find(path), std::string::npos) << stream.error().message();
  EXPECT_NE(stream.error().message().find("No such file or directory"), std::string::npos) << stream.error().message();
}

TEST_F(ByteStreamTest, DirectoryIsRefusedWithItsPath) {
  auto stream = open_file_stream(dir_.string());
  ASSERT_FALSE(stream);
  EXPECT_EQ(stream.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(stream.error().message().find(dir_.string()), std::string::npos);
}

TEST_F(ByteStreamTest, EmptyFileEndsAtOnce) {
  auto stream = open_file_stream(write_file("empty", ""));
  ASSERT_TRUE(stream);
  char byte = 0;
  auto got = (*stream)->read({&byte, 1});
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, 0u);
}

TEST(MemoryStream, YieldsItsBytesInPiecesAndCountsThem) {
  auto stream = memory_stream("hello, world");
  char buffer[5];
  std::string read_back;
  for (;;) {
    auto got = stream->read(buffer);
    ASSERT_TRUE(got);
    if (*got == 0) break;
    read_back.append(buffer, *got);
  }
  EXPECT_EQ(read_back, "hello, world");
  EXPECT_EQ(stream->source_bytes_consumed(), 12u);
}

TEST(PrefixedStream, PutsSniffedBytesBackInFront) {
  auto inner = memory_stream("{\"Event\":\"SparkListenerLogStart\"}\n");
  std::string sniffed(8, '\0');
  auto got = inner->read(sniffed);
  ASSERT_TRUE(got);
  sniffed.resize(*got);
  auto whole = prefixed_stream(sniffed, std::move(inner));
  auto all = read_all(*whole, 1 << 20);
  ASSERT_TRUE(all);
  EXPECT_EQ(*all, "{\"Event\":\"SparkListenerLogStart\"}\n");
  EXPECT_EQ(whole->source_bytes_consumed(), all->size());
}

TEST(ReadAll, AcceptsExactlyTheLimitAndRefusesOneByteMore) {
  auto exact = memory_stream(std::string(1000, 'x'));
  auto all = read_all(*exact, 1000);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), 1000u);

  auto longer = memory_stream(std::string(1001, 'x'));
  auto refused = read_all(*longer, 1000);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code(), StatusCode::kLimitExceeded);
}

TEST(ReadAll, ReadsLargeStreams) {
  const std::string bytes = pattern_bytes(5 * 1024 * 1024 + 3);
  auto stream = memory_stream(bytes);
  auto all = read_all(*stream, bytes.size());
  ASSERT_TRUE(all);
  EXPECT_TRUE(*all == bytes);
}

}  // namespace
}  // namespace sf::io

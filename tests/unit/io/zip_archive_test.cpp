// Zip archives as the History Server's /logs endpoint returns them: written here with
// libarchive's zip writer, then listed and read back, and damaged.
#include "io/zip_archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "io/codec.h"
#include "loggen/codec_writers.h"

namespace sf::io {
namespace {

namespace fs = std::filesystem;

struct FileToZip {
  std::string name;  // a trailing '/' makes a directory
  std::string bytes;
};

void write_zip(const fs::path& path, const std::vector<FileToZip>& files) {
  archive* zip = archive_write_new();
  ASSERT_NE(zip, nullptr);
  ASSERT_EQ(archive_write_set_format_zip(zip), ARCHIVE_OK);
  ASSERT_EQ(archive_write_open_filename(zip, path.c_str()), ARCHIVE_OK) << archive_error_string(zip);
  for (const FileToZip& file : files) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, file.name.c_str());
    const bool directory = !file.name.empty() && file.name.back() == '/';
    archive_entry_set_filetype(entry, directory ? AE_IFDIR : AE_IFREG);
    archive_entry_set_perm(entry, directory ? 0755 : 0644);
    archive_entry_set_size(entry, static_cast<la_int64_t>(file.bytes.size()));
    archive_entry_set_mtime(entry, 1422981780, 0);
    ASSERT_EQ(archive_write_header(zip, entry), ARCHIVE_OK) << archive_error_string(zip);
    if (!file.bytes.empty()) {
      ASSERT_EQ(archive_write_data(zip, file.bytes.data(), file.bytes.size()),
                static_cast<la_ssize_t>(file.bytes.size()));
    }
    archive_entry_free(entry);
  }
  ASSERT_EQ(archive_write_close(zip), ARCHIVE_OK);
  archive_write_free(zip);
}

std::string event_log(int app, size_t lines) {
  std::string text = "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.3.0\"}\n";
  for (size_t i = 0; i < lines; ++i) {
    text += "{\"Event\":\"SparkListenerTaskEnd\",\"App\":" + std::to_string(app) + ",\"Task ID\":" + std::to_string(i) +
            "}\n";
  }
  return text;
}

class ZipArchiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("sf_io_zip_" + std::to_string(::getpid()) + "_" + info->name());
    fs::create_directories(dir_);
    zip_path_ = (dir_ / "logs.zip").string();
    single_log_ = event_log(1, 5000);
    part1_ = event_log(2, 3000);
    part2_ = event_log(3, 2000);
    write_zip(zip_path_, {
                             {"app-20210615-0001", single_log_},
                             {"eventlog_v2_local-1642039451826/", ""},
                             {"eventlog_v2_local-1642039451826/events_1_local-1642039451826.lz4",
                              loggen::compress(Codec::kLz4, part1_, 50)},
                             {"eventlog_v2_local-1642039451826/events_2_local-1642039451826.lz4",
                              loggen::compress(Codec::kLz4, part2_, 50)},
                             {"eventlog_v2_local-1642039451826/appstatus_local-1642039451826", ""},
                         });
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string read_entry(const std::string& name) {
    auto stream = open_zip_entry(zip_path_, name);
    EXPECT_TRUE(stream) << stream.error().message();
    if (!stream) return {};
    auto decompressed = open_decompressor(codec_from_file_name(name).value_or(Codec::kNone), std::move(*stream), name);
    EXPECT_TRUE(decompressed);
    auto bytes = read_all(**decompressed, 1 << 30);
    EXPECT_TRUE(bytes) << bytes.error().message();
    return bytes ? *bytes : std::string();
  }

  fs::path dir_;
  std::string zip_path_;
  std::string single_log_;
  std::string part1_;
  std::string part2_;
};

TEST_F(ZipArchiveTest, ListsEntriesInArchiveOrder) {
  auto entries = list_zip_entries(zip_path_);
  ASSERT_TRUE(entries) << entries.error().message();
  ASSERT_EQ(entries->size(), 5u);
  EXPECT_EQ((*entries)[0].name, "app-20210615-0001");
  EXPECT_EQ((*entries)[0].size_bytes, single_log_.size());
  EXPECT_FALSE((*entries)[0].is_directory);
  EXPECT_EQ((*entries)[1].name, "eventlog_v2_local-1642039451826/");
  EXPECT_TRUE((*entries)[1].is_directory);
  EXPECT_EQ((*entries)[2].name, "eventlog_v2_local-1642039451826/events_1_local-1642039451826.lz4");
  EXPECT_EQ((*entries)[4].name, "eventlog_v2_local-1642039451826/appstatus_local-1642039451826");
  EXPECT_EQ((*entries)[4].size_bytes, 0u);
}

TEST_F(ZipArchiveTest, ReadsASingleLogAndARollingDirectory) {
  EXPECT_EQ(read_entry("app-20210615-0001"), single_log_);
  EXPECT_EQ(read_entry("eventlog_v2_local-1642039451826/events_1_local-1642039451826.lz4"), part1_);
  EXPECT_EQ(read_entry("eventlog_v2_local-1642039451826/events_2_local-1642039451826.lz4"), part2_);
  EXPECT_EQ(read_entry("eventlog_v2_local-1642039451826/appstatus_local-1642039451826"), "");
}

TEST_F(ZipArchiveTest, EntryStreamCountsUncompressedBytes) {
  auto stream = open_zip_entry(zip_path_, "app-20210615-0001");
  ASSERT_TRUE(stream);
  auto bytes = read_all(**stream, 1 << 30);
  ASSERT_TRUE(bytes);
  EXPECT_EQ((*stream)->source_bytes_consumed(), single_log_.size());
}

TEST_F(ZipArchiveTest, MissingEntryIsNotFound) {
  auto stream = open_zip_entry(zip_path_, "app-missing");
  ASSERT_FALSE(stream);
  EXPECT_EQ(stream.error().code(), StatusCode::kNotFound);
  EXPECT_NE(stream.error().message().find("app-missing"), std::string::npos);
}

TEST_F(ZipArchiveTest, DirectoryEntryCannotBeRead) {
  auto stream = open_zip_entry(zip_path_, "eventlog_v2_local-1642039451826/");
  ASSERT_FALSE(stream);
  EXPECT_EQ(stream.error().code(), StatusCode::kInvalidArgument);
}

TEST_F(ZipArchiveTest, MissingArchiveIsNotFound) {
  auto entries = list_zip_entries((dir_ / "nope.zip").string());
  ASSERT_FALSE(entries);
  EXPECT_EQ(entries.error().code(), StatusCode::kNotFound);
}

TEST_F(ZipArchiveTest, NotAZipIsCorruption) {
  const fs::path text = dir_ / "not-a-zip.zip";
  std::ofstream(text) << "{\"Event\":\"SparkListenerLogStart\"}\n";
  auto entries = list_zip_entries(text.string());
  ASSERT_FALSE(entries);
  EXPECT_EQ(entries.error().code(), StatusCode::kCorruption);
  EXPECT_NE(entries.error().message().find(text.string()), std::string::npos);
}

TEST_F(ZipArchiveTest, DamagedEntryDataIsACleanErrorNamingTheEntry) {
  std::string bytes;
  {
    std::ifstream in(zip_path_, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // Scribble over the middle of the first entry's deflated data (its local header is 30
  // bytes plus the name), leaving the central directory intact.
  const size_t data_start = 30 + std::string("app-20210615-0001").size();
  for (size_t i = data_start + 200; i < data_start + 400; ++i) bytes[i] = static_cast<char>(bytes[i] ^ 0x5A);
  const fs::path damaged = dir_ / "damaged.zip";
  std::ofstream(damaged, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));

  auto stream = open_zip_entry(damaged.string(), "app-20210615-0001");
  ASSERT_TRUE(stream) << stream.error().message();
  auto read = read_all(**stream, 1 << 30);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().code(), StatusCode::kCorruption) << read.error().message();
  EXPECT_NE(read.error().message().find("app-20210615-0001"), std::string::npos) << read.error().message();

  // The other entries are intact.
  auto other = open_zip_entry(damaged.string(), "eventlog_v2_local-1642039451826/appstatus_local-1642039451826");
  EXPECT_TRUE(other) << other.error().message();
}

TEST_F(ZipArchiveTest, TruncatedArchiveIsACleanError) {
  std::string bytes;
  {
    std::ifstream in(zip_path_, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const fs::path truncated = dir_ / "truncated.zip";
  std::ofstream(truncated, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
  auto entries = list_zip_entries(truncated.string());
  if (entries) {
    // libarchive may fall back to reading local headers; then reading the cut entry fails.
    bool failed = false;
    for (const ZipEntry& entry : *entries) {
      if (entry.is_directory) continue;
      auto stream = open_zip_entry(truncated.string(), entry.name);
      if (!stream) {
        failed = true;
        continue;
      }
      if (!read_all(**stream, 1 << 30)) failed = true;
    }
    EXPECT_TRUE(failed);
  } else {
    EXPECT_EQ(entries.error().code(), StatusCode::kCorruption) << entries.error().message();
  }
}

}  // namespace
}  // namespace sf::io

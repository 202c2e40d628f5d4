// Which codec a file name claims and what its first bytes are.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "io/codec.h"

namespace sf::io {
namespace {

struct NameCase {
  std::string file_name;
  std::optional<Codec> codec;
};

class CodecFromFileName : public ::testing::TestWithParam<NameCase> {};

TEST_P(CodecFromFileName, ReadsOnlyTheFinalExtension) {
  const NameCase& c = GetParam();
  EXPECT_EQ(codec_from_file_name(c.file_name), c.codec) << c.file_name;
}

INSTANTIATE_TEST_SUITE_P(
    Names, CodecFromFileName,
    ::testing::Values(
        NameCase{"app-20210615.zstd", Codec::kZstd}, NameCase{"app.zst", Codec::kZstd},
        NameCase{"local-1422981780767.lz4", Codec::kLz4}, NameCase{"local-1422981780767.snappy", Codec::kSnappy},
        NameCase{"local-1422981780767.lzf", Codec::kLzf}, NameCase{"eventlog.gz", Codec::kGzip},
        NameCase{"local-1422981780767", std::nullopt}, NameCase{"application_1603128018386_7846", std::nullopt},
        NameCase{"local-1422981780767.lz4.inprogress", Codec::kLz4},
        NameCase{"local-1422981780767.inprogress", std::nullopt},
        // Rolling logs: events_<n>_<appId>[.<codec>], the compacted part ends in .compact.
        NameCase{"events_1_app-2021.zstd", Codec::kZstd}, NameCase{"events_2_local-1642039451826.lz4", Codec::kLz4},
        NameCase{"events_5_local-1642039451826.lz4.compact", Codec::kLz4},
        NameCase{"events_1_local-1642039451826", std::nullopt},
        NameCase{"eventlog_v2_local-1642039451826/events_3_local-1642039451826.lz4", Codec::kLz4},
        NameCase{"appstatus_local-1642039451826.inprogress", std::nullopt},
        // Databricks rolled parts and the active part.
        NameCase{"eventlog-2021-06-15--15-00.gz", Codec::kGzip}, NameCase{"eventlog", std::nullopt},
        // Dots in an app id or a directory must not be read as a codec.
        NameCase{"my.app.v1.2-1234.lz4", Codec::kLz4}, NameCase{"my.app.v1.2-1234", std::nullopt},
        NameCase{"app.snappy.backup", std::nullopt}, NameCase{"logs.lz4/app-1", std::nullopt},
        NameCase{"/var/log/spark.d/app-1.lzf.inprogress", Codec::kLzf}, NameCase{"app.LZ4", Codec::kLz4},
        NameCase{"app.json", std::nullopt}, NameCase{"", std::nullopt}));

struct MagicCase {
  std::string label;
  std::string first_bytes;
  Magic magic;
};

class SniffMagic : public ::testing::TestWithParam<MagicCase> {};

TEST_P(SniffMagic, NamesTheFormat) {
  const MagicCase& c = GetParam();
  EXPECT_EQ(magic_name(sniff_magic(c.first_bytes)), magic_name(c.magic)) << c.label;
}

INSTANTIATE_TEST_SUITE_P(
    Bytes, SniffMagic,
    ::testing::Values(MagicCase{"zstd", std::string("\x28\xB5\x2F\xFD\x04\x58", 6), Magic::kZstd},
                      MagicCase{"gzip", std::string("\x1F\x8B\x08\x00", 4), Magic::kGzip},
                      MagicCase{"lz4", std::string("LZ4Block\x25", 9), Magic::kLz4Block},
                      MagicCase{"snappy", std::string("\x82SNAPPY\x00\x00\x00\x00\x01", 12), Magic::kSnappyJava},
                      MagicCase{"lzf compressed", std::string("ZV\x01\x1a\x13", 5), Magic::kLzf},
                      MagicCase{"lzf stored", std::string("ZV\x00\x00\x05", 5), Magic::kLzf},
                      MagicCase{"zip", std::string("PK\x03\x04\x14\x00", 6), Magic::kZip},
                      MagicCase{"empty zip", std::string("PK\x05\x06", 4), Magic::kZip},
                      MagicCase{"json", "{\"Event\":", Magic::kJson},
                      MagicCase{"json after whitespace", " \r\n\t{\"Ev", Magic::kJson},
                      MagicCase{"json after a BOM", "\xEF\xBB\xBF{\"Event", Magic::kJson},
                      MagicCase{"json after a BOM and blank lines", "\xEF\xBB\xBF\n\n{", Magic::kJson},
                      MagicCase{"empty", "", Magic::kEmpty},
                      MagicCase{"a JSON array is not an event log", "[{\"Event", Magic::kUnknown},
                      MagicCase{"text", "hello wo", Magic::kUnknown},
                      MagicCase{"only whitespace", "   \n", Magic::kUnknown},
                      MagicCase{"a truncated lz4 magic", "LZ4Blo", Magic::kUnknown},
                      MagicCase{"ZV text is not lzf", "ZVtext", Magic::kUnknown},
                      MagicCase{"one gzip byte", std::string("\x1F", 1), Magic::kUnknown}));

TEST(CodecNames, AreTheSparkShortNames) {
  EXPECT_EQ(codec_name(Codec::kNone), "none");
  EXPECT_EQ(codec_name(Codec::kZstd), "zstd");
  EXPECT_EQ(codec_name(Codec::kLz4), "lz4");
  EXPECT_EQ(codec_name(Codec::kSnappy), "snappy");
  EXPECT_EQ(codec_name(Codec::kLzf), "lzf");
  EXPECT_EQ(codec_name(Codec::kGzip), "gzip");
}

TEST(CodecFromMagic, MapsCodecMagicsAndNothingElse) {
  EXPECT_EQ(codec_from_magic(Magic::kJson), Codec::kNone);
  EXPECT_EQ(codec_from_magic(Magic::kZstd), Codec::kZstd);
  EXPECT_EQ(codec_from_magic(Magic::kLz4Block), Codec::kLz4);
  EXPECT_EQ(codec_from_magic(Magic::kSnappyJava), Codec::kSnappy);
  EXPECT_EQ(codec_from_magic(Magic::kLzf), Codec::kLzf);
  EXPECT_EQ(codec_from_magic(Magic::kGzip), Codec::kGzip);
  EXPECT_EQ(codec_from_magic(Magic::kZip), std::nullopt);
  EXPECT_EQ(codec_from_magic(Magic::kEmpty), std::nullopt);
  EXPECT_EQ(codec_from_magic(Magic::kUnknown), std::nullopt);
}

TEST(OpenDecompressor, NoneReturnsTheSameStream) {
  auto plain = memory_stream("{}\n");
  ByteStream* raw = plain.get();
  auto opened = open_decompressor(Codec::kNone, std::move(plain), "app");
  ASSERT_TRUE(opened);
  EXPECT_EQ(opened->get(), raw);
}

}  // namespace
}  // namespace sf::io

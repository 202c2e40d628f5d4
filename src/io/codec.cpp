// Codec naming, detection by file name and by magic bytes, and the dispatch to the decoders.
#include "io/codec.h"

#include <array>
#include <utility>

#include "io/decompressors.h"

namespace sf::io {
namespace {

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool equals_ignoring_ascii_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

bool starts_with_bytes(std::string_view bytes, std::string_view magic) {
  return bytes.size() >= magic.size() && bytes.substr(0, magic.size()) == magic;
}

struct ExtensionCodec {
  std::string_view extension;
  Codec codec;
};
// Spark names files after spark.eventLog.compression.codec's short name; .zst and .gz are
// what the zstd and gzip tools write.
constexpr std::array<ExtensionCodec, 6> kExtensions{{
    {"zstd", Codec::kZstd},
    {"zst", Codec::kZstd},
    {"lz4", Codec::kLz4},
    {"snappy", Codec::kSnappy},
    {"lzf", Codec::kLzf},
    {"gz", Codec::kGzip},
}};

// Suffixes Spark puts after the codec extension: a log still being written, and a rolling
// log's compacted part (EventLogFileWriter.codecName strips both before reading the codec).
constexpr std::array<std::string_view, 2> kStateSuffixes{".inprogress", ".compact"};

}  // namespace

std::string_view codec_name(Codec codec) {
  switch (codec) {
    case Codec::kNone:
      return "none";
    case Codec::kZstd:
      return "zstd";
    case Codec::kLz4:
      return "lz4";
    case Codec::kSnappy:
      return "snappy";
    case Codec::kLzf:
      return "lzf";
    case Codec::kGzip:
      return "gzip";
  }
  return "unknown";
}

std::optional<Codec> codec_from_file_name(std::string_view file_name) {
  // Only the last path component names the file; a directory like "logs.v2/" says nothing.
  if (const size_t slash = file_name.find_last_of('/'); slash != std::string_view::npos) {
    file_name = file_name.substr(slash + 1);
  }
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::string_view suffix : kStateSuffixes) {
      if (ends_with(file_name, suffix)) {
        file_name.remove_suffix(suffix.size());
        stripped = true;
      }
    }
  }
  // Spark keeps dots out of app ids, but other writers don't: only the final extension counts.
  const size_t dot = file_name.find_last_of('.');
  if (dot == std::string_view::npos || dot == 0) return std::nullopt;
  const std::string_view extension = file_name.substr(dot + 1);
  for (const auto& entry : kExtensions) {
    if (equals_ignoring_ascii_case(extension, entry.extension)) return entry.codec;
  }
  return std::nullopt;
}

Magic sniff_magic(std::string_view first_bytes) {
  if (first_bytes.empty()) return Magic::kEmpty;
  if (starts_with_bytes(first_bytes, std::string_view("\x28\xB5\x2F\xFD", 4))) return Magic::kZstd;
  if (starts_with_bytes(first_bytes, std::string_view("\x1F\x8B", 2))) return Magic::kGzip;
  if (starts_with_bytes(first_bytes, kLz4BlockMagic)) return Magic::kLz4Block;
  if (starts_with_bytes(first_bytes, kSnappyJavaMagic)) return Magic::kSnappyJava;
  // A local file header, or the end record of an archive with no entries.
  if (starts_with_bytes(first_bytes, std::string_view("PK\x03\x04", 4)) ||
      starts_with_bytes(first_bytes, std::string_view("PK\x05\x06", 4))) {
    return Magic::kZip;
  }
  // "ZV" then a chunk type: 0 stored, 1 compressed. Two letters alone are too weak a sign.
  if (first_bytes.size() >= 3 && first_bytes[0] == 'Z' && first_bytes[1] == 'V' &&
      (first_bytes[2] == '\x00' || first_bytes[2] == '\x01')) {
    return Magic::kLzf;
  }
  std::string_view text = first_bytes;
  if (starts_with_bytes(text, "\xEF\xBB\xBF")) text.remove_prefix(3);
  const size_t first_visible = text.find_first_not_of(" \t\r\n");
  if (first_visible != std::string_view::npos && text[first_visible] == '{') return Magic::kJson;
  return Magic::kUnknown;
}

std::string_view magic_name(Magic magic) {
  switch (magic) {
    case Magic::kJson:
      return "JSON";
    case Magic::kZstd:
      return "zstd";
    case Magic::kLz4Block:
      return "lz4-java LZ4Block";
    case Magic::kSnappyJava:
      return "snappy-java";
    case Magic::kLzf:
      return "ning LZF";
    case Magic::kGzip:
      return "gzip";
    case Magic::kZip:
      return "zip";
    case Magic::kEmpty:
      return "empty";
    case Magic::kUnknown:
      return "unknown";
  }
  return "unknown";
}

std::optional<Codec> codec_from_magic(Magic magic) {
  switch (magic) {
    case Magic::kJson:
      return Codec::kNone;
    case Magic::kZstd:
      return Codec::kZstd;
    case Magic::kLz4Block:
      return Codec::kLz4;
    case Magic::kSnappyJava:
      return Codec::kSnappy;
    case Magic::kLzf:
      return Codec::kLzf;
    case Magic::kGzip:
      return Codec::kGzip;
    case Magic::kZip:    // an archive of files, not a codec over one
    case Magic::kEmpty:  // nothing to decode
    case Magic::kUnknown:
      return std::nullopt;
  }
  return std::nullopt;
}

Result<std::unique_ptr<ByteStream>> open_decompressor(Codec codec, std::unique_ptr<ByteStream> compressed,
                                                      std::string display_name, DecompressLimits limits) {
  if (!compressed) return fail(Status::InvalidArgument(display_name + ": no stream to decompress"));
  switch (codec) {
    case Codec::kNone:
      return compressed;
    case Codec::kZstd:
      return detail::open_zstd_stream(std::move(compressed), std::move(display_name), limits);
    case Codec::kLz4:
      return detail::open_lz4_block_stream(std::move(compressed), std::move(display_name), limits);
    case Codec::kSnappy:
      return detail::open_snappy_java_stream(std::move(compressed), std::move(display_name), limits);
    case Codec::kLzf:
      return detail::open_lzf_stream(std::move(compressed), std::move(display_name), limits);
    case Codec::kGzip:
      return detail::open_gzip_stream(std::move(compressed), std::move(display_name), limits);
  }
  return fail(Status::Unsupported(display_name + ": unknown codec"));
}

bool is_truncated_stream(const Status& status) {
  constexpr std::string_view kSuffix = ": truncated";
  return status.code() == StatusCode::kCorruption && ends_with(status.message(), kSuffix);
}

}  // namespace sf::io

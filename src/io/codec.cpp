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
    case Codec::kNone: return "none";
    case Codec::kZstd: return "zstd";
    case Codec::kLz4: return "lz4";
    case Codec::kSnappy: return "snappy";
    case Codec::kLzf: return "lzf";
    case Codec::kGzip: return "gzip";
  }
  return "unknown";
}

namespace {

// A file name as Spark's EventLogFileWriter reads it: [stem][.codec][.inprogress|.compact...].
struct NameParts {
  std::string_view before_codec;  // directory, stem and anything up to the codec extension
  std::optional<Codec> codec;
  std::string_view state_suffixes;  // ".inprogress", ".compact", as written
};

NameParts split_file_name(std::string_view name) {
  // Only the last path component names the file; a directory like "logs.v2/" says nothing.
  size_t component = 0;
  if (const size_t slash = name.find_last_of('/'); slash != std::string_view::npos) component = slash + 1;
  std::string_view file_name = name.substr(component);
  size_t suffix_start = file_name.size();
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::string_view suffix : kStateSuffixes) {
      if (ends_with(file_name.substr(0, suffix_start), suffix)) {
        suffix_start -= suffix.size();
        stripped = true;
      }
    }
  }
  NameParts parts{name.substr(0, component + suffix_start), std::nullopt, file_name.substr(suffix_start)};
  // Spark keeps dots out of app ids, but other writers don't: only the final extension counts.
  const std::string_view stem = file_name.substr(0, suffix_start);
  const size_t dot = stem.find_last_of('.');
  if (dot == std::string_view::npos || dot == 0) return parts;
  const std::string_view extension = stem.substr(dot + 1);
  for (const auto& entry : kExtensions) {
    if (equals_ignoring_ascii_case(extension, entry.extension)) {
      parts.codec = entry.codec;
      parts.before_codec = name.substr(0, component + dot);
      break;
    }
  }
  return parts;
}

}  // namespace

std::optional<Codec> codec_from_file_name(std::string_view file_name) { return split_file_name(file_name).codec; }

std::string without_codec_extension(std::string_view file_name) {
  const NameParts parts = split_file_name(file_name);
  return std::string(parts.before_codec) + std::string(parts.state_suffixes);
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
    case Magic::kJson: return "JSON";
    case Magic::kZstd: return "zstd";
    case Magic::kLz4Block: return "lz4-java LZ4Block";
    case Magic::kSnappyJava: return "snappy-java";
    case Magic::kLzf: return "ning LZF";
    case Magic::kGzip: return "gzip";
    case Magic::kZip: return "zip";
    case Magic::kEmpty: return "empty";
    case Magic::kUnknown: return "unknown";
  }
  return "unknown";
}

std::optional<Codec> codec_from_magic(Magic magic) {
  switch (magic) {
    case Magic::kJson: return Codec::kNone;
    case Magic::kZstd: return Codec::kZstd;
    case Magic::kLz4Block: return Codec::kLz4;
    case Magic::kSnappyJava: return Codec::kSnappy;
    case Magic::kLzf: return Codec::kLzf;
    case Magic::kGzip: return Codec::kGzip;
    case Magic::kZip:    // an archive of files, not a codec over one
    case Magic::kEmpty:  // nothing to decode
    case Magic::kUnknown: return std::nullopt;
  }
  return std::nullopt;
}

Result<std::unique_ptr<ByteStream>> open_decompressor(Codec codec, std::unique_ptr<ByteStream> compressed,
                                                      std::string display_name, DecompressLimits limits) {
  if (!compressed) return fail(Status::InvalidArgument(display_name + ": no stream to decompress"));
  switch (codec) {
    case Codec::kNone: return compressed;
    case Codec::kZstd: return detail::open_zstd_stream(std::move(compressed), std::move(display_name), limits);
    case Codec::kLz4: return detail::open_lz4_block_stream(std::move(compressed), std::move(display_name), limits);
    case Codec::kSnappy: return detail::open_snappy_java_stream(std::move(compressed), std::move(display_name), limits);
    case Codec::kLzf: return detail::open_lzf_stream(std::move(compressed), std::move(display_name), limits);
    case Codec::kGzip: return detail::open_gzip_stream(std::move(compressed), std::move(display_name), limits);
  }
  return fail(Status::Unsupported(display_name + ": unknown codec"));
}

bool is_truncated_stream(const Status& status) {
  constexpr std::string_view kSuffix = ": truncated";
  return status.code() == StatusCode::kCorruption && ends_with(status.message(), kSuffix);
}

}  // namespace sf::io

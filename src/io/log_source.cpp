#include "io/log_source.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <map>

#include "io/zip_archive.h"

namespace sf::io {

namespace fs = std::filesystem;

std::string_view layout_name(LogLayout layout) {
  switch (layout) {
    case LogLayout::kFile: return "file";
    case LogLayout::kRolling: return "rolling";
    case LogLayout::kDatabricks: return "databricks";
    case LogLayout::kZip: return "zip";
    case LogLayout::kStdin: return "stdin";
  }
  return "file";
}

uint64_t LogInput::total_stored_bytes() const {
  uint64_t total = 0;
  for (const auto& part : parts) total += part.stored_bytes;
  return total;
}

namespace {

constexpr std::string_view kInProgressSuffix = ".inprogress";
constexpr std::string_view kCompactSuffix = ".compact";

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

std::string_view base_name(std::string_view path) {
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// events_<index>_<appId>[.<codec>][.compact]
struct RollingName {
  uint64_t index = 0;
  bool compact = false;
  bool index_overflows = false;  // digits past 2^64: a part, whose place cannot be known
};

std::optional<RollingName> parse_rolling_name(std::string_view name) {
  constexpr std::string_view kPrefix = "events_";
  if (!starts_with(name, kPrefix)) return std::nullopt;
  name.remove_prefix(kPrefix.size());
  RollingName parsed;
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), parsed.index);
  if (ec == std::errc::result_out_of_range) {
    parsed.index_overflows = true;
    return parsed;
  }
  if (ec != std::errc() || end == name.data() || end == name.data() + name.size() || *end != '_') return std::nullopt;
  parsed.compact = ends_with(name, kCompactSuffix);
  return parsed;
}

bool is_appstatus_name(std::string_view name) { return starts_with(name, "appstatus_"); }

bool is_databricks_part_name(std::string_view name) { return name == "eventlog" || starts_with(name, "eventlog-"); }

// A candidate part: its display name, and how to find it.
struct Candidate {
  std::string name;
  std::string path;
  std::string zip_entry;
  uint64_t size = 0;
  // Why a part named as one cannot be read (a directory, a loop of symbolic links, no permission):
  // it is left out with a warning, as a missing part is, and the parts that can be read are kept.
  std::string unusable;
};

LogPart make_part(const Candidate& c) {
  LogPart part;
  part.name = c.name;
  part.path = c.path;
  part.zip_entry = c.zip_entry;
  part.stored_bytes = c.size;
  std::string_view codec_name = c.name;
  if (ends_with(codec_name, kCompactSuffix)) codec_name.remove_suffix(kCompactSuffix.size());
  part.claimed_codec = codec_from_file_name(codec_name);
  return part;
}

// Orders the parts of a rolling log, honouring compaction, and says where the numbering has gaps.
Result<std::vector<LogPart>> rolling_parts(const std::string& where, std::vector<Candidate> candidates,
                                           std::vector<std::string>& missing_parts) {
  std::vector<std::pair<RollingName, Candidate>> parts;
  for (auto& c : candidates) {
    const auto parsed = parse_rolling_name(c.name);
    if (!parsed) continue;
    if (parsed->index_overflows) {
      missing_parts.push_back(where + ": " + c.name + ": its index does not fit in 64 bits, so its place among the " +
                              "parts is unknown; it is left out and its events are lost");
    } else {
      parts.emplace_back(*parsed, std::move(c));
    }
  }
  if (parts.empty()) {
    return fail(Status::InvalidArgument(where + ": a rolling event log directory with no events_<n>_<appId> files"));
  }
  std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) {
    if (a.first.index != b.first.index) return a.first.index < b.first.index;
    return a.first.compact > b.first.compact;  // a compacted part replaces its plain twin
  });
  // Spark reads from the last compacted part on: it holds everything before it.
  size_t start = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].first.compact) start = i;
  }
  std::vector<LogPart> ordered;
  std::optional<uint64_t> previous;
  for (size_t i = start; i < parts.size(); ++i) {
    const uint64_t index = parts[i].first.index;
    if (previous && index == *previous) continue;  // the plain twin of a compacted part
    if (previous && index > *previous + 1) {
      missing_parts.push_back(where + ": rolling parts " + std::to_string(*previous + 1) + " to " +
                              std::to_string(index - 1) + " are missing; events in them are lost");
    }
    previous = index;
    const Candidate& part = parts[i].second;
    if (!part.unusable.empty()) {
      missing_parts.push_back(where + ": rolling part " + std::to_string(index) + " (" + part.name + ") " +
                              part.unusable + "; it is left out and its events are lost");
      continue;
    }
    ordered.push_back(make_part(part));
  }
  return ordered;
}

std::vector<LogPart> databricks_parts(std::vector<Candidate> candidates) {
  std::vector<Candidate> rolled;
  std::optional<Candidate> active;
  for (auto& c : candidates) {
    if (c.name == "eventlog") {
      active = std::move(c);
    } else if (starts_with(c.name, "eventlog-")) {
      rolled.push_back(std::move(c));
    }
  }
  // eventlog-<yyyy-mm-dd--HH-MM>: the name sorts in time order.
  std::sort(rolled.begin(), rolled.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  std::vector<LogPart> parts;
  for (const auto& c : rolled) parts.push_back(make_part(c));
  if (active) parts.push_back(make_part(*active));
  return parts;
}

// Sorts the files of a directory (or a zip) into one layout.
Result<LogInput> resolve_listing(const std::string& where, std::vector<Candidate> files, LogLayout container) {
  LogInput input;
  input.path = where;
  bool has_rolling = false;
  bool has_databricks = false;
  for (const auto& f : files) {
    if (parse_rolling_name(f.name)) has_rolling = true;
    if (is_databricks_part_name(f.name)) has_databricks = true;
    if (is_appstatus_name(f.name) && ends_with(f.name, kInProgressSuffix)) input.in_progress = true;
  }
  if (has_rolling) {
    auto parts = rolling_parts(where, std::move(files), input.missing_parts);
    if (!parts) return fail(parts.error());
    input.parts = std::move(*parts);
    input.layout = container == LogLayout::kZip ? LogLayout::kZip : LogLayout::kRolling;
    return input;
  }
  if (has_databricks) {
    input.parts = databricks_parts(std::move(files));
    input.layout = container == LogLayout::kZip ? LogLayout::kZip : LogLayout::kDatabricks;
    return input;
  }
  if (container == LogLayout::kZip) {
    std::vector<Candidate> logs;
    for (auto& f : files) {
      if (!is_appstatus_name(f.name)) logs.push_back(std::move(f));
    }
    if (logs.size() == 1) {
      if (ends_with(logs[0].name, kInProgressSuffix)) input.in_progress = true;
      input.parts.push_back(make_part(logs[0]));
      input.layout = LogLayout::kZip;
      return input;
    }
    std::string names;
    for (size_t i = 0; i < logs.size() && i < 5; ++i) names += (i ? ", " : "") + logs[i].zip_entry;
    if (logs.empty()) return fail(Status::InvalidArgument(where + ": the zip archive holds no event log"));
    return fail(Status::InvalidArgument(where + ": the zip archive holds " + std::to_string(logs.size()) +
                                        " event logs (" + names + (logs.size() > 5 ? ", ..." : "") +
                                        "); fetch one application attempt at a time"));
  }
  return fail(Status::InvalidArgument(
      where +
      ": a directory that is not an event log: expected a rolling log (eventlog_v2_* with "
      "events_<n>_<appId> files) or a Databricks log directory (eventlog-* parts and eventlog)"));
}

Result<std::string> read_prefix(ByteStream& stream, size_t bytes) {
  std::string prefix(bytes, '\0');
  size_t filled = 0;
  while (filled < bytes) {
    auto n = stream.read(std::span<char>(prefix.data() + filled, bytes - filled));
    if (!n) return fail(n.error());
    if (*n == 0) break;
    filled += *n;
  }
  prefix.resize(filled);
  return prefix;
}

// A zip entry's bytes as libarchive inflates them, bounded like a decompressor's output: an
// entry may not inflate past max_ratio times the whole archive's size (libarchive does not give
// an entry's compressed size). Deflate reaches 1032:1, so a zip bomb stops here.
class ZipEntryLimit final : public ByteStream {
 public:
  ZipEntryLimit(std::unique_ptr<ByteStream> entry, std::string display_name, uint64_t max_bytes)
      : entry_(std::move(entry)), display_name_(std::move(display_name)), max_bytes_(max_bytes) {}

  // Bytes up to the bound are handed out; the error comes with the read after, as a
  // decompressor's do, so a reader keeps everything before it.
  Result<size_t> read(std::span<char> out) override {
    if (total_ >= max_bytes_ && !out.empty()) {
      // One byte past the bound tells an entry that ends exactly there from one that goes on.
      char probe = 0;
      auto more = entry_->read(std::span<char>(&probe, 1));
      if (!more || *more == 0) return more;
      return fail(Status::LimitExceeded(display_name_ + ": the zip entry inflates past " + std::to_string(max_bytes_) +
                                        " bytes, more than the decompression ratio allows for the archive's size"));
    }
    if (out.size() > max_bytes_ - total_) out = out.first(static_cast<size_t>(max_bytes_ - total_));
    auto n = entry_->read(out);
    if (n) total_ += *n;
    return n;
  }
  uint64_t source_bytes_consumed() const override { return entry_->source_bytes_consumed(); }

 private:
  std::unique_ptr<ByteStream> entry_;
  std::string display_name_;
  uint64_t max_bytes_;
  uint64_t total_ = 0;
};

Result<std::unique_ptr<ByteStream>> open_limited_zip_entry(const std::string& archive, const std::string& entry,
                                                           const std::string& display, const DecompressLimits& limits) {
  auto stream = open_zip_entry(archive, entry);
  if (!stream || limits.max_ratio == 0) return stream;
  std::error_code ec;
  const uint64_t archive_bytes = fs::file_size(archive, ec);
  if (ec) return fail(Status::IOError(archive + ": cannot read the archive's size: " + ec.message()));
  constexpr uint64_t kGraceBytes = uint64_t{1} << 20;
  const uint64_t max_bytes = archive_bytes > (limits.max_output_bytes - kGraceBytes) / limits.max_ratio
                                 ? limits.max_output_bytes
                                 : std::min(limits.max_output_bytes, archive_bytes * limits.max_ratio + kGraceBytes);
  return std::unique_ptr<ByteStream>(std::make_unique<ZipEntryLimit>(std::move(*stream), display, max_bytes));
}

Result<LogInput> resolve_directory(const std::string& path, const PathConfinement& confinement) {
  std::vector<Candidate> files;
  std::error_code ec;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    Candidate c;
    c.name = it->path().filename().string();
    c.path = it->path().string();
    // One rule for a rolling part that cannot be read, whatever the reason: left out, with a
    // warning. Other entries are kept or passed over as before.
    const bool rolling_part = parse_rolling_name(c.name).has_value();
    if (!it->is_regular_file(type_ec)) {
      if (!rolling_part) continue;
      const fs::file_status status = fs::status(it->path(), type_ec);
      c.unusable = type_ec == std::errc::too_many_symbolic_link_levels ? "is a loop of symbolic links"
                   : fs::is_directory(status)                          ? "is a directory, not a file"
                                                                       : "is not a regular file";
    } else if (rolling_part && ::access(c.path.c_str(), R_OK) != 0) {
      c.unusable = std::string("cannot be read: ") + std::strerror(errno);
    }
    if (!c.unusable.empty()) {
      files.push_back(std::move(c));
      continue;
    }
    if (confinement.confined()) {
      // Each part on its own: a part that is a symlink out of the directory refuses the log.
      fs::path real = fs::canonical(it->path(), type_ec);
      if (type_ec) continue;  // gone since it was listed
      if (Status inside = confinement.check_inside(real, c.path); !inside.ok()) return fail(inside);
      c.path = real.string();
    }
    c.size = it->file_size(type_ec);
    files.push_back(std::move(c));
  }
  if (ec) return fail(Status::IOError(path + ": cannot list the directory: " + ec.message()));
  return resolve_listing(path, std::move(files), LogLayout::kRolling);
}

Result<LogInput> resolve_zip(const std::string& path) {
  auto entries = list_zip_entries(path);
  if (!entries) return fail(entries.error());
  std::vector<Candidate> files;
  for (const auto& entry : *entries) {
    if (entry.is_directory) continue;
    Candidate c;
    c.name = std::string(base_name(entry.name));
    c.zip_entry = entry.name;
    c.size = entry.size_bytes;
    files.push_back(std::move(c));
  }
  auto input = resolve_listing(path, std::move(files), LogLayout::kZip);
  if (input) input->layout = LogLayout::kZip;
  return input;
}

}  // namespace

Result<LogInput> resolve_log_input(const std::string& given, const PathConfinement& confinement) {
  std::string path = given;
  if (confinement.confined()) {
    auto real = confinement.resolve(given);
    if (!real) return fail(real.error());
    path = real->string();
  }
  if (path == "-") {
    LogInput input;
    input.path = "-";
    input.layout = LogLayout::kStdin;
    LogPart part;
    part.name = "<stdin>";
    input.parts.push_back(std::move(part));
    return input;
  }
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return fail(unresolvable_path(path, ec));
  if (fs::is_directory(status)) {
    auto input = resolve_directory(path, confinement);
    if (input) input->path = given;
    return input;
  }
  if (!fs::is_regular_file(status)) return fail(Status::InvalidArgument(path + ": not a regular file or directory"));

  auto stream = open_file_stream(path);
  if (!stream) return fail(stream.error());
  auto prefix = read_prefix(**stream, 8);
  if (!prefix) return fail(prefix.error());
  if (sniff_magic(*prefix) == Magic::kZip || ends_with(path, ".zip")) return resolve_zip(path);

  LogInput input;
  input.path = given;
  input.layout = LogLayout::kFile;
  // What the name says (in progress, codec) is read from the name the log was listed under.
  input.in_progress = ends_with(given, kInProgressSuffix);
  Candidate c;
  c.name = std::string(base_name(given));
  c.path = path;
  c.size = fs::file_size(path, ec);
  input.parts.push_back(make_part(c));
  return input;
}

Result<EventLogListing> list_event_logs(const std::string& directory, const PathConfinement& confinement) {
  EventLogListing listing;
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.front() == '.' || is_appstatus_name(name)) continue;
    const std::string path = it->path().string();
    if (confinement.confined()) {
      std::error_code real_ec;
      const fs::path real = fs::canonical(it->path(), real_ec);
      if (real_ec) continue;  // a dangling symlink, or gone since it was listed
      if (Status inside = confinement.check_inside(real, path); !inside.ok()) {
        listing.refused.push_back(inside.message());
        continue;
      }
    }
    std::error_code type_ec;
    if (it->is_regular_file(type_ec)) {
      listing.logs.push_back(path);
    } else if (it->is_directory(type_ec)) {
      auto log = resolve_directory(path, confinement);
      if (log) {
        listing.logs.push_back(path);
      } else if (log.error().code() == StatusCode::kOutsideRoot) {
        listing.refused.push_back(log.error().message());
      }
    }
  }
  if (ec) return fail(Status::IOError(directory + ": cannot list the directory: " + ec.message()));
  std::sort(listing.logs.begin(), listing.logs.end());
  std::sort(listing.refused.begin(), listing.refused.end());
  return listing;
}

Result<OpenedPart> open_log_part(const LogInput& input, const LogPart& part, const DecompressLimits& limits) {
  const std::string display = input.layout == LogLayout::kStdin ? "<stdin>"
                              : !part.zip_entry.empty()         ? input.path + "!" + part.zip_entry
                              : part.path.empty()               ? part.name
                                                                : part.path;
  Result<std::unique_ptr<ByteStream>> raw =
      input.layout == LogLayout::kStdin ? Result<std::unique_ptr<ByteStream>>(stdin_stream())
      : !part.zip_entry.empty()         ? open_limited_zip_entry(input.path, part.zip_entry, display, limits)
                                        : open_file_stream(part.path);
  if (!raw) return fail(raw.error());
  auto prefix = read_prefix(**raw, 8);
  if (!prefix) return fail(prefix.error().with_context(display));
  const Magic magic = sniff_magic(*prefix);

  Codec codec = Codec::kNone;
  if (part.claimed_codec) {
    codec = *part.claimed_codec;
    const auto confirmed = codec_from_magic(magic);
    const bool plain_ok = codec == Codec::kNone && (magic == Magic::kJson || magic == Magic::kEmpty);
    const bool matches = confirmed == codec || plain_ok || magic == Magic::kEmpty;
    if (!matches) {
      std::string actual = confirmed ? std::string(codec_name(*confirmed)) + " data" : std::string(magic_name(magic));
      return fail(Status::Corruption(display + ": the name says " + std::string(codec_name(codec)) +
                                     " but the content is " + actual + " (wrong extension?)"));
    }
  } else if (auto detected = codec_from_magic(magic)) {
    codec = *detected;  // no codec in the name: trust the bytes
  } else if (magic == Magic::kUnknown) {
    return fail(Status::Unsupported(display + ": unknown format: neither JSON lines nor a compression codec Spark "
                                              "writes (zstd, lz4, snappy, lzf, gzip)"));
  } else if (magic == Magic::kZip) {
    return fail(Status::Unsupported(display + ": a zip archive inside an event log is not supported"));
  }

  auto stream = prefixed_stream(std::move(*prefix), std::move(*raw));
  auto decompressed = open_decompressor(codec, std::move(stream), display, limits);
  if (!decompressed) return fail(decompressed.error());
  return OpenedPart{std::move(*decompressed), codec};
}

}  // namespace sf::io

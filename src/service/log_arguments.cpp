#include "service/log_arguments.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "io/log_source.h"

namespace sf::service {

namespace fs = std::filesystem;

namespace {

// Deep enough for any year/month/day or cluster/job layout; a guard against pathological trees.
constexpr int kMaxDepth = 8;

struct DirectoryWalk {
  LogArguments& out;
  std::set<fs::path> visited;  // real paths, so a symbolic link back up is not walked twice

  // The logs under `directory`, sorted; what is not a log goes to out.skipped.
  void collect(const fs::path& directory, int depth, std::vector<std::string>& logs) {
    std::error_code ec;
    const fs::path real = fs::canonical(directory, ec);
    if (ec || !visited.insert(real).second) return;  // gone since listed, or already walked
    auto listing = io::list_event_logs(directory.string());
    if (!listing) {
      out.skipped.push_back(listing.error().message());
      return;
    }
    logs.insert(logs.end(), listing->logs.begin(), listing->logs.end());
    out.skipped.insert(out.skipped.end(), listing->refused.begin(), listing->refused.end());
    const std::set<std::string> listed(listing->logs.begin(), listing->logs.end());
    std::vector<fs::path> entries;
    for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec))
      entries.push_back(it->path());
    std::sort(entries.begin(), entries.end());
    for (const fs::path& entry : entries) {
      const std::string name = entry.filename().string();
      // Hidden files (Hadoop's .crc checksums) and appstatus markers are not logs, as for the
      // History Server; everything else is either listed above or named here.
      if (name.empty() || name.front() == '.' || listed.contains(entry.string()) || name.starts_with("appstatus_")) {
        continue;
      }
      std::error_code type_ec;
      const auto status = fs::status(entry, type_ec);
      if (type_ec || !fs::exists(status)) {
        out.skipped.push_back(entry.string() + ": a link to nothing");
      } else if (!fs::is_directory(status)) {
        if (!fs::is_regular_file(status)) out.skipped.push_back(entry.string() + ": not a regular file or directory");
      } else if (depth >= kMaxDepth) {
        out.skipped.push_back(entry.string() + ": more than " + std::to_string(kMaxDepth) + " directories deep");
      } else {
        const size_t before = logs.size(), skipped_before = out.skipped.size();
        collect(entry, depth + 1, logs);
        if (logs.size() == before && out.skipped.size() == skipped_before) {
          out.skipped.push_back(entry.string() + ": a directory with no event log in it");
        }
      }
    }
  }
};

}  // namespace

bool is_directory_of_logs(const std::string& path) {
  if (path == "-") return false;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return false;
  auto resolved = io::resolve_log_input(path);
  return !resolved && resolved.error().code() == StatusCode::kInvalidArgument;
}

LogArguments expand_log_arguments(const std::vector<std::string>& arguments) {
  LogArguments out;
  DirectoryWalk walk{out, {}};
  for (const std::string& argument : arguments) {
    if (!is_directory_of_logs(argument)) {
      out.logs.push_back({argument, false});
      continue;
    }
    out.directory_given = true;
    std::vector<std::string> logs;
    walk.collect(argument, 0, logs);
    std::sort(logs.begin(), logs.end());
    for (std::string& log : logs) out.logs.push_back({std::move(log), true});
  }
  return out;
}

}  // namespace sf::service

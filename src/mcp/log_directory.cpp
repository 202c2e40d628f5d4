#include "mcp/log_directory.h"

#include <fmt/format.h>

#include <algorithm>
#include <system_error>

namespace sf::mcp {

namespace fs = std::filesystem;

Result<LogDirectory> LogDirectory::confine_to(const std::string& directory) {
  std::error_code ec;
  fs::path real = fs::canonical(directory, ec);
  if (ec) return fail(Status::NotFound(fmt::format("--log-dir {}: {}", directory, ec.message())));
  if (!fs::is_directory(real))
    return fail(Status::InvalidArgument(fmt::format("--log-dir {}: not a directory", directory)));
  LogDirectory confined;
  confined.root_ = std::move(real);
  return confined;
}

Result<fs::path> LogDirectory::resolve(const std::string& path) const {
  if (path.empty()) return fail(Status::InvalidArgument("the path is empty"));
  if (path == "-")
    return fail(Status::InvalidArgument("\"-\" (standard input) cannot be read: it carries the protocol"));
  const fs::path given(path);
  const fs::path joined = root_ && given.is_relative() ? *root_ / given : given;
  std::error_code ec;
  fs::path real = fs::canonical(joined, ec);
  if (ec) {
    if (root_) {
      return fail(Status::NotFound(
          fmt::format("{}: no such file or directory under the log directory {}", path, root_->string())));
    }
    return fail(Status::NotFound(fmt::format("{}: {}", path, ec.message())));
  }
  if (root_) {
    // Component-wise: /logs-old is not inside /logs.
    auto [root_end, real_it] = std::mismatch(root_->begin(), root_->end(), real.begin(), real.end());
    if (root_end != root_->end()) {
      return fail(Status::InvalidArgument(
          fmt::format("{}: outside the log directory {}; give a path inside it (relative paths are read from it)", path,
                      root_->string())));
    }
  }
  return real;
}

}  // namespace sf::mcp

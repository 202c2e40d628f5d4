#include "io/path_confinement.h"

#include <algorithm>
#include <system_error>

namespace sf::io {

namespace fs = std::filesystem;

Status unresolvable_path(const std::string& shown, const std::error_code& ec) {
  if (ec == std::errc::too_many_symbolic_link_levels)
    return Status::InvalidArgument(shown + ": a loop of symbolic links");
  if (!ec || ec == std::errc::no_such_file_or_directory) return Status::NotFound(shown + ": no such file or directory");
  return Status::IOError(shown + ": " + ec.message());
}

Result<PathConfinement> PathConfinement::to(const std::string& directory, const std::string& what) {
  std::error_code ec;
  fs::path real = fs::canonical(directory, ec);
  if (ec) return fail(Status::NotFound(what + " " + directory + ": " + ec.message()));
  if (!fs::is_directory(real, ec)) return fail(Status::InvalidArgument(what + " " + directory + ": not a directory"));
  PathConfinement confined;
  confined.root_ = std::move(real);
  return confined;
}

Status PathConfinement::check_inside(const fs::path& real, const std::string& shown) const {
  if (!root_) return Status();
  auto [root_end, real_it] = std::mismatch(root_->begin(), root_->end(), real.begin(), real.end());
  if (root_end == root_->end()) return Status();
  // Where a symlink points is not said: that is what a client must not learn.
  return Status::OutsideRoot(shown + ": outside the log directory " + root_->string() +
                             "; give a path inside it (relative paths are read from it)");
}

Result<fs::path> PathConfinement::resolve(const std::string& path) const {
  if (path.empty()) return fail(Status::InvalidArgument("the path is empty"));
  if (path == "-") return fail(Status::InvalidArgument("\"-\" (standard input) is not a path that can be confined"));
  const fs::path given(path);
  const fs::path joined = root_ && given.is_relative() ? *root_ / given : given;
  std::error_code ec;
  fs::path real = fs::canonical(joined, ec);
  if (ec) {
    if (root_ && ec == std::errc::no_such_file_or_directory) {
      return fail(Status::NotFound(path + ": no such file or directory under the log directory " + root_->string()));
    }
    return fail(unresolvable_path(path, ec));
  }
  if (Status inside = check_inside(real, path); !inside.ok()) return fail(inside);
  return real;
}

}  // namespace sf::io

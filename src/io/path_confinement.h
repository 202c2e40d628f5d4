// Where a front end may read: every path it is given, every log a directory listing finds and
// every part of a directory log, resolved to its real location (relative to the root when it has
// one, "..", every symlink on the way) and only then compared with the root's own real location,
// component by component (/logs-old is not inside /logs). Neither "../" nor a symlink inside the
// directory that points out of it gets past: anyone who can write into a log directory (Spark
// jobs can) could otherwise make the server read any file its user can.
//
// Without a root every path is accepted, resolved the same way (the CLI reads what its user names).
// Immutable; safe to share.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "common/status.h"

namespace sf::io {

// Why `shown` could not be resolved, from the error the filesystem gave: a loop of symbolic links,
// no such file, or what the system says (permission denied, ...).
Status unresolvable_path(const std::string& shown, const std::error_code& ec);

class PathConfinement {
 public:
  // No confinement.
  PathConfinement() = default;
  // Confinement to `directory`, which must exist and be a directory. `what` names it in errors
  // (e.g. "--log-dir").
  static Result<PathConfinement> to(const std::string& directory, const std::string& what = "--log-dir");

  // The real path of `path`, or an error saying why it is refused: it does not exist, or it lands
  // outside the root. "-" (standard input) is refused.
  Result<std::filesystem::path> resolve(const std::string& path) const;

  // An error unless `real` (a path already resolved) is inside the root; `shown` names it.
  Status check_inside(const std::filesystem::path& real, const std::string& shown) const;

  const std::optional<std::filesystem::path>& root() const { return root_; }
  bool confined() const { return root_.has_value(); }

 private:
  std::optional<std::filesystem::path> root_;
};

}  // namespace sf::io

// --log-dir: the one directory whose event logs the MCP server may read, when it is given.
//
// A path from a client is resolved to its real location first (relative to the log directory
// when it has one, "..", and every symlink on the way), and only then compared with the
// directory's own real location, so neither "../" nor a symlink pointing outside gets past.
// Without a log directory every readable path is accepted, resolved the same way. Standard
// input ("-") is never accepted: it carries the protocol. Immutable; safe to share.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "common/status.h"

namespace sf::mcp {

class LogDirectory {
 public:
  // No confinement.
  LogDirectory() = default;
  // Confinement to `directory`, which must exist and be a directory.
  static Result<LogDirectory> confine_to(const std::string& directory);

  // The real path of `path`, or an error saying why it is refused (it does not exist, or it is
  // outside the log directory).
  Result<std::filesystem::path> resolve(const std::string& path) const;

  const std::optional<std::filesystem::path>& root() const { return root_; }

 private:
  std::optional<std::filesystem::path> root_;
};

}  // namespace sf::mcp

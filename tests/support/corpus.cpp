#include "support/corpus.h"

#include <cstdlib>

namespace sf::testing {

std::optional<std::filesystem::path> corpus_dir() {
  std::filesystem::path dir;
  if (const char* env = std::getenv("SF_CORPUS_DIR"); env != nullptr && *env != '\0') {
    dir = env;
  } else {
    dir = SF_DEFAULT_CORPUS_DIR;
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  return std::filesystem::canonical(dir, ec);
}

std::optional<std::filesystem::path> corpus_file(const std::string& relative) {
  auto dir = corpus_dir();
  if (!dir) return std::nullopt;
  auto path = *dir / relative;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  return path;
}

}  // namespace sf::testing

#include "support/corpus.h"

#include <cstdlib>

namespace sf::testing {

std::filesystem::path corpus_location() {
  if (const char* env = std::getenv("SF_CORPUS_DIR"); env != nullptr && *env != '\0') return env;
  return std::filesystem::path(SF_DEFAULT_CORPUS_DIR).lexically_normal();
}

std::string corpus_missing_reason() {
  return "corpus not found at " + corpus_location().string() + " (set SF_CORPUS_DIR or check out ../shared/corpus)";
}

std::optional<std::filesystem::path> corpus_dir() {
  const std::filesystem::path dir = corpus_location();
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

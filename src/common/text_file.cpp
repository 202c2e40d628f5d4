#include "common/text_file.h"

#include <fstream>
#include <sstream>

namespace sf {

Result<std::string> read_text_file(const std::string& path, std::string_view cannot) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(Status::NotFound(path + ": " + std::string(cannot)));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace sf

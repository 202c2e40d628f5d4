// A small file read whole into memory: a config document, a method or a result file named by a
// flag. Not for event logs, which are streamed (io/).
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace sf {

// The bytes of the file at `path`; one that cannot be opened is NotFound, its message the path
// and then `cannot` ("x.json: cannot read").
Result<std::string> read_text_file(const std::string& path, std::string_view cannot = "cannot read");

}  // namespace sf

// An event log's lines with their secrets redacted, for a front end that hands a log out as it
// is (serve's /logs download, the History Server's raw log endpoint): the same policy as the
// model's (model/redaction.h), applied to the JSON of the events that carry properties or plan
// text. The application's own patterns are read from its environment update, which Spark writes
// before any job; lines before it get the default.
//
// A line that holds nothing to redact is handed back unchanged, byte for byte; a rewritten line
// keeps its keys in their order. A line that is not JSON is handed back unchanged (the reader
// counts it as malformed, as it would have). Not thread-safe; one per log.
#pragma once

#include <string>
#include <string_view>

#include "model/redaction.h"

namespace sf::model {

class LineRedaction {
 public:
  // The line to write instead of `line`: `line` itself, or the rewritten line in `scratch`.
  std::string_view redact(std::string_view line, std::string& scratch);

 private:
  Redaction redaction_;
};

}  // namespace sf::model

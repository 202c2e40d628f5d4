#include "mcp/paging.h"

#include <algorithm>

namespace sf::mcp {

std::vector<Parameter> paging_parameters(int64_t default_limit, int64_t max_limit) {
  return {
      integer_parameter("offset", "Items to skip (the nextOffset of the previous page)", 0, std::nullopt),
      integer_parameter(
          "limit",
          "Items to return (default " + std::to_string(default_limit) + ", at most " + std::to_string(max_limit) + ")",
          1, max_limit),
  };
}

PageWindow page_window(size_t total, const ToolArguments& arguments, int64_t default_limit) {
  PageWindow window;
  window.total = total;
  window.begin = std::min(total, static_cast<size_t>(arguments.integer("offset", 0)));
  window.end = std::min(total, window.begin + static_cast<size_t>(arguments.integer("limit", default_limit)));
  return window;
}

Json page_json(const PageWindow& window) {
  return {{"total", window.total},
          {"offset", window.begin},
          {"returned", window.end - window.begin},
          {"nextOffset", window.end < window.total ? Json(window.end) : Json(nullptr)}};
}

Json page_schema() {
  return Json::parse(R"({"type": "object", "required": ["total", "offset", "returned", "nextOffset"],
    "properties": {"total": {"type": "integer"}, "offset": {"type": "integer"}, "returned": {"type": "integer"},
                   "nextOffset": {"type": ["integer", "null"]}}})");
}

Json page_of(const Json& items, const PageWindow& window) {
  Json out = Json::array();
  for (size_t i = window.begin; i < window.end && i < items.size(); ++i) out.push_back(items[i]);
  return out;
}

}  // namespace sf::mcp

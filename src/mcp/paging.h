// Paging of long lists in tool answers: "offset" and "limit" in, a window of the list and
// {total, offset, returned, nextOffset} out, so no answer grows with the size of the log.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mcp/json_rpc.h"
#include "mcp/tool_parameters.h"

namespace sf::mcp {

std::vector<Parameter> paging_parameters(int64_t default_limit, int64_t max_limit);

struct PageWindow {
  size_t begin = 0;
  size_t end = 0;
  size_t total = 0;
};
PageWindow page_window(size_t total, const ToolArguments& arguments, int64_t default_limit);

// {"total", "offset", "returned", "nextOffset" (null on the last page)}.
Json page_json(const PageWindow& window);
// Its JSON Schema.
Json page_schema();

// The items of `items` (an array) inside the window.
Json page_of(const Json& items, const PageWindow& window);

}  // namespace sf::mcp

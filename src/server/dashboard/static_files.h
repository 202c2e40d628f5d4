// The dashboard's files as `serve` answers them, from the program itself (report/web_assets.h):
// / is index.html; a built file under /assets/ is answered with its content type and cached for
// a year (its name changes with its content); any page of the dashboard (/logs/..., /compare, /history) is
// index.html too (the page reads its address); anything else is 404. A path with a "." or ".."
// segment, a backslash or a NUL is 404 before anything is looked up (nothing is read from disk
// anyway). Without the dashboard (SF_WEB=OFF), / says so in a line of text.
//
// Pure functions over static data; thread-safe.
#pragma once

#include <string_view>

#include "server/http/history_server_names.h"

namespace sf::server {

// GET (or HEAD) of `path` (unescaped, without the query).
RestResponse static_file(std::string_view path);

// "text/javascript; charset=utf-8" for "x.js", ...; "application/octet-stream" when unknown.
std::string_view content_type_for(std::string_view path);

}  // namespace sf::server

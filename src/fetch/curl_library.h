// libcurl, opened when a download or a History Server URL first needs it (common/lazy_library.h).
#pragma once

#include <curl/curl.h>

#include "common/lazy_library.h"

namespace sf::fetch {

// One X-macro list laid out by hand: clang-format reflows it differently on each pass.
// clang-format off
#define SF_CURL_FUNCTIONS(X)                                                                             \
  X(global_init, curl_global_init) X(easy_init, curl_easy_init) X(easy_cleanup, curl_easy_cleanup)      \
  X(easy_setopt, curl_easy_setopt) X(easy_perform, curl_easy_perform) X(easy_getinfo, curl_easy_getinfo) \
  X(url, curl_url) X(url_cleanup, curl_url_cleanup) X(url_get, curl_url_get) X(url_set, curl_url_set)    \
  X(free, curl_free)
// clang-format on

struct CurlFunctions {
  SF_CURL_FUNCTIONS(SF_LAZY_MEMBER)
};

// The functions, with curl_global_init done; or why libcurl could not be loaded.
Result<const CurlFunctions*> curl();

}  // namespace sf::fetch

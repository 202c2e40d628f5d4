#include "fetch/curl_library.h"

namespace sf::fetch {

Result<const CurlFunctions*> curl() {
  static LazyLibrary libcurl(SF_LIBCURL_SONAME, "libcurl4", "Reading from a Spark History Server");
  return load_functions<CurlFunctions>(libcurl, [](CurlFunctions& table, LazyLibrary& library) -> Status {
    SF_CURL_FUNCTIONS(SF_LAZY_LOAD)
    table.global_init(CURL_GLOBAL_DEFAULT);
    return Status();
  });
}

}  // namespace sf::fetch

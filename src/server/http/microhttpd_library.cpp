#include "server/http/microhttpd_library.h"

namespace sf::server {

Result<const MicrohttpdFunctions*> libmicrohttpd() {
  static LazyLibrary libmicrohttpd12(SF_LIBMICROHTTPD_SONAME, "libmicrohttpd12", "serve");
  return load_functions<MicrohttpdFunctions>(libmicrohttpd12,
                                             [](MicrohttpdFunctions& table, LazyLibrary& library) -> Status {
                                               SF_MICROHTTPD_FUNCTIONS(SF_LAZY_LOAD)
                                               return Status();
                                             });
}

}  // namespace sf::server

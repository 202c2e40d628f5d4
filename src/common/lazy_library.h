// A shared library opened when a command first needs it, not at program start.
//
// The program reaches libcurl (History Server downloads), libpq (the PostgreSQL result store),
// libarchive (.zip logs) and libmicrohttpd (serve) this way. Linked as usual, they and what they
// pull in (gnutls, OpenSSL, krb5, LDAP, libxml2, ICU: about 50 libraries) cost about 12 ms at every
// start, more than analyzing a small log; most commands need none of them.
//
// A library's functions are gathered in a table of pointers typed from the library's own header
// (decltype(&::function)), so a call through the table is checked as a direct call is:
//
//   #define SF_CURL_FUNCTIONS(X) X(easy_init, curl_easy_init) X(easy_cleanup, curl_easy_cleanup)
//   struct CurlFunctions { SF_CURL_FUNCTIONS(SF_LAZY_MEMBER) };
//   Result<const CurlFunctions*> curl() {
//     static LazyLibrary library(SF_LIBCURL_SONAME, "libcurl4", "fetching from a History Server");
//     return load_functions<CurlFunctions>(library, [](CurlFunctions& table, LazyLibrary& library) {
//       SF_CURL_FUNCTIONS(SF_LAZY_LOAD)
//       return Status();
//     });
//   }
//
// Members are named without the library's prefix: some of its names are also macros.
// A missing library is an error that names it and what needed it, never a crash.
#pragma once

#include <mutex>
#include <string>

#include "common/status.h"

namespace sf {

class LazyLibrary {
 public:
  // `soname`: the name the dynamic linker looks up ("libcurl.so.4"); `package`: the Debian package
  // that installs it; `needed_for`: what the user asked for, for the error message.
  LazyLibrary(std::string soname, std::string package, std::string needed_for);

  // The library's function `name`; the library is opened on the first call.
  Result<void*> symbol(const char* name);

 private:
  Status open();

  std::string soname_, package_, needed_for_;
  std::once_flag opened_;
  void* handle_ = nullptr;
  Status open_status_;
};

// Loads a table of function pointers once: `fill(table, library)` assigns each member from
// library.symbol(...). Every later call returns the same table, or the same error.
template <typename Table, typename Fill>
Result<const Table*> load_functions(LazyLibrary& library, Fill fill) {
  struct Loaded {
    Table table{};
    Status status;
  };
  static const Loaded loaded = [&] {
    Loaded out;
    out.status = fill(out.table, library);
    return out;
  }();
  if (!loaded.status.ok()) return fail(loaded.status);
  return &loaded.table;
}

}  // namespace sf

// A member of a function table: `member` has the type of a pointer to the library's `function`.
#define SF_LAZY_MEMBER(member, function) decltype(&::function) member = nullptr;
// Inside a fill function with parameters (table, library): assigns `member`, or returns the error.
#define SF_LAZY_LOAD(member, function)                              \
  if (auto found = library.symbol(#function); found) {              \
    table.member = reinterpret_cast<decltype(&::function)>(*found); \
  } else {                                                          \
    return found.error();                                           \
  }

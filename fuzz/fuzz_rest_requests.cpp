// The REST API's request handling over arbitrary bytes: the input is a request target (path and
// query string, as an HTTP client sends it), answered by the router over a log directory with
// one small event log, for GET and for a method taken from the first byte. Every answer must be
// a known status, and a JSON answer must be JSON.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "catalog/log_catalog.h"
#include "fuzz_support.h"
#include "history_server/rest_router.h"

namespace {

const sf::history_server::RestRouter& router() {
  static const sf::history_server::RestRouter* router = [] {
    auto root = sf::io::PathConfinement::to(sf::fuzz::small_log_directory().string());
    if (!root) __builtin_trap();
    sf::catalog::CatalogOptions options;
    options.root = std::move(*root);
    auto* logs = new sf::catalog::LogCatalog(options);  // lives as long as the process
    if (!logs->rescan()) __builtin_trap();
    return new sf::history_server::RestRouter(*logs);
  }();
  return *router;
}

// A streamed body (the /logs zip) is written out too, as the server would send it.
void check(sf::history_server::RestResponse streamed) {
  const sf::history_server::RestResponse response = sf::history_server::with_body_written(std::move(streamed));
  switch (response.status) {
    case 200:
    case 400:
    case 404:
    case 405:
    case 413:
    case 500:
    case 503: break;  // a live executor's threads, which a History Server cannot give
    default: __builtin_trap();
  }
  if (response.content_type == "application/json" && !nlohmann::json::accept(response.body)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view target(reinterpret_cast<const char*>(data), size);
  check(router().handle("GET", target));
  if (size > 0) {
    static constexpr std::string_view kMethods[] = {"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"};
    check(router().handle(kMethods[data[0] % std::size(kMethods)], target.substr(1)));
  }
  return 0;
}

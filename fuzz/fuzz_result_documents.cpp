// The store's input parsers over arbitrary bytes: a result document (store ingest FILE) and an
// identity policy (store policy set FILE). Each input is either refused with a message naming
// its source, or accepted; an accepted result written back canonically must parse again into
// the same document (same content id), so nothing accepted is stored differently from how it
// reads.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "results/identity_policy.h"
#include "results/result_json.h"

namespace {
constexpr std::string_view kSource = "fuzz-input.json";

bool names_source(const sf::Status& status) { return status.message().find(kSource) != std::string::npos; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sf::results;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  if (auto result = parse_result_json(text, kSource); result) {
    const std::string canonical = result_to_json(*result);
    auto again = parse_result_json(canonical, kSource);
    if (!again || result_to_json(*again) != canonical || result_id(*again) != result_id(*result)) __builtin_trap();
  } else if (!names_source(result.error())) {
    __builtin_trap();
  }

  if (auto policy = parse_identity_policy(text, kSource); !policy && !names_source(policy.error())) __builtin_trap();
  return 0;
}

// IdentityPolicy: which results belong to one series, and where a series' history is joined or cut.
//
// The policy is configuration, versioned, and stored in the result store, so every reader (the
// comparator, a change detector, another engineer's CLI) sees the same series membership.
// It says
// - which coordinates make a comparison identity (subject always; chosen parameters and
//   environment keys); other facts do not split a series but show up as caveats;
// - continuity mappings: a renamed benchmark or a replaced machine whose old value maps to the
//   new one, joining both into one series, with the join reported as a boundary;
// - distribution resets and accepted change points: points before them are not reference for
//   anything after them.
// docs/comparator.md describes the JSON form.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "results/result.h"

namespace sf::results {

inline constexpr std::string_view kIdentityPolicySchema = "sparkforensics.identity-policy/1";

struct ContinuityMapping {
  std::string coordinate;  // "subject", "parameters.<key>" or "environment.<key>"
  std::string from;        // the old value
  std::string to;          // the value it continues as
  std::string reason;
};

// A cut in a series' history: a distribution reset or an accepted change point.
struct HistoryBoundary {
  std::string kind;         // "reset" or "accepted-change-point"
  Coordinates match;        // coordinates a series must have to be affected; empty: every series
  std::string quantity;     // "" for every quantity
  std::string at_revision;  // the first revision of the new regime, or
  std::string at_result;    // the first result of the new regime
  std::string reason;
};

struct IdentityPolicy {
  int64_t version = 0;                  // 0: the built-in default, never stored
  bool all_parameters = true;           // every parameter is part of the identity, or
  std::vector<std::string> parameters;  // only these (sorted)
  std::vector<std::string> environment = {"cluster", "executorShape", "sparkVersion"};  // sorted
  std::vector<ContinuityMapping> continuity;
  std::vector<HistoryBoundary> boundaries;

  std::string schema_label() const;  // "sparkforensics.identity-policy/1"
};

Result<IdentityPolicy> parse_identity_policy(std::string_view text, std::string_view source);
std::string identity_policy_to_json(const IdentityPolicy& policy);

// The comparison identity of a result under the policy: coordinate path -> value, with
// continuity mappings applied. `applied` receives the mappings used, for the evidence.
Coordinates comparison_identity(const ResultDocument& result, const IdentityPolicy& policy,
                                std::vector<const ContinuityMapping*>* applied = nullptr);

// Whether a coordinate path is part of the comparison identity.
bool in_identity(const IdentityPolicy& policy, std::string_view path);

}  // namespace sf::results

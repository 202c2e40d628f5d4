// The count-based stage matching behind matchedCoverage: each run's stages indexed by
// stage_identity(); identities with exactly one stage on both sides pair, and identities
// colliding with the same count on both sides pair positionally by stage id (exact for a run
// compared with itself, a guess otherwise). Collisions are recorded even when resolved; a
// differing count leaves them unpaired. It decides nothing: the aligner's pairs feed every
// consumer, this only keeps matchedCoverage's count-based meaning.
#pragma once

#include <string>
#include <vector>

#include "model/app_model.h"

namespace sf::compare {

struct IdentityMatching {
  size_t matched_pairs = 0;
  size_t base_stages = 0;
  size_t cand_stages = 0;
  double matched_coverage = 0;                    // 2 * pairs / (base + cand stages); 1 when both have none
  std::vector<std::string> collision_identities;  // sorted
};

IdentityMatching match_stage_identities(const model::AppModel& base, const model::AppModel& cand);

}  // namespace sf::compare

#include "compare/identity_matching.h"

#include <algorithm>
#include <map>

#include "compare/run_index.h"

namespace sf::compare {

namespace {

std::map<std::string, size_t> identities(const model::AppModel& model, size_t& stages) {
  std::map<std::string, size_t> counts;
  int64_t previous = -1;
  for (const auto& attempt : model.stages) {
    if (attempt.stage_id == previous) continue;
    previous = attempt.stage_id;
    const model::StageAttempt* latest = model.latest_attempt(attempt.stage_id);
    if (latest == nullptr || (latest->tasks_started == 0 && (latest->status == model::StageStatus::kSkipped ||
                                                             latest->status == model::StageStatus::kPending))) {
      continue;
    }
    ++stages;
    ++counts[stage_identity(model, attempt.stage_id)];
  }
  return counts;
}

}  // namespace

IdentityMatching match_stage_identities(const model::AppModel& base, const model::AppModel& cand) {
  IdentityMatching result;
  const auto base_ids = identities(base, result.base_stages);
  const auto cand_ids = identities(cand, result.cand_stages);
  for (const auto& [identity, base_count] : base_ids) {
    const auto it = cand_ids.find(identity);
    const size_t cand_count = it == cand_ids.end() ? 0 : it->second;
    if (base_count > 1 || cand_count > 1) result.collision_identities.push_back(identity);
    if (base_count == cand_count) result.matched_pairs += base_count;
  }
  for (const auto& [identity, cand_count] : cand_ids) {
    if (cand_count > 1 && !base_ids.count(identity)) result.collision_identities.push_back(identity);
  }
  std::sort(result.collision_identities.begin(), result.collision_identities.end());
  const size_t total = result.base_stages + result.cand_stages;
  result.matched_coverage =
      total == 0 ? 1.0 : 2.0 * static_cast<double>(result.matched_pairs) / static_cast<double>(total);
  return result;
}

}  // namespace sf::compare

#include "compare/stage_pairing.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

namespace sf::compare {

namespace {

// One side of an execution pair, with which of its stages are still free.
struct Side {
  const RunIndex& run;
  const std::vector<size_t>& stages;
  std::vector<bool> taken;

  Side(const RunIndex& r, const std::vector<size_t>& s) : run(r), stages(s), taken(s.size(), false) {}
  const StageRecord& stage(size_t k) const { return run.stages[stages[k]]; }
};

// Pairs free stages sharing the key `key_of` gives (skipping empty keys) in stage-id order.
template <class KeyOf>
void pair_by_key(Side& base, Side& cand, PairMethod method, const KeyOf& key_of, std::vector<IndexPair>& out) {
  std::map<std::string, std::vector<size_t>> cand_by_key;
  for (size_t k = 0; k < cand.stages.size(); ++k) {
    if (cand.taken[k]) continue;
    const std::string key = key_of(cand.stage(k));
    if (!key.empty()) cand_by_key[key].push_back(k);
  }
  std::map<std::string, size_t> used;  // how many of each key's candidates are taken
  for (size_t k = 0; k < base.stages.size(); ++k) {
    if (base.taken[k]) continue;
    const std::string key = key_of(base.stage(k));
    if (key.empty()) continue;
    const auto it = cand_by_key.find(key);
    if (it == cand_by_key.end()) continue;
    size_t& next = used[key];
    if (next >= it->second.size()) continue;
    const size_t c = it->second[next++];
    base.taken[k] = cand.taken[c] = true;
    const double score = method == PairMethod::kExact ? 1.0 : jaccard(base.stage(k).tokens, cand.stage(c).tokens);
    out.push_back({base.stages[k], cand.stages[c], method, score});
  }
}

// Only stages with plan evidence: the call-site text of plan-less stages (a shell's
// "$line20.$read$$iwC...<init>(<console>:26)" frames) is alike across unrelated jobs.
void pair_by_similarity(Side& base, Side& cand, std::vector<IndexPair>& out) {
  auto eligible = [](const StageRecord& s) { return s.has_plan_nodes; };
  struct Candidate {
    double score;
    size_t b, c;
  };
  std::vector<Candidate> candidates;
  for (size_t b = 0; b < base.stages.size(); ++b) {
    if (base.taken[b] || !eligible(base.stage(b))) continue;
    for (size_t c = 0; c < cand.stages.size(); ++c) {
      if (cand.taken[c] || !eligible(cand.stage(c))) continue;
      const double score = jaccard(base.stage(b).tokens, cand.stage(c).tokens);
      if (score >= kAlignedMinSimilarity) candidates.push_back({score, b, c});
    }
  }
  // Best first; equal scores by position, so the order never depends on the sort.
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
    return std::tie(y.score, x.b, x.c) < std::tie(x.score, y.b, y.c);
  });
  for (const auto& candidate : candidates) {
    if (base.taken[candidate.b] || cand.taken[candidate.c]) continue;
    base.taken[candidate.b] = cand.taken[candidate.c] = true;
    out.push_back({base.stages[candidate.b], cand.stages[candidate.c], PairMethod::kAligned, candidate.score});
  }
}

}  // namespace

std::string_view to_string(PairMethod method) {
  switch (method) {
    case PairMethod::kExact:
      return "exact";
    case PairMethod::kStructural:
      return "structural";
    case PairMethod::kAligned:
    case PairMethod::kPositional:
      return "aligned";
    case PairMethod::kPinned:
      return "pinned";
  }
  return "aligned";
}

std::string_view pair_quality(PairMethod method, double score) {
  switch (method) {
    case PairMethod::kExact:
    case PairMethod::kStructural:
      return "high";
    case PairMethod::kAligned:
      return score >= 0.8 ? "medium" : "low";
    case PairMethod::kPositional:
      return "low";
    case PairMethod::kPinned:
      return "pinned";
  }
  return "low";
}

std::vector<IndexPair> pair_stages_within(const RunIndex& base_run, const std::vector<size_t>& base_stages,
                                          const RunIndex& cand_run, const std::vector<size_t>& cand_stages) {
  std::vector<IndexPair> pairs;
  Side base(base_run, base_stages), cand(cand_run, cand_stages);
  pair_by_key(
      base, cand, PairMethod::kExact, [](const StageRecord& s) { return s.exact_key; }, pairs);
  pair_by_key(
      base, cand, PairMethod::kStructural, [](const StageRecord& s) { return s.structural_key; }, pairs);
  pair_by_similarity(base, cand, pairs);
  // Plan-less stages of one name, by position; the pair_by_key walk is exactly that.
  const size_t before = pairs.size();
  pair_by_key(
      base, cand, PairMethod::kPositional,
      [](const StageRecord& s) { return s.has_plan_nodes ? std::string() : normalize_stage_name(s.name); }, pairs);
  for (size_t k = before; k < pairs.size(); ++k) pairs[k].score = kPositionalScore;
  return pairs;
}

}  // namespace sf::compare

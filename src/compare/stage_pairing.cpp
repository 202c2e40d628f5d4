#include "compare/stage_pairing.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "compare/assignment.h"

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

// What pairing two stages of one key goes against: their place in the job first, then the
// bytes they read beyond kSameBytesRatio apart.
double evidence_cost(const StageRecord& b, const StageRecord& c) {
  constexpr double kPlaceWeight = 1000;  // above any bytes gap: ln(2^63) is 44
  const double gap =
      std::abs(std::log((static_cast<double>(b.bytes_read()) + 1) / (static_cast<double>(c.bytes_read()) + 1)));
  return kPlaceWeight * std::abs(b.height - c.height) + std::max(0.0, gap - std::log(kSameBytesRatio));
}

// Whether taking one stage for the other would change the pair's figures.
bool differs_materially(const StageRecord& x, const StageRecord& y) {
  const auto a = static_cast<double>(x.totals.executor_run_time_ms);
  const auto b = static_cast<double>(y.totals.executor_run_time_ms);
  return std::abs(a - b) > kMaterialRunTimeShare * std::max(a, b);
}

// Whether a group is small enough to weigh place and bytes (and so to be called ambiguous); a
// larger one pairs in stage-id order (docs/limits.md).
bool weighs_evidence(const std::vector<size_t>& bs, const std::vector<size_t>& cs) {
  return std::max(bs.size(), cs.size()) <= kMaxAssignmentGroup;
}

// (position in the baseline's group, position in the candidate's): as many pairs as the smaller
// side has, at the least evidence cost, stage-id order deciding among equals.
std::vector<std::pair<size_t, size_t>> assign_group(const Side& base, const Side& cand, const std::vector<size_t>& bs,
                                                    const std::vector<size_t>& cs) {
  std::vector<std::pair<size_t, size_t>> chosen;
  if (!weighs_evidence(bs, cs) || (bs.size() == 1 && cs.size() == 1)) {
    for (size_t k = 0; k < std::min(bs.size(), cs.size()); ++k) chosen.emplace_back(k, k);
    return chosen;
  }
  // Small beside place and any real bytes gap: order decides among stages they leave about equal.
  constexpr double kOrderWeight = 1e-6;
  const bool rows_are_base = bs.size() <= cs.size();
  const size_t rows = rows_are_base ? bs.size() : cs.size();
  const size_t cols = rows_are_base ? cs.size() : bs.size();
  std::vector<std::vector<double>> cost(rows, std::vector<double>(cols));
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      const size_t i = rows_are_base ? r : c, j = rows_are_base ? c : r;
      cost[r][c] = evidence_cost(base.stage(bs[i]), cand.stage(cs[j])) +
                   kOrderWeight * std::abs(static_cast<double>(i) - static_cast<double>(j));
    }
  }
  const std::vector<size_t> column = least_cost_assignment(cost);
  for (size_t r = 0; r < rows; ++r) chosen.emplace_back(rows_are_base ? r : column[r], rows_are_base ? column[r] : r);
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

// Fills each chosen pair's rivals: stages of the group that place and bytes fit as well, whose
// taking would change the figures.
void mark_ambiguous(const Side& base, const Side& cand, const std::vector<size_t>& bs, const std::vector<size_t>& cs,
                    const std::vector<std::pair<size_t, size_t>>& chosen, std::vector<IndexPair>& pairs) {
  constexpr double kTie = 1e-9;
  std::vector<std::optional<size_t>> partner_of_cand(cs.size()), partner_of_base(bs.size());
  for (const auto& [i, j] : chosen) {
    partner_of_cand[j] = i;
    partner_of_base[i] = j;
  }
  auto cost = [&](size_t i, size_t j) { return evidence_cost(base.stage(bs[i]), cand.stage(cs[j])); };
  for (size_t k = 0; k < chosen.size(); ++k) {
    const auto [i, j] = chosen[k];
    IndexPair& pair = pairs[k];
    for (size_t j2 = 0; j2 < cs.size(); ++j2) {
      if (j2 == j) continue;
      if (const auto i2 = partner_of_cand[j2]) {
        // Swapping partners with another pair: rivals both ways when the swap costs no more.
        if (cost(i, j2) + cost(*i2, j) > cost(i, j) + cost(*i2, j2) + kTie) continue;
        if (!differs_materially(cand.stage(cs[j]), cand.stage(cs[j2])) &&
            !differs_materially(base.stage(bs[i]), base.stage(bs[*i2])))
          continue;
        pair.ambiguous_cand.push_back(cand.stages[cs[j2]]);
        pair.ambiguous_base.push_back(base.stages[bs[*i2]]);
      } else if (cost(i, j2) <= cost(i, j) + kTie && differs_materially(cand.stage(cs[j]), cand.stage(cs[j2]))) {
        pair.ambiguous_cand.push_back(cand.stages[cs[j2]]);
      }
    }
    for (size_t i2 = 0; i2 < bs.size(); ++i2) {
      if (partner_of_base[i2] || i2 == i) continue;
      if (cost(i2, j) <= cost(i, j) + kTie && differs_materially(base.stage(bs[i]), base.stage(bs[i2])))
        pair.ambiguous_base.push_back(base.stages[bs[i2]]);
    }
    std::sort(pair.ambiguous_base.begin(), pair.ambiguous_base.end());
  }
}

// Pairs free stages sharing the key `key_of` gives (skipping empty keys); the step's pairs come
// out by baseline stage id.
template <class KeyOf>
void pair_by_key(Side& base, Side& cand, PairMethod method, const KeyOf& key_of, std::vector<IndexPair>& out) {
  std::map<std::string, std::pair<std::vector<size_t>, std::vector<size_t>>> groups;
  for (size_t k = 0; k < base.stages.size(); ++k) {
    if (base.taken[k]) continue;
    if (std::string key = key_of(base.stage(k)); !key.empty()) groups[std::move(key)].first.push_back(k);
  }
  for (size_t k = 0; k < cand.stages.size(); ++k) {
    if (cand.taken[k]) continue;
    const std::string key = key_of(cand.stage(k));
    if (const auto it = groups.find(key); !key.empty() && it != groups.end()) it->second.second.push_back(k);
  }
  std::vector<IndexPair> step;
  for (const auto& [key, sides] : groups) {
    const auto& [bs, cs] = sides;
    if (cs.empty()) continue;
    const auto chosen = assign_group(base, cand, bs, cs);
    std::vector<IndexPair> pairs;
    for (const auto& [i, j] : chosen) {
      base.taken[bs[i]] = cand.taken[cs[j]] = true;
      const double score =
          method == PairMethod::kExact ? 1.0 : jaccard(base.stage(bs[i]).tokens, cand.stage(cs[j]).tokens);
      pairs.push_back({base.stages[bs[i]], cand.stages[cs[j]], method, score, {}, {}});
    }
    if (weighs_evidence(bs, cs)) mark_ambiguous(base, cand, bs, cs, chosen, pairs);
    step.insert(step.end(), std::make_move_iterator(pairs.begin()), std::make_move_iterator(pairs.end()));
  }
  std::sort(step.begin(), step.end(), [](const IndexPair& x, const IndexPair& y) { return x.base < y.base; });
  out.insert(out.end(), std::make_move_iterator(step.begin()), std::make_move_iterator(step.end()));
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
    out.push_back({base.stages[candidate.b], cand.stages[candidate.c], PairMethod::kAligned, candidate.score, {}, {}});
  }
}

}  // namespace

std::string_view to_string(PairMethod method) {
  switch (method) {
    case PairMethod::kExact: return "exact";
    case PairMethod::kStructural: return "structural";
    case PairMethod::kAligned:
    case PairMethod::kPositional: return "aligned";
    case PairMethod::kPinned: return "pinned";
  }
  return "aligned";
}

std::string_view pair_quality(PairMethod method, double score) {
  switch (method) {
    case PairMethod::kExact:
    case PairMethod::kStructural: return "high";
    case PairMethod::kAligned: return score >= 0.8 ? "medium" : "low";
    case PairMethod::kPositional: return "low";
    case PairMethod::kPinned: return "pinned";
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

#include "compare/stage_alignment.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>

namespace sf::compare {

namespace {

std::optional<size_t> index_of(const RunIndex& run, int64_t stage_id) {
  for (size_t i = 0; i < run.stages.size(); ++i) {
    if (run.stages[i].stage_id == stage_id) return i;
  }
  return std::nullopt;
}

// The stages of `stages` not paired yet (by a pin).
std::vector<size_t> unpaired(const std::vector<size_t>& stages, const std::vector<bool>& paired) {
  std::vector<size_t> out;
  for (size_t i : stages) {
    if (!paired[i]) out.push_back(i);
  }
  return out;
}

std::optional<int64_t> stage_number(std::string_view text) {
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() || n < 0) return std::nullopt;
  return n;
}

std::vector<int64_t> stage_ids(const RunIndex& run, const std::vector<size_t>& indices) {
  std::vector<int64_t> ids;
  for (size_t i : indices) ids.push_back(run.stages[i].stage_id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

ExecutionAlignment align_executions(const RunIndex& base, const RunIndex& cand, const AlignmentOptions& options,
                                    std::vector<AlignedPair>& index_pairs) {
  ExecutionAlignment result;
  result.base_executions = base.executions.size();
  result.cand_executions = cand.executions.size();
  std::vector<int64_t> base_ids, cand_ids;
  for (const auto& e : base.executions) base_ids.push_back(*e.execution_id);
  for (const auto& e : cand.executions) cand_ids.push_back(*e.execution_id);
  const SequenceAlignment aligned = align_sequences(
      base_ids, cand_ids,
      [&](size_t i, size_t j) { return execution_similarity(base.executions[i].profile, cand.executions[j].profile); },
      options.sequence);
  index_pairs = aligned.pairs;
  result.bounded = aligned.bounded;
  result.paired = aligned.pairs.size();
  for (const auto& p : aligned.pairs) result.pairs.push_back({base_ids[p.base_index], cand_ids[p.cand_index], p.score});
  const size_t smaller = std::min(result.base_executions, result.cand_executions);
  if (smaller > 0) {
    result.agreement = static_cast<double>(result.paired) / static_cast<double>(smaller);
    result.accepted = *result.agreement >= options.min_execution_agreement;
  } else {
    // Nothing to disagree on when neither run has SQL executions (RDD-only jobs); one run with
    // executions and one without are not one job.
    result.accepted = result.base_executions == 0 && result.cand_executions == 0;
  }
  return result;
}

}  // namespace

StageAlignment align_indexed(const RunIndex& base, const RunIndex& cand, const AlignmentOptions& options) {
  StageAlignment result;
  result.bookkeeping_base = stage_ids(base, base.bookkeeping);
  result.bookkeeping_cand = stage_ids(cand, cand.bookkeeping);
  result.total_run_time_ms = base.total_run_time_ms + cand.total_run_time_ms;

  std::vector<AlignedPair> execution_pairs;
  result.executions = align_executions(base, cand, options, execution_pairs);

  std::vector<bool> base_paired(base.stages.size(), false), cand_paired(cand.stages.size(), false);
  std::vector<bool> base_replanned(base.stages.size(), false), cand_replanned(cand.stages.size(), false);
  auto record = [&](const std::vector<IndexPair>& pairs) {
    for (const auto& p : pairs) {
      base_paired[p.base] = cand_paired[p.cand] = true;
      const StageRecord& b = base.stages[p.base];
      const StageRecord& c = cand.stages[p.cand];
      StagePair pair{b.stage_id, c.stage_id, b.execution_id, c.execution_id, p.method, p.score, {}, {}};
      for (size_t k : p.ambiguous_base) pair.ambiguous_base_stage_ids.push_back(base.stages[k].stage_id);
      for (size_t k : p.ambiguous_cand) pair.ambiguous_cand_stage_ids.push_back(cand.stages[k].stage_id);
      result.pairs.push_back(std::move(pair));
      result.paired_run_time_ms += b.totals.executor_run_time_ms + c.totals.executor_run_time_ms;
    }
  };

  // Pins first, whatever the executions say: the caller vouches for them. Their stages take no
  // part in the pairing below, nor in a replanned group's counts.
  std::vector<IndexPair> pinned;
  for (const StagePin& pin : options.pins) {
    const auto b = index_of(base, pin.base_stage_id);
    const auto c = index_of(cand, pin.cand_stage_id);
    if (!b || !c || base.stages[*b].delta_bookkeeping || cand.stages[*c].delta_bookkeeping) continue;
    if (base_paired[*b] || cand_paired[*c]) continue;
    base_paired[*b] = cand_paired[*c] = true;
    pinned.push_back({*b, *c, PairMethod::kPinned, 1.0, {}, {}});
  }
  record(pinned);

  if (result.executions.accepted) {
    for (const auto& ep : execution_pairs) {
      const ExecutionRecord& be = base.executions[ep.base_index];
      const ExecutionRecord& ce = cand.executions[ep.cand_index];
      const std::vector<size_t> base_stages = unpaired(be.stages, base_paired);
      const std::vector<size_t> cand_stages = unpaired(ce.stages, cand_paired);
      const auto pairs = pair_stages_within(base, base_stages, cand, cand_stages);
      record(pairs);
      if (base_stages.size() == cand_stages.size()) continue;
      ReplannedGroup group;
      group.base_execution_id = *be.execution_id;
      group.cand_execution_id = *ce.execution_id;
      for (size_t i : be.stages) {
        if (base_paired[i]) continue;
        base_replanned[i] = true;
        group.base_stage_ids.push_back(base.stages[i].stage_id);
        group.base_totals += base.stages[i].totals;
      }
      for (size_t i : ce.stages) {
        if (cand_paired[i]) continue;
        cand_replanned[i] = true;
        group.cand_stage_ids.push_back(cand.stages[i].stage_id);
        group.cand_totals += cand.stages[i].totals;
      }
      if (group.base_stage_ids.empty() && group.cand_stage_ids.empty()) continue;
      result.replanned_run_time_ms += group.base_totals.executor_run_time_ms + group.cand_totals.executor_run_time_ms;
      result.replanned.push_back(std::move(group));
    }
    record(pair_stages_within(base, unpaired(base.outside.stages, base_paired), cand,
                              unpaired(cand.outside.stages, cand_paired)));
  }

  std::sort(result.pairs.begin(), result.pairs.end(),
            [](const StagePair& a, const StagePair& b) { return a.base_stage_id < b.base_stage_id; });
  for (size_t i = 0; i < base.stages.size(); ++i) {
    if (!base_paired[i] && !base_replanned[i] && !base.stages[i].delta_bookkeeping) {
      result.unmatched_base.push_back(base.stages[i].stage_id);
    }
  }
  for (size_t i = 0; i < cand.stages.size(); ++i) {
    if (!cand_paired[i] && !cand_replanned[i] && !cand.stages[i].delta_bookkeeping) {
      result.unmatched_cand.push_back(cand.stages[i].stage_id);
    }
  }
  if (result.total_run_time_ms > 0) {
    int64_t covered = result.paired_run_time_ms;
    if (options.replanned_counts_toward_coverage) covered += result.replanned_run_time_ms;
    result.runtime_coverage = static_cast<double>(covered) / static_cast<double>(result.total_run_time_ms);
  }
  return result;
}

Result<StagePin> parse_pin(std::string_view text) {
  const size_t colon = text.find(':');
  const auto base = colon == std::string_view::npos ? std::nullopt : stage_number(text.substr(0, colon));
  const auto cand = colon == std::string_view::npos ? std::nullopt : stage_number(text.substr(colon + 1));
  if (!base || !cand) {
    return fail(Status::InvalidArgument(
        fmt::format("pin \"{}\": expected BASELINE_STAGE:CANDIDATE_STAGE, two stage ids such as 3:5", text)));
  }
  return StagePin{*base, *cand};
}

Status check_pins(const model::AppModel& base, const model::AppModel& cand, const std::vector<StagePin>& pins) {
  std::set<int64_t> base_seen, cand_seen;
  for (const StagePin& pin : pins) {
    const std::string name = fmt::format("pin {}:{}", pin.base_stage_id, pin.cand_stage_id);
    if (base.latest_attempt(pin.base_stage_id) == nullptr)
      return Status::InvalidArgument(fmt::format("{}: the baseline has no stage {}", name, pin.base_stage_id));
    if (cand.latest_attempt(pin.cand_stage_id) == nullptr)
      return Status::InvalidArgument(fmt::format("{}: the candidate has no stage {}", name, pin.cand_stage_id));
    if (!base_seen.insert(pin.base_stage_id).second)
      return Status::InvalidArgument(fmt::format("{}: baseline stage {} is pinned twice", name, pin.base_stage_id));
    if (!cand_seen.insert(pin.cand_stage_id).second)
      return Status::InvalidArgument(fmt::format("{}: candidate stage {} is pinned twice", name, pin.cand_stage_id));
  }
  // Delta bookkeeping is known only once a run is indexed: one index each, no dictionary shared.
  if (pins.empty()) return Status();
  TokenDictionary dictionary;
  const ComparisonNormalizer normalizer;
  const RunIndex base_index = index_run(base, normalizer, dictionary);
  const RunIndex cand_index = index_run(cand, normalizer, dictionary);
  for (const StagePin& pin : pins) {
    const auto b = index_of(base_index, pin.base_stage_id);
    const auto c = index_of(cand_index, pin.cand_stage_id);
    if ((b && base_index.stages[*b].delta_bookkeeping) || (c && cand_index.stages[*c].delta_bookkeeping)) {
      return Status::InvalidArgument(fmt::format("pin {}:{}: a Delta bookkeeping stage is set apart, not paired",
                                                 pin.base_stage_id, pin.cand_stage_id));
    }
    if (!b || !c) {
      return Status::InvalidArgument(
          fmt::format("pin {}:{}: a stage that never ran cannot be paired", pin.base_stage_id, pin.cand_stage_id));
    }
  }
  return Status();
}

StageAlignment align_stages(const model::AppModel& base, const model::AppModel& cand, const AlignmentOptions& options) {
  TokenDictionary dictionary;
  const RunIndex base_index = index_run(base, options.normalizer, dictionary);
  const RunIndex cand_index = index_run(cand, options.normalizer, dictionary);
  return align_indexed(base_index, cand_index, options);
}

}  // namespace sf::compare

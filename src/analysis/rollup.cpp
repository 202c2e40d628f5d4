#include "analysis/rollup.h"

#include <algorithm>

namespace sf::analysis {

std::string_view to_string(RollupTier tier) {
  switch (tier) {
    case RollupTier::kTime: return "time";
    case RollupTier::kResource: return "resource";
    case RollupTier::kCount: return "count";
  }
  return "count";
}

namespace {

double high_of(const Finding& f) { return f.impact.wall_clock ? f.impact.wall_clock->high_ms : 0.0; }
double raw_of(const Finding& f) { return f.impact.raw_waste ? f.impact.raw_waste->value : 0.0; }

// Best first: stronger band, then the larger figure, then the id for a stable order.
bool better(const Finding* a, const Finding* b) {
  if (a->band != b->band) return a->band < b->band;
  if (high_of(*a) != high_of(*b)) return high_of(*a) > high_of(*b);
  if (raw_of(*a) != raw_of(*b)) return raw_of(*a) > raw_of(*b);
  return a->id < b->id;
}

RollupGroup make_group(const std::string& type, RollupTier tier, std::vector<const Finding*> members) {
  std::sort(members.begin(), members.end(), better);
  RollupGroup group;
  group.type = type;
  group.tier = tier;
  group.best_band = members.front()->band;
  group.best_finding_id = members.front()->id;
  for (const Finding* f : members) {
    group.finding_ids.push_back(f->id);
    ++group.band_counts[f->band];
  }
  return group;
}

}  // namespace

Rollup build_rollup(const std::vector<Finding>& findings, const ImpactEstimator& estimator) {
  // type -> tier -> members (resource tier split again by unit)
  std::map<std::string, std::vector<const Finding*>> time_members;
  std::map<std::pair<std::string, WasteUnit>, std::vector<const Finding*>> resource_members;
  std::map<std::string, std::vector<const Finding*>> count_members;
  for (const Finding& f : findings) {
    if (f.impact.wall_clock) {
      time_members[f.type].push_back(&f);
    } else if (f.impact.raw_waste) {
      resource_members[{f.type, f.impact.raw_waste->unit}].push_back(&f);
    } else {
      count_members[f.type].push_back(&f);
    }
  }

  Rollup rollup;
  std::vector<RollupGroup> time_groups;
  for (auto& [type, members] : time_members) {
    RollupGroup group = make_group(type, RollupTier::kTime, members);
    double low = 0;
    std::vector<StageRef> stages;
    for (const Finding* f : members) {
      group.naive_high_ms += f->impact.wall_clock->high_ms;
      low += f->impact.wall_clock->low_ms;
      stages.insert(stages.end(), f->stages.begin(), f->stages.end());
    }
    group.recoverable_high_ms = group.naive_high_ms;
    group.recoverable_low_ms = low;
    // Findings without stages (an app-level gap) have nothing to union against.
    if (!stages.empty()) {
      const double cap = estimator.stage_union_ms(stages);
      bool all_staged =
          std::all_of(members.begin(), members.end(), [](const Finding* f) { return !f->stages.empty(); });
      if (all_staged) {
        group.recoverable_high_ms = std::min(group.recoverable_high_ms, cap);
        group.recoverable_low_ms = std::min(group.recoverable_low_ms, cap);
      }
    }
    group.fix_first = estimator.worth_fixing_first(group.recoverable_high_ms);
    time_groups.push_back(std::move(group));
  }
  std::stable_sort(time_groups.begin(), time_groups.end(), [](const RollupGroup& a, const RollupGroup& b) {
    if (a.recoverable_high_ms != b.recoverable_high_ms) return a.recoverable_high_ms > b.recoverable_high_ms;
    return a.type < b.type;
  });

  std::vector<RollupGroup> resource_groups;
  for (auto& [key, members] : resource_members) {
    RollupGroup group = make_group(key.first, RollupTier::kResource, members);
    group.unit = key.second;
    for (const Finding* f : members) group.resource_total += f->impact.raw_waste->value;
    resource_groups.push_back(std::move(group));
  }
  std::stable_sort(resource_groups.begin(), resource_groups.end(), [](const RollupGroup& a, const RollupGroup& b) {
    if (a.best_band != b.best_band) return a.best_band < b.best_band;
    return a.type < b.type;
  });

  std::vector<RollupGroup> count_groups;
  for (auto& [type, members] : count_members) count_groups.push_back(make_group(type, RollupTier::kCount, members));
  std::stable_sort(count_groups.begin(), count_groups.end(), [](const RollupGroup& a, const RollupGroup& b) {
    if (a.best_band != b.best_band) return a.best_band < b.best_band;
    return a.type < b.type;
  });

  for (auto* tier : {&time_groups, &resource_groups, &count_groups}) {
    for (auto& group : *tier) rollup.groups.push_back(std::move(group));
  }
  return rollup;
}

const RollupGroup* leading_fix_first_group(const Rollup& rollup) {
  for (const RollupGroup& group : rollup.groups) {
    if (group.tier == RollupTier::kTime && group.fix_first) return &group;
  }
  return nullptr;
}

}  // namespace sf::analysis

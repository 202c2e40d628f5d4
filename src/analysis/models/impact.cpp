#include "analysis/models/impact.h"

#include <algorithm>
#include <cmath>

#include "analysis/findings/finding_types.h"
#include "analysis/models/capacity.h"
#include "analysis/settings/heap_sizes.h"

namespace sf::analysis {

ImpactEstimator::ImpactEstimator(const model::AppModel& model, const std::vector<StageOccupancy>& occupancy,
                                 const Thresholds& thresholds)
    : model_(model), occupancy_(occupancy), thresholds_(thresholds) {
  app_duration_ms_ = static_cast<double>(model.app.duration_ms().value_or(0));
  const std::optional<CoreCapacity> capacity = core_capacity(model);
  held_core_ms_ = capacity ? capacity->held_core_ms : app_duration_ms_ * std::max(1, model.peak_concurrent_cores);
}

const StageOccupancy* ImpactEstimator::occupancy_of(const StageRef& stage) const {
  const model::StageAttempt* attempt = model_.stage(stage.stage_id, stage.attempt_id);
  if (attempt == nullptr) return nullptr;
  const auto index = static_cast<size_t>(attempt - model_.stages.data());
  return &occupancy_[index];
}

bool ImpactEstimator::worth_fixing_first(double recoverable_high_ms) const {
  return recoverable_high_ms >= thresholds_.significance_min_ms &&
         recoverable_high_ms >= thresholds_.fix_first_min_share * app_duration_ms_;
}

double ImpactEstimator::stage_union_ms(const std::vector<StageRef>& stages) const {
  std::vector<Interval> windows;
  for (const StageRef& ref : stages) {
    const StageOccupancy* o = occupancy_of(ref);
    if (o != nullptr && o->in_sweep) windows.push_back(o->window);
  }
  return union_ms(std::move(windows));
}

double ImpactEstimator::room_ms(const WasteClaim::StageWaste& part, const StageOccupancy& o) {
  if (part.whole_window) return o.duration_ms;
  const double floor = part.floor_after_fix_ms.value_or(o.ceiling_ms);
  return std::max(0.0, o.duration_ms - floor);
}

ImpactEstimate ImpactEstimator::estimate(const WasteClaim& claim) const {
  ImpactEstimate estimate;
  estimate.method = claim.method;
  estimate.raw_waste = claim.raw;
  switch (claim.kind) {
    case WasteClaim::Kind::kInformational:
      estimate.basis = Basis::kInformational;
      estimate.method = EstimateMethod::kNone;
      estimate.raw_waste.reset();
      return estimate;
    case WasteClaim::Kind::kResourceOnly: estimate.basis = Basis::kResourceOnly; return estimate;
    case WasteClaim::Kind::kSerial:
      // A gap before any stage ran overlaps nothing: the figure stands as measured.
      estimate.basis = Basis::kSerial;
      estimate.wall_clock = WallClockRange{claim.serial_ms, claim.serial_ms};
      return estimate;
    case WasteClaim::Kind::kStages: break;
  }

  double low = 0;
  double high = 0;
  bool all_serial = true;
  std::vector<StageRef> estimated;
  for (const auto& part : claim.stages) {
    const StageOccupancy* o = occupancy_of(part.stage);
    if (o == nullptr || !o->in_sweep) continue;
    const double room = room_ms(part, *o);
    const double clipped = std::min(std::max(0.0, part.waste_ms), room);
    high += clipped;
    if (o->gate >= thresholds_.serial_gate) {
      low += clipped;
    } else {
      low += clipped * o->gate;
      all_serial = false;
    }
    estimated.push_back(part.stage);
  }
  if (estimated.empty()) {
    estimate.basis = Basis::kResourceOnly;  // no stage with a window to tie a claim to
    return estimate;
  }
  if (estimated.size() > 1) {
    const double cap = stage_union_ms(estimated);
    high = std::min(high, cap);
    low = std::min(low, cap);
  }
  estimate.basis = all_serial ? Basis::kSerial : Basis::kContended;
  estimate.wall_clock = WallClockRange{low, high};
  return estimate;
}

double ImpactEstimator::share_band_input(const Finding& finding) const {
  const ImpactEstimate& impact = finding.impact;
  if (impact.wall_clock) {
    return app_duration_ms_ > 0 ? impact.wall_clock->high_ms / app_duration_ms_ : 0.0;
  }
  if (!impact.raw_waste || app_duration_ms_ <= 0) return 0.0;
  // What the executors held over their lives, not the peak over the whole run (capacity.h).
  const double capacity_core_ms = held_core_ms_;
  const RawWaste& raw = *impact.raw_waste;
  switch (raw.unit) {
    case WasteUnit::kMs: return raw.value / app_duration_ms_;
    case WasteUnit::kCoreMs: return raw.value / capacity_core_ms;
    case WasteUnit::kCoreHours: return raw.value * 3.6e6 / capacity_core_ms;
    case WasteUnit::kMbSeconds: {
      // The heap the task executors held, worked back from their block managers' memory
      // (heap_sizes.h). A cluster-mode driver (no cores) holds no task memory.
      double heap_mb = 0;
      for (const auto& e : model_.executors) {
        if (e.total_cores <= 0) continue;
        const double region = static_cast<double>(e.max_onheap_memory_bytes.value_or(e.max_memory_bytes));
        if (region > 0) heap_mb += heap_behind_block_manager(model_, region) / 1048576.0;
      }
      const double capacity = heap_mb * app_duration_ms_ / 1000.0;
      return capacity > 0 ? raw.value / capacity : 0.0;
    }
    case WasteUnit::kBytes: return 0.0;  // bytes have no share of time: low at most
  }
  return 0.0;
}

bool ImpactEstimator::below_significance(const Finding& finding) const {
  const ImpactEstimate& impact = finding.impact;
  if (impact.basis != Basis::kResourceOnly || !impact.raw_waste) return false;
  // A failed job matters for its failure, not for the core time it lost: reported however small.
  if (finding.type == finding_type::kJobFailureRate) return false;
  const RawWaste& raw = *impact.raw_waste;
  switch (raw.unit) {
    case WasteUnit::kCoreMs: return raw.value / 3.6e6 < thresholds_.significance_min_core_hours;
    case WasteUnit::kCoreHours: return raw.value < thresholds_.significance_min_core_hours;
    case WasteUnit::kMbSeconds: return raw.value / 1024.0 / 3600.0 < thresholds_.significance_min_gib_hours;
    case WasteUnit::kMs:
    case WasteUnit::kBytes: return false;
  }
  return false;
}

ImpactBand ImpactEstimator::band(const Finding& finding) const {
  if (finding.impact.basis == Basis::kInformational) return finding.band;
  const double share = share_band_input(finding);
  if (share >= thresholds_.band_critical_share) return ImpactBand::kCritical;
  if (share >= thresholds_.band_high_share) return ImpactBand::kHigh;
  if (share >= thresholds_.band_medium_share) return ImpactBand::kMedium;
  return ImpactBand::kLow;
}

std::string ImpactEstimator::regression_guard_violation(const Finding& finding) const {
  const WasteClaim& claim = finding.claim;
  if (claim.kind != WasteClaim::Kind::kStages || claim.stages.empty()) return "";
  if (!claim.raw || !(claim.raw->value > 0)) return "";
  for (const auto& part : claim.stages) {
    const StageOccupancy* o = occupancy_of(part.stage);
    if (o == nullptr || !o->in_sweep || o->gate < thresholds_.regression_guard_gate) return "";
    // A stage whose floor is its whole duration has no room to recover: zero is the model's
    // answer there, not a gap in it (docs/impact-model.md).
    if (room_ms(part, *o) <= 0 || part.waste_ms <= 0) return "";
  }
  const ImpactEstimate& impact = finding.impact;
  if (impact.basis == Basis::kInformational || impact.basis == Basis::kResourceOnly || !impact.wall_clock ||
      !(impact.wall_clock->high_ms > 0)) {
    return finding.id + ": its stages ran alone and it has a real waste, but it reports no wall-clock";
  }
  return "";
}

}  // namespace sf::analysis

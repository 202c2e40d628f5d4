#include "results/paired_ratio.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "results/dispersion_scaled.h"
#include "results/statistics.h"

namespace sf::results {

MethodOutcome paired_ratio(const std::vector<Pair>& pairs, bool deterministic, Direction direction,
                           const MethodConfig& config) {
  if (deterministic) return dispersion_scaled_paired(pairs, true, direction, config);
  MethodOutcome out;
  out.evidence_count = static_cast<int64_t>(pairs.size());
  out.effect_measure = "ratio";
  if (static_cast<int64_t>(pairs.size()) < config.min_points) {
    out.reason = "insufficient-pairs";
    return out;
  }
  if (std::any_of(pairs.begin(), pairs.end(), [](const Pair& p) { return !(p.baseline > 0) || !(p.target > 0); })) {
    out.reason = "non-positive-values";
    return out;
  }
  std::vector<double> baselines, targets, log_ratios;
  for (const Pair& p : pairs) {
    baselines.push_back(p.baseline);
    targets.push_back(p.target);
    log_ratios.push_back(std::log(p.target / p.baseline));
  }
  out.reference_estimate = mean(baselines);
  out.target_estimate = mean(targets);
  const double center = mean(log_ratios);
  const double standard_error = sample_standard_deviation(log_ratios) / std::sqrt(static_cast<double>(pairs.size()));
  const double multiplier = student_t_975(static_cast<int64_t>(pairs.size()) - 1);
  const double ratio = std::exp(center);
  out.effect = ratio;
  out.noise = standard_error;
  out.noise_source = fmt::format("standard error of the log ratio over {} paired rounds", pairs.size());
  out.interval_low = std::exp(center - multiplier * standard_error);
  out.interval_high = std::exp(center + multiplier * standard_error);
  out.threshold = config.min_effect;
  const bool excludes_one = *out.interval_low > 1 || *out.interval_high < 1;
  const bool large_enough = std::fabs(ratio - 1) >= config.min_effect;
  if (excludes_one && large_enough) {
    out.verdict = directed_verdict(ratio - 1, direction);
    out.reason = fmt::format("95% interval [{:.6g}, {:.6g}] excludes 1 and |ratio - 1| {:.6g} >= {:.6g}",
                             *out.interval_low, *out.interval_high, std::fabs(ratio - 1), config.min_effect);
  } else {
    out.verdict = Verdict::kNoChangeDetected;
    out.reason =
        excludes_one
            ? fmt::format("|ratio - 1| {:.6g} < minimum effect {:.6g}", std::fabs(ratio - 1), config.min_effect)
            : fmt::format("95% interval [{:.6g}, {:.6g}] includes 1", *out.interval_low, *out.interval_high);
  }
  return out;
}

}  // namespace sf::results

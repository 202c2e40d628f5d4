#include "results/dispersion_scaled.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "results/statistics.h"

namespace sf::results {

namespace {

// Threshold test shared by both modes: sets threshold, verdict and reason.
void decide(MethodOutcome& out, Direction direction, const MethodConfig& config) {
  out.threshold = config.k * *out.noise;
  if (std::fabs(*out.effect) > *out.threshold) {
    out.verdict = directed_verdict(*out.effect, direction);
    out.reason = fmt::format("|effect| {:.6g} > k {:.6g} x noise {:.6g}", std::fabs(*out.effect), config.k, *out.noise);
  } else {
    out.verdict = Verdict::kNoChangeDetected;
    out.reason =
        fmt::format("|effect| {:.6g} <= k {:.6g} x noise {:.6g}", std::fabs(*out.effect), config.k, *out.noise);
  }
}

}  // namespace

MethodOutcome exact_comparison(double target, double reference, int64_t evidence_count, Direction direction) {
  MethodOutcome out;
  out.reference_estimate = reference;
  out.target_estimate = target;
  out.effect_measure = "absolute";
  out.effect = target - reference;
  out.noise_source = "none: deterministic quantity, compared exactly";
  out.evidence_count = evidence_count;
  if (target == reference) {
    out.verdict = Verdict::kNoChangeDetected;
    out.reason = "deterministic: equal to the reference";
  } else {
    out.verdict = directed_verdict(*out.effect, direction);
    out.reason = "deterministic: differs from the reference";
  }
  return out;
}

MethodOutcome dispersion_scaled_history(double target, const std::vector<double>& reference, bool deterministic,
                                        Direction direction, const MethodConfig& config) {
  MethodOutcome out;
  out.evidence_count = static_cast<int64_t>(reference.size());
  if (reference.empty()) {
    out.reason = "no-reference";
    return out;
  }
  if (deterministic) return exact_comparison(target, reference.front(), out.evidence_count, direction);

  const double estimate = mean(reference);
  out.reference_estimate = estimate;
  out.target_estimate = target;
  const bool relative = estimate != 0;
  out.effect_measure = relative ? "relative" : "absolute";
  out.effect = relative ? (target - estimate) / std::fabs(estimate) : target - estimate;

  if (static_cast<int64_t>(reference.size()) >= config.min_points) {
    const double spread = sample_standard_deviation(reference);
    out.noise = relative ? spread / std::fabs(estimate) : spread;
    out.noise_source = fmt::format("sample standard deviation of {} reference points", reference.size());
  } else if (config.provisional_relative_noise && relative) {
    out.noise = *config.provisional_relative_noise;
    out.noise_source = fmt::format("provisional: configured relative noise (only {} of {} reference points)",
                                   reference.size(), config.min_points);
    out.provisional = true;
  } else {
    out.reason = "insufficient-history";
    out.verdict = Verdict::kIndeterminate;
    return out;
  }
  decide(out, direction, config);
  return out;
}

MethodOutcome dispersion_scaled_paired(const std::vector<Pair>& pairs, bool deterministic, Direction direction,
                                       const MethodConfig& config) {
  MethodOutcome out;
  out.evidence_count = static_cast<int64_t>(pairs.size());
  if (pairs.empty()) {
    out.reason = "insufficient-pairs";
    return out;
  }
  std::vector<double> baselines, targets;
  for (const Pair& p : pairs) {
    baselines.push_back(p.baseline);
    targets.push_back(p.target);
  }
  if (deterministic) {
    const bool all_equal =
        std::all_of(pairs.begin(), pairs.end(), [](const Pair& p) { return p.target == p.baseline; });
    MethodOutcome exact = exact_comparison(mean(targets), mean(baselines), out.evidence_count, direction);
    if (!all_equal && exact.verdict == Verdict::kNoChangeDetected) {
      exact.verdict = Verdict::kChanged;  // differing pairs whose means happen to agree
      exact.reason = "deterministic: pairs differ";
    }
    return exact;
  }
  out.reference_estimate = mean(baselines);
  out.target_estimate = mean(targets);
  if (static_cast<int64_t>(pairs.size()) < config.min_points) {
    out.reason = "insufficient-pairs";
    return out;
  }
  const bool relative = std::none_of(pairs.begin(), pairs.end(), [](const Pair& p) { return p.baseline == 0; });
  std::vector<double> differences;
  for (const Pair& p : pairs)
    differences.push_back(relative ? (p.target - p.baseline) / std::fabs(p.baseline) : p.target - p.baseline);
  out.effect_measure = relative ? "relative" : "absolute";
  out.effect = mean(differences);
  out.noise = sample_standard_deviation(differences);
  out.noise_source = fmt::format("sample standard deviation of {} paired differences", pairs.size());
  decide(out, direction, config);
  return out;
}

}  // namespace sf::results

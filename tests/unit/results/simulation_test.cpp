// The methods' error rates by simulation, with fixed seeds (the same numbers on every run).
//
// With no true change, the dispersion-scaled rule flags a regression when the target exceeds
// the reference mean by more than k sample standard deviations. For normal noise and n
// reference points that happens with probability P(T_{n-1} > k / sqrt(1 + 1/n)): the target
// and the mean differ with variance sigma^2 (1 + 1/n), and the sample standard deviation has
// n - 1 degrees of freedom. The test computes that rate from Student's t and checks the
// simulated rate against it; then it checks a planted 5% change at 1% noise is found.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "results/dispersion_scaled.h"
#include "results/paired_ratio.h"

namespace sf::results {
namespace {

// Upper tail of Student's t with `nu` degrees of freedom beyond x, by Simpson's rule.
double student_t_upper_tail(double x, double nu) {
  const double log_norm = std::lgamma((nu + 1) / 2) - std::lgamma(nu / 2) - 0.5 * std::log(nu * M_PI);
  auto pdf = [&](double t) { return std::exp(log_norm - (nu + 1) / 2 * std::log1p(t * t / nu)); };
  const double upper = 400;
  const int steps = 400000;
  const double h = (upper - x) / steps;
  double sum = pdf(x) + pdf(upper);
  for (int i = 1; i < steps; ++i) sum += pdf(x + i * h) * (i % 2 == 1 ? 4 : 2);
  return sum * h / 3;
}

struct Rates {
  double regressed = 0;
  double improved = 0;
};

Rates history_rates(double true_change, double noise, int n, const MethodConfig& config, int trials, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> unit(0, 1);
  int regressed = 0, improved = 0;
  std::vector<double> reference(static_cast<size_t>(n));
  for (int t = 0; t < trials; ++t) {
    for (double& v : reference) v = 100 * (1 + noise * unit(rng));
    const double target = 100 * (1 + true_change) * (1 + noise * unit(rng));
    const Verdict v = dispersion_scaled_history(target, reference, false, Direction::kLowerIsBetter, config).verdict;
    regressed += v == Verdict::kRegressed;
    improved += v == Verdict::kImproved;
  }
  return {static_cast<double>(regressed) / trials, static_cast<double>(improved) / trials};
}

TEST(Simulation, DispersionScaledFalseRegressionRateMatchesK) {
  for (const double k : {2.0, 3.0}) {
    MethodConfig config;
    config.k = k;
    config.window = 20;
    const int n = 20;
    const int trials = 40000;
    const double expected = student_t_upper_tail(k / std::sqrt(1 + 1.0 / n), n - 1);
    const Rates rates = history_rates(0.0, 0.01, n, config, trials, 20240601 + static_cast<uint64_t>(k));
    const double standard_error = std::sqrt(expected * (1 - expected) / trials);
    std::printf(
        "[simulation] dispersion-scaled k=%.0f n=%d no change: false-regression rate %.4f (theory %.4f), "
        "false-improvement rate %.4f, %d trials\n",
        k, n, rates.regressed, expected, rates.improved, trials);
    EXPECT_NEAR(rates.regressed, expected, 4 * standard_error + 0.0005);
    EXPECT_NEAR(rates.improved, expected, 4 * standard_error + 0.0005);
  }
}

TEST(Simulation, DispersionScaledFindsAPlantedFivePercentChangeAtOnePercentNoise) {
  MethodConfig config;  // k = 3
  const Rates rates = history_rates(0.05, 0.01, 20, config, 5000, 77);
  std::printf(
      "[simulation] dispersion-scaled k=3 planted +5%% at 1%% noise: detected as regression %.4f, as improvement "
      "%.4f\n",
      rates.regressed, rates.improved);
  EXPECT_GT(rates.regressed, 0.95);
  EXPECT_EQ(rates.improved, 0.0);
}

TEST(Simulation, PairedRatioFalsePositiveRateIsAboutFivePercentAndPowerIsHigh) {
  MethodConfig config;
  config.name = "paired-ratio";
  config.min_points = 3;
  config.min_effect = 0;  // the interval alone: its nominal two-sided error is 5%
  std::mt19937_64 rng(4242);
  std::normal_distribution<double> unit(0, 1);
  auto rate = [&](double change, int trials) {
    int flagged = 0;
    for (int t = 0; t < trials; ++t) {
      std::vector<Pair> pairs;
      for (int r = 0; r < 8; ++r) {
        const double machine = 100 * (1 + 0.05 * unit(rng));  // shared by the pair: pairing cancels it
        pairs.push_back({r, machine * (1 + 0.01 * unit(rng)), machine * (1 + change) * (1 + 0.01 * unit(rng))});
      }
      flagged += paired_ratio(pairs, false, Direction::kLowerIsBetter, config).verdict != Verdict::kNoChangeDetected;
    }
    return static_cast<double>(flagged) / trials;
  };
  const double null_rate = rate(0.0, 20000);
  const double power = rate(0.05, 2000);
  std::printf(
      "[simulation] paired-ratio 8 rounds, 1%% noise: false-change rate %.4f (nominal 0.05), planted +5%% found %.4f\n",
      null_rate, power);
  EXPECT_NEAR(null_rate, 0.05, 0.008);
  EXPECT_GT(power, 0.99);
}

}  // namespace
}  // namespace sf::results

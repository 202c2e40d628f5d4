#include "analysis/economics/rate_card.h"

#include <array>

namespace sf::analysis {

namespace {

// On-demand list prices of services that bill vCPUs and memory apart, as their pages gave them
// when read. They change rarely, but they do: docs/economics.md says how to set current ones.
const std::array<RateCard, 4> kPresets = {
    RateCard{"gcp-n2-us-central1", "USD", 0.031611, 0.004237,
             "https://cloud.google.com/compute/vm-instance-pricing (N2 vCPU and memory, on-demand, us-central1; "
             "memory billed per GiB)",
             "2024-06"},
    RateCard{"gcp-e2-us-central1", "USD", 0.021811, 0.002923,
             "https://cloud.google.com/compute/vm-instance-pricing (E2 vCPU and memory, on-demand, us-central1; "
             "memory billed per GiB)",
             "2024-06"},
    RateCard{"aws-emr-serverless-us-east-1", "USD", 0.052624, 0.0057785,
             "https://aws.amazon.com/emr/pricing/ (EMR Serverless, x86, per vCPU-hour and per GB-hour of memory, "
             "us-east-1)",
             "2024-06"},
    RateCard{"aws-fargate-us-east-1", "USD", 0.04048, 0.004445,
             "https://aws.amazon.com/fargate/pricing/ (Linux/x86, per vCPU-hour and per GB-hour, us-east-1)",
             "2024-06"},
};

}  // namespace

std::span<const RateCard> rate_card_presets() { return kPresets; }

const RateCard* find_rate_card_preset(std::string_view name) {
  for (const RateCard& card : kPresets) {
    if (card.name == name) return &card;
  }
  return nullptr;
}

const RateCard& default_rate_card() { return kPresets.front(); }

}  // namespace sf::analysis

// What a core-hour and a GiB-hour of memory cost: the prices the cost model (cost.h) turns held
// resources into money with.
//
// A rate card is a currency, a price per core-hour and a price per GiB-hour, with where the
// prices come from and when they were read. The presets are public on-demand list prices of
// clouds that bill vCPUs and memory apart (docs/economics.md lists them with their pages); they
// are list prices, without discounts, and a user sets their own in the analysis config:
//
//   { "rateCard": { "preset": "aws-emr-serverless-us-east-1" } }
//   { "rateCard": { "name": "our cluster", "currency": "EUR", "perCoreHour": 0.035, "perGibHour": 0.004 } }
//
// (a preset with some prices overridden also works). Plain values; the presets are constants.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace sf::analysis {

struct RateCard {
  std::string name;  // a preset's name, or what the user calls theirs
  std::string currency = "USD";
  double per_core_hour = 0;
  double per_gib_hour = 0;
  std::string source;  // where the prices come from
  std::string as_of;   // when they were read (YYYY-MM)

  bool operator==(const RateCard&) const = default;
};

std::span<const RateCard> rate_card_presets();
const RateCard* find_rate_card_preset(std::string_view name);
// The card used when the config names none: the first preset (on-demand VM prices).
const RateCard& default_rate_card();

}  // namespace sf::analysis

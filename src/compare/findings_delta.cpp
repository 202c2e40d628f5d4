#include "compare/findings_delta.h"

#include <map>
#include <utility>

namespace sf::compare {

FindingsDelta findings_delta(const std::vector<analysis::Finding>& baseline,
                             const std::vector<analysis::Finding>& candidate) {
  std::map<std::pair<std::string, analysis::ImpactBand>, FindingCategory> tally;
  auto count = [&](const std::vector<analysis::Finding>& findings, int FindingCategory::*side) {
    auto count_one = [&](const analysis::Finding& f) {
      const std::string rule = f.type_and_rule();
      FindingCategory& category = tally[{rule, f.band}];
      category.rule = rule;
      category.band = f.band;
      ++(category.*side);
    };
    // A finding folded into another (one fix, one entry) is still there: merged on one side
    // and not on the other, it is neither introduced nor resolved.
    for (const auto& f : findings) {
      count_one(f);
      for (const analysis::AnsweredFinding& a : f.also_answers) count_one(a.finding);
    }
  };
  count(baseline, &FindingCategory::baseline);
  count(candidate, &FindingCategory::candidate);
  FindingsDelta delta;
  for (const auto& [key, category] : tally) {
    delta.categories.push_back(category);
    if (category.candidate > category.baseline) delta.introduced.push_back(category);
    if (category.baseline > category.candidate) delta.resolved.push_back(category);
  }
  return delta;
}

}  // namespace sf::compare

// Placeholder until the family is implemented; replaced before this lands.
#include "analysis/detectors.h"

namespace sf::analysis {

void detect_task_distribution(const DetectorContext&, std::vector<Finding>&) {}

}  // namespace sf::analysis

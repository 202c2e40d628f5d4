#include "corpus/expectation_map.h"

#include <fstream>

namespace sf::corpus_testing {

std::vector<ExpectationEntry> read_expectation_map(const std::filesystem::path& tsv) {
  std::vector<ExpectationEntry> entries;
  std::ifstream in(tsv);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    size_t start = 0;
    while (true) {
      const size_t end = line.find('\t', start);
      fields.push_back(line.substr(start, end == std::string::npos ? std::string::npos : end - start));
      if (end == std::string::npos) break;
      start = end + 1;
    }
    if (fields.size() < 4) continue;
    entries.push_back({fields[0], fields[1], fields[2], fields[3]});
  }
  return entries;
}

}  // namespace sf::corpus_testing

// The event logs of the shared corpus, as a table, and a walk of the corpus folder that finds
// them, so a log added to the corpus but not to the table is noticed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace sf::corpus_testing {

struct CorpusLog {
  std::string_view path;  // relative to the corpus root; a directory for rolled logs
  uint64_t expected_malformed_lines = 0;
  std::string_view damage;  // why the log is damaged on purpose; "" when it is not
};

// gtest prints a failing case's parameter with this.
inline void PrintTo(const CorpusLog& log, std::ostream* out) { *out << log.path; }

// Every event log of the corpus: plain, zstd, gzip, the codecs/ re-encodings, rolling
// eventlog_v2_* directories and the Databricks-layout directory.
const std::vector<CorpusLog>& corpus_logs();

// The event logs found under `root` (relative paths, sorted): every regular file outside the
// expectation folders and the corpus' own notes, except the parts of a rolling or Databricks
// directory, which count as one log named by the directory.
std::vector<std::string> discover_corpus_logs(const std::filesystem::path& root);

// A name usable as a gtest parameter name: letters, digits and underscores only.
std::string test_name_of(std::string_view text);

// A short gtest parameter name for a corpus log: the repository owner, the parent folder and
// the file name ("NVIDIA_spark_events_profiling_eventlog_dsv2_zstd").
std::string log_test_name(std::string_view relative_path);

}  // namespace sf::corpus_testing

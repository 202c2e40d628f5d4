// Text normalization for comparing two runs of the same job.
//
// Two runs of one job print text that differs for reasons that say nothing about the work:
// a random staging directory, the run date in a predicate, an IN list that grows with the
// processing window, the number of files a file index lists, the number Spark gives a
// whole-stage-codegen subtree (its place in the plan: a union's two branches that read one table
// differ only in it, and a run that lists them in the other order swaps it). The
// ComparisonNormalizer rewrites
// exactly those to a fixed form, after the caller's own patterns (--normalize-path), which see
// the text as Spark printed it. Numbers, paths and literals in general are left alone: blanket
// stripping fused distinct stages of one run (a filter on 2 and one on 3 are different stages).
//
// The caller's patterns run on RE2: matching takes time linear in the text whatever the pattern,
// so a pattern such as (.*a){25} from an MCP client cannot hold a core for minutes. RE2 has no
// back-references or look-around; such a pattern is refused with RE2's reason.
//
// The normalizer decides only which stages pair; findings never read it. Immutable once built,
// safe to share between threads (and cheap to copy: the compiled patterns are shared).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace re2 {
class RE2;
}

namespace sf::compare {

// The fixed forms the targeted patches write.
inline constexpr std::string_view kStagingDirToken = "<dir>";
inline constexpr std::string_view kDateToken = "<date>";
inline constexpr std::string_view kListToken = "<list>";
inline constexpr std::string_view kUserPatternToken = "<norm>";

inline constexpr size_t kMaxNormalizePatternBytes = 4096;

class ComparisonNormalizer {
 public:
  // Without user patterns.
  ComparisonNormalizer() = default;

  // Compiles the caller's regular expressions (RE2 syntax); an invalid one, or one over
  // kMaxNormalizePatternBytes, is an InvalidArgument naming it.
  static Result<ComparisonNormalizer> with_patterns(const std::vector<std::string>& patterns);

  // User patterns, then plan-text id removal, then the targeted patches.
  std::string normalize(std::string_view text) const;

  const std::vector<std::string>& patterns() const { return pattern_texts_; }

 private:
  std::vector<std::string> pattern_texts_;
  std::vector<std::shared_ptr<const re2::RE2>> patterns_;
};

// The targeted patches alone, each exposed for its tests.
std::string replace_staging_directories(std::string_view text);
std::string replace_dates(std::string_view text);
std::string replace_in_lists(std::string_view text);
std::string replace_file_index_counts(std::string_view text);
std::string replace_codegen_ids(std::string_view text);

// A stage name as a run-independent label: lowercased, digit runs and long hex ids collapsed to
// '#' ("count at Foo.scala:42" -> "count at foo.scala:#").
std::string normalize_stage_name(std::string_view name);

// Lowercase alphanumeric tokens of `text` (split on everything else), sorted and distinct.
std::vector<std::string> text_tokens(std::string_view text);

}  // namespace sf::compare

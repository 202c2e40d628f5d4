// RevisionGraph::ancestry_order (how the history page lays out a series) and
// event_log_source (which log a result came from, for links to the compare page).
#include <gtest/gtest.h>

#include "results/revision_graph.h"
#include "results/spark_result.h"
#include "trend_fixture.h"

namespace sf::results {
namespace {

using testing::History;
using testing::ResultBuilder;

std::vector<std::string> trees(const std::vector<const StoredResult*>& ordered) {
  std::vector<std::string> out;
  for (const StoredResult* r : ordered)
    out.push_back(r->document.revision.tree.empty() ? "-" : r->document.revision.tree);
  return out;
}

TEST(AncestryOrder, ParentsComeFirstWhateverTheIngestOrder) {
  History h;
  // Ingested child first: c (parent b), then a, then b (parent a), then d (parent c).
  h.add(ResultBuilder().tree("c", {"b"}).duration(1));
  h.add(ResultBuilder().tree("a").duration(1));
  h.add(ResultBuilder().tree("b", {"a"}).duration(1));
  h.add(ResultBuilder().tree("d", {"c"}).duration(1));
  std::vector<const StoredResult*> all;
  for (const auto& r : h.results()) all.push_back(&r);
  EXPECT_EQ(trees(RevisionGraph(h.results()).ancestry_order(all)), (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(AncestryOrder, SiblingsAndResultsWithoutARevisionGoByNativeOrder) {
  History h;
  h.add(ResultBuilder().tree("root").duration(1));
  h.add(ResultBuilder().tree("right", {"root"}).duration(1));
  h.add(ResultBuilder().duration(1));  // no revision
  h.add(ResultBuilder().tree("left", {"root"}).duration(1));
  std::vector<const StoredResult*> all;
  for (const auto& r : h.results()) all.push_back(&r);
  EXPECT_EQ(trees(RevisionGraph(h.results()).ancestry_order(all)),
            (std::vector<std::string>{"root", "right", "-", "left"}));
}

TEST(AncestryOrder, AnAncestorOutsideTheSubsetStillOrdersThroughIt) {
  History h;
  h.add(ResultBuilder("other").tree("a").duration(1));
  h.add(ResultBuilder().tree("c", {"b"}).duration(1));
  h.add(ResultBuilder("other").tree("b", {"a"}).duration(1));
  h.add(ResultBuilder().tree("a2", {}).duration(1));
  h.add(ResultBuilder().tree("a").duration(1));
  // The job's own results: c (ingested 2nd), a2, a. "a" is c's grandparent through b.
  std::vector<const StoredResult*> job;
  for (const auto& r : h.results()) {
    if (r.document.subject == "job") job.push_back(&r);
  }
  EXPECT_EQ(trees(RevisionGraph(h.results()).ancestry_order(job)), (std::vector<std::string>{"a2", "a", "c"}));
}

TEST(EventLogSource, TheSourceOfAnOriginAndNothingElse) {
  EXPECT_EQ(event_log_source(event_log_origin("/logs/app-1.zstd", "app-1")), "/logs/app-1.zstd");
  EXPECT_EQ(event_log_source(event_log_origin("dir with (parens)/x", "app-2")), "dir with (parens)/x");
  EXPECT_FALSE(event_log_source("nightly benchmark on host 7").has_value());
  EXPECT_FALSE(event_log_source("spark event log of app-3").has_value());
}

}  // namespace
}  // namespace sf::results

// What a trend comparison reads of the stored results, as questions a source answers: the
// in-memory SeriesIndex over every stored result (series_index.h), or a store answering each with
// SQL (store_series.h), reading only the rows a verdict needs.
//
// Both give the same answers for the same store and policy, so a verdict document is the same
// whichever source it came from. Pointers a source returns stay valid as long as the source.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "results/identity_policy.h"
#include "results/result.h"

namespace sf::results {

class SeriesSource {
 public:
  virtual ~SeriesSource() = default;

  virtual const IdentityPolicy& policy() const = 0;

  // The result with exactly this id; nullptr when there is none.
  virtual Result<const StoredResult*> result(const std::string& id) = 0;

  // Every strict ancestor of `tree` with its distance in generations over the store's revision
  // graph (RevisionGraph::ancestors).
  virtual Result<std::map<std::string, int64_t>> ancestors(const std::string& tree) = 0;

  // The results ingested before the one of native order `before` whose comparison identity may be
  // `identity`, in native order: at least every one that is (the caller checks each).
  virtual Result<std::vector<ResultKey>> series_candidates(const Coordinates& identity, int64_t before) = 0;

  // The results of these native orders (each one series_candidates gave), in the same order.
  virtual Result<std::vector<const StoredResult*>> load(const std::vector<int64_t>& orders) = 0;
};

}  // namespace sf::results

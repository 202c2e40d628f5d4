// A long-running reader's view of a result store (serve --store, mcp --store): every stored
// result, kept between requests and brought up to date on each one by reading only what was
// ingested since. Results are immutable and their native order is their commit order
// (results/store.h), so the results after the last one seen are exactly the new ones; the
// identity policy is read again each time. The store is opened for each refresh, so a store
// created after the reader started is found, a file replaced under it is read anew (its last
// known result is gone or moved: everything is read again), and a PostgreSQL server that
// restarted is reconnected to.
//
// The dashboard's history and fleet pages and the MCP verdict tool evaluate over every result:
// before this, each request read and parsed the whole store (0.42 s for 9,000 results on the
// development machine). A front end that asks once and exits (the CLI, Python) asks the store
// instead (results/store_series.h), which reads only the rows a verdict uses.
//
// Memory: the parsed results, as long as the reader runs (what one request used to hold while it
// ran). Thread-safe: concurrent requests share one refresh.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/status.h"
#include "results/identity_policy.h"
#include "results/result.h"

namespace sf::results {

class StoreSnapshot {
 public:
  struct Contents {
    std::string description;  // Store::description(): never a password
    std::vector<StoredResult> results;
    IdentityPolicy policy;
  };

  // `location`: an SQLite file or a postgresql:// URL, as `store` takes it.
  explicit StoreSnapshot(std::string location);

  // The store as it is now. NotFound when there is no store at the location (it is never created
  // here); another error when the store cannot be read.
  Result<std::shared_ptr<const Contents>> current();

 private:
  std::mutex mutex_;
  const std::string location_;
  std::shared_ptr<const Contents> contents_;
};

}  // namespace sf::results

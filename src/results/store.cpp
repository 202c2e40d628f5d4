#include "results/store.h"

namespace sf::results {

bool is_postgres_location(const std::string& location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

Result<std::unique_ptr<Store>> open_store(const std::string& location, const StoreOptions& options) {
  if (location.empty()) return fail(Status::InvalidArgument("no store given"));
  return is_postgres_location(location) ? open_postgres_store(location, options) : open_sqlite_store(location, options);
}

}  // namespace sf::results

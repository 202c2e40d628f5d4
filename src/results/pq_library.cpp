#include "results/pq_library.h"

namespace sf::results {

Result<const PqFunctions*> libpq() {
  static LazyLibrary libpq5(SF_LIBPQ_SONAME, "libpq5", "A PostgreSQL result store");
  return load_functions<PqFunctions>(libpq5, [](PqFunctions& table, LazyLibrary& library) -> Status {
    SF_PQ_FUNCTIONS(SF_LAZY_LOAD)
    return Status();
  });
}

}  // namespace sf::results

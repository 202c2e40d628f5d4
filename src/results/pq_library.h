// libpq, opened when a PostgreSQL result store is first opened (common/lazy_library.h).
#pragma once

#include <libpq-fe.h>

#include "common/lazy_library.h"

namespace sf::results {

// One X-macro list laid out by hand: clang-format reflows it differently on each pass.
// clang-format off
#define SF_PQ_FUNCTIONS(X)                                                                                 \
  X(connectdb, PQconnectdb) X(status, PQstatus) X(finish, PQfinish) X(error_message, PQerrorMessage)      \
  X(db, PQdb) X(host, PQhost) X(exec_params, PQexecParams) X(result_status, PQresultStatus)                \
  X(ntuples, PQntuples) X(getvalue, PQgetvalue) X(clear, PQclear)
// clang-format on

struct PqFunctions {
  SF_PQ_FUNCTIONS(SF_LAZY_MEMBER)
};

// The functions, or why libpq could not be loaded.
Result<const PqFunctions*> libpq();

}  // namespace sf::results

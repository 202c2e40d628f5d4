// libmicrohttpd, opened when serve starts (common/lazy_library.h).
#pragma once

#include <microhttpd.h>

#include "common/lazy_library.h"

namespace sf::server {

// One X-macro list laid out by hand: clang-format reflows it differently on each pass.
// clang-format off
#define SF_MICROHTTPD_FUNCTIONS(X)                                                                       \
  X(start_daemon, MHD_start_daemon) X(quiesce_daemon, MHD_quiesce_daemon) X(stop_daemon, MHD_stop_daemon) \
  X(suspend_connection, MHD_suspend_connection) X(resume_connection, MHD_resume_connection)              \
  X(get_connection_info, MHD_get_connection_info) X(get_connection_values, MHD_get_connection_values)    \
  X(lookup_connection_value, MHD_lookup_connection_value)                                                \
  X(create_response_from_callback, MHD_create_response_from_callback)                                    \
  X(create_response_from_buffer_with_free_callback_cls, MHD_create_response_from_buffer_with_free_callback_cls) \
  X(add_response_header, MHD_add_response_header) X(queue_response, MHD_queue_response)                  \
  X(destroy_response, MHD_destroy_response)
// clang-format on

struct MicrohttpdFunctions {
  SF_MICROHTTPD_FUNCTIONS(SF_LAZY_MEMBER)
};

// The functions, or why libmicrohttpd could not be loaded.
Result<const MicrohttpdFunctions*> libmicrohttpd();

}  // namespace sf::server

# Every dependency is a Debian package; scripts/install-deps.sh installs the missing ones.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(simdjson CONFIG REQUIRED)
find_package(nlohmann_json CONFIG REQUIRED)
# RapidJSON's Writer: the streaming writer of every document (common/json_writer.h). Debian's
# config file sets only RAPIDJSON_INCLUDE_DIRS, so the target is made here.
find_package(RapidJSON CONFIG REQUIRED)
if(NOT TARGET RapidJSON::RapidJSON)
  add_library(RapidJSON::RapidJSON INTERFACE IMPORTED)
  set_target_properties(RapidJSON::RapidJSON PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${RAPIDJSON_INCLUDE_DIRS}")
endif()
find_package(fmt CONFIG REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(tl-expected CONFIG REQUIRED)
find_package(zstd CONFIG REQUIRED)
find_package(Snappy CONFIG REQUIRED)
find_package(liblzf CONFIG REQUIRED)
find_package(ZLIB REQUIRED)
find_package(LibArchive REQUIRED)
find_package(SQLite3 REQUIRED)      # the embedded result store
find_package(PostgreSQL REQUIRED)   # the shared result store (libpq)
find_package(CURL REQUIRED)         # History Server downloads (src/fetch)
pkg_check_modules(LZ4 REQUIRED IMPORTED_TARGET liblz4)
# xxhash: lz4-java's block checksum (XXH32); liblz4 does not export its copy.
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET GLOBAL libxxhash)
# The HTTP server of `serve` (libmicrohttpd-dev): an event loop that reads requests with bounded
# memory and deadlines. (cpp-httplib remains, as the History Server stand-in of the fetch tests.)
pkg_check_modules(MICROHTTPD REQUIRED IMPORTED_TARGET libmicrohttpd)
# RE2: linear-time regular expressions for patterns a log or a client supplies (redaction).
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET GLOBAL re2)

# Opened on first use, never linked (common/lazy_library.h): libcurl, libpq, libarchive and
# libmicrohttpd, with what they pull in, cost ~12 ms at every start. Each gets an interface target
# with its headers and a definition of its SONAME, read here from the library file.
function(sf_lazy_library target library_name include_dirs soname_define)
  find_library(${soname_define}_FILE NAMES ${library_name} REQUIRED)
  execute_process(COMMAND objdump -p "${${soname_define}_FILE}" OUTPUT_VARIABLE dump ERROR_QUIET)
  if(NOT dump MATCHES "SONAME +([^ \n]+)")
    message(FATAL_ERROR "no SONAME in ${${soname_define}_FILE}")
  endif()
  add_library(${target} INTERFACE)
  target_include_directories(${target} INTERFACE ${include_dirs})
  target_compile_definitions(${target} INTERFACE ${soname_define}="${CMAKE_MATCH_1}")
endfunction()
get_target_property(SF_CURL_INCLUDE_DIRS CURL::libcurl INTERFACE_INCLUDE_DIRECTORIES)
sf_lazy_library(sf_lazy_curl curl "${SF_CURL_INCLUDE_DIRS}" SF_LIBCURL_SONAME)
sf_lazy_library(sf_lazy_pq pq "${PostgreSQL_INCLUDE_DIRS}" SF_LIBPQ_SONAME)
sf_lazy_library(sf_lazy_archive archive "${LibArchive_INCLUDE_DIRS}" SF_LIBARCHIVE_SONAME)
sf_lazy_library(sf_lazy_microhttpd microhttpd "${MICROHTTPD_INCLUDE_DIRS};${MICROHTTPD_INCLUDEDIR}" SF_LIBMICROHTTPD_SONAME)

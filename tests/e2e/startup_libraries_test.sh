#!/usr/bin/env bash
# The program starts without loading the network, database and archive libraries: libcurl, libpq,
# libarchive and libmicrohttpd (and gnutls, OpenSSL, krb5, LDAP, ICU behind them) are opened when a
# command first needs them (common/lazy_library.h). Linked directly they cost ~12 ms at every start.
#   startup_libraries_test.sh SPARKFORENSICS
set -euo pipefail
sf="$1"
needed=$(readelf -d "$sf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[[ -n "$needed" ]] || { echo "FAIL: readelf listed no needed library for $sf"; exit 1; }
status=0
for lib in libcurl libpq libarchive libmicrohttpd libgnutls libssl libcrypto libkrb5 libldap libicu libxml2; do
  if grep -q "^$lib" <<<"$needed"; then
    echo "FAIL: $sf links $lib at start; open it with LazyLibrary instead"
    status=1
  fi
done
# And nothing loads them behind a direct dependency: what the loader maps for --version.
loaded=$(LD_TRACE_LOADED_OBJECTS=1 "$sf" | awk '{print $1}')
for lib in libcurl libpq libarchive libmicrohttpd libgnutls; do
  if grep -q "^$lib" <<<"$loaded"; then
    echo "FAIL: $lib is loaded at start through another library"
    status=1
  fi
done
count=$(wc -l <<<"$loaded")
echo "startup libraries: $count loaded at start ($(tr '\n' ' ' <<<"$needed"))"
exit $status

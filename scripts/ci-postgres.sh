#!/usr/bin/env bash
# A throwaway PostgreSQL server for the result-store tests: initdb in a temporary directory,
# listening only on a Unix socket there, trust authentication, one database "sftest".
#
#   eval "$(scripts/ci-postgres.sh start)"   # prints: export SF_TEST_POSTGRES_URL=...
#   scripts/ci-postgres.sh stop
#
# Needs the Debian postgresql package (scripts/install-deps.sh postgresql). initdb refuses to
# run as root, so under root the server runs as the postgres user the package creates.
# SF_PG_DIR and SF_PG_PORT override the directory (/tmp/sf-ci-postgres) and port (55432).
set -euo pipefail
dir=${SF_PG_DIR:-/tmp/sf-ci-postgres}
port=${SF_PG_PORT:-55432}
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[[ -n "$bindir" ]] || { echo "ci-postgres: no PostgreSQL server installed (apt-get install postgresql)" >&2; exit 1; }
as_owner=()
[[ $(id -u) -eq 0 ]] && as_owner=(runuser -u postgres --)

case "${1:-}" in
  start)
    if [[ -f "$dir/data/postmaster.pid" ]]; then "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    mkdir -p "$dir"
    [[ ${#as_owner[@]} -gt 0 ]] && chown postgres:postgres "$dir"
    "${as_owner[@]}" "$bindir/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-k $dir -p $port -c listen_addresses='' -c fsync=off" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    "${as_owner[@]}" "$bindir/createdb" -h "$dir" -p "$port" -U postgres sftest
    echo "export SF_TEST_POSTGRES_URL='postgresql:///sftest?host=$dir&port=$port&user=postgres'"
    ;;
  stop)
    if [[ -d "$dir/data" ]]; then "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac

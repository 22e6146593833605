#!/usr/bin/env bash
# Starts a throwaway PostgreSQL on loopback for the store tests and prints its URL.
# Prints nothing (and exits 1) where no PostgreSQL server is installed; tests then skip with a reason.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/postgres" ] || exit 1
dir=/tmp/galley-test-pg
port=${GALLEY_TEST_PG_PORT:-55432}
if ! "$bin/pg_isready" -h 127.0.0.1 -p "$port" -q 2>/dev/null; then
  rm -rf "$dir"; mkdir -p "$dir"; chown postgres "$dir" 2>/dev/null || true
  as=(); [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
  "${as[@]}" "$bin/initdb" -D "$dir/data" -U galley --auth=trust >/dev/null
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -o "-p $port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off" -l "$dir/log" -w start >/dev/null
fi
echo "postgres://galley@127.0.0.1:$port/postgres"

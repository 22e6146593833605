#!/usr/bin/env bash
# Starts a throwaway S3-compatible server (s3rver, a root devDependency: run `pnpm install` first)
# on loopback for the object-storage tests and prints its URL, credentials included
# (http://S3RVER:S3RVER@127.0.0.1:<port>: s3rver's fixed keys). Tests make their own buckets.
# Prints nothing (and exits 1) where s3rver is not installed; tests then skip with a reason.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=node_modules/.bin/s3rver
[ -x "$bin" ] || exit 1
dir=/tmp/galley-test-s3
port=${GALLEY_TEST_S3_PORT:-54568}
answers() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }
if ! answers; then
  rm -rf "$dir"
  mkdir -p "$dir/data"
  # Its own session, detached from this script's output, so $(...) returns while it runs on.
  setsid "$bin" -d "$dir/data" -a 127.0.0.1 -p "$port" --silent </dev/null >"$dir/log" 2>&1 &
  for _ in $(seq 1 100); do
    answers && break
    sleep 0.1
  done
  answers || { cat "$dir/log" >&2; exit 1; }
fi
echo "http://S3RVER:S3RVER@127.0.0.1:$port"

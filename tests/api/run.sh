#!/usr/bin/env bash
# The curl + jq API suite: starts the real release binary against a fresh SQLite file and
# then a fresh PostgreSQL database, runs every tests/api/*.test.sh file against each, and
# prints "N passed, M failed". Exits non-zero on any failure.
#
# Environment: BIN (default target/release/puzzlepress), TEST_DATABASE_URL (a PostgreSQL
# server URL whose database is replaced by a fresh one; default postgres://postgres@127.0.0.1:5432/test),
# API_TESTS (a glob of the files to run, e.g. `dictionaries`; default all).
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release/puzzlepress}
PG=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
source tests/api/lib.sh

WORK=$(mktemp -d)
PG_DB="pp_api_$$_$RANDOM"
cleanup() {
  stop_server
  psql "$PG" -q -c "DROP DATABASE IF EXISTS $PG_DB" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

if ! psql "$PG" -q -c "CREATE DATABASE $PG_DB" >/dev/null; then
  echo "PostgreSQL is not reachable at $PG: the suite needs it" >&2
  exit 1
fi

for BACKEND in sqlite postgres; do
  case $BACKEND in
    sqlite) URL="sqlite://$WORK/api.db" ;;
    postgres) URL="${PG%/*}/$PG_DB" ;;
  esac
  start_server "$URL" --workers 2
  for t in tests/api/${API_TESTS:-*}.test.sh; do
    # A file that does not parse would stop at its error and count nothing as failed.
    if bash -n "$t"; then source "$t"; else fail "$t does not parse"; fi
  done
  stop_server
done

echo "api: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]

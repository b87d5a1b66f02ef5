#!/usr/bin/env bash
# A bounded schemathesis session against the live release binary: every operation of the
# generated openapi.yaml, with examples, boundary values and random data, checked for server
# errors (the documented 503 aside) and for status codes, content types, bodies and headers
# that the document does not describe. Exits non-zero on any failure.
#
# Usage: BIN=target/release/puzzlepress tests/schemathesis/run.sh [extra schemathesis options]
# The tool is installed (pinned) into a virtualenv under target/ on first use.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

BIN=${BIN:-target/release/puzzlepress}
VERSION=4.32.5
VENV=target/schemathesis-venv
ST="$VENV/bin/schemathesis"
MAX_EXAMPLES=${SCHEMATHESIS_MAX_EXAMPLES:-100}

if ! "$ST" --version 2>/dev/null | grep -q "$VERSION"; then
  echo "schemathesis: installing schemathesis $VERSION into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION"
fi

work=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# A fresh SQLite file; a short shutdown grace so that stopping does not wait on jobs.
RUST_LOG=warn "$BIN" serve --bind 127.0.0.1:0 --database-url "sqlite://$work/schemathesis.db" --workers 2 \
  --shutdown-grace-secs 0 --anonymous-requests-per-minute 1000000 >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
base=
for _ in $(seq 1 300); do
  base=$(sed -n 's/^puzzlepress listening on //p' "$work/server.out" | head -n 1)
  [ -n "$base" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$base" ]; then
  echo "schemathesis: the server did not start" >&2
  cat "$work/server.err" >&2
  exit 1
fi

# Run from under target/, where schemathesis keeps what `st replay` needs (.schemathesis/).
# One worker: with two threads, hypothesis parses lambda sources concurrently and CPython
# 3.11 (before 3.11.8) can fail with "AST constructor recursion depth mismatch", a tool
# error that is no finding about the server.
mkdir -p target/schemathesis
start=$SECONDS
status=0
(cd target/schemathesis && "$root/$ST" --config-file "$root/tests/schemathesis/schemathesis.toml" run "$root/openapi.yaml" \
  --url "$base" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance \
  --max-examples "$MAX_EXAMPLES" \
  --seed 1 \
  --workers 1 \
  --request-timeout 20 \
  --generation-database none \
  --no-color \
  "$@") || status=$?
elapsed=$((SECONDS - start))

if [ "$status" -ne 0 ]; then
  echo "schemathesis: FAILED (exit $status) in ${elapsed}s against $base; server log:" >&2
  tail -n 50 "$work/server.err" >&2
  exit 1
fi
echo "schemathesis: no failures in ${elapsed}s (max ${MAX_EXAMPLES} examples per operation)"

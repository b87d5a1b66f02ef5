#!/usr/bin/env bash
# End-to-end browser tests: starts the real binary on a fresh SQLite file and drives its
# pages in headless Chromium (Debian's /usr/bin/chromium) with playwright-core.
# Screenshots of every page go to target/screenshots/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release/puzzlepress}
if [ ! -x /usr/bin/chromium ]; then
  echo "tests/web: /usr/bin/chromium is missing (scripts/setup-test-env installs it)" >&2
  exit 1
fi
# scripts/test has run npm ci already; run alone, this installs the packages once.
[ -d tests/web/node_modules ] || (cd tests/web && npm ci --no-audit --no-fund --loglevel=error)

WORK=$(mktemp -d)
LOG="$WORK/server.log"
"$BIN" serve --bind 127.0.0.1:0 --database-url "sqlite://$WORK/web.db" --workers 2 --anonymous-requests-per-minute 100000 >"$LOG" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do
  BASE=$(grep -o 'listening on http://[0-9.:]*' "$LOG" | head -n1 | sed 's/listening on //') && [ -n "$BASE" ] && break
  sleep 0.1
done
[ -n "${BASE:-}" ] || { cat "$LOG" >&2; exit 1; }
# A second server whose database has a key: the order page must ask for it.
KEYED_DB="sqlite://$WORK/keyed.db"
KEYED_TOKEN=$("$BIN" keys create --name web-publisher --database-url "$KEYED_DB")
KEYED_LOG="$WORK/keyed.log"
"$BIN" serve --bind 127.0.0.1:0 --database-url "$KEYED_DB" --workers 1 --anonymous-requests-per-minute 100000 >"$KEYED_LOG" 2>&1 &
KEYED_PID=$!
trap 'kill $PID $KEYED_PID 2>/dev/null; wait $PID $KEYED_PID 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do
  KEYED_BASE=$(grep -o 'listening on http://[0-9.:]*' "$KEYED_LOG" | head -n1 | sed 's/listening on //') && [ -n "$KEYED_BASE" ] && break
  sleep 0.1
done
[ -n "${KEYED_BASE:-}" ] || { cat "$KEYED_LOG" >&2; exit 1; }
KEYED_BASE_URL=$KEYED_BASE KEYED_TOKEN=$KEYED_TOKEN BASE_URL=$BASE SCREENSHOT_DIR=target/screenshots node tests/web/web.test.mjs

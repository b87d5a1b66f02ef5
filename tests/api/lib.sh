# Helpers for the curl + jq API suite: start the real binary, send requests, check answers.
# Sourced by run.sh; every check counts one pass or one failure.

PASSED=0
FAILED=0
STATUS=""
BODY_FILE=$(mktemp)
HEADER_FILE=$(mktemp)

pass() { PASSED=$((PASSED + 1)); }
fail() {
  FAILED=$((FAILED + 1))
  echo "FAIL [$BACKEND] $1" >&2
  echo "     status=$STATUS body=$(head -c 600 "$BODY_FILE")" >&2
}

# req METHOD PATH [curl options…] — sets STATUS, BODY_FILE, HEADER_FILE.
req() {
  local method=$1 path=$2
  shift 2
  STATUS=$(curl -sS -o "$BODY_FILE" -D "$HEADER_FILE" -w '%{http_code}' -X "$method" "$@" "$BASE$path") || STATUS=000
}

# post_json PATH JSON [curl options…]
post_json() {
  local path=$1 json=$2
  shift 2
  req POST "$path" -H 'content-type: application/json' --data-binary "$json" "$@"
}

body() { cat "$BODY_FILE"; }
header() { grep -i "^$1:" "$HEADER_FILE" | head -n1 | cut -d' ' -f2- | tr -d '\r'; }

check_status() { # WANT DESCRIPTION
  if [ "$STATUS" = "$1" ]; then pass; else fail "$2: expected status $1"; fi
}

check_jq() { # FILTER DESCRIPTION — FILTER must print true
  if [ "$(jq -r "$1" "$BODY_FILE" 2>/dev/null)" = "true" ]; then pass; else fail "$2: jq '$1' is not true"; fi
}

check_header() { # NAME REGEX DESCRIPTION
  if header "$1" | grep -Eq "$2"; then pass; else fail "$3: header $1 does not match $2 (got '$(header "$1")')"; fi
}

check_cmd() { # COMMAND DESCRIPTION — COMMAND (run by bash) must succeed
  if bash -c "$1" >/dev/null 2>&1; then pass; else fail "$2: $1 failed"; fi
}

# A problem+json error with this status whose detail (or field) matches REGEX.
check_problem() { # STATUS REGEX DESCRIPTION
  check_status "$1" "$3"
  check_header content-type '^application/problem\+json' "$3 (content type)"
  check_jq "(.status == $1) and (.type | type == \"string\") and (.title | type == \"string\") and ((.detail + \" \" + (.field // \"\")) | test(\"$2\"; \"i\"))" "$3 (problem body)"
}

# wait_job PATH [SECONDS] — polls a job until it ends; leaves its JSON in BODY_FILE.
wait_job() {
  local path=$1 limit=${2:-120} waited=0
  while :; do
    req GET "$path"
    if [ "$STATUS" != 200 ]; then return 1; fi
    case "$(jq -r .state "$BODY_FILE")" in succeeded | failed | cancelled) return 0 ;; esac
    sleep 0.1
    waited=$((waited + 1))
    [ $waited -lt $((limit * 10)) ] || return 1
  done
}

# start_server DATABASE_URL [extra args…] — starts the binary on a free port, sets BASE, SERVER_PID.
start_server() {
  local url=$1
  shift
  SERVER_LOG=$(mktemp)
  # The suite makes many anonymous requests quickly; the rate limit has its own test.
  # A server printing books is told its public address (tests/books.rs tries one that is not).
  DATABASE_URL=$url PUZZLEPRESS_BIND=127.0.0.1:0 PUZZLEPRESS_LOOKUP_URL=${PUZZLEPRESS_LOOKUP_URL:-https://books.example/} \
    PUZZLEPRESS_ANONYMOUS_REQUESTS_PER_MINUTE=${PUZZLEPRESS_ANONYMOUS_REQUESTS_PER_MINUTE:-1000000} \
    "$BIN" serve "$@" >"$SERVER_LOG" 2>&1 &
  SERVER_PID=$!
  local i
  for i in $(seq 1 300); do
    BASE=$(grep -o 'listening on http://[0-9.:]*' "$SERVER_LOG" | head -n1 | sed 's/listening on //')
    [ -n "$BASE" ] && return 0
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then break; fi
    sleep 0.1
  done
  echo "server did not start:" >&2
  cat "$SERVER_LOG" >&2
  exit 1
}

stop_server() {
  if [ -n "${SERVER_PID:-}" ]; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
  fi
}

# A cover with artwork at COVER (a path): the front shows the book (its text matches
# NEEDLE, an extended regex), a palette is chosen by name, an unknown one is refused by
# name, and the cover reads in greyscale (its front's text keeps its contrast: rendered
# grey, the title's glyphs are far from the background).
check_cover_art() { # COVER NEEDLE DESCRIPTION
  local cover=$1 needle=$2 what=$3 dir
  dir=$(mktemp -d)
  req GET "$cover"
  check_status 200 "$what: the cover"
  cp "$BODY_FILE" "$dir/default.pdf"
  check_cmd "pdftotext -layout $dir/default.pdf - | grep -Eq '$needle'" "$what: the front shows the book's own content"
  req GET "$cover?palette=forest"
  check_status 200 "$what: the forest palette"
  cp "$BODY_FILE" "$dir/forest.pdf"
  check_cmd "! cmp -s $dir/default.pdf $dir/forest.pdf" "$what: another palette, other colours"
  req GET "$cover?palette=pink"
  check_problem 422 'palette must be one of fox, forest, ocean, plum, sand' "$what: an unknown palette"
  check_jq '.field == "palette"' "$what: the field is palette"
  for pdf in default forest; do
    pdftoppm -r 40 -gray "$dir/$pdf.pdf" "$dir/$pdf"
    check_cmd "python3 tests/api/pixels.py contrast $dir/$pdf-1.pgm" "$what ($pdf): the front's title reads in greyscale"
  done
  # The front's preview for web pages: the same marks as SVG, in the palette asked for.
  req GET "${cover%.pdf}.svg?palette=forest"
  check_status 200 "$what: the front's preview"
  check_header content-type '^image/svg\+xml' "$what: the preview is SVG"
  check_cmd "head -c 60 $BODY_FILE | grep -q '^<svg xmlns=\"http://www.w3.org/2000/svg\"' && grep -q 'fill=\"#215238\"' $BODY_FILE" "$what: an SVG on the forest palette's green"
  rm -rf "$dir"
}

# Every page of the PDF at FILE renders without colour (pdftoppm, then each pixel's red,
# green and blue compared): an interior prints on a black-and-white press as it looks.
check_greyscale() { # FILE DESCRIPTION
  local dir
  dir=$(mktemp -d)
  pdftoppm -r 24 "$1" "$dir/page"
  check_cmd "python3 tests/api/pixels.py greyscale $dir/page-*.ppm" "$2: every page renders without colour"
  rm -rf "$dir"
}

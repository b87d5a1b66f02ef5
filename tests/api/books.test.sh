# Find the Fox books. Sourced by run.sh with BASE, URL and BACKEND set.

# jq: the segments of a page (rows of letters) reading FOX or XOF, as [[r,c],[r,c],[r,c]] (1-based).
FOXES='def foxes: map(split("")) as $g | ($g | length) as $R | ($g[0] | length) as $C
  | [range(0; $R) as $r | range(0; $C) as $c | ([0,1], [1,0], [1,1], [1,-1]) as [$dr, $dc]
     | select($r + 2*$dr < $R and $c + 2*$dc >= 0 and $c + 2*$dc < $C)
     | [[$r, $c], [$r+$dr, $c+$dc], [$r+2*$dr, $c+2*$dc]]
     | select((map($g[.[0]][.[1]]) | join("")) as $w | $w == "FOX" or $w == "XOF")
     | map(map(. + 1))];'

# Every page of a printed book: exactly one FOX in the book, where the answer says.
check_book() { # SERIAL PAGES ROWS COLS
  local serial=$1 pages=$2 rows=$3 cols=$4 total=0 n found where
  req GET "/books/$serial/answer"
  check_status 200 "answer of $serial"
  cp "$BODY_FILE" "$WORK/answer.json"
  for n in $(seq 1 "$pages"); do
    req GET "/books/$serial/pages/$n"
    found=$(jq "$FOXES"' .rows | foxes | length' "$BODY_FILE")
    if [ "$(jq "(.rows | length) == $rows and (.rows | all(length == $cols and test(\"^[FOX]+$\")))" "$BODY_FILE")" != true ]; then
      fail "page $n of $serial has the wrong shape"
    fi
    if [ "$found" != 0 ]; then
      where=$(jq -c "$FOXES"' .rows | foxes | .[0]' "$BODY_FILE")
      if [ "$(jq --argjson w "$where" --argjson n "$n" '.page == $n and (.cells == $w or .cells == ($w | reverse))' "$WORK/answer.json")" = true ]; then pass; else fail "the FOX on page $n of $serial is where the answer says"; fi
    fi
    total=$((total + found))
  done
  if [ "$total" = 1 ]; then pass; else fail "book $serial holds FOX exactly once (found $total)"; fi
  # The answer names F's row and column, and the cells read F, O, X in order.
  req GET "/books/$serial/pages/$(jq .page "$WORK/answer.json")"
  if [ "$(jq --slurpfile a "$WORK/answer.json" '$a[0] as $a | (.rows | map(split(""))) as $g | ($a.cells | map($g[.[0]-1][.[1]-1]) | join("")) == "FOX" and $a.cells[0] == [$a.row, $a.col]' "$BODY_FILE")" = true ]; then pass; else fail "answer cells of $serial read F, O, X"; fi
}

# Order and follow a small book.
post_json /books '{"pages": 3, "rows": 8, "cols": 9}'
check_status 202 "order a 3-page book"
serial=$(jq -r .serial "$BODY_FILE")
check_header location "^/books/$serial\$" "Location of the book"
check_jq '(.state | IN("queued", "running", "succeeded")) and (.serial | test("^[0-9A-HJKMNP-TV-Z]{11}$")) and (.job | startswith("/jobs/"))' "order response"
job=$(jq -r .job "$BODY_FILE")
wait_job "$job"
check_jq '.state == "succeeded" and .result.serial == "'"$serial"'"' "book job succeeds"
req GET "/books/$serial"
check_jq '.state == "succeeded" and .pages == 3 and .rows == 8 and .cols == 9 and .progress.done == .progress.total and (.content_hash | length) == 64 and .finished_at != null' "book status when printed"
check_book "$serial" 3 8 9

# Look-ups ignore case, spaces and hyphens.
lower=$(echo "${serial:0:4}-${serial:4:4} ${serial:8}" | tr 'A-Z' 'a-z' | sed 's/ /%20/')
req GET "/books/$lower"
check_jq ".serial == \"$serial\"" "serial typed in lower case with hyphens and spaces"
req GET "/books/$serial/pages/2" -H 'accept: text/plain'
check_header content-type '^text/plain' "page as text"
if [ "$(wc -l <"$BODY_FILE")" = 8 ] && grep -Eq '^[FOX]{9}$' "$BODY_FILE"; then pass; else fail "page as text has 8 lines of 9 letters"; fi

# Serial and page errors.
swapped="${serial:1:1}${serial:0:1}${serial:2}"
if [ "$swapped" != "$serial" ]; then
  req GET "/books/$swapped"
  check_problem 400 "mistyped" "swapped symbols are caught by the check"
fi
req GET "/books/ABC"
check_problem 400 "not a serial" "malformed serial"
# A huge serial is not repeated back in full; a URL over 8 KiB is refused as such.
req GET "/books/$(head -c 7000 /dev/zero | tr '\0' 'A')"
check_problem 400 "7000 characters" "a 7 KB serial is refused"
check_jq '(.detail | length) < 400' "the answer repeats at most 200 characters of it"
req GET "/books/$(head -c 16000 /dev/zero | tr '\0' 'A')"
check_problem 414 "at most 8192" "a 16 KB URL is 414, as problem+json"
req GET /books/00000000000
check_problem 404 "no book" "well-formed unknown serial"
req GET "/books/$serial/pages/4"
check_problem 404 "pages are 1 to 3" "page past the end"
req GET "/books/$serial/pages/0"
check_problem 404 "not in this book" "page 0"
post_json /books '{"pages": 1001}'
check_problem 422 "pages" "too many pages"
check_jq '.field == "pages"' "names pages"
post_json /books '{"rows": 2}'
check_problem 422 "rows" "too few rows"
post_json /books '{"cols": "wide"}'
check_problem 422 "cols" "cols of the wrong type"
post_json /books '{"pagez": 3}'
check_problem 422 "pagez" "unknown field"

# Idempotency: a retried order returns the same serial.
post_json /books '{"pages": 2, "rows": 5, "cols": 5}' -H "Idempotency-Key: book-$BACKEND-1"
first=$(jq -r .serial "$BODY_FILE")
post_json /books '{"pages": 2, "rows": 5, "cols": 5}' -H "Idempotency-Key: book-$BACKEND-1"
check_jq ".serial == \"$first\"" "same Idempotency-Key, same serial"
post_json /books '{"pages": 3, "rows": 5, "cols": 5}' -H "Idempotency-Key: book-$BACKEND-1"
check_problem 422 "Idempotency-Key" "same key, other book"

# A default book: 200 pages of 32 x 20, and its PDFs.
req POST /books
check_status 202 "order a default book without a body"
serial=$(jq -r .serial "$BODY_FILE")
wait_job "$(jq -r .job "$BODY_FILE")"
check_book "$serial" 200 32 20
req GET "/books/$serial/book.pdf"
check_status 200 "book.pdf"
check_header content-type '^application/pdf' "book.pdf type"
if head -c 5 "$BODY_FILE" | grep -q '%PDF-' && pdfinfo "$BODY_FILE" | grep -q '^Pages: *204$'; then pass; else fail "book.pdf is a 204-page PDF (title page, its back, how to play and its back, 200 puzzles)"; fi
if [ "$(stat -c %s "$BODY_FILE")" -lt 1000000 ]; then pass; else fail "book.pdf is under 1 MB"; fi
cp "$BODY_FILE" "$WORK/default-book.pdf"
check_greyscale "$WORK/default-book.pdf" "a 204-page Find the Fox interior"
# The check sees colour where there is some: the answer key's FOX is dark red.
curl -s "$BASE/books/$serial/answer.pdf" -o "$WORK/default-answer.pdf"
check_cmd "mkdir -p $WORK/answer-ppm && pdftoppm -r 24 $WORK/default-answer.pdf $WORK/answer-ppm/page && ! python3 tests/api/pixels.py greyscale $WORK/answer-ppm/page-*.ppm" "the greyscale check finds the answer key's red"
check_cover_art "/books/$serial/cover.pdf" '^ *([FOX] +){8,}[FOX] *$' "a Find the Fox book's cover (a window onto its letters)"
printed=$(jq .printed_page "$WORK/answer.json")
puzzle=$(jq .page "$WORK/answer.json")
check_cmd "[ $printed = \$(($puzzle + 4)) ] && pdftotext -f $printed -l $printed $WORK/default-book.pdf - | grep -qx 'Puzzle $puzzle' && pdftotext -f $printed -l $printed $WORK/default-book.pdf - | grep -qx $printed" "the answer's printed page is headed with its puzzle's number and footed with its own"
check_cmd "pdftotext -f 3 -l 3 $WORK/default-book.pdf - | grep -q '^How to play' && pdftotext -f 1 -l 1 $WORK/default-book.pdf - | grep -q '200 pages of 32 x 20 letters'" "the book frame: how to play on page 3, the title page says what the pages are"
req GET "/books/$serial/answer.pdf"
if head -c 5 "$BODY_FILE" | grep -q '%PDF-' && grep -aq '/Count 1$' "$BODY_FILE"; then pass; else fail "answer.pdf is a 1-page PDF"; fi

# Before it is printed a book answers 409 with Retry-After: an API-only process queues it.
stop_server
start_server "$URL" --workers 0
post_json /books '{"pages": 1, "rows": 3, "cols": 3}'
pending=$(jq -r .serial "$BODY_FILE")
for path in pages/1 answer book.pdf answer.pdf; do
  req GET "/books/$pending/$path"
  check_problem 409 "still printing" "$path before printing"
  check_header retry-after '^[0-9]+$' "$path before printing says when to retry"
done
stop_server
start_server "$URL" --workers 2
req GET "/books/$pending"
wait_job "$(jq -r .job "$BODY_FILE")"
check_book "$pending" 1 3 3

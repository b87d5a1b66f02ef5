# Listings and owners' deletes: GET /jobs, /printruns, /oneup/books, /crosswords/fills and
# /books (paging, filters, each publisher's own); products (books, print runs, One Up books,
# fills and their exports) kept past the retention time while scratch jobs are swept;
# DELETE by the owner only. Runs on a database of its own, as it creates keys (which close
# the service for good) and sweeps with a short retention time; then gives the suite's
# server back. Sourced by run.sh with BASE, URL, WORK, PG and BACKEND set.

stop_server
case $BACKEND in
  sqlite) LISTINGS_URL="sqlite://$WORK/listings.db" ;;
  postgres) LISTINGS_URL="${PG%/*}/${PG_DB}_listings" ;; # created by the server
esac
# Finished scratch jobs are swept 1.7 s after they end; the sweep runs at start.
RETAIN=(--retention-days 0.00002)
start_server "$LISTINGS_URL" --workers 2 "${RETAIN[@]}"
key() { "$BIN" keys create --name "$1" --role "$2" --database-url "$LISTINGS_URL" 2>/dev/null; }
TA=$(key pub-a publisher)
TB=$(key pub-b publisher)
TADMIN=$(key ops admin)
A=(-H "Authorization: Bearer $TA")
B=(-H "Authorization: Bearer $TB")
ADMIN=(-H "Authorization: Bearer $TADMIN")
sleep 1.2 # the service is closed within a second of the first key

# wait_as TOKEN-ARRAY-NAME PATH — wait_job for a caller with a key.
wait_as() {
  local -n auth=$1
  local path=$2 waited=0
  while :; do
    req GET "$path" "${auth[@]}"
    [ "$STATUS" = 200 ] || return 1
    case "$(jq -r .state "$BODY_FILE")" in succeeded | failed | cancelled) return 0 ;; esac
    sleep 0.1
    waited=$((waited + 1))
    [ $waited -lt 1200 ] || return 1
  done
}

MINI='{"pattern": ["CAT#...", ".......", ".......", ".......", "...#..."], "title": "Mini"}'
post_json /crosswords/fills "$MINI" "${A[@]}"
fill1=$(header location)
post_json /crosswords/fills "$MINI" "${A[@]}"
fill2=$(header location)
post_json /oneup/books '{"count": 2, "size": 4, "levels": {"easy": 2}, "seed": 1}' "${A[@]}"
oneup=$(header location)
post_json /books '{"pages": 1, "rows": 3, "cols": 3}' "${A[@]}"
serial=$(jq -r .serial "$BODY_FILE")
post_json /printruns '{"copies": 2, "pages": 1, "rows": 3, "cols": 3}' "${A[@]}"
run=$(header location)
post_json /foxhole/strategies '{"holes": 5}' "${A[@]}"
scratch=$(header location)
for path in "$fill1" "$fill2" "$oneup" "/books/$serial" "$scratch"; do
  wait_as A "$path" || fail "$path ends"
done
for _ in $(seq 1 600); do
  req GET "$run" "${A[@]}"
  [ "$(jq -r .state "$BODY_FILE")" = succeeded ] && break
  sleep 0.1
done
check_jq '.state == "succeeded" and .done == 2' "the print run is printed"
copy=$(jq -r '.books[0].serial' "$BODY_FILE")

# Past the retention time, a restarted server sweeps: the scratch job goes, the products stay.
sleep 2
stop_server
start_server "$LISTINGS_URL" --workers 0 "${RETAIN[@]}"
for _ in $(seq 1 100); do
  req GET "$scratch" "${A[@]}"
  [ "$STATUS" = 404 ] && break
  sleep 0.1
done
check_problem 404 "no fox-in-a-hole strategy" "a finished scratch job is swept after the retention time"
for path in "$fill1" "$fill1/puzzle.puz" "$fill1/puzzle.ipuz" "$fill1/grid.pdf" "$fill1/solution.pdf" \
  "$oneup" "$oneup/book.pdf" "/books/$serial" "/books/$serial/book.pdf" "$run" "$run/manifest.csv"; do
  req GET "$path" "${A[@]}"
  check_status 200 "$path is kept past the retention time"
done

# Listings: the caller's own, newest first, a page at a time.
req GET /crosswords/fills "${A[@]}"
check_status 200 "list fills"
check_jq "[.fills[].links.self] == [\"$fill2\", \"$fill1\"] and .next == null and .next_cursor == null" "the fills, newest first"
check_jq "all(.fills[]; .kind == \"crosswords.fills\" and .state == \"succeeded\") and .fills[0].links.puz == \"$fill2/puzzle.puz\"" "each fill's state and links"
req GET '/crosswords/fills?limit=1' "${A[@]}"
check_jq "[.fills[].links.self] == [\"$fill2\"] and (.next | test(\"^/crosswords/fills[?]limit=1&cursor=[0-9]+$\"))" "one fill a page, and the next"
req GET "$(jq -r .next "$BODY_FILE")" "${A[@]}"
check_jq "[.fills[].links.self] == [\"$fill1\"] and .next == null" "the next page holds the other fill, and is the last"
req GET /oneup/books "${A[@]}"
check_jq "[.books[].links.self] == [\"$oneup\"] and .books[0].links.book_pdf == \"$oneup/book.pdf\"" "list One Up books"
req GET /printruns "${A[@]}"
check_jq "[.printruns[].links.self] == [\"$run\"] and .printruns[0].copies == 2 and .printruns[0].state == \"succeeded\"" "list print runs"
req GET /books "${A[@]}"
check_jq "[.books[].serial] | index(\"$serial\") != null and index(\"$copy\") != null" "list books, a run's copies among them"
req GET '/jobs?limit=100' "${A[@]}"
check_status 200 "list jobs"
check_jq "[.jobs[].links.resource] | index(\"$fill1\") != null and index(\"$oneup\") != null and index(\"/books/$serial\") != null and index(\"$scratch\") == null" "every kind of the caller's jobs, each linking its resource; the swept one gone"
check_jq "all(.jobs[]; .links.self == \"/jobs/\" + .id)" "each links itself"
check_jq '[.jobs[].kind] | sort | unique == ["books", "crosswords.fills", "oneup.books"]' "the kinds listed"
req GET '/jobs?kind=oneup.books' "${A[@]}"
check_jq "[.jobs[].links.resource] == [\"$oneup\"]" "filter by kind"
req GET '/jobs?kind=books&state=succeeded&limit=2' "${A[@]}"
check_jq '(.jobs | length) == 2 and all(.jobs[]; .kind == "books" and .state == "succeeded") and (.next | test("kind=books") and test("state=succeeded") and test("limit=2"))' "filter by kind and state; next keeps the filters"
req GET "$(jq -r .next "$BODY_FILE")" "${A[@]}"
check_jq '(.jobs | length) == 1 and .next == null' "the last page of books"
req GET '/jobs?state=queued' "${A[@]}"
check_jq '.jobs == []' "filter by state"
req GET '/jobs?kind=fills' "${A[@]}"
check_problem 422 "kind.*crosswords.fills" "an unknown kind names the kinds"
check_jq '.field == "kind"' "and the field"
req GET '/jobs?state=done' "${A[@]}"
check_problem 422 "state.*succeeded" "an unknown state names the states"
check_jq '.field == "state"' "and the field"
for query in 'limit=0' 'limit=101' 'cursor=x'; do
  req GET "/printruns?$query" "${A[@]}"
  check_problem 422 "${query%%=*}" "/printruns?$query"
  check_jq ".field == \"${query%%=*}\"" "/printruns?$query names its field"
done
req GET '/crosswords/fills?state=succeeded' "${A[@]}"
check_problem 422 "unknown parameter" "a listing refuses a parameter it does not take"

# Another publisher sees none of it and cannot delete it; an admin sees everything.
for list in /jobs /crosswords/fills /oneup/books /printruns /books; do
  req GET "$list" "${B[@]}"
  check_jq '[.[] | arrays] == [[]]' "$list: another publisher's listing is empty"
  req GET "$list"
  check_status 401 "$list needs a key"
done
for path in "$fill1" "$oneup" "/books/$serial" "$run"; do
  req DELETE "$path" "${B[@]}"
  check_problem 404 "there is no" "another publisher cannot delete $path"
  req DELETE "$path"
  check_problem 404 "there is no" "a caller without a key cannot delete $path"
done
req GET '/jobs?limit=100' "${ADMIN[@]}"
check_jq "[.jobs[].links.resource] | index(\"$fill1\") != null" "an admin lists everyone's jobs"

# A copy goes with its run; a product still queued is cancelled first.
req DELETE "/books/$copy" "${A[@]}"
check_problem 409 "copy of print run.*deleted with its run" "a copy alone cannot be deleted"
post_json /crosswords/fills "$MINI" "${A[@]}"
queued=$(header location)
req DELETE "$queued" "${A[@]}"
check_problem 409 "queued; cancel it first" "a queued fill is cancelled first"
req DELETE "/jobs/${queued##*/}" "${A[@]}"
check_status 200 "cancel it"
req DELETE "$queued" "${A[@]}"
check_status 204 "then delete it"
post_json /printruns '{"copies": 1, "pages": 1, "rows": 3, "cols": 3}' "${A[@]}"
req DELETE "$(header location)" "${A[@]}"
check_problem 409 "is printing" "a run still printing is not deleted"

# The owner deletes: 204, then 404 everywhere.
for path in "$fill1" "$oneup" "/books/$serial" "$run"; do
  req DELETE "$path" "${A[@]}"
  check_status 204 "the owner deletes $path"
done
for path in "$fill1" "$fill1/puzzle.puz" "$fill1/grid.pdf" "$oneup" "$oneup/book.pdf" "/books/$serial" \
  "/books/$serial/answer" "$run" "$run/manifest.csv" "/books/$copy"; do
  req GET "$path" "${A[@]}"
  check_status 404 "$path is gone"
done
req DELETE "$fill1" "${A[@]}"
check_status 404 "deleted once"
req GET /crosswords/fills "${A[@]}"
check_jq "[.fills[].links.self] == [\"$fill2\"]" "the deleted fill is no longer listed"
req GET "$fill2/puzzle.puz" "${A[@]}"
check_status 200 "the other fill is left alone"

stop_server
[ "$BACKEND" = postgres ] && psql "$PG" -q -c "DROP DATABASE IF EXISTS ${PG_DB}_listings" >/dev/null
start_server "$URL" --workers 2

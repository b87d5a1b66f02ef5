# American-rules patterns: every rule checked by tests/api/american_patterns.py (an
# independent checker reading only the rows), fillable patterns' fills against the bundled
# list and the block list, theme entries placed symmetrically, refusals naming the field.

am_dir=$(mktemp -d)
am_check() { # REQUEST DESCRIPTION [SECONDS] — posts REQUEST, waits, checks every pattern
  echo "$1" >"$am_dir/request.json"
  post_json /crosswords/patterns "$1"
  check_status 202 "$2 (queued)"
  if ! wait_job "$(header location)" "${3:-60}"; then
    fail "$2: the job did not end"
    return
  fi
  cp "$BODY_FILE" "$am_dir/job.json"
  check_jq '.state == "succeeded"' "$2 (succeeded)"
  local out
  if out=$(python3 tests/api/american_patterns.py "$am_dir/request.json" "$am_dir/job.json" data/words.txt.gz \
    data/blocklist.txt 2>&1); then pass; else fail "$2: $out"; fi
}

am_check '{"rules": "american", "size": 15, "count": 3, "seed": 1}' "three 15x15 rotational patterns"
check_jq '([.result.patterns[] | (.hex | type) == "string" and .black <= 36 and .words <= 78] | all) and (.result.patterns | length) == 3' "15x15 patterns have hex, at most 36 blacks and 78 entries"
am_check '{"rules": "american", "rows": 11, "cols": 17, "symmetry": "mirror", "count": 2, "seed": 2}' "11x17 mirror patterns"
check_jq '[.result.patterns[] | has("hex") | not] | all' "a rectangular pattern has no hex"
am_check '{"rules": "american", "rows": 9, "cols": 12, "symmetry": "none", "count": 2, "seed": 3, "max_black_share": 0.2, "max_words": 40}' "9x12 patterns without symmetry, max_black_share and max_words"
am_check '{"rules": "american", "size": 21, "count": 1, "seed": 4}' "a 21x21 pattern"
am_check '{"rules": "american", "size": 15, "count": 2, "seed": 5, "theme": ["puzzle press", "Printed Book"]}' "theme entries in a symmetric pair"
check_jq '[.result.patterns[] | [.rows[] | test("PUZZLEPRESS")] | any] | all' "the theme letters are in the rows"
am_check '{"rules": "american", "size": 15, "count": 1, "seed": 1, "min_words": 72, "fillable": true}' "a fillable 15x15 with its fill" 120
am_check '{"rules": "american", "rows": 5, "cols": 6, "count": 2, "seed": 1, "fillable": true, "min_score": 60}' "fillable 5x6 patterns from the commoner words" 120

# The seed rules are unchanged and stay the default.
post_json /crosswords/patterns '{"size": 7, "count": 1, "seed": 1}'
wait_job "$(header location)"
check_jq '.request.rules == null and (.result.patterns[0].hex | type) == "string"' "the seed rules stay the default"

am_refused() { # REQUEST FIELD DESCRIPTION
  post_json /crosswords/patterns "$1"
  check_problem 422 "$2" "$3"
  check_jq ".field == \"$2\"" "$3 (names $2)"
}
am_refused '{"rules": "british", "size": 15}' rules "unknown rules"
am_refused '{"rules": "american", "size": 15, "symmetry": "diagonal"}' symmetry "unknown symmetry"
am_refused '{"size": 15, "symmetry": "none"}' symmetry "no symmetry is for American rules only"
am_refused '{"rules": "american", "size": 15, "max_black_share": 1.5}' max_black_share "a black share above 1"
am_refused '{"rules": "american", "size": 15, "max_words": -1}' max_words "a negative max_words"
am_refused '{"rules": "american", "size": 15, "min_words": 80, "max_words": 70}' min_words "min_words above max_words"
am_refused '{"rules": "american", "rows": 32, "cols": 15}' rows "more than 31 rows"
am_refused '{"rules": "american", "rows": 15}' cols "rows without cols"
am_refused '{"rules": "american", "size": 15, "count": 100001}' count "count above the server's maximum"
am_refused '{"rules": "american", "size": 15, "max_nodes": 1000000000000}' max_nodes "max_nodes above the server's maximum"
am_refused '{"rules": "american", "size": 15, "fillable": true, "fill_max_nodes": 1000000000000}' fill_max_nodes "fill_max_nodes above the server's maximum"
am_refused '{"rules": "american", "size": 15, "words": ["CAT"]}' words "words without fillable"
am_refused '{"size": 15, "fillable": true}' fillable "fillable with the seed rules"
am_refused '{"rules": "american", "size": 15, "theme": ["CROSSWORDSET"]}' theme "a theme entry without a partner (and not centred)"
am_refused '{"rules": "american", "size": 15, "count": "all"}' count "count all is for the seed rules"
am_refused '{"rules": "american", "size": 15, "max_black": 1.5}' max_black_share "max_black (read as max_black_share) above 1"
post_json /crosswords/patterns '{"rules": "american", "size": 9, "count": 1, "seed": 1, "max_black": 0.2}'
check_status 202 "max_black is accepted"
check_jq '.request.max_black_share == 0.2' "as max_black_share"
rm -rf "$am_dir"

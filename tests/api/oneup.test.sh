# One Up: solve the 7 July 2024 puzzle exactly and by Metropolis, generate, and precise errors.

EXAMPLE=data/oneup-2024-07-07.txt
SOLUTION='["43122314","35241123","14153267","21531246","42615378","12362451","31224135","23416512"]'

req POST /oneup/solves -H 'content-type: text/plain' --data-binary "@$EXAMPLE"
check_status 202 "solve the example"
check_header location '^/oneup/solves/' "solve Location"
solve=$(header location)
wait_job "$(jq -r .links.self "$BODY_FILE")"
req GET "$solve"
check_jq ".state == \"succeeded\" and .request.method == \"exact\" and .result.solution == $SOLUTION and .result.unique == true and .result.stats.nodes >= 1" "exact solution of the example, unique"

req POST '/oneup/solves?method=metropolis&seed=7' -H 'content-type: text/plain' --data-binary "@$EXAMPLE"
solve=$(header location)
wait_job "$(jq -r .links.self "$BODY_FILE")"
req GET "$solve"
check_jq ".request.method == \"metropolis\" and .result.solution == $SOLUTION and .result.stats.final_energy == 0 and .result.stats.seed == 7 and .result.unique == null" "Metropolis reaches energy 0 on the example"

# The JSON form, and a puzzle with two solutions (no clues at all).
post_json /oneup/solves '{"row_regions": ["1111","1111","1111","1111"], "col_regions": ["1111","1111","1111","1111"], "clues": []}'
solve=$(header location)
wait_job "$(jq -r .links.self "$BODY_FILE")"
req GET "$solve"
check_jq '.result.solution != null and .result.unique == false' "an empty 4x4 has more than one solution"
# An impossible one: two 1s forced into one row region of size 4.
post_json /oneup/solves '{"row_regions": ["1111","1111","1111","1111"], "col_regions": ["1111","1111","1111","1111"], "clues": [{"row":1,"col":1,"digit":1},{"row":1,"col":2,"digit":1}]}'
solve=$(header location)
wait_job "$(jq -r .links.self "$BODY_FILE")"
req GET "$solve"
check_jq '.state == "succeeded" and .result.solution == null and (.result.reason | length > 0)' "an impossible puzzle has no solution and a reason"

# Errors name the line or field.
sed '2s/.*/1111122/' "$EXAMPLE" >"$WORK/short-line.txt"
req POST /oneup/solves -H 'content-type: text/plain' --data-binary "@$WORK/short-line.txt"
check_problem 422 "line 2" "a short label line"
check_jq '.line == 2' "names line 2"
sed '19s/^9 /10 /' "$EXAMPLE" >"$WORK/count.txt"
req POST /oneup/solves -H 'content-type: text/plain' --data-binary "@$WORK/count.txt"
check_problem 422 "line" "clue count does not match"
sed '21s/.*/9 2 5/' "$EXAMPLE" >"$WORK/outside.txt"
req POST /oneup/solves -H 'content-type: text/plain' --data-binary "@$WORK/outside.txt"
check_problem 422 "line 21" "clue outside the grid"
post_json /oneup/solves '{"row_regions": ["1111"], "col_regions": [], "clues": []}'
check_problem 422 "regions" "JSON grid not N x N"
post_json /oneup/solves '{"row_regions": ["1111"'
check_problem 400 "JSON" "malformed JSON puzzle"
req POST /oneup/solves -H 'content-type: image/png' --data-binary "@$EXAMPLE"
check_problem 415 "text/plain" "unsupported media type"
req POST '/oneup/solves?method=annealing' -H 'content-type: text/plain' --data-binary "@$EXAMPLE"
check_problem 422 "method" "unknown method"
req POST '/oneup/solves?method=metropolis&temperature=-1' -H 'content-type: text/plain' --data-binary "@$EXAMPLE"
check_problem 422 "temperature" "negative temperature"
req GET /oneup/solves/00000000-0000-0000-0000-000000000000
check_problem 404 "no One Up solve" "unknown solve"

# Generation: a unique puzzle; the same seed gives the same puzzle.
post_json /oneup/puzzles '{"size": 6, "seed": 42}'
check_status 202 "generate a puzzle"
puzzle=$(header location)
wait_job "$(jq -r .links.self "$BODY_FILE")"
req GET "$puzzle"
check_jq '.state == "succeeded" and .request.seed == 42 and .result.seed == 42 and (.result.puzzle.text | length > 0) and (.result.puzzle.json.row_regions | length) == 6 and (.result.solution | length) == 6 and (.result.difficulty.clues > 0)' "generated puzzle"
check_jq '.links.puzzle_pdf == "'"$puzzle"'/puzzle.pdf" and .links.solution_pdf == "'"$puzzle"'/solution.pdf" and .links.self == "'"$puzzle"'"' "the puzzle links itself and its PDFs"
cp "$BODY_FILE" "$WORK/generated.json"
jq -r .result.puzzle.text "$WORK/generated.json" >"$WORK/generated.txt"
req POST /oneup/solves -H 'content-type: text/plain' --data-binary "@$WORK/generated.txt"
solve=$(header location)
wait_job "$(jq -r .links.self "$BODY_FILE")"
req GET "$solve"
check_jq ".result.unique == true and .result.solution == $(jq -c .result.solution "$WORK/generated.json")" "the generated puzzle has exactly its one solution"
post_json /oneup/puzzles '{"size": 6, "seed": 42}'
again=$(header location)
wait_job "$(jq -r .links.self "$BODY_FILE")"
req GET "$again"
if [ "$(jq -c .result.puzzle "$BODY_FILE")" = "$(jq -c .result.puzzle "$WORK/generated.json")" ]; then pass; else fail "same seed, same puzzle"; fi
post_json /oneup/puzzles '{"size": 10}'
check_problem 422 "size" "size out of range"

# Printable puzzle and solution.
for doc in puzzle solution; do
  req GET "$puzzle/$doc.pdf"
  check_status 200 "$doc.pdf"
  check_header content-type '^application/pdf' "$doc.pdf type"
  if head -c 5 "$BODY_FILE" | grep -q '%PDF-' && grep -aq '/Count 1$' "$BODY_FILE"; then pass; else fail "$doc.pdf is a one-page PDF"; fi
done
# Rendered once a puzzle and trim: downloads again are the render cache's (the server's
# count of PDFs rendered for downloads moves once for a new trim, not for repeats).
renders() { curl -s "$BASE/metrics" | awk '$1 == "puzzlepress_renders_total" {print $2}'; }
RENDERS=$(renders)
for _ in 1 2 3 4 5; do curl -s "$BASE$puzzle/puzzle.pdf" -o "$WORK/again.pdf"; done
for _ in 1 2 3; do curl -s "$BASE$puzzle/puzzle.pdf?trim=6x9" -o "$WORK/again.pdf"; done
check_cmd "[ -n '$RENDERS' ] && [ '$(renders)' = $((RENDERS + 1)) ]" \
  "5 downloads of a rendered puzzle and 3 at another trim are one render (renders $RENDERS, then $(renders))"
req GET /oneup/puzzles/00000000-0000-0000-0000-000000000000/puzzle.pdf
check_problem 404 "no One Up puzzle" "PDF of an unknown puzzle"

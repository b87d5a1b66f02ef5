# One Up at a chosen level, and hints. Sourced by run.sh with BASE, URL and BACKEND set.

# Each level, with rotational clue symmetry: the level asked for, the techniques it names,
# one solution (checked by an exact solve), clues in mirror pairs through the centre.
for level in easy medium hard expert; do
  post_json /oneup/puzzles "{\"size\": 8, \"seed\": 11, \"level\": \"$level\", \"clue_symmetry\": \"rotational\"}"
  check_status 202 "generate a $level puzzle"
  at=$(header location)
  wait_job "$at" 60
  check_jq ".state == \"succeeded\" and .result.difficulty.level == \"$level\" and .result.difficulty.steps > 0 and (.result.difficulty.techniques | length) > 0" "a $level puzzle, with its techniques and steps"
  check_jq '[.result.puzzle.json.clues[] | [.row, .col]] as $c | all($c[]; [9 - .[0], 9 - .[1]] as $m | $c | index([$m]) != null)' "$level: every clue has its mirror image"
  case $level in
    easy) check_jq '.result.difficulty.techniques - ["hidden-single", "naked-single"] == []' "easy: singles only" ;;
    medium) check_jq '.result.difficulty.techniques | index("subset") != null and index("region-wing") == null and index("trial") == null' "medium: pairs or triples, nothing harder" ;;
    hard) check_jq '.result.difficulty.techniques | index("region-wing") != null and index("trial") == null' "hard: a region wing, no trial" ;;
    expert) check_jq '.result.difficulty.techniques | index("trial") != null' "expert: a trial" ;;
  esac
  cp "$BODY_FILE" "$WORK/level.json"
  post_json /oneup/solves "$(jq -c .result.puzzle.json "$WORK/level.json")"
  wait_job "$(header location)" 60
  check_jq ".result.unique == true and .result.solution == $(jq -c .result.solution "$WORK/level.json")" "$level: exactly one solution, the generator's"
done
post_json /oneup/puzzles '{"level": "impossible"}'
check_problem 422 "level" "an unknown level"
post_json /oneup/puzzles '{"clue_symmetry": "diagonal"}'
check_problem 422 "clue_symmetry" "an unknown symmetry"

# Hints on the 7 July 2024 puzzle (the text format as one string).
EXAMPLE_JSON=$(jq -Rs . data/oneup-2024-07-07.txt)
EMPTY='["........","........","........","........","........","........","........","........"]'
post_json /oneup/hints "{\"puzzle\": $EXAMPLE_JSON, \"grid\": $EMPTY}"
check_status 200 "a hint for the empty grid"
check_jq '.solved == false and .technique == "hidden-single" and (.place | .row >= 1 and .digit >= 1) and (.text | test("^row [0-9], column [0-9] is [0-9]: the only place for [0-9] in ")) and (.cells | length) > 1' "the next step in words, with its cells"
# The hint's digit is the solution's.
row=$(jq .place.row "$BODY_FILE"); col=$(jq .place.col "$BODY_FILE"); digit=$(jq .place.digit "$BODY_FILE")
SOLUTION='["43122314","35241123","14153267","21531246","42615378","12362451","31224135","23416512"]'
check_cmd "[ \"\$(jq -r --argjson r $row --argjson c $col '.[\$r - 1][\$c - 1:\$c]' <<<'$SOLUTION')\" = $digit ]" "the hinted digit is the solution's"
# The solved grid.
post_json /oneup/hints "{\"puzzle\": $EXAMPLE_JSON, \"grid\": $SOLUTION}"
check_jq '.solved == true and .place == null and .technique == null' "nothing to hint in a solved grid"
# A wrong digit that breaks no rule yet: 409, naming the cell.
post_json /oneup/hints "{\"puzzle\": $EXAMPLE_JSON, \"grid\": [\"1.......\",\"........\",\"........\",\"........\",\"........\",\"........\",\"........\",\"........\"]}"
check_problem 409 "row 1, column 1" "a digit the solution does not have there"
# Two 3s in one region: 409 naming the region.
post_json /oneup/hints "{\"puzzle\": $EXAMPLE_JSON, \"grid\": [\"3.......\",\"........\",\"........\",\"........\",\"........\",\"........\",\"........\",\"........\"]}"
check_problem 409 "already has it" "a digit twice in a region"
# Malformed grids name the row.
post_json /oneup/hints "{\"puzzle\": $EXAMPLE_JSON, \"grid\": [\"........\",\"........\",\"..x.....\",\"........\",\"........\",\"........\",\"........\",\"........\"]}"
check_problem 422 "row 3, column 3" "a letter in the grid"
check_jq '.field == "grid[2]"' "the field is the row"
post_json /oneup/hints "{\"puzzle\": $EXAMPLE_JSON, \"grid\": [\"........\"]}"
check_problem 422 "grid" "too few rows"
post_json /oneup/hints '{"puzzle": {"row_regions": ["1111","1111","1111","1111"], "col_regions": ["1111","1111","1111","1111"], "clues": []}, "grid": ["....","....","....","...."]}'
check_problem 422 "more than one solution" "a puzzle without one solution"

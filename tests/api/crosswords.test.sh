# Crosswords: patterns, fills, word squares.

# jq helpers on a grid given as rows of "#" (black) and "." or letters (white).
GRID='def cells: map(split(""));
  def white: . != "#";
  def no_2x2($want): cells as $g | [range(0; ($g|length) - 1) as $r | range(0; ($g[0]|length) - 1) as $c
    | [$g[$r][$c], $g[$r][$c+1], $g[$r+1][$c], $g[$r+1][$c+1]] | map(white) | select(all(. == $want))] | length == 0;
  def mirror: . == reverse and (map(split("") | reverse | join(""))) == .;
  def runs: (map(split("#")[] | select(length > 0) | length)) + ((cells | transpose | map(join(""))) | map(split("#")[] | select(length > 0) | length));'

post_json /crosswords/patterns '{"size": 15, "max_len": 9, "symmetry": "mirror", "count": 5, "seed": 11}'
check_status 202 "sample 15x15 patterns"
wait_job "$(header location)" 120
check_jq '.state == "succeeded" and (.result.patterns | length) == 5' "five patterns"
check_jq "$GRID"' [.result.patterns[] | .rows | length == 15 and all(length == 15) and mirror and no_2x2(true) and no_2x2(false) and (runs | all(. == 1 or (. >= 3 and . <= 9)))] | all' "patterns are 15x15, mirror-symmetric, without 2x2 blocks, words 3..9"
check_jq '[.result.patterns[] | (.hex | test("^[0-9A-F]+[g-t]?$")) and .words > 0 and .black == ([.rows[] | split("") | .[] | select(. == "#")] | length)] | all' "hex, word and black counts"
post_json /crosswords/patterns '{"size": 5, "max_len": 5, "count": "all"}'
wait_job "$(header location)"
check_jq '.result.total == 21 and (.result.patterns | length) == 21 and ([.result.patterns[].hex] | unique | length) == 21' "21 mirror patterns of 5x5 with max_len 5"
post_json /crosswords/patterns '{"size": 15, "symmetry": "rotational", "count": 2, "seed": 3}'
wait_job "$(header location)" 120
check_jq '[.result.patterns[] | .rows | . == (reverse | map(split("") | reverse | join("")))] | all' "rotational symmetry"
post_json /crosswords/patterns '{"size": 8}'
check_problem 422 "even side" "even size with mirror symmetry is refused at once"
post_json /crosswords/patterns '{"size": 23}'
check_problem 422 "size" "size out of range"
post_json /crosswords/patterns '{"size": 15, "symmetry": "diagonal"}'
check_problem 422 "symmetry" "unknown symmetry"
post_json /crosswords/patterns '{"size": 15, "time_limit_ms": 0}'
check_problem 422 "time_limit_ms" "a time limit of 0 ms is refused"
check_jq '.field == "time_limit_ms"' "the 0 ms time limit is named"
post_json /crosswords/patterns '{"size": 15, "max_len": null}'
check_problem 422 "null" "null is not a value of a request member"
check_jq '.field == "max_len"' "the null member is named"

# Fills: every slot a word, crossings agree (entries are read from the filled rows).
ENTRIES='def across_words: map(split("#")[] | select(length >= 2));
  def down_words: (map(split("")) | transpose | map(join(""))) | across_words;'
for pattern in BEFB4516BFAFAAF8FE27573BFBDD5DEFEE75723F8FAAFAFEB4516FBEh 3EF9C51EBFAFAAF8FE37577BFB9D5CEFEF75763F8FAAFAFEBC51CFBEg; do
  post_json /crosswords/fills "{\"pattern\": \"$pattern\", \"seed\": 1}"
  check_status 202 "fill $pattern"
  wait_job "$(header location)" 60
  check_jq '.state == "succeeded" and (.result.rows | length) == 15' "filled $pattern"
  check_jq "$ENTRIES"' .result as $f | ([$f.across[].word] | sort) == ($f.rows | across_words | sort) and ([$f.down[].word] | sort) == ($f.rows | down_words | sort)' "across and down lists match the grid"
  check_jq '.result | ([.across[].word, .down[].word] | (length == (unique | length)))' "every word distinct"
  check_jq '.result | [.across[] | . as $e | $e.word[0:1] == (.rows // [] | .[$e.row-1] // "" | .[$e.col-1:$e.col])] | length > 0' "entries have positions"
done
post_json /crosswords/fills '{"pattern": [".....", ".#.#.", ".....", ".#.#.", "....."], "words": ["ABCDE", "FGHIJ"]}'
wait_job "$(header location)"
check_jq '.state == "succeeded" and .result.rows == null and (.result.reason | test("no |budget"))' "an impossible fill ends with a reason"
post_json /crosswords/fills '{"pattern": "12Zg"}'
check_problem 422 "Z" "bad hex symbol"
post_json /crosswords/fills '{"pattern": ["...", ".#"]}'
check_problem 422 "row" "ragged rows"
post_json /crosswords/fills '{"pattern": "FD7F5Fh", "words": ["cat", "d0g"]}'
check_problem 422 "d0g" "a word with a digit"
check_jq '.field == "words[1]"' "names the word"

# Word squares.
post_json /wordsquares '{"size": 4, "seed": 2}'
wait_job "$(header location)"
check_jq '.state == "succeeded" and (.result.squares | length) == 1 and (.result.squares[0] | length == 4 and all(length == 4))' "a 4x4 word square"
check_jq '.result.squares[0] as $s | ($s + ($s | map(split("")) | transpose | map(join("")))) | length == (unique | length)' "its 8 words are distinct"
post_json /wordsquares '{"size": 3, "count": "all", "words": ["CAT", "ARE", "TEN", "CAT", "ART", "TEN", "AGE"], "distinct": false}'
wait_job "$(header location)"
check_jq '.state == "succeeded" and (.result.total | type) == "number"' "count all squares for a small list"
post_json /wordsquares '{"size": 9}'
check_problem 422 "size" "word square too large"

# Printable grid and solution of a fill.
post_json /crosswords/fills '{"pattern": "3EF9C51EBFAFAAF8FE37577BFB9D5CEFEF75763F8FAAFAFEBC51CFBEg"}'
check_header location '^/crosswords/fills/' "a fill's Location is the fill"
fill=$(header location)
check_jq '.links.self == "'"$fill"'" and .links.grid_pdf == "'"$fill"'/grid.pdf" and .links.solution_pdf == "'"$fill"'/solution.pdf"' "the fill links itself and its PDFs"
req GET "$fill/grid.pdf"
check_status 200 "the empty grid prints at once"
wait_job "$fill" 60
for doc in grid solution; do
  req GET "$fill/$doc.pdf"
  if [ "$STATUS" = 200 ] && head -c 5 "$BODY_FILE" | grep -q '%PDF-' && grep -aq '/Count 1$' "$BODY_FILE"; then pass; else fail "$doc.pdf of a fill"; fi
done
post_json /crosswords/fills '{"pattern": [".....", ".#.#.", ".....", ".#.#.", "....."], "words": ["ABCDE", "FGHIJ"]}'
nofill=$(header location)
wait_job "$nofill"
req GET "$nofill/solution.pdf"
check_problem 409 "no filling" "no solution PDF without a fill"

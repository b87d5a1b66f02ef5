# Crossword files: a fill's .puz and .ipuz read back with the PyPI libraries (puzpy, ipuz,
# in the virtualenv scripts/setup-test-env makes), its clues and titles in the PDFs, refusals.

CROSSWORD_PY=${CROSSWORD_PY:-target/crossword-venv/bin/python}
cw_dir=$(mktemp -d)

# A rectangular grid (5 x 7; across 1 4 7 9 10 11 12, down 1 2 3 4 5 6 8), clues for all but
# 2-Down and 10-Across, Latin-1 text and typographic punctuation (the .puz writes it as ASCII).
cw_request='{"pattern": ["...#...", ".......", ".......", ".......", "...#..."], "seed": 3,
  "title": "Caf\u00e9 \u201cSpecial\u201d", "author": "Ann Author", "copyright": "\u00a9 2026 Ann Author",
  "notes": "Two lines\nof notes",
  "clues": {"1A": "First across", "4A": "Fourth \u2013 across", "7A": "A clue with \u2018quotes\u2019",
            "9A": "Ninth", "11A": "Eleventh", "12A": "Twelfth", "1D": "Down one", "3D": "Down three",
            "4D": "Down four", "5D": "Down five", "6D": "Down six", "8D": "Down eight"}}'
echo "$cw_request" >"$cw_dir/request.json"
post_json /crosswords/fills "$cw_request"
check_status 202 "a fill with texts and clues"
cw_fill=$(header location)
[ -n "$cw_fill" ] || cw_fill=/crosswords/fills/not-queued
check_jq '.links.puz == "'"$cw_fill"'/puzzle.puz" and .links.ipuz == "'"$cw_fill"'/puzzle.ipuz"' "the fill links its files"
req GET "$cw_fill/grid.pdf"
check_status 200 "the clue grid prints at once"
cp "$BODY_FILE" "$cw_dir/grid.pdf"
check_cmd "pdftotext '$cw_dir/grid.pdf' - | grep -q 'Across' && pdftotext '$cw_dir/grid.pdf' - | grep -q 'Down four'" "the grid PDF lists the clues under Across and Down"
check_cmd "pdfinfo '$cw_dir/grid.pdf' | grep -Eq 'Title: *Café “Special” [0-9a-f]+$'" "the grid PDF is titled as requested "
wait_job "$cw_fill" 60
check_jq '.state == "succeeded" and (.result.rows | length) == 5' "the rectangular grid is filled"
check_jq '(.result.clues_missing | sort) == ["10A", "2D"]' "clues_missing names the entries without a clue"
cp "$BODY_FILE" "$cw_dir/fill.json"
req GET "$cw_fill/puzzle.puz"
check_status 200 "the .puz"
check_header content-type '^application/x-crossword' "the .puz content type"
check_header content-disposition 'attachment; filename="crossword.puz"' "the .puz is a download"
cp "$BODY_FILE" "$cw_dir/puzzle.puz"
req GET "$cw_fill/puzzle.ipuz"
check_status 200 "the .ipuz"
check_header content-type '^application/vnd.ipuz\+json' "the .ipuz content type"
cp "$BODY_FILE" "$cw_dir/puzzle.ipuz"
if [ ! -x "$CROSSWORD_PY" ]; then
  fail "no $CROSSWORD_PY: run scripts/setup-test-env (it installs puzpy and ipuz there)"
elif out=$("$CROSSWORD_PY" tests/api/crossword_files.py "$cw_dir/request.json" "$cw_dir/fill.json" \
  "$cw_dir/puzzle.puz" "$cw_dir/puzzle.ipuz" 2>&1); then
  pass
else
  fail "puzpy and ipuz read back the fill's files: $out"
fi
req GET "$cw_fill/solution.pdf"
cp "$BODY_FILE" "$cw_dir/solution.pdf"
check_cmd "pdfinfo '$cw_dir/solution.pdf' | grep -Eq 'Title: *Café “Special” [0-9a-f]+ - solution$'" "the solution PDF carries the title"
check_cmd "pdftotext '$cw_dir/grid.pdf' - | grep -qx 'by Ann Author'" "the grid PDF prints the byline"
check_cmd "pdftotext '$cw_dir/solution.pdf' - | grep -qx 'Solution - by Ann Author'" "the solution PDF prints the byline"
# 2-Down and 10-Across have no clue: each keeps its line, with its length for a clue.
check_cmd "pdftotext -layout '$cw_dir/grid.pdf' - | grep -Eq '(^| )10 \\([0-9]+ letters\\)' && pdftotext -layout '$cw_dir/grid.pdf' - | grep -Eq '(^| )2 \\([0-9]+ letters\\)'" \
  "an entry without a clue prints its length"

# Clues written after the fill, the way the web page adds them: the filled rows come back as
# a fill whose every square is a locked letter, with the title, byline and clues (all of
# them); it is filled at once with the same words, and its files carry them.
post_json /crosswords/fills '{"pattern": ["...#...", ".......", ".......", ".......", "...#..."], "seed": 5}'
check_status 202 "a fill without texts"
cw_bare=$(header location)
wait_job "$cw_bare" 60
check_jq '.state == "succeeded" and (.result.rows | length) == 5 and (.result.clues_missing | length) == 14' "filled, every clue missing"
cw_rows=$(jq -c .result.rows "$BODY_FILE")
cw_page_request=$(jq -c '{pattern: .result.rows, title: "Page Mini", author: "Pat Page", copyright: "© Pat Page",
  clues: ([.result.across[] | {key: "\(.number)A", value: "Across \(.word | ascii_downcase)"}]
          + [.result.down[] | {key: "\(.number)D", value: "Down \(.word | ascii_downcase)"}] | from_entries)}' "$BODY_FILE")
echo "$cw_page_request" >"$cw_dir/page-request.json"
post_json /crosswords/fills "$cw_page_request"
check_status 202 "the filled rows with the texts"
cw_page=$(header location)
wait_job "$cw_page" 10
check_jq '.state == "succeeded" and .result.rows == '"$cw_rows"' and .result.clues_missing == []' "the same words, every entry clued"
cp "$BODY_FILE" "$cw_dir/page-fill.json"
req GET "$cw_page/puzzle.puz"
cp "$BODY_FILE" "$cw_dir/page.puz"
req GET "$cw_page/puzzle.ipuz"
cp "$BODY_FILE" "$cw_dir/page.ipuz"
if [ ! -x "$CROSSWORD_PY" ]; then
  fail "no $CROSSWORD_PY: run scripts/setup-test-env (it installs puzpy and ipuz there)"
elif out=$("$CROSSWORD_PY" tests/api/crossword_files.py "$cw_dir/page-request.json" "$cw_dir/page-fill.json" \
  "$cw_dir/page.puz" "$cw_dir/page.ipuz" 2>&1); then
  pass
else
  fail "puzpy and ipuz read back the clues, title and author added after the fill: $out"
fi
req GET "$cw_page/grid.pdf"
cp "$BODY_FILE" "$cw_dir/page-grid.pdf"
check_cmd "pdftotext '$cw_dir/page-grid.pdf' - | grep -qx 'by Pat Page' && pdftotext '$cw_dir/page-grid.pdf' - | grep -q 'Page Mini'" "its grid PDF prints the title and byline"
check_cmd "! pdftotext '$cw_dir/page-grid.pdf' - | grep -Eq '[A-Z]{3}'" "its grid PDF does not give the answers away"

# Refusals: clue keys that name no entry, texts too long or with control characters.
post_json /crosswords/fills '{"pattern": ["...#...", ".......", ".......", ".......", "...#..."], "clues": {"2A": "x"}}'
check_problem 422 "no 2-Across" "a clue for an entry the grid lacks"
check_jq '.field == "clues.2A"' "the clue's key is named"
post_json /crosswords/fills '{"pattern": ["...#...", ".......", ".......", ".......", "...#..."], "clues": {"1 A": "x"}}'
check_problem 422 "like 1A" "a malformed clue key"
check_jq '.field == "clues.1 A"' "the malformed key is named"
post_json /crosswords/fills '{"pattern": ["...#...", ".......", ".......", ".......", "...#..."], "clues": {"1A": "a\nb"}}'
check_problem 422 "control character" "a clue on two lines"
post_json /crosswords/fills "{\"pattern\": [\"...#...\", \".......\", \".......\", \".......\", \"...#...\"], \"title\": \"$(printf 'x%.0s' $(seq 201))\"}"
check_problem 422 "at most 200" "a title over 200 characters"
check_jq '.field == "title"' "the title is named"

# 409 while the fill runs (an open 9 x 9 has no fill; the search runs out its 2 s) and
# when it found none.
post_json /crosswords/fills '{"pattern": [".........", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "........."], "time_limit_ms": 2000}'
cw_none=$(header location)
for f in puzzle.puz puzzle.ipuz; do
  req GET "$cw_none/$f"
  check_problem 409 "not ready yet" "no $f while the fill runs"
done
wait_job "$cw_none"
for f in puzzle.puz puzzle.ipuz; do
  req GET "$cw_none/$f"
  check_problem 409 "no filling" "no $f without a fill"
done
req GET "/crosswords/fills/00000000-0000-0000-0000-000000000000/puzzle.puz"
check_problem 404 "no crossword fill" "the .puz of an unknown fill"
[ -n "${KEEP_CW_DIR:-}" ] || rm -rf "$cw_dir"

# Word searches: POST /wordsearches queues a puzzle whose list words each occur exactly
# once and no blocked word occurs, read back and checked by a scanner of its own (python);
# refusals name the words or field at fault. Sourced by run.sh with BASE, WORK and BACKEND set.

post_json /wordsearches '{"words": ["robin", "sparrow", "blue tit", "wren", "magpie", "starling", "crow", "owl", "heron", "swift"],
  "rows": 12, "cols": 12, "level": "hard", "seed": 7, "avoid": ["nest"]}'
check_status 202 "queue a word search"
check_header location '^/wordsearches/[0-9a-f-]{36}$' "its Location"
WS=$(header location)
wait_job "$WS" 60
check_jq '.state == "succeeded" and (.result.rows | length) == 12 and all(.result.rows[]; length == 12)' "made: 12 rows of 12 letters"
check_jq '.result.seed == 7 and (.result.words | length) == 10 and .result.words[2].word == "blue tit" and .result.words[2].letters == "BLUETIT"' "the words as given and as in the grid"
body >"$WORK/ws.json"
check_cmd "python3 - '$WORK/ws.json' <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))['result']
rows = r['rows']
def scan(word):
    found = set()
    for y in range(len(rows)):
        for x in range(len(rows[y])):
            for dy, dx in [(0,1),(0,-1),(1,0),(-1,0),(1,1),(1,-1),(-1,1),(-1,-1)]:
                cells = [(y + k*dy, x + k*dx) for k in range(len(word))]
                if all(0 <= a < len(rows) and 0 <= b < len(rows[a]) and rows[a][b] == word[k] for k, (a, b) in enumerate(cells)):
                    found.add(frozenset(cells))
    return found
placed = [frozenset(map(tuple, w['cells'])) for w in r['words']]
for w, cells in zip(r['words'], placed):
    assert [rows[a][b] for a, b in w['cells']] == list(w['letters']), w
    assert scan(w['letters']) == {cells}, (w['letters'], scan(w['letters']))
for bad in ['NEST', 'TSEN']:
    assert all(any(c <= p for p in placed) for c in scan(bad)), bad
EOF" "each word once where it is said to be, NEST nowhere (a scanner of its own)"
post_json /wordsearches '{"words": ["robin", "sparrow", "blue tit", "wren", "magpie", "starling", "crow", "owl", "heron", "swift"],
  "rows": 12, "cols": 12, "level": "hard", "seed": 7, "avoid": ["nest"]}'
SAME=$(header location)
wait_job "$SAME" 60
check_cmd "[ \"\$(jq -c .result.rows $BODY_FILE)\" = \"\$(jq -c .result.rows $WORK/ws.json)\" ]" "the same request and seed: the same grid"

post_json /wordsearches '{"words": ["cat", "dog", "cats"], "rows": 10, "cols": 10}'
check_problem 422 'CAT is part of CATS' "a word part of another: 422 naming both"
check_jq '.field == "words[0]"' "the field is words[0]"
post_json /wordsearches '{"words": ["cat", "dog", "cats"], "rows": 10, "cols": 10, "allow_contained": true, "seed": 1}'
check_status 202 "allowed explicitly"
post_json /wordsearches '{"words": ["cat", "dog", "hippopotamuses"], "rows": 6, "cols": 6, "level": "easy"}'
check_problem 422 'did not fit.*hippopotamuses' "a word too long for the grid: 422 naming it"
post_json /wordsearches "{\"words\": $(python3 -c 'import json; print(json.dumps([w + c for c in "abcdefghij" for w in ["lark", "kite", "rook", "teal"]]))'), \"rows\": 8, \"cols\": 8, \"level\": \"easy\"}"
# The search's short run in the handler may not finish on a busy machine: then the job tells.
if [ "$STATUS" = 202 ]; then
  wait_job "$(header location)" 60
  check_jq '.state == "failed" and (.error | test("did not fit"))' "forty words in 8 x 8: the job fails naming those left over"
else
  check_problem 422 'did not fit' "forty words in 8 x 8: 422 naming those left over"
fi
post_json /wordsearches '{"words": ["cat", "dog", "emu", "yak", "gnu"], "rows": 5, "cols": 5, "level": "easy", "message": "too long for ten cells, surely"}'
check_problem 422 'message.*cells are left' "a message of the wrong length"
post_json /wordsearches '{"words": ["cat", "dog", "emu"], "rows": 50, "cols": 10}'
check_problem 422 'rows' "rows past 40"
post_json /wordsearches '{"words": ["cat", "dog", "emu"], "shape": "blob"}'
check_problem 422 'shape' "an unknown shape"
post_json /wordsearches '{"words": ["cat", "dog", "emu"], "level": "insane"}'
check_problem 422 'level' "an unknown level"
post_json /wordsearches '{"words": ["cat", "dog", "emu", "cat"]}'
check_problem 422 'words\\[3\\]' "a word twice"

post_json /wordsearches '{"words": ["fox", "owl", "hen", "emu"], "rows": 9, "cols": 9, "shape": "heart", "filler": "word-letters", "seed": 3}'
check_status 202 "a heart of the words' own letters"
HEART=$(header location)
wait_job "$HEART" 60
check_jq '.state == "succeeded" and ([.result.rows[] | test("^[ FOXWLHENMU]+$")] | all) and ([.result.rows[] | test(" ")] | any)' "spaces outside the heart, the words' letters inside"

req GET /wordsearches
check_jq "(.wordsearches | length) >= 3 and .wordsearches[0].links.self == \"$HEART\"" "listed, newest first"

# Books: lists or a pool, print-ready PDFs read back (pdfinfo, pdffonts, pdftotext), the
# offline command's same bytes, refusals naming the field, cancel, owners.
cat >"$WORK/ws-book.json" <<'JSON'
{"title": "Garden Birds", "trim": "6x9", "level": "hard", "rows": 13, "cols": 13, "seed": 7,
 "puzzles": [
   {"title": "Garden", "words": ["robin", "wren", "blue tit", "magpie", "starling", "sparrow"]},
   {"title": "Water", "words": ["heron", "swan", "mallard", "coot", "moorhen", "grebe"], "level": "easy"},
   {"words": ["crème brûlée", "éclair", "scone", "muffin", "trifle"], "rows": 12, "cols": 12}]}
JSON
post_json /wordsearches/books "$(cat "$WORK/ws-book.json")"
check_status 202 "queue a book of three lists"
check_header location '^/wordsearches/books/[0-9a-f-]{36}$' "its Location"
WSB=$(header location)
wait_job "$WSB" 120
check_jq '.state == "succeeded" and .result.pages == 24 and (.result.puzzles | length) == 3' "made: 3 puzzles, 24 pages"
check_jq '[.result.puzzles[].level] == ["hard", "easy", "hard"] and .result.puzzles[0].title == "Garden" and (.result.puzzles[2].rows | length) == 12' "each puzzle's own level and grid"
check_jq '(.result.code | test("^[0-9a-f]{8}$")) and .links.book_pdf == "'"$WSB"'/book.pdf" and .links.cover_pdf == "'"$WSB"'/cover.pdf"' "its code and links"
CODE=$(jq -r .result.code "$BODY_FILE")
req GET "$WSB/book.pdf"
check_status 200 "the interior"
cp "$BODY_FILE" "$WORK/ws-book.pdf"
check_greyscale "$WORK/ws-book.pdf" "a word-search book"
check_cmd "pdfinfo '$WORK/ws-book.pdf' | grep -q '^Pages: *24$' && pdfinfo '$WORK/ws-book.pdf' | grep -q 'Page size: *432 x 648 pts'" "24 pages of 6 x 9 in"
check_cmd "[ \"\$(pdffonts '$WORK/ws-book.pdf' | tail -n +3 | awk '\$(NF-4) != \"yes\"' | wc -l)\" = 0 ]" "every font embedded"
check_cmd "pdftotext -layout '$WORK/ws-book.pdf' - | grep -q 'How to play' && pdftotext '$WORK/ws-book.pdf' - | grep -q 'CREME BRULEE' && pdftotext '$WORK/ws-book.pdf' - | grep -q 'Garden Birds - book $CODE'" "how to play, the list as the grid holds it, the footer's code"
check_cmd "python3 - '$WORK/ws-book.pdf' <<'EOF'
import subprocess, sys
pages = subprocess.run(['pdftotext', '-layout', sys.argv[1], '-'], capture_output=True, text=True).stdout.split('\f')
# Page 5, the first right-hand page after how to play, holds puzzle 1: its list alphabetical.
words = ['BLUE TIT', 'MAGPIE', 'ROBIN', 'SPARROW', 'STARLING', 'WREN']
p = pages[4]
at = [p.index(w) for w in words]
assert '1. Garden' in p, p
rows = [l for l in p.splitlines() if l.count(' ') >= 12 and len(l.split()) == 13]
assert len(rows) == 13, rows
EOF" "page 5: puzzle 1's 13 rows and its list"
req GET "$WSB/cover.pdf?paper=cream"
check_status 200 "the cover"
cp "$BODY_FILE" "$WORK/ws-cover.pdf"
check_cmd "pdfinfo -box '$WORK/ws-cover.pdf' | grep -q 'BleedBox'" "the cover has its bleed box"
check_cover_art "$WSB/cover.pdf" '([A-Z] +){5,}[A-Z]' "a word-search book's cover (its first grid)"
req GET "$WSB/cover.pdf?paper=glossy"
check_problem 422 'white or cream' "an unknown paper"
# The offline command, on the request as stored: the same bytes.
req GET "$WSB"
jq .request "$BODY_FILE" >"$WORK/ws-request.json"
check_cmd "'$BIN' wordsearch --lists '$WORK/ws-request.json' --out '$WORK/ws-offline' --paper cream >/dev/null && cmp '$WORK/ws-offline/book.pdf' '$WORK/ws-book.pdf' && cmp '$WORK/ws-offline/cover.pdf' '$WORK/ws-cover.pdf'" "puzzlepress wordsearch prints the same bytes"
# A refusal from the CLI names the list at fault once, as the API's detail does.
printf '{"title": "Bad", "puzzles": [{"words": ["cat"]}]}' >"$WORK/ws-bad.json"
RUST_BACKTRACE=0 "$BIN" wordsearch --lists "$WORK/ws-bad.json" --out "$WORK/ws-bad" >/dev/null 2>"$WORK/ws-bad.err"
check_cmd "[ \"\$(grep -o 'puzzles\[0\]\.words' '$WORK/ws-bad.err' | wc -l)\" = 1 ] && grep -q '1 words' '$WORK/ws-bad.err'" "puzzlepress wordsearch refuses a short list, naming puzzles[0].words once ($(cat "$WORK/ws-bad.err"))"
printf '{"title": "Bad", "isbn": "123", "puzzles": [{"words": ["cat", "dog", "emu", "owl", "hen"]}]}' >"$WORK/ws-isbn.json"
RUST_BACKTRACE=0 "$BIN" wordsearch --lists "$WORK/ws-isbn.json" --out "$WORK/ws-bad" >/dev/null 2>"$WORK/ws-isbn.err"
check_cmd "[ \"\$(grep -o 'isbn' '$WORK/ws-isbn.err' | wc -l)\" = 1 ] && grep -q '10 or 13 digits' '$WORK/ws-isbn.err'" "puzzlepress wordsearch refuses a bad ISBN, naming isbn once ($(cat "$WORK/ws-isbn.err"))"
post_json /wordsearches/books "$(cat "$WORK/ws-book.json")"
SAMEB=$(header location)
wait_job "$SAMEB" 120
req GET "$SAMEB/book.pdf"
check_cmd "cmp '$BODY_FILE' '$WORK/ws-book.pdf'" "the same request and seed: the same book"

post_json /wordsearches/books '{"pool": ["robin", "wren", "owl", "owlet", "crow", "magpie", "sparrow", "finch", "heron", "swan", "eagle", "hawk"], "count": 4, "words_per_puzzle": 6, "rows": 10, "cols": 10, "spread": ["easy", "hard"], "seed": 2}'
check_status 202 "a pool drawn into four puzzles"
POOL=$(header location)
wait_job "$POOL" 120
check_jq '.state == "succeeded" and ([.result.puzzles[] | .words | length] == [6, 6, 6, 6]) and ([.result.puzzles[].level] == ["easy", "easy", "hard", "hard"])' "four lists of six, the levels spread"
check_jq '[.result.puzzles[] | [.words[].word] | (index("owl") != null and index("owlet") != null)] | any | not' "OWL and OWLET never in one list"

# A pool whose words read inside each other backwards (ROBIN in SNIBOR): whatever the seed, the
# lists dealt from it are never refused for a list the caller never sent.
for seed in 1 2 3 4 5 6 7 8; do
  post_json /wordsearches/books "{\"pool\": [\"robin\", \"nibor\", \"owl\", \"crow\", \"wren\", \"nibors\", \"snibor\", \"heron\", \"swan\", \"lark\"], \"count\": 6, \"words_per_puzzle\": 5, \"rows\": 10, \"cols\": 10, \"seed\": $seed}"
  check_status 202 "a pool of words inside each other backwards, seed $seed"
  [ "$STATUS" = 202 ] && req DELETE "/jobs/$(jq -r .id "$BODY_FILE")"
done

post_json /wordsearches/books '{"puzzles": [{"words": ["cat", "dog", "emu"]}, {"words": ["cat", "dog", "cats"]}]}'
check_problem 422 'CAT is part of CATS' "a word inside another: 422"
check_jq '.field == "puzzles[1].words[0]"' "naming the puzzle and the word"
post_json /wordsearches/books '{"puzzles": [{"words": ["cat", "dog", "hippopotamuses"], "rows": 8, "cols": 8}]}'
check_problem 422 'hippopotamuses' "a word too long for its grid"
check_jq '.field == "puzzles[0].words"' "the field is puzzles[0].words"
post_json /wordsearches/books '{"large_print": true, "rows": 25, "cols": 25, "puzzles": [{"words": ["cat", "dog", "emu"]}]}'
check_problem 422 'large print.*at most [0-9]+ rows and [0-9]+ columns fit' "a large-print grid too large for the page: 422 naming what fits"
check_jq '.field == "large_print"' "the field is large_print"
post_json /wordsearches/books '{"large_print": true, "rows": 15, "cols": 15, "puzzles": [{"words": ["cat", "dog", "emu"]}], "seed": 1}'
check_status 202 "15 x 15 fits in large print on letter"
post_json /wordsearches/books '{"pool": ["cat", "dog", "emu"], "words_per_puzzle": 4}'
check_problem 422 'pool has 3 different words' "a pool too small"
check_jq '.field == "words_per_puzzle"' "the field is words_per_puzzle"
post_json /wordsearches/books '{"pool": ["cat", "dog", "emu"], "count": 501, "words_per_puzzle": 3}'
check_problem 422 'count' "501 puzzles"
post_json /wordsearches/books "{\"puzzles\": $(python3 -c 'import json; print(json.dumps([{"words": ["cat", "dog", "emu"]}] * 501))')}"
check_problem 422 'at most|1 to 500' "501 lists"
check_jq '.field == "puzzles"' "the field is puzzles"
post_json /wordsearches/books '{}'
check_problem 422 'lists, or a pool' "neither lists nor a pool"
post_json /wordsearches/books '{"puzzles": [{"words": ["cat", "dog", "emu"]}], "pool": ["owl"]}'
check_problem 422 'not both' "both lists and a pool"
post_json /wordsearches/books '{"puzzles": [{"words": ["cat", "dog", "emu"], "title": "Caf\u00e9"}]}'
check_problem 422 'printable ASCII' "a puzzle title the fonts cannot print"
check_jq '.field == "puzzles[0].title"' "naming it"

# 500 puzzles of 40 x 40 with 40 words (tens of seconds), cancelled: it ends cancelled.
python3 -c 'import json; print(json.dumps({"rows": 40, "cols": 40, "level": "expert", "seed": 5, "pool": ["".join(chr(65 + (i * 7 + k * 3) % 26) for k in range(6 + i % 9)) for i in range(400)], "count": 500, "words_per_puzzle": 40, "allow_contained": True, "allow_offensive": True}))' >"$WORK/ws-huge.json"
post_json /wordsearches/books "$(cat "$WORK/ws-huge.json")"
check_status 202 "a book of 500 large puzzles"
HUGE=$(header location)
req DELETE "/jobs/${HUGE##*/}"
check_jq '.state == "cancelled" or .cancel_requested == true' "cancelled"
wait_job "$HUGE" 60
check_jq '.state == "cancelled" and .result == null' "it ends cancelled, without a result"
req GET "$HUGE/book.pdf"
check_problem 409 'cancelled' "a cancelled book has no PDF"
req GET /wordsearches/books
check_jq "(.books | length) >= 4 and .books[0].links.self == \"$HUGE\"" "books listed, newest first"

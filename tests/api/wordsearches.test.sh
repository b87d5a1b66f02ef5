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
check_problem 422 'did not fit' "forty words in 8 x 8: 422 naming those left over"
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

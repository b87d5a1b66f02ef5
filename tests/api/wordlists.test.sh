# Word lists: upload (text/plain, streamed, up to 64 MiB, line-numbered errors), the same
# content gets the same id, fills and word squares by id, min_score, delete; a 21x21 grid
# filled from the bundled list; fixed letters kept.

WL_DIR=$(mktemp -d)
printf 'heart;70\nhouse;60\ncrème brûlée;55\nember;40\nHEART;20\n' >"$WL_DIR/small.txt"
req POST "/wordlists?name=small" -H 'content-type: text/plain; charset=utf-8' --data-binary @"$WL_DIR/small.txt"
check_status 201 "upload a word list"
check_header location '^/wordlists/[0-9a-f]{32}$' "its Location is /wordlists/{id}"
WL_ID=$(jq -r .id "$BODY_FILE")
WL_SHA=$(sha256sum <"$WL_DIR/small.txt" | cut -d' ' -f1)
check_jq '.name == "small" and .entries == 4 and .by_length == {"5": 3, "11": 1}' "entries normalised and counted by length"
check_jq '.sha256 == "'"$WL_SHA"'" and .id == "'"${WL_SHA:0:32}"'" and .bytes > 0' "the id is the start of the SHA-256 of the bytes"
req POST "/wordlists" -H 'content-type: text/plain' --data-binary @"$WL_DIR/small.txt"
check_status 200 "the same content again is the list the caller has"
check_jq '.id == "'"$WL_ID"'" and .name == "small"' "same content, same id"
req GET /wordlists
check_jq '[.wordlists[] | select(.id == "'"$WL_ID"'")] | length == 1' "the caller's lists hold it once"
req GET "/wordlists/$WL_ID"
check_jq '.id == "'"$WL_ID"'" and .entries == 4' "read one list"
req GET /wordlists/0123456789abcdef0123456789abcdef
check_problem 404 "no word list" "an unknown list"

# Refusals.
printf 'abc;10\n\n# a comment\ndef;140\n' >"$WL_DIR/bad.txt"
req POST /wordlists -H 'content-type: text/plain' --data-binary @"$WL_DIR/bad.txt"
check_problem 422 "line 4: score 140 is not 0..100" "a bad line is named by number"
check_jq '.line == 4' "the problem has the line"
printf 'abc\nr2d2;50\n' | req POST /wordlists -H 'content-type: text/plain' --data-binary @-
check_problem 422 "line 2" "a digit in an entry"
req POST /wordlists -H 'content-type: application/json' --data-binary '["heart"]'
check_problem 415 "text/plain" "a list that is not text/plain"
req POST /wordlists --data-binary 'heart'
check_problem 415 "text/plain" "a list without a content type"
yes 'abcdefg;50' | head -c $((64 * 1024 * 1024 + 1)) >"$WL_DIR/huge.txt"
req POST /wordlists -H 'content-type: text/plain' --data-binary @"$WL_DIR/huge.txt"
check_problem 413 "64 MiB" "a list over 64 MiB"
req POST /wordlists -H 'content-type: text/plain' -H 'transfer-encoding: chunked' --data-binary @"$WL_DIR/huge.txt"
check_problem 413 "64 MiB" "a streamed list over 64 MiB (no Content-Length)"
# A list over the 1 MiB JSON limit is fine: 200,000 distinct entries, about 2 MB.
awk 'BEGIN { a = "abcdefghijklmnopqrstuvwxyz"; for (i = 0; i < 200000; i++) { n = i; w = "";
  for (k = 0; k < 5; k++) { w = w substr(a, n % 26 + 1, 1); n = int(n / 26) } print w ";" (i % 101) } }' >"$WL_DIR/big.txt"
req POST "/wordlists?name=big" -H 'content-type: text/plain' --data-binary @"$WL_DIR/big.txt"
check_status 201 "a 2 MB list"
check_jq '.entries == 200000 and .by_length == {"5": 200000}' "all of it read"
BIG_ID=$(jq -r .id "$BODY_FILE")

# Fills and word squares by id.
post_json /crosswords/fills '{"pattern": [".....", ".####", ".####", ".####", ".####"], "wordlist": "'"$WL_ID"'"}'
check_status 202 "a fill from an uploaded list"
wait_job "$(header location)" 60
check_jq '.state == "succeeded" and ([.result.across[0].word, .result.down[0].word] | sort) == ["HEART", "HOUSE"]' "filled from the list"
check_jq '.result.quality == {"min_score": 60, "mean_score": 65} and ([.result.across[0].score, .result.down[0].score] | sort) == [60, 70]' "scores and quality reported"
check_jq '.request.wordlist == "'"$WL_ID"'" and (.request | has("words") | not)' "the job stores the id, not the words"
# An inline list is stored once, by the hash of its text: the job names it as `wordlist`.
INLINE='"words": ["heart;70", "house;60", "ember;40"]'
post_json /crosswords/fills '{"pattern": [".....", ".####", ".####", ".####", ".####"], '"$INLINE"'}'
check_status 202 "a fill from an inline list"
check_jq '(.request.wordlist | test("^[0-9a-f]{32}$")) and (.request | has("words") | not)' "the job names the inline list by its hash"
INLINE_ID=$(jq -r .request.wordlist "$BODY_FILE")
wait_job "$(header location)" 60
check_jq '.state == "succeeded" and ([.result.across[0].word, .result.down[0].word] | sort) == ["HEART", "HOUSE"]' "filled from the inline list"
post_json /wordsquares '{"size": 5, "words": ["heart;70", "house;60", "ember;40"]}'
check_jq '.request.wordlist == "'"$INLINE_ID"'"' "the same list sent again is the same stored text"
post_json /crosswords/fills '{"pattern": [".....", ".####", ".####", ".####", ".####"], "words": ["heart", "h0use"]}'
check_problem 422 "words.1.: entry" "a bad inline entry is still named by its index"
post_json /crosswords/fills '{"pattern": [".....", ".####", ".####", ".####", ".####"], "wordlist": "'"$WL_ID"'", "min_score": 65}'
wait_job "$(header location)" 60
check_jq '.state == "succeeded" and .result.rows == null and (.result.reason | test("score >= 65"))' "min_score leaves too few entries"
post_json /crosswords/fills '{"pattern": [".....", ".####", ".####", ".####", ".####"], "wordlist": "'"$WL_ID"'", "min_score": 101}'
check_problem 422 "min_score" "min_score above 100"
post_json /crosswords/fills '{"pattern": [".....", ".####", ".####", ".####", ".####"], "wordlist": "ffffffffffffffffffffffffffffffff"}'
check_problem 422 "no word list" "an unknown list id"
check_jq '.field == "wordlist"' "names the wordlist field"
post_json /wordsquares '{"size": 5, "wordlist": "'"$BIG_ID"'", "min_score": 0, "max_nodes": 1000}'
check_status 202 "word squares from an uploaded list"
wait_job "$(header location)" 60
check_jq '.state == "succeeded" and .request.wordlist == "'"$BIG_ID"'"' "a word square search by list id"

# The block list, and allow_offensive.
post_json /crosswords/fills '{"pattern": ["...", "###", "###"], "words": ["sex;90", "cat;10"], "min_score": 0}'
wait_job "$(header location)" 60
check_jq '.result.across[0].word == "CAT"' "the block list applies to a request's own words"
post_json /crosswords/fills '{"pattern": ["...", "###", "###"], "words": ["sex;90", "cat;10"], "min_score": 0, "allow_offensive": true}'
wait_job "$(header location)" 60
check_jq '.result.across[0].word == "SEX"' "allow_offensive lifts it"

# Fixed letters, a rectangular grid, and where an unfillable grid fails.
post_json /crosswords/fills '{"pattern": ["C..#.....", ".........", ".........", ".....#..T"]}'
wait_job "$(header location)" 60
check_jq '.state == "succeeded" and (.result.rows | length == 4 and all(length == 9)) and (.result.rows[0] | startswith("C")) and (.result.rows[3] | endswith("T"))' "a 4x9 grid keeps its fixed letters"
post_json /crosswords/fills '{"pattern": ["QX.", "...", "..."]}'
wait_job "$(header location)" 60
check_jq '.result.rows == null and (.result.reason | test("1-Across QX\\? has no entry with score >= 50"))' "the slot without candidates is named"

# The largest grids: 31 x 31 (8 x 8 word squares of 3 x 3 between block lines) is filled;
# 32 rows or columns are refused.
G31=$(jq -nc '[range(31) as $r | [range(31) as $c | if ($r % 4 == 3 or $c % 4 == 3) then "#" else "." end] | join("")]')
post_json /crosswords/fills '{"pattern": '"$G31"', "seed": 1}'
wait_job "$(header location)" 120
check_jq '.state == "succeeded" and (.result.rows | length == 31 and all(length == 31)) and (.result.across | length == 192) and ([.result.across[].word, .result.down[].word] | length == (unique | length))' "a 31x31 grid filled, no entry twice"
G32=$(jq -nc '[range(32) as $r | "....#...."]')
post_json /crosswords/fills '{"pattern": '"$G32"'}'
check_problem 422 "32" "32 rows refused"
check_jq '.field == "pattern"' "naming the pattern"
post_json /crosswords/fills '{"pattern": ["'"$(printf '.%.0s' $(seq 32))"'", "...", "..."]}'
check_problem 422 "pattern" "32 columns refused"

# A 21x21 grid filled from the bundled list.
post_json /crosswords/patterns '{"size": 21, "max_len": 11, "count": 1, "seed": 4, "max_three_letter_words": 42}'
wait_job "$(header location)" 120
ROWS21=$(jq -c '.result.patterns[0].rows' "$BODY_FILE")
post_json /crosswords/fills '{"pattern": '"$ROWS21"', "seed": 2}'
wait_job "$(header location)" 120
check_jq '.state == "succeeded" and (.result.rows | length == 21) and .result.quality.min_score >= 50' "a 21x21 grid filled from the bundled list"

# Deleting a list.
req DELETE "/wordlists/$WL_ID"
check_status 204 "delete a list"
req GET "/wordlists/$WL_ID"
check_problem 404 "no word list" "a deleted list is gone"
req DELETE "/wordlists/$WL_ID"
check_problem 404 "no word list" "deleting it again"
post_json /crosswords/fills '{"pattern": [".....", ".####", ".####", ".####", ".####"], "wordlist": "'"$WL_ID"'"}'
check_problem 422 "no word list" "a fill from a deleted list"
req DELETE "/wordlists/$BIG_ID"
rm -rf "$WL_DIR"

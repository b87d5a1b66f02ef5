# Books of other words, letters and shapes: Find the Cat on heart-shaped pages, a palindrome
# on a mask, and the refusals. Sourced by run.sh with BASE, URL and BACKEND set.

# jq: the occurrences of $w on a page (rows of letters, a space where there is no cell), as
# lists of [row, col] (1-based) in reading order; a palindrome is found once. Written apart
# from the server's scan, as a reader would check the book.
OCCURRENCES='def occurrences($w): ($w | length) as $L | ($w | split("") | reverse | join("")) as $rw
  | map(split("")) as $g | ($g | length) as $R | ($g[0] | length) as $C
  | [range(0; $R) as $r | range(0; $C) as $c | ([0,1], [1,0], [1,1], [1,-1]) as [$dr, $dc]
     | select($r + ($L-1)*$dr < $R and $c + ($L-1)*$dc >= 0 and $c + ($L-1)*$dc < $C)
     | [range(0; $L) as $k | [$r + $k*$dr, $c + $k*$dc]] as $cells
     | ($cells | map($g[.[0]][.[1]]) | join("")) as $s
     | if $s == $w then ($cells | map(map(. + 1)))
       elif $s == $rw then ($cells | reverse | map(map(. + 1)))
       else empty end];'

# Every page of a printed word book: the page's shape is the holes given, its letters are
# the book's, and the word is in the book once, where the answer says.
check_word_book() { # SERIAL WORD LETTERS PAGES HOLES_JSON (the rows with "#" for a hole, "." a cell)
  local serial=$1 word=$2 letters=$3 pages=$4 holes=$5 total=0 n found
  req GET "/books/$serial/answer"
  check_status 200 "answer of $serial"
  cp "$BODY_FILE" "$WORK/answer.json"
  check_jq ".word == \"$word\" and (.cells | length) == ${#word} and .cells[0] == [.row, .col]" "the answer names $word and its first letter's cell"
  for n in $(seq 1 "$pages"); do
    req GET "/books/$serial/pages/$n"
    if [ "$(jq --argjson holes "$holes" --arg l "$letters" '.rows | map(split("") | map(if . == " " then "#" elif ($l | contains(.)) then "." else "?" end) | join("")) == $holes' "$BODY_FILE")" != true ]; then
      fail "page $n of $serial: its holes are the shape's, its letters among $letters"
    fi
    found=$(jq --arg w "$word" "$OCCURRENCES"' .rows | occurrences($w) | length' "$BODY_FILE")
    if [ "$found" != 0 ]; then
      if [ "$(jq --arg w "$word" --argjson n "$n" --slurpfile a "$WORK/answer.json" "$OCCURRENCES"' (.rows | occurrences($w)) == [$a[0].cells] and $a[0].page == $n' "$BODY_FILE")" = true ]; then
        pass
      else
        fail "the $word on page $n of $serial is where the answer says"
      fi
    fi
    total=$((total + found))
  done
  if [ "$total" = 1 ]; then pass; else fail "book $serial holds $word exactly once (found $total)"; fi
}

# Find the Cat on heart-shaped pages of C, A, T and S.
post_json /books '{"word": "cat", "letters": "CATS", "shape": "heart", "pages": 5, "rows": 16, "cols": 16}'
check_status 202 "order a CAT book on heart-shaped pages"
CAT=$(jq -r .serial "$BODY_FILE")
check_jq '.word == "CAT" and .letters == "CATS" and .shape == "heart" and .title == "Find the Cat" and .rows == 16' "the order as stored: the word in capitals, the default title from the word"
wait_job "/books/$CAT" 60
check_jq '.state == "succeeded" and (.content_hash | test("^[0-9a-f]{64}$"))' "the CAT book printed"
req GET "/books/$CAT/pages/1"
HEART=$(jq -c '.rows | map(split("") | map(if . == " " then "#" else "." end) | join(""))' "$BODY_FILE")
check_cmd "jq -e '(.[0] | test(\"^#+[.]+#+[.]+#+$\")) and (.[15] | test(\"^#+[.]{1,4}#+$\"))' <<<'$HEART'" "page 1 is a heart: two lobes on top, a point at the bottom"
check_word_book "$CAT" CAT CATS 5 "$HEART"
curl -s "$BASE/books/$CAT/book.pdf" -o "$WORK/cat.pdf"
check_cmd "pdfinfo $WORK/cat.pdf | grep -q '^Title: *Find the Cat '" "the interior's title is Find the Cat"
check_cmd "pdftotext -f 3 -l 3 $WORK/cat.pdf - | tr '\n' ' ' | grep -q 'The word CAT appears exactly once'" "how to play, on page 3, promises one CAT"
check_cmd "! pdffonts $WORK/cat.pdf | tail -n +3 | awk '{print \$(NF-4)}' | grep -qv yes" "every font embedded"
curl -s "$BASE/books/$CAT/answer.pdf" -o "$WORK/cat-answer.pdf"
check_cmd "pdftotext $WORK/cat-answer.pdf - | tr '\n' ' ' | grep -q \"The word CAT is on page \$(jq .printed_page $WORK/answer.json) (puzzle \$(jq .page $WORK/answer.json)), row \$(jq .row $WORK/answer.json)\"" "the answer key names the CAT's page, puzzle and row"
curl -s "$BASE/books/$CAT/cover.pdf" -o "$WORK/cat-cover.pdf"
check_cmd "pdftotext $WORK/cat-cover.pdf - | tr '\n' ' ' | grep -q 'One CAT in 5 pages'" "the cover names the CAT"

# A palindrome on a mask; rows and cols come from the mask.
MASK='["..........", "...####...", "..........", "..#....#..", ".........."]'
post_json /books "{\"word\": \"DAD\", \"shape\": $MASK, \"pages\": 4}"
check_status 202 "order a DAD book on a mask"
DAD=$(jq -r .serial "$BODY_FILE")
check_jq ".rows == 5 and .cols == 10 and .shape == $MASK and .letters == \"DA\"" "the mask's size, the word's own letters"
wait_job "/books/$DAD" 60
check_word_book "$DAD" DAD DA 4 "$MASK"

# Compatibility: FOX asked for by name is the FOX book of today.
post_json /books '{"word": "FOX", "letters": "FOX", "shape": "rectangle", "pages": 2, "rows": 8, "cols": 8}'
check_jq '.word == "FOX" and .letters == "FOX" and .shape == "rectangle" and .title == "Find the Fox" and .generator_version == 2' "FOX by name is an ordinary FOX book"

# Refusals name the member at fault.
for case in \
  'word|{"word": "A"}' \
  'word|{"word": "FOX1"}' \
  'word|{"word": "ABCDEFGHI"}' \
  'letters|{"word": "CAT", "letters": "CAX"}' \
  'letters|{"word": "CAT", "letters": "CATT"}' \
  'letters|{"word": "AA"}' \
  'letters|{"word": "AB", "letters": "ABC"}' \
  'letters|{"word": "CAT", "letters": "ABCDEFGHT"}' \
  'shape|{"shape": "hearts"}' \
  'shape|{"shape": ["...", ".x.", "..."]}' \
  'shape|{"shape": 7}' \
  'shape|{"word": "ELEPHANT", "rows": 5, "cols": 5}' \
  'shape|{"shape": ["...", "..."], "rows": 3, "cols": 3}' \
  'rows|{"word": "CAT", "rows": 65}'; do
  field=${case%%|*}
  post_json /books "${case#*|}"
  check_problem 422 "$field" "refused, naming $field: ${case#*|}"
  check_jq ".field == \"$field\"" "the problem's field is $field: ${case#*|}"
done

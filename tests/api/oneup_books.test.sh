# One Up books: order a book of puzzles at chosen levels and read its PDF back with
# poppler. Sourced by run.sh with BASE, URL and BACKEND set.

ORDER='{"count": 12, "levels": {"easy": 4, "medium": 4, "hard": 2, "expert": 2}, "trim": "6x9", "title": "One Up for the Train", "seed": 7, "clue_symmetry": "rotational"}'
post_json /oneup/books "$ORDER"
check_status 202 "order a One Up book"
book=$(header location)
check_cmd "[[ '$book' =~ ^/oneup/books/[0-9a-f-]{36}$ ]]" "the book's Location"
check_jq '.request.levels == {"easy": 4, "medium": 4, "hard": 2, "expert": 2} and .request.size == 8 and .request.trim == "6x9" and .request.seed == 7' "the request as stored"
check_jq ".links.book_pdf == \"$book/book.pdf\"" "the book links its PDF"
wait_job "$book" 120
check_jq '.state == "succeeded" and .progress.done == 12 and .progress.total == 12' "the book is generated, progress in puzzles"
check_jq '[.result.puzzles[].difficulty.level] == ["easy","easy","easy","easy","medium","medium","medium","medium","hard","hard","expert","expert"]' "puzzles by increasing level, as many of each as ordered"
check_jq 'all(.result.puzzles[]; (.puzzle.json.row_regions | length) == 8 and (.solution | length) == 8)' "8 x 8 puzzles with their solutions"
check_jq 'all(.result.puzzles[]; [.puzzle.json.clues[] | [.row, .col]] as $c | all($c[]; [9 - .[0], 9 - .[1]] as $m | $c | index([$m]) != null))' "every puzzle's clues in mirror pairs"
cp "$BODY_FILE" "$WORK/oneup-book.json"
# The exact solver agrees each has one solution, the book's (the hardest two).
for i in 10 11; do
  post_json /oneup/solves "$(jq -c ".result.puzzles[$i].puzzle.json" "$WORK/oneup-book.json")"
  wait_job "$(header location)" 60
  check_jq ".result.unique == true and .result.solution == $(jq -c ".result.puzzles[$i].solution" "$WORK/oneup-book.json")" "puzzle $((i + 1)): exactly one solution, the book's"
done

# The PDF in the book frame: 6 x 9 in, fonts embedded, title page and copyright page, how
# to play on page 3, one puzzle a page from page 5, numbered with their levels, solutions
# at the back under the same labels, notes pages to 24.
req GET "$book/book.pdf"
check_status 200 "the book's PDF"
check_header content-type "application/pdf" "served as PDF"
cp "$BODY_FILE" "$WORK/oneup-book.pdf"
check_greyscale "$WORK/oneup-book.pdf" "a One Up book (its solutions in greys)"
check_cmd "pdfinfo $WORK/oneup-book.pdf | grep -Eq '^Page size: *432 x 648 pts'" "6 x 9 in pages"
check_cmd "pdfinfo $WORK/oneup-book.pdf | grep -Eq '^Pages: *24$'" "front matter, 12 puzzle pages, 3 solution pages, notes pages to 24"
check_cmd "pdfinfo $WORK/oneup-book.pdf | grep -Eq '^Title: *One Up for the Train - [0-9a-f]{8}$'" "the PDF's title traces the book"
check_cmd "! pdffonts $WORK/oneup-book.pdf | tail -n +3 | awk '{print \$(NF-4)}' | grep -qv yes" "every font embedded"
pdftotext -layout "$WORK/oneup-book.pdf" "$WORK/oneup-book.txt"
check_cmd "pdftotext -f 3 -l 3 $WORK/oneup-book.pdf - | tr '\n' ' ' | grep -q 'How to play.*a region of n cells holds the digits 1 to n once each'" "the full rules on page 3, how to play"
check_cmd "pdftotext -f 3 -l 3 $WORK/oneup-book.pdf - | tr '\n' ' ' | grep -q 'Easy: puzzles 1-4 *Medium: puzzles 5-8 *Hard: puzzles 9-10 *Expert: puzzles 11-12'" "the levels' puzzle numbers under how to play"
check_cmd "[ -z \"\$(pdftotext -f 1 -l 1 $WORK/oneup-book.pdf - | grep -E '[0-9a-f]{8}')\" ] && pdftotext -f 2 -l 2 $WORK/oneup-book.pdf - | grep -Eq 'Book code [0-9a-f]{8}'" "no footer on the title page, the book's code on its back"
check_cmd "[ \"\$(grep -o 'Puzzle [0-9]* - [A-Za-z]*' $WORK/oneup-book.txt | tr '\n' ,)\" = 'Puzzle 1 - Easy,Puzzle 2 - Easy,Puzzle 3 - Easy,Puzzle 4 - Easy,Puzzle 5 - Medium,Puzzle 6 - Medium,Puzzle 7 - Medium,Puzzle 8 - Medium,Puzzle 9 - Hard,Puzzle 10 - Hard,Puzzle 11 - Expert,Puzzle 12 - Expert,' ]" "twelve puzzles numbered in order with their levels"
check_cmd "[ \"\$(pdftotext -f 5 -l 5 $WORK/oneup-book.pdf - | grep -c '^Puzzle ')\" = 1 ]" "one puzzle a page on 6 x 9, the first on page 5 (a right-hand page)"
check_cmd "pdftotext -f 17 -l 17 $WORK/oneup-book.pdf - | head -n 1 | grep -q '^Solutions'" "the solutions start on page 17"
check_cmd "pdftotext -f 17 -l 17 $WORK/oneup-book.pdf - | grep -q '^Puzzle 1\$'" "a solution under its puzzle's label"
check_cmd "pdftotext -f 3 -l 3 $WORK/oneup-book.pdf - | tr '\n' ' ' | grep -q 'Solutions from page 17'" "how to play says where the solutions are"
check_cmd "pdftotext -f 24 -l 24 $WORK/oneup-book.pdf - | head -n 1 | grep -q '^Notes'" "padded with notes pages"
# Puzzle 1's solution is the grid at the top left of the solutions page: its digits read
# back by position (rows of 8, top to bottom, left to right) are the solution's.
pdftotext -f 17 -l 17 -bbox "$WORK/oneup-book.pdf" - | grep '<word' \
  | awk -F'"' '$2 < 216 && $4 < 324 && $9 ~ /^>[0-9]</ {print int($4 + 0.5), $2, substr($9, 2, 1)}' \
  | sort -k1,1n -k2,2n | awk '{row[$1] = row[$1] $3; n[$1]++} END {for (y in row) if (n[y] == 8) print y, row[y]}' \
  | sort -n | cut -d' ' -f2 | tr -d '\n' >"$WORK/oneup-first.txt"
check_cmd "[ \"\$(cat $WORK/oneup-first.txt)\" = '$(jq -r '.result.puzzles[0].solution | join("")' "$WORK/oneup-book.json")' ]" "puzzle 1's solution printed at the back"
# Its cover: a wrap of back, spine (24 cream pages: 0.06 in) and front with 0.125 in bleed.
check_cmd "[ \"\$(jq -r .links.cover_pdf $WORK/oneup-book.json)\" = '$book/cover.pdf' ]" "the book links its cover"
req GET "$book/cover.pdf?paper=cream"
check_status 200 "the book's cover"
cp "$BODY_FILE" "$WORK/oneup-cover.pdf"
check_cmd "pdfinfo $WORK/oneup-cover.pdf | grep -Eq '^Page size: *886.32 x 666 pts'" "6 x 9 in twice, the spine and the bleed"
check_cmd "pdftotext $WORK/oneup-cover.pdf - | tr '\n' ' ' | grep -q 'One Up for the Train.*12 One Up puzzles'" "the cover's title and what is inside"
check_cmd "! pdffonts $WORK/oneup-cover.pdf | tail -n +3 | awk '{print \$(NF-4)}' | grep -qv yes" "every cover font embedded"
check_cover_art "$book/cover.pdf" '[1-9]' "a One Up book's cover (its hardest puzzle)"

# The same request and seed give the same puzzles.
post_json /oneup/books "$ORDER"
wait_job "$(header location)" 120
check_jq "[.result.puzzles[].puzzle.text] == $(jq -c '[.result.puzzles[].puzzle.text]' "$WORK/oneup-book.json")" "the same seed, the same book"

# Letter: four puzzles a page; without levels, the count spreads evenly, easiest first.
post_json /oneup/books '{"count": 6, "size": 6, "seed": 3}'
check_status 202 "a book of 6 puzzles without levels"
check_jq '.request.levels == {"easy": 2, "medium": 2, "hard": 1, "expert": 1} and .request.title == "One Up" and .request.trim == "letter"' "6 spread as 2, 2, 1, 1; default title and trim"
small=$(header location)
wait_job "$small" 120
check_jq '[.result.puzzles[].difficulty.level] == ["easy","easy","medium","medium","hard","expert"] and (.result.puzzles[0].solution | length) == 6' "6 x 6 puzzles at the spread levels"
req GET "$small/book.pdf"
cp "$BODY_FILE" "$WORK/oneup-small.pdf"
check_cmd "pdfinfo $WORK/oneup-small.pdf | grep -Eq '^Page size: *612 x 792 pts'" "letter pages"
check_cmd "[ \"\$(pdftotext -f 5 -l 5 $WORK/oneup-small.pdf - | grep -c '^Puzzle ')\" = 4 ]" "four puzzles a page on letter"

# An empty body: 100 puzzles, 25 of each level (seconds of work), cancelled at once.
req POST /oneup/books
check_status 202 "an order without a body"
check_jq '.request.levels == {"easy": 25, "medium": 25, "hard": 25, "expert": 25} and .request.size == 8' "100 puzzles of 8 x 8, 25 a level"
big=$(header location)
req DELETE "$(jq -r .links.job "$BODY_FILE")"
wait_job "$big" 30
check_jq '.state == "cancelled" and .result == null' "a cancelled book stops without a result"
req GET "$big/book.pdf"
check_problem 409 "cancelled" "a cancelled book has no PDF"

# Refusals, each naming its field.
post_json /oneup/books '{"count": 0}'
check_problem 422 "count" "no puzzles"
post_json /oneup/books '{"count": 501}'
check_problem 422 "count" "more than 500 puzzles"
post_json /oneup/books '{"levels": {"easy": 400, "hard": 200}}'
check_problem 422 "levels" "levels adding up to more than 500"
post_json /oneup/books '{"levels": {}}'
check_problem 422 "levels" "levels adding up to nothing"
post_json /oneup/books '{"count": 10, "levels": {"easy": 4, "medium": 4}}'
check_problem 422 "add up to 8, but count is 10" "levels disagreeing with count"
post_json /oneup/books '{"levels": {"legendary": 3}}'
check_problem 422 "legendary" "an unknown level"
post_json /oneup/books '{"levels": {"easy": -1}}'
check_problem 422 "levels" "a negative count"
post_json /oneup/books '{"size": 5, "levels": {"easy": 2, "hard": 2}}'
check_problem 422 "too small for hard puzzles.*size 6 or more" "hard puzzles on 5 x 5"
check_jq '.field == "levels.hard"' "the field is the level"
post_json /oneup/books '{"size": 6, "levels": {"easy": 10, "hard": 100}}'
check_problem 422 "about 125 s to generate .hard 6 x 6 puzzles come at about 0.8 a second.*at most 60 s" "a book that would take minutes"
check_jq '.field == "levels"' "the field is levels"
post_json /oneup/books '{"size": 10}'
check_problem 422 "size" "a size above 9"
post_json /oneup/books "{\"title\": \"$(printf 'x%.0s' {1..61})\"}"
check_problem 422 "title" "a 61-character title"
post_json /oneup/books '{"trim": "napkin"}'
check_problem 422 "trim" "an unknown trim"
post_json /oneup/books '{"count": 4, "colour": "red"}'
check_problem 422 "colour" "an unknown member"
post_json /oneup/puzzles '{"size": 4, "level": "medium"}'
check_problem 422 "too small for medium puzzles" "a medium 4 x 4 puzzle is refused at once"
check_jq '.field == "level"' "the field is level"

# Another kind's id is no book.
post_json /oneup/puzzles '{"size": 5, "seed": 1}'
puzzle_id=$(jq -r .id "$BODY_FILE")
req GET "/oneup/books/$puzzle_id"
check_problem 404 "no One Up book" "a puzzle's id is not a book's"
req GET "/oneup/books/$puzzle_id/book.pdf"
check_problem 404 "no One Up book" "nor has it a book PDF"

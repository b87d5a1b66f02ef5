# Print runs: many copies, each its own book; the manifest agrees with every book's
# answer; the archive's files are byte-identical to the single downloads.

PR_DIR=$(mktemp -d)
post_json /printruns '{"copies": 4, "pages": 24, "rows": 16, "cols": 12, "trim": "6x9", "title": "Run Fox", "lookup_url": "https://example.com/fox", "paper": "cream"}' -H 'Idempotency-Key: run-1'
check_status 202 "order a print run"
check_header location '^/printruns/[0-9a-f-]{36}$' "its Location is /printruns/{id}"
RUN=$(header location)
check_jq '.copies == 4 and .pages == 24 and .rows == 16 and .cols == 12 and .trim == "6x9" and .title == "Run Fox" and .lookup_url == "https://example.com/fox" and .paper == "cream" and (.state | IN("queued", "running", "succeeded"))' "the run as ordered"
check_jq '.links.manifest_csv == "'"$RUN"'/manifest.csv" and .links.archive == "'"$RUN"'/archive.zip"' "links to the manifest and the archive"
post_json /printruns '{"copies": 4, "pages": 24, "rows": 16, "cols": 12, "trim": "6x9", "title": "Run Fox", "lookup_url": "https://example.com/fox", "paper": "cream"}' -H 'Idempotency-Key: run-1'
check_jq '.links.self == "'"$RUN"'"' "a retried order with the same key is the same run"
post_json /printruns '{"copies": 5, "pages": 24, "rows": 16, "cols": 12}' -H 'Idempotency-Key: run-1'
check_problem 422 "Idempotency-Key" "the key again with another order"

wait_job "$RUN" 60
check_jq '.state == "succeeded" and .done == 4 and .failed == 0 and ([.books[].copy] == [1, 2, 3, 4]) and ([.books[].serial] | unique | length == 4) and all(.books[]; .state == "succeeded")' "four copies, four different books"
SERIALS=$(jq -r '.books[].serial' "$BODY_FILE")

req GET "$RUN/manifest.csv"
check_status 200 "the manifest as CSV"
check_header content-type '^text/csv' "CSV content type"
cp "$BODY_FILE" "$PR_DIR/manifest.csv"
check_cmd "[ \"\$(head -1 $PR_DIR/manifest.csv)\" = 'serial,puzzle_pages,interior_pages,trim,word,page,row,col,direction,interior_sha256' ] && [ \$(wc -l <$PR_DIR/manifest.csv) -eq 5 ]" "a header and a line per copy"
req GET "$RUN/manifest.json"
cp "$BODY_FILE" "$PR_DIR/manifest.json"
check_jq '(.copies | length) == 4 and ([.copies[].serial] | join(" ")) == "'"$(echo $SERIALS)"'"' "the JSON manifest lists the copies in order"
check_jq 'all(.copies[]; .puzzle_pages == 24 and .interior_pages == 28 and (has("pages") | not))' "the JSON manifest counts puzzle pages and interior pages"
req GET "$RUN/archive.zip"
check_status 200 "the archive"
check_header content-type '^application/zip' "ZIP content type"
cp "$BODY_FILE" "$PR_DIR/run.zip"
check_cmd "unzip -tq $PR_DIR/run.zip" "the archive is a valid ZIP"
check_cmd "cmp <(unzip -p $PR_DIR/run.zip manifest.csv) $PR_DIR/manifest.csv" "the archive's manifest is the manifest"
for S in $SERIALS; do
  req GET "/books/$S/answer"
  ANSWER=$(cat "$BODY_FILE")
  check_cmd "grep -q \"^$S,24,28,6x9,FOX,\$(jq -r '[.page, .row, .col, .direction] | join(\",\")' <<<'$ANSWER'),\" $PR_DIR/manifest.csv" "manifest line of $S agrees with its answer"
  curl -s "$BASE/books/$S/book.pdf" -o "$PR_DIR/book.pdf"
  check_cmd "cmp $PR_DIR/book.pdf <(unzip -p $PR_DIR/run.zip $S/interior.pdf)" "$S's interior in the archive is its book.pdf"
  check_cmd "grep -q \",\$(sha256sum <$PR_DIR/book.pdf | cut -d' ' -f1)\$\" <(grep ^$S $PR_DIR/manifest.csv)" "$S's interior hash in the manifest"
  check_cmd "[ \"\$(grep ^$S $PR_DIR/manifest.csv | cut -d, -f3)\" = \"\$(pdfinfo $PR_DIR/book.pdf | sed -n 's/^Pages: *//p')\" ]" "$S's interior_pages is its PDF's page count"
  req GET "/books/$S"
  check_jq '.trim == "6x9" and .title == "Run Fox" and .lookup_url == "https://example.com/fox"' "$S is printed as the run was ordered"
  curl -s "$BASE/books/$S/cover.pdf?paper=cream" -o "$PR_DIR/cover.pdf"
  check_cmd "cmp $PR_DIR/cover.pdf <(unzip -p $PR_DIR/run.zip $S/cover.pdf)" "$S's cover in the archive is its cream cover.pdf"
  curl -s "$BASE/books/$S/cover.pdf" -o "$PR_DIR/cover-default.pdf"
  check_cmd "cmp $PR_DIR/cover-default.pdf $PR_DIR/cover.pdf" "$S's cover.pdf without ?paper is on its run's cream paper"
  curl -s "$BASE/books/$S/cover.pdf?paper=white" -o "$PR_DIR/cover-white.pdf"
  check_cmd "! cmp -s $PR_DIR/cover-white.pdf $PR_DIR/cover.pdf" "$S's cover.pdf?paper=white is another spine"
  curl -s "$BASE/books/$S/answer.pdf" -o "$PR_DIR/answer.pdf"
  check_cmd "cmp $PR_DIR/answer.pdf <(unzip -p $PR_DIR/run.zip $S/answer.pdf)" "$S's answer key in the archive is its answer.pdf"
done

# A run of Owls on round pages: every copy carries the word, letters and shape.
post_json /printruns '{"copies": 2, "word": "owl", "shape": "circle", "pages": 24, "rows": 14, "cols": 14}'
check_status 202 "order a print run of another word"
OWLS=$(header location)
check_jq '.word == "OWL" and .letters == "OWL" and .shape == "circle" and .title == "Find the Owl"' "the run's word, letters, shape and default title"
wait_job "$OWLS" 60
req GET "$OWLS/manifest.csv"
check_cmd "[ \$(grep -c '^[0-9A-Z]*,24,28,letter,OWL,' $BODY_FILE) -eq 2 ]" "every manifest line names OWL"
OWL=$(tail -1 "$BODY_FILE" | cut -d, -f1)
req GET "/books/$OWL"
check_jq '.word == "OWL" and .shape == "circle" and .title == "Find the Owl" and .generator_version >= 1' "each copy is an OWL book on round pages"
post_json /printruns '{"copies": 2, "word": "OWL", "letters": "OW"}'
check_problem 422 "letters" "letters without the word's L are refused"

# A run still printing: 409 with Retry-After for its manifest and archive.
post_json /printruns '{"copies": 40, "pages": 400}'
BUSY=$(header location)
req GET "$BUSY/archive.zip"
check_problem 409 "printing" "the archive of a run still printing"
check_header retry-after '^[0-9]+$' "with Retry-After"
req GET "$BUSY/manifest.csv"
check_problem 409 "printing" "the manifest of a run still printing"

# Refusals.
post_json /printruns '{"copies": 0}'
check_problem 422 "copies" "no copies"
post_json /printruns '{"copies": 10001}'
check_problem 422 "copies" "more than 10,000 copies"
post_json /printruns '{"copies": 2, "paper": "glossy"}'
check_problem 422 "paper" "an unknown paper"
post_json /printruns '{"copies": 2, "pages": 5000}'
check_problem 422 "pages" "a book shape out of range"
post_json /printruns '{"copies": 2, "trim": "b5"}'
check_problem 422 "trim" "an unknown trim"
post_json /printruns '{"copies": 2, "rows": 64, "cols": 64, "trim": "a5"}'
check_problem 422 "trim" "letters too small on the trim"
post_json /printruns '{"copies": 2, "title": ""}'
check_problem 422 "title" "an empty title"
post_json /printruns '{"copies": 2, "colour": "red"}'
check_problem 422 "colour" "an unknown member"
req GET /printruns/00000000-0000-0000-0000-000000000000
check_problem 404 "no print run" "an unknown run"
req GET "$RUN?cursor=abc"
check_problem 422 "cursor" "a cursor that is not a copy number"
wait_job "$BUSY" 120
rm -rf "$PR_DIR"

# The imprint: author, copyright line and ISBN on the title page, its back and the cover;
# stored with the book, carried by every copy of a print run, refused with the field named.
# Sourced by run.sh with BASE, URL and BACKEND set; needs poppler-utils (pdftotext,
# pdffonts, pdfinfo, pdftoppm); reads the barcode back with zbarimg (zbar-tools) when
# installed.

IMP_DIR=$(mktemp -d)

# The text of pages FIRST..LAST of the PDF in BODY_FILE, one line (spaces squeezed).
pdf_text() { pdftotext -f "$1" -l "$2" -layout "$BODY_FILE" - 2>/dev/null | tr -s ' \n' ' '; }

check_text() { # FIRST LAST NEEDLE DESCRIPTION — the pages' text holds NEEDLE
  local text
  text=$(pdf_text "$1" "$2")
  if [[ $text == *"$3"* ]]; then pass; else fail "$4: '$3' not in '$(head -c 400 <<<"$text")'"; fi
}

check_no_text() { # FIRST LAST NEEDLE DESCRIPTION
  local text
  text=$(pdf_text "$1" "$2")
  if [[ $text != *"$3"* ]]; then pass; else fail "$4: '$3' is in the text"; fi
}

imprint_fonts() { # DESCRIPTION
  local fonts
  fonts=$(pdffonts "$BODY_FILE" 2>/dev/null | tail -n +3)
  if [ -n "$fonts" ] && ! echo "$fonts" | grep -vq ' yes yes yes '; then pass; else fail "$1: fonts not all embedded: $fonts"; fi
}

# The EAN-13 read from the cover in BODY_FILE, or a note that zbarimg is missing.
check_barcode() { # DIGITS DESCRIPTION
  if ! command -v zbarimg >/dev/null; then
    echo "skipped [$BACKEND] $2: zbarimg is not installed (apt-get install -y zbar-tools)" >&2
    return
  fi
  pdftoppm -r 300 -png -singlefile "$BODY_FILE" "$IMP_DIR/cover"
  local read
  read=$(zbarimg --quiet --raw -Sdisable -Sean13.enable "$IMP_DIR/cover.png" 2>/dev/null)
  if [ "$read" = "$1" ]; then pass; else fail "$2: zbarimg read '$read', expected $1"; fi
}

# A book with all three: shown, and printed where books print them.
post_json /books '{"pages": 3, "rows": 8, "cols": 8, "trim": "6x9", "title": "Fox Hunt", "author": " Ada Fox ", "copyright": "© 2026 Example Press", "isbn": "978-0-306-40615-7"}'
check_status 202 "order a book with an imprint"
check_jq '.author == "Ada Fox" and .copyright == "© 2026 Example Press" and .isbn == "9780306406157"' "the order shows the imprint, trimmed and the ISBN normalised"
serial=$(jq -r .serial "$BODY_FILE")
wait_job "$(jq -r .job "$BODY_FILE")"
req GET "/books/$serial"
check_jq '.state == "succeeded" and .author == "Ada Fox" and .copyright == "© 2026 Example Press" and .isbn == "9780306406157"' "GET /books/{serial} shows the imprint"
req GET "/books/$serial/book.pdf"
check_status 200 "the interior with an imprint"
check_text 1 1 "Fox Hunt 3 pages of 8 x 8 letters Ada Fox" "the title page names what the pages are and the author under the title"
check_text 2 2 "2026 Example Press" "the title page's back prints the copyright line"
check_text 2 2 "ISBN 9780306406157" "the title page's back prints the ISBN"
check_no_text 3 24 "Ada Fox" "the puzzle pages carry no imprint"
if [ "$(pdfinfo "$BODY_FILE" | sed -n 's/^Pages: *//p')" = 24 ]; then pass; else fail "the imprint adds no page"; fi
imprint_fonts "interior with an imprint"
cp "$BODY_FILE" "$IMP_DIR/with.pdf"
req GET "/books/$serial/cover.pdf"
check_status 200 "the cover with an imprint"
check_text 1 1 "Ada Fox" "the front cover names the author"
check_text 1 1 "ISBN 9780306406157" "the back cover prints the ISBN over its barcode"
check_text 1 1 "9 780306 406157" "the barcode's digits are printed under it"
imprint_fonts "cover with an imprint"
check_barcode 9780306406157 "the back cover's barcode reads as the ISBN"

# The same book without an imprint: nothing of it is printed.
post_json /books '{"pages": 3, "rows": 8, "cols": 8, "trim": "6x9", "title": "Fox Hunt"}'
check_jq '.author == null and .copyright == null and .isbn == null' "a book ordered without an imprint has none"
plain=$(jq -r .serial "$BODY_FILE")
wait_job "$(jq -r .job "$BODY_FILE")"
req GET "/books/$plain/book.pdf"
check_no_text 1 2 "ISBN" "no ISBN on a book without one"
check_no_text 1 2 "Example Press" "no copyright line on a book without one"
req GET "/books/$plain/cover.pdf"
check_no_text 1 1 "ISBN" "no barcode on the cover of a book without an ISBN"

# An ISBN-10 is stored as given (normalised) and barcoded as its ISBN-13; empty fields are none.
post_json /books '{"pages": 2, "rows": 6, "cols": 6, "isbn": "0-306-40615-2", "author": "", "copyright": "  "}'
check_status 202 "order with an ISBN-10"
check_jq '.isbn == "0306406152" and .author == null and .copyright == null' "an ISBN-10 is normalised; empty fields read as none"
ten=$(jq -r .serial "$BODY_FILE")
wait_job "$(jq -r .job "$BODY_FILE")"
req GET "/books/$ten/cover.pdf"
check_text 1 1 "ISBN 0306406152" "the cover prints the ISBN-10"
check_text 1 1 "9 780306 406157" "its barcode is the ISBN-13"
check_barcode 9780306406157 "an ISBN-10's barcode reads as its ISBN-13"

# Refused: each names its field and says why.
post_json /books '{"isbn": "978-0-306-40615-8"}'
check_problem 422 "check digit should be 7" "an ISBN with a wrong check digit"
check_jq '.field == "isbn"' "the refusal names isbn"
post_json /books '{"isbn": "12345"}'
check_problem 422 "10 or 13 digits" "an ISBN too short"
check_jq '.field == "isbn"' "the short ISBN's refusal names isbn"
post_json /books '{"isbn": "977-0-306-40615-7"}'
check_problem 422 "978 or 979" "a 13-digit number that is no ISBN"
post_json /books '{"author": "Jürgen Fuchs"}'
check_problem 422 "printable ASCII" "an author the fonts cannot print"
check_jq '.field == "author"' "the refusal names author"
post_json /books "{\"copyright\": \"$(printf 'x%.0s' $(seq 121))\"}"
check_problem 422 "at most 120" "a copyright line too long"
check_jq '.field == "copyright"' "the refusal names copyright"
post_json /books "{\"author\": \"$(printf 'x%.0s' $(seq 101))\"}"
check_problem 422 "at most 100" "an author too long"
post_json /printruns '{"copies": 2, "isbn": "0-306-40615-3"}'
check_problem 422 "check digit should be 2" "a print run with a wrong ISBN-10"
check_jq '.field == "isbn"' "the run's refusal names isbn"

# A print run: every copy carries the imprint, and the run shows it.
post_json /printruns '{"copies": 2, "pages": 3, "rows": 8, "cols": 8, "author": "Ada Fox", "copyright": "(c) 2026 Example Press", "isbn": "9780306406157"}'
check_status 202 "a print run with an imprint"
check_jq '.author == "Ada Fox" and .copyright == "(c) 2026 Example Press" and .isbn == "9780306406157"' "the run shows its imprint"
imp_run=$(jq -r .links.self "$BODY_FILE")
for _ in $(seq 1 600); do
  req GET "$imp_run"
  [ "$(jq -r .state "$BODY_FILE")" = succeeded ] && break
  sleep 0.1
done
check_jq '.state == "succeeded"' "the run is printed"
for s in $(jq -r '.books[].serial' "$BODY_FILE"); do
  req GET "/books/$s"
  check_jq '.author == "Ada Fox" and .copyright == "(c) 2026 Example Press" and .isbn == "9780306406157"' "copy $s carries the imprint"
  req GET "/books/$s/book.pdf"
  check_text 2 2 "(c) 2026 Example Press" "copy $s prints the copyright line"
done
req GET "$imp_run/archive.zip"
cp "$BODY_FILE" "$IMP_DIR/run.zip"
for f in $(unzip -Z1 "$IMP_DIR/run.zip" '*/cover.pdf'); do
  unzip -p "$IMP_DIR/run.zip" "$f" >"$BODY_FILE"
  check_text 1 1 "ISBN 9780306406157" "$f in the archive prints the ISBN"
done

# A One Up book names its author on its title page and prints the copyright line and ISBN
# on the copyright page, its back.
post_json /oneup/books '{"count": 2, "levels": {"easy": 2}, "size": 5, "seed": 3, "trim": "6x9", "title": "Train Puzzles", "author": "Ada Fox", "copyright": "© 2026 Example Press", "isbn": "0-306-40615-2"}'
check_status 202 "a One Up book with an imprint"
check_jq '.request.author == "Ada Fox" and .request.isbn == "0306406152"' "the One Up book's request keeps the imprint, normalised"
oneup_imp=$(header location)
wait_job "$oneup_imp" 60
req GET "$oneup_imp/book.pdf"
check_text 1 1 "Train Puzzles 2 One Up puzzles Ada Fox" "the One Up title page names the author"
check_text 2 2 "2026 Example Press ISBN 0306406152" "the One Up copyright page ends with the copyright line and ISBN"
imprint_fonts "One Up book with an imprint"
post_json /oneup/books '{"count": 2, "isbn": "0-306-40615-3"}'
check_problem 422 "check digit should be 2" "a One Up book with a wrong ISBN"
check_jq '.field == "isbn"' "the One Up refusal names isbn"

# The pages as printed, for a person to look at (target/screenshots when run from the repo).
if [ -d target ]; then
  mkdir -p target/screenshots
  pdftoppm -r 70 -png -f 1 -l 2 "$IMP_DIR/with.pdf" "target/screenshots/imprint-$BACKEND-interior" 2>/dev/null
  req GET "/books/$serial/cover.pdf"
  pdftoppm -r 70 -png -singlefile "$BODY_FILE" "target/screenshots/imprint-$BACKEND-cover" 2>/dev/null
fi
rm -rf "$IMP_DIR"

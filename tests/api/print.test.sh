# Print-ready PDFs: trims, embedded fonts, covers. Sourced by run.sh with BASE, URL and
# BACKEND set; needs poppler-utils (pdfinfo, pdffonts).

# Every font of the PDF in BODY_FILE is embedded and subset.
check_fonts() { # DESCRIPTION
  local fonts
  fonts=$(pdffonts "$BODY_FILE" 2>/dev/null | tail -n +3)
  if [ -n "$fonts" ] && ! echo "$fonts" | grep -vq ' yes yes yes '; then pass; else fail "$1: fonts not all embedded and subset: $fonts"; fi
}

# The first page's size in points of the PDF in BODY_FILE is W x H.
check_size() { # W H DESCRIPTION
  local size
  size=$(pdfinfo "$BODY_FILE" 2>/dev/null | sed -n 's/^Page size: *\([0-9.]*\) x \([0-9.]*\) pts.*/\1 \2/p')
  if [ "$size" = "$1 $2" ]; then pass; else fail "$3: page size '$size', expected '$1 $2'"; fi
}

# A box of the first page (MediaBox, TrimBox, BleedBox) as "x0 y0 x1 y1".
pdf_box() { pdfinfo -box "$BODY_FILE" | sed -n "s/^$1: *//p" | tr -s ' '; }

# A book on 6x9 with its own title and lookup address.
post_json /books '{"pages": 30, "rows": 12, "cols": 10, "trim": "6x9", "title": "Fox Hunt", "lookup_url": "https://example.com/find"}'
check_status 202 "order a 6x9 book"
check_jq '.trim == "6x9" and .title == "Fox Hunt" and .lookup_url == "https://example.com/find" and (.links.cover_pdf | endswith("/cover.pdf"))' "the order's print options are shown"
serial=$(jq -r .serial "$BODY_FILE")
wait_job "$(jq -r .job "$BODY_FILE")"
req GET "/books/$serial/book.pdf"
check_status 200 "6x9 interior"
check_size 432 648 "6x9 interior"
if [ "$(pdfinfo "$BODY_FILE" | sed -n 's/^Pages: *//p')" = 34 ]; then pass; else fail "30 puzzles + title page, how to play and their backs: 34 pages"; fi
if [ "$(pdf_box TrimBox)" = "$(pdf_box MediaBox)" ]; then pass; else fail "interior TrimBox = MediaBox"; fi
if pdfinfo "$BODY_FILE" | grep -q '^Title: *Fox Hunt '; then pass; else fail "the interior's title"; fi
check_fonts "6x9 interior"
req GET "/books/$serial/answer.pdf"
check_size 432 648 "6x9 answer key"
check_fonts "answer key"

# The cover: 2 x trim width + spine (34 pages x paper thickness) + 2 x 0.125 in bleed.
for paper in white cream; do
  case $paper in white) per=0.002252 ;; cream) per=0.0025 ;; esac
  req GET "/books/$serial/cover.pdf?paper=$paper"
  check_status 200 "$paper cover"
  want=$(awk -v p="$per" 'BEGIN { printf "%.4f", 2*432 + 34*p*72 + 18 }')
  got=$(pdfinfo "$BODY_FILE" | sed -n 's/^Page size: *\([0-9.]*\) x \([0-9.]*\) pts.*/\1 \2/p')
  if echo "$got" | awk -v w="$want" '{ d = $1 - w; exit !(d < 0.01 && d > -0.01 && $2 == 666) }'; then pass; else fail "$paper cover is $got, expected $want x 666"; fi
  if [ "$(pdf_box TrimBox)" = "9.00 9.00 $(echo "$got" | awk '{printf "%.2f", $1 - 9}') 657.00" ] && [ "$(pdf_box BleedBox)" = "$(pdf_box MediaBox)" ]; then pass; else fail "$paper cover boxes: trim $(pdf_box TrimBox), bleed $(pdf_box BleedBox)"; fi
  check_fonts "$paper cover"
done
req GET "/books/$serial/cover.pdf?paper=blue"
check_problem 422 "paper" "a paper that is not white or cream"

# A custom trim; the defaults.
post_json /books '{"pages": 2, "rows": 5, "cols": 5, "trim": {"width_in": 5, "height_in": 8}}'
check_status 202 "order a custom trim"
check_jq '.trim == {"width_in": 5, "height_in": 8} and .title == "Find the Fox" and (.lookup_url | startswith("http"))' "custom trim, default title and lookup address"
wait_job "$(jq -r .job "$BODY_FILE")"
req GET "/books/$(jq -r .result.serial "$BODY_FILE")/book.pdf"
check_size 360 576 "custom trim interior"
if [ "$(pdfinfo "$BODY_FILE" | sed -n 's/^Pages: *//p')" = 24 ]; then pass; else fail "a 2-page book pads to 24 pages"; fi

# Refused orders.
post_json /books '{"trim": "b5"}'
check_problem 422 "trim" "an unknown trim"
post_json /books '{"trim": {"width_in": 3, "height_in": 8}}'
check_problem 422 "trim" "a custom trim too narrow"
post_json /books '{"pages": 10, "rows": 64, "cols": 64, "trim": "5.5x8.5"}'
check_problem 422 "7 pt.*fits" "letters too small for the trim"
check_jq '.field == "trim" and (.detail | test("trim letter"))' "the refusal names the trims that fit"
post_json /books '{"title": "Füchse"}'
check_problem 422 "title" "a title the fonts cannot print"
post_json /books '{"lookup_url": "ftp://example.com"}'
check_problem 422 "lookup_url" "a lookup address that is not http(s)"

# One Up and crossword PDFs on any trim, with their id in the title.
post_json /oneup/puzzles '{"size": 6, "seed": 7}'
puzzle=$(header location)
wait_job "$(jq -r .links.self "$BODY_FILE")"
id=$(basename "$puzzle")
req GET "$puzzle/solution.pdf?trim=a5"
check_status 200 "One Up solution on a5"
check_size 419.528 595.276 "One Up on a5"
check_fonts "One Up solution"
if pdfinfo "$BODY_FILE" | grep -q "^Title: *One Up ${id:0:8} - solution\$"; then pass; else fail "One Up title names its id and 'solution' once: $(pdfinfo "$BODY_FILE" | grep ^Title)"; fi
req GET "$puzzle/puzzle.pdf?trim=huge"
check_problem 422 "trim" "a One Up PDF on an unknown trim"
post_json /crosswords/fills '{"pattern": [".....", ".#.#.", ".....", ".#.#.", "....."]}'
fill=$(header location)
wait_job "$(jq -r .links.self "$BODY_FILE")"
req GET "$fill/grid.pdf?trim=6x9"
check_size 432 648 "crossword grid on 6x9"
check_fonts "crossword grid"
if pdfinfo "$BODY_FILE" | grep -q "^Title: *Crossword $(basename "$fill" | cut -c1-8)\$"; then pass; else fail "crossword title names its id"; fi

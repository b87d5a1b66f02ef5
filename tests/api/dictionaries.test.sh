# Dictionaries: POST /dictionaries as JSON and as text lines, refusals naming the line,
# field or entry, the job and its report, the PDF read back (and the same bytes as the
# offline `puzzlepress dictionary`); then, on a database of its own with keys (the service
# closed), the tiers' limits, owners and delete. Sourced by run.sh with BASE, URL, WORK,
# PG and BACKEND set.

cat >"$WORK/dict.txt" <<'EOF'
zephyr;n.;a soft gentle breeze
abandon;v.;to give up completely;n.;freedom from restraint
Éclair;n.;a small pastry filled with cream
bass;n.;a common fish
bass;n.;the lowest part in music
mnemonic;adj.;helping the memory
EOF

req POST "/dictionaries?title=Small%20Words&author=A.%20Compiler&heads=both" \
  -H 'content-type: text/plain; charset=utf-8' --data-binary @"$WORK/dict.txt"
check_status 202 "queue a dictionary from text lines"
check_header location '^/dictionaries/[0-9a-f-]{36}$' "its Location"
check_jq '.request.title == "Small Words" and .request.heads == "both" and .request.trim == "5.25x8" and (.request.entries | length) == 6 and .request.entries[1].senses[1].pos == "n."' "the request as stored: query members and the lines as entries"
DICT=$(header location)
wait_job "$DICT" 60
check_jq '.state == "succeeded" and .progress.done == 6 and .progress.total == 6' "set, progress all entries"
check_jq '.result.entries == 6 and .result.pages >= 4 and .result.overfull == 0 and (.result.lines | type == "number") and (.result | has("underfull") and has("hyphens"))' "the report: entries, pages, no overfull line"
check_jq ".links.book_pdf == \"$DICT/book.pdf\"" "links to its PDF"
curl -s "$BASE$DICT/book.pdf" -o "$WORK/dict.pdf"
check_cmd "pdfinfo $WORK/dict.pdf | grep -q '^Page size: *378 x 576 pts'" "5.25 x 8 in pages"
check_cmd "pdftotext $WORK/dict.pdf - | tr '\n' ' ' | grep -q 'Small Words'" "the title printed"
check_cmd "pdftotext $WORK/dict.pdf - | grep -o 'abandon\\|bass\\|Éclair\\|mnemonic\\|zephyr' | LC_ALL=C sort | uniq -c | tr -s ' \\n' ' ' | grep -q '^ 2 abandon 2 bass 1 mnemonic 2 zephyr 1 Éclair \$'" "every entry printed once (first and last also as guide words)"
check_cmd "pdftotext -layout $WORK/dict.pdf - | grep -Eq 'abandon +zephyr\$'" "the guide words: the first and last headword on the page"
check_cmd "pdftotext -layout $WORK/dict.pdf - | grep -q 'bass² n. the lowest part'" "homographs numbered"
check_cmd "! pdffonts $WORK/dict.pdf | tail -n +3 | awk '{print \$(NF-4)}' | grep -qv yes" "every font embedded"
"$BIN" dictionary --entries "$WORK/dict.txt" --out "$WORK/dict-cli.pdf" --title 'Small Words' --author 'A. Compiler' --both-heads >/dev/null
check_cmd "cmp $WORK/dict.pdf $WORK/dict-cli.pdf" "the server's PDF is the offline command's, byte for byte"
curl -s "$BASE$DICT/book.pdf" -o "$WORK/dict2.pdf"
check_cmd "cmp $WORK/dict.pdf $WORK/dict2.pdf" "the PDF is the same bytes every time"

# The PDF is the one its job set, kept with it: downloads read it and set nothing (the
# server's count of PDFs rendered for downloads stands still).
renders() { curl -s "$BASE/metrics" | awk '$1 == "puzzlepress_renders_total" {print $2}'; }
RENDERS=$(renders)
for _ in $(seq 1 20); do curl -s "$BASE$DICT/book.pdf" -o "$WORK/dict3.pdf"; done
check_cmd "[ -n '$RENDERS' ] && [ '$(renders)' = '$RENDERS' ] && cmp $WORK/dict.pdf $WORK/dict3.pdf" \
  "20 downloads of a dictionary render nothing (renders $RENDERS, then $(renders))"
# One set before PDFs were kept (its file gone) is set once, then answered from the cache.
sql() { # SQL [DATABASE_URL]
  local url=${2:-$URL}
  case $BACKEND in
    sqlite) sqlite3 "${url#sqlite://}" "$1" ;;
    postgres) psql "$url" -qtA -c "$1" ;;
  esac
}
sql "DELETE FROM files WHERE job_id = '${DICT##*/}'"
RENDERS=$(renders)
for _ in $(seq 1 5); do curl -s "$BASE$DICT/book.pdf" -o "$WORK/dict4.pdf"; done
check_cmd "[ '$(renders)' = $((RENDERS + 1)) ] && cmp $WORK/dict.pdf $WORK/dict4.pdf" \
  "a dictionary without its PDF kept is set once for 5 downloads, the same bytes (renders $RENDERS, then $(renders))"

# JSON, with a preface and a trim.
post_json /dictionaries '{"title": "Glossary", "author": "Me", "preface": ["Words the puzzles use."], "trim": "6x9",
  "entries": [{"headword": "fox", "senses": [{"pos": "n.", "definition": "a wild animal of the dog family"}]},
              {"headword": "den", "senses": [{"definition": "a wild animal'"'"'s home"}]}]}'
check_status 202 "queue a dictionary as JSON"
GLOSS=$(header location)
wait_job "$GLOSS" 60
check_jq '.state == "succeeded" and .result.entries == 2' "the JSON dictionary set"
curl -s "$BASE$GLOSS/book.pdf" -o "$WORK/gloss.pdf"
check_cmd "pdfinfo $WORK/gloss.pdf | grep -q '^Page size: *432 x 648 pts'" "6 x 9 in pages"
check_cmd "pdftotext $WORK/gloss.pdf - | tr '\n' ' ' | grep -q 'Words the puzzles use.'" "the preface printed"

# The language orders the entries: Spanish puts Ñ after N, in a section of its own;
# English sorts ñ as n.
printf 'ñu;n.;un antílope africano\noso;n.;un animal grande\nnuez;n.;el fruto del nogal\n' >"$WORK/es.txt"
for lang in es en; do
  req POST "/dictionaries?title=Palabras&language=$lang" -H 'content-type: text/plain; charset=utf-8' --data-binary @"$WORK/es.txt"
  check_status 202 "a dictionary in language $lang"
  LANG_DICT=$(header location)
  wait_job "$LANG_DICT" 60
  curl -s "$BASE$LANG_DICT/book.pdf" -o "$WORK/dict-$lang.pdf"
done
check_cmd "pdftotext -raw $WORK/dict-es.pdf - | tr -d '\\f' | grep -xE '(N|Ñ|O|(nuez|ñu|oso) n\\..*)' | cut -d' ' -f1 | tr '\\n' ' ' | grep -qx 'N nuez Ñ ñu O oso '" "Spanish: nuez, then Ñ's own section, then oso"
check_cmd "pdftotext -raw $WORK/dict-en.pdf - | tr -d '\\f' | grep -xE '(N|Ñ|O|(nuez|ñu|oso) n\\..*)' | cut -d' ' -f1 | tr '\\n' ' ' | grep -qx 'N ñu nuez O oso '" "English: ñu among the N, before nuez"

# The preface as a query parameter, paragraphs parted by a blank line.
req POST "/dictionaries?preface=$(jq -rn '"First paragraph,\nrunning on.\n\nSecond one." | @uri')" \
  -H 'content-type: text/plain' --data-binary $'fox;n.;an animal\n'
check_status 202 "a text dictionary with a preface"
check_jq '.request.preface == ["First paragraph, running on.", "Second one."]' "the preface's paragraphs"

# A browser's visit to /dictionaries is the page that makes them.
req GET /dictionaries -H 'accept: text/html,application/xhtml+xml,*/*;q=0.8'
check_status 200 "the dictionaries page"
check_header content-type '^text/html' "as HTML"
check_header vary 'accept' "said to vary with Accept"
check_cmd "grep -q 'id=\"dictionary-form\"' $BODY_FILE" "the page's form"
req GET /dictionaries
check_header content-type '^application/json' "the API's listing otherwise"

# Refusals name the line, field or entry.
req POST /dictionaries -H 'content-type: text/plain' --data-binary "fox$(printf ';n.;sense%.0s' $(seq 1 65))"
check_problem 422 'line 1: 65 senses; an entry has at most 64' "65 senses in a line"

req POST /dictionaries -H 'content-type: text/plain' --data-binary $'fox;n.;an animal\nden;n.\n'
check_problem 422 'line 2' "a line without a definition names its line"
check_jq '.field == "line"' "the field is line"
req POST /dictionaries -H 'content-type: text/plain' --data-binary $'fox;n.;an animal → its den\n'
check_problem 422 'U\\+2192' "a character the font lacks, in a line"
post_json /dictionaries '{"entries": [{"headword": "fox", "senses": [{"pos": "n.", "definition": "x"}]}, {"headword": " ", "senses": [{"pos": "n.", "definition": "x"}]}]}'
check_problem 422 'entries\\[1\\]\\.headword' "an empty headword names entries[1].headword"
post_json /dictionaries '{"entries": [{"headword": "fox", "senses": [{"pos": "n.", "definition": ""}]}]}'
check_problem 422 'entries\\[0\\]\\.senses\\[0\\]\\.definition' "an empty definition names it"
post_json /dictionaries '{"entries": [{"headword": "fox", "senses": []}]}'
check_problem 422 'entries\\[0\\]\\.senses' "an entry without senses"
# The imprint: the copyright line and the ISBN on the title page's back, as every book has
# them; a wrong ISBN is refused by name.
post_json /dictionaries '{"title": "Glossary", "author": "A. Compiler", "copyright": "© 2026 Éditions Example", "isbn": "978-0-306-40615-7", "entries": [{"headword": "fox", "senses": [{"pos": "n.", "definition": "an animal"}]}]}'
check_status 202 "a dictionary with a copyright line and an ISBN"
check_jq '.request.copyright == "© 2026 Éditions Example" and .request.isbn == "978-0-306-40615-7"' "the request keeps them"
IMP_DICT=$(header location)
wait_job "$IMP_DICT" 60
curl -s "$BASE$IMP_DICT/book.pdf" -o "$WORK/dict-imprint.pdf"
check_greyscale "$WORK/dict-imprint.pdf" "a dictionary"
check_cmd "pdftotext -f 2 -l 2 $WORK/dict-imprint.pdf - | tr '\n' ' ' | grep -q '© 2026 Éditions Example ISBN 9780306406157'" "the title page's back: the copyright line, then the ISBN normalised"
check_cmd "pdftotext -f 1 -l 1 $WORK/dict-imprint.pdf - | grep -q 'A. Compiler' && ! pdftotext -f 1 -l 1 $WORK/dict-imprint.pdf - | grep -q ISBN" "the title page keeps the title and author only"
check_cmd "pdfinfo $WORK/dict-imprint.pdf | grep -q '^Pages: *24\$' && pdftotext -f 24 -l 24 $WORK/dict-imprint.pdf - | head -n 1 | grep -qx Notes" "a one-entry dictionary is padded to 24 pages with notes pages, as every book"
check_cmd "[ \$(for n in \$(seq 1 24); do pdftotext -f \$n -l \$n $WORK/dict-imprint.pdf - | grep -c .; done | awk '\$1 == 0 { run++; if (run > most) most = run; next } { run = 0 } END { print most + 0 }') -le 2 ]" "no more than two pages in a row without text"
post_json /dictionaries '{"isbn": "978-0-306-40615-8", "entries": [{"headword": "fox", "senses": [{"pos": "n.", "definition": "an animal"}]}]}'
check_problem 422 'isbn' "a dictionary with a wrong ISBN"
check_jq '.field == "isbn"' "the field is isbn"
req POST "/dictionaries?copyright=%C2%A9%202026%20Me&isbn=0-306-40615-2" -H 'content-type: text/plain' --data-binary $'fox;n.;an animal\n'
check_status 202 "a text dictionary with its imprint as query parameters"
check_jq '.request.copyright == "© 2026 Me" and .request.isbn == "0-306-40615-2"' "the query's imprint stored"
# A headword is a line (at most 100 characters), a definition at most 100,000: longer is
# refused at once by name, its headword echoed short (a running head once copied the whole
# headword on every page it ran over: memory grew with its square).
python3 -c "print('fox;n.;an animal'); print('x' * 200000 + ';n.;a long word')" >"$WORK/dict-long.txt"
req POST /dictionaries -H 'content-type: text/plain' --data-binary @"$WORK/dict-long.txt"
check_problem 422 'line 2: the headword is 200000 characters long; a headword is at most 100' "a 200,000-character headword names its line"
check_cmd "[ $(stat -c %s "$BODY_FILE") -lt 1000 ]" "without echoing the headword"
python3 -c "
import json
print(json.dumps({'entries': [{'headword': 'fox', 'senses': [{'pos': 'n.', 'definition': 'x'}]},
  {'headword': 'w' * 101, 'senses': [{'pos': 'n.', 'definition': 'x'}]}]}))" >"$WORK/dict-long.json"
req POST /dictionaries -H 'content-type: application/json' --data-binary @"$WORK/dict-long.json"
check_problem 422 'entries\\[1\\]\\.headword' "a 101-character headword names entries[1].headword"
check_jq '.field == "entries[1].headword" and (.detail | contains("101 characters"))' "the field and its length"
python3 -c "
import json
print(json.dumps({'entries': [{'headword': 'fox', 'senses': [{'pos': 'n.', 'definition': 'x'}, {'pos': 'n.', 'definition': 'word ' * 20001}]}]}))" >"$WORK/dict-long.json"
req POST /dictionaries -H 'content-type: application/json' --data-binary @"$WORK/dict-long.json"
check_jq '.status == 422 and .field == "entries[0].senses[1].definition"' "a definition past 100,000 characters names it"
post_json /dictionaries '{"entries": [{"headword": "fox", "senses": [{"pos": "n.", "definition": "ok"}]}, {"headword": "fox→", "senses": [{"pos": "n.", "definition": "x"}]}]}'
check_problem 422 'entries\\[1\\]' "a character the font lacks names the entry"
check_jq '.field == "entries[1]" and (.detail | contains("fox→"))' "the entry by index and headword"
post_json /dictionaries '{"language": "xx", "entries": [{"headword": "fox", "senses": [{"pos": "n.", "definition": "x"}]}]}'
check_problem 422 'language' "an unknown language"
post_json /dictionaries '{"trim": "huge", "entries": [{"headword": "fox", "senses": [{"pos": "n.", "definition": "x"}]}]}'
check_problem 422 'trim' "an unknown trim"
post_json /dictionaries '{"title": "Fox ☺", "entries": [{"headword": "fox", "senses": [{"pos": "n.", "definition": "x"}]}]}'
check_problem 422 'title' "a title the font cannot print"
post_json /dictionaries '{"entries": []}'
check_problem 422 'entries' "no entries"
post_json /dictionaries '{"entries": [{"headword": "fox", "senses": [{"pos": "n.", "definition": "x"}]}], "colour": "red"}'
check_problem 422 'colour' "an unknown member"
req POST "/dictionaries?colour=red" -H 'content-type: text/plain' --data-binary $'fox;n.;x\n'
check_problem 422 'colour' "an unknown query parameter"
req POST /dictionaries -H 'content-type: application/xml' --data-binary '<fox/>'
check_problem 415 'JSON' "another media type"
req GET "/dictionaries/00000000-0000-0000-0000-000000000000/book.pdf"
check_problem 404 'no dictionary' "an unknown dictionary"

# Keys close the service: the anonymous tier's limits, owners and delete, on a database of its own.
stop_server
case $BACKEND in
  sqlite) DICT_URL="sqlite://$WORK/dictionaries.db" ;;
  postgres) DICT_URL="${PG%/*}/${PG_DB}_dictionaries" ;; # created by the server
esac
# Requests of 20,000 entries are kept with their job: more than the default 1 MiB of params,
# which a dictionary's own limits bound instead. An API-only process first (no workers), so
# that the jobs below are still queued when they are asked for; a worker is started later.
start_server "$DICT_URL" --workers 0
dkey() { "$BIN" keys create --name "$1" --role "$2" --database-url "$DICT_URL" 2>/dev/null; }
DA=(-H "Authorization: Bearer $(dkey dict-a publisher)")
DB=(-H "Authorization: Bearer $(dkey dict-b publisher)")
sleep 1.2 # the service is closed within a second of the first key

seq 1 501 | sed 's/^/word/; s/$/;n.;a word/' >"$WORK/dict-501.txt"
req POST /dictionaries -H 'content-type: text/plain' --data-binary @"$WORK/dict-501.txt"
check_problem 422 'at most 500' "501 entries without a key: 422 naming entries"
check_jq '.field == "entries"' "the field is entries"
# Queued, not set: a worker could finish 20,000 entries before the next request.
seq 1 20000 | sed 's/^/entry/; s/$/;n.;a word among many/' >"$WORK/dict-20000.txt"
req POST /dictionaries -H 'content-type: text/plain' --data-binary @"$WORK/dict-20000.txt" "${DA[@]}"
check_status 202 "20,000 entries with a key"
LARGE=$(header location)
req POST /dictionaries -H 'content-type: text/plain' --data-binary @"$WORK/dict-501.txt" "${DA[@]}"
check_status 202 "501 entries with a key"
MINE=$(header location)
req GET "$MINE/book.pdf" "${DA[@]}"
check_problem 409 'not ready yet' "the PDF before it is set: 409"
check_header retry-after '^[0-9]+$' "with Retry-After"
# A third, the slowest text to set there is (4 MB of words no line holds, split between
# letters: seconds), cancelled while it waits (a job being set stops between batches of
# entries: the typesetter's test progress_is_reported_and_a_stop_is_heeded).
python3 -c "print('\n'.join('slow%d;n.;' % i + ' '.join(['q' * 100] * 20) for i in range(1990)))" >"$WORK/dict-slow.txt"
req POST /dictionaries -H 'content-type: text/plain' --data-binary @"$WORK/dict-slow.txt" "${DA[@]}"
check_status 202 "4 MB of the slowest entries"
DROPPED=$(header location)
req DELETE "/jobs/${DROPPED##*/}" "${DA[@]}"
check_jq '.state == "cancelled" or .cancel_requested == true' "its job cancelled"
seq 1 300 | sed "s/^/word/; s/\$/;n.;$(printf 'd%.0s' $(seq 1 1000))/" >"$WORK/dict-big.txt"
req POST /dictionaries -H 'content-type: text/plain' --data-binary @"$WORK/dict-big.txt"
check_problem 413 '256 KiB' "a body past 256 KiB without a key: 413"
req POST /dictionaries -H 'content-type: text/plain' -H 'transfer-encoding: chunked' --data-binary @"$WORK/dict-big.txt"
check_problem 413 '256 KiB' "a chunked body past 256 KiB without a key: 413"

req GET "$MINE" "${DB[@]}"
check_status 404 "another publisher's dictionary is 404"
req GET "$MINE/book.pdf" "${DB[@]}"
check_status 404 "and so is its PDF"
req GET /dictionaries "${DA[@]}"
check_jq "[.dictionaries[].links.self] == [\"$DROPPED\", \"$MINE\", \"$LARGE\"]" "the owner's listing, newest first"
req GET /dictionaries "${DB[@]}"
check_jq '.dictionaries == []' "another publisher lists none"
req DELETE "$MINE" "${DB[@]}"
check_status 404 "another publisher cannot delete it"
wait_as_dict() {
  local waited=0
  while :; do
    req GET "$MINE" "${DA[@]}"
    case "$(jq -r .state "$BODY_FILE")" in succeeded | failed | cancelled) return 0 ;; esac
    sleep 0.1
    waited=$((waited + 1))
    [ $waited -lt 600 ] || return 1
  done
}
# Now one worker sets them in turn.
stop_server
start_server "$DICT_URL" --workers 1
wait_as_dict
check_jq '.state == "succeeded" and .result.entries == 501' "501 entries set"
KEEP=$MINE
MINE=$DROPPED
wait_as_dict
check_jq '.state == "cancelled" and .result == null' "the cancelled one ends cancelled, unset"
MINE=$KEEP
kept_files() { sql "SELECT COUNT(*) FROM files WHERE job_id = '${MINE##*/}'" "$DICT_URL"; }
check_cmd "[ '$(kept_files)' = 1 ]" "its PDF kept with it"
req DELETE "$MINE" "${DA[@]}"
check_status 204 "the owner deletes it"
req GET "$MINE" "${DA[@]}"
check_status 404 "gone"
check_cmd "[ '$(kept_files)' = 0 ]" "its PDF deleted with it"

stop_server
[ "$BACKEND" = postgres ] && psql "$PG" -q -c "DROP DATABASE IF EXISTS ${PG_DB}_dictionaries" >/dev/null
start_server "$URL" --workers 2

# The README's examples, run as written: every `curl` example in its sh blocks that shows an
# answer (the job's result, the response body, or the status and body) is taken from README.md by
# tests/api/readme_examples.py, run against this server (localhost:8080 replaced by it), and
# its answer must be what the README shows ("…" elides). Editing the README without the
# server, or the server without the README, fails here.

readme_dir=$(mktemp -d)
if python3 tests/api/readme_examples.py list README.md >"$readme_dir/all.jsonl"; then pass; else fail "README examples do not parse"; fi
# Listings of jobs (`GET /jobs?…`) run after the other examples, as for a reader who has
# queued some: the README shows them before the examples that queue jobs.
{
  jq -c 'select(.command | test("/jobs[?]") | not)' "$readme_dir/all.jsonl"
  jq -c 'select(.command | test("/jobs[?]"))' "$readme_dir/all.jsonl"
} >"$readme_dir/examples.jsonl"
# The examples issue 24 found wrong must stay among those checked.
for want in '/oneup/puzzles .*"seed": 42' '/wordsquares .*"seed": 3' '/crosswords/fills .*"C\.\.#\.\.\.\.\."' '/oneup/solves'"'"' '; do
  if jq -r .command "$readme_dir/examples.jsonl" | tr '\n' ' ' | grep -Eq "$want"; then pass; else fail "README example $want is not checked"; fi
done
if [ "$(wc -l <"$readme_dir/examples.jsonl")" -ge 20 ]; then pass; else fail "fewer README examples checked than the 20 there were"; fi

while IFS= read -r readme_ex; do
  readme_line=$(jq -r .line <<<"$readme_ex")
  readme_cmd=$(jq -r .command <<<"$readme_ex")
  readme_cmd=${readme_cmd//localhost:8080/$BASE}
  readme_shown=$(jq -r .shown <<<"$readme_ex")
  if [ "$readme_shown" = null ]; then
    fail "README line $readme_line: the shown answer does not parse"
    continue
  fi
  timeout 300 bash -c "$readme_cmd" </dev/null >"$readme_dir/out" 2>&1
  # `curl -si` prints the headers first: the body follows the first empty line.
  if head -c 5 "$readme_dir/out" | grep -q '^HTTP/'; then
    tr -d '\r' <"$readme_dir/out" | awk 'body { print } /^$/ { body = 1 }' >"$readme_dir/body"
    readme_location=$(tr -d '\r' <"$readme_dir/out" | grep -i '^location:' | head -n1 | cut -d' ' -f2-)
  else
    cp "$readme_dir/out" "$readme_dir/body"
    readme_location=""
  fi
  readme_kind=$(jq -r .kind <<<"$readme_ex")
  if [ "${readme_kind%% *}" = status ]; then
    readme_status=$(head -n1 "$readme_dir/out" | cut -d' ' -f2)
    if [ "$readme_status" = "${readme_kind#status }" ]; then pass; else
      fail "README line $readme_line: shown status ${readme_kind#status }, answered $readme_status"
    fi
  fi
  if [ "$readme_kind" = job ]; then
    [ -n "$readme_location" ] || readme_location=$(jq -r '.links.self // empty' "$readme_dir/body" 2>/dev/null)
    if [ -z "$readme_location" ] || ! wait_job "$readme_location" 300; then
      fail "README line $readme_line: the job did not end ($(head -c 300 "$readme_dir/body"))"
      continue
    fi
    jq .result "$BODY_FILE" >"$readme_dir/body"
  fi
  if readme_diff=$(python3 tests/api/readme_examples.py match "$readme_shown" "$readme_dir/body"); then
    pass
  else
    fail "README line $readme_line ($(head -n1 <<<"$readme_cmd")): $readme_diff"
  fi
done <"$readme_dir/examples.jsonl"
rm -rf "$readme_dir"

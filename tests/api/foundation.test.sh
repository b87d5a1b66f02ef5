# Service foundation and fox in a hole. Sourced by run.sh with BASE set.

req GET /healthz
check_status 200 "healthz"
check_jq '.status == "ok"' "healthz body"

req GET /readyz
check_status 200 "readyz"

req GET /openapi.yaml
check_status 200 "openapi.yaml"
if grep -q '^openapi: 3' "$BODY_FILE"; then pass; else fail "openapi.yaml is an OpenAPI document"; fi

req GET /healthz -H 'x-request-id: my-request-42'
check_header x-request-id '^my-request-42$' "request id is echoed"
req GET /healthz
check_header x-request-id '^[0-9a-f-]{36}$' "request id is generated"

# Errors are problem+json.
req GET /no/such/route
check_problem 404 "no such route" "unknown route"
req PUT /healthz
check_problem 405 "method" "wrong method"
post_json /foxhole/strategies '{"holes": 5'
check_problem 400 "not valid JSON" "malformed JSON"
req POST /foxhole/strategies -H 'content-type: text/plain' --data-binary '{"holes": 5}'
check_problem 415 "application/json" "wrong media type"
head -c 1100000 /dev/zero | tr '\0' ' ' >"$WORK/big.json"
req POST /foxhole/strategies -H 'content-type: application/json' --data-binary "@$WORK/big.json"
check_problem 413 "1 MiB" "body over 1 MiB"
post_json /foxhole/strategies '{"holes": "five"}'
check_problem 422 "holes" "field of the wrong type"
check_jq '.field == "holes"' "422 names the field"
post_json /foxhole/strategies '{"holes": 31}'
check_problem 422 "holes" "too many holes"
post_json /foxhole/strategies '{"holes": 0}'
check_problem 422 "holes" "no holes"
post_json /foxhole/strategies '{}'
check_problem 422 "holes" "neither holes nor graph"
post_json /foxhole/strategies '{"holes": 3, "graph": [[1],[0]]}'
check_problem 422 "not both" "both holes and graph"
post_json /foxhole/strategies '{"graph": [[1],[2]]}'
check_problem 422 "graph" "asymmetric graph"
post_json /foxhole/strategies '{"holes": 5, "colour": "red"}'
check_problem 422 "colour" "unknown field"

# Shortest strategies on a line: 1, 2, 2 days for n = 1, 2, 3 and 2n-4 after.
for n in 1 2 3 4 5 6 7 8; do
  post_json /foxhole/strategies "{\"holes\": $n}"
  check_status 202 "strategy for $n holes accepted"
  loc=$(header location)
  if wait_job "$loc"; then pass; else fail "strategy job for $n holes ends"; fi
  if [ $n -le 3 ]; then want=$(( n == 1 ? 1 : 2 )); else want=$((2 * n - 4)); fi
  check_jq ".state == \"succeeded\" and .result.days == $want and (.result.inspections | length) == $want" "line of $n holes takes $want days"
  inspections=$(jq -c .result.inspections "$BODY_FILE")
  post_json /foxhole/checks "{\"holes\": $n, \"inspections\": $inspections}"
  check_jq ".caught == true and .day == $want and .escape == null" "the strategy for $n holes catches the fox"
done

post_json /foxhole/strategies '{"graph": [[1],[0,2],[1,3],[2,4],[3]]}'
check_header location '^/foxhole/strategies/' "a strategy's Location is the strategy"
check_jq '.links.self == "'"$(header location)"'" and (.links.job | startswith("/jobs/"))' "Location and links.self agree"
loc=$(header location)
wait_job "$loc"
check_jq '.result.days == 6 and .progress.done == .progress.total' "graph form of five holes"
post_json /foxhole/strategies '{"graph": [[1,3],[0,2],[1,3],[2,0]]}'
wait_job "$(header location)"
check_jq '.state == "succeeded" and .result.inspections == null and (.result.reason | length > 0)' "a 4-cycle has no strategy"

# Checks: a failing strategy shows an escape path that avoids every inspection.
post_json /foxhole/checks '{"holes": 5, "inspections": [0,0,0]}'
check_status 200 "check"
check_jq '.caught == false and .day == null and (.escape | length) == 3' "escape path length"
check_jq '[range(0;3) as $i | .escape[$i] != 0] | all' "escape avoids the inspected holes"
check_jq '[range(0;2) as $i | ((.escape[$i] - .escape[$i+1]) | fabs) == 1] | all' "escape moves to a neighbour each night"
post_json /foxhole/checks '{"holes": 5, "inspections": [1,2,3,1,2,3]}'
check_jq '.caught == true and .day == 6' "the known strategy catches on day 6"
post_json /foxhole/checks '{"holes": 5, "inspections": [1,9]}'
check_problem 422 "inspections" "inspection outside the line"

# Jobs: unknown id, cancel a finished job, idempotency.
req GET /jobs/00000000-0000-0000-0000-000000000000
check_problem 404 "no job" "unknown job"
req GET "/jobs/${loc##*/}"
check_jq '.kind == "foxhole.strategies" and (.attempt_log | length) == 1 and .attempt_log[0].outcome == "succeeded"' "the job logs its one attempt"
req DELETE "/jobs/${loc##*/}"
check_problem 409 "already ended" "cancel a finished job"
post_json /foxhole/strategies '{"holes": 9}' -H 'Idempotency-Key: api-suite-key-1'
first=$(header location)
post_json /foxhole/strategies '{"holes": 9}' -H 'Idempotency-Key: api-suite-key-1'
if [ "$(header location)" = "$first" ]; then pass; else fail "same Idempotency-Key gives the same job"; fi
post_json /foxhole/strategies '{"holes": 10}' -H 'Idempotency-Key: api-suite-key-1'
check_problem 422 "Idempotency-Key" "reused Idempotency-Key with another body"

# Invented methods do not add metrics series of their own.
req FROBNICATE-1 /healthz
req FROBNICATE-2 /healthz
req GET /metrics
check_status 200 "metrics"
if grep -q 'FROBNICATE' "$BODY_FILE"; then fail "invented methods are not metrics labels"; else pass; fi
if grep -q 'puzzlepress_http_requests_total{method="other",route="/healthz"' "$BODY_FILE"; then pass; else fail "invented methods count as other"; fi
if grep -q 'puzzlepress_jobs{kind="foxhole.strategies",state="succeeded"}' "$BODY_FILE"; then pass; else fail "metrics count jobs by kind and state"; fi
if grep -q 'puzzlepress_http_requests_total{method="POST",route="/foxhole/strategies",status="202"}' "$BODY_FILE"; then pass; else fail "metrics count HTTP requests"; fi
if grep -q 'puzzlepress_job_duration_seconds_count{kind="foxhole.strategies"}' "$BODY_FILE"; then pass; else fail "metrics time jobs"; fi

# Gray codes: exact counts starting at 0, paging, precise errors.
for spec in "3 8 true 12" "3 8 false 18" "4 16 true 2688" "4 16 false 5712"; do
  set -- $spec
  post_json /graycodes "{\"bits\": $1, \"length\": $2, \"circular\": $3, \"start_at_zero\": true, \"count_only\": true}"
  check_status 202 "gray count $spec accepted"
  wait_job "$(header location)"
  check_jq ".result.count == $4 and .result.count_is_lower_bound == false" "gray codes bits $1 length $2 circular $3: $4"
done
post_json /graycodes '{"bits": 3, "length": 8, "start_at_zero": true, "limit": 10}'
wait_job "$(header location)"
check_jq '(.result.sequences | length) == 10 and (.result.next_cursor | type) == "string"' "first page of 10 gray codes"
cursor=$(jq -r .result.next_cursor "$BODY_FILE")
first_page=$(jq -c .result.sequences "$BODY_FILE")
post_json /graycodes "{\"bits\": 3, \"length\": 8, \"start_at_zero\": true, \"limit\": 10, \"cursor\": \"$cursor\"}"
wait_job "$(header location)"
check_jq '(.result.sequences | length) == 8 and .result.next_cursor == null' "second page holds the other 8"
check_jq 'def bits: [(./4|floor)%2, (./2|floor)%2, .%2]; [.result.sequences[] | . as $s | [range(1; 8) as $i | ([($s[$i]|bits), ($s[$i-1]|bits)] | transpose | map(select(.[0] != .[1])) | length) == 1] | all] | all' "neighbours differ in exactly one bit"
if [ "$(jq -c --argjson a "$first_page" '[$a[], .result.sequences[]] | unique | length' "$BODY_FILE")" = 18 ]; then pass; else fail "pages are disjoint"; fi
post_json /graycodes '{"bits": 3, "length": 7, "circular": true}'
check_problem 422 "even length" "odd circular length"
check_jq '.field == "length"' "odd circular names length"
post_json /graycodes '{"bits": 17, "length": 8}'
check_problem 422 "bits" "too many bits"
post_json /graycodes '{"bits": 3, "length": 8, "cursor": "nonsense"}'
check_problem 422 "cursor" "bad cursor"
post_json /graycodes '{"bits": 3, "length": 8, "count_only": true, "limit": 5, "colour": 1}'
check_problem 422 "colour" "unknown gray field"

# A retry: every job kind routed under POST, its request without a seed sent twice with the
# same Idempotency-Key, is the same job (the same Location), and the same body under a new
# key is a new one.

RETRY_RUN=$RANDOM
# post_json, waiting while the address's queue is full (429: nothing was queued).
post_room() {
  local tries=0
  while post_json "$@" && [ "$STATUS" = 429 ] && [ $tries -lt 240 ]; do
    sleep 0.25
    tries=$((tries + 1))
  done
}
while IFS='|' read -r route body; do
  [ -n "$route" ] || continue
  key="retry-$BACKEND-$RETRY_RUN-${route//\//-}"
  post_room "$route" "$body" -H "Idempotency-Key: $key"
  check_status 202 "POST $route queues"
  first=$(header location)
  post_room "$route" "$body" -H "Idempotency-Key: $key"
  check_status 202 "POST $route retried with its key"
  if [ -n "$first" ] && [ "$(header location)" = "$first" ]; then
    pass
  else
    fail "POST $route retried with its key is the same job: $first, then $(header location)"
  fi
  post_room "$route" "$body" -H "Idempotency-Key: $key-other"
  if [ "$(header location)" != "$first" ]; then pass; else fail "POST $route under a new key is a new job"; fi
done <<'EOF'
/books|{"pages": 2, "rows": 5, "cols": 5}
/printruns|{"copies": 2, "pages": 24, "rows": 16, "cols": 12}
/dictionaries|{"entries": [{"headword": "fox", "senses": [{"pos": "n.", "definition": "a wild animal"}]}]}
/oneup/solves|{"row_regions": ["1111","1111","1111","1111"], "col_regions": ["1111","1111","1111","1111"], "clues": []}
/oneup/puzzles|{"size": 4}
/oneup/books|{"count": 2, "size": 6}
/crosswords/patterns|{"size": 5, "count": 2}
/crosswords/fills|{"pattern": ["...#...", ".......", ".......", ".......", "...#..."]}
/wordsquares|{"size": 3}
/wordsearches|{"words": ["cat", "dog", "emu"], "rows": 6, "cols": 6}
/wordsearches/books|{"puzzles": [{"words": ["cat", "dog", "emu"]}]}
/graycodes|{"bits": 4, "length": 16}
/foxhole/strategies|{"holes": 9}
EOF

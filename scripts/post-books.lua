-- wrk script: a publisher orders default books (POST /books with an empty JSON body), each
-- of wrk's threads ORDERS_PER_THREAD of them, then stops; scripts/loadtest fills in TOKEN
-- and ORDERS_PER_THREAD.
wrk.method = "POST"
wrk.body = "{}"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer TOKEN"

local answered = 0
function response(status, headers, body)
  answered = answered + 1
  if answered >= ORDERS_PER_THREAD then
    wrk.thread:stop()
  end
end

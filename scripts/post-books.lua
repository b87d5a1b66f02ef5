-- wrk script: order default books (POST /books with an empty JSON body).
wrk.method = "POST"
wrk.body = "{}"
wrk.headers["Content-Type"] = "application/json"

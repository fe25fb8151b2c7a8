-- wrk script: POST the JSON body in the environment variable BODY.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = os.getenv("BODY")

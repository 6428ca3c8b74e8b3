-- wrk script: POST the file named by $BODY as a SOAP 1.1 call (bench/run.sh wrk, compare.py
-- section 2).
local f = assert(io.open(os.getenv("BODY"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "text/xml; charset=utf-8"
wrk.headers["SOAPAction"] = '""'

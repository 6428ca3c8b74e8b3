#!/usr/bin/python3
"""zeep calls a lather server with a WS-Security UsernameToken (zeep.wsse.username).

usage: zeep_wsse.py --wsdl URL --user U --password P [--digest] [--soap12]
                    [--created ISO --nonce TEXT] [--calls N]
Calls add(a=2, b=3) N times (default 1) with the same token settings and prints one line per
call: "ok <result> <user>" or "fault <code>" where <code> is the WS-Security code (SOAP 1.1
faultcode or SOAP 1.2 subcode, local part). --created/--nonce fix them (zeep then sends the
same token every time: a replay).
"""
import argparse
import datetime
import sys

import zeep
import zeep.exceptions
from zeep.wsse.username import UsernameToken

sys.dont_write_bytecode = True


def local(code):
    text = getattr(code, "localname", None) or getattr(code, "text", None) or str(code)
    return text.rsplit("}", 1)[-1].rsplit(":", 1)[-1]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--wsdl", required=True)
    p.add_argument("--user", required=True)
    p.add_argument("--password", required=True)
    p.add_argument("--digest", action="store_true")
    p.add_argument("--soap12", action="store_true")
    p.add_argument("--created")
    p.add_argument("--nonce")
    p.add_argument("--calls", type=int, default=1)
    a = p.parse_args()
    created = datetime.datetime.fromisoformat(a.created) if a.created else None
    token = UsernameToken(a.user, a.password, use_digest=a.digest, created=created, nonce=a.nonce)
    client = zeep.Client(a.wsdl, wsse=token)
    service = client.bind("Calc", "CalcSoap12Port") if a.soap12 else client.service
    for _ in range(a.calls):
        try:
            r = service.add(a=2, b=3)
            print("ok", r.result, r.user, flush=True)
        except zeep.exceptions.Fault as f:
            codes = [local(c) for c in (f.subcodes or [])] or [local(f.code)]
            print("fault", codes[-1], flush=True)


if __name__ == "__main__":
    main()

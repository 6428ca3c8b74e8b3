#!/usr/bin/python3
"""zeep calls a lather server with a WS-Security UsernameToken (zeep.wsse.username).

usage: zeep_wsse.py --wsdl URL [--user U --password P [--digest]] [--soap12]
                    [--created ISO --nonce TEXT] [--calls N] [--sign KEY CERT [--binary]]
                    [--verify-response CERT] [--blob N]
       zeep_wsse.py --sign-envelope KEY CERT IN OUT [--binary]
Calls add(a=2, b=3) N times (default 1) with the same token settings and prints one line per
call: "ok <result> <user>" or "fault <code>" where <code> is the WS-Security code (SOAP 1.1
faultcode or SOAP 1.2 subcode, local part). --created/--nonce fix them (zeep then sends the
same token every time: a replay). --sign signs each request with zeep.wsse.signature
(python3-xmlsec): the Body, with the certificate in X509Data, or with --binary in a
BinarySecurityToken; responses are not checked unless --verify-response names the certificate
whose key must have signed them (zeep.wsse.signature.verify_envelope; a response that does not
verify prints "unverified"). --blob N calls blob(data=N pseudo-random bytes) instead and
prints "ok-blob <length> <same>" (same: the bytes came back unchanged); zeep decodes an MTOM
response's xop:Includes before it verifies the signature, so the signature is checked over the
XOP infoset. --sign-envelope signs the envelope in file IN with zeep's signing
code (the Body, and the Timestamp of its Security header if it has one) into OUT.
"""
import argparse
import datetime
import sys

import zeep
import zeep.exceptions
from zeep.wsse.compose import Compose
from zeep.wsse.username import UsernameToken

sys.dont_write_bytecode = True


def local(code):
    text = getattr(code, "localname", None) or getattr(code, "text", None) or str(code)
    return text.rsplit("}", 1)[-1].rsplit(":", 1)[-1]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--wsdl")
    p.add_argument("--user")
    p.add_argument("--password")
    p.add_argument("--digest", action="store_true")
    p.add_argument("--soap12", action="store_true")
    p.add_argument("--created")
    p.add_argument("--nonce")
    p.add_argument("--calls", type=int, default=1)
    p.add_argument("--sign", nargs=2, metavar=("KEY", "CERT"))
    p.add_argument("--binary", action="store_true")
    p.add_argument("--verify-response", metavar="CERT")
    p.add_argument("--blob", type=int)
    p.add_argument("--sign-envelope", nargs=4, metavar=("KEY", "CERT", "IN", "OUT"))
    a = p.parse_args()
    if a.sign_envelope:
        return sign_file(*a.sign_envelope, binary=a.binary)
    created = datetime.datetime.fromisoformat(a.created) if a.created else None
    parts = []
    if a.user:
        parts.append(UsernameToken(a.user, a.password, use_digest=a.digest, created=created,
                                   nonce=a.nonce))
    if a.sign:
        from zeep.wsse import signature

        base = signature.BinarySignature if a.binary else signature.Signature

        class RequestSignature(base):
            def verify(self, envelope):
                if a.verify_response:
                    signature.verify_envelope(envelope, a.verify_response)
                return envelope

        parts.append(RequestSignature(a.sign[0], a.sign[1]))
    client = zeep.Client(a.wsdl, wsse=parts[0] if len(parts) == 1 else Compose(parts))
    service = client.bind("Calc", "CalcSoap12Port") if a.soap12 else client.service
    # Neither starting nor ending with CR or LF: zeep's Attachment.content strips them from
    # both ends of a binary part.
    data = bytes((i * 7919 + 65) % 256 for i in range(a.blob or 0))
    for _ in range(a.calls):
        try:
            if a.blob is not None:
                r = service.blob(data=data)
                got = getattr(r, "data", r)
                print("ok-blob", len(got), got == data, flush=True)
                continue
            r = service.add(a=2, b=3)
            print("ok", r.result, r.user, flush=True)
        except zeep.exceptions.SignatureVerificationFailed:
            print("unverified", flush=True)
        except zeep.exceptions.Fault as f:
            codes = [local(c) for c in (f.subcodes or [])] or [local(f.code)]
            print("fault", codes[-1], flush=True)


def sign_file(key, cert, source, target, binary):
    from lxml import etree
    from zeep.wsse import signature

    with open(source, "rb") as f:
        envelope = etree.fromstring(f.read())
    base = signature.BinarySignature if binary else signature.Signature
    base(key, cert).apply(envelope, {})
    with open(target, "wb") as f:
        f.write(etree.tostring(envelope))


if __name__ == "__main__":
    main()

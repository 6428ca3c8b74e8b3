#!/usr/bin/python3
"""Writes the seed corpora of the targets beyond the XML reader (deterministic):
fuzz/corpus/bind (wrapper elements of the CXF perf messages), fuzz/corpus/soap (envelopes:
perf, interop, faults, RPC/encoded multi-refs as Axis, soap4r and SOAP::Lite send them),
fuzz/corpus/http (those envelopes as whole HTTP requests, plus GETs, chunked, 100-continue and
pipelined requests), fuzz/corpus/wsdl (the small WSDL/XSD documents of the shared corpus and
tests/wsdl/data). Run after fuzz/make_seeds.py; regress_* files are kept.
"""
import glob
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
XML = os.path.join(ROOT, "fuzz", "corpus", "xml")
OUT = os.path.join(ROOT, "fuzz", "corpus")


def write(kind, name, data):
    d = os.path.join(OUT, kind)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def clear(kind):
    for f in glob.glob(os.path.join(OUT, kind, "*")):
        if not os.path.basename(f).startswith("regress_"):
            os.remove(f)


def read(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "replace")


envelopes = {}
for f in sorted(glob.glob(os.path.join(XML, "*.xml"))):
    name = os.path.basename(f)
    if name.startswith(("cxf_", "interop_", "rpc_", "soap1")):
        envelopes[name] = read(f)
fetch = read(os.path.join(ROOT, "tests", "soap", "fetch_responses.hpp"))
for label, text in re.findall(r'inline const std::string (\w+) =\s*R"\((.*?)\)";', fetch, re.S):
    envelopes[f"fetch_{label}.xml"] = text

for kind in ("bind", "soap", "http", "wsdl"):
    clear(kind)

# bind: the Body's first child of each perf message, namespaces declared on it.
for name, env in envelopes.items():
    m = re.search(r"<(\w+):(echo\w+Doc(?:Response)?)\b(.*?)</\1:\2>", env, re.S)
    if m:
        write("bind", name, m.group(0))

for name, env in envelopes.items():
    write("soap", name, env)

PATHS = {"cxf_": "/perf", "interop_": "/rpc", "rpc_": "/fetch", "fetch_": "/fetch", "soap1": "/perf"}


def post(path, body, extra=""):
    return (f"POST {path} HTTP/1.1\r\nHost: fuzz\r\nContent-Type: text/xml; charset=utf-8\r\n"
            f'SOAPAction: ""\r\n{extra}Content-Length: {len(body.encode())}\r\n\r\n{body}')


for name, env in envelopes.items():
    path = next(p for k, p in PATHS.items() if name.startswith(k))
    write("http", name.replace(".xml", ".http"), post(path, env))
perf_env = envelopes["cxf_echoStringDoc_1.xml"]
soap12 = perf_env.replace("http://schemas.xmlsoap.org/soap/envelope/",
                          "http://www.w3.org/2003/05/soap-envelope")
body = soap12.encode()
write("http", "soap12.http",
      "POST /perf HTTP/1.1\r\nHost: fuzz\r\nContent-Type: application/soap+xml; charset=utf-8; "
      f'action="urn:echoStringDoc"\r\nContent-Length: {len(body)}\r\n\r\n{soap12}')
chunks = "".join(f"{len(c.encode()):x}\r\n{c}\r\n" for c in re.findall(r".{1,200}", perf_env, re.S))
write("http", "chunked.http",
      "POST /perf HTTP/1.1\r\nHost: fuzz\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked"
      f"\r\n\r\n{chunks}0\r\n\r\n")
write("http", "expect_continue.http", post("/perf", perf_env, "Expect: 100-continue\r\n"))
write("http", "pipelined.http", post("/perf", perf_env) + post("/perf", perf_env, "Connection: close\r\n"))
write("http", "http10.http", post("/perf", perf_env).replace("HTTP/1.1", "HTTP/1.0", 1))
for target in ("/perf?wsdl", "/rpc?wsdl", "/fetch?wsdl", "/metrics", "/readyz", "/livez", "/nope"):
    write("http", "get_" + re.sub(r"\W", "_", target.strip("/")) + ".http",
          f"GET {target} HTTP/1.1\r\nHost: fuzz\r\n\r\n")

# wsdl: small documents only (the fuzzer's inputs are capped at a few KB anyway).
docs = sorted(glob.glob(os.path.join(SHARED, "wsdl-corpus", "*", "*.wsdl")) +
              glob.glob(os.path.join(SHARED, "wsdl-corpus", "*", "external", "*.xsd")) +
              glob.glob(os.path.join(ROOT, "tests", "wsdl", "data", "*.wsdl")))
for f in docs:
    if os.path.getsize(f) <= 16384:
        rel = os.path.relpath(f, os.path.dirname(os.path.dirname(f)))
        write("wsdl", re.sub(r"[^\w.]", "_", rel), read(f))

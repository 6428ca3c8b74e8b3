#!/usr/bin/python3
"""A generated mock-server's samples pass the corpus checker against their contract.

usage: mock_samples_check.py MOCK_SERVER WSDL CHECKER WORKDIR [--no-zeep]

Runs `MOCK_SERVER --samples WORKDIR/samples`, then `CHECKER check WSDL --samples ...`
(../shared/wsdl-corpus/check/wsdl_corpus_check.py: the envelope, body, required header and
schema rules). The checker knows no faults: the header-fault samples
(<PortType>.<Operation>.headerfault.<element>.xml, one per soap:headerfault of the SOAP
bindings' operations) are checked here: a Fault in the Body without detail (SOAP 1.1 section
4.4), its Header holding the element, which zeep (Debian python3-zeep) reads as the WSDL's
schema declares it. Exit status: 1 when mock-server fails or a header-fault sample is missing
or wrong, else the checker's.

--no-zeep: the checker's zeep deserialization (its check 4) is left out, every other check
(envelope, body, headers, libxml2 XSD validation) kept: for a contract whose valid instances
zeep's parser refuses (a choice whose alternative is a sequence, a repeated sequence of several
elements: zeep reads them as if they could not end).
"""
import os
import shutil
import subprocess
import sys

from lxml import etree
import zeep

WSDL = "http://schemas.xmlsoap.org/wsdl/"
SOAP = {"http://schemas.xmlsoap.org/wsdl/soap/": "http://schemas.xmlsoap.org/soap/envelope/",
        "http://schemas.xmlsoap.org/wsdl/soap12/": "http://www.w3.org/2003/05/soap-envelope"}


def qname(node, value):
    prefix, _, local = value.rpartition(":")
    return node.nsmap.get(prefix or None), local


def header_faults(wsdl):
    """{file: (envelope namespace, element namespace, element)} for every soap:headerfault."""
    doc = etree.parse(wsdl).getroot()
    tns = doc.get("targetNamespace")
    messages = {(tns, m.get("name")): m for m in doc.iterfind("{%s}message" % WSDL)}
    out = {}
    for b in doc.iterfind("{%s}binding" % WSDL):
        port_type = qname(b, b.get("type"))[1]
        for op in b.iterfind("{%s}operation" % WSDL):
            for soap, env in SOAP.items():
                for hf in op.iterfind(".//{%s}headerfault" % soap):
                    m = messages[qname(hf, hf.get("message"))]
                    part = next(p for p in m.iterfind("{%s}part" % WSDL)
                                if p.get("name") == hf.get("part"))
                    ns, local = qname(part, part.get("element"))
                    out.setdefault("%s.%s.headerfault.%s.xml" % (port_type, op.get("name"),
                                                                local), (env, ns, local))
    return out


def check_header_faults(wsdl, samples):
    client = zeep.Client(wsdl)
    problems = 0
    for name, (env, ns, local) in sorted(header_faults(wsdl).items()):
        path = os.path.join(samples, name)
        if not os.path.exists(path):
            print("FAIL %s: not written" % name)
            problems += 1
            continue
        root = etree.parse(path).getroot()
        entry = root.find("{%s}Header/{%s}%s" % (env, ns, local))
        fault = root.find("{%s}Body/{%s}Fault" % (env, env))
        why = []
        if entry is None:
            why.append("no {%s}%s in the Header" % (ns, local))
        if fault is None:
            why.append("no Fault in the Body")
        elif fault.find("detail") is not None or fault.find("{%s}Detail" % env) is not None:
            why.append("a detail (SOAP 1.1 section 4.4: none for a header)")
        if entry is not None:
            try:
                client.get_element("{%s}%s" % (ns, local)).parse(entry, client.wsdl.types)
            except Exception as e:  # zeep's own errors: the entry does not match the schema
                why.append("zeep: %s: %s" % (type(e).__name__, str(e)[:200]))
        print(("FAIL %s: %s" % (name, "; ".join(why))) if why else "PASS %s" % name)
        problems += bool(why)
    return problems


# The checker run with zeep's deserialization a no-op (--no-zeep).
NO_ZEEP = """import runpy, sys
from zeep.wsdl.messages.soap import SoapMessage
SoapMessage.deserialize = lambda self, node: None
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def main():
    mock, wsdl, checker, work = sys.argv[1:5]
    no_zeep = sys.argv[5:] == ["--no-zeep"]
    samples = os.path.join(work, "samples")
    shutil.rmtree(samples, ignore_errors=True)
    if subprocess.run([mock, "--samples", samples]).returncode != 0:
        print("mock-server --samples failed")
        return 1
    if check_header_faults(wsdl, samples):
        return 1
    run = [sys.executable, "-c", NO_ZEEP] if no_zeep else [sys.executable]
    return subprocess.run(run + [checker, "check", wsdl, "--samples", samples]).returncode


if __name__ == "__main__":
    sys.exit(main())

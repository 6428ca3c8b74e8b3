#!/usr/bin/python3
"""zeep calling perf.wsdl's DocPortType (binding SoapBindingDocLit) at --url.

usage: zeep_perf_client.py --wsdl perf.wsdl --url URL
Prints PASS|FAIL <check> <detail> lines; exit code 1 when a check fails.
zeep is Debian's python3-zeep (strict settings).
"""
import argparse
from decimal import Decimal

import zeep

p = argparse.ArgumentParser()
p.add_argument("--wsdl", required=True)
p.add_argument("--url", required=True)
a = p.parse_args()

service = zeep.Client(a.wsdl).create_service(
    "{http://cxf.apache.org/cxf/performance}SoapBindingDocLit", a.url)
item = {"varString": "h\u00e9llo <&>", "varUByte": 200, "varUnsignedLong": 1234567890123,
        "varFloat": 3.25, "varQName": "q", "varBase64Binary": bytes(range(10)),
        "varHexBinary": "0A0B0C",
        "varStruct": {"varAttrString": "attr", "varFloat": 1.5, "varShort": 12,
                      "varString": "inner", "varByte": -3, "varDecimal": Decimal("12.25"),
                      "varDouble": 6.5, "varDateTime": "2024-01-02T03:04:05Z"},
        "varEnum": "GREEN"}
failures = 0


def check(name, got, want):
    global failures
    if got == want:
        print(f"PASS {name}")
    else:
        failures += 1
        print(f"FAIL {name} got {got!r}, want {want!r}")


answer = service.echoComplexTypeDoc(**{"in": {"item": [item, item]}, "id": 7})
check("echoComplexTypeDoc.idout", answer["idout"], 7)
items = answer["return"]["item"]
check("echoComplexTypeDoc.items", len(items), 2)
check("echoComplexTypeDoc.varString", items[1]["varString"], item["varString"])
check("echoComplexTypeDoc.varUnsignedLong", items[1]["varUnsignedLong"], 1234567890123)
check("echoComplexTypeDoc.varBase64Binary", items[1]["varBase64Binary"], bytes(range(10)))
check("echoComplexTypeDoc.varDecimal", items[1]["varStruct"]["varDecimal"], Decimal("12.25"))
check("echoComplexTypeDoc.varAttrString", items[1]["varStruct"]["varAttrString"], "attr")
check("echoComplexTypeDoc.varEnum", items[1]["varEnum"], "GREEN")
check("echoStringDoc", service.echoStringDoc("<&>"), "<&>")
check("echoBase64Doc", service.echoBase64Doc(bytes(range(256))), bytes(range(256)))
raise SystemExit(1 if failures else 0)

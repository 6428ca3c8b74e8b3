#!/usr/bin/python3
"""zeep's side of bench/run.sh dynamic: the same figures as lather-bench-dynamic.

  zeep_dynamic.py --wsdl perf.wsdl --address URL [--seconds S]   echoComplexTypeDoc calls/s
  zeep_dynamic.py --load WSDL [--loads N]                        zeep.Client(WSDL) load time
Prints RESULT lines. zeep is Debian's python3-zeep (strict settings, its default transport).
"""
import argparse
import statistics
import time
from decimal import Decimal

import zeep

p = argparse.ArgumentParser()
p.add_argument("--wsdl")
p.add_argument("--address")
p.add_argument("--seconds", type=float, default=5)
p.add_argument("--load")
p.add_argument("--loads", type=int, default=3)
a = p.parse_args()

if a.address:
    client = zeep.Client(a.wsdl)
    service = client.create_service(
        "{http://cxf.apache.org/cxf/performance}SoapBindingDocLit", a.address)
    item = {"varString": "hello world", "varUByte": 200, "varUnsignedLong": 1234567890123,
            "varFloat": 3.25, "varQName": "q", "varBase64Binary": bytes(range(10)),
            "varHexBinary": "0A0B0C",
            "varStruct": {"varAttrString": "attr", "varFloat": 1.5, "varShort": 12,
                          "varString": "inner", "varByte": -3, "varDecimal": Decimal("12.25"),
                          "varDouble": 6.5, "varDateTime": "2024-01-02T03:04:05Z"},
            "varEnum": "GREEN"}
    request = {"in_": {"item": [item]}, "id": 7}
    answer = service.echoComplexTypeDoc(**{"in": request["in_"], "id": 7})
    assert answer["idout"] == 7, answer
    calls = 0
    start = time.perf_counter()
    end = start + a.seconds
    now = start
    while now < end:
        service.echoComplexTypeDoc(**{"in": request["in_"], "id": 7})
        calls += 1
        now = time.perf_counter()
    elapsed = now - start
    print(f"RESULT engine=zeep calls={calls} seconds={elapsed:.2f} calls_per_s={calls / elapsed:.0f} "
          f"us_per_call={1e6 * elapsed / calls:.1f}")
if a.load:
    times, cpu_times = [], []
    for _ in range(a.loads):
        start, cpu = time.perf_counter(), time.process_time()
        zeep.Client(a.load)
        times.append((time.perf_counter() - start) * 1e3)
        cpu_times.append((time.process_time() - cpu) * 1e3)
    print(f"RESULT engine=zeep load_ms={statistics.median(times):.1f} "
          f"load_cpu_ms={statistics.median(cpu_times):.1f} loads={a.loads}")

#!/usr/bin/python3
"""zeep peer client: runs the VECTORS.md checks against an interop.wsdl endpoint.

usage: zeep_client.py --url URL [--wsdl WSDL_URL] [--soap12]
Without --wsdl the shared interop.wsdl is used (its soap binding turned into a soap12 one
for --soap12); the endpoint address is always overridden with --url.
Prints one line per check: PASS|FAIL <check> <detail>.
"""
import argparse
import os
import sys
import tempfile

import zeep
import zeep.exceptions
from zeep.plugins import HistoryPlugin
from zeep.wsdl.bindings.soap import Soap11Binding, Soap12Binding

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vectors  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED_WSDL = os.path.normpath(os.path.join(HERE, "../../../../shared/interop/interop.wsdl"))
XSI_NIL = "{http://www.w3.org/2001/XMLSchema-instance}nil"
ENV_NS = {False: "http://schemas.xmlsoap.org/soap/envelope/",
          True: "http://www.w3.org/2003/05/soap-envelope"}


def local(tag):
    return tag.rsplit("}", 1)[-1]


def wsdl_source(args):
    if args.wsdl:
        return args.wsdl
    if not args.soap12:
        return SHARED_WSDL
    with open(SHARED_WSDL, encoding="utf-8") as f:
        text = f.read().replace("http://schemas.xmlsoap.org/wsdl/soap/",
                                "http://schemas.xmlsoap.org/wsdl/soap12/")
    tmp = tempfile.NamedTemporaryFile("w", suffix=".wsdl", delete=False, encoding="utf-8")
    tmp.write(text)
    tmp.close()
    return tmp.name


def body_child(envelope, soap12):
    body = envelope.find(f"{{{ENV_NS[soap12]}}}Body")
    return None if body is None or len(body) == 0 else body[0]


def is_nil(element):
    return element.get(XSI_NIL) in ("true", "1")


def raw_note_problem(response, expected_notes):
    """zeep reads <note/> as None; the contract says "" is not nil, so look at the wire."""
    results = [e for e in response if local(e.tag) == "result"]
    if len(results) != len(expected_notes):
        return f"raw: {len(results)} result elements, want {len(expected_notes)}"
    for i, (result, want) in enumerate(zip(results, expected_notes)):
        notes = [e for e in result if local(e.tag) == "note"]
        if want is None and notes and not is_nil(notes[0]):
            return f"raw [{i}]: note present and not nil ({notes[0].text!r}), want nil/absent"
    return None


def fault_problem(history, soap12):
    fault = body_child(history.last_received["envelope"], soap12)
    if fault is None or local(fault.tag) != "Fault":
        return "no Fault element in the body"
    if soap12:
        value = fault.find(f"{{{ENV_NS[True]}}}Code/{{{ENV_NS[True]}}}Value")
        reason = fault.find(f"{{{ENV_NS[True]}}}Reason/{{{ENV_NS[True]}}}Text")
        want_code = "Sender"
    else:
        value = next((e for e in fault if local(e.tag) == "faultcode"), None)
        reason = next((e for e in fault if local(e.tag) == "faultstring"), None)
        want_code = "Client"
    if value is None or reason is None:
        return "fault without code or reason"
    prefix, _, name = (value.text or "").strip().rpartition(":")
    namespace = value.nsmap.get(prefix or None)
    if (namespace, name) != (ENV_NS[soap12], want_code):
        return f"faultcode {value.text!r} resolves to {{{namespace}}}{name}"
    if (reason.text or "") != "negative":
        return f"faultstring {reason.text!r}"
    return None


def zeep_safe(kwargs):
    """zeep writes doubles with str(), i.e. 'inf'/'nan', which is not xsd:double; it passes
    strings through, so the XSD spellings go in as text (zeep bug, see docs/interop.md)."""
    value = kwargs.get("value")
    if isinstance(value, dict) and isinstance(value.get("price"), float):
        price = value["price"]
        if price != price or price in (float("inf"), float("-inf")):
            spelled = "NaN" if price != price else ("INF" if price > 0 else "-INF")
            return dict(kwargs, value=dict(value, price=spelled))
    return kwargs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--wsdl")
    parser.add_argument("--soap12", action="store_true")
    args = parser.parse_args()

    history = HistoryPlugin()
    transport = zeep.Transport(timeout=60, operation_timeout=60)
    client = zeep.Client(wsdl_source(args), transport=transport, plugins=[history])
    wanted = Soap12Binding if args.soap12 else Soap11Binding
    bindings = [b for b in client.wsdl.bindings.values() if isinstance(b, wanted)]
    if not bindings:
        print(f"FAIL wsdl no {wanted.__name__} in the WSDL")
        return 1
    service = client.create_service(bindings[0].name, args.url)

    failures = 0
    for name, operation, kwargs, compare in vectors.checks():
        try:
            answer = getattr(service, operation)(**zeep_safe(kwargs))
            if operation == "addNumbers" and compare is None:
                problem = f"no fault, got {answer!r}"
            else:
                response = body_child(history.last_received["envelope"], args.soap12)
                if compare is None:  # echoString.empty: must be <result/> and not nil
                    results = [e for e in response if local(e.tag) == "result"]
                    problem = None
                    if len(results) != 1 or is_nil(results[0]) or (results[0].text or ""):
                        problem = "raw: want one empty, non-nil <result>"
                else:
                    problem = compare(answer)
                if problem is None and operation == "echoStruct":
                    problem = raw_note_problem(response, [kwargs["value"]["note"]])
                if problem is None and operation == "echoArray":
                    problem = raw_note_problem(response, [s["note"] for s in kwargs["value"]])
        except zeep.exceptions.Fault as fault:
            if operation == "addNumbers" and compare is None:
                problem = fault_problem(history, args.soap12)
            else:
                problem = f"fault {fault.code}: {vectors.short(fault.message)}"
        except Exception as error:  # any client-side failure is a failed check, not a crash
            problem = f"{type(error).__name__}: {vectors.short(str(error))}"
        if problem:
            failures += 1
        print(f"{'FAIL' if problem else 'PASS'} {name} {problem or ''}".rstrip(), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""zeep calling the operations of tests/wsdl/data/empty.wsdl (port type Empties) at --url:
operations whose input or output has no body part, so an empty SOAP Body goes one way or both.

usage: zeep_empty_client.py --wsdl empty.wsdl --url URL
Prints PASS|FAIL <check> <detail> lines; exit code 1 when a check fails.
zeep is Debian's python3-zeep (strict settings).
"""
import argparse

import zeep
import zeep.exceptions
from lxml import etree
from zeep.plugins import HistoryPlugin

p = argparse.ArgumentParser()
p.add_argument("--wsdl", required=True)
p.add_argument("--url", required=True)
a = p.parse_args()

history = HistoryPlugin()
client = zeep.Client(a.wsdl, plugins=[history])
service = client.create_service("{urn:lather:empty}EmptiesSoap", a.url)
failures = 0


def check(name, got, want):
    global failures
    if got == want:
        print(f"PASS {name}")
    else:
        failures += 1
        print(f"FAIL {name} got {got!r}, want {want!r}")


def sent_body_children():
    """The number of elements in the Body of the last request zeep sent."""
    envelope = history.last_sent["envelope"]
    body = envelope.find("{http://schemas.xmlsoap.org/soap/envelope/}Body")
    return len(body)


# An empty Body both ways: zeep sends <Body/> and returns None for the empty response.
check("Ping", service.Ping(), None)
check("Ping.request_body_is_empty", sent_body_children(), 0)
# An empty request, a response element (zeep unwraps its one child).
check("Status", service.Status(), "up")
check("Status.request_body_is_empty", sent_body_children(), 0)
# A request element, an empty response.
check("Reset", service.Reset(target="disk"), None)
# One-way, the request's only part in a SOAP header and an empty Body.
check("Touch", service.Touch(_soapheaders={"session": {"id": "s1"}}), None)
check("Touch.request_body_is_empty", sent_body_children(), 0)
# EchoOk: headers only, no soapAction. zeep sends SOAPAction "" (the binding gives none) and,
# as the operation has a wsam:Action, WS-Addressing headers with that wsa:Action, by which the
# service dispatches the empty Body (as CXF does); its WS-Addressing Action as the SOAPAction
# names it too. zeep cannot read the answer itself: for a message whose parts are all bound to
# soap:header it still takes the Body's first child (DocumentMessage._deserialize_body:
# `list(xmlelement)[0]`), an IndexError on the empty Body. So the raw response is read here.
env = "{http://schemas.xmlsoap.org/soap/envelope/}"


def echo_ok(name, **settings):
    with client.settings(raw_response=True, **settings):
        raw = service.EchoOk(_soapheaders={"echoOk": "hi"})
    check(f"{name}.request_body_is_empty", sent_body_children(), 0)
    check(f"{name}.status", raw.status_code, 200)
    response = etree.fromstring(raw.content)
    check(f"{name}.response_header",
          response.findtext(f"{env}Header/{{urn:lather:empty}}ResponseOk"), "hi!")
    check(f"{name}.response_body_is_empty", len(response.find(f"{env}Body")), 0)


echo_ok("EchoOk.by_wsa_action")
echo_ok("EchoOk.by_soap_action",
        extra_http_headers={"SOAPAction": '"urn:lather:empty:EchoOk"'})
raise SystemExit(1 if failures else 0)

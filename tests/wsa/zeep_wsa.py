#!/usr/bin/python3
"""zeep calls a lather server with WS-Addressing (zeep.wsa.WsAddressingPlugin).

usage: zeep_wsa.py --wsdl URL --service NAME [--soap12] [--no-wsa] [--to URL]
Calls echo(text="hi") once and prints "ok <text> relates=<yes|no> action=<Action>": whether the
response's wsa:RelatesTo is the MessageID zeep sent, and the response's wsa:Action (zeep shows
neither: they are read from the envelopes its HistoryPlugin kept). A SOAP fault prints
"fault <code>" (SOAP 1.1 faultcode or the first SOAP 1.2 subcode, local part). --no-wsa calls
without the plugin; --to makes the plugin send that wsa:To instead of the port's address.
"""
import argparse
import sys

import zeep
import zeep.exceptions
from zeep.plugins import HistoryPlugin
from zeep.wsa import WsAddressingPlugin

sys.dont_write_bytecode = True
WSA = "{http://www.w3.org/2005/08/addressing}"


def local(code):
    text = getattr(code, "localname", None) or getattr(code, "text", None) or str(code)
    return text.rsplit("}", 1)[-1].rsplit(":", 1)[-1]


def header(envelope, name):
    found = envelope.find(".//" + WSA + name)
    return None if found is None else found.text


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--wsdl")
    p.add_argument("--service")
    p.add_argument("--soap12", action="store_true")
    p.add_argument("--no-wsa", action="store_true")
    p.add_argument("--to")
    a = p.parse_args()
    history = HistoryPlugin()
    plugins = [history] if a.no_wsa else [WsAddressingPlugin(a.to), history]
    client = zeep.Client(a.wsdl, plugins=plugins)
    port = a.service + ("Soap12Port" if a.soap12 else "SoapPort")
    service = client.bind(a.service, port)
    try:
        r = service.echo(text="hi")
    except zeep.exceptions.Fault as f:
        codes = [local(c) for c in (f.subcodes or [])] or [local(f.code)]
        print("fault", codes[0], flush=True)
        return
    sent = history.last_sent["envelope"]
    received = history.last_received["envelope"]
    relates = header(received, "RelatesTo") == header(sent, "MessageID") is not None
    print("ok", r.text, "relates=" + ("yes" if relates else "no"),
          "action=" + str(header(received, "Action")), flush=True)


if __name__ == "__main__":
    main()

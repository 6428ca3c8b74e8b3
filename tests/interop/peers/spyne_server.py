#!/usr/bin/python3
"""spyne peer: interop.wsdl's operations, document/literal wrapped, namespace urn:interop.

usage: spyne_server.py PORT
Serves SOAP 1.1 at /interop and SOAP 1.2 at /interop12 (WSDL at ?wsdl on each) on
127.0.0.1:PORT with wsgiref (one request at a time) and prints READY once listening.
"""
import logging
import sys
from wsgiref.simple_server import WSGIRequestHandler, make_server

from spyne import (Application, ByteArray, ComplexModel, DateTime, Double, Fault,
                   Integer32, ServiceBase, Unicode, rpc)
from spyne.protocol.soap import Soap11, Soap12
from spyne.server.wsgi import WsgiApplication

NS = "urn:interop"


class Struct(ComplexModel):
    __namespace__ = NS
    # Element order is part of the contract (xsd:sequence in interop.wsdl).
    _type_info = [
        ("name", Unicode(min_occurs=1, nillable=False)),
        ("count", Integer32(min_occurs=1, nillable=False)),
        ("price", Double(min_occurs=1, nillable=False)),
        ("when", DateTime(min_occurs=1, nillable=False)),
        ("tags", Unicode(min_occurs=0, max_occurs="unbounded", nillable=False)),
        ("note", Unicode(min_occurs=0, nillable=True)),
    ]


StructList = Struct.customize(min_occurs=0, max_occurs="unbounded", nillable=False)


class InteropService(ServiceBase):
    @rpc(Unicode(min_occurs=1, nillable=False), _returns=Unicode(nillable=False),
         _out_variable_name="result", _in_arg_names={"value": "value"})
    def echoString(ctx, value):
        # spyne reads <value/> as None; the contract wants "" back, never nil.
        return value if value is not None else ""

    @rpc(Integer32(min_occurs=1, nillable=False), _returns=Integer32, _out_variable_name="result")
    def echoInt(ctx, value):
        return value

    @rpc(Struct.customize(min_occurs=1, nillable=False), _returns=Struct,
         _out_variable_name="result")
    def echoStruct(ctx, value):
        return value

    @rpc(StructList, _returns=StructList, _out_variable_name="result")
    def echoArray(ctx, value):
        return value or []

    @rpc(Integer32(min_occurs=1), Integer32(min_occurs=1), _returns=Integer32,
         _out_variable_name="result")
    def addNumbers(ctx, a, b):
        if a < 0 or b < 0:
            raise Fault(faultcode="Client", faultstring="negative")
        return a + b

    @rpc(ByteArray(min_occurs=1), _returns=ByteArray, _out_variable_name="result")
    def echoBinary(ctx, value):
        return value


def make_app(protocol):
    app = Application([InteropService], tns=NS, name="Interop",
                      in_protocol=protocol(validator="lxml"), out_protocol=protocol())
    # The default 2 MB request limit would refuse the 5 MB interop payload.
    return WsgiApplication(app, max_content_length=64 * 1024 * 1024)


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


def main():
    port = int(sys.argv[1])
    logging.basicConfig(level=logging.ERROR)
    logging.getLogger("spyne").setLevel(logging.CRITICAL)  # expected faults are not errors
    apps = {"/interop": make_app(Soap11), "/interop12": make_app(Soap12)}

    def dispatch(environ, start_response):
        app = apps.get(environ.get("PATH_INFO", ""))
        if app is None:
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not found\n"]
        return app(environ, start_response)

    server = make_server("127.0.0.1", port, dispatch, handler_class=QuietHandler)
    print("READY", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()

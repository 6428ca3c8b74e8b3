#!/usr/bin/python3
"""spyne peer for CXF's perf.wsdl (DocPortType, document/literal wrapped): echoComplexTypeDoc,
echoStringDoc, echoBase64Doc in http://cxf.apache.org/cxf/performance/types, written the way a
spyne user would write them from the WSDL.

usage: spyne_perf_server.py PORT
Serves SOAP 1.1 at /perf on 127.0.0.1:PORT with wsgiref (HTTP/1.0: one request per connection,
no chunked request bodies) and prints READY once listening.

spyne has no xsd:QName type, so varQName is a string: its text ("ns2:return") is echoed without
the declaration of its prefix, as PHP ext/soap does, and lather-bench reports every such echo.
"""
import logging
import sys
from wsgiref.simple_server import WSGIRequestHandler, make_server

from spyne import (Application, ByteArray, ComplexModel, DateTime, Decimal, Double, Enum, Float,
                   Integer8, Integer16, Integer32, ServiceBase, Unicode, UnsignedInteger8,
                   UnsignedInteger64, XmlAttribute, rpc)
from spyne.protocol.soap import Soap11
from spyne.server.wsgi import WsgiApplication

NS = "http://cxf.apache.org/cxf/performance/types"


def required(t):
    return t.customize(min_occurs=1, nillable=False)


class SimpleStruct(ComplexModel):
    __namespace__ = NS
    _type_info = [  # xsd:sequence order is the contract
        ("varFloat", required(Float)),
        ("varShort", required(Integer16)),
        ("varString", required(Unicode)),
        ("varByte", required(Integer8)),
        ("varDecimal", required(Decimal)),
        ("varDouble", required(Double)),
        ("varDateTime", required(DateTime)),
        ("varAttrString", XmlAttribute(Unicode)),
    ]


ColourEnum = Enum("RED", "GREEN", "BLUE", type_name="ColourEnum", __namespace__=NS)


class NestedComplexType(ComplexModel):
    __namespace__ = NS
    _type_info = [
        ("varString", required(Unicode)),
        ("varUByte", required(UnsignedInteger8)),
        ("varUnsignedLong", required(UnsignedInteger64)),
        ("varFloat", required(Float)),
        ("varQName", required(Unicode)),
        ("varBase64Binary", required(ByteArray)),
        # Debian's spyne 2.14 cannot decode hexBinary (from_hex joins str as bytes: TypeError),
        # so the hex text is echoed as a string, checked against xsd:hexBinary's pattern.
        ("varHexBinary", required(Unicode(pattern="([0-9a-fA-F]{2})*"))),
        ("varStruct", required(SimpleStruct)),
        ("varEnum", required(ColourEnum)),
    ]


class NestedComplexTypeSeq(ComplexModel):
    __namespace__ = NS
    _type_info = [("item", NestedComplexType.customize(min_occurs=0, max_occurs="unbounded"))]


class PerfService(ServiceBase):
    @rpc(required(NestedComplexTypeSeq), required(Integer32),
         _returns=(NestedComplexTypeSeq, Integer32), _out_variable_names=("return", "idout"),
         _in_arg_names={"in_": "in"})
    def echoComplexTypeDoc(ctx, in_, id):
        return in_, id

    @rpc(required(Unicode), _returns=Unicode, _out_variable_name="out",
         _in_arg_names={"in_": "in"})
    def echoStringDoc(ctx, in_):
        return in_ if in_ is not None else ""

    @rpc(required(ByteArray), _returns=ByteArray, _out_variable_name="out",
         _in_arg_names={"in_": "in"})
    def echoBase64Doc(ctx, in_):
        return in_


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


def main():
    port = int(sys.argv[1])
    logging.basicConfig(level=logging.ERROR)
    logging.getLogger("spyne").setLevel(logging.CRITICAL)
    app = Application([PerfService], tns=NS, name="PerfService",
                      in_protocol=Soap11(validator="lxml"), out_protocol=Soap11())
    perf = WsgiApplication(app, max_content_length=64 * 1024 * 1024)

    def dispatch(environ, start_response):
        if environ.get("PATH_INFO", "") != "/perf":
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not found\n"]
        return perf(environ, start_response)

    server = make_server("127.0.0.1", port, dispatch, handler_class=QuietHandler)
    print("READY", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()

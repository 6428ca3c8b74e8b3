#!/usr/bin/python3
"""Writes the XML seed corpus (fuzz/corpus/xml/) and the large test fixtures (tests/xml/data/).

Deterministic: rerunning produces the same files. Seeds are SOAP messages of the CXF perf
contract, the interop contract, RPC/encoded multi-ref messages, faults, the small WSDLs of the
shared corpus, and many small hand-written well- and ill-formed cases.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
CORPUS = os.path.join(ROOT, "fuzz", "corpus", "xml")
DATA = os.path.join(ROOT, "tests", "xml", "data")

SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/"
SOAP12 = "http://www.w3.org/2003/05/soap-envelope"
ENC = "http://schemas.xmlsoap.org/soap/encoding/"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
XSD = "http://www.w3.org/2001/XMLSchema"
PERF = "http://cxf.apache.org/cxf/performance/types"


def b64(data):
    import base64
    return base64.b64encode(data).decode()


BYTES = bytes((i + 128) % 256 for i in range(256))  # -128..127 as unsigned
STRUCT_STR = "1234567890!@#$%^&amp;*()abcdefghijk"


def cxf_item(p="ns2"):
    return (
        f"<{p}:item><{p}:varString>#12345ABc</{p}:varString><{p}:varUByte>255</{p}:varUByte>"
        f"<{p}:varUnsignedLong>13691056728</{p}:varUnsignedLong>"
        f"<{p}:varFloat>3.4028235E38</{p}:varFloat>"
        f"<{p}:varQName xmlns:ns3=\"http://cxf.apache.org\">ns3:return</{p}:varQName>"
        f"<{p}:varBase64Binary>{b64(BYTES)}</{p}:varBase64Binary>"
        f"<{p}:varHexBinary>{BYTES.hex().upper()}</{p}:varHexBinary>"
        f"<{p}:varStruct varAttrString=\"{STRUCT_STR}\"><{p}:varFloat>3.4028235E38</{p}:varFloat>"
        f"<{p}:varShort>32767</{p}:varShort><{p}:varString>{STRUCT_STR}</{p}:varString>"
        f"<{p}:varByte>127</{p}:varByte><{p}:varDecimal>3.1415926</{p}:varDecimal>"
        f"<{p}:varDouble>1.7976931348623157E308</{p}:varDouble>"
        f"<{p}:varDateTime>2005-12-03T00:00:09Z</{p}:varDateTime></{p}:varStruct>"
        f"<{p}:varEnum>RED</{p}:varEnum></{p}:item>")


def cxf_echo_complex(n, response=False):
    op = "echoComplexTypeDocResponse" if response else "echoComplexTypeDoc"
    seq, idn = ("return", "idout") if response else ("in", "id")
    items = "".join(cxf_item() for _ in range(n))
    return (f'<soap:Envelope xmlns:soap="{SOAP11}"><soap:Body>'
            f'<ns2:{op} xmlns:ns2="{PERF}"><ns2:{seq}>{items}</ns2:{seq}>'
            f'<ns2:{idn}>42</ns2:{idn}></ns2:{op}></soap:Body></soap:Envelope>')


def cxf_echo_string(n):
    s = "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&amp;*()_+?&gt;&lt;[]/0123456789" * (16 * n)
    return (f'<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="{SOAP11}">'
            f'<soap:Body><ns2:echoStringDoc xmlns:ns2="{PERF}"><ns2:in>{s}</ns2:in>'
            f'</ns2:echoStringDoc></soap:Body></soap:Envelope>')


def cxf_echo_base64():
    return (f'<soap:Envelope xmlns:soap="{SOAP11}"><soap:Body>'
            f'<ns2:echoBase64DocResponse xmlns:ns2="{PERF}"><ns2:out>{b64(BYTES * 4)}</ns2:out>'
            f'</ns2:echoBase64DocResponse></soap:Body></soap:Envelope>')


def rpc_encoded_multiref(n):
    refs = "".join(
        f'<multiRef id="id{i}" soapenc:root="0" soapenv:encodingStyle="{ENC}" '
        f'xsi:type="ns{i}:SOAPStruct" xmlns:ns{i}="http://soapinterop.org/xsd" '
        f'xmlns:soapenc="{ENC}"><varString xsi:type="xsd:string">s{i}</varString>'
        f'<varInt xsi:type="xsd:int">{i}</varInt><varFloat xsi:type="xsd:float">{i}.5</varFloat>'
        f'<next href="#id{(i + 1) % n}"/></multiRef>' for i in range(n))
    arr = "".join(f'<item href="#id{i}"/>' for i in range(n))
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<soapenv:Envelope '
            f'xmlns:soapenv="{SOAP11}" xmlns:xsd="{XSD}" xmlns:xsi="{XSI}">\n <soapenv:Body>\n'
            f'  <ns1:echoStructArray soapenv:encodingStyle="{ENC}" '
            f'xmlns:ns1="http://soapinterop.org/">\n   <inputStructArray '
            f'xsi:type="soapenc:Array" soapenc:arrayType="ns2:SOAPStruct[{n}]" '
            f'xmlns:soapenc="{ENC}" xmlns:ns2="http://soapinterop.org/xsd">{arr}'
            f'</inputStructArray>\n  </ns1:echoStructArray>\n{refs}\n </soapenv:Body>\n'
            f'</soapenv:Envelope>\n')


def interop_messages():
    out = {}
    out["interop_echoString.xml"] = (
        f'<?xml version="1.0" encoding="utf-8"?>\r\n<SOAP-ENV:Envelope xmlns:SOAP-ENV="{SOAP11}" '
        f'xmlns:SOAP-ENC="{ENC}" xmlns:xsi="{XSI}" xmlns:xsd="{XSD}" '
        f'SOAP-ENV:encodingStyle="{ENC}">\r\n<SOAP-ENV:Body>\r\n<m:echoString '
        f'xmlns:m="http://soapinterop.org/"><inputString xsi:type="xsd:string">'
        f'Hello &lt;world&gt; &amp; &#x263A; \xc3\xa9t\xc3\xa9</inputString></m:echoString>\r\n'
        f'</SOAP-ENV:Body>\r\n</SOAP-ENV:Envelope>\r\n')
    out["interop_echoStringArray.xml"] = (
        f'<soap:Envelope xmlns:soap="{SOAP11}" xmlns:soapenc="{ENC}" xmlns:xsi="{XSI}" '
        f'xmlns:xsd="{XSD}"><soap:Body soap:encodingStyle="{ENC}"><q1:echoStringArray '
        f'xmlns:q1="http://soapinterop.org/"><inputStringArray soapenc:arrayType="xsd:string[3]" '
        f'xsi:type="soapenc:Array"><Item>a</Item><Item xsi:nil="true"/><Item><![CDATA[<b>]]>'
        f'</Item></inputStringArray></q1:echoStringArray></soap:Body></soap:Envelope>')
    out["soap11_fault.xml"] = (
        f'<s:Envelope xmlns:s="{SOAP11}"><s:Header><h:Auth xmlns:h="urn:h" '
        f's:mustUnderstand="1">x</h:Auth></s:Header><s:Body><s:Fault><faultcode>s:Client'
        f'</faultcode><faultstring xml:lang="en">bad &quot;input&quot;</faultstring><detail>'
        f'<e:Err xmlns:e="urn:e" code="42"/></detail></s:Fault></s:Body></s:Envelope>')
    out["soap12_fault.xml"] = (
        f'<?xml version=\'1.0\'?><env:Envelope xmlns:env="{SOAP12}"><env:Body><env:Fault>'
        f'<env:Code><env:Value>env:Sender</env:Value><env:Subcode><env:Value '
        f'xmlns:m="urn:m">m:Bad</env:Value></env:Subcode></env:Code><env:Reason><env:Text '
        f'xml:lang="en">oops</env:Text></env:Reason></env:Fault></env:Body></env:Envelope>')
    return out


# Small hand-written cases: (name, bytes). Both well- and ill-formed.
SMALL = [
    ("empty_element", "<a/>"),
    ("nested", "<a><b><c/></b></a>"),
    ("text", "<a>hello</a>"),
    ("attrs", "<a x='1' y=\"2\" z=''/>"),
    ("attrs_ws", "<a  x = '1'\n\ty\t=\t\"2\"  ></a >"),
    ("entities", "<a>&lt;&gt;&amp;&apos;&quot;</a>"),
    ("charrefs", "<a>&#65;&#x42;&#x1F600;&#9;&#xA;&#xD;</a>"),
    ("charref_attr", "<a v='&#9;&#10;&#13;x'/>"),
    ("attr_norm", "<a v='a\tb\nc\r\nd\re'/>"),
    ("crlf_text", "<a>x\r\ny\rz\r</a>"),
    ("cdata", "<a><![CDATA[<&>]]]></a>"),
    ("cdata_mixed", "<a>1<![CDATA[2]]>3<!--c-->4</a>"),
    ("cdata_empty", "<a><![CDATA[]]></a>"),
    ("comment", "<!-- c --><a><!-- in --></a><!-- after -->"),
    ("comment_dash", "<a><!-- a - b --></a>"),
    ("decl", "<?xml version='1.0'?><a/>"),
    ("decl_full", "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n<a/>\n"),
    ("decl_ascii", "<?xml version='1.0' encoding='US-ASCII'?><a>x</a>"),
    ("bom", "\ufeff<a/>"),
    ("default_ns", "<a xmlns='urn:a'><b/><c xmlns=''><d/></c></a>"),
    ("prefix_ns", "<p:a xmlns:p='urn:p'><p:b p:x='1' y='2'/></p:a>"),
    ("redeclare", "<p:a xmlns:p='u1'><p:b xmlns:p='u2'/><p:c/></p:a>"),
    ("xml_prefix", "<a xml:lang='en' xml:space='preserve'/>"),
    ("xml_decl_ok", "<a xmlns:xml='http://www.w3.org/XML/1998/namespace'/>"),
    ("same_uri_attrs", "<a xmlns:p='u' xmlns:q='v' p:x='1' q:x='2'/>"),
    ("utf8", "<\u00e9l\u00e9ment attr\u00ef='\u4e2d\u6587'>\U0001F600 \u00e9</\u00e9l\u00e9ment>"),
    ("name_chars", "<a-b.c_d1 _x='1' x.y-z='2'/>"),
    ("whitespace_text", "<a>\n  <b> </b>\n</a>"),
    ("deep", "<a>" * 40 + "x" + "</a>" * 40),
    ("gt_in_attr", "<a x='>' y=\"'\" z='\"'/>"),
    ("gt_in_text", "<a>a > b ]] ] ]></a>"),
    ("bad_unclosed", "<a>"),
    ("bad_mismatch", "<a></b>"),
    ("bad_mismatch_prefix", "<p:a xmlns:p='u' xmlns:q='u'></q:a>"),
    # simple children as the binding reads them whole (reader::next_simple_element)
    ("leaves", "<p:r xmlns:p='u'><p:a>1</p:a><p:b>2</p:b><p:a x='1'>3</p:a><p:b>&amp;</p:b>"
               "<p:a xmlns:p='v'>4</p:a><q:a xmlns:q='u'>5</q:a><p:a></p:a></p:r>"),
    ("bad_leaf_mismatch", "<p:r xmlns:p='u'><p:a>1</p:a><p:a>2</p:b></p:r>"),
    ("bad_leaf_mismatch_prefix", "<p:r xmlns:p='u' xmlns:q='u'><p:a>1</q:a></p:r>"),
    ("bad_dup_attr", "<a x='1' x='2'/>"),
    ("bad_dup_resolved", "<a xmlns:p='u' xmlns:q='u' p:x='1' q:x='2'/>"),
    ("bad_dup_xmlns", "<a xmlns:p='u' xmlns:p='u'/>"),
    ("bad_undeclared_elem", "<p:a/>"),
    ("bad_undeclared_attr", "<a p:x='1'/>"),
    ("bad_scope", "<a><b xmlns:p='u'/><p:c/></a>"),
    ("bad_empty_prefix", "<a xmlns:p=''/>"),
    ("bad_xml_rebind", "<a xmlns:xml='urn:x'/>"),
    ("bad_xmlns_bind", "<a xmlns:xmlns='urn:x'/>"),
    ("bad_bind_xmlns_uri", "<a xmlns:p='http://www.w3.org/2000/xmlns/'/>"),
    ("bad_bind_xml_uri", "<a xmlns:p='http://www.w3.org/XML/1998/namespace'/>"),
    ("bad_default_xml_uri", "<a xmlns='http://www.w3.org/XML/1998/namespace'/>"),
    ("bad_entity", "<a>&foo;</a>"),
    ("bad_amp", "<a>a & b</a>"),
    ("bad_charref_zero", "<a>&#0;</a>"),
    ("bad_charref_surrogate", "<a>&#xD800;</a>"),
    ("bad_charref_big", "<a>&#x110000;</a>"),
    ("bad_charref_empty", "<a>&#;</a>"),
    ("bad_lt_attr", "<a x='<'/>"),
    ("bad_cdata_end", "<a>]]></a>"),
    ("bad_ctrl", "<a>\x01</a>"),
    ("bad_ctrl_attr", "<a x='\x1f'/>"),
    ("bad_name_digit", "<1a/>"),
    ("bad_name_colons", "<a:b:c xmlns:a='u'/>"),
    ("bad_name_colon_start", "<:a/>"),
    ("bad_name_colon_end", "<a:/>"),
    ("bad_attr_nows", "<a x='1'y='2'/>"),
    ("bad_attr_noquote", "<a x=1/>"),
    ("bad_attr_noeq", "<a x/>"),
    ("bad_comment_dashes", "<a><!-- a -- b --></a>"),
    ("bad_comment_end", "<a><!-- a ---></a>"),
    ("bad_doctype", "<!DOCTYPE a [<!ENTITY x 'y'>]><a>&x;</a>"),
    ("bad_billion_laughs", "<?xml version='1.0'?><!DOCTYPE lolz [<!ENTITY lol 'lol'>"
     "<!ENTITY lol2 '&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;'>]><lolz>&lol2;</lolz>"),
    ("bad_xxe", "<!DOCTYPE a [<!ENTITY x SYSTEM 'file:///etc/passwd'>]><a>&x;</a>"),
    ("bad_pi", "<a><?pi data?></a>"),
    ("bad_pi_prolog", "<?xml-stylesheet href='x'?><a/>"),
    ("bad_decl_late", " <?xml version='1.0'?><a/>"),
    ("bad_decl_version", "<?xml version='2.0'?><a/>"),
    ("bad_decl_encoding", "<?xml version='1.0' encoding='ISO-8859-1'?><a/>"),
    ("bad_two_roots", "<a/><b/>"),
    ("bad_text_after", "<a/>x"),
    ("bad_text_before", "x<a/>"),
    ("bad_empty", ""),
    ("bad_only_ws", "  \n"),
    ("bad_utf8_overlong", b"<a>\xc0\x80</a>"),
    ("bad_utf8_surrogate", b"<a>\xed\xa0\x80</a>"),
    ("bad_utf8_truncated", b"<a>\xe2\x82</a>"),
    ("bad_utf8_fffe", b"<a>\xef\xbf\xbe</a>"),
    ("bad_utf8_too_big", b"<a>\xf4\x90\x80\x80</a>"),
    ("bad_utf8_stray", b"<a>\x80</a>"),
    ("bad_utf16_bom", b"\xff\xfe<\x00a\x00/\x00>\x00"),
    ("bad_lt_space", "<a>< b/></a>"),
    ("bad_end_space", "<a></ a>"),
    ("bad_cdata_prolog", "<![CDATA[x]]><a/>"),
    ("bad_amp_attr", "<a x='&'/>"),
    ("bad_nul", "<a>\x00</a>"),
]


def write(dirname, name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(dirname, name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(CORPUS, exist_ok=True)
    os.makedirs(DATA, exist_ok=True)
    write(CORPUS, "cxf_echoComplexTypeDoc_1.xml", cxf_echo_complex(1))
    write(CORPUS, "cxf_echoComplexTypeDocResponse_2.xml", cxf_echo_complex(2, response=True))
    write(CORPUS, "cxf_echoStringDoc_1.xml", cxf_echo_string(1))
    write(CORPUS, "cxf_echoBase64DocResponse.xml", cxf_echo_base64())
    write(CORPUS, "rpc_encoded_multiref_4.xml", rpc_encoded_multiref(4))
    for name, text in interop_messages().items():
        write(CORPUS, name, text)
    for name, text in SMALL:
        write(CORPUS, f"case_{name}.xml", text)
    for rel in ["interop/interop.wsdl", "bench/cxf-perf/perf.wsdl",
                "wsdl-corpus/cxf-rpclit/hello_world_RPCLit.wsdl",
                "wsdl-corpus/soapbuilders-r3-compound2/Compound2.wsdl",
                "wsdl-corpus/eu-vies/checkVatService.wsdl"]:
        with open(os.path.join(SHARED, rel), "rb") as f:
            data = f.read()
        if b"<!DOCTYPE" not in data:
            write(CORPUS, "wsdl_" + os.path.basename(rel), data)
    write(DATA, "cxf_echoComplexTypeDoc_100.xml", cxf_echo_complex(100))
    write(DATA, "cxf_echoStringDoc_64.xml", cxf_echo_string(64))
    write(DATA, "rpc_encoded_multiref_500.xml", rpc_encoded_multiref(500))
    return 0


if __name__ == "__main__":
    sys.exit(main())

// A JAX-WS RI client of CXF's perf.wsdl: the proxies wsimport generated (package perf), as a
// CXF or Metro user calls a service. Calls every operation of both ports and checks every
// echoed value on the Java side.
//   java JaxwsPerfClient BASE_URL   (DocPortType at BASE/perf, RPCPortType at BASE/perf/rpc).
// Prints one "ok OPERATION" line per checked call and exits 0, or prints the first mismatch
// and exits 1.
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URL;
import java.util.List;
import java.util.Objects;
import javax.xml.datatype.DatatypeFactory;
import javax.xml.namespace.QName;
import javax.xml.ws.Holder;
import javax.xml.ws.Service;
import perf.ColourEnum;
import perf.DocPortType;
import perf.NestedComplexType;
import perf.NestedComplexTypeSeq;
import perf.RPCPortType;
import perf.SimpleStruct;

public class JaxwsPerfClient {
  static void expect(boolean ok, String what) {
    if (!ok) throw new AssertionError(what);
  }

  static void expectEqual(Object want, Object got, String what) {
    expect(Objects.deepEquals(want, got), what + ": sent " + want + ", got back " + got);
  }

  // 256 bytes -128..127, as CXF's client sends; `shift` makes each item's bytes differ.
  static byte[] bytes(int shift) {
    byte[] b = new byte[256];
    for (int i = 0; i < 256; ++i) b[i] = (byte) (i - 128 + shift);
    return b;
  }

  // CXF's client item (shared/bench/cxf-perf/README.md); item k varies string, bytes, enum,
  // QName and dateTime so that a mixed-up or repeated item is seen.
  static NestedComplexType item(int k) throws Exception {
    SimpleStruct s = new SimpleStruct();
    s.setVarFloat(Float.MAX_VALUE);
    s.setVarShort((short) 32767);
    s.setVarString("1234567890!@#$%^&*()abcdefghijk" + k);
    s.setVarByte((byte) 127);
    s.setVarDecimal(new BigDecimal("3.1415926"));
    s.setVarDouble(Double.MAX_VALUE);
    s.setVarDateTime(DatatypeFactory.newInstance().newXMLGregorianCalendar(
        2005, 12, 3, k, 0, 9, 0, 0));
    s.setVarAttrString("attr <&\"> " + k);
    NestedComplexType n = new NestedComplexType();
    n.setVarString("#12345ABc" + k);
    n.setVarUByte((short) 255);
    n.setVarUnsignedLong(new BigInteger("13691056728").add(BigInteger.valueOf(k)));
    n.setVarFloat(Float.MAX_VALUE);
    n.setVarQName(new QName("http://cxf.apache.org", "return" + k));
    n.setVarBase64Binary(bytes(k));
    n.setVarHexBinary(bytes(k + 7));
    n.setVarStruct(s);
    n.setVarEnum(ColourEnum.values()[k % 3]);
    return n;
  }

  static NestedComplexTypeSeq seq(int items) throws Exception {
    NestedComplexTypeSeq seq = new NestedComplexTypeSeq();
    for (int k = 0; k < items; ++k) seq.getItem().add(item(k));
    return seq;
  }

  static void expectSameItems(NestedComplexTypeSeq sent, NestedComplexTypeSeq got) {
    List<NestedComplexType> a = sent.getItem();
    List<NestedComplexType> b = got.getItem();
    expectEqual(a.size(), b.size(), "items");
    for (int k = 0; k < a.size(); ++k) {
      NestedComplexType x = a.get(k);
      NestedComplexType y = b.get(k);
      String at = "item " + k + " ";
      expectEqual(x.getVarString(), y.getVarString(), at + "varString");
      expectEqual(x.getVarUByte(), y.getVarUByte(), at + "varUByte");
      expectEqual(x.getVarUnsignedLong(), y.getVarUnsignedLong(), at + "varUnsignedLong");
      expectEqual(x.getVarFloat(), y.getVarFloat(), at + "varFloat");
      // The QName's namespace and local part (its prefix is the writer's choice).
      expectEqual(x.getVarQName().getNamespaceURI(), y.getVarQName().getNamespaceURI(),
                  at + "varQName namespace");
      expectEqual(x.getVarQName().getLocalPart(), y.getVarQName().getLocalPart(),
                  at + "varQName local part");
      expectEqual(x.getVarBase64Binary(), y.getVarBase64Binary(), at + "varBase64Binary");
      expectEqual(x.getVarHexBinary(), y.getVarHexBinary(), at + "varHexBinary");
      expectEqual(x.getVarEnum(), y.getVarEnum(), at + "varEnum");
      SimpleStruct s = x.getVarStruct();
      SimpleStruct t = y.getVarStruct();
      expectEqual(s.getVarAttrString(), t.getVarAttrString(), at + "varStruct/@varAttrString");
      expectEqual(s.getVarFloat(), t.getVarFloat(), at + "varStruct/varFloat");
      expectEqual(s.getVarShort(), t.getVarShort(), at + "varStruct/varShort");
      expectEqual(s.getVarString(), t.getVarString(), at + "varStruct/varString");
      expectEqual(s.getVarByte(), t.getVarByte(), at + "varStruct/varByte");
      expectEqual(s.getVarDecimal(), t.getVarDecimal(), at + "varStruct/varDecimal");
      expectEqual(s.getVarDouble(), t.getVarDouble(), at + "varStruct/varDouble");
      expectEqual(s.getVarDateTime(), t.getVarDateTime(), at + "varStruct/varDateTime");
    }
  }

  static final String text = "hello <world> & \u00e9\u4e2d \uD83D\uDE00 ]]>";

  public static void main(String[] args) throws Exception {
    // The WSDL at run time is the server's own ?wsdl, as a JAX-WS user points a generated
    // client at a live service: Metro looks the port up there by its QName. (CXF's perf.wsdl
    // itself is refused by Metro's runtime: its Sec binding references "#SymD_policy", a
    // same-document fragment (WS-PolicyAttachment), but that policy lives in the imported
    // perf_policy.wsdl.)
    String ns = "http://cxf.apache.org/cxf/performance";
    QName serviceName = new QName(ns, "PerfService");
    DocPortType doc = Service.create(new URL(args[0] + "/perf?wsdl"), serviceName)
                          .getPort(new QName(ns, "SoapHttpDocLitPort"), DocPortType.class);
    RPCPortType rpc = Service.create(new URL(args[0] + "/perf/rpc?wsdl"), serviceName)
                          .getPort(new QName(ns, "SoapHttpRPCLitPort"), RPCPortType.class);
    try {
      NestedComplexTypeSeq sent = seq(3);
      Holder<Integer> idout = new Holder<>();
      NestedComplexTypeSeq got = doc.echoComplexTypeDoc(sent, 4242, idout);
      expectEqual(4242, idout.value, "idout");
      expectSameItems(sent, got);
      System.out.println("ok echoComplexTypeDoc");
      expectEqual(text, doc.echoStringDoc(text), "echoStringDoc");
      System.out.println("ok echoStringDoc");
      byte[] all = new byte[768];
      for (int i = 0; i < all.length; ++i) all[i] = (byte) i;
      expectEqual(all, doc.echoBase64Doc(all), "echoBase64Doc");
      System.out.println("ok echoBase64Doc");

      expectSameItems(sent, rpc.echoComplexTypeRPC(sent));
      System.out.println("ok echoComplexTypeRPC");
      expectEqual(text, rpc.echoStringRPC(text), "echoStringRPC");
      System.out.println("ok echoStringRPC");
      expectEqual(all, rpc.echoBase64RPC(all), "echoBase64RPC");
      System.out.println("ok echoBase64RPC");
    } catch (AssertionError e) {
      System.out.println("MISMATCH " + e.getMessage());
      System.exit(1);
    }
  }
}

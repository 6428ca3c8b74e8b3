// An Apache Axis 1.4 client of CXF's perf.wsdl: the stubs WSDL2Java generated (package
// axisperf), as an Axis user calls a service. Calls every operation of both ports and checks
// every echoed value on the Java side.
//   java AxisPerfClient BASE_URL   (DocPortType at BASE/perf, RPCPortType at BASE/perf/rpc).
// Prints one "ok OPERATION" line per checked call and exits 0, or prints the first mismatch
// and exits 1.
import axisperf.ColourEnum;
import axisperf.DocPortType;
import axisperf.NestedComplexType;
import axisperf.PerfServiceLocator;
import axisperf.RPCPortType;
import axisperf.SimpleStruct;
import axisperf.holders.NestedComplexTypeSeqHolder;
import java.math.BigDecimal;
import java.net.URL;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.Objects;
import java.util.TimeZone;
import javax.xml.namespace.QName;
import javax.xml.rpc.holders.IntHolder;
import org.apache.axis.types.UnsignedByte;
import org.apache.axis.types.UnsignedLong;

public class AxisPerfClient {
  static void expectEqual(Object want, Object got, String what) {
    if (!Objects.deepEquals(want, got))
      throw new AssertionError(what + ": sent " + want + ", got back " + got);
  }

  // 256 bytes -128..127, as CXF's client sends; `shift` makes each item's bytes differ.
  static byte[] bytes(int shift) {
    byte[] b = new byte[256];
    for (int i = 0; i < 256; ++i) b[i] = (byte) (i - 128 + shift);
    return b;
  }

  // CXF's client item (shared/bench/cxf-perf/README.md); item k varies string, bytes, enum,
  // QName and dateTime so that a mixed-up or repeated item is seen.
  static NestedComplexType item(int k) {
    Calendar when = new GregorianCalendar(TimeZone.getTimeZone("UTC"));
    when.clear();
    when.set(2005, Calendar.DECEMBER, 3, k, 0, 9);
    SimpleStruct s = new SimpleStruct();
    s.setVarFloat(Float.MAX_VALUE);
    s.setVarShort((short) 32767);
    s.setVarString("1234567890!@#$%^&*()abcdefghijk" + k);
    s.setVarByte((byte) 127);
    s.setVarDecimal(new BigDecimal("3.1415926"));
    s.setVarDouble(Double.MAX_VALUE);
    s.setVarDateTime(when);
    s.setVarAttrString("attr <&\"> " + k);
    NestedComplexType n = new NestedComplexType();
    n.setVarString("#12345ABc" + k);
    n.setVarUByte(new UnsignedByte(255));
    n.setVarUnsignedLong(new UnsignedLong(13691056728L + k));
    n.setVarFloat(Float.MAX_VALUE);
    n.setVarQName(new QName("http://cxf.apache.org", "return" + k));
    n.setVarBase64Binary(bytes(k));
    n.setVarHexBinary(bytes(k + 7));
    n.setVarStruct(s);
    n.setVarEnum(new ColourEnum[] {ColourEnum.RED, ColourEnum.GREEN, ColourEnum.BLUE}[k % 3]);
    return n;
  }

  static void expectSameItems(NestedComplexType[] a, NestedComplexType[] b) {
    expectEqual(a.length, b == null ? 0 : b.length, "items");
    for (int k = 0; k < a.length; ++k) {
      NestedComplexType x = a[k];
      NestedComplexType y = b[k];
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
      expectEqual(s.getVarDateTime().getTimeInMillis(), t.getVarDateTime().getTimeInMillis(),
                  at + "varStruct/varDateTime");
    }
  }

  static final String text = "hello <world> & \u00e9\u4e2d ]]>";
  // Axis 1.4 writes a character outside the BMP as two character references to its UTF-16
  // surrogates ("&#xD83D;&#xDE00;"), which XML 1.0 forbids (2.2 Char, 4.1 WFC: Legal
  // Character): the server must refuse such a request with a clean Client fault.
  static final String outsideBmp = "smile \uD83D\uDE00";

  public static void main(String[] args) throws Exception {
    PerfServiceLocator service = new PerfServiceLocator();
    DocPortType doc = service.getSoapHttpDocLitPort(new URL(args[0] + "/perf"));
    RPCPortType rpc = service.getSoapHttpRPCLitPort(new URL(args[0] + "/perf/rpc"));
    try {
      NestedComplexType[] sent = {item(0), item(1), item(2)};
      NestedComplexTypeSeqHolder got = new NestedComplexTypeSeqHolder();
      IntHolder idout = new IntHolder();
      doc.echoComplexTypeDoc(sent, 4242, got, idout);
      expectEqual(4242, idout.value, "idout");
      expectSameItems(sent, got.value);
      System.out.println("ok echoComplexTypeDoc");
      expectEqual(text, doc.echoStringDoc(text), "echoStringDoc");
      System.out.println("ok echoStringDoc");
      try {
        doc.echoStringDoc(outsideBmp);
        throw new AssertionError("a surrogate character reference was accepted");
      } catch (org.apache.axis.AxisFault fault) {
        String reason = fault.getFaultString();
        if (!fault.getFaultCode().getLocalPart().equals("Client") ||
            !reason.contains("character reference"))
          throw new AssertionError("unexpected fault: " + fault.getFaultCode() + " " + reason);
        System.out.println("ok echoStringDoc outside the BMP refused: " + reason);
      }
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

// CXF's DocPortType as a JAX-WS user writes it: the SEI that wsimport generated from CXF's
// perf.wsdl (package perf), implemented as an echo and published with javax.xml.ws.Endpoint
// on the JDK's built-in HTTP server (com.sun.net.httpserver), as a standalone CXF or Metro
// server is.
//   java JaxwsPerfServer   (binds 127.0.0.1 on a free port)
// Prints "listening on http://127.0.0.1:PORT/perf" once it accepts calls; runs until killed.
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import javax.jws.WebService;
import javax.xml.ws.Endpoint;
import javax.xml.ws.Holder;
import perf.DocPortType;
import perf.NestedComplexTypeSeq;

@WebService(endpointInterface = "perf.DocPortType", serviceName = "PerfService",
            portName = "SoapHttpDocLitPort",
            targetNamespace = "http://cxf.apache.org/cxf/performance")
public class JaxwsPerfServer implements DocPortType {
  @Override
  public String echoStringDoc(String in) {
    return in;
  }

  @Override
  public byte[] echoBase64Doc(byte[] in) {
    return in;
  }

  @Override
  public NestedComplexTypeSeq echoComplexTypeDoc(NestedComplexTypeSeq in, int id,
                                                 Holder<Integer> idout) {
    idout.value = id;
    return in;
  }

  public static void main(String[] args) throws Exception {
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 128);
    http.setExecutor(Executors.newFixedThreadPool(4));
    Endpoint endpoint = Endpoint.create(new JaxwsPerfServer());
    // The WSDL it serves is generated from the SEI's annotations (which wsimport derived from
    // perf.wsdl), as with Endpoint.publish(url, impl). Handing Metro CXF's WSDL as metadata
    // fails at start: Metro validates every binding's policy, and the Sec port's
    // WS-SecurityPolicy assertions need WSIT, which Debian does not package.
    endpoint.publish(http.createContext("/perf"));
    http.start();
    System.out.println("listening on http://127.0.0.1:" + http.getAddress().getPort() + "/perf");
    System.out.flush();
  }
}

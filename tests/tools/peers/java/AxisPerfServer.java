// CXF's DocPortType as an Apache Axis 1.4 user serves it: the interface and deploy.wsdd that
// WSDL2Java --server-side generated from perf.wsdl (package axisperf), implemented as an echo
// and deployed on Axis's standalone SimpleAxisServer (HTTP/1.0, a connection per call).
//   java AxisPerfServer DEPLOY_WSDD   (binds 127.0.0.1 on a free port)
// Prints "listening on http://127.0.0.1:PORT/axis/services/SoapHttpDocLitPort" once it
// accepts calls; runs until killed.
import axisperf.DocPortType;
import axisperf.NestedComplexType;
import axisperf.holders.NestedComplexTypeSeqHolder;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import javax.xml.rpc.holders.IntHolder;
import org.apache.axis.configuration.FileProvider;
import org.apache.axis.deployment.wsdd.WSDDDocument;
import org.apache.axis.server.AxisServer;
import org.apache.axis.transport.http.SimpleAxisServer;
import org.apache.axis.utils.XMLUtils;

public class AxisPerfServer implements DocPortType {
  @Override
  public String echoStringDoc(String in) {
    return in;
  }

  @Override
  public byte[] echoBase64Doc(byte[] in) {
    return in;
  }

  @Override
  public void echoComplexTypeDoc(NestedComplexType[] in, int id,
                                 NestedComplexTypeSeqHolder out, IntHolder idout) {
    out.value = in;
    idout.value = id;
  }

  public static void main(String[] args) throws Exception {
    // The generated deploy.wsdd names the generated (empty) skeleton; this class replaces it.
    String wsdd = new String(Files.readAllBytes(Paths.get(args[0])), StandardCharsets.UTF_8)
                      .replace("axisperf.SoapBindingDocLitImpl", "AxisPerfServer");
    FileProvider config = new FileProvider(
        AxisServer.class.getResourceAsStream("/org/apache/axis/server/server-config.wsdd"));
    SimpleAxisServer server = new SimpleAxisServer();
    server.setMyConfig(config);
    server.setServerSocket(new ServerSocket(0, 128, InetAddress.getByName("127.0.0.1")));
    server.getAxisServer();  // reads the default server configuration
    new WSDDDocument(XMLUtils.newDocument(
                         new ByteArrayInputStream(wsdd.getBytes(StandardCharsets.UTF_8))))
        .deploy(config.getDeployment());
    server.start(false);
    System.out.println("listening on http://127.0.0.1:" + server.getServerSocket().getLocalPort()
                       + "/axis/services/SoapHttpDocLitPort");
    System.out.flush();
  }
}

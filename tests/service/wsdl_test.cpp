// The generated WSDL against real consumers: zeep loads it and calls the service, gSOAP's
// wsdl2h accepts it, and xmllint validates lather's own messages against the embedded XSD.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "lather/perf/types.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace {

using namespace lather;
namespace fs = std::filesystem;

struct command_result {
  int status = -1;
  std::string output;
};

command_result run(const std::string& cmd) {
  command_result r;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, p)) r.output.append(buf, n);
  r.status = pclose(p);
  return r;
}

class wsdl_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    perf_.operation("echoComplexTypeDoc",
                    [](perf::echoComplexTypeDoc& in, perf::echoComplexTypeDocResponse& out) {
                      std::swap(out.return_, in.in);
                      out.idout = in.id;
                    });
    perf_.operation("echoStringDoc", [](const perf::echoStringDoc& in) {
      return perf::echoStringDocResponse{in.in};
    });
    srv_.mount("/perf", perf_);
    srv_.start();
    url_ = "http://127.0.0.1:" + std::to_string(srv_.port()) + "/perf";
    dir_ = fs::temp_directory_path() / ("lather-wsdl-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    srv_.stop();
    fs::remove_all(dir_);
  }

  std::string fetch_wsdl() {
    auto r = run("curl -s -m 10 '" + url_ + "?wsdl'");
    EXPECT_EQ(r.status, 0);
    return r.output;
  }

  service perf_{"PerfService", std::string(perf::service_ns)};
  server srv_{server_options{}};
  std::string url_;
  fs::path dir_;
};

TEST_F(wsdl_fixture, WsdlIsWellFormedAndNamesEveryOperationAndTheAddress) {
  std::string wsdl = fetch_wsdl();
  xml::reader r;
  r.reset(wsdl);
  int operations = 0;
  bool address = false;
  for (auto t = r.next(); t != xml::token::end_document; t = r.next()) {
    ASSERT_NE(t, xml::token::error) << r.error().message();
    if (t != xml::token::start_element) continue;
    if (r.is("http://schemas.xmlsoap.org/wsdl/", "operation") && r.depth() == 3) ++operations;
    if (r.local_name() == "address")
      if (auto* a = r.find_attribute("", "location")) address = a->value == url_;
  }
  EXPECT_EQ(operations, 2 + 2 * 2);  // portType + SOAP 1.1 and 1.2 bindings
  EXPECT_TRUE(address);
}

TEST_F(wsdl_fixture, ZeepLoadsTheWsdlAndCallsTheService) {
  std::ofstream(dir_ / "call.py") << R"PY(
import sys, zeep
from lxml import etree
client = zeep.Client(sys.argv[1])
svc = client.bind('PerfService', 'PerfServiceSoapPort')
item = {
  'varString': '#12345ABc', 'varUByte': 255, 'varUnsignedLong': 13691056728,
  'varFloat': 3.4028234663852886e+38, 'varQName': etree.QName('http://cxf.apache.org', 'return'),
  'varBase64Binary': bytes(range(256)), 'varHexBinary': bytes(range(256)).hex().upper(),
  'varStruct': {'varFloat': 1.5, 'varShort': 32767, 'varString': 'a<&>b', 'varByte': 127,
                'varDecimal': '3.1415926', 'varDouble': 1.7976931348623157e+308,
                'varDateTime': '2005-12-03T00:00:09Z', 'varAttrString': 'attr'},
  'varEnum': 'GREEN'}
r = svc.echoComplexTypeDoc(**{'in': {'item': [item, item]}, 'id': 77})
assert r['idout'] == 77, r
back = r['return']['item']
assert len(back) == 2
assert back[1]['varString'] == '#12345ABc'
assert back[1]['varUnsignedLong'] == 13691056728
assert back[1]['varBase64Binary'] == bytes(range(256))
assert back[1]['varStruct']['varString'] == 'a<&>b'
assert back[1]['varEnum'] == 'GREEN'
assert svc.echoStringDoc(**{'in': 'héllo ✓'}) == 'héllo ✓'
print('OK')
)PY";
  auto r = run("/usr/bin/python3 " + (dir_ / "call.py").string() + " '" + url_ + "?wsdl'");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("OK"), std::string::npos) << r.output;
}

TEST_F(wsdl_fixture, GsoapWsdl2hAcceptsTheWsdl) {
  std::ofstream(dir_ / "perf.wsdl") << fetch_wsdl();
  auto r = run("cd " + dir_.string() + " && wsdl2h -o perf.h perf.wsdl && soapcpp2 -C -j -L -x perf.h");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(fs::exists(dir_ / "perf.h"));
}

TEST_F(wsdl_fixture, EmbeddedSchemaValidatesLathersOwnMessages) {
  std::ofstream(dir_ / "wsdl.xml") << fetch_wsdl();
  // Cut the one schema out of wsdl:types with its namespace declarations.
  std::ofstream(dir_ / "extract.py") << R"PY(
import sys
from lxml import etree
tree = etree.parse(sys.argv[1])
ns = {'wsdl': 'http://schemas.xmlsoap.org/wsdl/', 'xsd': 'http://www.w3.org/2001/XMLSchema'}
schema = tree.getroot().find('wsdl:types/xsd:schema', ns)
etree.ElementTree(schema).write(sys.argv[2], xml_declaration=True, encoding='utf-8')
)PY";
  auto x = run("/usr/bin/python3 " + (dir_ / "extract.py").string() + " " +
               (dir_ / "wsdl.xml").string() + " " + (dir_ / "perf.xsd").string());
  ASSERT_EQ(x.status, 0) << x.output;

  xml::output out;
  xml::writer w{out};
  perf::echoComplexTypeDoc req = perf::make_cxf_request(3, 9);
  bind::write(w, perf::types_ns, "echoComplexTypeDoc", req);
  w.end_document();
  std::ofstream(dir_ / "request.xml") << out.view();
  auto v = run("xmllint --noout --schema " + (dir_ / "perf.xsd").string() + " " +
               (dir_ / "request.xml").string());
  EXPECT_EQ(v.status, 0) << v.output;
}

}  // namespace

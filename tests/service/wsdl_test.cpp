// The generated WSDL against real consumers: zeep loads it and calls the service, gSOAP's
// wsdl2h accepts it, and xmllint validates lather's own messages against the embedded XSD.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "../support/process.hpp"
#include "../support/xml_query.hpp"
#include "lather/http/client.hpp"
#include "lather/perf/types.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"
#include "lather/service/wsdl.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace {

struct lookup_request {
  std::int32_t id = 0;
};
struct lookup_response {
  std::string name;
};
struct invalid_id {
  std::int32_t id = 0;
  std::string hint;
};
// xsd:list values: the schema must say list, not the item type ("1 2 3" is no xsd:int).
struct tags_request {
  lather::xsd::list<std::int32_t> ids;
  std::optional<lather::xsd::list<std::string>> labels;
};
struct tags_response {
  std::int32_t count = 0;
};

// xsd:anyAttribute and a constrained xsd:any, as ?wsdl describes them.
struct tag_request {
  std::string id;
  lather::bind::any_attributes other;  // ##other
  std::string name;
  std::vector<lather::bind::any_element> extra;  // ##local: only what ##other would refuse
};
struct tag_response {
  std::string name;
};

}  // namespace

template <>
struct lather::meta<tag_request> {
  static constexpr std::string_view name = "tag";
  static constexpr std::string_view ns = "urn:lather:tags";
  static constexpr auto fields = lather::fields(
      attribute("id", &tag_request::id), any_attribute(&tag_request::other).namespaces("##other"),
      element("name", &tag_request::name), any(&tag_request::extra).namespaces("##local"));
};
template <>
struct lather::meta<tag_response> {
  static constexpr std::string_view name = "tagResponse";
  static constexpr std::string_view ns = "urn:lather:tags";
  static constexpr auto fields = lather::fields(element("name", &tag_response::name));
};
template <>
struct lather::meta<lookup_request> {
  static constexpr std::string_view name = "lookup";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr auto fields = std::tuple{element("id", &lookup_request::id)};
};
template <>
struct lather::meta<lookup_response> {
  static constexpr std::string_view name = "lookupResponse";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr auto fields = std::tuple{element("name", &lookup_response::name)};
};
template <>
struct lather::meta<invalid_id> {
  static constexpr std::string_view name = "InvalidId";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr auto fields =
      std::tuple{element("id", &invalid_id::id), element("hint", &invalid_id::hint)};
};

template <>
struct lather::meta<tags_request> {
  static constexpr std::string_view name = "tags";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr auto fields =
      std::tuple{element("ids", &tags_request::ids), attribute("labels", &tags_request::labels)};
};
template <>
struct lather::meta<tags_response> {
  static constexpr std::string_view name = "tagsResponse";
  static constexpr std::string_view ns = perf::types_ns;
  static constexpr auto fields = std::tuple{element("count", &tags_response::count)};
};

namespace {

using namespace lather;
namespace fs = std::filesystem;

// A consumer's command to completion, stdout and stderr together; at most two minutes.
lather::test::run_result run(const std::vector<std::string>& argv, const fs::path& cwd = {}) {
  return lather::test::run(argv, lather::test::clock::now() + std::chrono::minutes(2),
                           lather::test::process_options::in_directory(cwd));
}

// The one schema of `wsdl`'s wsdl:types, cut out with its namespace declarations, into
// dir/xsd (lxml); the run's result.
lather::test::run_result extract_schema(const std::string& wsdl, const fs::path& dir,
                                        const std::string& xsd) {
  std::ofstream(dir / "wsdl.xml") << wsdl;
  std::ofstream(dir / "extract.py") << R"PY(
import sys
from lxml import etree
tree = etree.parse(sys.argv[1])
ns = {'wsdl': 'http://schemas.xmlsoap.org/wsdl/', 'xsd': 'http://www.w3.org/2001/XMLSchema'}
schema = tree.getroot().find('wsdl:types/xsd:schema', ns)
etree.ElementTree(schema).write(sys.argv[2], xml_declaration=True, encoding='utf-8')
)PY";
  return run({"/usr/bin/python3", (dir / "extract.py").string(), (dir / "wsdl.xml").string(),
              (dir / xsd).string()});
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
    operation_options lookup;
    lookup.faults = {fault_type<invalid_id>()};
    perf_.operation(
        "lookup",
        [](const lookup_request& in) {
          if (in.id < 0) throw fault_of<invalid_id>{"no such id", invalid_id{in.id, "positive"}};
          return lookup_response{"item" + std::to_string(in.id)};
        },
        lookup);
    perf_.operation("tags", [](const tags_request& in) {
      return tags_response{static_cast<std::int32_t>(in.ids.items.size())};
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
    auto r = run({"/usr/bin/curl", "-s", "-m", "10", url_ + "?wsdl"});
    EXPECT_EQ(r.exit, 0);
    return r.out;
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
  EXPECT_EQ(operations, 4 + 4 * 2);  // portType + SOAP 1.1 and 1.2 bindings
  EXPECT_TRUE(address);
}

// A service implementing an existing contract names its portType, bindings and ports as the
// contract does, so a client generated from that contract finds its port in ?wsdl.
TEST(wsdl_names, ContractNamesReplaceTheGeneratedOnes) {
  service_options o;
  o.wsdl_names = {"DocPortType", "SoapBindingDocLit", "SoapHttpDocLitPort"};
  service s{"PerfService", std::string(perf::service_ns), o};
  s.operation("echoStringDoc",
              [](const perf::echoStringDoc& in) { return perf::echoStringDocResponse{in.in}; });
  const std::string wsdl = generate_wsdl(s, "http://127.0.0.1:1/perf");
  xml::reader r;
  r.reset(wsdl);
  std::vector<std::string> names;
  for (auto t = r.next(); t != xml::token::end_document; t = r.next()) {
    ASSERT_NE(t, xml::token::error) << r.error().message();
    if (t != xml::token::start_element || r.ns() != "http://schemas.xmlsoap.org/wsdl/") continue;
    std::string line(r.local_name());
    for (const char* attr : {"name", "type", "binding"})
      if (auto* a = r.find_attribute("", attr)) line += " " + std::string(a->value);
    if (line.starts_with("portType") || line.starts_with("binding") ||
        line.starts_with("service") || line.starts_with("port "))
      names.push_back(line);
  }
  const std::vector<std::string> expected = {
      "portType DocPortType",
      "binding SoapBindingDocLit tns:DocPortType",
      "binding SoapBindingDocLitSoap12 tns:DocPortType",
      "service PerfService",
      "port SoapHttpDocLitPort tns:SoapBindingDocLit",
      "port SoapHttpDocLitPortSoap12 tns:SoapBindingDocLitSoap12"};
  EXPECT_EQ(names, expected) << wsdl;
}

// A type's xsd:anyAttribute is described after its attributes, and a wildcard's namespace
// constraint as declared: libxml2 validates, against the schema ?wsdl serves, a message with
// foreign attributes and an unqualified foreign element (which ##other would refuse), and
// refuses one with an attribute in no namespace (which ##other leaves out).
TEST(wsdl_wildcards, DescribedAsDeclaredAndValidated) {
  service s{"TagService", "urn:lather:tags"};
  s.operation("tag", [](const tag_request& in) { return tag_response{in.name}; });
  const std::string wsdl = generate_wsdl(s, "http://127.0.0.1:1/tags");
  const std::size_t attr = wsdl.find(R"(<xsd:attribute name="id")");
  const std::size_t any_attr =
      wsdl.find(R"(<xsd:anyAttribute namespace="##other" processContents="lax"/>)");
  ASSERT_NE(any_attr, std::string::npos) << wsdl;
  EXPECT_LT(attr, any_attr) << wsdl;
  EXPECT_NE(wsdl.find(R"(<xsd:any namespace="##local" processContents="lax")"), std::string::npos)
      << wsdl;

  const fs::path dir = fs::temp_directory_path() / ("lather-wsdl-tags-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const auto x = extract_schema(wsdl, dir, "tags.xsd");
  ASSERT_EQ(x.exit, 0) << x.out;
  const auto validate = [&](const tag_request& req) {
    xml::output out;
    xml::writer w{out};
    bind::write(w, "urn:lather:tags", "tag", req);
    w.end_document();
    std::ofstream(dir / "request.xml") << out.view();
    auto v = run({"/usr/bin/xmllint", "--noout", "--schema", (dir / "tags.xsd").string(),
                  (dir / "request.xml").string()});
    return v.exit == 0 ? std::string() : v.out + std::string(out.view());
  };
  tag_request req;
  req.id = "1";
  req.name = "n";
  req.other.set("urn:x", "colour", "red & blue");
  req.other.set("urn:y", "size", "L");
  req.extra.push_back({"<e>local</e>"});
  EXPECT_EQ(validate(req), "");
  req.other.set("", "free", "1");  // no namespace: not ##other's
  EXPECT_NE(validate(req), "");
  fs::remove_all(dir);
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
assert svc.lookup(id=5) == 'item5'
try:
    svc.lookup(id=-2)
    raise SystemExit('expected a fault')
except zeep.exceptions.Fault as f:
    assert f.message == 'no such id', f.message
    tns = '{http://cxf.apache.org/cxf/performance/types}'
    bad = f.detail.find(tns + 'InvalidId')
    assert bad is not None, etree.tostring(f.detail)
    assert bad.findtext(tns + 'id') == '-2' and bad.findtext(tns + 'hint') == 'positive'
# zeep read the declared fault from the WSDL and can bind its detail element.
op = client.service._binding._operations['lookup']
assert 'InvalidId' in op.faults, op.faults
detail = client.get_element('{http://cxf.apache.org/cxf/performance/types}InvalidId')
assert detail.parse(bad, client.wsdl.types).id == -2
print('OK')
)PY";
  auto r = run({"/usr/bin/python3", (dir_ / "call.py").string(), url_ + "?wsdl"});
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_NE(r.out.find("OK"), std::string::npos) << r.out;
}

TEST_F(wsdl_fixture, GsoapWsdl2hAcceptsTheWsdl) {
  std::ofstream(dir_ / "perf.wsdl") << fetch_wsdl();
  auto r = run({"/usr/bin/wsdl2h", "-o", "perf.h", "perf.wsdl"}, dir_);
  ASSERT_EQ(r.exit, 0) << r.out;
  r = run({"/usr/bin/soapcpp2", "-C", "-j", "-L", "-x", "perf.h"}, dir_);
  EXPECT_EQ(r.exit, 0) << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "perf.h"));
  // The declared fault became a typed SOAP_ENV__Detail member of gSOAP's fault struct.
  std::ifstream in(dir_ / "perf.h");
  const std::string header{std::istreambuf_iterator<char>(in), {}};
  EXPECT_NE(header.find("SOAP Fault message \"InvalidIdFault\" part \"fault\""), std::string::npos)
      << header;
  EXPECT_NE(header.find("__InvalidId*"), std::string::npos);
}

TEST_F(wsdl_fixture, EmbeddedSchemaValidatesLathersOwnMessages) {
  const auto x = extract_schema(fetch_wsdl(), dir_, "perf.xsd");
  ASSERT_EQ(x.exit, 0) << x.out;

  xml::output out;
  xml::writer w{out};
  perf::echoComplexTypeDoc req = perf::make_cxf_request(3, 9);
  bind::write(w, perf::types_ns, "echoComplexTypeDoc", req);
  w.end_document();
  std::ofstream(dir_ / "request.xml") << out.view();
  auto v = run({"/usr/bin/xmllint", "--noout", "--schema", (dir_ / "perf.xsd").string(),
                (dir_ / "request.xml").string()});
  EXPECT_EQ(v.exit, 0) << v.out;

  // xsd:list values, as element text and as an attribute.
  xml::output lists;
  xml::writer lw{lists};
  bind::write(lw, perf::types_ns, "tags",
              tags_request{{{1, -2, 3}}, lather::xsd::list<std::string>{{"red", "blue"}}});
  lw.end_document();
  std::ofstream(dir_ / "tags.xml") << lists.view();
  auto l = run({"/usr/bin/xmllint", "--noout", "--schema", (dir_ / "perf.xsd").string(),
                (dir_ / "tags.xml").string()});
  EXPECT_EQ(l.exit, 0) << l.out << lists.view();

  // The detail entry of a declared fault, exactly as the server wrote it.
  http::client c{url_};
  std::pair<std::string_view, std::string_view> headers[] = {
      {"Content-Type", "text/xml; charset=utf-8"}, {"SOAPAction", "\"\""}};
  std::string reply;
  c.post(
      "", headers,
      [](xml::output& body) {
        body.append(
            "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
            "<t:lookup xmlns:t='http://cxf.apache.org/cxf/performance/types'><t:id>-9</t:id>"
            "</t:lookup></s:Body></s:Envelope>");
      },
      [&](const http::response_head&, const xml::source_fn& src) {
        char buf[4096];
        while (std::size_t n = src(buf, sizeof buf)) reply.append(buf, n);
      });
  auto f = soap::read_fault_document(reply);
  ASSERT_TRUE(f.has_value()) << reply;
  std::ofstream(dir_ / "detail.xml") << f->detail_xml;
  auto d = run({"/usr/bin/xmllint", "--noout", "--schema", (dir_ / "perf.xsd").string(),
                (dir_ / "detail.xml").string()});
  EXPECT_EQ(d.exit, 0) << d.out << f->detail_xml;
  EXPECT_EQ(lather::test::find_text(f->detail_xml, "/InvalidId/id"), "-9") << f->detail_xml;
}

}  // namespace

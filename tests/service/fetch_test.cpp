// The 2003 experiment end to end: lather-fetch-server's service and perf::fetch_client over
// loopback (the graph round trips with its sharing and its cycle), the WSDL at ?wsdl, requests
// shaped as Axis 1.4, soap4r and SOAP::Lite write them posted raw to the server, their
// responses (WIRE-QUIRKS.md, "RPC/encoded with multi-refs") decoded by the client side, and
// broken references answered with a fault.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "lather/http/client.hpp"
#include "lather/perf/fetch_types.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"

namespace perf = lather::perf;
namespace soap = lather::soap;

namespace {

constexpr std::string_view test_wsdl =
    R"(<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:fetch"><!-- urn:fetch#fetch --><service><port><address location="{{address}}"/></port></service></wsdl:definitions>)";

class FetchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    lather::service_options so;
    so.static_wsdl = std::string(test_wsdl);
    svc_ = std::make_unique<lather::service>("Fetch", std::string(perf::fetch_ns), so);
    perf::add_fetch_operation(*svc_);
    lather::server_options o;
    o.port = 0;
    o.threads = 1;
    srv_ = std::make_unique<lather::server>(o);
    srv_->mount("/fetch", *svc_);
    srv_->start();
    url_ = "http://127.0.0.1:" + std::to_string(srv_->port()) + "/fetch";
  }
  void TearDown() override {
    srv_->stop();
    srv_.reset();
  }

  /// POST a raw envelope; the response is read as a fetch response. Returns the HTTP status.
  unsigned post_raw(const std::string& envelope, perf::fetchResponse& out) {
    lather::http::client c{url_};
    const std::pair<std::string_view, std::string_view> headers[] = {
        {"Content-Type", "text/xml; charset=utf-8"}, {"SOAPAction", "\"urn:fetch#fetch\""}};
    unsigned status = 0;
    c.post(
        "", headers, [&](lather::xml::output& body) { body.append(envelope); },
        [&](const lather::http::response_head& head, const lather::xml::source_fn& body) {
          status = head.status;
          lather::xml::reader r;
          r.reset();
          r.set_source([&body](char* d, std::size_t n) { return body(d, n); });
          perf::read_encoded_response(r, out);
        });
    return status;
  }

  /// POST a raw envelope; the HTTP status and the response body as text.
  std::pair<unsigned, std::string> post_text(const std::string& envelope) {
    lather::http::client c{url_};
    const std::pair<std::string_view, std::string_view> headers[] = {
        {"Content-Type", "text/xml; charset=utf-8"}, {"SOAPAction", "\"urn:fetch#fetch\""}};
    std::pair<unsigned, std::string> out;
    c.post(
        "", headers, [&](lather::xml::output& body) { body.append(envelope); },
        [&](const lather::http::response_head& head, const lather::xml::source_fn& body) {
          out.first = head.status;
          char chunk[4096];
          while (std::size_t n = body(chunk, sizeof chunk)) out.second.append(chunk, n);
        });
    return out;
  }

  std::unique_ptr<lather::service> svc_;
  std::unique_ptr<lather::server> srv_;
  std::string url_;
};

void expect_graph(const std::shared_ptr<perf::Setting>& root, std::string_view param) {
  EXPECT_EQ(perf::check_fetch_graph(root, param), "");
  ASSERT_TRUE(root);
  ASSERT_EQ(root->children.size(), 2u);
  EXPECT_EQ(root->children[0]->parent, root) << "the cycle is a cycle, not a copy";
  EXPECT_EQ(root->children[1]->parent, root);
  EXPECT_EQ(perf::find_param(*root, "a"), perf::find_param(*root, "b")) << "v1 shared";
  EXPECT_EQ(perf::find_param(*root, "c"), perf::find_param(*root->children[0], "x"))
      << "v2 shared across maps";
  EXPECT_EQ(perf::find_param(*root, "c")->new_, "h\xC3\xA9llo");
  EXPECT_EQ(perf::find_param(*root, "c")->errtext, "out of range <&>");
}

TEST(FetchGraph, CheckRejectsBrokenSharingAndCycle) {
  perf::fetchResponse r{perf::make_fetch_graph("p")};
  EXPECT_EQ(perf::check_fetch_graph(r.return_, "p"), "");
  EXPECT_NE(perf::check_fetch_graph(r.return_, "q"), "");
  r.return_->params.items[1].second =
      std::make_shared<perf::Value>(*r.return_->params.items[0].second);
  EXPECT_EQ(perf::check_fetch_graph(r.return_, "p"), "v1 not shared under two keys");
  perf::fetchResponse r2{perf::make_fetch_graph("p")};
  r2.return_->children[1]->parent = std::make_shared<perf::Setting>();
  EXPECT_EQ(perf::check_fetch_graph(r2.return_, "p"), "child -> root cycle not restored");
}

TEST(FetchGraph, ResponseReleasesItsCycle) {
  std::weak_ptr<perf::Setting> root, child;
  {
    perf::fetchResponse r{perf::make_fetch_graph("p")};
    root = r.return_;
    child = r.return_->children[0];
    perf::fetchResponse moved = std::move(r);
    EXPECT_FALSE(root.expired());
  }
  EXPECT_TRUE(root.expired()) << "the child -> root cycle was broken";
  EXPECT_TRUE(child.expired());
}

TEST(FetchGraph, ReleaseTerminatesOnChildrenCycles) {
  auto a = std::make_shared<perf::Setting>();
  auto b = std::make_shared<perf::Setting>();
  a->children = {b, a};
  b->children = {a};
  b->parent = b;
  std::weak_ptr<perf::Setting> wa = a, wb = b;
  perf::release_graph(a);
  a.reset();
  b.reset();
  EXPECT_TRUE(wa.expired());
  EXPECT_TRUE(wb.expired());
}

TEST_F(FetchTest, GraphRoundTripsWithSharingAndCycle) {
  perf::fetch_client client{url_};
  perf::fetchResponse reply;
  for (std::string_view param : {"test", "a<&>\xC3\xA9 b", ""}) {
    client.call(param, reply);
    SCOPED_TRACE(std::string(param));
    expect_graph(reply.return_, param);
  }
  std::weak_ptr<perf::Setting> root = reply.return_;
  client.call("again", reply);
  EXPECT_TRUE(root.expired()) << "the previous reply's graph was freed";
  expect_graph(reply.return_, "again");
  EXPECT_EQ(client.transport().get_stats().connections_opened, 1u) << "keep-alive reused";
}

TEST_F(FetchTest, WsdlServedWithEndpointAddress) {
  lather::http::client c{url_};
  auto r = c.get("?wsdl");
  EXPECT_EQ(r.status, 200u);
  EXPECT_NE(r.body.find("location=\"" + url_ + "\""), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("{{address}}"), std::string::npos);
}

TEST(FetchService, GeneratedWsdlListsTheOperation) {
  // No static WSDL: the generator still answers (the operation, without encoded schema types).
  lather::service svc{"Fetch", std::string(perf::fetch_ns)};
  perf::add_fetch_operation(svc);
  lather::server_options o;
  o.port = 0;
  o.threads = 1;
  lather::server srv{o};
  srv.mount("/fetch", svc);
  srv.start();
  lather::http::client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/fetch"};
  auto r = c.get("?wsdl");
  EXPECT_EQ(r.status, 200u);
  EXPECT_NE(r.body.find("urn:fetch#fetch"), std::string::npos) << r.body;
  srv.stop();
}

// fetch("test") as each stack writes the request.
const std::string axis_request = R"(<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 <soapenv:Body>
  <ns1:fetch soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns1="urn:fetch">
   <param xsi:type="soapenc:string" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">test</param>
  </ns1:fetch>
 </soapenv:Body>
</soapenv:Envelope>)";

const std::string soap4r_request = R"(<?xml version="1.0" encoding="utf-8" ?>
<env:Envelope xmlns:xsd="http://www.w3.org/2001/XMLSchema"
    xmlns:env="http://schemas.xmlsoap.org/soap/envelope/"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <env:Body>
    <n1:fetch xmlns:n1="urn:fetch"
        env:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
      <param xsi:type="xsd:string">test</param>
    </n1:fetch>
  </env:Body>
</env:Envelope>)";

const std::string soaplite_request =
    R"(<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" soap:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><fetch xmlns="urn:fetch"><param xsi:type="xsd:string">test</param></fetch></soap:Body></soap:Envelope>)";

// The part as a multi-ref (section 5 allows it for any value): a forward href to an
// independent element after the wrapper.
const std::string multiref_request =
    R"(<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
 <soapenv:Body soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
  <ns1:fetch xmlns:ns1="urn:fetch"><param href="#s1"/></ns1:fetch>
  <multiRef id="s1" soapenc:root="0" xsi:type="soapenc:string">test</multiRef>
 </soapenv:Body>
</soapenv:Envelope>)";

TEST_F(FetchTest, ServerReadsRequestsAsOtherStacksWriteThem) {
  for (const auto* request :
       {&axis_request, &soap4r_request, &soaplite_request, &multiref_request}) {
    SCOPED_TRACE(*request);
    perf::fetchResponse reply;
    EXPECT_EQ(post_raw(*request, reply), 200u);
    expect_graph(reply.return_, "test");
  }
}

TEST_F(FetchTest, BrokenReferencesAnsweredWithFault) {
  const std::string dangling =
      R"(<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
 <soapenv:Body soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
  <ns1:fetch xmlns:ns1="urn:fetch"><param href="#nowhere"/></ns1:fetch>
 </soapenv:Body>
</soapenv:Envelope>)";
  const std::string truncated = axis_request.substr(0, axis_request.size() / 2);
  for (const auto* request : {&dangling, &truncated}) {
    SCOPED_TRACE(*request);
    auto [status, body] = post_text(*request);
    EXPECT_EQ(status, 500u);
    auto fault = soap::read_fault_document(body);
    ASSERT_TRUE(fault) << body;
    EXPECT_EQ(fault->code, soap::fault_code::sender) << body;
  }
  // The server is still healthy afterwards.
  perf::fetch_client client{url_};
  expect_graph(client.call("ok").return_, "ok");
}

// ---- the fetch response as Axis 1.4, soap4r and SOAP::Lite write it (WIRE-QUIRKS.md) ----

const std::string axis_fetch = R"(<?xml version="1.0" encoding="utf-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 <soapenv:Body>
  <ns1:fetchResponse soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns1="urn:fetch">
   <return href="#id0"/>
  </ns1:fetchResponse>
  <multiRef id="id0" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns2:Setting" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns2="urn:fetch">
   <status xsi:type="xsd:string">ok</status>
   <parent xsi:type="ns2:Setting" xsi:nil="true"/>
   <children soapenc:arrayType="ns2:Setting[2]" xsi:type="soapenc:Array">
    <children href="#id1"/>
    <children href="#id2"/>
   </children>
   <stype xsi:type="xsd:string">root:x</stype>
   <params href="#id3"/>
  </multiRef>
  <multiRef id="id3" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns3:Map" xmlns:ns3="http://xml.apache.org/xml-soap" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
   <item><key xsi:type="soapenc:string">a</key><value href="#id4"/></item>
   <item><key xsi:type="soapenc:string">b</key><value href="#id4"/></item>
   <item><key xsi:type="soapenc:string">c</key><value href="#id5"/></item>
  </multiRef>
  <multiRef id="id6" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns6:Map" xmlns:ns6="http://xml.apache.org/xml-soap" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
   <item><key xsi:type="soapenc:string">x</key><value href="#id5"/></item>
  </multiRef>
  <multiRef id="id1" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns4:Setting" xmlns:ns4="urn:fetch" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
   <status xsi:type="xsd:string">ok</status>
   <parent href="#id0"/>
   <children soapenc:arrayType="ns4:Setting[0]" xsi:type="soapenc:Array"/>
   <stype xsi:type="xsd:string">child</stype>
   <params href="#id6"/>
  </multiRef>
  <multiRef id="id2" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns5:Setting" xmlns:ns5="urn:fetch" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
   <status xsi:type="xsd:string">warn</status>
   <parent href="#id0"/>
   <children soapenc:arrayType="ns5:Setting[0]" xsi:type="soapenc:Array"/>
   <stype xsi:type="xsd:string">child</stype>
   <params href="#id7"/>
  </multiRef>
  <multiRef id="id4" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns7:Value" xmlns:ns7="urn:fetch" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
   <errcode xsi:type="xsd:int">0</errcode>
   <new xsi:type="xsd:string">1</new>
   <errtext xsi:type="xsd:string">none</errtext>
   <cur xsi:type="xsd:string">0</cur>
  </multiRef>
  <multiRef id="id5" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns8:Value" xmlns:ns8="urn:fetch" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">
   <errcode xsi:type="xsd:int">2</errcode>
   <new xsi:type="xsd:string">h&#xe9;llo</new>
   <errtext xsi:type="xsd:string">out of range &lt;&amp;&gt;</errtext>
   <cur xsi:type="xsd:string">5</cur>
  </multiRef>
  <multiRef id="id7" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns9:Map" xmlns:ns9="http://xml.apache.org/xml-soap" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"/>
 </soapenv:Body>
</soapenv:Envelope>)";

const std::string soap4r_fetch = R"(<?xml version="1.0" encoding="utf-8" ?>
<env:Envelope xmlns:xsd="http://www.w3.org/2001/XMLSchema"
    xmlns:env="http://schemas.xmlsoap.org/soap/envelope/"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <env:Body>
    <n1:fetchResponse xmlns:n1="urn:fetch"
        env:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
      <return href="#id3560"/>
    </n1:fetchResponse>
    <return id="id3560" xsi:type="n2:Setting" xmlns:n2="urn:fetch"
        env:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
      <status xsi:type="xsd:string">ok</status>
      <parent xsi:nil="true"></parent>
      <children xmlns:n3="http://schemas.xmlsoap.org/soap/encoding/"
          xsi:type="n3:Array"
          n3:arrayType="xsd:anyType[2]">
        <item xsi:type="n2:Setting">
          <status xsi:type="xsd:string">ok</status>
          <parent href="#id3560"></parent>
          <children xsi:type="n3:Array" n3:arrayType="xsd:anyType[0]"></children>
          <stype xsi:type="xsd:string">child</stype>
          <params xmlns:n4="http://xml.apache.org/xml-soap" xsi:type="n4:Map">
            <item>
              <key xsi:type="xsd:string">x</key>
              <value href="#id3940"></value>
            </item>
          </params>
        </item>
        <item xsi:type="n2:Setting">
          <status xsi:type="xsd:string">warn</status>
          <parent href="#id3560"></parent>
          <children xsi:type="n3:Array" n3:arrayType="xsd:anyType[0]"></children>
          <stype xsi:type="xsd:string">child</stype>
          <params xmlns:n5="http://xml.apache.org/xml-soap" xsi:type="n5:Map"></params>
        </item>
      </children>
      <stype xsi:type="xsd:string">root:x</stype>
      <params xmlns:n6="http://xml.apache.org/xml-soap" xsi:type="n6:Map">
        <item><key xsi:type="xsd:string">a</key><value href="#id3920"></value></item>
        <item><key xsi:type="xsd:string">b</key><value href="#id3920"></value></item>
        <item><key xsi:type="xsd:string">c</key><value href="#id3940"></value></item>
      </params>
    </return>
    <value id="id3920" xsi:type="n7:Value" xmlns:n7="urn:fetch"
        env:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
      <errcode xsi:type="xsd:int">0</errcode>
      <new xsi:type="xsd:string">1</new>
      <errtext xsi:type="xsd:string">none</errtext>
      <cur xsi:type="xsd:string">0</cur>
    </value>
    <value id="id3940" xsi:type="n8:Value" xmlns:n8="urn:fetch"
        env:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
      <errcode xsi:type="xsd:int">2</errcode>
      <new xsi:type="xsd:string">h&#233;llo</new>
      <errtext xsi:type="xsd:string">out of range &lt;&amp;&gt;</errtext>
      <cur xsi:type="xsd:string">5</cur>
    </value>
  </env:Body>
</env:Envelope>)";

// SOAP::Lite: root in place with an id, hrefs back to the enclosing element, xsi:type and
// arrayType on referring elements, empty arrays as multi-refs, autotyped values (xsd:int,
// base64 for non-ASCII), shared Values named after the class, and stray orphan copies.
const std::string soaplite_fetch =
    R"(<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" soap:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><fetchResponse xmlns="urn:fetch"><return id="ref-94286374969384" xsi:type="namesp1:Setting" xmlns:namesp1="http://namespaces.soaplite.com/perl"><status xsi:type="xsd:string">ok</status><parent xsi:nil="true" /><children soapenc:arrayType="namesp1:Setting[2]" xsi:type="soapenc:Array"><item xsi:type="namesp1:Setting"><status xsi:type="xsd:string">ok</status><parent href="#ref-94286374969384" xsi:type="namesp1:Setting" /><children href="#ref-94286375100000" xsi:type="soapenc:Array" soapenc:arrayType="xsd:anyType[0]" /><stype xsi:type="xsd:string">child</stype><params xsi:type="apachens:Map" xmlns:apachens="http://xml.apache.org/xml-soap"><item><key xsi:type="xsd:string">x</key><value href="#ref-94286375200000" xsi:type="namesp1:Value" /></item></params></item><item xsi:type="namesp1:Setting"><status xsi:type="xsd:string">warn</status><parent href="#ref-94286374969384" xsi:type="namesp1:Setting" /><children href="#ref-94286375100000" xsi:type="soapenc:Array" soapenc:arrayType="xsd:anyType[0]" /><stype xsi:type="xsd:string">child</stype><params xsi:type="apachens:Map" xmlns:apachens="http://xml.apache.org/xml-soap" /></item></children><stype xsi:type="xsd:string">root:x</stype><params xsi:type="apachens:Map" xmlns:apachens="http://xml.apache.org/xml-soap"><item><key xsi:type="xsd:string">a</key><value href="#ref-94286375300000" xsi:type="namesp1:Value" /></item><item><key xsi:type="xsd:string">b</key><value href="#ref-94286375300000" xsi:type="namesp1:Value" /></item><item><key xsi:type="xsd:string">c</key><value href="#ref-94286375200000" xsi:type="namesp1:Value" /></item></params></return></fetchResponse><soapenc:Array id="ref-94286375100000" soapenc:arrayType="xsd:anyType[0]" xsi:type="soapenc:Array" /><Value id="ref-94286375300000" xsi:type="namesp2:Value" xmlns:namesp2="http://namespaces.soaplite.com/perl"><errcode xsi:type="xsd:int">0</errcode><new xsi:type="xsd:int">1</new><errtext xsi:type="xsd:string">none</errtext><cur xsi:type="xsd:int">0</cur></Value><Value id="ref-94286375200000" xsi:type="namesp3:Value" xmlns:namesp3="http://namespaces.soaplite.com/perl"><errcode xsi:type="xsd:int">2</errcode><new xsi:type="xsd:base64Binary">aMOpbGxv</new><errtext xsi:type="xsd:string">out of range &lt;&amp;&gt;</errtext><cur xsi:type="xsd:int">5</cur></Value><params xsi:type="apachens:Map" xmlns:apachens="http://xml.apache.org/xml-soap"><item><key xsi:type="xsd:string">a</key><value xsi:type="xsd:string">stray</value></item></params><status _id="1" xsi:type="xsd:string">ok</status><cur _id="1" xsi:type="xsd:int">5</cur></soap:Body></soap:Envelope>)";

TEST(FetchDecode, ResponsesAsOtherStacksWriteThem) {
  for (const auto* doc : {&axis_fetch, &soap4r_fetch, &soaplite_fetch}) {
    SCOPED_TRACE(doc->substr(0, 200));
    perf::fetchResponse reply = perf::decode_fetch_response(*doc);
    expect_graph(reply.return_, "x");
  }
}

TEST(FetchDecode, FaultResponseThrows) {
  const std::string fault =
      R"(<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><soapenv:Fault><faultcode>soapenv:Server</faultcode><faultstring>no</faultstring></soapenv:Fault></soapenv:Body></soapenv:Envelope>)";
  EXPECT_THROW(perf::decode_fetch_response(fault), soap::fault_error);
}

}  // namespace

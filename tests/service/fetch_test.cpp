// The 2003 experiment end to end: lather-fetch-server's service and perf::fetch_client over
// loopback (the graph round trips with its sharing and its cycle), the WSDL at ?wsdl, requests
// shaped as Axis 1.4, soap4r and SOAP::Lite write them posted raw to the server, their
// responses (WIRE-QUIRKS.md, "RPC/encoded with multi-refs") decoded by the client side, and
// broken references answered with a fault.
#include <gtest/gtest.h>

#include "../soap/fetch_responses.hpp"
#include "../support/xml_query.hpp"

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
  EXPECT_TRUE(
      lather::test::has_element(r.body, "/definitions/service/port/address", {{"location", url_}}))
      << r.body;
  EXPECT_EQ(r.body.find("{{address}}"), std::string::npos);  // no placeholder left anywhere
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
  EXPECT_TRUE(lather::test::has_element(r.body, "/definitions/binding/operation/operation",
                                        {{"soapAction", "urn:fetch#fetch"}}))
      << r.body;
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

using lather::test_wire::axis_fetch;
using lather::test_wire::soap4r_fetch;
using lather::test_wire::soaplite_fetch;

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

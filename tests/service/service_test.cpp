// End-to-end tests of the service layer over loopback: typed operations in every style, both
// SOAP versions, faults, headers, one-way calls, dispatch errors, health and metrics.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <future>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../http/raw_peer.hpp"
#include "../http/raw_socket.hpp"
#include "../support/paths.hpp"
#include "../support/process.hpp"
#include "../support/xml_query.hpp"
#include "add_types.hpp"
#include "lather/http/client.hpp"
#include "lather/perf/rpc_types.hpp"
#include "lather/perf/types.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"
#include "lather/service/service.hpp"
#include "local_server.hpp"

namespace {

using namespace lather;

using lather_test::add_request;
using lather_test::add_response;
using lather_test::test_ns;

using lather::test::fault_code;
using lather::test::fault_string;

constexpr std::string_view soap12_ns = "http://www.w3.org/2003/05/soap-envelope";

/// The namespace of a response's root element ("" when there is none).
std::string envelope_ns(std::string_view body) {
  const auto envelope = test::find_element(body, "/Envelope");
  return envelope ? envelope->ns : std::string();
}

struct notify_request {
  std::string message;
};
struct auth_header {
  std::string token;
};
struct error_detail {
  std::int32_t code = 0;
  std::string field;
};
struct invalid_id {
  std::int32_t id = 0;
  std::string hint;
};
struct lookup_request {
  std::int32_t id = 0;
};

// POSTs `request` as a SOAP 1.1 envelope with lather's raw HTTP client; returns the response body.
std::string post_envelope(const std::string& url, const std::string& request) {
  std::string body;
  http::client c{url};
  std::pair<std::string_view, std::string_view> headers[] = {
      {"Content-Type", "text/xml; charset=utf-8"}, {"SOAPAction", "\"\""}};
  c.post(
      "", headers, [&](xml::output& out) { out.append(request); },
      [&](const http::response_head&, const xml::source_fn& src) {
        char buf[4096];
        while (std::size_t n = src(buf, sizeof buf)) body.append(buf, n);
      });
  return body;
}

}  // namespace

template <>
struct lather::meta<notify_request> {
  static constexpr std::string_view name = "notify";
  static constexpr std::string_view ns = test_ns;
  static constexpr auto fields = std::tuple{element("message", &notify_request::message)};
};
template <>
struct lather::meta<auth_header> {
  static constexpr std::string_view name = "Auth";
  static constexpr std::string_view ns = test_ns;
  static constexpr auto fields = std::tuple{element("token", &auth_header::token)};
};
template <>
struct lather::meta<error_detail> {
  static constexpr std::string_view name = "errorDetail";
  static constexpr std::string_view ns = test_ns;
  static constexpr auto fields =
      std::tuple{element("code", &error_detail::code), element("field", &error_detail::field)};
};

template <>
struct lather::meta<invalid_id> {
  static constexpr std::string_view name = "InvalidId";
  static constexpr std::string_view ns = test_ns;
  static constexpr auto fields =
      std::tuple{element("id", &invalid_id::id), element("hint", &invalid_id::hint)};
};
template <>
struct lather::meta<lookup_request> {
  static constexpr std::string_view name = "lookup";
  static constexpr std::string_view ns = test_ns;
  static constexpr auto fields = std::tuple{element("id", &lookup_request::id)};
};

namespace {

// A server with a perf service (wrapped), an RPC service and a small test service.
class service_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    svc_.operation("add", [this](call_context& ctx, const add_request& in) {
      last_version_ = ctx.version();
      last_framing_ = std::string(ctx.http_header("Content-Length")) + "|" +
                      std::string(ctx.http_header("Transfer-Encoding"));
      if (in.a < 0) {
        soap::fault f;
        f.code = soap::fault_code::sender;
        f.reason = "negative";
        error_detail d{7, "a"};
        f.set_detail([&](xml::writer& w) { bind::write(w, test_ns, "errorDetail", d); });
        throw soap::fault_error(std::move(f));
      }
      if (in.a == 666) throw std::runtime_error("secret internal state at /srv/app/x.cpp:12");
      return add_response{in.a + in.b};
    });
    operation_options lookup;
    lookup.faults = {fault_type<invalid_id>(), fault_type<error_detail>("Busy")};
    svc_.operation(
        "lookup",
        [](const lookup_request& in) {
          if (in.id < 0) throw fault_of<invalid_id>{"no such id", invalid_id{in.id, "positive"}};
          return add_response{in.id};
        },
        lookup);
    svc_.operation("notify", [this](const notify_request& in) {
      notified_ = in.message;
      ++notifications_;
    });
    svc_.header(std::string(test_ns), "Auth", [this](call_context&, xml::reader& r) {
      auth_header h;
      bind::read_or_throw(r, h);
      token_ = h.token;
    });

    perf_.operation("echoComplexTypeDoc",
                    [](perf::echoComplexTypeDoc& in, perf::echoComplexTypeDocResponse& out) {
                      std::swap(out.return_, in.in);
                      out.idout = in.id;
                    });
    operation_options rpc;
    rpc.style = soap::style::rpc_literal;
    rpc_.operation(
        "echoStringRPC",
        [](const perf::echoStringRPC& in) { return perf::echoStringRPCResponse{in.in}; }, rpc);

    only11_.operation("add", [](const add_request& in) { return add_response{in.a + in.b}; });

    srv_.mount("/test", svc_);
    srv_.mount("/perf", perf_);
    srv_.mount("/perf/rpc", rpc_);
    srv_.mount("/only11", only11_);
    srv_.start();
    base_ = "http://127.0.0.1:" + std::to_string(srv_.port());
  }
  void TearDown() override { srv_.stop(); }

  // Raw POST: status, content type and body text.
  struct raw_reply {
    unsigned status = 0;
    std::string content_type, body;
  };
  raw_reply post_raw(const std::string& path, std::string_view content_type, std::string_view body,
                     std::string_view action = "\"\"") {
    http::client c{base_ + path};
    std::pair<std::string_view, std::string_view> headers[] = {{"Content-Type", content_type},
                                                               {"SOAPAction", action}};
    raw_reply r;
    c.post(
        "", headers, [&](xml::output& out) { out.append(body); },
        [&](const http::response_head& h, const xml::source_fn& src) {
          r.status = h.status;
          r.content_type = std::string(h.content_type);
          char buf[4096];
          while (std::size_t n = src(buf, sizeof buf)) r.body.append(buf, n);
        });
    return r;
  }

  service svc_{"TestService", std::string(test_ns)};
  service perf_{"PerfService", std::string(perf::service_ns)};
  service rpc_{"PerfServiceRPC", std::string(perf::service_ns)};
  service only11_{"Only11", std::string(test_ns), [] {
                    service_options o;
                    o.soap12 = false;
                    return o;
                  }()};
  server srv_{[] {
    server_options o;
    o.threads = 2;
    return o;
  }()};
  std::string base_;
  std::atomic<int> notifications_{0};
  std::string notified_, token_;
  soap::version last_version_ = soap::version::soap11;
  std::string last_framing_;  // "Content-Length|Transfer-Encoding" of the last add request
};

TEST_F(service_fixture, WrappedEchoRoundTripsTheCxfPayloadOverBothVersions) {
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    client_options o;
    o.version = v;
    client c{base_ + "/perf", o};
    perf::echoComplexTypeDoc req{perf::make_cxf_seq(3), 42};
    perf::echoComplexTypeDocResponse resp;
    c.call("echoComplexTypeDoc", req, resp);
    EXPECT_EQ(resp.idout, 42);
    ASSERT_EQ(resp.return_.item.size(), 3u);
    EXPECT_EQ(resp.return_, req.in);
  }
}

TEST_F(service_fixture, LargeResponsesStreamAndStillRoundTrip) {
  client c{base_ + "/perf"};
  perf::echoComplexTypeDoc req{perf::make_cxf_seq(500), 7};  // ~1 MB each way: chunked
  auto resp = c.call<perf::echoComplexTypeDocResponse>("echoComplexTypeDoc", req);
  EXPECT_EQ(resp.idout, 7);
  EXPECT_EQ(resp.return_, req.in);
}

TEST_F(service_fixture, ClientXmlLimitsApplyToTheResponse) {
  // ~1 MB of response against a 64 KB document limit: the client stops reading with the
  // reader's limit error; the same client then calls successfully within the limit.
  client_options o;
  o.xml_limits.max_total_bytes = 64 << 10;
  client c{base_ + "/perf", o};
  perf::echoComplexTypeDoc big{perf::make_cxf_seq(500), 7};
  try {
    c.call<perf::echoComplexTypeDocResponse>("echoComplexTypeDoc", big);
    FAIL() << "a 1 MB response passed a 64 KB limit";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("limit"), std::string::npos) << e.what();
  }
  perf::echoComplexTypeDoc small{perf::make_cxf_seq(2), 8};
  auto resp = c.call<perf::echoComplexTypeDocResponse>("echoComplexTypeDoc", small);
  EXPECT_EQ(resp.idout, 8);
  EXPECT_EQ(resp.return_, small.in);
}

TEST_F(service_fixture, TypedCallReturnsResultAndSeesVersion) {
  client_options o;
  o.version = soap::version::soap12;
  client c{base_ + "/test", o};
  auto r = c.call<add_response>("add", add_request{2, 3});
  EXPECT_EQ(r.result, 5);
  EXPECT_EQ(last_version_, soap::version::soap12);
}

// The request is written straight into the HTTP client's staging; the writer's closing flush
// must not turn a small request into a chunked one (HTTP/1.0 servers cannot read those).
TEST_F(service_fixture, SmallRequestsGoOutWithContentLength) {
  client c{base_ + "/test"};
  for (int i = 0; i < 2; ++i) {  // the first call (server not yet known) and a warm one
    EXPECT_EQ(c.call<add_response>("add", add_request{2, 3}).result, 5);
    ASSERT_FALSE(last_framing_.empty());
    EXPECT_NE(last_framing_.front(), '|') << last_framing_;  // a Content-Length
    EXPECT_EQ(last_framing_.substr(last_framing_.find('|') + 1), "") << last_framing_;
  }
}

// A canned addResponse (result 5) in `v`'s envelope, with its HTTP head.
std::string add_response_message(soap::version v) {
  const std::string envelope =
      "<soap:Envelope xmlns:soap=\"" + std::string(soap::envelope_ns(v)) +
      "\"><soap:Body><t:addResponse xmlns:t=\"urn:lather:test\"><t:result>5</t:result>"
      "</t:addResponse></soap:Body></soap:Envelope>";
  return "HTTP/1.1 200 OK\r\nContent-Type: " + std::string(soap::content_type_utf8(v)) +
         "\r\nContent-Length: " + std::to_string(envelope.size()) + "\r\n\r\n" + envelope;
}

// The request's writer set goes back once the request is sent, so a retry on a stale connection
// writes the request again with whatever set it then takes: the bytes must be the same.
TEST(ServiceClient, ARetryOnAStaleConnectionSendsTheSameRequestBytes) {
  // one answer per connection, then the next request is dropped
  http::test::raw_peer peer{add_response_message(soap::version::soap11), 1};
  client c{"http://127.0.0.1:" + std::to_string(peer.port()) + "/test"};
  for (int i = 0; i < 2; ++i) EXPECT_EQ(c.call<add_response>("add", add_request{2, 3}).result, 5);
  EXPECT_EQ(c.transport().get_stats().retries, 1u);
  const std::vector<std::string> requests = peer.requests();
  ASSERT_EQ(requests.size(), 3u);  // the first call; the second's dropped attempt; its retry
  const std::string body0 = requests[0].substr(requests[0].find("\r\n\r\n") + 4);
  const auto add = test::find_element(body0, "/Envelope/Body/add");
  ASSERT_TRUE(add) << requests[0];
  EXPECT_EQ(add->ns, test_ns);
  EXPECT_EQ(requests[1], requests[0]);
  EXPECT_EQ(requests[2], requests[1]);
}

// The SOAP action on the wire: SOAPAction (quoted, "" without one) in SOAP 1.1, the action
// parameter of the Content-Type in SOAP 1.2 (none without one).
TEST(ServiceClient, SendsTheSoapActionInEachVersionsHeader) {
  struct expected {
    soap::version v;
    std::string action, content_type, soap_action;
  };
  for (const auto& e : {
           expected{soap::version::soap11, "", "text/xml; charset=utf-8", "\"\""},
           expected{soap::version::soap11, "urn:t#add", "text/xml; charset=utf-8", "\"urn:t#add\""},
           expected{soap::version::soap12, "", "application/soap+xml; charset=utf-8", ""},
           expected{soap::version::soap12, "urn:t#add",
                    "application/soap+xml; charset=utf-8; action=\"urn:t#add\"", ""},
       }) {
    SCOPED_TRACE(e.action + " " + e.content_type);
    http::test::raw_peer peer{add_response_message(e.v)};
    client_options o;
    o.version = e.v;
    client c{"http://127.0.0.1:" + std::to_string(peer.port()) + "/test", o};
    call_options co;
    co.soap_action = e.action;
    for (int i = 0; i < 2; ++i)  // the second call with the pooled values
      EXPECT_EQ(c.call<add_response>("add", add_request{2, 3}, co).result, 5);
    const std::string head = peer.last_request().substr(0, peer.last_request().find("\r\n\r\n"));
    EXPECT_NE(head.find("\r\nContent-Type: " + e.content_type + "\r\n"), std::string::npos) << head;
    if (e.v == soap::version::soap11)
      EXPECT_NE(head.find("\r\nSOAPAction: " + e.soap_action + "\r\n"), std::string::npos) << head;
    else
      EXPECT_EQ(head.find("SOAPAction"), std::string::npos) << head;
  }
}

TEST_F(service_fixture, FaultWithTypedDetailReachesTheClient) {
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    client_options o;
    o.version = v;
    client c{base_ + "/test", o};
    try {
      c.call<add_response>("add", add_request{-1, 5});
      FAIL() << "expected a fault";
    } catch (const soap::fault_error& e) {
      EXPECT_EQ(e.get().code, soap::fault_code::sender);
      EXPECT_EQ(e.get().reason, "negative");
      // The code as the server sent it: SOAP 1.1's Client is not renamed Sender.
      EXPECT_STREQ(e.what(), v == soap::version::soap11 ? "SOAP fault Client: negative"
                                                        : "SOAP fault Sender: negative");
      error_detail d;
      bool seen = false;
      e.get().read_detail([&](xml::reader& r) {
        bind::read_or_throw(r, d);
        seen = true;
      });
      EXPECT_TRUE(seen);
      EXPECT_EQ(d.code, 7);
      EXPECT_EQ(d.field, "a");
    }
  }
}

TEST_F(service_fixture, DeclaredTypedFaultReachesTheClientAsItsDetailType) {
  for (auto v : {soap::version::soap11, soap::version::soap12}) {
    client_options o;
    o.version = v;
    client c{base_ + "/test", o};
    EXPECT_EQ(c.call<add_response>("lookup", lookup_request{4}).result, 4);
    try {
      c.call<add_response>("lookup", lookup_request{-3});
      ADD_FAILURE() << "expected a fault";
    } catch (const soap::fault_error& e) {
      EXPECT_EQ(e.get().code, soap::fault_code::sender);
      EXPECT_EQ(e.get().reason, "no such id");
      std::optional<invalid_id> d = soap::detail_as<invalid_id>(e);
      ASSERT_TRUE(d.has_value());
      EXPECT_EQ(d->id, -3);
      EXPECT_EQ(d->hint, "positive");
      EXPECT_FALSE(soap::detail_as<error_detail>(e).has_value());  // a different element
    }
  }
}

TEST_F(service_fixture, DeclaredFaultsAreDescribedInTheWsdl) {
  client c{base_ + "/test"};
  const std::string wsdl = c.wsdl();
  EXPECT_TRUE(test::has_element(wsdl, "/definitions/types/schema/element",
                                {{"name", "InvalidId"}, {"type", "tns:InvalidId"}}))
      << wsdl;
  EXPECT_TRUE(test::has_element(wsdl, "/definitions/message", {{"name", "InvalidIdFault"}}));
  EXPECT_TRUE(test::has_element(wsdl, "/definitions/message/part",
                                {{"name", "fault"}, {"element", "tns:InvalidId"}}));
  EXPECT_TRUE(test::has_element(wsdl, "/definitions/portType/operation/fault",
                                {{"name", "InvalidId"}, {"message", "tns:InvalidIdFault"}}));
  EXPECT_TRUE(test::has_element(wsdl, "/definitions/portType/operation/fault",
                                {{"name", "Busy"}, {"message", "tns:BusyFault"}}));
  // Both bindings (SOAP 1.1 and 1.2) describe the fault as literal.
  std::vector<std::string> binding_faults;
  for (const auto& f : test::find_elements(wsdl, "/definitions/binding/operation/fault/fault"))
    if (f.attribute("name") == "InvalidId" && f.attribute("use") == "literal")
      binding_faults.push_back(f.ns);
  EXPECT_EQ(binding_faults, (std::vector<std::string>{"http://schemas.xmlsoap.org/wsdl/soap/",
                                                      "http://schemas.xmlsoap.org/wsdl/soap12/"}))
      << wsdl;
}

// Two operations' faults of one name with different detail elements: a message each, so each
// operation's wsdl:fault names the message of its own element.
TEST(ServiceWsdl, FaultsOfOneNameWithDifferentElementsGetAMessageEach) {
  service svc{"Faults", std::string(test_ns)};
  auto handler = [](const lookup_request& in) { return add_response{in.id}; };
  operation_options a, b;
  a.faults = {fault_type<invalid_id>("Failed")};
  b.faults = {fault_type<error_detail>("Failed")};
  a.request_element = "a";
  b.request_element = "b";
  svc.operation("a", handler, a);
  svc.operation("b", handler, b);
  const std::string wsdl = generate_wsdl(svc, "http://127.0.0.1:1/");
  // Every message has one part here: message i's part is part i.
  const auto messages = test::find_elements(wsdl, "/definitions/message");
  const auto parts = test::find_elements(wsdl, "/definitions/message/part");
  ASSERT_EQ(messages.size(), parts.size());
  std::map<std::string, std::string> element_of;  // message -> its part's element
  for (std::size_t i = 0; i < messages.size(); ++i)
    element_of["tns:" + messages[i].attribute("name").value_or("")] =
        parts[i].attribute("element").value_or("");
  std::vector<std::string> fault_elements;  // per operation (a, b), its fault's element
  for (const auto& f : test::find_elements(wsdl, "/definitions/portType/operation/fault")) {
    EXPECT_EQ(f.attribute("name"), "Failed");
    fault_elements.push_back(element_of[f.attribute("message").value_or("")]);
  }
  EXPECT_EQ(fault_elements, (std::vector<std::string>{"tns:InvalidId", "tns:errorDetail"})) << wsdl;
}

// A declared fault, header or header fault whose type XML Schema cannot express (here: no
// type given) is left out of the WSDL, and the operation's wsdl:documentation says so.
TEST(ServiceWsdl, WhatTheSchemaCannotExpressIsNamedNotDropped) {
  service svc{"Faults", std::string(test_ns)};
  operation_options o;
  o.documentation = "Adds.";
  o.faults = {fault_type<invalid_id>(), {"Opaque", "urn:x", "OpaqueDetail", nullptr}};
  o.headers = {{"urn:x", "Ticket", nullptr, "ticket", false, true, {}}};
  svc.operation(
      "a", [](const lookup_request& in) { return add_response{in.id}; }, o);
  const std::string wsdl = generate_wsdl(svc, "http://127.0.0.1:1/");
  EXPECT_TRUE(
      test::has_element(wsdl, "/definitions/portType/operation/fault", {{"name", "InvalidId"}}));
  EXPECT_FALSE(
      test::has_element(wsdl, "/definitions/portType/operation/fault", {{"name", "Opaque"}}));
  EXPECT_TRUE(test::find_elements(wsdl, "/definitions/binding/operation/input/header").empty());
  const auto doc = test::find_elements(wsdl, "/definitions/portType/operation/documentation");
  ASSERT_EQ(doc.size(), 1u) << wsdl;
  EXPECT_EQ(doc[0].text,
            "Adds.\nNot described in this WSDL, as XML Schema cannot express its type: fault "
            "Opaque {urn:x}OpaqueDetail, request header {urn:x}Ticket.");
}

TEST_F(service_fixture, HandlerExceptionsBecomeServerFaultsWithoutInternals) {
  auto r = post_raw("/test", "text/xml; charset=utf-8",
                    "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
                    "<t:add xmlns:t='urn:lather:test'><t:a>666</t:a><t:b>1</t:b></t:add>"
                    "</s:Body></s:Envelope>");
  EXPECT_EQ(r.status, 500u);
  EXPECT_EQ(fault_code(r.body), "Server") << r.body;
  // Nothing of the exception's text anywhere in the answer.
  EXPECT_EQ(r.body.find("secret"), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("/srv/app"), std::string::npos) << r.body;
}

TEST_F(service_fixture, UnknownOperationIsAClientFaultNamingTheElement) {
  auto r = post_raw("/test", "text/xml",
                    "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
                    "<t:subtract xmlns:t='urn:lather:test'/></s:Body></s:Envelope>");
  EXPECT_EQ(r.status, 500u);
  EXPECT_EQ(fault_code(r.body), "Client") << r.body;
  EXPECT_EQ(fault_string(r.body), "no operation takes body element {urn:lather:test}subtract")
      << r.body;
}

TEST_F(service_fixture, WrongNamespaceOnTheBodyElementIsRejected) {
  auto r = post_raw("/test", "text/xml",
                    "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
                    "<t:add xmlns:t='urn:other'><t:a>1</t:a><t:b>1</t:b></t:add>"
                    "</s:Body></s:Envelope>");
  EXPECT_EQ(r.status, 500u);
  EXPECT_EQ(fault_code(r.body), "Client") << r.body;
  EXPECT_EQ(fault_string(r.body), "no operation takes body element {urn:other}add") << r.body;
}

TEST_F(service_fixture, MissingRequiredParameterNamesItsPath) {
  auto r = post_raw("/test", "text/xml",
                    "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
                    "<t:add xmlns:t='urn:lather:test'><t:a>1</t:a></t:add></s:Body></s:Envelope>");
  EXPECT_EQ(r.status, 500u);
  EXPECT_EQ(fault_code(r.body), "Client") << r.body;
  EXPECT_EQ(fault_string(r.body), "/add/b: required element is missing (minOccurs=1)") << r.body;
}

TEST_F(service_fixture, Soap12ToA11OnlyEndpointIsVersionMismatch) {
  auto r = post_raw("/only11", "application/soap+xml; charset=utf-8",
                    "<e:Envelope xmlns:e='http://www.w3.org/2003/05/soap-envelope'><e:Body>"
                    "<t:add xmlns:t='urn:lather:test'><t:a>1</t:a><t:b>1</t:b></t:add>"
                    "</e:Body></e:Envelope>");
  EXPECT_EQ(r.status, 500u);
  EXPECT_EQ(fault_code(r.body), "VersionMismatch") << r.body;
}

TEST_F(service_fixture, EnvelopeNamespaceNotMatchingTheContentTypeIsVersionMismatch) {
  auto r =
      post_raw("/test", "text/xml", "<e:Envelope xmlns:e='urn:not-soap'><e:Body/></e:Envelope>");
  EXPECT_EQ(r.status, 500u);
  EXPECT_EQ(fault_code(r.body), "VersionMismatch") << r.body;
}

TEST_F(service_fixture, NonSoapContentTypeIs415) {
  auto r = post_raw("/test", "application/json", "{}");
  EXPECT_EQ(r.status, 415u);
}

TEST_F(service_fixture, OneWayOperationAnswers202WithoutBody) {
  auto r = post_raw("/test", "text/xml",
                    "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
                    "<t:notify xmlns:t='urn:lather:test'><t:message>hi</t:message></t:notify>"
                    "</s:Body></s:Envelope>");
  EXPECT_EQ(r.status, 202u);
  EXPECT_TRUE(r.body.empty());
  EXPECT_EQ(notifications_.load(), 1);
  EXPECT_EQ(notified_, "hi");
}

TEST_F(service_fixture, UnqualifiedHeaderEntryIsAClientFaultIn11AndSenderIn12) {
  const std::string call =
      "<t:add xmlns:t='" + std::string(test_ns) + "'><t:a>1</t:a><t:b>2</t:b></t:add>";
  const raw_reply v11 = post_raw(
      "/test", "text/xml; charset=utf-8",
      "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Header><Trace>1</Trace>"
      "</s:Header><s:Body>" +
          call + "</s:Body></s:Envelope>");
  EXPECT_EQ(v11.status, 500u);
  EXPECT_EQ(fault_code(v11.body), "Client") << v11.body;
  EXPECT_EQ(fault_string(v11.body), "header entry Trace is not namespace-qualified") << v11.body;
  const raw_reply v12 = post_raw(
      "/test", "application/soap+xml; charset=utf-8",
      "<s:Envelope xmlns:s='http://www.w3.org/2003/05/soap-envelope'><s:Header><Trace>1</Trace>"
      "</s:Header><s:Body>" +
          call + "</s:Body></s:Envelope>");
  EXPECT_EQ(v12.status, 400u);
  EXPECT_EQ(envelope_ns(v12.body), soap12_ns) << v12.body;
  EXPECT_EQ(fault_code(v12.body), "Sender") << v12.body;
  EXPECT_EQ(fault_string(v12.body), "header entry Trace is not namespace-qualified") << v12.body;
}

TEST_F(service_fixture, A16MegabyteAttributeValueIsAClientFaultAtTheAttributeLimit) {
  // CXF's default: an attribute value over 64 KiB is refused (the text limit is separate).
  const std::string big(16u << 20, 'v');
  const std::string call = "<t:add xmlns:t='" + std::string(test_ns) + "' t:junk='" + big +
                           "'><t:a>1</t:a><t:b>2</t:b></t:add>";
  // The refusal names the limit and the first byte past it: 64 KiB into the value.
  const auto refused_at = [](const std::string& request) {
    const std::size_t at = request.find("t:junk='") + 8 + (64u << 10);
    return "limit_attribute_length at line 1, column " + std::to_string(at + 1) + " (offset " +
           std::to_string(at) + "): attribute value too long";
  };
  const std::string request11 =
      "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>" + call +
      "</s:Body></s:Envelope>";
  const raw_reply v11 = post_raw("/test", "text/xml; charset=utf-8", request11);
  EXPECT_EQ(v11.status, 500u);
  EXPECT_EQ(fault_code(v11.body), "Client") << v11.body;
  EXPECT_EQ(fault_string(v11.body), refused_at(request11)) << v11.body;
  const std::string request12 =
      "<s:Envelope xmlns:s='http://www.w3.org/2003/05/soap-envelope'><s:Body>" + call +
      "</s:Body></s:Envelope>";
  const raw_reply v12 = post_raw("/test", "application/soap+xml; charset=utf-8", request12);
  EXPECT_EQ(v12.status, 400u);
  EXPECT_EQ(envelope_ns(v12.body), soap12_ns) << v12.body;
  EXPECT_EQ(fault_code(v12.body), "Sender") << v12.body;
  EXPECT_EQ(fault_string(v12.body), refused_at(request12)) << v12.body;
  // Just under the limit it is an ordinary call.
  const raw_reply ok = post_raw(
      "/test", "text/xml; charset=utf-8",
      "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body><t:add xmlns:t='" +
          std::string(test_ns) + "' t:junk='" + std::string(64u << 10, 'v') +
          "'><t:a>1</t:a><t:b>2</t:b></t:add></s:Body></s:Envelope>");
  EXPECT_EQ(ok.status, 200u) << ok.body;
}

TEST_F(service_fixture, MustUnderstandHeadersAreCheckedAndBoundHeadersRead) {
  auto unknown = post_raw(
      "/test", "text/xml",
      "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Header>"
      "<x:Tx xmlns:x='urn:x' s:mustUnderstand='1'>1</x:Tx></s:Header><s:Body>"
      "<t:add xmlns:t='urn:lather:test'><t:a>1</t:a><t:b>1</t:b></t:add></s:Body></s:Envelope>");
  EXPECT_EQ(unknown.status, 500u);
  EXPECT_EQ(fault_code(unknown.body), "MustUnderstand") << unknown.body;

  auto known = post_raw(
      "/test", "text/xml",
      "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Header>"
      "<t:Auth xmlns:t='urn:lather:test' s:mustUnderstand='1'><t:token>abc</t:token></t:Auth>"
      "</s:Header><s:Body><t:add xmlns:t='urn:lather:test'><t:a>1</t:a><t:b>2</t:b></t:add>"
      "</s:Body></s:Envelope>");
  EXPECT_EQ(known.status, 200u) << known.body;
  EXPECT_EQ(token_, "abc");
  EXPECT_EQ(test::find_text(known.body, "/Envelope/Body/addResponse/result"), "3") << known.body;
}

TEST_F(service_fixture, RpcLiteralUsesOperationWrapperAndUnqualifiedParts) {
  auto r = post_raw("/perf/rpc", "text/xml",
                    "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
                    "<p:echoStringRPC xmlns:p='http://cxf.apache.org/cxf/performance'>"
                    "<in>x&lt;y</in></p:echoStringRPC></s:Body></s:Envelope>");
  EXPECT_EQ(r.status, 200u) << r.body;
  // The wrapper in the operation's namespace, the part unqualified, the text escaped on the wire.
  const auto wrapper = test::find_element(r.body, "/Envelope/Body/echoStringRPCResponse");
  ASSERT_TRUE(wrapper) << r.body;
  EXPECT_EQ(wrapper->ns, "http://cxf.apache.org/cxf/performance") << r.body;
  const auto out = test::find_element(r.body, "/Envelope/Body/echoStringRPCResponse/out");
  ASSERT_TRUE(out) << r.body;
  EXPECT_EQ(out->ns, "") << r.body;
  EXPECT_EQ(out->text, "x<y") << r.body;

  client c{base_ + "/perf/rpc"};
  call_options o;
  o.style = soap::style::rpc_literal;
  auto resp = c.call<perf::echoStringRPCResponse>("echoStringRPC", perf::echoStringRPC{"hé"}, o);
  EXPECT_EQ(resp.out, "hé");
}

// CXF's perf.wsdl has no namespace on its rpc soap:body, so zeep sends the wrapper unqualified;
// an RPC operation takes it, a document one still does not (its element is schema-defined).
TEST_F(service_fixture, UnqualifiedRpcWrapperIsAcceptedButNotAnUnqualifiedDocumentElement) {
  auto r = post_raw("/perf/rpc", "text/xml",
                    "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
                    "<echoStringRPC><in>plain</in></echoStringRPC></s:Body></s:Envelope>");
  EXPECT_EQ(r.status, 200u) << r.body;
  EXPECT_EQ(test::find_text(r.body, "/Envelope/Body/echoStringRPCResponse/out"), "plain") << r.body;

  auto d = post_raw("/test", "text/xml",
                    "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
                    "<add><a>1</a><b>1</b></add></s:Body></s:Envelope>");
  EXPECT_EQ(d.status, 500u);
  EXPECT_EQ(fault_code(d.body), "Client") << d.body;
  EXPECT_EQ(fault_string(d.body), "no operation takes body element {}add") << d.body;
}

TEST_F(service_fixture, ClientInterceptorsAddHeadersAndSeeEveryOutcome) {
  client c{base_ + "/test"};
  int calls = 0, faults = 0;
  c.intercept({.write_headers =
                   [](std::string_view op, xml::writer& w) {
                     w.start_element(test_ns, "Auth");
                     soap::write_header_attributes(w, soap::version::soap11, true);
                     w.start_element(test_ns, "token");
                     w.text(std::string("for-") + std::string(op));
                     w.end_element();
                     w.end_element();
                   },
               .after =
                   [&](const call_info& info) {
                     ++calls;
                     if (info.fault) ++faults;
                     EXPECT_EQ(info.operation, "add");
                   }});
  EXPECT_EQ(c.call<add_response>("add", add_request{1, 2}).result, 3);
  EXPECT_EQ(token_, "for-add");  // the server's header binding read what the hook wrote
  EXPECT_THROW(c.call<add_response>("add", add_request{-1, 2}), soap::fault_error);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(faults, 1);
}

TEST(client_timeouts, PerCallTimeoutCutsASlowCall) {
  std::mutex m;
  std::vector<lather::reply<add_response>> held;  // answered only after the client gave up
  lather::service svc{"Slow", std::string(test_ns)};
  svc.operation("add", [&](const add_request&, lather::reply<add_response> done) {
    std::lock_guard lock(m);
    held.push_back(done);
  });
  lather::server srv{lather::server_options{}};
  srv.mount("/slow", svc);
  srv.start();
  lather::client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/slow"};
  call_options o;
  o.timeout = std::chrono::milliseconds(200);
  const auto start = std::chrono::steady_clock::now();
  try {
    c.call<add_response>("add", add_request{1, 2}, o);
    ADD_FAILURE() << "expected a timeout";
  } catch (const http::error& e) {
    EXPECT_EQ(e.code(), http::errc::call_timeout);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  {
    std::lock_guard lock(m);
    for (auto& r : held) r(add_response{0});
  }
  srv.stop();
}

TEST_F(service_fixture, HealthAndMetricsEndpoints) {
  client c{base_ + "/test"};
  for (int i = 0; i < 3; ++i) c.call<add_response>("add", add_request{1, 1});
  http::client h{base_};
  auto health = h.get("/healthz");
  EXPECT_EQ(health.status, 200u);
  EXPECT_EQ(health.body, "ok\n");
  auto m = h.get("/metrics");
  EXPECT_EQ(m.status, 200u);
  EXPECT_NE(m.body.find("lather_requests_total{service=\"TestService\",path=\"/test\","
                        "operation=\"add\"} 3"),
            std::string::npos)
      << m.body;
  EXPECT_NE(m.body.find("lather_request_duration_seconds_bucket"), std::string::npos);
}

TEST(ServerProbes, ReadyzTurns503WhenADrainBeginsWhileLivezStays200) {
  server_options o;
  o.address = "127.0.0.1";
  o.drain_delay = std::chrono::seconds(1);  // served meanwhile: what a balancer's check sees
  server srv{o};
  srv.start();
  http::client h{"http://127.0.0.1:" + std::to_string(srv.port())};
  auto ready = h.get("/readyz");
  EXPECT_EQ(ready.status, 200u);
  EXPECT_EQ(ready.body, "ready\n");
  EXPECT_EQ(h.get("/livez").body, "ok\n");
  EXPECT_EQ(h.get("/readyz/x").status, 404u);
  std::thread stopper([&] { srv.stop(); });
  const auto drain_seen_by = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!srv.draining() && std::chrono::steady_clock::now() < drain_seen_by)
    std::this_thread::yield();
  EXPECT_TRUE(srv.draining());
  auto draining = h.get("/readyz");
  EXPECT_EQ(draining.status, 503u);
  EXPECT_EQ(draining.body, "draining\n");
  auto live = h.get("/livez");
  EXPECT_EQ(live.status, 200u);
  EXPECT_EQ(live.body, "ok\n");
  stopper.join();
}

TEST_F(service_fixture, GetWithoutWsdlQueryIs405AndUnknownPathIs404) {
  http::client h{base_};
  EXPECT_EQ(h.get("/test").status, 405u);
  EXPECT_EQ(h.get("/test/nothing").status, 404u);
}

// A served service is complete: registering on it once its server started is refused (it used to
// grow the operation table past the metrics the server had sized and crash the next call), and
// the service goes on answering what it had.
TEST(ServiceCallContext, AHandlerSeesTheClientsAddressAndPort) {
  // The handler answers the client's port when it sees the address 127.0.0.1, else -1.
  lather::service svc{"Peer", std::string(test_ns)};
  svc.operation("add", [](call_context& ctx, const add_request&) {
    return add_response{ctx.remote_address() == "127.0.0.1" ? ctx.remote_port() : -1};
  });
  lather_test::local_server server{"/peer", svc};
  const std::string port = server.url("").substr(server.url("").rfind(':') + 1);
  const std::string envelope =
      "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
      "<t:add xmlns:t='urn:lather:test'><t:a>1</t:a><t:b>2</t:b></t:add></s:Body></s:Envelope>";
  http::test::raw_socket a{static_cast<std::uint16_t>(std::stoi(port))};
  http::test::raw_socket b{static_cast<std::uint16_t>(std::stoi(port))};
  ASSERT_NE(a.local_port(), b.local_port());
  const std::string headers = "Content-Type: text/xml\r\nSOAPAction: \"\"\r\n";
  for (auto* s : {&a, &b, &a}) {
    // A forwarded address is the proxy's claim, a header: never taken for the peer's.
    ASSERT_TRUE(s->send(
        http::test::post_request("/peer", envelope, headers + "X-Forwarded-For: 203.0.113.7\r\n")));
    const http::test::wire_response r = s->read_response();
    EXPECT_EQ(r.status, 200u) << r.body;
    EXPECT_EQ(test::find_text(r.body, "/Envelope/Body/addResponse/result"),
              std::to_string(s->local_port()))
        << r.body;
  }
}

TEST(ServiceMount, RegisteringAfterTheServerStartedThrowsAndTheServiceStillAnswers) {
  lather::service svc{"late", std::string(lather_test::test_ns)};
  svc.operation("add", [](const add_request& in) { return add_response{in.a + in.b}; });
  lather_test::local_server srv{"/late", svc};
  try {
    svc.operation("sub", [](const add_request& in) { return add_response{in.a - in.b}; });
    FAIL() << "an operation registered after mount was accepted";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string_view(e.what()).find("operation sub registered after its server started"),
              std::string_view::npos)
        << e.what();
  }
  EXPECT_THROW(svc.header("urn:h", "h", [](lather::call_context&, lather::xml::reader&) {}),
               std::logic_error);
  EXPECT_THROW(svc.intercept({}), std::logic_error);
  EXPECT_THROW(svc.codec(nullptr), std::logic_error);
  EXPECT_EQ(svc.operations().size(), 1u);
  lather::client c{srv.url("/late")};
  EXPECT_EQ(c.call<add_response>("add", add_request{2, 3}).result, 5);
}

}  // namespace

namespace {

// The getting-started example: start the built binary on an ephemeral port, call it, stop it
// by its PID.
TEST(example, HelloServiceAnswersAndServesItsWsdl) {
  lather::test::listening_server hello(
      {std::string(lather::test::bin_dir) + "/lather-example-hello", "0"});
  ASSERT_NE(hello.port, 0) << hello.banner;
  std::string url = hello.banner.substr(hello.banner.find("http://"));
  url.erase(url.find_last_not_of("\r\n") + 1);
  std::string body;
  {
    lather::http::client c{url};
    std::pair<std::string_view, std::string_view> headers[] = {
        {"Content-Type", "text/xml; charset=utf-8"}, {"SOAPAction", "\"\""}};
    c.post(
        "", headers,
        [](lather::xml::output& o) {
          o.append(
              "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
              "<h:greet xmlns:h='urn:hello'><h:name>Ada</h:name></h:greet></s:Body></s:Envelope>");
        },
        [&](const lather::http::response_head&, const lather::xml::source_fn& src) {
          char buf[1024];
          while (std::size_t n = src(buf, sizeof buf)) body.append(buf, n);
        });
    EXPECT_EQ(c.get("?wsdl").status, 200u);
  }
  EXPECT_EQ(test::find_text(body, "/Envelope/Body/greetResponse/greeting"), "Hello, Ada!") << body;
  hello.child.stop();
  EXPECT_FALSE(hello.child.running());
}

// The README's "service in ten lines" is a part of examples/hello/main.cpp, line for line, so
// what a reader copies is what the test above runs.
TEST(example, ReadmeServiceLinesAreTheExamples) {
  auto read = [](const char* path) {
    std::ifstream in(std::string(lather::test::source_dir) + "/" + path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string readme = read("README.md");
  const std::string example = read("examples/hello/main.cpp");
  const auto section = readme.find("## A service in ten lines");
  ASSERT_NE(section, std::string::npos);
  const auto begin = readme.find("```cpp\n", section);
  ASSERT_NE(begin, std::string::npos);
  const auto end = readme.find("```\n", begin + 7);
  std::istringstream lines(readme.substr(begin + 7, end - begin - 7));
  int count = 0;
  for (std::string line; std::getline(lines, line); ++count)
    EXPECT_NE(example.find(line), std::string::npos) << "README line not in the example: " << line;
  EXPECT_GE(count, 5);
}

// service_options / client_options::envelope_namespaces: declared once on the Envelope, so
// the QName value of every CXF item uses that prefix instead of its own xmlns declaration.
using declarations = std::vector<std::pair<std::string, std::string>>;  // (element path, prefix)
const std::string qname_items =
    "/Envelope/Body/*/return/item/varQName";  // the echoed items' QName values, by path

std::vector<std::string> texts(const std::string& xml, std::string_view path) {
  std::vector<std::string> out;
  for (auto& e : test::find_elements(xml, path)) out.push_back(std::move(e.text));
  return out;
}

TEST(envelope_namespaces, TheServerDeclaresThemOnceAndQNameValuesUseThem) {
  service_options o;
  // "ns1" clashes with the writer's generated prefixes: the types namespace must get another.
  o.envelope_namespaces = {{"cxf", std::string(perf::qname_value_ns)}, {"ns1", "urn:clash"}};
  service perf_svc{"PerfService", std::string(perf::service_ns), o};
  perf_svc.operation("echoComplexTypeDoc",
                     [](perf::echoComplexTypeDoc& in, perf::echoComplexTypeDocResponse& out) {
                       std::swap(out.return_, in.in);
                       out.idout = in.id;
                     });
  server srv{server_options{}};
  srv.mount("/perf", perf_svc);
  srv.start();
  const std::string url = "http://127.0.0.1:" + std::to_string(srv.port()) + "/perf";

  // The request declares the QName's namespace on each item, under a prefix of its own.
  std::string item =
      "<t:item xmlns:q='http://cxf.apache.org'><t:varString>s</t:varString>"
      "<t:varUByte>1</t:varUByte><t:varUnsignedLong>2</t:varUnsignedLong>"
      "<t:varFloat>1.5</t:varFloat><t:varQName>q:return</t:varQName>"
      "<t:varBase64Binary>AAE=</t:varBase64Binary><t:varHexBinary>0001</t:varHexBinary>"
      "<t:varStruct varAttrString='a'><t:varFloat>1</t:varFloat><t:varShort>3</t:varShort>"
      "<t:varString>x</t:varString><t:varByte>4</t:varByte><t:varDecimal>1.25</t:varDecimal>"
      "<t:varDouble>2.5</t:varDouble><t:varDateTime>2005-12-03T00:00:09Z</t:varDateTime>"
      "</t:varStruct><t:varEnum>RED</t:varEnum></t:item>";
  std::string request =
      "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
      "<t:echoComplexTypeDoc xmlns:t='http://cxf.apache.org/cxf/performance/types'><t:in>" +
      item + item + "</t:in><t:id>5</t:id></t:echoComplexTypeDoc></s:Body></s:Envelope>";
  const std::string body = post_envelope(url, request);
  EXPECT_EQ(test::declarations_of(body, "http://cxf.apache.org"),
            (declarations{{"/Envelope", "cxf"}}))
      << body;
  EXPECT_EQ(test::declarations_of(body, "urn:clash"), (declarations{{"/Envelope", "ns1"}})) << body;
  EXPECT_EQ(texts(body, qname_items), (std::vector<std::string>{"cxf:return", "cxf:return"}))
      << body;
  // The types namespace took another prefix than the clashing "ns1".
  for (const auto& [path, prefix] : test::declarations_of(body, perf::types_ns))
    EXPECT_NE(prefix, "ns1") << path << "\n" << body;

  // And lather's client reads it back: QName namespaces and values as sent.
  client c{url};
  perf::echoComplexTypeDoc in;
  in.in = perf::make_cxf_seq(3);
  in.id = 11;
  perf::echoComplexTypeDocResponse out;
  c.call("echoComplexTypeDoc", in, out);
  EXPECT_EQ(out.idout, 11);
  EXPECT_TRUE(out.return_ == in.in);
  srv.stop();
}

TEST(envelope_namespaces, TheClientDeclaresThemOnceOnItsRequests) {
  std::string captured;
  http::server raw{http::server_options{}};
  raw.route("/", [&](http::request& req, http::response& res) {
    char buf[4096];
    while (std::size_t n = req.read_body(buf, sizeof buf)) captured.append(buf, n);
    res.set_header("Content-Type", "text/xml; charset=utf-8");
    xml::writer w{res.body()};
    soap::envelope_writer env{w, soap::version::soap11};
    env.begin();
    env.begin_body();
    perf::echoComplexTypeDocResponse answer;
    answer.return_ = perf::make_cxf_seq(2);
    answer.idout = 9;
    bind::write(w, perf::types_ns, "echoComplexTypeDocResponse", answer);
    env.end();
  });
  raw.start();
  client_options co;
  co.envelope_namespaces = {{"cxf", std::string(perf::qname_value_ns)}};
  client c{"http://127.0.0.1:" + std::to_string(raw.port()) + "/", co};
  perf::echoComplexTypeDoc in;
  in.in = perf::make_cxf_seq(2);
  in.id = 9;
  perf::echoComplexTypeDocResponse out;
  c.call("echoComplexTypeDoc", in, out);
  EXPECT_EQ(out.idout, 9);
  EXPECT_TRUE(out.return_ == in.in);
  EXPECT_EQ(test::declarations_of(captured, "http://cxf.apache.org"),
            (declarations{{"/Envelope", "cxf"}}))
      << captured;
  EXPECT_EQ(texts(captured, "/Envelope/Body/echoComplexTypeDoc/in/item/varQName"),
            (std::vector<std::string>{"cxf:return", "cxf:return"}))
      << captured;
  raw.stop();
}

}  // namespace

namespace {

// Async handlers: the reply comes from another thread while the server's only thread keeps
// serving other calls; a dropped reply becomes a Server fault instead of a hang.
TEST(async_handlers, ReplyFromAnotherThreadWithoutHoldingTheServerThread) {
  std::vector<std::thread> workers;
  std::vector<lather::reply<add_response>> kept;
  std::mutex m;
  // Two services on the server's one thread: "Async" answers from worker threads (its
  // deadline is the default 60 s, so a loaded machine never turns a slow answer into a
  // fault); "Held" keeps or drops its replies and has a 300 ms deadline.
  lather::service svc{"Async", std::string(test_ns)};
  svc.operation("add", [&](const add_request& in, lather::reply<add_response> done) {
    std::lock_guard lock(m);
    workers.emplace_back([in, done] { done(add_response{in.a + in.b}); });
  });
  lather::service_options short_deadline;
  short_deadline.handler_timeout = std::chrono::milliseconds(300);
  lather::service held{"Held", std::string(test_ns), short_deadline};
  held.operation("add", [&](const add_request& in, lather::reply<add_response> done) {
    if (in.a == -1) return;  // drops the reply
    std::lock_guard lock(m);
    kept.push_back(done);  // holds the reply forever
  });
  lather::server_options o;
  o.threads = 1;  // one server thread: a blocked handler would stall everything
  lather::server srv{o};
  srv.mount("/async", svc);
  srv.mount("/held", held);
  srv.start();
  const std::string base = "http://127.0.0.1:" + std::to_string(srv.port());
  std::vector<std::thread> callers;
  std::atomic<int> ok{0};
  for (int t = 0; t < 8; ++t)
    callers.emplace_back([&, t] {
      lather::client c{base + "/async"};
      for (int i = 0; i < 20; ++i) {
        try {
          if (c.call<add_response>("add", add_request{t, i}).result == t + i) ++ok;
        } catch (const std::exception& e) {  // a missing answer fails the count, not the process
          ADD_FAILURE() << "call " << t << "+" << i << ": " << e.what();
        }
      }
    });
  for (auto& c : callers) c.join();
  EXPECT_EQ(ok.load(), 160);
  lather::client c{base + "/held"};
  try {
    c.call<add_response>("add", add_request{-2, 0});  // keeps its reply, never answers
    ADD_FAILURE() << "expected a timeout fault";
  } catch (const lather::soap::fault_error& e) {
    EXPECT_EQ(e.get().reason, "the operation timed out");
  }
  try {
    c.call<add_response>("add", add_request{-1, 0});
    ADD_FAILURE() << "expected a fault";
  } catch (const lather::soap::fault_error& e) {
    EXPECT_EQ(e.get().code, lather::soap::fault_code::receiver);
  }
  srv.stop();
  for (auto& w : workers) w.join();
}

}  // namespace

namespace {

// A synchronous handler with operation_options::timeout that blocks: the client gets the
// timeout fault, the server's only thread keeps serving, and the late result is dropped.
TEST(sync_handler_timeouts, ABlockedHandlerGetsATimeoutFaultWhileTheServerKeepsServing) {
  std::promise<void> release, late_exit;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> late_returns{0};
  lather::service svc{"Sync", std::string(test_ns)};
  lather::operation_options o;
  o.timeout = std::chrono::milliseconds(200);
  svc.operation(
      "add",
      [&](const add_request& in) {
        if (in.a == -1) {
          released.wait();  // blocks until the test lets it go, long after the deadline
          ++late_returns;
          late_exit.set_value();
        }
        return add_response{in.a + in.b};
      },
      o);
  svc.operation("notify", [](const notify_request&) {});
  // A handler with a timeout cannot see the call context (it may outlive the call).
  EXPECT_THROW(
      svc.operation(
          "ctx", [](lather::call_context&, const add_request& in) { return add_response{in.a}; },
          o),
      std::invalid_argument);
  lather::server_options so;
  so.threads = 1;  // one server thread: the blocked handler must not hold it
  lather::server srv{so};
  srv.mount("/sync", svc);
  srv.start();
  lather::client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/sync"};
  try {
    c.call<add_response>("add", add_request{-1, 0});
    ADD_FAILURE() << "expected a timeout fault";
  } catch (const lather::soap::fault_error& e) {
    EXPECT_EQ(e.get().code, lather::soap::fault_code::receiver);
    EXPECT_EQ(e.get().reason, "the operation timed out");
  }
  // The handler is still blocked, yet the server answers other calls, timed ones included.
  EXPECT_EQ(c.call<add_response>("add", add_request{2, 3}).result, 5);
  EXPECT_EQ(late_returns.load(), 0);
  release.set_value();
  late_exit.get_future().wait();
  EXPECT_EQ(late_returns.load(), 1);
  EXPECT_EQ(c.call<add_response>("add", add_request{4, 5}).result, 9);
  srv.stop();
}

}  // namespace

namespace {

// soap4r (REXML) cannot read a message without the XML declaration when the Content-Type
// carries a charset: responses, faults and requests start with it unless an option drops it.
constexpr std::string_view xml_declaration = R"(<?xml version="1.0" encoding="UTF-8"?><)";

std::string post_add(const std::string& url, int a) {
  const std::string request =
      "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body><t:add xmlns:t='" +
      std::string(test_ns) + "'><t:a>" + std::to_string(a) +
      "</t:a><t:b>2</t:b></t:add></s:Body></s:Envelope>";
  return post_envelope(url, request);
}

TEST(xml_declaration, ResponsesAndFaultsStartWithItUnlessTheServiceDropsIt) {
  for (const bool declare : {true, false}) {
    service_options o;
    o.xml_declaration = declare;
    service svc{"Adder", std::string(test_ns), o};
    svc.operation("add", [](const add_request& in) {
      if (in.a < 0) throw soap::fault_error{soap::make_fault(soap::errc::unexpected_content, "no")};
      return add_response{in.a + in.b};
    });
    server srv{server_options{}};
    srv.mount("/add", svc);
    srv.start();
    const std::string url = "http://127.0.0.1:" + std::to_string(srv.port()) + "/add";
    const std::string answer = post_add(url, 1), fault = post_add(url, -1);
    EXPECT_EQ(test::find_text(answer, "/Envelope/Body/addResponse/result"), "3") << answer;
    EXPECT_EQ(fault_code(fault), "Client") << fault;
    EXPECT_EQ(fault_string(fault), "no") << fault;
    EXPECT_EQ(answer.starts_with(xml_declaration), declare) << answer;
    EXPECT_EQ(fault.starts_with(xml_declaration), declare) << fault;
    EXPECT_EQ(answer.starts_with("<soap:Envelope "), !declare) << answer;
    srv.stop();
  }
}

TEST(xml_declaration, RequestsStartWithItUnlessTheClientDropsIt) {
  std::string captured;
  http::server raw{http::server_options{}};
  raw.route("/", [&](http::request& req, http::response& res) {
    captured.clear();
    char buf[4096];
    while (std::size_t n = req.read_body(buf, sizeof buf)) captured.append(buf, n);
    res.set_header("Content-Type", "text/xml; charset=utf-8");
    xml::writer w{res.body()};
    soap::envelope_writer env{w, soap::version::soap11};
    env.begin();
    env.begin_body();
    bind::write(w, test_ns, "addResponse", add_response{5});
    env.end();
  });
  raw.start();
  for (const bool declare : {true, false}) {
    client_options co;
    co.xml_declaration = declare;
    client c{"http://127.0.0.1:" + std::to_string(raw.port()) + "/", co};
    add_response out;
    c.call("add", add_request{2, 3}, out);
    EXPECT_EQ(out.result, 5);
    EXPECT_EQ(captured.starts_with(xml_declaration), declare) << captured;
  }
  raw.stop();
}

// A table without detail::moves (LATHER_MESSAGE_TYPE_ENTRY_UNMOVED, a type lather-wsdl2cpp's code
// never moves): the same lifetime otherwise, no move constructor, create_moved() refused.
TEST(message_types, UnmovedTableRefusesCreateMoved) {
  static constexpr message_type moved = detail::make_message_type<add_request, detail::all_parts>();
  static constexpr message_type unmoved =
      detail::make_message_type<add_request, detail::all_parts & ~detail::moves>();
  EXPECT_NE(moved.move_construct, nullptr);
  EXPECT_EQ(unmoved.move_construct, nullptr);
  EXPECT_NE(unmoved.construct, nullptr);
  EXPECT_NE(unmoved.destruct, nullptr);
  add_request in{2, 3};
  message_value v(moved.create_moved(&in), message_deleter{&moved});
  EXPECT_EQ(static_cast<add_request*>(v.get())->b, 3);
  EXPECT_THROW((void)unmoved.create_moved(&in), std::logic_error);
  message_value w = make_message_value(unmoved);
  unmoved.reset(w.get());
  EXPECT_EQ(static_cast<add_request*>(w.get())->a, 0);
}

// service::operation and client::call over message_type tables (what lather-wsdl2cpp's code
// uses): the same messages and the same WSDL as the typed forms, and their misuses refused.
TEST(message_types, ErasedOperationAndCallMatchTheTypedForms) {
  struct adder {
    int calls = 0;
  } target;
  const message_type& req = message_type_of<add_request>();
  const message_type& resp = message_type_of<add_response>();
  service erased{"TestService", std::string(test_ns)};
  erased.operation("add", req, resp,
                   {[](void* t, const void* in, void* out) {
                      ++static_cast<adder*>(t)->calls;
                      const auto& r = *static_cast<const add_request*>(in);
                      static_cast<add_response*>(out)->result = r.a + r.b;
                    },
                    &target});
  service typed{"TestService", std::string(test_ns)};
  typed.operation("add", [](const add_request& r) { return add_response{r.a + r.b}; });
  EXPECT_EQ(generate_wsdl(erased, "http://x/"), generate_wsdl(typed, "http://x/"));

  server srv{server_options{}};
  srv.mount("/add", erased);
  srv.start();
  client c{"http://127.0.0.1:" + std::to_string(srv.port()) + "/add"};
  EXPECT_EQ(c.call<add_response>("add", add_request{2, 3}).result, 5);
  const add_request in{40, 2};
  add_response out;
  c.call("add", req, &in, resp, &out);
  EXPECT_EQ(out.result, 42);
  EXPECT_EQ(target.calls, 2);
  srv.stop();

  const message_handler none{};
  operation_options encoded;
  encoded.style = soap::style::rpc_encoded;
  EXPECT_THROW(erased.operation("a", req, resp, none), std::invalid_argument);
  const message_handler any{[](void*, const void*, void*) {}, nullptr};
  EXPECT_THROW(erased.operation("b", req, resp, any, encoded), std::invalid_argument);
  operation_options timed;
  timed.timeout = std::chrono::milliseconds{10};
  EXPECT_THROW(erased.operation("c", req, resp, any, timed), std::invalid_argument);
  call_options rpc;
  rpc.style = soap::style::rpc_encoded;
  EXPECT_THROW(c.call("add", req, &in, resp, &out, rpc), std::invalid_argument);
}

}  // namespace

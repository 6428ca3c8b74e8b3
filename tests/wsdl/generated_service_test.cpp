// The client proxy and service class lather-wsdl2cpp generates for perf.wsdl's DocPortType
// talk to lather's hand-written perf service and to each other over loopback HTTP; so do those
// of an rpc/encoded contract (data/encoded.wsdl).
#include <gtest/gtest.h>

#include <utility>

#include "../support/perfgen_request.hpp"
#include "bodies/PingPortType.hpp"
#include "lather/perf/echo_service.hpp"
#include "lather/service/client.hpp"
#include "lather/service/wsdl.hpp"
#include "lather/xml/reader.hpp"
#include "local_server.hpp"
#include "orders/OrdersPortType.hpp"
#include "perf/DocPortType.hpp"

namespace {

TEST(WsdlGeneratedService, GeneratedClientCallsTheHandWrittenPerfService) {
  lather::service doc{"PerfService", "http://cxf.apache.org/cxf/performance"};
  lather::perf::add_doc_echo_operations(doc);
  lather_test::local_server server("/perf", doc);
  lather::client c{server.url("/perf")};
  perfgen::DocPortTypeClient perf{c};
  perfgen::echoComplexTypeDoc req = lather_test::perfgen_request(3);
  perfgen::echoComplexTypeDocResponse res = perf.echoComplexTypeDoc(req);
  EXPECT_EQ(res.return_, req.in);
  EXPECT_EQ(res.idout, 42);
  perfgen::echoStringDoc s;
  s.in = "<&>";
  EXPECT_EQ(perf.echoStringDoc(s).out, "<&>");
}

class echo_impl : public perfgen::DocPortTypeService {
 public:
  void echoStringDoc(const perfgen::echoStringDoc& in,
                     perfgen::echoStringDocResponse& out) override {
    out.out = in.in + "!";
  }
  void echoBase64Doc(const perfgen::echoBase64Doc& in,
                     perfgen::echoBase64DocResponse& out) override {
    out.out = in.in;
  }
  void echoComplexTypeDoc(const perfgen::echoComplexTypeDoc& in,
                          perfgen::echoComplexTypeDocResponse& out) override {
    out.return_ = in.in;
    out.idout = in.id + 1;
  }
};

TEST(WsdlGeneratedService, GeneratedServiceAnswersTheGeneratedClient) {
  echo_impl impl;
  lather::service svc{"PerfService", "http://cxf.apache.org/cxf/performance"};
  impl.mount_on(svc);
  lather_test::local_server server("/perf", svc);
  lather::client c{server.url("/perf")};
  perfgen::DocPortTypeClient perf{c};
  perfgen::echoComplexTypeDoc req = lather_test::perfgen_request(2);
  perfgen::echoComplexTypeDocResponse res;
  perf.echoComplexTypeDoc(req, res);  // the reusing form
  EXPECT_EQ(res.return_, req.in);
  EXPECT_EQ(res.idout, 43);
  perfgen::echoStringDoc s;
  s.in = "hi";
  EXPECT_EQ(perf.echoStringDoc(s).out, "hi!");
  perfgen::echoBase64Doc b;
  b.in.bytes = {0, 1, 255};
  EXPECT_EQ(perf.echoBase64Doc(b).out, b.in);
}

class orders_impl : public ordersgen::OrdersPortTypeService {
 public:
  void getOrder(const ordersgen::getOrder& in, ordersgen::getOrderResponse& out) override {
    out.return_.id = in.id;
    out.return_.lines.emplace();
    out.return_.lines->push_back({"A-1", lather::xsd::integer{3}});
    out.return_.lines->push_back({"B-2", std::nullopt});
    out.return_.tags = std::vector<std::string>{"rush", "<gift>"};
  }
  void countLines(const ordersgen::countLines& in, ordersgen::countLinesResponse& out) override {
    std::size_t n = 0;
    for (const ordersgen::Order& o : in.orders)
      if (o.lines) n += o.lines->size();
    out.return_ = lather::xsd::integer{static_cast<std::int64_t>(n)};
  }
  void annotate(const ordersgen::annotate& in, ordersgen::annotateResponse& out) override {
    out.return_.value = in.value;
    out.return_.grid = in.grid;
  }
};

TEST(WsdlGeneratedService, EncodedContractArraysOfStructsRoundTrip) {
  orders_impl impl;
  lather::service svc{"Orders", "urn:orders"};
  impl.mount_on(svc);
  lather_test::local_server server("/orders", svc);
  lather::client c{server.url("/orders")};
  ordersgen::OrdersPortTypeClient orders{c};
  ordersgen::getOrder get;
  get.id = lather::xsd::integer{7};
  ordersgen::Order order = orders.getOrder(get).return_;
  EXPECT_EQ(order.id, lather::xsd::integer{7});
  ASSERT_TRUE(order.lines);
  ASSERT_EQ(order.lines->size(), 2u);
  EXPECT_EQ((*order.lines)[0].sku, "A-1");
  EXPECT_EQ((*order.lines)[0].quantity, lather::xsd::integer{3});
  EXPECT_FALSE((*order.lines)[1].quantity);
  EXPECT_EQ(order.tags, (std::vector<std::string>{"rush", "<gift>"}));
  ordersgen::countLines count;
  count.orders = {order, ordersgen::Order{}, order};  // the middle one without lines (nil)
  EXPECT_EQ(orders.countLines(count).return_, lather::xsd::integer{4});
}

TEST(WsdlGeneratedService, EncodedAnyTypeAndTwoDimensionalArraysRoundTrip) {
  // SOAPBuilders round 2 group B's constructs: an xsd:anyType part and member keep the value's
  // xsi:type; a T[,] array keeps its dimensions (SOAP-ENC:arrayType="xsd:string[2,3]").
  orders_impl impl;
  lather::service svc{"Orders", "urn:orders"};
  impl.mount_on(svc);
  lather_test::local_server server("/orders", svc);
  lather::client c{server.url("/orders")};
  ordersgen::OrdersPortTypeClient orders{c};
  ordersgen::annotate a;
  a.value.xml =
      R"(<v xmlns:xsd="http://www.w3.org/2001/XMLSchema" )"
      R"(xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xsd:int">42</v>)";
  a.grid.dims = {2, 3};
  a.grid.items = {"a", "b", "c", "d", "e", "<f>"};
  ordersgen::Note note = orders.annotate(a).return_;
  EXPECT_EQ(note.grid, a.grid);
  EXPECT_NE(note.value.xml.find(":type=\"xsd:int\">42</value>"), std::string::npos)
      << note.value.xml;
  ordersgen::annotate empty;  // no value: an empty accessor; an empty grid
  ordersgen::Note none = orders.annotate(empty).return_;
  EXPECT_TRUE(none.grid.items.empty());
  EXPECT_EQ(none.value.xml.find(">"), none.value.xml.size() - 1) << none.value.xml;
}

class ping_impl : public bodiesgen::PingPortTypeService {
 public:
  void ping(const bodiesgen::ping& in, bodiesgen::pingResponse& out) override {
    out.echo = in.text;
  }
  void spell(const bodiesgen::count& in, bodiesgen::word& out) override {
    out.value = std::string(static_cast<std::size_t>(in.value), '*');
  }
};

/// {namespace}local of the first child of the Body of `envelope`.
std::string body_element(const std::string& envelope) {
  lather::xml::reader r;
  r.reset(envelope);
  int depth = 0;
  for (lather::xml::token t = r.next(); t != lather::xml::token::end_document; t = r.next()) {
    if (t == lather::xml::token::start_element && ++depth == 3)
      return "{" + std::string(r.ns()) + "}" + std::string(r.local_name());
    if (t == lather::xml::token::end_element) --depth;
  }
  return "";
}

TEST(WsdlGeneratedService, ResponseElementInAnotherNamespaceThanTheRequest) {
  // SOAPBuilders round 4 group I's echoVoidSoapHeader: request {urn:ping}ping, response
  // {urn:ping/}pingResponse; the service answers in the response's namespace and says so in
  // its WSDL.
  ping_impl impl;
  lather::service svc{"Ping", "urn:ping/"};
  impl.mount_on(svc);
  lather_test::local_server server("/ping", svc);
  lather::client c{server.url("/ping")};
  std::string seen;
  lather::client_interceptor keep;
  keep.whole_response = [&](std::string_view, std::string_view envelope,
                            const lather::part_source&) { seen = envelope; };
  c.intercept(std::move(keep));
  bodiesgen::PingPortTypeClient ping{c};
  bodiesgen::ping in;
  in.text = "hello";
  EXPECT_EQ(ping.ping(in).echo, "hello");
  EXPECT_EQ(body_element(seen), "{urn:ping/}pingResponse") << seen;
  const std::string wsdl = lather::generate_wsdl(svc, server.url("/ping"));
  EXPECT_NE(wsdl.find(R"(targetNamespace="urn:ping/" elementFormDefault="qualified">)"
                      R"(<xsd:element name="pingResponse">)"),
            std::string::npos)
      << wsdl;
  EXPECT_NE(wsdl.find(R"(<wsdl:part name="parameters" element="tns:pingResponse"/>)"),
            std::string::npos)
      << wsdl;
  // The wrapper's fields come from its table (bind::describe), as a meta<T> would give them.
  const std::size_t echo = wsdl.find(R"(name="echo")");
  ASSERT_NE(echo, std::string::npos) << wsdl;
  EXPECT_NE(wsdl.substr(echo, 80).find(R"(type="xsd:string")"), std::string::npos) << wsdl;
}

TEST(WsdlGeneratedService, SimpleTypeBodyElementsAreMessages) {
  // CXF swa-mime's echoData: body elements of a simple type, each a struct holding its text.
  ping_impl impl;
  lather::service svc{"Ping", "urn:ping/"};
  impl.mount_on(svc);
  lather_test::local_server server("/ping", svc);
  lather::client c{server.url("/ping")};
  std::string seen;
  lather::client_interceptor keep;
  keep.whole_response = [&](std::string_view, std::string_view envelope,
                            const lather::part_source&) { seen = envelope; };
  c.intercept(std::move(keep));
  bodiesgen::PingPortTypeClient ping{c};
  bodiesgen::count n;
  n.value = 3;
  EXPECT_EQ(ping.spell(n).value, "***");
  EXPECT_EQ(body_element(seen), "{urn:ping}word") << seen;
  EXPECT_NE(seen.find(">***</"), std::string::npos) << seen;
}

}  // namespace

// The client proxy and service class lather-wsdl2cpp generates for perf.wsdl's DocPortType
// talk to lather's hand-written perf service and to each other over loopback HTTP; so do those
// of an rpc/encoded contract (data/encoded.wsdl).
#include <gtest/gtest.h>

#include <utility>

#include "../support/perfgen_request.hpp"
#include "lather/perf/echo_service.hpp"
#include "lather/service/client.hpp"
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

}  // namespace

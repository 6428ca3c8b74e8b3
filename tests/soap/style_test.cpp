// The four binding styles round-trip through the public API in both SOAP versions, with
// structs bound by lather::meta (bind) and, for rpc/encoded, the same meta types encoded.
#include "lather/soap/style.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "lather/bind/bind.hpp"
#include "lather/soap/encoded.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace soap = lather::soap;
namespace xml = lather::xml;
namespace bind = lather::bind;

namespace shop {
inline constexpr std::string_view ns = "urn:shop";
struct Item {
  std::string name;
  std::int32_t qty = 0;
  friend bool operator==(const Item&, const Item&) = default;
};
struct placeOrder {
  std::vector<Item> items;
  std::string customer;
  friend bool operator==(const placeOrder&, const placeOrder&) = default;
};
}  // namespace shop

template <>
struct lather::meta<shop::Item> {
  static constexpr std::string_view name = "Item";
  static constexpr std::string_view ns = shop::ns;
  static constexpr auto fields =
      std::tuple{element("name", &shop::Item::name), element("qty", &shop::Item::qty)};
};
template <>
struct lather::meta<shop::placeOrder> {
  static constexpr std::string_view name = "placeOrder";
  static constexpr std::string_view ns = shop::ns;
  static constexpr auto fields = std::tuple{element("item", &shop::placeOrder::items),
                                            element("customer", &shop::placeOrder::customer)};
};

namespace {

const shop::placeOrder order{{{"apple", 3}, {"pear & plum", 1}}, "Zoë"};

std::string message(soap::version v, bool encoded, const std::function<void(xml::writer&)>& body) {
  xml::output out;
  xml::writer w{out};
  soap::envelope_writer env{w, v};
  env.begin({.encoded = encoded, .namespaces = {}});
  env.begin_body();
  body(w);
  env.end();
  return std::string{out.view()};
}

/// Open the envelope and hand the reader (on the first body child) to `read`.
void receive(const std::string& doc, soap::version v,
             const std::function<void(xml::reader&, soap::envelope_reader&)>& read) {
  xml::reader r;
  r.reset(doc);
  soap::envelope_reader env{r};
  env.begin();
  EXPECT_EQ(env.ver(), v);
  ASSERT_TRUE(env.at_body_element()) << doc;
  read(r, env);
}

class SoapStyles : public ::testing::TestWithParam<soap::version> {};

}  // namespace

TEST_P(SoapStyles, DocumentLiteralWrapped) {
  const soap::version v = GetParam();
  const std::string doc =
      message(v, false, [](xml::writer& w) { bind::write(w, shop::ns, "placeOrder", order); });
  receive(doc, v, [&](xml::reader& r, soap::envelope_reader& env) {
    soap::expect_element(r, shop::ns, "placeOrder");
    shop::placeOrder got;
    ASSERT_FALSE(bind::read(r, got)) << doc;
    EXPECT_EQ(got, order);
    EXPECT_FALSE(env.next_body_element());
    env.finish();
  });
}

TEST_P(SoapStyles, DocumentLiteralBare) {
  const soap::version v = GetParam();
  const std::string doc = message(v, false, [](xml::writer& w) {
    bind::write(w, shop::ns, "Item", order.items[0]);
    bind::write(w, shop::ns, "Item", order.items[1]);
  });
  receive(doc, v, [&](xml::reader& r, soap::envelope_reader& env) {
    std::vector<shop::Item> parts;
    do {
      soap::expect_element(r, shop::ns, "Item");
      ASSERT_FALSE(bind::read(r, parts.emplace_back()));
    } while (env.next_body_element());
    env.finish();
    EXPECT_EQ(parts, order.items);
  });
}

TEST_P(SoapStyles, RpcLiteral) {
  const soap::version v = GetParam();
  const std::string doc = message(v, false, [v](xml::writer& w) {
    soap::write_rpc_start(w, v, soap::style::rpc_literal, "urn:shop:binding", "placeOrder");
    bind::write(w, "", "order", order);  // parts are unqualified, named after the part
    bind::write(w, "", "priority", std::int32_t{7});
    w.end_element();
  });
  EXPECT_EQ(doc.find("encodingStyle"), std::string::npos);
  receive(doc, v, [&](xml::reader& r, soap::envelope_reader& env) {
    soap::expect_element(r, "urn:shop:binding", "placeOrder");
    shop::placeOrder got;
    std::int32_t priority = 0;
    soap::rpc_reader parts{r};
    while (parts.next()) {
      if (parts.name() == "order") {
        ASSERT_FALSE(bind::read(r, got));
      } else if (parts.name() == "priority") {
        ASSERT_FALSE(bind::read(r, priority));
      } else {
        r.skip_element();
      }
    }
    EXPECT_EQ(got, order);
    EXPECT_EQ(priority, 7);
    EXPECT_FALSE(env.next_body_element());
    env.finish();
  });
  EXPECT_EQ(soap::response_name("placeOrder"), "placeOrderResponse");
}

TEST_P(SoapStyles, RpcEncodedWithMetaTypes) {
  const soap::version v = GetParam();
  const std::string doc = message(v, true, [v](xml::writer& w) {
    soap::encoder enc{w};
    enc.count(order);
    soap::write_rpc_start(w, v, soap::style::rpc_encoded, "urn:shop:binding", "placeOrderResponse");
    enc.write("", "return", order);
    w.end_element();
    enc.write_independents();
  });
  EXPECT_NE(doc.find("xsi:type=\"xsd:int\""), std::string::npos) << doc;
  EXPECT_NE(doc.find("Item[2]"), std::string::npos) << doc;
  receive(doc, v, [&](xml::reader& r, soap::envelope_reader& env) {
    soap::expect_element(r, "urn:shop:binding", "placeOrderResponse");
    soap::decoder dec{r, env.body_namespaces()};
    shop::placeOrder got;
    soap::rpc_reader parts{r};
    while (parts.next()) dec.read(got);
    dec.read_trailing(env);
    env.finish();
    EXPECT_EQ(got, order);
  });
}

TEST(SoapStyle, WrongOperationElementIsASenderFault) {
  const std::string doc = message(soap::version::soap11, false, [](xml::writer& w) {
    w.start_element("urn:other", "op");
    w.end_element();
  });
  receive(doc, soap::version::soap11, [](xml::reader& r, soap::envelope_reader&) {
    try {
      soap::expect_element(r, shop::ns, "placeOrder");
      FAIL();
    } catch (const soap::fault_error& e) {
      EXPECT_EQ(e.get().code, soap::fault_code::sender);
      EXPECT_NE(e.get().reason.find("{urn:other}op"), std::string::npos);
    }
  });
}

TEST(SoapStyle, EncodingStyleCheck) {
  const std::string doc =
      R"(<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body>)"
      R"(<a:op xmlns:a="urn:a" e:encodingStyle="urn:my-own-encoding"/>)"
      R"(<a:ok xmlns:a="urn:a" e:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/>)"
      R"(</e:Body></e:Envelope>)";
  receive(doc, soap::version::soap12, [](xml::reader& r, soap::envelope_reader& env) {
    try {
      soap::check_encoding_style(r, env.ver(), env.encoding_style());
      FAIL();
    } catch (const soap::fault_error& e) {
      EXPECT_EQ(e.get().code, soap::fault_code::data_encoding_unknown);
    }
    ASSERT_TRUE(env.skip_body_element());
    EXPECT_NO_THROW(soap::check_encoding_style(r, env.ver(), env.encoding_style()));
    // Inherited from the Envelope (SOAP::Lite) when the element has none.
    EXPECT_NO_THROW(soap::check_encoding_style(r, env.ver(), soap::soap11_encoding_ns));
    // SOAP 1.2 encoding (enc:id / enc:ref graphs, enc:arraySize) is decoded as well.
    EXPECT_NO_THROW(soap::check_encoding_style(r, env.ver(), soap::soap12_encoding_ns));
  });
}

INSTANTIATE_TEST_SUITE_P(BothVersions, SoapStyles,
                         ::testing::Values(soap::version::soap11, soap::version::soap12));

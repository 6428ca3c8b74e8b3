// write(): the same text as format(), as element content through the XML writer.
#include <random>

#include "lather/bind/bind.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"
#include "xsd_test_util.hpp"

namespace lather::bind {
namespace {

/// <v>...</v> holding value written by xsd_traits<T>::write.
template <class T>
std::string element_with(const T& value) {
  xml::output out;
  xml::writer w{out};
  w.start_element("", "v");
  xsd_traits<T>::write(value, w);
  w.end_document();
  return out.take();
}

template <class T>
void expect_write_matches_format(const T& value) {
  EXPECT_EQ(element_with(value), "<v>" + test::format(value) + "</v>");
}

TEST(XsdWrite, MatchesFormatForEveryType) {
  expect_write_matches_format(true);
  expect_write_matches_format(std::int8_t{-128});
  expect_write_matches_format(std::uint64_t{18446744073709551615u});
  expect_write_matches_format(-0.0);
  expect_write_matches_format(3.4028235e38f);
  expect_write_matches_format(std::numeric_limits<double>::infinity());
  expect_write_matches_format(test::parse_ok<xsd::decimal>("-12345678901234567890123456789.5"));
  expect_write_matches_format(test::parse_ok<xsd::integer>("123456789012345678901234567890"));
  expect_write_matches_format(test::parse_ok<xsd::date_time>("2024-02-29T12:34:56.789+05:30"));
  expect_write_matches_format(test::parse_ok<xsd::date>("-0044-03-15"));
  expect_write_matches_format(test::parse_ok<xsd::time>("13:20:00.5Z"));
  expect_write_matches_format(test::parse_ok<xsd::duration>("-P1Y2M3DT4H5M6.7S"));
  expect_write_matches_format(xsd::hex_binary{{0x0F, 0xA1}});
  expect_write_matches_format(xsd::base64_binary{{'f', 'o', 'o', 'b'}});
  expect_write_matches_format(xsd::list<int>{{1, 2, 3}});
  expect_write_matches_format(xsd::token{"a b"});
  EXPECT_EQ(element_with(std::string("a<b&c")), "<v>a&lt;b&amp;c</v>");
  EXPECT_EQ(element_with(xsd::base64_binary{}), "<v></v>");
}

// write_leaf(): the element {ns}v that start_element + write() + end_element() would write,
// whichever way it goes (formatted in place, text_element, or in slices for long binaries).
template <class T>
void expect_leaf_matches_write(const T& value) {
  const std::string element = element_with(value);
  EXPECT_EQ("<v>" + test::leaf_text(value) + "</v>", element == "<v/>" ? "<v></v>" : element);
}

TEST(XsdWrite, WriteLeafMatchesWrite) {
  expect_leaf_matches_write(true);
  expect_leaf_matches_write(std::int8_t{-128});
  expect_leaf_matches_write(std::uint64_t{18446744073709551615u});
  expect_leaf_matches_write(-0.0);
  expect_leaf_matches_write(-3.4028235e38f);
  expect_leaf_matches_write(-1.7976931348623157e308);
  expect_leaf_matches_write(std::numeric_limits<double>::quiet_NaN());
  expect_leaf_matches_write(test::parse_ok<xsd::decimal>("-12345678901234567890123456789.5"));
  expect_leaf_matches_write(test::parse_ok<xsd::integer>("123456789012345678901234567890"));
  expect_leaf_matches_write(test::parse_ok<xsd::date_time>("2024-02-29T12:34:56.789+05:30"));
  expect_leaf_matches_write(test::parse_ok<xsd::date_time>("-2147483648-12-31T23:59:59-14:00"));
  expect_leaf_matches_write(
      test::parse_ok<xsd::date_time>("2024-01-01T00:00:00." + std::string(200, '9') + "Z"));
  xsd::date_time odd = test::parse_ok<xsd::date_time>("2024-01-01T00:00:00Z");
  odd.fraction = "1<2";  // set by the caller, not parsed: escaped, never raw
  expect_leaf_matches_write(odd);
  EXPECT_EQ(test::leaf_text(odd), "2024-01-01T00:00:00.1&lt;2Z");
  expect_leaf_matches_write(test::parse_ok<xsd::date>("-0044-03-15"));
  expect_leaf_matches_write(test::parse_ok<xsd::time>("13:20:00.5Z"));
  expect_leaf_matches_write(test::parse_ok<xsd::duration>("-P1Y2M3DT4H5M6.7S"));
  expect_leaf_matches_write(xsd::token{"a b"});
  expect_leaf_matches_write(std::string("a<b&c"));
  expect_leaf_matches_write(std::string());
  std::mt19937_64 rng(7);
  for (std::size_t size : {0, 1, 2, 3, 4, 255, 256, 2047, 2048, 2049, 3071, 3072, 3073, 9000}) {
    xsd::base64_binary b64;
    xsd::hex_binary hex;
    for (std::size_t i = 0; i < size; ++i) {
      b64.bytes.push_back(static_cast<std::uint8_t>(rng()));
      hex.bytes.push_back(static_cast<std::uint8_t>(rng()));
    }
    expect_leaf_matches_write(b64);
    expect_leaf_matches_write(hex);
  }
}

TEST(XsdWrite, LongBinaryStreamsInSlices) {
  std::mt19937_64 rng(1);
  xsd::base64_binary b64;
  xsd::hex_binary hex;
  for (int i = 0; i < 100000; ++i) {
    b64.bytes.push_back(static_cast<std::uint8_t>(rng()));
    hex.bytes.push_back(static_cast<std::uint8_t>(rng()));
  }
  expect_write_matches_format(b64);
  expect_write_matches_format(hex);
  // With a sink the bytes leave while the element is still being written.
  xml::output out;
  std::size_t handed_out_before_end = 0;
  bool in_element = true;
  out.set_sink(
      [&](std::string_view bytes) {
        if (in_element) handed_out_before_end += bytes.size();
      },
      16384);
  xml::writer w{out};
  w.start_element("", "v");
  xsd_traits<xsd::base64_binary>::write(b64, w);
  EXPECT_GT(handed_out_before_end, 100000u);
  in_element = false;
  w.end_document();
}

TEST(XsdWrite, QNameDeclaresItsPrefix) {
  xml::output out;
  xml::writer w{out};
  w.start_element("", "v");
  xsd_traits<xsd::qname>::write(xsd::qname{"urn:x", "local", "ignored"}, w);
  w.end_document();
  const std::string text = out.take();
  // <v xmlns:P="urn:x">P:local</v> with whichever prefix the writer picked.
  const auto decl = text.find("xmlns:");
  ASSERT_NE(decl, std::string::npos) << text;
  const auto eq = text.find('=', decl);
  const std::string prefix = text.substr(decl + 6, eq - decl - 6);
  EXPECT_NE(text.find("=\"urn:x\">" + prefix + ":local</v>"), std::string::npos) << text;
}

// A QName field whose namespace is already in scope goes out as a leaf with that prefix; one
// whose namespace is not (or is pending a rebinding) still declares it on its own element.
struct qname_holder {
  xsd::qname a;
  xsd::qname b;
};

}  // namespace
}  // namespace lather::bind

template <>
struct lather::meta<lather::bind::qname_holder> {
  static constexpr std::string_view name = "holder";
  static constexpr std::string_view ns = "urn:h";
  static constexpr auto fields = std::tuple{element("a", &lather::bind::qname_holder::a),
                                            element("b", &lather::bind::qname_holder::b)};
};

namespace lather::bind {
namespace {

TEST(XsdWrite, QNameInScopeIsWrittenAsALeafWithThatPrefix) {
  xml::output out;
  xml::writer w{out};
  w.declare_namespace("x", "urn:x");
  w.start_element("", "env");
  const qname_holder v{{"urn:x", "one", ""}, {"urn:y", "t&o", ""}};
  write(w, "urn:h", "holder", v);
  w.end_document();
  EXPECT_EQ(out.take(), R"(<env xmlns:x="urn:x"><ns1:holder xmlns:ns1="urn:h"><ns1:a>x:one</ns1:a>)"
                        R"(<ns1:b xmlns:ns2="urn:y">ns2:t&amp;o</ns1:b></ns1:holder></env>)");

  // Read back: both values resolve to their namespaces.
  xml::writer w2{out};
  w2.declare_namespace("x", "urn:x");
  w2.start_element("", "env");
  const qname_holder plain{{"urn:x", "one", ""}, {"urn:x", "two", ""}};
  write(w2, "urn:h", "holder", plain);
  w2.end_document();
  const std::string doc = out.take();
  EXPECT_EQ(doc.find("xmlns:ns2"), std::string::npos) << doc;
  xml::reader r;
  r.reset(doc);
  ASSERT_EQ(r.next(), xml::token::start_element);
  ASSERT_EQ(r.next(), xml::token::start_element);
  qname_holder back;
  ASSERT_FALSE(read(r, back)) << doc;
  EXPECT_EQ(back.a.ns, "urn:x");
  EXPECT_EQ(back.a.local, "one");
  EXPECT_EQ(back.b.ns, "urn:x");
  EXPECT_EQ(back.b.local, "two");
}

}  // namespace
}  // namespace lather::bind

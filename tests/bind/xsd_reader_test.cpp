// Values read through the XML reader: QName prefixes resolve against the in-scope namespaces.
#include <vector>

#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"
#include "xsd_test_util.hpp"

namespace lather::bind {
namespace {

/// Parse every text token of `doc` as a QName; one result per text token.
std::vector<std::pair<errc, xsd::qname>> qnames_in(std::string_view doc) {
  std::vector<std::pair<errc, xsd::qname>> out;
  xml::reader r;
  r.reset(doc);
  for (auto t = r.next(); t != xml::token::end_document; t = r.next()) {
    EXPECT_NE(t, xml::token::error) << r.error().message();
    if (t == xml::token::error) break;
    if (t != xml::token::text) continue;
    xsd::qname q;
    const errc e = xsd_traits<xsd::qname>::parse(r.text(), q, r);
    out.emplace_back(e, q);
  }
  return out;
}

TEST(XsdReader, QNameResolvesInScopePrefixes) {
  const auto got = qnames_in(
      "<a xmlns:p='urn:p' xmlns='urn:d'><b>p:x</b><c> y </c><d>q:z</d>"
      "<e xmlns:p='urn:inner'>p:w</e><f xmlns=''>v</f></a>");
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[0].first, errc::ok);
  EXPECT_EQ(got[0].second, (xsd::qname{"urn:p", "x", "p"}));
  EXPECT_EQ(got[1].first, errc::ok);
  EXPECT_EQ(got[1].second, (xsd::qname{"urn:d", "y", ""}));
  EXPECT_EQ(got[2].first, errc::undeclared_prefix);
  EXPECT_EQ(got[3].second, (xsd::qname{"urn:inner", "w", "p"}));
  EXPECT_EQ(got[4].first, errc::ok);
  EXPECT_EQ(got[4].second.ns, "");
}

TEST(XsdReader, QNameWriteThenReadIsTheSameExpandedName) {
  xml::output out;
  xml::writer w{out};
  w.start_element("urn:root", "root");
  w.start_element("", "v");
  const xsd::qname original{"urn:value", "local", ""};
  xsd_traits<xsd::qname>::write(original, w);
  w.end_document();
  const std::string doc = out.take();
  const auto got = qnames_in(doc);
  ASSERT_EQ(got.size(), 1u) << doc;
  EXPECT_EQ(got[0].first, errc::ok);
  EXPECT_EQ(got[0].second, original) << doc;
}

TEST(XsdReader, ListOfQNames) {
  xml::reader r;
  r.reset("<a xmlns:p='urn:p'>p:x  p:y</a>");
  ASSERT_EQ(r.next(), xml::token::start_element);
  ASSERT_EQ(r.next(), xml::token::text);
  xsd::list<xsd::qname> names;
  ASSERT_EQ(xsd_traits<xsd::list<xsd::qname>>::parse(r.text(), names, r), errc::ok);
  ASSERT_EQ(names.items.size(), 2u);
  EXPECT_EQ(names.items[1], (xsd::qname{"urn:p", "y", "p"}));
}

}  // namespace
}  // namespace lather::bind

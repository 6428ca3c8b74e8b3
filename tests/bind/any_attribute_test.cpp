// xsd:anyAttribute (lather::bind::any_attributes): the attributes a type does not declare, kept
// by name and value and written back after the declared ones. Each struct is a template over
// K: K = 0 binds through meta<T>'s fields, K = 1 through a table as lather-wsdl2cpp writes one;
// both must read the same values and write the same bytes.
#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "../support/alloc_counter.hpp"
#include "bind_test_util.hpp"
#include "lather/bind.hpp"

namespace aa {

inline constexpr std::string_view ns = "urn:aa";
inline constexpr std::string_view xml_ns = "http://www.w3.org/XML/1998/namespace";

template <int K>
struct item {
  std::string id;                      // attribute
  std::optional<std::int32_t> n;       // attribute
  lather::bind::any_attributes other;  // any namespace
  std::string name;                    // element
  friend bool operator==(const item&, const item&) = default;
};
template <int K>
struct narrow {  // ##other
  lather::bind::any_attributes other;
  std::string v;
};
template <int K>
struct listed {  // a list: a URI, ##local and ##targetNamespace
  lather::bind::any_attributes other;
};
template <int K>
struct price {  // simple content
  double value{};
  std::string currency;
  lather::bind::any_attributes other;
};
template <int K>
struct holder {
  std::vector<item<K>> item_;
};
struct plain {  // no wildcard: undeclared attributes are ignored
  std::string id;
  std::string name;
};
struct base {  // meta<T> only: a derived type's attributes come before the base's wildcard's
  lather::bind::any_attributes other;
  std::string a;
};
struct derived : base {
  std::string b;
};
struct open {  // xsd:any with a constraint, for its description
  std::vector<lather::bind::any_element> other;
  std::optional<lather::bind::any_element> listed;
};

}  // namespace aa

template <int K>
struct lather::meta<aa::item<K>> {
  using T = aa::item<K>;
  static constexpr std::string_view name = "item";
  static constexpr std::string_view ns = aa::ns;
  static constexpr auto fields =
      lather::fields(attribute("id", &T::id), attribute("n", &T::n), any_attribute(&T::other),
                     element("name", &T::name));
};
template <int K>
struct lather::meta<aa::narrow<K>> {
  using T = aa::narrow<K>;
  static constexpr std::string_view name = "narrow";
  static constexpr std::string_view ns = aa::ns;
  static constexpr auto fields =
      lather::fields(any_attribute(&T::other).namespaces("##other"), element("v", &T::v));
};
template <int K>
struct lather::meta<aa::listed<K>> {
  using T = aa::listed<K>;
  static constexpr std::string_view name = "listed";
  static constexpr std::string_view ns = aa::ns;
  static constexpr auto fields =
      lather::fields(any_attribute(&T::other).namespaces("urn:x ##local ##targetNamespace"));
};
template <int K>
struct lather::meta<aa::price<K>> {
  using T = aa::price<K>;
  static constexpr std::string_view name = "price";
  static constexpr std::string_view ns = aa::ns;
  static constexpr auto fields = lather::fields(
      text(&T::value), attribute("currency", &T::currency), any_attribute(&T::other));
};
template <int K>
struct lather::meta<aa::holder<K>> {
  using T = aa::holder<K>;
  static constexpr std::string_view name = "holder";
  static constexpr std::string_view ns = aa::ns;
  static constexpr auto fields = lather::fields(element("item", &T::item_));
};
template <>
struct lather::meta<aa::plain> {
  static constexpr std::string_view name = "plain";
  static constexpr std::string_view ns = aa::ns;
  static constexpr auto fields =
      lather::fields(attribute("id", &aa::plain::id), element("name", &aa::plain::name));
};
template <>
struct lather::meta<aa::base> {
  static constexpr std::string_view name = "base";
  static constexpr std::string_view ns = aa::ns;
  static constexpr auto fields =
      lather::fields(any_attribute(&aa::base::other), attribute("a", &aa::base::a));
};
template <>
struct lather::meta<aa::derived> {
  using base = aa::base;
  static constexpr std::string_view name = "derived";
  static constexpr std::string_view ns = aa::ns;
  static constexpr auto fields = lather::fields(attribute("b", &aa::derived::b));
};
template <>
struct lather::meta<aa::open> {
  static constexpr std::string_view name = "open";
  static constexpr std::string_view ns = aa::ns;
  static constexpr auto fields = lather::fields(any(&aa::open::other).namespaces("##other"),
                                                any(&aa::open::listed).namespaces("urn:x ##local"));
};

LATHER_BIND_TABLE(aa::item<1>);
LATHER_BIND_TABLE(aa::narrow<1>);
LATHER_BIND_TABLE(aa::listed<1>);
LATHER_BIND_TABLE(aa::price<1>);
LATHER_BIND_TABLE(aa::holder<1>);

#pragma GCC diagnostic ignored "-Winvalid-offsetof"
namespace {
LATHER_BIND_TABLE_FILE();
using I = aa::item<1>;
using N = aa::narrow<1>;
using L = aa::listed<1>;
using P = aa::price<1>;
using H = aa::holder<1>;
constexpr auto item_fields =
    fields(aa::ns, attribute<std::string>(aa::ns, "id", offsetof(I, id)),
           attribute<std::optional<std::int32_t>>(aa::ns, "n", offsetof(I, n)),
           any_attribute(aa::ns, offsetof(I, other)),
           element<std::string>(aa::ns, "name", offsetof(I, name)));
constexpr auto narrow_fields =
    fields(aa::ns, any_attribute(aa::ns, offsetof(N, other)).namespaces("##other"),
           element<std::string>(aa::ns, "v", offsetof(N, v)));
constexpr auto listed_fields =
    fields(aa::ns,
           any_attribute(aa::ns, offsetof(L, other)).namespaces("urn:x ##local ##targetNamespace"));
constexpr auto price_fields =
    fields(aa::ns, text<double>(aa::ns, offsetof(P, value)),
           attribute<std::string>(aa::ns, "currency", offsetof(P, currency)),
           any_attribute(aa::ns, offsetof(P, other)));
constexpr auto holder_fields =
    fields(aa::ns, element<std::vector<I>>(aa::ns, "item", offsetof(H, item_)));
}  // namespace
LATHER_BIND_TABLE_DEFINE(item_fields, aa::item<1>)
LATHER_BIND_TABLE_DEFINE(narrow_fields, aa::narrow<1>)
LATHER_BIND_TABLE_DEFINE(listed_fields, aa::listed<1>)
LATHER_BIND_TABLE_DEFINE(price_fields, aa::price<1>)
LATHER_BIND_TABLE_DEFINE(holder_fields, aa::holder<1>)

namespace lather::bind::test {
namespace {

using attrs = std::vector<wildcard_attribute>;

const std::string item_doc =
    R"(<a:item xmlns:a="urn:aa" xmlns:x="urn:x" xmlns:y="urn:y" )"
    R"(xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="7" )"
    R"(x:colour="red &amp; &lt;blue&gt; &quot;q&quot;" plain="p" a:n="qualified" n="3" )"
    R"(y:size="L" xml:lang="en" xsi:schemaLocation="urn:aa a.xsd"><a:name>nm</a:name></a:item>)";

const attrs item_other = {{"urn:x", "colour", "red & <blue> \"q\""},
                          {"", "plain", "p"},
                          {"urn:aa", "n", "qualified"},  // not the declared (unqualified) n
                          {"urn:y", "size", "L"},
                          {std::string(aa::xml_ns), "lang", "en"}};

template <int K>
void reads_and_writes_back() {
  aa::item<K> v;
  ASSERT_FALSE(from_xml(item_doc, v));
  EXPECT_EQ(v.id, "7");
  EXPECT_EQ(v.n, 3);
  EXPECT_EQ(v.name, "nm");
  // In document order; no namespace declaration, no xsi attribute, no declared attribute.
  EXPECT_EQ(v.other.items, item_other);
  ASSERT_NE(v.other.find("urn:y", "size"), nullptr);
  EXPECT_EQ(*v.other.find("urn:y", "size"), "L");
  EXPECT_EQ(v.other.find("", "size"), nullptr);

  const std::string xml = to_xml(aa::ns, "item", v);
  // After the declared attributes, each namespace declared, the values escaped, xml:lang as is.
  EXPECT_LT(xml.find(R"( n="3")"), xml.find("colour=")) << xml;
  EXPECT_NE(xml.find(R"(colour="red &amp; &lt;blue> &quot;q&quot;")"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"( plain="p")"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"( xml:lang="en")"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"(="urn:y")"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("schemaLocation"), std::string::npos) << xml;
  aa::item<K> back;
  ASSERT_FALSE(from_xml(xml, back)) << xml;
  EXPECT_EQ(back, v) << xml;
}

TEST(AnyAttribute, ReadsAndWritesBack) {
  reads_and_writes_back<0>();
}
TEST(AnyAttribute, ReadsAndWritesBackThroughATable) {
  reads_and_writes_back<1>();
}

TEST(AnyAttribute, TableAndTemplateWriteTheSameBytes) {
  aa::item<0> a;
  aa::item<1> b;
  ASSERT_FALSE(from_xml(item_doc, a));
  ASSERT_FALSE(from_xml(item_doc, b));
  EXPECT_EQ(to_xml(aa::ns, "item", a), to_xml(aa::ns, "item", b));
  // Set by hand: an attribute in no namespace unprefixed, a namespace given a prefix.
  a.other.clear();
  a.other.set("urn:new", "k", "v\t1");
  a.other.set("", "free", "<&>");
  a.other.set("urn:new", "k", "v\t2");  // replaced
  b.other = a.other;
  const std::string xml = to_xml(aa::ns, "item", a);
  EXPECT_EQ(xml, to_xml(aa::ns, "item", b));
  EXPECT_NE(xml.find(R"(:k="v&#9;2")"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"( free="&lt;&amp;>")"), std::string::npos) << xml;
  aa::item<0> back;
  ASSERT_FALSE(from_xml(xml, back)) << xml;
  EXPECT_EQ(back.other.items, (attrs{{"urn:new", "k", "v\t2"}, {"", "free", "<&>"}}));
  EXPECT_TRUE(back.other.erase("urn:new", "k"));
  EXPECT_FALSE(back.other.erase("urn:new", "k"));
  EXPECT_EQ(back.other.size(), 1u);
}

template <int K>
void constraint_filters() {
  const std::string head =
      R"(xmlns:a="urn:aa" xmlns:x="urn:x" xmlns:y="urn:y" x:c="1" plain="2" a:t="3" y:d="4")";
  aa::narrow<K> n;
  ASSERT_FALSE(from_xml("<a:narrow " + head + "><a:v>v</a:v></a:narrow>", n));
  EXPECT_EQ(n.other.items, (attrs{{"urn:x", "c", "1"}, {"urn:y", "d", "4"}}));  // ##other
  aa::listed<K> l;
  ASSERT_FALSE(from_xml("<a:listed " + head + "/>", l));
  EXPECT_EQ(l.other.items, (attrs{{"urn:x", "c", "1"}, {"", "plain", "2"}, {"urn:aa", "t", "3"}}));
  // What the constraint leaves out is ignored, as an undeclared attribute is without one.
  aa::narrow<K> none;
  ASSERT_FALSE(
      from_xml(R"(<a:narrow xmlns:a="urn:aa" a:t="3" p="4"><a:v>v</a:v></a:narrow>)", none));
  EXPECT_TRUE(none.other.empty());
}

TEST(AnyAttribute, TheConstraintFilters) {
  constraint_filters<0>();
}
TEST(AnyAttribute, TheConstraintFiltersThroughATable) {
  constraint_filters<1>();
}

template <int K>
void simple_content() {
  aa::price<K> p;
  ASSERT_FALSE(from_xml(R"(<a:price xmlns:a="urn:aa" xmlns:x="urn:x" currency="EUR" x:rate="1.1">)"
                        "2.5</a:price>",
                        p));
  EXPECT_EQ(p.value, 2.5);
  EXPECT_EQ(p.currency, "EUR");
  EXPECT_EQ(p.other.items, (attrs{{"urn:x", "rate", "1.1"}}));
  const std::string xml = to_xml(aa::ns, "price", p);
  aa::price<K> back;
  ASSERT_FALSE(from_xml(xml, back)) << xml;
  EXPECT_EQ(back.other, p.other) << xml;
  EXPECT_EQ(back.value, 2.5);
}

TEST(AnyAttribute, SimpleContent) {
  simple_content<0>();
}
TEST(AnyAttribute, SimpleContentThroughATable) {
  simple_content<1>();
}

// A type without a wildcard reads an element with undeclared attributes as before: ignored,
// not an error (the strict reader fails on undeclared elements only).
TEST(AnyAttribute, WithoutAWildcardUndeclaredAttributesAreIgnored) {
  aa::plain v;
  ASSERT_FALSE(from_xml(R"(<a:plain xmlns:a="urn:aa" xmlns:x="urn:x" id="1" x:c="2" d="3">)"
                        "<a:name>n</a:name></a:plain>",
                        v));
  EXPECT_EQ(v.id, "1");
  const std::string xml = to_xml(aa::ns, "plain", v);
  EXPECT_EQ(xml.find("urn:x"), std::string::npos) << xml;
  EXPECT_EQ(xml.find(" d="), std::string::npos) << xml;
  EXPECT_EQ(
      from_xml(R"(<a:plain xmlns:a="urn:aa" id="1"><a:name>n</a:name><a:z/></a:plain>)", v).code,
      errc::unexpected_element);
}

TEST(AnyAttribute, ADerivedTypesAttributesComeBeforeTheWildcards) {
  aa::derived d;
  ASSERT_FALSE(from_xml(R"(<a:d xmlns:a="urn:aa" xmlns:x="urn:x" x:w="1" b="B" a="A"/>)", d));
  EXPECT_EQ(d.a, "A");
  EXPECT_EQ(d.b, "B");
  EXPECT_EQ(d.other.items, (attrs{{"urn:x", "w", "1"}}));
  const std::string xml = to_xml(aa::ns, "d", d);
  EXPECT_LT(xml.find(" b="), xml.find(":w=")) << xml;
  EXPECT_LT(xml.find(" a="), xml.find(" b=")) << xml;
}

template <int K>
void reuse_allocates_nothing() {
  const std::string two =
      R"(<a:holder xmlns:a="urn:aa" xmlns:x="urn:x">)"
      R"(<a:item x:first="a value longer than the small string buffer" x:second="another long )"
      R"(value, too"><a:name>n</a:name></a:item>)"
      R"(<a:item x:third="and a third value longer than the buffer"><a:name>m</a:name></a:item>)"
      "</a:holder>";
  aa::holder<K> h;
  ASSERT_FALSE(from_xml(two, h));
  ASSERT_EQ(h.item_.size(), 2u);
  EXPECT_EQ(h.item_[0].other.size(), 2u);
  EXPECT_EQ(h.item_[1].other.size(), 1u);
  xml::reader r;
  std::uint64_t allocations = 0;
  for (int i = 0; i < 2; ++i) {  // the same document again into the same value
    r.reset(two);
    r.next();
    const std::uint64_t before = lather::test::thread_allocations();
    const error_info e = read(r, h);
    allocations = lather::test::thread_allocations() - before;
    ASSERT_FALSE(e) << e.message;
  }
  EXPECT_EQ(allocations, 0u);
  EXPECT_EQ(h.item_[1].other.items,
            (attrs{{"urn:x", "third", "and a third value longer than the buffer"}}));
  // None: nothing kept, nothing allocated, into a new value too.
  const std::string bare = R"(<a:item xmlns:a="urn:aa" id="1"><a:name>n</a:name></a:item>)";
  aa::item<K> fresh;
  r.reset(bare);
  r.next();
  const std::uint64_t before = lather::test::thread_allocations();
  ASSERT_FALSE(read(r, fresh));
  EXPECT_EQ(lather::test::thread_allocations() - before, 0u);
  EXPECT_TRUE(fresh.other.empty());
  // Fewer than last time: the tail goes.
  aa::item<K>& reused = h.item_[0];
  r.reset(bare);
  r.next();
  ASSERT_FALSE(read(r, reused));
  EXPECT_TRUE(reused.other.empty());
}

TEST(AnyAttribute, AReusedValueAllocatesNothing) {
  reuse_allocates_nothing<0>();
}
TEST(AnyAttribute, AReusedValueAllocatesNothingThroughATable) {
  reuse_allocates_nothing<1>();
}

template <int K>
void refuses_to_write_twice() {
  aa::item<K> v;
  v.id = "1";
  v.other.set("", "id", "2");
  try {
    to_xml(aa::ns, "item", v);
    ADD_FAILURE() << "a declared attribute written again";
  } catch (const error& e) {
    EXPECT_EQ(e.info().path, "/item/@id") << e.what();
  }
  v.other.clear();
  v.other.set(std::string(xsi_namespace), "nil", "true");
  EXPECT_THROW(to_xml(aa::ns, "item", v), error);
}

TEST(AnyAttribute, ADeclaredOrXsiAttributeIsNotWrittenTwice) {
  refuses_to_write_twice<0>();
}
TEST(AnyAttribute, ADeclaredOrXsiAttributeIsNotWrittenTwiceThroughATable) {
  refuses_to_write_twice<1>();
}

// The attributes SOAP interprets (the envelope namespaces, 1.1 and 1.2: mustUnderstand,
// actor/role, relay, encodingStyle) are never kept, as the binding's own (xsi, SOAP encoding)
// are not: a header entry read and written again beside the SOAP layer's own mustUnderstand
// has it once, and repeats no actor meant for the node that read it. Set by hand, one is
// written.
const std::string header_doc =
    R"(<a:item xmlns:a="urn:aa" xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" )"
    R"(xmlns:e="http://www.w3.org/2003/05/soap-envelope" xmlns:x="urn:x" )"
    R"(xmlns:c="http://schemas.xmlsoap.org/soap/encoding/" )"
    R"(xmlns:d="http://www.w3.org/2003/05/soap-encoding" id="7" s:mustUnderstand="1" )"
    R"(s:actor="http://schemas.xmlsoap.org/soap/actor/next" s:encodingStyle="urn:s" )"
    R"(e:mustUnderstand="true" e:role="http://www.w3.org/2003/05/soap-envelope/role/next" )"
    R"(e:relay="true" e:encodingStyle="urn:e" c:root="1" d:id="r" x:tag="t">)"
    R"(<a:name>nm</a:name></a:item>)";

template <int K>
void soap_attributes_are_not_kept() {
  constexpr std::string_view soap11 = "http://schemas.xmlsoap.org/soap/envelope/";
  aa::item<K> v;
  ASSERT_FALSE(from_xml(header_doc, v));
  EXPECT_EQ(v.other.items, (attrs{{"urn:x", "tag", "t"}}));
  // Written as the SOAP layer writes a header entry of its own: its mustUnderstand first.
  xml::output out;
  xml::writer w{out};
  w.declare_namespace("s", soap11);
  w.start_element(aa::ns, "item");
  w.attribute(soap11, "mustUnderstand", "1");
  write_content(w, v);
  w.end_element();
  w.end_document();
  const std::string xml = out.take();
  EXPECT_EQ(xml.find("mustUnderstand"), xml.rfind("mustUnderstand")) << xml;
  EXPECT_EQ(xml.find("actor"), std::string::npos) << xml;
  aa::item<K> back;
  ASSERT_FALSE(from_xml(xml, back)) << xml;  // well-formed
  EXPECT_EQ(back, v) << xml;
  // Set by hand: written (the only SOAP attribute of an entry nothing else marks).
  v.other.set(std::string(soap11), "mustUnderstand", "1");
  EXPECT_NE(to_xml(aa::ns, "item", v).find(":mustUnderstand=\"1\""), std::string::npos);
}

TEST(AnyAttribute, SoapAttributesAreNotKept) {
  soap_attributes_are_not_kept<0>();
}
TEST(AnyAttribute, SoapAttributesAreNotKeptThroughATable) {
  soap_attributes_are_not_kept<1>();
}

template <int K>
void described() {
  const type_description& item = describe<aa::item<K>>();
  ASSERT_EQ(item.fields.size(), 4u);
  EXPECT_EQ(item.fields[2].kind, field_kind::any_attribute);
  EXPECT_EQ(item.fields[2].default_value, "");
  EXPECT_EQ(item.fields[2].type().kind, type_kind::any_attributes);
  const type_description& narrow = describe<aa::narrow<K>>();
  EXPECT_EQ(narrow.fields[0].kind, field_kind::any_attribute);
  EXPECT_EQ(narrow.fields[0].default_value, "##other");
  EXPECT_EQ(narrow.fields[0].ns, aa::ns);  // ##other and ##targetNamespace name it
  EXPECT_EQ(describe<aa::listed<K>>().fields[0].default_value, "urn:x ##local ##targetNamespace");
}

TEST(AnyAttribute, Described) {
  described<0>();
}
TEST(AnyAttribute, DescribedThroughATable) {
  described<1>();
}

TEST(AnyAttribute, AnElementWildcardsConstraintIsDescribedAsDeclared) {
  const type_description& d = describe<aa::open>();
  ASSERT_EQ(d.fields.size(), 2u);
  EXPECT_EQ(d.fields[0].default_value, "##other");
  EXPECT_EQ(d.fields[1].default_value, "urn:x ##local");
  EXPECT_FALSE(d.fields[0].has_default);
}

}  // namespace
}  // namespace lather::bind::test

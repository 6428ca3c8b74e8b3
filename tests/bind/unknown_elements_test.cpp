// Unknown child elements kept by an unknown_elements member (lather/bind/unknown.hpp): read
// before, between and after the declared ones, nested namespaces carried, a wildcard and a
// choice taking what they match first, written back where they were, counted. Each type is a
// template over K: K = 0 binds through meta<T>'s fields, K = 1 through a table, which must give
// the same values and bytes.
#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "lather/bind.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace ut {

inline constexpr std::string_view ns = "urn:u";

template <int K>
struct inner {
  std::string v;
  lather::bind::unknown_elements extra;
  friend bool operator==(const inner&, const inner&) = default;
};

template <int K>
struct item {
  std::string id;  // attribute
  std::string a;
  std::optional<std::int32_t> b;
  std::vector<std::string> c;
  std::variant<std::string, std::int32_t> pick;  // choice: text | number
  std::vector<lather::bind::any_element> wild;   // xsd:any namespace="##other"
  inner<K> in;
  std::string d;
  lather::bind::unknown_elements extra;
  friend bool operator==(const item&, const item&) = default;
};

struct plain {  // no unknown member
  std::string a;
};

}  // namespace ut

template <int K>
struct lather::meta<ut::inner<K>> {
  using T = ut::inner<K>;
  static constexpr std::string_view name = "inner";
  static constexpr std::string_view ns = ut::ns;
  static constexpr auto fields = lather::fields(element("v", &T::v), unknown(&T::extra));
};
template <int K>
struct lather::meta<ut::item<K>> {
  using T = ut::item<K>;
  static constexpr std::string_view name = "item";
  static constexpr std::string_view ns = ut::ns;
  static constexpr auto fields =
      lather::fields(attribute("id", &T::id).required(), element("a", &T::a), element("b", &T::b),
                     element("c", &T::c), choice(&T::pick, {"text", "number"}),
                     any(&T::wild).namespaces("##other"), element("in", &T::in),
                     element("d", &T::d), unknown(&T::extra));
};
template <>
struct lather::meta<ut::plain> {
  static constexpr std::string_view name = "plain";
  static constexpr std::string_view ns = ut::ns;
  static constexpr auto fields = lather::fields(element("a", &ut::plain::a));
};

LATHER_BIND_TABLE(ut::inner<1>);
LATHER_BIND_TABLE(ut::item<1>);

#pragma GCC diagnostic ignored "-Winvalid-offsetof"
namespace {
LATHER_BIND_TABLE_FILE();
using I = ut::inner<1>;
using T = ut::item<1>;
constexpr auto inner_fields = fields(ut::ns, element<std::string>(ut::ns, "v", offsetof(I, v)),
                                     unknown(ut::ns, offsetof(I, extra)));
constexpr auto pick_names =
    alternatives<std::variant<std::string, std::int32_t>>({"text", "number"});
constexpr auto item_fields = fields(
    ut::ns, attribute<std::string>(ut::ns, "id", offsetof(T, id)).required(),
    element<std::string>(ut::ns, "a", offsetof(T, a)),
    element<std::optional<std::int32_t>>(ut::ns, "b", offsetof(T, b)),
    element<std::vector<std::string>>(ut::ns, "c", offsetof(T, c)),
    choice<std::variant<std::string, std::int32_t>>(ut::ns, offsetof(T, pick), pick_names),
    any<std::vector<lather::bind::any_element>>(ut::ns, offsetof(T, wild)).namespaces("##other"),
    element<I>(ut::ns, "in", offsetof(T, in)), element<std::string>(ut::ns, "d", offsetof(T, d)),
    unknown(ut::ns, offsetof(T, extra)));
}  // namespace
LATHER_BIND_TABLE_DEFINE(inner_fields, ut::inner<1>)
LATHER_BIND_TABLE_DEFINE(item_fields, ut::item<1>)

namespace {

namespace bind = lather::bind;

// <n:first> before a (a wildcard would take it, but only by skipping the required a), <u:new1>
// before b (its namespace is not the wildcard's), <u:mid> between two c (written after both),
// <n:wild> the wildcard's, <n:deep> inner's (n declared on the root only), <u:last> at the end.
constexpr std::string_view doc =
    R"(<u:item xmlns:u="urn:u" xmlns:n="urn:n" id="7"><n:first>1</n:first><u:a>x</u:a>)"
    R"(<u:new1/><u:b>2</u:b><u:c>c1</u:c><u:mid k="v"/><u:c>c2</u:c><u:number>5</u:number>)"
    R"(<n:wild>w</n:wild><u:in><u:v>v</u:v><n:deep xmlns:m="urn:m"><m:x a="1"/>t</n:deep></u:in>)"
    R"(<u:d>d</u:d><u:last><n:z/></u:last></u:item>)";

template <class V>
bind::error_info read_doc(std::string_view text, V& v, const bind::read_options& o = {}) {
  lather::xml::reader r;
  r.reset(text);
  EXPECT_EQ(r.next(), lather::xml::token::start_element);
  return bind::read(r, v, o);
}

template <class V>
std::string write_doc(const V& v) {
  lather::xml::output out;
  lather::xml::writer w{out};
  bind::write(w, ut::ns, "item", v);
  w.end_document();
  return std::string(out.view());
}

template <int K>
void check_round_trip() {
  ut::item<K> v;
  bind::unknown_counts counts;
  bind::read_options o;
  o.count_unknown = &counts;
  ASSERT_FALSE(read_doc(doc, v, o)) << read_doc(doc, v, o).message;
  EXPECT_EQ(counts.kept, 5u);
  EXPECT_EQ(counts.skipped, 0u);
  ASSERT_EQ(v.extra.size(), 4u);
  EXPECT_EQ(v.extra.elements[0].xml, R"(<n:first xmlns:n="urn:n">1</n:first>)");
  EXPECT_EQ(v.extra.elements[0].field, 1u);  // before a
  EXPECT_EQ(v.extra.elements[1].xml, R"(<u:new1 xmlns:u="urn:u"/>)");
  EXPECT_EQ(v.extra.elements[1].field, 2u);  // before b
  EXPECT_EQ(v.extra.elements[2].xml, R"(<u:mid xmlns:u="urn:u" k="v"/>)");
  EXPECT_EQ(v.extra.elements[2].field, 4u);  // after the c's
  EXPECT_EQ(v.extra.elements[3].xml, R"(<u:last xmlns:u="urn:u"><n:z xmlns:n="urn:n"/></u:last>)");
  EXPECT_EQ(v.extra.elements[3].field, 8u);  // after d: the end
  ASSERT_EQ(v.wild.size(), 1u);
  EXPECT_EQ(v.wild[0].xml, R"(<n:wild xmlns:n="urn:n">w</n:wild>)");
  EXPECT_EQ(v.pick, (std::variant<std::string, std::int32_t>{5}));
  EXPECT_EQ(v.c, (std::vector<std::string>{"c1", "c2"}));
  ASSERT_EQ(v.in.extra.size(), 1u);
  const std::string& deep = v.in.extra.elements[0].xml;
  EXPECT_NE(deep.find(R"(xmlns:n="urn:n")"), std::string::npos) << deep;
  EXPECT_NE(deep.find(R"(<m:x a="1"/>t</n:deep>)"), std::string::npos) << deep;
  EXPECT_EQ(v.in.extra.elements[0].field, 1u);  // after v (the end)

  const std::string out = write_doc(v);
  const auto at = [&](std::string_view s) {
    const std::size_t p = out.find(s);
    EXPECT_NE(p, std::string::npos) << s << " in " << out;
    return p;
  };
  // Each where it came, <u:mid> after both c.
  EXPECT_LT(at("<n:first"), at(":a>x<"));
  EXPECT_LT(at(":a>x<"), at("<u:new1"));
  EXPECT_LT(at("<u:new1"), at(":b>2<"));
  EXPECT_LT(at(":c>c2<"), at("<u:mid"));
  EXPECT_LT(at("<u:mid"), at(":number>5<"));
  EXPECT_LT(at(":number>5<"), at("<n:wild"));
  EXPECT_LT(at(":v>v<"), at("<n:deep"));
  EXPECT_LT(at("</n:deep>"), at(":d>d<"));
  EXPECT_LT(at(":d>d<"), at("<u:last"));

  // Read again, the same value (positions included); written again, the same bytes.
  ut::item<K> again;
  ASSERT_FALSE(read_doc(out, again)) << out;
  EXPECT_EQ(again, v);
  EXPECT_EQ(write_doc(again), out);

  // A reused destination: what the next document does not carry is gone.
  ASSERT_FALSE(
      read_doc(R"(<item xmlns="urn:u" id="1"><a/><text/><in><v/></in><d/><z/></item>)", again));
  ASSERT_EQ(again.extra.size(), 1u);
  EXPECT_EQ(again.extra.elements[0].xml, R"(<z xmlns="urn:u"/>)");
  EXPECT_TRUE(again.in.extra.empty());
  EXPECT_TRUE(again.wild.empty());
}

TEST(bind_unknown_elements, kept_where_they_were_through_meta) {
  check_round_trip<0>();
}
TEST(bind_unknown_elements, kept_where_they_were_through_a_table) {
  check_round_trip<1>();
}

TEST(bind_unknown_elements, meta_and_table_write_the_same_bytes) {
  ut::item<0> m;
  ut::item<1> t;
  ASSERT_FALSE(read_doc(doc, m));
  ASSERT_FALSE(read_doc(doc, t));
  EXPECT_EQ(write_doc(m), write_doc(t));
}

TEST(bind_unknown_elements, added_elements_go_after_the_declared_content) {
  for (int k = 0; k < 2; ++k) {
    ut::item<0> m;
    ut::item<1> t;
    m.a = t.a = "x";
    m.pick = t.pick = "p";
    m.extra.elements.push_back({R"(<q:new xmlns:q="urn:q">1</q:new>)"});
    t.extra.elements.push_back({R"(<q:new xmlns:q="urn:q">1</q:new>)"});
    const std::string out = k == 0 ? write_doc(m) : write_doc(t);
    EXPECT_NE(out.find(R"(<ns1:d/><q:new xmlns:q="urn:q">1</q:new></ns1:item>)"), std::string::npos)
        << out;
  }
}

TEST(bind_unknown_elements, declared_elements_out_of_place_are_still_errors) {
  ut::item<0> m;
  ut::item<1> t;
  // Out of schema order, beyond maxOccurs: not unknown elements.
  for (std::string_view bad :
       {R"(<item xmlns="urn:u" id="1"><a/><b>1</b><a/></item>)",
        R"(<item xmlns="urn:u" id="1"><a/><text/><number>1</number></item>)",
        R"(<item xmlns="urn:u" id="1"><a/><text/><in><v/></in><d/><d/></item>)"}) {
    const bind::error_info a = read_doc(bad, m), b = read_doc(bad, t);
    EXPECT_TRUE(a) << bad;
    EXPECT_EQ(a.message, b.message) << bad;
  }
  // A required field still missing.
  const bind::error_info e = read_doc(R"(<item xmlns="urn:u" id="1"><a/><zz/></item>)", t);
  EXPECT_EQ(e.code, bind::errc::missing_element) << e.message;
}

TEST(bind_unknown_elements, skipped_ones_are_counted_where_no_member_keeps_them) {
  ut::plain p;
  bind::unknown_counts counts;
  bind::read_options o;
  o.count_unknown = &counts;
  const std::string_view text = R"(<plain xmlns="urn:u"><x/><a>1</a><y><z/></y></plain>)";
  EXPECT_TRUE(read_doc(text, p, o));  // an error without skip_unknown_elements
  o.skip_unknown_elements = true;
  ASSERT_FALSE(read_doc(text, p, o));
  EXPECT_EQ(p.a, "1");
  EXPECT_EQ(counts.skipped, 2u);
  EXPECT_EQ(counts.kept, 0u);
}

TEST(bind_unknown_elements, struct_writer_writes_the_bytes_of_write_content) {
  ut::item<0> v;
  ASSERT_FALSE(read_doc(doc, v));
  const auto content = [&](bool parts) {
    lather::xml::output out;
    lather::xml::writer w{out};
    w.start_element(ut::ns, "item");
    if (parts) {
      bind::struct_writer<ut::item<0>, &ut::item<0>::c> sw{w};
      sw.write_head(v);
      for (const std::string& c : v.c) sw.write_item(c);
      sw.finish(v);
    } else {
      bind::write_content(w, v);
    }
    w.end_element();
    w.end_document();
    return std::string(out.view());
  };
  EXPECT_EQ(content(true), content(false));
}

TEST(bind_unknown_elements, described_as_not_in_the_schema) {
  for (const bind::type_description* d :
       {&bind::describe<ut::item<0>>(), &bind::describe<ut::item<1>>()}) {
    ASSERT_EQ(d->fields.size(), 9u);
    EXPECT_EQ(d->fields[8].kind, bind::field_kind::unknown);
    EXPECT_EQ(d->fields[8].type().kind, bind::type_kind::any_element);
  }
}

}  // namespace

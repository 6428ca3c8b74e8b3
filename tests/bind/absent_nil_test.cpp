// minOccurs="0" and nillable: a std::optional<lather::nillable<T>> member keeps absent (nullopt),
// nil (an engaged, empty nillable, xsi:nil="true") and a value apart, read and written, through
// meta<T>'s fields (K = 0) and through a table as lather-wsdl2cpp writes one (K = 1), for each
// kind of member codec: a simple value (the library's), an enumeration and a table-bound struct.
// A std::optional<T> of a .nillable() field keeps its one state (empty: written as xsi:nil).
#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "lather/bind/describe.hpp"
#include "lather/bind/table.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace an {

inline constexpr std::string_view ns = "urn:an";

enum class grade { low, high };

template <int K>
struct spot {
  std::optional<std::string> tag;  // attribute
  std::int32_t x{};
  friend bool operator==(const spot&, const spot&) = default;
};

template <int K>
struct record {
  std::optional<lather::nillable<std::string>> text;
  std::optional<lather::nillable<std::int32_t>> number;
  std::optional<lather::nillable<grade>> level;
  std::optional<lather::nillable<spot<K>>> where;
  lather::nillable<spot<K>> here;        // 1..1 and nillable
  std::optional<std::string> collapsed;  // .nillable(): absent and nil one state
  friend bool operator==(const record&, const record&) = default;
};

}  // namespace an

template <>
struct lather::meta<an::grade> {
  static constexpr std::string_view name = "grade";
  static constexpr std::string_view ns = an::ns;
  static constexpr auto values =
      enum_values<an::grade>({{an::grade::low, "LOW"}, {an::grade::high, "HIGH"}});
};
template <int K>
struct lather::meta<an::spot<K>> {
  using T = an::spot<K>;
  static constexpr std::string_view name = "spot";
  static constexpr std::string_view ns = an::ns;
  static constexpr auto fields = lather::fields(attribute("tag", &T::tag), element("x", &T::x));
};
template <int K>
struct lather::meta<an::record<K>> {
  using T = an::record<K>;
  static constexpr std::string_view name = "record";
  static constexpr std::string_view ns = an::ns;
  static constexpr auto fields =
      lather::fields(element("text", &T::text), element("number", &T::number),
                     element("level", &T::level), element("where", &T::where),
                     element("here", &T::here), element("collapsed", &T::collapsed).nillable());
};

LATHER_BIND_TABLE(an::spot<1>);
LATHER_BIND_TABLE(an::record<1>);

#pragma GCC diagnostic ignored "-Winvalid-offsetof"
namespace {
LATHER_BIND_TABLE_FILE();
using S1 = an::spot<1>;
using R1 = an::record<1>;
constexpr auto spot_fields =
    fields(an::ns, attribute<std::optional<std::string>>(an::ns, "tag", offsetof(S1, tag)),
           element<std::int32_t>(an::ns, "x", offsetof(S1, x)));
constexpr auto record_fields = fields(
    an::ns,
    element<std::optional<lather::nillable<std::string>>>(an::ns, "text", offsetof(R1, text)),
    element<std::optional<lather::nillable<std::int32_t>>>(an::ns, "number", offsetof(R1, number)),
    element<std::optional<lather::nillable<an::grade>>>(an::ns, "level", offsetof(R1, level)),
    element<std::optional<lather::nillable<S1>>>(an::ns, "where", offsetof(R1, where)),
    element<lather::nillable<S1>>(an::ns, "here", offsetof(R1, here)),
    element<std::optional<std::string>>(an::ns, "collapsed", offsetof(R1, collapsed)).nillable());
}  // namespace
LATHER_BIND_TABLE_DEFINE(spot_fields, an::spot<1>)
LATHER_BIND_TABLE_DEFINE(record_fields, an::record<1>)

namespace {

enum class state { absent, nil, value };
constexpr state states[] = {state::absent, state::nil, state::value};

template <class X>
void set(std::optional<lather::nillable<X>>& m, state s, X v) {
  if (s == state::absent)
    m.reset();
  else if (s == state::nil)
    m.emplace();
  else
    m.emplace(std::move(v));
}

template <class X>
state state_of(const std::optional<lather::nillable<X>>& m) {
  return !m ? state::absent : m->is_nil() ? state::nil : state::value;
}

template <int K>
an::record<K> make(state s) {
  an::record<K> r;
  set<std::string>(r.text, s, "t");
  set<std::int32_t>(r.number, s, 7);
  set<an::grade>(r.level, s, an::grade::high);
  set<an::spot<K>>(r.where, s, an::spot<K>{"w", 3});
  r.here.emplace(an::spot<K>{std::nullopt, 4});
  return r;
}

template <class T>
std::string to_xml(const T& v) {
  lather::xml::output out;
  lather::xml::writer w{out};
  lather::bind::write(w, an::ns, "record", v);
  w.end_document();
  return std::string(out.view());
}

template <class T>
std::string from_xml(std::string_view doc, T& v) {
  lather::xml::reader r;
  r.reset(doc);
  EXPECT_EQ(r.next(), lather::xml::token::start_element);
  return lather::bind::read(r, v).message;
}

// The start tag of the element `local` in `xml` (written with prefix ns1), "" when absent.
std::string tag(const std::string& xml, std::string_view local) {
  const std::string open = "<ns1:" + std::string(local);
  std::size_t at = xml.find(open + ">");
  if (at == std::string::npos) at = xml.find(open + " ");
  if (at == std::string::npos) return "";
  return xml.substr(at, xml.find('>', at) + 1 - at);
}

TEST(bind_absent_nil, three_states_round_trip_through_both_bindings) {
  for (state s : states) {
    const an::record<0> v0 = make<0>(s);
    const an::record<1> v1 = make<1>(s);
    const std::string xml = to_xml(v0);
    EXPECT_EQ(to_xml(v1), xml);
    for (std::string_view local : {"text", "number", "level", "where"}) {
      const std::string t = tag(xml, local);
      if (s == state::absent)
        EXPECT_EQ(t, "") << local << "\n" << xml;
      else if (s == state::nil)
        EXPECT_NE(t.find(":nil=\"true\"/>"), std::string::npos) << local << "\n" << xml;
      else
        EXPECT_EQ(t.find("nil="), std::string::npos) << local << "\n" << xml;
    }
    if (s == state::value) {
      EXPECT_NE(xml.find("<ns1:text>t</ns1:text><ns1:number>7</ns1:number>"
                         "<ns1:level>HIGH</ns1:level><ns1:where tag=\"w\"><ns1:x>3</ns1:x>"
                         "</ns1:where>"),
                std::string::npos)
          << xml;
    }
    // The collapsed member, empty, is written as xsi:nil whatever the others' state.
    EXPECT_NE(tag(xml, "collapsed").find(":nil=\"true\"/>"), std::string::npos) << xml;

    an::record<0> b0;
    an::record<1> b1;
    ASSERT_EQ(from_xml(xml, b0), "") << xml;
    ASSERT_EQ(from_xml(xml, b1), "") << xml;
    EXPECT_EQ(b0, v0) << xml;
    EXPECT_EQ(b1, v1) << xml;
    EXPECT_EQ(state_of(b1.text), s);
    EXPECT_EQ(state_of(b1.number), s);
    EXPECT_EQ(state_of(b1.level), s);
    EXPECT_EQ(state_of(b1.where), s);
  }
}

constexpr std::string_view head =
    R"(<record xmlns="urn:an" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">)";

// Each state read into a destination that held another (a reused message), both bindings.
template <int K>
void read_each_state_over_each_state() {
  const std::string values = std::string(head) +
                             "<text>t</text><number>7</number><level>HIGH</level>"
                             "<where tag=\"w\"><x>3</x></where><here><x>4</x></here></record>";
  const std::string nils =
      std::string(head) +
      "<text xsi:nil=\"true\"/><number xsi:nil=\"1\"/><level xsi:nil=\"true\"></level>"
      "<where xsi:nil=\"true\"/><here><x>4</x></here></record>";
  const std::string absent = std::string(head) + "<here><x>4</x></here></record>";
  const std::pair<state, const std::string*> docs[] = {
      {state::value, &values}, {state::nil, &nils}, {state::absent, &absent}};
  for (const auto& [before, first] : docs) {
    for (const auto& [after, second] : docs) {
      an::record<K> v;
      ASSERT_EQ(from_xml(*first, v), "") << *first;
      ASSERT_EQ(from_xml(*second, v), "") << *second;
      EXPECT_EQ(v, make<K>(after)) << *first << "\nthen\n" << *second;
      EXPECT_EQ(state_of(v.where), after) << int(before);
    }
  }
}

TEST(bind_absent_nil, each_state_reads_over_each_state) {
  read_each_state_over_each_state<0>();
  read_each_state_over_each_state<1>();
}

// The attributes of a nil element are not read, for an optional nillable member as for a
// nillable one (the value is nil), and its xsi:nil="false" reads the value.
template <int K>
void attributes_of_a_nil_element() {
  const std::string doc = std::string(head) +
                          "<where tag=\"a\" xsi:nil=\"true\"/>"
                          "<here tag=\"b\" xsi:nil=\"true\"/></record>";
  an::record<K> v;
  ASSERT_EQ(from_xml(doc, v), "") << doc;
  ASSERT_TRUE(v.where);
  EXPECT_TRUE(v.where->is_nil());
  EXPECT_TRUE(v.here.is_nil());
  const std::string no = std::string(head) +
                         "<where tag=\"a\" xsi:nil=\"false\"><x>1</x></where>"
                         "<here tag=\"b\" xsi:nil=\"0\"><x>2</x></here></record>";
  ASSERT_EQ(from_xml(no, v), "") << no;
  ASSERT_TRUE(v.where && *v.where);
  EXPECT_EQ(**v.where, (an::spot<K>{"a", 1}));
  ASSERT_TRUE(v.here);
  EXPECT_EQ(*v.here, (an::spot<K>{"b", 2}));
}

TEST(bind_absent_nil, attributes_of_a_nil_element_as_for_a_nillable_member) {
  attributes_of_a_nil_element<0>();
  attributes_of_a_nil_element<1>();
}

// The one-state member: xsi:nil and absence both read as an empty optional.
TEST(bind_absent_nil, a_nillable_field_of_std_optional_keeps_one_state) {
  an::record<1> v;
  v.collapsed = "c";
  const std::string nil =
      std::string(head) + "<here><x>4</x></here><collapsed xsi:nil=\"true\"/></record>";
  ASSERT_EQ(from_xml(nil, v), "");
  EXPECT_FALSE(v.collapsed);
  v.collapsed = "c";
  ASSERT_EQ(from_xml(std::string(head) + "<here><x>4</x></here></record>", v), "");
  EXPECT_FALSE(v.collapsed);
}

// A service's ?wsdl says minOccurs="0" nillable="true" of the value type.
TEST(bind_absent_nil, described_as_optional_and_nillable) {
  for (const auto* d :
       {&lather::bind::describe<an::record<0>>(), &lather::bind::describe<an::record<1>>()}) {
    ASSERT_EQ(d->fields.size(), 6u);
    for (std::size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(d->fields[i].min_occurs, 0u) << d->fields[i].name;
      EXPECT_EQ(d->fields[i].max_occurs, 1u) << d->fields[i].name;
      EXPECT_TRUE(d->fields[i].nillable) << d->fields[i].name;
    }
    EXPECT_EQ(d->fields[2].type().name, "grade");
    EXPECT_EQ(d->fields[3].type().name, "spot");
    EXPECT_EQ(d->fields[4].min_occurs, 1u);
    EXPECT_TRUE(d->fields[4].nillable);
  }
}

}  // namespace

// The table binding (lather/bind/table.hpp) against the template binding: the same structs,
// read and written both ways, must give the same values, bytes and errors. Each struct is a
// template over K: K = 0 binds through meta<T>'s fields, K = 1 through a table written here as
// lather-wsdl2cpp writes it.
#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "lather/bind/table.hpp"
#include "lather/bind/table_ref.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace tt {

inline constexpr std::string_view ns = "urn:t";
inline constexpr std::string_view other = "urn:other";

enum class colour { red, green };

template <int K>
struct point {
  std::int32_t x{};
  std::optional<std::int32_t> y;
  friend bool operator==(const point&, const point&) = default;
};

template <int K>
struct price {  // simple content
  double value{};
  std::string currency;
  friend bool operator==(const price&, const price&) = default;
};

template <int K>
struct shape {
  shape() = default;
  shape(const shape&) = default;
  shape& operator=(const shape&) = default;
  virtual ~shape() = default;
  std::string label;
  friend bool operator==(const shape&, const shape&) = default;
};

template <int K>
struct circle : shape<K> {
  double radius{};
};

template <int K>
struct order {
  std::string id;                        // attribute, required
  std::optional<std::int32_t> priority;  // attribute
  colour tint = colour::red;             // attribute, default "green"
  std::string name;
  std::optional<std::string> note;
  std::vector<std::int32_t> qty;
  lather::nillable<std::string> comment;
  std::string local;                   // unqualified
  std::optional<std::string> foreign;  // another namespace
  colour shade = colour::red;
  std::int32_t level = 0;  // default 7
  point<K> origin;
  std::optional<point<K>> corner;
  std::vector<point<K>> path;
  std::variant<std::string, std::int32_t> pick;
  std::vector<std::variant<point<K>, lather::nillable<std::string>>> mix;  // a nillable branch
  std::optional<price<K>> cost;
  std::vector<bool> flags;
  std::unique_ptr<shape<K>> figure;
  // Enumerations and lists of them, nillable items (read and written by the library's routines).
  std::optional<colour> hue;
  std::vector<lather::nillable<colour>> hues;
  std::optional<lather::xsd::list<colour>> palette;
  std::vector<lather::nillable<point<K>>> spots;
  std::vector<lather::bind::any_element> extra;
};
struct rows {  // table only: a vector that must occur, then a required value
  std::vector<std::int32_t> row;
  std::int32_t total = 0;
};
struct prices {  // table only: nillable items of a bound type, which grow the vector in place
  std::vector<lather::nillable<price<1>>> item;
};

}  // namespace tt

template <>
struct lather::meta<tt::rows> {
  static constexpr std::string_view name = "rows";
  static constexpr std::string_view ns = tt::ns;
};
template <>
struct lather::meta<tt::prices> {
  static constexpr std::string_view name = "prices";
  static constexpr std::string_view ns = tt::ns;
};

template <>
struct lather::meta<tt::colour> {
  static constexpr std::string_view name = "colour";
  static constexpr std::string_view ns = tt::ns;
  static constexpr auto values =
      enum_values<tt::colour>({{tt::colour::red, "RED"}, {tt::colour::green, "GREEN"}});
};
template <int K>
struct lather::meta<tt::point<K>> {
  using T = tt::point<K>;
  static constexpr std::string_view name = "point";
  static constexpr std::string_view ns = tt::ns;
  static constexpr auto fields = lather::fields(element("x", &T::x), element("y", &T::y));
};
template <int K>
struct lather::meta<tt::price<K>> {
  using T = tt::price<K>;
  static constexpr std::string_view name = "price";
  static constexpr std::string_view ns = tt::ns;
  static constexpr auto fields =
      lather::fields(text(&T::value), attribute("currency", &T::currency));
};
template <int K>
struct lather::meta<tt::shape<K>> {
  using T = tt::shape<K>;
  static constexpr std::string_view name = "shape";
  static constexpr std::string_view ns = tt::ns;
  using derived = lather::types<tt::circle<K>>;
  static constexpr auto fields = lather::fields(element("label", &T::label));
};
template <int K>
struct lather::meta<tt::circle<K>> {
  using T = tt::circle<K>;
  static constexpr std::string_view name = "circle";
  static constexpr std::string_view ns = tt::other;
  using base = tt::shape<K>;
  static constexpr auto fields = lather::fields(element("radius", &T::radius));
};
template <int K>
struct lather::meta<tt::order<K>> {
  using T = tt::order<K>;
  static constexpr std::string_view name = "order";
  static constexpr std::string_view ns = tt::ns;
  static constexpr auto fields = lather::fields(
      attribute("id", &T::id).required(), attribute("priority", &T::priority),
      attribute("tint", &T::tint).default_value("GREEN"), element("name", &T::name),
      element("note", &T::note), element("qty", &T::qty).max(3), element("comment", &T::comment),
      element("local", &T::local).unqualified(),
      element("foreign", &T::foreign).in_namespace(tt::other), element("shade", &T::shade),
      element("level", &T::level).min(0).default_value("7"), element("origin", &T::origin),
      element("corner", &T::corner), element("path", &T::path),
      choice(&T::pick, {"text", "number"}), choice(&T::mix, {"pt", "word"}),
      element("cost", &T::cost), element("flags", &T::flags), element("figure", &T::figure),
      element("hue", &T::hue), element("hues", &T::hues), element("palette", &T::palette),
      element("spots", &T::spots), any(&T::extra));
};

LATHER_BIND_TABLE(tt::point<1>);
LATHER_BIND_TABLE(tt::price<1>);
LATHER_BIND_TABLE(tt::shape<1>);
LATHER_BIND_TABLE(tt::circle<1>);
LATHER_BIND_TABLE(tt::order<1>);
LATHER_BIND_TABLE(tt::rows);
LATHER_BIND_TABLE(tt::prices);

#pragma GCC diagnostic ignored "-Winvalid-offsetof"
namespace {
// As generated code does: the codecs of the member types the library has none for are this
// file's (internal linkage); rows_fields names lather::bind::table's, shared, builders.
LATHER_BIND_TABLE_FILE();
using P = tt::point<1>;
using R = tt::price<1>;
using S = tt::shape<1>;
using C = tt::circle<1>;
using O = tt::order<1>;
constexpr auto point_fields =
    fields(tt::ns, element<std::int32_t>(tt::ns, "x", offsetof(P, x)),
           element<std::optional<std::int32_t>>(tt::ns, "y", offsetof(P, y)));
constexpr auto price_fields =
    fields(tt::ns, text<double>(tt::ns, offsetof(R, value)),
           attribute<std::string>(tt::ns, "currency", offsetof(R, currency)));
constexpr auto shape_fields =
    fields(tt::ns, element<std::string>(tt::ns, "label", offsetof(S, label)));
constexpr auto circle_fields =
    fields(tt::other, element<std::string>(tt::ns, "label", offsetof(C, label)).inherited(),
           element<double>(tt::other, "radius", offsetof(C, radius)));
constexpr auto pick_names =
    alternatives<std::variant<std::string, std::int32_t>>({"text", "number"});
constexpr auto mix_names = alternatives<std::vector<std::variant<P, std::string>>>({"pt", "word"});
constexpr auto order_fields = fields(
    tt::ns, attribute<std::string>(tt::ns, "id", offsetof(O, id)).required(),
    attribute<std::optional<std::int32_t>>(tt::ns, "priority", offsetof(O, priority)),
    attribute<tt::colour>(tt::ns, "tint", offsetof(O, tint)).default_value("GREEN"),
    element<std::string>(tt::ns, "name", offsetof(O, name)),
    element<std::optional<std::string>>(tt::ns, "note", offsetof(O, note)),
    element<std::vector<std::int32_t>>(tt::ns, "qty", offsetof(O, qty)).max(3),
    element<lather::nillable<std::string>>(tt::ns, "comment", offsetof(O, comment)),
    element<std::string>(tt::ns, "local", offsetof(O, local)).unqualified(),
    element<std::optional<std::string>>(tt::ns, "foreign", offsetof(O, foreign))
        .in_namespace(tt::other),
    element<tt::colour>(tt::ns, "shade", offsetof(O, shade)),
    element<std::int32_t>(tt::ns, "level", offsetof(O, level)).min(0).default_value("7"),
    element<P>(tt::ns, "origin", offsetof(O, origin)),
    element<std::optional<P>>(tt::ns, "corner", offsetof(O, corner)),
    element<std::vector<P>>(tt::ns, "path", offsetof(O, path)),
    choice<std::variant<std::string, std::int32_t>>(tt::ns, offsetof(O, pick), pick_names),
    choice<std::vector<std::variant<P, lather::nillable<std::string>>>>(tt::ns, offsetof(O, mix),
                                                                        mix_names),
    element<std::optional<R>>(tt::ns, "cost", offsetof(O, cost)),
    element<std::vector<bool>>(tt::ns, "flags", offsetof(O, flags)),
    element<std::unique_ptr<S>>(tt::ns, "figure", offsetof(O, figure)),
    element<std::optional<tt::colour>>(tt::ns, "hue", offsetof(O, hue)),
    element<std::vector<lather::nillable<tt::colour>>>(tt::ns, "hues", offsetof(O, hues)),
    element<std::optional<lather::xsd::list<tt::colour>>>(tt::ns, "palette", offsetof(O, palette)),
    element<std::vector<lather::nillable<P>>>(tt::ns, "spots", offsetof(O, spots)),
    any<std::vector<lather::bind::any_element>>(tt::ns, offsetof(O, extra)));
namespace table = lather::bind::table;
constexpr auto rows_fields = fields(
    tt::ns,
    table::element<std::vector<std::int32_t>>(tt::ns, "row", offsetof(tt::rows, row)).min(2).max(2),
    table::element<std::int32_t>(tt::ns, "total", offsetof(tt::rows, total)));
constexpr auto prices_fields = fields(
    tt::ns, element<std::vector<lather::nillable<R>>>(tt::ns, "item", offsetof(tt::prices, item)));
}  // namespace
LATHER_BIND_TABLE_DEFINE(point_fields, tt::point<1>)
LATHER_BIND_TABLE_DEFINE(price_fields, tt::price<1>)
LATHER_BIND_TABLE_DEFINE(shape_fields, tt::shape<1>)
LATHER_BIND_TABLE_DEFINE(circle_fields, tt::circle<1>)
LATHER_BIND_TABLE_DEFINE(order_fields, tt::order<1>)
LATHER_BIND_TABLE_DEFINE(rows_fields, tt::rows)
LATHER_BIND_TABLE_DEFINE(prices_fields, tt::prices)

namespace {

struct outcome {
  std::string error;  // "" on success
  std::string xml;    // the value written back
};

template <int K>
outcome round_trip(std::string_view doc, bool skip_unknown = false) {
  lather::xml::reader r;
  r.reset(doc);
  EXPECT_EQ(r.next(), lather::xml::token::start_element);
  tt::order<K> v;
  lather::bind::read_options o;
  o.skip_unknown_elements = skip_unknown;
  if (lather::bind::error_info e = lather::bind::read(r, v, o)) return {e.message, {}};
  lather::xml::output out;
  lather::xml::writer w{out};
  lather::bind::write(w, tt::ns, "order", v);
  w.end_document();
  return {{}, std::string(out.view())};
}

void expect_same(std::string_view doc, bool skip_unknown = false) {
  const outcome a = round_trip<0>(doc, skip_unknown), b = round_trip<1>(doc, skip_unknown);
  EXPECT_EQ(a.error, b.error) << doc;
  EXPECT_EQ(a.xml, b.xml) << doc;
}

constexpr std::string_view full =
    R"(<o:order xmlns:o="urn:t" xmlns:x="urn:other" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="A1" priority="3">)"
    R"(<o:name>n</o:name><o:note>hi</o:note><o:qty>1</o:qty><o:qty>2</o:qty>)"
    R"(<o:comment xsi:nil="true"/><local>l</local><x:foreign>f</x:foreign><o:shade>GREEN</o:shade>)"
    R"(<o:origin><o:x>1</o:x></o:origin><o:corner><o:x>2</o:x><o:y>3</o:y></o:corner>)"
    R"(<o:path><o:x>4</o:x></o:path><o:path><o:x>5</o:x></o:path><o:number>9</o:number>)"
    R"(<o:word>w</o:word><o:pt><o:x>6</o:x></o:pt><o:word xsi:nil="true"/><o:cost currency="EUR">1.5</o:cost>)"
    R"(<o:flags>true</o:flags><o:flags>0</o:flags>)"
    R"(<o:figure xsi:type="x:circle"><o:label>c</o:label><x:radius>2</x:radius></o:figure>)"
    R"(<o:hue>GREEN</o:hue><o:hues>RED</o:hues><o:hues xsi:nil="true"/><o:hues> GREEN</o:hues>)"
    R"(<o:palette>RED  GREEN RED</o:palette><o:spots xsi:nil="true"/><o:spots><o:x>7</o:x></o:spots>)"
    R"(<z:any xmlns:z="urn:z" a="1"><z:b/></z:any></o:order>)";

TEST(bind_table, same_values_and_bytes_as_the_template_binding) {
  const outcome b = round_trip<1>(full);
  ASSERT_EQ(b.error, "");
  EXPECT_NE(b.xml.find(R"(tint="GREEN")"), std::string::npos) << b.xml;
  EXPECT_NE(b.xml.find(":level>7</"), std::string::npos) << b.xml;
  EXPECT_NE(b.xml.find(R"(:type="ns3:circle")"), std::string::npos) << b.xml;
  EXPECT_NE(b.xml.find("<z:b/>"), std::string::npos) << b.xml;
  EXPECT_NE(b.xml.find(R"(<ns1:hues>RED</ns1:hues><ns1:hues )"), std::string::npos) << b.xml;
  EXPECT_NE(b.xml.find(R"(nil="true"/><ns1:hues>GREEN</ns1:hues>)"), std::string::npos) << b.xml;
  EXPECT_NE(b.xml.find(">RED GREEN RED</ns1:palette>"), std::string::npos) << b.xml;
  EXPECT_NE(b.xml.find(R"(XMLSchema-instance" ns2:nil="true"/><ns1:cost)"), std::string::npos)
      << b.xml;
  expect_same(full);
  // Minimal: defaults, absent optionals, a choice's other branch.
  expect_same(R"(<order xmlns="urn:t" id="B"><name/><comment>c</comment><local xmlns="">l</local>)"
              R"(<shade>RED</shade><level/><origin><x>0</x></origin><text>t</text></order>)");
}

TEST(bind_table, same_errors_as_the_template_binding) {
  const std::string_view bad[] = {
      // required attribute missing
      R"(<order xmlns="urn:t"><name/></order>)",
      // bad attribute value
      R"(<order xmlns="urn:t" id="a" priority="x"><name/></order>)",
      // unknown enum (element and attribute)
      R"(<order xmlns="urn:t" id="a" tint="BLUE"><name/></order>)",
      R"(<order xmlns="urn:t" id="a"><name/><comment/><local xmlns="">l</local><shade>X</shade></order>)",
      // too many qty
      R"(<order xmlns="urn:t" id="a"><name/><qty>1</qty><qty>1</qty><qty>1</qty><qty>1</qty></order>)",
      // bad number in a nested struct, an item of a vector
      R"(<order xmlns="urn:t" id="a"><name/><comment/><local xmlns="">l</local><shade>RED</shade>)"
      R"(<origin><x>1</x></origin><path><x>1</x></path><path><x>z</x></path></order>)",
      // nil on a non-nillable element
      R"(<order xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="a">)"
      R"(<name xsi:nil="true"/></order>)",
      // out of order, unknown element, missing required element
      R"(<order xmlns="urn:t" id="a"><comment/><name/></order>)",
      R"(<order xmlns="urn:t" id="a"><name/><bogus/></order>)",
      R"(<order xmlns="urn:t" id="a"><name/><comment/></order>)",
      // wrong namespace for the unqualified element
      R"(<order xmlns="urn:t" id="a"><name/><comment/><local>l</local></order>)",
      // an unknown xsi:type, a bad simple content
      R"(<order xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="a"><name/>)"
      R"(<comment/><local xmlns="">l</local><shade>RED</shade><origin><x>1</x></origin><text/>)"
      R"(<figure xsi:type="nope"><label/></figure></order>)",
      R"(<order xmlns="urn:t" id="a"><name/><comment/><local xmlns="">l</local><shade>RED</shade>)"
      R"(<origin><x>1</x></origin><text/><cost currency="E">x</cost></order>)",
      // nil on a choice's alternative that is not nillable
      R"(<order xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="a"><name/>)"
      R"(<comment/><local xmlns="">l</local><shade>RED</shade><origin><x>1</x></origin><text/>)"
      R"(<pt xsi:nil="true"/></order>)",
      // an unknown enum in a list, in a nillable item; nil on an enum that is not nillable
      R"(<order xmlns="urn:t" id="a"><name/><comment/><local xmlns="">l</local><shade>RED</shade>)"
      R"(<origin><x>1</x></origin><text/><palette>RED BLUE</palette></order>)",
      R"(<order xmlns="urn:t" id="a"><name/><comment/><local xmlns="">l</local><shade>RED</shade>)"
      R"(<origin><x>1</x></origin><text/><hues>RED</hues><hues>BLUE</hues></order>)",
      R"(<order xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="a"><name/>)"
      R"(<comment/><local xmlns="">l</local><shade>RED</shade><origin><x>1</x></origin><text/>)"
      R"(<hue xsi:nil="true"/></order>)",
      // a missing choice
      R"(<order xmlns="urn:t" id="a"><name/><comment/><local xmlns="">l</local><shade>RED</shade>)"
      R"(<origin><x>1</x></origin></order>)",
  };
  for (std::string_view doc : bad) {
    const outcome b = round_trip<1>(doc);
    EXPECT_NE(b.error, "") << doc;
    expect_same(doc);
  }
  expect_same(R"(<order xmlns="urn:t" id="a"><name/><bogus/><comment/><local xmlns="">l</local>)"
              R"(<shade>RED</shade><origin><x>1</x></origin><text/></order>)",
              true);
}

// Reading (read or read_content) and write_content through the type-erased table_ref, or
// through the typed API.
outcome erased_round_trip(std::string_view doc, bool erased, bool content) {
  using O = tt::order<1>;
  lather::xml::reader r;
  r.reset(doc);
  EXPECT_EQ(r.next(), lather::xml::token::start_element);
  O v;
  const lather::bind::table_ref t = lather::bind::table_ref::of<O>();
  const lather::bind::read_options o;
  const lather::bind::error_info e =
      erased ? (content ? lather::bind::read_content(r, t, &v, o) : lather::bind::read(r, t, &v, o))
             : (content ? lather::bind::read_content(r, v, o) : lather::bind::read(r, v, o));
  if (e) return {e.message, {}};
  lather::xml::output out;
  lather::xml::writer w{out};
  w.start_element(tt::ns, "order");
  if (erased)
    lather::bind::write_content(w, t, &v);
  else
    lather::bind::write_content(w, v);
  w.end_element();
  w.end_document();
  return {{}, std::string(out.view())};
}

TEST(bind_table, table_ref_reads_and_writes_as_the_typed_api) {
  const std::string_view docs[] = {
      full,
      R"(<order xmlns="urn:t" id="B"><name/><comment>c</comment><local xmlns="">l</local>)"
      R"(<shade>RED</shade><level/><origin><x>0</x></origin><text>t</text></order>)",
      R"(<order xmlns="urn:t" id="a"><name/><comment/></order>)",
      R"(<order xmlns="urn:t" id="a"><name/><qty>1</qty><qty>1</qty><qty>1</qty><qty>1</qty></order>)",
      // xsi:nil on the element itself: read() refuses it, read_content() ignores it
      R"(<order xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="B")"
      R"( xsi:nil="true"><name/><comment>c</comment><local xmlns="">l</local><shade>RED</shade>)"
      R"(<origin><x>0</x></origin><text>t</text></order>)",
      // an xsi:type read() checks and read_content() ignores
      R"(<order xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="B")"
      R"( xsi:type="nope"><name/><comment>c</comment><local xmlns="">l</local><shade>RED</shade>)"
      R"(<origin><x>0</x></origin><text>t</text></order>)",
  };
  int failed = 0;
  for (std::string_view doc : docs) {
    for (const bool content : {false, true}) {
      const outcome typed = erased_round_trip(doc, false, content);
      const outcome erased = erased_round_trip(doc, true, content);
      EXPECT_EQ(erased.error, typed.error) << doc;
      EXPECT_EQ(erased.xml, typed.xml) << doc;
      failed += !typed.error.empty();
    }
  }
  EXPECT_GE(failed, 4);  // the error paths were taken
  EXPECT_NE(erased_round_trip(full, true, false).xml.find(R"(tint="GREEN")"), std::string::npos);
}

// xsi:nil on the element read() starts on, which is not nillable: refused with the same answer
// by the typed and the erased read(); a false xsi:nil reads; an invalid one is a lexical error.
TEST(bind_table, read_refuses_nil_on_its_element) {
  const auto doc = [](std::string_view nil) {
    return R"(<order xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance")"
           R"( id="B" xsi:nil=")" +
           std::string(nil) +
           R"("><name/><comment>c</comment><local xmlns="">l</local><shade>RED</shade>)"
           R"(<origin><x>0</x></origin><text>t</text></order>)";
  };
  for (const bool erased : {false, true}) {
    EXPECT_EQ(erased_round_trip(doc("true"), erased, false).error,
              "/order: xsi:nil on an element that is not nillable");
    EXPECT_EQ(erased_round_trip(doc(" 1 "), erased, false).error,
              "/order: xsi:nil on an element that is not nillable");
    EXPECT_EQ(erased_round_trip(doc("0"), erased, false).error, "");
    const std::string bad = erased_round_trip(doc("maybe"), erased, false).error;
    EXPECT_NE(bad.find("/order: xsi:nil "), std::string::npos) << bad;
    EXPECT_EQ(bad.find("not nillable"), std::string::npos) << bad;
  }
}

TEST(bind_table, reused_destination_is_reset) {
  lather::xml::reader r;
  tt::order<1> v;
  for (std::string_view doc :
       {full, std::string_view(R"(<order xmlns="urn:t" id="B"><name/><comment>c</comment>)"
                               R"(<local xmlns="">l</local><shade>RED</shade><origin><x>0</x>)"
                               R"(</origin><text>t</text></order>)")}) {
    r.reset(doc);
    ASSERT_EQ(r.next(), lather::xml::token::start_element);
    ASSERT_FALSE(lather::bind::read(r, v));
  }
  EXPECT_FALSE(v.note);
  EXPECT_TRUE(v.qty.empty());
  EXPECT_TRUE(v.path.empty());
  EXPECT_TRUE(v.mix.empty());
  EXPECT_TRUE(v.flags.empty());
  EXPECT_FALSE(v.figure);
  EXPECT_EQ(v.level, 7);
  EXPECT_EQ(v.tint, tt::colour::green);
  EXPECT_FALSE(v.priority);
  EXPECT_EQ(std::get<std::string>(v.pick), "t");
}

// A vector of nillable items grows by moving its items into a longer vector's nil ones (4, then
// 8, then 16 items): values, nils and their strings survive, and a read into a vector that
// had more items trims it.
TEST(bind_table, nillable_items_survive_the_vector_growing) {
  const std::string currency(40, 'c');  // on the heap, not in the string's own buffer
  std::string doc = R"(<prices xmlns="urn:t" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">)";
  std::vector<lather::nillable<tt::price<1>>> want;
  for (int k = 0; k < 11; ++k) {
    if (k % 3 == 1) {
      doc += R"(<item i:nil="true"/>)";
      want.emplace_back();
    } else {
      const std::string c = currency + std::to_string(k);
      doc += R"(<item currency=")" + c + R"(">)" + std::to_string(k) + "</item>";
      want.emplace_back(tt::price<1>{static_cast<double>(k), c});
    }
  }
  doc += "</prices>";
  lather::xml::reader r;
  tt::prices v;
  for (std::size_t n : {want.size(), std::size_t{2}}) {
    std::string part = doc;
    if (n < want.size()) {
      part = doc.substr(0, doc.find("<item", doc.find("<item") + 1));  // the first item only
      part += "<item i:nil=\"true\"/></prices>";
    }
    r.reset(part);
    ASSERT_EQ(r.next(), lather::xml::token::start_element);
    ASSERT_FALSE(lather::bind::read(r, v)) << part;
    ASSERT_EQ(v.item.size(), n);
    if (n == want.size()) {
      EXPECT_EQ(v.item, want);
    } else {
      EXPECT_EQ(v.item[0], want[0]);
      EXPECT_TRUE(v.item[1].is_nil());
    }
  }
}

// After a complete read only fields that may be absent, and vectors, have anything to reset: a
// table of single required values has no finalize pass, a vector is trimmed however many of
// its items must occur.
TEST(bind_table, finalize_runs_only_where_a_read_may_leave_something) {
  EXPECT_EQ(lather::bind::detail::vt_of<tt::shape<1>>().finalize, nullptr);
  EXPECT_NE(lather::bind::detail::vt_of<tt::point<1>>().finalize, nullptr);
  EXPECT_NE(lather::bind::detail::vt_of<tt::rows>().finalize, nullptr);
  tt::rows v;
  v.row = {9, 9, 9, 9};
  lather::xml::reader r;
  r.reset(R"(<rows xmlns="urn:t"><row>1</row><row>2</row><total>3</total></rows>)");
  ASSERT_EQ(r.next(), lather::xml::token::start_element);
  ASSERT_FALSE(lather::bind::read(r, v));
  EXPECT_EQ(v.row, (std::vector<std::int32_t>{1, 2}));
  EXPECT_EQ(v.total, 3);
  r.reset(R"(<rows xmlns="urn:t"><row>1</row><total>3</total></rows>)");
  ASSERT_EQ(r.next(), lather::xml::token::start_element);
  EXPECT_TRUE(lather::bind::read(r, v));  // row must occur twice
}

// The field of tt::order<1>'s view named `name`.
const lather::bind::detail::field_match& order_field(std::string_view name) {
  const auto& order = lather::bind::detail::vt_of<tt::order<1>>();
  for (std::uint32_t i = 0; i < order.field_count; ++i)
    if (order.fields[i].name() == name) return order.fields[i];
  ADD_FAILURE() << name;
  return order.fields[0];
}

TEST(bind_table, a_file_compiles_the_codecs_the_library_has_not) {
  using lather::bind::detail::codec;
  const auto field = order_field;
  EXPECT_EQ(field("origin").routines, &(codec<P, lather_unit>::single_routines));
  EXPECT_EQ(field("path").routines->write, &(codec<std::vector<P>, lather_unit>::write));
  EXPECT_EQ(field("name").routines, &codec<std::string>::single_routines);  // the library's
  EXPECT_EQ(field("name").routines->read_elem, &codec<std::string>::read);
  EXPECT_EQ(field("note").routines->write, &codec<std::optional<std::string>>::write);
}

// A field points to the routines of its member type and kind, one constant shared by all such
// fields; whether it is read whole and whether it resets are its own.
TEST(bind_table, fields_of_one_member_type_share_their_routines) {
  const auto field = order_field;
  EXPECT_EQ(field("name").routines, field("local").routines);
  EXPECT_EQ(field("note").routines, field("foreign").routines);
  EXPECT_NE(field("note").routines, field("name").routines);
  EXPECT_TRUE(field("name").read_whole);
  EXPECT_TRUE(field("local").read_whole);  // in no namespace
  EXPECT_TRUE(field("note").read_whole);
  EXPECT_FALSE(field("foreign").read_whole);  // in another namespace than the type's
  EXPECT_NE(field("foreign").routines->read_leaf, nullptr);
  EXPECT_EQ(field("origin").routines->read_leaf, nullptr);  // a complex value
  EXPECT_FALSE(field("origin").read_whole);
  // A single value that must occur resets nothing: its routines have no finalize (not compiled
  // for a member type whose fields all must occur).
  EXPECT_FALSE(field("name").resets);
  EXPECT_EQ(field("name").routines->finalize, nullptr);
  EXPECT_TRUE(field("note").resets);
  EXPECT_NE(field("note").routines->finalize, nullptr);
  EXPECT_TRUE(field("level").resets);                   // min(0): its default when absent
  EXPECT_EQ(field("id").routines->read_leaf, nullptr);  // attributes
  EXPECT_EQ(field("id").routines->finalize, nullptr);
  EXPECT_FALSE(field("id").resets);
  if constexpr (sizeof(void*) == 8) {
    EXPECT_EQ(sizeof(lather::bind::detail::field_match), 80u);
  }
}

TEST(bind_table, write_errors_name_the_field) {
  tt::order<0> a;
  tt::order<1> b;
  a.shade = b.shade = static_cast<tt::colour>(9);
  auto message = [](const auto& v) -> std::string {
    lather::xml::output out;
    lather::xml::writer w{out};
    try {
      lather::bind::write(w, tt::ns, "order", v);
    } catch (const lather::bind::error& e) {
      return e.what();
    }
    return {};
  };
  EXPECT_NE(message(b), "");
  EXPECT_EQ(message(a), message(b));
  a.shade = b.shade = tt::colour::red;
  a.tint = b.tint = static_cast<tt::colour>(9);
  EXPECT_NE(message(b), "");
  EXPECT_EQ(message(a), message(b));
}

}  // namespace

// describe<T>() from a table is the description meta<T> gives: the same own fields, with the
// same names, namespaces, occurrences and types; the base and the derived types named alike.
namespace {
void expect_same_description(const lather::bind::type_description& a,
                             const lather::bind::type_description& b) {
  SCOPED_TRACE(std::string(a.name));
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.ns, b.ns);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.anonymous, b.anonymous);
  EXPECT_EQ(a.abstract, b.abstract);
  EXPECT_EQ(a.base == nullptr, b.base == nullptr);
  if (a.base && b.base) {
    EXPECT_EQ(a.base().name, b.base().name);
  }
  ASSERT_EQ(a.derived.size(), b.derived.size());
  for (std::size_t i = 0; i < a.derived.size(); ++i)
    EXPECT_EQ(a.derived[i]().name, b.derived[i]().name);
  ASSERT_EQ(a.fields.size(), b.fields.size());
  for (std::size_t i = 0; i < a.fields.size(); ++i) {
    const lather::bind::field_description &x = a.fields[i], &y = b.fields[i];
    SCOPED_TRACE(i);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.ns, y.ns);
    EXPECT_EQ(x.kind, y.kind);
    EXPECT_EQ(x.min_occurs, y.min_occurs);
    EXPECT_EQ(x.max_occurs, y.max_occurs);
    EXPECT_EQ(x.nillable, y.nillable);
    EXPECT_EQ(x.required, y.required);
    EXPECT_EQ(x.has_default, y.has_default);
    EXPECT_EQ(x.default_value, y.default_value);
    EXPECT_EQ(x.polymorphic, y.polymorphic);
    EXPECT_EQ(x.type().kind, y.type().kind);
    EXPECT_EQ(x.type().name, y.type().name);
    EXPECT_EQ(x.type().ns, y.type().ns);
    ASSERT_EQ(x.alternatives.size(), y.alternatives.size());
    for (std::size_t k = 0; k < x.alternatives.size(); ++k) {
      EXPECT_EQ(x.alternatives[k].name, y.alternatives[k].name);
      EXPECT_EQ(x.alternatives[k].type().name, y.alternatives[k].type().name);
      EXPECT_EQ(x.alternatives[k].type().kind, y.alternatives[k].type().kind);
    }
  }
}
}  // namespace

TEST(bind_table, describes_the_type_as_the_template_binding) {
  using lather::bind::describe;
  expect_same_description(describe<tt::order<0>>(), describe<tt::order<1>>());
  expect_same_description(describe<tt::point<0>>(), describe<tt::point<1>>());
  expect_same_description(describe<tt::price<0>>(), describe<tt::price<1>>());
  expect_same_description(describe<tt::shape<0>>(), describe<tt::shape<1>>());
  expect_same_description(describe<tt::circle<0>>(), describe<tt::circle<1>>());
  // The table's own fields: the base's come from describe<shape>().
  EXPECT_EQ(describe<tt::circle<1>>().fields.size(), 1u);
  EXPECT_EQ(describe<tt::circle<1>>().base, &describe<tt::shape<1>>);
  EXPECT_EQ(describe<tt::order<1>>().fields[14].alternatives[0].type().name, "string");
}

// Extension (lather::bind::table::extension, LATHER_BIND_TABLE_DEFINE_EXTENSION): a derived
// type's table holds its own fields and its view takes the base's first. The same hierarchy
// bound three ways: K = 0 meta<T>, K = 1 tables repeating the bases' fields (.inherited()),
// K = 2 extension tables. Three levels across two namespaces, attributes and a choice in the
// base, a simple-content base, polymorphic members (xsi:type) and a derived type by value.
namespace tt {

template <int K>
struct item {
  item() = default;
  item(const item&) = default;
  item& operator=(const item&) = default;
  virtual ~item() = default;
  std::string code;                             // attribute, required
  std::optional<std::int32_t> rank;             // attribute
  std::string label;                            // element
  std::variant<std::string, std::int32_t> key;  // choice
  std::vector<std::string> tag;                 // 0..2
  friend bool operator==(const item&, const item&) = default;
};
template <int K>
struct part : item<K> {          // in urn:other
  std::optional<bool> spare;     // attribute
  std::optional<double> weight;  // element, in urn:other
  std::vector<colour> hue;       // in urn:t (in_namespace): not the type's namespace
};
template <int K>
struct bolt : part<K> {  // in urn:t again
  std::int32_t size = 0;
  std::optional<std::string> finish;  // attribute
};
template <int K>
struct amount {  // simple content
  amount() = default;
  amount(const amount&) = default;
  amount& operator=(const amount&) = default;
  virtual ~amount() = default;
  double value{};
  std::string unit;  // attribute
};
template <int K>
struct fee : amount<K> {
  std::optional<std::string> reason;  // attribute
};
template <int K>
struct kit {
  std::unique_ptr<item<K>> first;  // any of the three, by xsi:type
  std::unique_ptr<part<K>> second;
  part<K> fixed;  // by value: an xsi:type naming bolt is an error
  std::vector<bolt<K>> bolts;
  std::optional<fee<K>> charge;
};

}  // namespace tt

template <int K>
struct lather::meta<tt::item<K>> {
  using T = tt::item<K>;
  static constexpr std::string_view name = "item";
  static constexpr std::string_view ns = tt::ns;
  using derived = lather::types<tt::part<K>>;
  static constexpr auto fields =
      lather::fields(attribute("code", &T::code).required(), attribute("rank", &T::rank),
                     element("label", &T::label), choice(&T::key, {"text", "number"}),
                     element("tag", &T::tag).min(0).max(2));
};
template <int K>
struct lather::meta<tt::part<K>> {
  using T = tt::part<K>;
  static constexpr std::string_view name = "part";
  static constexpr std::string_view ns = tt::other;
  using base = tt::item<K>;
  using derived = lather::types<tt::bolt<K>>;
  static constexpr auto fields =
      lather::fields(attribute("spare", &T::spare), element("weight", &T::weight),
                     element("hue", &T::hue).in_namespace(tt::ns));
};
template <int K>
struct lather::meta<tt::bolt<K>> {
  using T = tt::bolt<K>;
  static constexpr std::string_view name = "bolt";
  static constexpr std::string_view ns = tt::ns;
  using base = tt::part<K>;
  static constexpr auto fields =
      lather::fields(element("size", &T::size), attribute("finish", &T::finish));
};
template <int K>
struct lather::meta<tt::amount<K>> {
  using T = tt::amount<K>;
  static constexpr std::string_view name = "amount";
  static constexpr std::string_view ns = tt::ns;
  using derived = lather::types<tt::fee<K>>;
  static constexpr auto fields =
      lather::fields(text(&T::value), attribute("unit", &T::unit).required());
};
template <int K>
struct lather::meta<tt::fee<K>> {
  using T = tt::fee<K>;
  static constexpr std::string_view name = "fee";
  static constexpr std::string_view ns = tt::other;
  using base = tt::amount<K>;
  static constexpr auto fields = lather::fields(attribute("reason", &T::reason));
};
template <int K>
struct lather::meta<tt::kit<K>> {
  using T = tt::kit<K>;
  static constexpr std::string_view name = "kit";
  static constexpr std::string_view ns = tt::ns;
  static constexpr auto fields = lather::fields(
      element("first", &T::first), element("second", &T::second), element("fixed", &T::fixed),
      element("bolts", &T::bolts), element("charge", &T::charge));
};

#define TT_TABLES(K)                \
  LATHER_BIND_TABLE(tt::item<K>);   \
  LATHER_BIND_TABLE(tt::part<K>);   \
  LATHER_BIND_TABLE(tt::bolt<K>);   \
  LATHER_BIND_TABLE(tt::amount<K>); \
  LATHER_BIND_TABLE(tt::fee<K>);    \
  LATHER_BIND_TABLE(tt::kit<K>);
TT_TABLES(1)
TT_TABLES(2)
TT_TABLES(3)
#undef TT_TABLES

namespace {
using namespace lather::bind::table;
constexpr auto key_names =
    alternatives<std::variant<std::string, std::int32_t>>({"text", "number"});
// The fields each level declares, at their offsets in the struct T whose table they are in: a
// macro, as lather-wsdl2cpp writes them out for each table. INH: .inherited() or nothing.
#define TT_ITEM(T, INH)                                                                         \
  attribute<std::string>(tt::ns, "code", offsetof(T, code)).required() INH,                     \
      attribute<std::optional<std::int32_t>>(tt::ns, "rank", offsetof(T, rank)) INH,            \
      element<std::string>(tt::ns, "label", offsetof(T, label)) INH,                            \
      choice<std::variant<std::string, std::int32_t>>(tt::ns, offsetof(T, key), key_names) INH, \
      element<std::vector<std::string>>(tt::ns, "tag", offsetof(T, tag)).min(0).max(2) INH
#define TT_PART(T, INH)                                                             \
  attribute<std::optional<bool>>(tt::other, "spare", offsetof(T, spare)) INH,       \
      element<std::optional<double>>(tt::other, "weight", offsetof(T, weight)) INH, \
      element<std::vector<tt::colour>>(tt::other, "hue", offsetof(T, hue))          \
          .in_namespace(tt::ns) INH
#define TT_BOLT(T)                                          \
  element<std::int32_t>(tt::ns, "size", offsetof(T, size)), \
      attribute<std::optional<std::string>>(tt::ns, "finish", offsetof(T, finish))
#define TT_AMOUNT(T, INH)                       \
  text<double>(tt::ns, offsetof(T, value)) INH, \
      attribute<std::string>(tt::ns, "unit", offsetof(T, unit)).required() INH
#define TT_FEE(T) attribute<std::optional<std::string>>(tt::other, "reason", offsetof(T, reason))
#define TT_KIT(K)                                                                               \
  fields(tt::ns,                                                                                \
         element<std::unique_ptr<tt::item<K>>>(tt::ns, "first", offsetof(tt::kit<K>, first)),   \
         element<std::unique_ptr<tt::part<K>>>(tt::ns, "second", offsetof(tt::kit<K>, second)), \
         element<tt::part<K>>(tt::ns, "fixed", offsetof(tt::kit<K>, fixed)),                    \
         element<std::vector<tt::bolt<K>>>(tt::ns, "bolts", offsetof(tt::kit<K>, bolts)),       \
         element<std::optional<tt::fee<K>>>(tt::ns, "charge", offsetof(tt::kit<K>, charge)))
#define TT_INHERITED .inherited()
// K = 1: the bases' fields repeated.
constexpr auto item1 = fields(tt::ns, TT_ITEM(tt::item<1>, ));
constexpr auto part1 =
    fields(tt::other, TT_ITEM(tt::part<1>, TT_INHERITED), TT_PART(tt::part<1>, ));
constexpr auto bolt1 = fields(tt::ns, TT_ITEM(tt::bolt<1>, TT_INHERITED),
                              TT_PART(tt::bolt<1>, TT_INHERITED), TT_BOLT(tt::bolt<1>));
constexpr auto amount1 = fields(tt::ns, TT_AMOUNT(tt::amount<1>, ));
constexpr auto fee1 = fields(tt::other, TT_AMOUNT(tt::fee<1>, TT_INHERITED), TT_FEE(tt::fee<1>));
constexpr auto kit1 = TT_KIT(1);
// K = 2: extensions.
constexpr auto item2 = fields(tt::ns, TT_ITEM(tt::item<2>, ));
constexpr auto part2 = extension(tt::other, 5, TT_PART(tt::part<2>, ));
constexpr auto bolt2 = extension(tt::ns, 8, TT_BOLT(tt::bolt<2>));
constexpr auto amount2 = fields(tt::ns, TT_AMOUNT(tt::amount<2>, ));
constexpr auto fee2 = extension(tt::other, 2, TT_FEE(tt::fee<2>));
constexpr auto kit2 = TT_KIT(2);
// K = 3: K = 2's tables (tt::T<3> is laid out as tt::T<2>, its members' types the same) in the
// file's views, as lather-wsdl2cpp's code files bind them; kit's own, whose members differ.
constexpr auto kit3 = TT_KIT(3);
struct lather_unit;
struct lather_views {
  LATHER_BIND_TABLE_VIEW(item2, tt::item<3>);
  LATHER_BIND_TABLE_VIEW(part2, tt::part<3>);
  LATHER_BIND_TABLE_VIEW(bolt2, tt::bolt<3>);
  LATHER_BIND_TABLE_VIEW(amount2, tt::amount<3>);
  LATHER_BIND_TABLE_VIEW(fee2, tt::fee<3>);
  LATHER_BIND_TABLE_VIEW(kit3, tt::kit<3>);
};
struct lather_state {
  LATHER_BIND_TABLE_STATE(item2);
  LATHER_BIND_TABLE_STATE_EXTENSION(part2);
  LATHER_BIND_TABLE_STATE_EXTENSION(bolt2);
  LATHER_BIND_TABLE_STATE(amount2);
  LATHER_BIND_TABLE_STATE_EXTENSION(fee2);
  LATHER_BIND_TABLE_STATE(kit3);
};
}  // namespace
LATHER_BIND_TABLE_FILE_VIEWS();
LATHER_BIND_TABLE_DEFINE_VIEW(item2, tt::item<3>)
LATHER_BIND_TABLE_DEFINE_VIEW_EXTENSION(part2, tt::part<3>)
LATHER_BIND_TABLE_DEFINE_VIEW_EXTENSION(bolt2, tt::bolt<3>)
LATHER_BIND_TABLE_DEFINE_VIEW(amount2, tt::amount<3>)
LATHER_BIND_TABLE_DEFINE_VIEW_EXTENSION(fee2, tt::fee<3>)
LATHER_BIND_TABLE_DEFINE_VIEW(kit3, tt::kit<3>)
LATHER_BIND_TABLE_DEFINE(item1, tt::item<1>)
LATHER_BIND_TABLE_DEFINE(part1, tt::part<1>)
LATHER_BIND_TABLE_DEFINE(bolt1, tt::bolt<1>)
LATHER_BIND_TABLE_DEFINE(amount1, tt::amount<1>)
LATHER_BIND_TABLE_DEFINE(fee1, tt::fee<1>)
LATHER_BIND_TABLE_DEFINE(kit1, tt::kit<1>)
LATHER_BIND_TABLE_DEFINE(item2, tt::item<2>)
LATHER_BIND_TABLE_DEFINE_EXTENSION(part2, tt::part<2>)
LATHER_BIND_TABLE_DEFINE_EXTENSION(bolt2, tt::bolt<2>)
LATHER_BIND_TABLE_DEFINE(amount2, tt::amount<2>)
LATHER_BIND_TABLE_DEFINE_EXTENSION(fee2, tt::fee<2>)
LATHER_BIND_TABLE_DEFINE(kit2, tt::kit<2>)

namespace {

template <int K>
outcome kit_round_trip(std::string_view doc) {
  lather::xml::reader r;
  r.reset(doc);
  EXPECT_EQ(r.next(), lather::xml::token::start_element);
  tt::kit<K> v;
  if (lather::bind::error_info e = lather::bind::read(r, v)) return {e.message, {}};
  lather::xml::output out;
  lather::xml::writer w{out};
  lather::bind::write(w, tt::ns, "kit", v);
  w.end_document();
  return {{}, std::string(out.view())};
}

// The extension's view is the view of the table that repeats the base's fields, field by field,
// but for the fields read whole there and not here: returns how many.
int expect_same_view(const lather::bind::detail::complex_vt& a,
                     const lather::bind::detail::complex_vt& b) {
  int not_whole = 0;
  SCOPED_TRACE(std::string(a.name));
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.ns, b.ns);
  EXPECT_EQ(a.text_field, b.text_field);
  EXPECT_EQ(a.finalize, b.finalize);
  EXPECT_EQ(a.base().name, b.base().name);
  EXPECT_EQ(a.field_count, b.field_count);
  for (std::uint32_t i = 0; i < a.field_count && i < b.field_count; ++i) {
    const lather::bind::detail::field_match &x = a.fields[i], &y = b.fields[i];
    SCOPED_TRACE(i);
    EXPECT_EQ(x.name(), y.name());
    EXPECT_EQ(x.ns, y.ns);
    EXPECT_EQ(x.kind, y.kind);
    EXPECT_EQ(x.offset, y.offset);
    EXPECT_EQ(x.min_occurs, y.min_occurs);
    EXPECT_EQ(x.max_occurs, y.max_occurs);
    EXPECT_EQ(x.alternative_count, y.alternative_count);
    EXPECT_EQ(x.next_element, y.next_element);
    EXPECT_EQ(x.attribute_at_or_after, y.attribute_at_or_after);
    EXPECT_EQ(x.required, y.required);
    EXPECT_EQ(x.has_default, y.has_default);
    EXPECT_EQ(x.nillable, y.nillable);
    EXPECT_EQ(x.in_type_ns, y.in_type_ns);
    EXPECT_EQ(x.routines, y.routines);
    EXPECT_EQ(x.resets, y.resets);
    if (x.read_whole) {
      EXPECT_TRUE(y.read_whole);
      EXPECT_EQ(x.leaf_in_type_ns, y.leaf_in_type_ns);
    } else {
      not_whole += y.read_whole;
    }
  }
  return not_whole;
}

TEST(bind_table, extension_views_are_the_repeated_tables_views) {
  using lather::bind::detail::vt_of;
  EXPECT_EQ(expect_same_view(vt_of<tt::part<2>>(), vt_of<tt::part<1>>()), 0);
  EXPECT_EQ(expect_same_view(vt_of<tt::fee<2>>(), vt_of<tt::fee<1>>()), 0);
  // A base's simple field is read whole where every level from the one that declares it has
  // its namespace (or it has none): bolt (urn:t) under part (urn:other) reads label, tag, hue
  // (urn:t) the general way, which the round trips below show to read the same.
  EXPECT_EQ(expect_same_view(vt_of<tt::bolt<2>>(), vt_of<tt::bolt<1>>()), 3);
  EXPECT_FALSE(vt_of<tt::bolt<2>>().fields[2].read_whole);
  EXPECT_TRUE(vt_of<tt::item<2>>().fields[2].read_whole);
  // The same in the file's views.
  EXPECT_EQ(expect_same_view(vt_of<tt::part<3>>(), vt_of<tt::part<1>>()), 0);
  EXPECT_EQ(expect_same_view(vt_of<tt::bolt<3>>(), vt_of<tt::bolt<1>>()), 3);
  EXPECT_EQ(&vt_of<tt::part<3>>(), &vt_of<tt::part<3>>());
}

constexpr std::string_view kit_doc =
    R"(<kit xmlns="urn:t" xmlns:o="urn:other" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">)"
    R"(<first xsi:type="bolt" code="b1" rank="2" spare="true" finish="matt"><label>L</label>)"
    R"(<number>4</number><tag>a</tag><tag>b</tag><o:weight>1.5</o:weight><hue>RED</hue>)"
    R"(<hue>GREEN</hue><size>8</size></first>)"
    R"(<second xsi:type="bolt" code="b2"><label/><text>t</text><size>9</size></second>)"
    R"(<fixed code="p"><label>fx</label><text/><o:weight>2</o:weight></fixed>)"
    R"(<bolts code="x"><label/><number>1</number><size>1</size></bolts>)"
    R"(<bolts code="y" finish="f"><label/><number>2</number><hue>RED</hue><size>2</size></bolts>)"
    R"(<charge unit="EUR" reason="late">2.5</charge></kit>)";

TEST(bind_table, extensions_read_and_write_as_the_template_binding) {
  const outcome b = kit_round_trip<2>(kit_doc);
  ASSERT_EQ(b.error, "");
  EXPECT_NE(b.xml.find(R"(type="ns1:bolt")"), std::string::npos) << b.xml;
  EXPECT_NE(b.xml.find(R"(reason="late">2.5</)"), std::string::npos) << b.xml;
  EXPECT_NE(b.xml.find(R"(finish="matt")"), std::string::npos) << b.xml;
  for (std::string_view doc :
       {kit_doc,
        std::string_view(R"(<kit xmlns="urn:t"><first code="i"><label/><text/></first>)"
                         R"(<fixed code="p"><label/><number>3</number></fixed></kit>)"),
        std::string_view(
            R"(<kit xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">)"
            R"(<first xsi:type="o:part" xmlns:o="urn:other" code="i"><label/><text/></first>)"
            R"(<fixed code="p"><label/><number>3</number></fixed><bolts code="z"><label/>)"
            R"(<text/><size>0</size></bolts></kit>)")}) {
    const outcome a = kit_round_trip<0>(doc), one = kit_round_trip<1>(doc),
                  two = kit_round_trip<2>(doc), three = kit_round_trip<3>(doc);
    EXPECT_EQ(two.error, "") << doc;
    EXPECT_EQ(a.error, two.error) << doc;
    EXPECT_EQ(a.xml, two.xml) << doc;
    EXPECT_EQ(one.xml, two.xml) << doc;
    EXPECT_EQ(three.error, "") << doc;
    EXPECT_EQ(three.xml, two.xml) << doc;
  }
}

TEST(bind_table, extensions_fail_as_the_template_binding) {
  const std::string_view bad[] = {
      // a base's required attribute, in a derived type's element
      R"(<kit xmlns="urn:t"><fixed><label/><text/></fixed></kit>)",
      // a derived type's field before the base's (schema order), and one too many of the base's
      R"(<kit xmlns="urn:t" xmlns:o="urn:other"><fixed code="p"><o:weight>1</o:weight><label/>)"
      R"(<text/></fixed></kit>)",
      R"(<kit xmlns="urn:t"><fixed code="p"><label/><text/><tag/><tag/><tag/></fixed></kit>)",
      // a missing choice of the base, a missing element of the derived type
      R"(<kit xmlns="urn:t"><fixed code="p"><label/></fixed></kit>)",
      R"(<kit xmlns="urn:t"><fixed code="p"><label/><text/></fixed><bolts code="b"><label/>)"
      R"(<text/></bolts></kit>)",
      // bad values in each level
      R"(<kit xmlns="urn:t"><fixed code="p" rank="x"><label/><text/></fixed></kit>)",
      R"(<kit xmlns="urn:t" xmlns:o="urn:other"><fixed code="p" spare="maybe"><label/><text/>)"
      R"(</fixed></kit>)",
      R"(<kit xmlns="urn:t"><fixed code="p"><label/><text/><hue>BLUE</hue></fixed></kit>)",
      R"(<kit xmlns="urn:t"><fixed code="p"><label/><text/></fixed><bolts code="b"><label/>)"
      R"(<text/><size>big</size></bolts></kit>)",
      R"(<kit xmlns="urn:t"><fixed code="p"><label/><text/></fixed><charge>1</charge></kit>)",
      R"(<kit xmlns="urn:t"><fixed code="p"><label/><text/></fixed><charge unit="E">z</charge></kit>)",
      // xsi:type: a derived type held by value, the base where a derived type is declared, unknown
      R"(<kit xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><fixed)"
      R"( xsi:type="bolt" code="p"><label/><text/><size>1</size></fixed></kit>)",
      R"(<kit xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><second)"
      R"( xsi:type="item" code="p"><label/><text/></second></kit>)",
      R"(<kit xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><first)"
      R"( xsi:type="nut" code="p"><label/><text/></first></kit>)",
  };
  for (std::string_view doc : bad) {
    const outcome a = kit_round_trip<0>(doc), one = kit_round_trip<1>(doc),
                  two = kit_round_trip<2>(doc), three = kit_round_trip<3>(doc);
    EXPECT_NE(two.error, "") << doc;
    EXPECT_EQ(a.error, two.error) << doc;
    EXPECT_EQ(one.error, two.error) << doc;
    EXPECT_EQ(three.error, two.error) << doc;
  }
}

}  // namespace

TEST(bind_table, describes_extensions_as_the_template_binding) {
  using lather::bind::describe;
  expect_same_description(describe<tt::part<0>>(), describe<tt::part<2>>());
  expect_same_description(describe<tt::bolt<0>>(), describe<tt::bolt<2>>());
  expect_same_description(describe<tt::fee<0>>(), describe<tt::fee<2>>());
  expect_same_description(describe<tt::fee<1>>(), describe<tt::fee<2>>());
  EXPECT_EQ(describe<tt::fee<2>>().kind, lather::bind::type_kind::simple_content);
  EXPECT_EQ(describe<tt::bolt<2>>().base, &describe<tt::part<2>>);
  // In the file's views.
  expect_same_description(describe<tt::part<2>>(), describe<tt::part<3>>());
  expect_same_description(describe<tt::bolt<2>>(), describe<tt::bolt<3>>());
  expect_same_description(describe<tt::fee<2>>(), describe<tt::fee<3>>());
  expect_same_description(describe<tt::kit<2>>(), describe<tt::kit<3>>());
  EXPECT_EQ(describe<tt::bolt<3>>().base, &describe<tt::part<3>>);
  EXPECT_EQ(&describe<tt::kit<3>>(), &describe<tt::kit<3>>());
}

// An enumeration's codec is data (its names looked up by the library) where its values are 0,
// 1, ... in meta<E>::values' order, else its own functions; LATHER_BIND_ENUM(E) and
// LATHER_BIND_ENUM_DEFINE(E) define it once for the program. All three read and write alike.
namespace tt {
enum class grade : std::int8_t { low = -1, high = 5 };  // not 0, 1: its own functions
enum class tier : std::uint16_t { bronze, silver, gold };
struct graded {
  grade g = grade::low;
  std::optional<grade> rank;  // attribute
  std::vector<tier> tiers;
  std::optional<tier> best;   // attribute, default "gold"
  colour c = colour::red;     // enum_codec_of<colour>: no LATHER_BIND_ENUM
  tier level = tier::bronze;  // default "silver"
};
}  // namespace tt
template <>
struct lather::meta<tt::grade> {
  static constexpr std::string_view name = "grade";
  static constexpr std::string_view ns = tt::ns;
  static constexpr auto values =
      enum_values<tt::grade>({{tt::grade::low, "LOW"}, {tt::grade::high, "HIGH"}});
};
LATHER_BIND_ENUM(tt::grade);
template <>
struct lather::meta<tt::tier> {
  static constexpr std::string_view name = "tier";
  static constexpr std::string_view ns = tt::ns;
  static constexpr auto values = enum_values<tt::tier>(
      {{tt::tier::bronze, "bronze"}, {tt::tier::silver, "silver"}, {tt::tier::gold, "gold"}});
};
LATHER_BIND_ENUM(tt::tier);
template <>
struct lather::meta<tt::graded> {
  static constexpr std::string_view name = "graded";
  static constexpr std::string_view ns = tt::ns;
};
LATHER_BIND_TABLE(tt::graded);
LATHER_BIND_ENUM_DEFINE(tt::grade);
LATHER_BIND_ENUM_DEFINE(tt::tier);
namespace {
using G = tt::graded;
constexpr auto graded_fields = fields(
    tt::ns, element<tt::grade>(tt::ns, "g", offsetof(G, g)),
    attribute<std::optional<tt::grade>>(tt::ns, "rank", offsetof(G, rank)),
    element<std::vector<tt::tier>>(tt::ns, "tiers", offsetof(G, tiers)),
    attribute<std::optional<tt::tier>>(tt::ns, "best", offsetof(G, best)).default_value("gold"),
    element<tt::colour>(tt::ns, "c", offsetof(G, c)),
    element<tt::tier>(tt::ns, "level", offsetof(G, level)).min(0).default_value("silver"));
}  // namespace
LATHER_BIND_TABLE_DEFINE(graded_fields, tt::graded)

namespace {
TEST(bind_table, enumerations_read_and_write_through_their_codecs) {
  using lather::bind::detail::enum_codec_ref;
  EXPECT_NE(enum_codec_ref<tt::grade>().parse, nullptr);
  EXPECT_EQ(enum_codec_ref<tt::tier>().parse, nullptr);
  EXPECT_EQ(&enum_codec_ref<tt::tier>(), &lather::bind::detail::enum_defined<tt::tier>::codec);
  EXPECT_EQ(enum_codec_ref<tt::colour>().names,
            lather::bind::detail::enum_names_of<tt::colour>.data());
  EXPECT_EQ(lather::bind::describe<tt::tier>().enum_values.size(), 3u);
  auto read = [](std::string_view doc, tt::graded& v) {
    lather::xml::reader r;
    r.reset(doc);
    EXPECT_EQ(r.next(), lather::xml::token::start_element);
    return lather::bind::read(r, v).message;
  };
  auto write = [](const tt::graded& v) {
    lather::xml::output out;
    lather::xml::writer w{out};
    try {
      lather::bind::write(w, tt::ns, "graded", v);
    } catch (const lather::bind::error& e) {
      return std::string(e.what());
    }
    w.end_document();
    return std::string(out.view());
  };
  tt::graded v;
  ASSERT_EQ(read(R"(<graded xmlns="urn:t" rank=" HIGH "><g>HIGH</g><tiers>gold</tiers>)"
                 R"(<tiers> bronze</tiers><c>GREEN</c></graded>)",
                 v),
            "");
  EXPECT_EQ(v.g, tt::grade::high);
  EXPECT_EQ(v.rank, tt::grade::high);
  EXPECT_EQ(v.tiers, (std::vector<tt::tier>{tt::tier::gold, tt::tier::bronze}));
  EXPECT_EQ(v.best, tt::tier::gold);
  EXPECT_EQ(v.c, tt::colour::green);
  EXPECT_EQ(v.level, tt::tier::silver);
  EXPECT_EQ(write(v),
            R"(<ns1:graded xmlns:ns1="urn:t" rank="HIGH" best="gold"><ns1:g>HIGH</ns1:g>)"
            R"(<ns1:tiers>gold</ns1:tiers><ns1:tiers>bronze</ns1:tiers><ns1:c>GREEN</ns1:c>)"
            R"(<ns1:level>silver</ns1:level></ns1:graded>)");
  EXPECT_EQ(read(R"(<graded xmlns="urn:t"><g>MID</g></graded>)", v),
            "/graded/g: \"MID\" is not a value of the enumeration grade");
  EXPECT_EQ(read(R"(<graded xmlns="urn:t"><g>LOW</g><tiers>tin</tiers></graded>)", v),
            "/graded/tiers[1]: \"tin\" is not a value of the enumeration tier");
  EXPECT_EQ(read(R"(<graded xmlns="urn:t" best="x"><g>LOW</g></graded>)", v),
            "/graded/@best: \"x\" is not a value of the enumeration tier");
  v = {};
  v.level = static_cast<tt::tier>(7);
  EXPECT_NE(write(v).find("/graded/level"), std::string::npos) << write(v);
  v = {};
  v.g = static_cast<tt::grade>(2);
  EXPECT_NE(write(v).find("/graded/g"), std::string::npos) << write(v);
}
}  // namespace

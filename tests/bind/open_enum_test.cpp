// lather::open_enum<E> and read_options::keep_unknown_enums: an enumeration value the schema
// does not list, read through meta<T> (K = 0) and through a table (K = 1) on every path an
// enumeration takes (an attribute, a plain, repeated and nillable element, an xsd:list, simple
// content), kept where the option says so and written back as received; an error otherwise.
#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "lather/bind/table.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace oe {

inline constexpr std::string_view ns = "urn:oe";

enum class colour { red, green };
enum class shade : std::uint8_t { light = 1, dark = 5 };  // not 0, 1, ...: E's own functions

template <int K>
struct tint {  // simple content
  lather::open_enum<shade> value;
  std::string unit;
};

template <int K>
struct paint {
  std::optional<lather::open_enum<colour>> trim;  // attribute
  lather::open_enum<colour> main;
  std::vector<lather::open_enum<colour>> others;
  lather::nillable<lather::open_enum<shade>> gloss;
  lather::xsd::list<lather::open_enum<colour>> mix;
  std::optional<tint<K>> tone;
};

}  // namespace oe

template <>
struct lather::meta<oe::colour> {
  static constexpr std::string_view name = "colour";
  static constexpr std::string_view ns = oe::ns;
  static constexpr auto values =
      enum_values<oe::colour>({{oe::colour::red, "red"}, {oe::colour::green, "green"}});
};
template <>
struct lather::meta<oe::shade> {
  static constexpr std::string_view name = "shade";
  static constexpr std::string_view ns = oe::ns;
  static constexpr auto values =
      enum_values<oe::shade>({{oe::shade::light, "light"}, {oe::shade::dark, "dark"}});
};
template <>
struct lather::meta<oe::tint<0>> {
  using T = oe::tint<0>;
  static constexpr std::string_view name = "tint";
  static constexpr std::string_view ns = oe::ns;
  static constexpr auto fields = std::tuple{text(&T::value), attribute("unit", &T::unit)};
};
template <>
struct lather::meta<oe::paint<0>> {
  using T = oe::paint<0>;
  static constexpr std::string_view name = "paint";
  static constexpr std::string_view ns = oe::ns;
  static constexpr auto fields = std::tuple{
      attribute("trim", &T::trim), element("main", &T::main), element("other", &T::others),
      element("gloss", &T::gloss), element("mix", &T::mix),   element("tone", &T::tone)};
};
template <>
struct lather::meta<oe::tint<1>> {
  static constexpr std::string_view name = "tint";
  static constexpr std::string_view ns = oe::ns;
};
template <>
struct lather::meta<oe::paint<1>> {
  static constexpr std::string_view name = "paint";
  static constexpr std::string_view ns = oe::ns;
};
LATHER_BIND_TABLE(oe::tint<1>);
LATHER_BIND_TABLE(oe::paint<1>);

#pragma GCC diagnostic ignored "-Winvalid-offsetof"
namespace {
LATHER_BIND_TABLE_FILE();
using T1 = oe::tint<1>;
using P1 = oe::paint<1>;
using lather::open_enum;
using oe::colour;
using oe::shade;
constexpr auto tint_fields = fields(oe::ns, text<open_enum<shade>>(oe::ns, offsetof(T1, value)),
                                    attribute<std::string>(oe::ns, "unit", offsetof(T1, unit)));
constexpr auto paint_fields =
    fields(oe::ns, attribute<std::optional<open_enum<colour>>>(oe::ns, "trim", offsetof(P1, trim)),
           element<open_enum<colour>>(oe::ns, "main", offsetof(P1, main)),
           element<std::vector<open_enum<colour>>>(oe::ns, "other", offsetof(P1, others)),
           element<lather::nillable<open_enum<shade>>>(oe::ns, "gloss", offsetof(P1, gloss)),
           element<lather::xsd::list<open_enum<colour>>>(oe::ns, "mix", offsetof(P1, mix)),
           element<std::optional<T1>>(oe::ns, "tone", offsetof(P1, tone)));
}  // namespace
LATHER_BIND_TABLE_DEFINE(tint_fields, oe::tint<1>)
LATHER_BIND_TABLE_DEFINE(paint_fields, oe::paint<1>)

namespace {

struct outcome {
  std::string error;  // "" on success
  std::string xml;    // the value written back
};

template <int K>
outcome round_trip(std::string_view doc, const lather::bind::read_options& o,
                   oe::paint<K>* keep = nullptr) {
  lather::xml::reader r;
  r.reset(doc);
  EXPECT_EQ(r.next(), lather::xml::token::start_element);
  oe::paint<K> v;
  if (lather::bind::error_info e = lather::bind::read(r, v, o)) return {e.message, {}};
  lather::xml::output out;
  lather::xml::writer w{out};
  lather::bind::write(w, oe::ns, "paint", v);
  w.end_document();
  if (keep != nullptr) *keep = std::move(v);
  return {{}, std::string(out.view())};
}

std::string doc(std::string_view trim, std::string_view main, std::string_view other,
                std::string_view gloss, std::string_view mix, std::string_view tone) {
  return std::string(R"(<ns1:paint xmlns:ns1="urn:oe" trim=")") + std::string(trim) +
         R"("><ns1:main>)" + std::string(main) +
         "</ns1:main><ns1:other>red</ns1:other><ns1:other>" + std::string(other) +
         "</ns1:other><ns1:gloss>" + std::string(gloss) + "</ns1:gloss><ns1:mix>" +
         std::string(mix) + R"(</ns1:mix><ns1:tone unit="u">)" + std::string(tone) +
         "</ns1:tone></ns1:paint>";
}

lather::bind::read_options keep() {
  lather::bind::read_options o;
  o.keep_unknown_enums = true;
  return o;
}

// Both bindings give the same outcome; returns it.
outcome both(std::string_view d, const lather::bind::read_options& o) {
  const outcome a = round_trip<0>(d, o), b = round_trip<1>(d, o);
  EXPECT_EQ(a.error, b.error) << d;
  EXPECT_EQ(a.xml, b.xml) << d;
  return a;
}

TEST(OpenEnum, ListedValuesRoundTrip) {
  const std::string d = doc("green", "red", "green", "dark", "red green", "light");
  const outcome o = both(d, {});
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.xml, d);
}

TEST(OpenEnum, StrictByDefaultAsAServiceIs) {
  EXPECT_FALSE(lather::bind::read_options{}.keep_unknown_enums);
  EXPECT_TRUE(lather::bind::client_read_options().keep_unknown_enums);
  EXPECT_EQ(both(doc("green", "blue", "red", "dark", "red", "light"), {}).error,
            "/paint/main: \"blue\" is not a value of the enumeration colour");
  EXPECT_EQ(both(doc("mauve", "red", "red", "dark", "red", "light"), {}).error,
            "/paint/@trim: \"mauve\" is not a value of the enumeration colour");
  EXPECT_EQ(both(doc("red", "red", "red", "matt", "red", "light"), {}).error,
            "/paint/gloss: \"matt\" is not a value of the enumeration shade");
  EXPECT_NE(both(doc("red", "red", "red", "dark", "red cyan", "light"), {}).error, "");
  EXPECT_NE(both(doc("red", "red", "red", "dark", "red", "dim"), {}).error, "");
}

TEST(OpenEnum, UnknownValuesKeptOnEveryPathAndWrittenBackAsReceived) {
  const std::string d = doc("mauve", "blue", "teal", "matt", "red cyan green", "dim");
  const outcome o = both(d, keep());
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.xml, d);
}

TEST(OpenEnum, AnUnknownValueComparesUnequalToEveryEnumerator) {
  const std::string d = doc("green", "blue", "red", "matt", "cyan", "light");
  oe::paint<1> v1;
  oe::paint<0> v0;
  ASSERT_EQ(round_trip<1>(d, keep(), &v1).error, "");
  ASSERT_EQ(round_trip<0>(d, keep(), &v0).error, "");
  for (const lather::open_enum<colour>& m : {v0.main, v1.main}) {
    EXPECT_FALSE(m.known());
    EXPECT_EQ(m.text(), "blue");
    EXPECT_NE(m, colour::red);
    EXPECT_NE(m, colour::green);
    switch (m) {
      case colour::red:
      case colour::green:
        ADD_FAILURE() << "an unknown value switched to an enumerator";
        break;
      default:
        break;
    }
    EXPECT_EQ(static_cast<int>(colour(m)), 2);  // the least value no enumerator has
  }
  EXPECT_EQ(static_cast<int>(shade(*v1.gloss)), 0);
  EXPECT_EQ(v1.gloss->text(), "matt");
  EXPECT_TRUE(v1.others[0] == colour::red);
  EXPECT_TRUE(v1.others[0].known());
  EXPECT_TRUE(v1.others[0].text().empty());
  EXPECT_EQ(v1.mix.items.at(0).text(), "cyan");
  // Set from C++: a listed value again, its text dropped.
  v1.main = colour::green;
  EXPECT_TRUE(v1.main.known());
  EXPECT_EQ(v1.main, colour::green);
  EXPECT_EQ(v1.main.text(), "");
  EXPECT_EQ(lather::open_enum<colour>::unknown("x"), lather::open_enum<colour>::unknown("x"));
  EXPECT_NE(lather::open_enum<colour>::unknown("x"), lather::open_enum<colour>::unknown("y"));
  EXPECT_EQ(lather::open_enum<colour>(colour::red), lather::open_enum<colour>(colour::red));
}

TEST(OpenEnum, AReusedDestinationForgetsAnEarlierUnknownValue) {
  const std::string unknown = doc("mauve", "blue", "teal", "matt", "cyan", "dim");
  const std::string listed = doc("red", "green", "green", "dark", "green", "light");
  lather::xml::reader r;
  oe::paint<1> v;
  for (const std::string* d : {&unknown, &listed}) {
    r.reset(*d);
    ASSERT_EQ(r.next(), lather::xml::token::start_element);
    ASSERT_FALSE(lather::bind::read(r, v, keep()));
  }
  EXPECT_TRUE(v.main.known());
  EXPECT_EQ(v.main, colour::green);
  EXPECT_TRUE(v.main.text().empty());
  EXPECT_EQ(*v.trim, colour::red);
  EXPECT_EQ(v.tone->value, shade::light);
}

TEST(OpenEnum, DescribedAsItsEnumeration) {
  const auto& d = lather::bind::describe<oe::paint<1>>();
  ASSERT_GE(d.fields.size(), 2u);
  EXPECT_EQ(d.fields[1].type().name, "colour");
}

}  // namespace

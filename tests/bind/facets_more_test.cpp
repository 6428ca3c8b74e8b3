// Facets beyond a member's own (docs/binding.md, "Facets"): a table choice's alternatives
// (alternatives() with each alternative's facets) and a meta<T> choice's (choice(m, names,
// facets), the facets static members of the meta<T>, as in a header), checked on read and on
// write when on; an xsd:union's member types (facets::members: their lexical forms by their
// facet_value and built_in) and its own patterns; and read_options::lenient_dates on the items
// of an xsd:list of dates.
#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "lather/bind/describe.hpp"
#include "lather/bind/facets.hpp"
#include "lather/bind/table.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace fm {

inline constexpr std::string_view ns = "urn:fm";

struct pick {
  // code: length 3, pattern [A-Z]{3}; count: 1..9; note: no facets
  std::variant<std::string, std::int32_t, std::string> what;
  // repeated: each item's alternative checked
  std::vector<std::variant<std::string, std::int32_t>> more;
  std::optional<std::string> port;  // a union of 1..65535 and the pattern [a-z]+
};

struct log {
  lather::xsd::list<lather::xsd::date_time> at;
  std::optional<lather::xsd::list<lather::xsd::date>> days;  // attribute
};

struct mpick {  // pick's choices, bound by a meta<T>
  std::variant<std::string, std::int32_t, std::string> what;
  std::vector<std::variant<std::string, lather::nillable<std::int32_t>>> more;
};

}  // namespace fm

template <>
struct lather::meta<fm::mpick> {
  using T = fm::mpick;
  static constexpr std::string_view name = "mpick";
  static constexpr std::string_view ns = fm::ns;
  // Static members: external linkage, as lather-wsdl2cpp writes them in a header.
  static constinit inline lather::bind::pattern code_patterns[] = {"[A-Z]{3}"};
  static constexpr lather::bind::facets code{.length = 3, .patterns = code_patterns};
  static constexpr lather::bind::facets count{
      .value = lather::bind::facet_value::decimal, .min_inclusive = "1", .max_inclusive = "9"};
  static constexpr auto fields =
      std::tuple{choice(&T::what, {"code", "count", "note"}, {&code, &count, nullptr}),
                 choice(&T::more, {"code", "count"}, {&code, &count})};
};

template <>
struct lather::meta<fm::pick> {
  static constexpr std::string_view name = "pick";
  static constexpr std::string_view ns = fm::ns;
};
template <>
struct lather::meta<fm::log> {
  static constexpr std::string_view name = "log";
  static constexpr std::string_view ns = fm::ns;
  static constexpr auto fields =
      std::tuple{element("at", &fm::log::at), attribute("days", &fm::log::days)};
};
LATHER_BIND_TABLE(fm::pick);

#pragma GCC diagnostic ignored "-Winvalid-offsetof"
namespace {
LATHER_BIND_TABLE_FILE();
namespace lb = lather::bind;
using P = fm::pick;
constinit lb::pattern code_patterns[] = {"[A-Z]{3}"};
constexpr lb::facets code_facets{.length = 3, .patterns = code_patterns};
constexpr lb::facets count_facets{
    .value = lb::facet_value::decimal, .min_inclusive = "1", .max_inclusive = "9"};
constexpr lb::facets port_number{.value = lb::facet_value::decimal,
                                 .fraction_digits = 0,
                                 .min_inclusive = "1",
                                 .max_inclusive = "65535"};
constinit lb::pattern port_name_patterns[] = {"[a-z]+"};
constexpr lb::facets port_name{.patterns = port_name_patterns};
constexpr const lb::facets* port_members[] = {&port_number, &port_name};
constinit lb::pattern port_patterns[] = {"[^x]*"};  // the union's own: no 'x'
constexpr lb::facets port_facets{
    .space = lb::white_space::collapse, .patterns = port_patterns, .members = port_members};
constexpr auto what_names = alternatives<decltype(P::what)>({"code", "count", "note"},
                                                            {&code_facets, &count_facets, nullptr});
constexpr auto more_names =
    alternatives<decltype(P::more)>({"code", "count"}, {&code_facets, &count_facets});
constexpr auto pick_fields = fields(
    fm::ns, choice<decltype(P::what)>(fm::ns, offsetof(P, what), what_names),
    choice<decltype(P::more)>(fm::ns, offsetof(P, more), more_names),
    element<std::optional<std::string>>(fm::ns, "port", offsetof(P, port)).facets(port_facets));
}  // namespace
LATHER_BIND_TABLE_DEFINE(pick_fields, fm::pick)

namespace {

lb::error_info read_doc(std::string_view doc, bool validate, fm::pick* out = nullptr) {
  lather::xml::reader r;
  r.reset(doc);
  EXPECT_EQ(r.next(), lather::xml::token::start_element);
  fm::pick v;
  lb::read_options o;
  o.validate_facets = validate;
  lb::error_info e = lb::read(r, v, o);
  if (out) *out = std::move(v);
  return e;
}

std::string pick_doc(std::string_view what, std::string_view more = "",
                     std::string_view port = "") {
  return R"(<pick xmlns="urn:fm">)" + std::string(what) + std::string(more) +
         (port.empty() ? "" : "<port>" + std::string(port) + "</port>") + "</pick>";
}

/// `v` written as its type's element with write_options::validate_facets `validate`.
template <class T>
lb::error_info write_checked(const T& v, bool validate) {
  lather::xml::output out;
  lather::xml::writer w{out};
  try {
    lb::write(w, fm::ns, lather::meta<T>::name, v, lb::write_options{.validate_facets = validate});
  } catch (const lb::error& e) {
    return e.info();
  }
  return {};
}

/// `v` (pick or mpick, its `what` "ABC" and its `more` valid) written with its alternatives
/// checked, then with alternatives outside their facets.
template <class T>
void expect_alternatives_checked_on_write(T v) {
  EXPECT_FALSE(write_checked(v, true));
  v.what.template emplace<2>("free text");  // no facets
  EXPECT_FALSE(write_checked(v, true));
  v.what.template emplace<1>(0);
  EXPECT_FALSE(write_checked(v, false));
  std::string path = "/";  // appended: "literal" + std::string&& trips GCC 12's -Wrestrict
  path.append(lather::meta<T>::name);
  lb::error_info e = write_checked(v, true);
  EXPECT_EQ(e.code, lb::errc::facet_violation);
  EXPECT_EQ(e.message, path + "/count: \"0\" violates minInclusive 1");
  v.what.template emplace<0>("ABC");
  v.more.emplace_back(std::string("abc"));
  e = write_checked(v, true);
  EXPECT_EQ(e.code, lb::errc::facet_violation);
  EXPECT_EQ(e.message, path + "/code[" + std::to_string(v.more.size()) +
                           "]: \"abc\" violates pattern [A-Z]{3}");
}

TEST(bind_facets_choice, valid_alternatives_read_with_validation_on_and_off) {
  for (bool validate : {false, true}) {
    fm::pick v;
    EXPECT_FALSE(
        read_doc(pick_doc("<code>ABC</code>", "<count>9</count><code>XYZ</code>"), validate, &v));
    EXPECT_EQ(v.what.index(), 0u);
    EXPECT_EQ(std::get<0>(v.what), "ABC");
    ASSERT_EQ(v.more.size(), 2u);
    EXPECT_EQ(std::get<1>(v.more[0]), 9);
    EXPECT_FALSE(read_doc(pick_doc("<count>1</count>"), validate, &v));
    EXPECT_EQ(std::get<1>(v.what), 1);
    // An alternative without facets takes any text, on and off.
    EXPECT_FALSE(read_doc(pick_doc("<note>anything at all</note>"), validate, &v));
    EXPECT_EQ(v.what.index(), 2u);
  }
}

TEST(bind_facets_choice, each_alternative_checked_against_its_own_facets_when_on) {
  struct bad {
    std::string doc, message;
  };
  const bad cases[] = {
      {pick_doc("<code>ABCD</code>"), "/pick/code: \"ABCD\" violates length 3 (4 characters)"},
      {pick_doc("<code>abc</code>"), "/pick/code: \"abc\" violates pattern [A-Z]{3}"},
      {pick_doc("<count>10</count>"), "/pick/count: \"10\" violates maxInclusive 9"},
      {pick_doc("<count>1</count>", "<code>ABC</code><count>0</count>"),
       "/pick/count[2]: \"0\" violates minInclusive 1"},
      {pick_doc("<count>1</count>", "<code>AB</code>"),
       "/pick/code[1]: \"AB\" violates length 3 (2 characters)"},
  };
  for (const bad& b : cases) {
    EXPECT_FALSE(read_doc(b.doc, false)) << b.doc;  // off: read as it is
    const lb::error_info e = read_doc(b.doc, true);
    EXPECT_EQ(e.code, lb::errc::facet_violation) << b.doc;
    EXPECT_EQ(e.message, b.message) << b.doc;
  }
}

TEST(bind_facets_choice, alternatives_checked_on_write_when_on) {
  fm::pick v;
  v.what.emplace<0>("ABC");
  v.more = {std::int32_t{3}, std::string("XYZ")};
  expect_alternatives_checked_on_write(v);
}

TEST(bind_facets_choice, described_with_each_alternatives_facets) {
  const lb::type_description& d = lb::describe<fm::pick>();
  ASSERT_EQ(d.fields.size(), 3u);
  EXPECT_EQ(d.fields[0].constraints, nullptr);  // a choice's own: none
  ASSERT_EQ(d.fields[0].alternatives.size(), 3u);
  EXPECT_EQ(d.fields[0].alternatives[0].constraints, &code_facets);
  EXPECT_EQ(d.fields[0].alternatives[1].constraints, &count_facets);
  EXPECT_EQ(d.fields[0].alternatives[2].constraints, nullptr);
  EXPECT_EQ(d.fields[2].constraints, &port_facets);
}

TEST(bind_facets_union, one_member_type_must_accept_the_value) {
  // 1..65535 (an integer) or [a-z]+; and the union's own pattern: no 'x'.
  for (std::string_view ok : {"1", "65535", " 80 ", "http"})
    EXPECT_EQ(lb::facet_violation(ok, port_facets), "") << ok;
  const std::string none = "violates its union's member types (none of its 2 accepts it)";
  EXPECT_EQ(lb::facet_violation("0", port_facets), "\"0\" " + none);
  EXPECT_EQ(lb::facet_violation("65536", port_facets), "\"65536\" " + none);
  EXPECT_EQ(lb::facet_violation("8.5", port_facets), "\"8.5\" " + none);  // not an integer
  EXPECT_EQ(lb::facet_violation("HTTP", port_facets), "\"HTTP\" " + none);
  EXPECT_EQ(lb::facet_violation("xml", port_facets), "\"xml\" violates pattern [^x]*");
  // Read: refused when on, read as it is when off.
  EXPECT_FALSE(read_doc(pick_doc("<note/>", "", "8080"), true));
  EXPECT_FALSE(read_doc(pick_doc("<note/>", "", "HTTP"), false));
  const lb::error_info e = read_doc(pick_doc("<note/>", "", "HTTP"), true);
  EXPECT_EQ(e.code, lb::errc::facet_violation);
  EXPECT_EQ(e.message, "/pick/port: \"HTTP\" " + none);
}

TEST(bind_facets_union, members_lexical_forms_by_their_value_kind) {
  static constexpr lb::facets floating{.value = lb::facet_value::floating};
  static constexpr lb::facets hex{.value = lb::facet_value::hex_binary, .max_length = 1};
  static constexpr const lb::facets* members[] = {&floating, &hex};
  static constexpr lb::facets u{.space = lb::white_space::collapse, .members = members};
  for (std::string_view ok : {"1.5e3", "INF", "0a", "FF"})
    EXPECT_EQ(lb::facet_violation(ok, u), "") << ok;
  for (std::string_view bad : {"abc", "0aff", "1.5.3", "g0"})
    EXPECT_NE(lb::facet_violation(bad, u), "") << bad;
  // A list of such a union: each item against it.
  static constexpr lb::facets list{.value = lb::facet_value::list, .items = &u};
  EXPECT_EQ(lb::facet_violation("1 0a INF", list), "");
  EXPECT_EQ(lb::facet_violation("1 zz INF", list),
            "item 2: \"zz\" violates its union's member types (none of its 2 accepts it)");
}

template <class T>
lb::error_info read_as(std::string_view doc, const lb::read_options& o, T& v) {
  lather::xml::reader r;
  r.reset(doc);
  EXPECT_EQ(r.next(), lather::xml::token::start_element);
  return lb::read(r, v, o);
}

TEST(bind_lenient_dates, list_items_read_leniently_where_on) {
  const std::string doc =
      R"(<log xmlns="urn:fm" days="2024-08-17+0200 2024-08-18"><at>2024-08-17T00:61:16Z )"
      R"(2010-01-01-00:00:00 2024-01-01T00:00:00Z</at></log>)";
  fm::log v;
  lb::error_info e = read_as(doc, lb::read_options{}, v);     // strict, as XSD has it
  EXPECT_EQ(e.code, lb::errc::invalid_lexical) << e.message;  // the attribute, read first
  lb::read_options o;
  o.lenient_dates = true;
  e = read_as(doc, o, v);
  ASSERT_FALSE(e) << e.message;
  ASSERT_EQ(v.at.items.size(), 3u);
  lather::xml::output out;
  lather::xml::writer w{out};
  lb::write(w, fm::ns, "log", v);
  w.end_document();
  EXPECT_EQ(out.view(),
            R"(<ns1:log xmlns:ns1="urn:fm" days="2024-08-17+02:00 2024-08-18">)"
            R"(<ns1:at>2024-08-17T01:01:16Z 2010-01-01T00:00:00 2024-01-01T00:00:00Z</ns1:at>)"
            "</ns1:log>");
  // What no device means stays an error.
  e = read_as(R"(<log xmlns="urn:fm"><at>2024-08-17T00:00:00Z soon</at></log>)", o, v);
  EXPECT_TRUE(e);
}

using mpick_meta = lather::meta<fm::mpick>;

std::string mpick_doc(std::string_view what, std::string_view more = "") {
  return R"(<mpick xmlns="urn:fm" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">)" +
         std::string(what) + std::string(more) + "</mpick>";
}

TEST(bind_facets_meta_choice, each_alternative_checked_against_its_own_facets_when_on) {
  lb::read_options on;
  on.validate_facets = true;
  for (const lb::read_options& o : {lb::read_options{}, on}) {
    fm::mpick v;
    EXPECT_FALSE(read_as(mpick_doc("<code>ABC</code>", "<count>9</count><code>XYZ</code>"), o, v));
    EXPECT_EQ(std::get<0>(v.what), "ABC");
    ASSERT_EQ(v.more.size(), 2u);
    EXPECT_EQ(*std::get<1>(v.more[0]), 9);
    // An alternative without facets takes any text; a nil one has no value to check.
    EXPECT_FALSE(read_as(mpick_doc("<note>anything</note>", R"(<count xsi:nil="true"/>)"), o, v));
    EXPECT_EQ(v.what.index(), 2u);
  }
  struct bad {
    std::string doc, message;
  };
  const bad cases[] = {
      {mpick_doc("<code>ABCD</code>"), "/mpick/code: \"ABCD\" violates length 3 (4 characters)"},
      {mpick_doc("<code>abc</code>"), "/mpick/code: \"abc\" violates pattern [A-Z]{3}"},
      {mpick_doc("<count>10</count>"), "/mpick/count: \"10\" violates maxInclusive 9"},
      {mpick_doc("<count>1</count>", "<code>ABC</code><count>0</count>"),
       "/mpick/count[2]: \"0\" violates minInclusive 1"},
  };
  for (const bad& b : cases) {
    fm::mpick v;
    EXPECT_FALSE(read_as(b.doc, lb::read_options{}, v)) << b.doc;  // off: read as it is
    const lb::error_info e = read_as(b.doc, on, v);
    EXPECT_EQ(e.code, lb::errc::facet_violation) << b.doc;
    EXPECT_EQ(e.message, b.message) << b.doc;
  }
}

TEST(bind_facets_meta_choice, alternatives_checked_on_write_when_on) {
  fm::mpick v;
  v.what.emplace<0>("ABC");
  v.more = {lather::nillable<std::int32_t>{3}, std::string("XYZ"),
            lather::nillable<std::int32_t>{}};  // nil: nothing to check
  expect_alternatives_checked_on_write(v);
}

TEST(bind_facets_meta_choice, described_with_each_alternatives_facets) {
  const lb::type_description& d = lb::describe<fm::mpick>();
  ASSERT_EQ(d.fields.size(), 2u);
  EXPECT_EQ(d.fields[0].constraints, nullptr);  // a choice's own: none
  ASSERT_EQ(d.fields[0].alternatives.size(), 3u);
  EXPECT_EQ(d.fields[0].alternatives[0].constraints, &mpick_meta::code);
  EXPECT_EQ(d.fields[0].alternatives[1].constraints, &mpick_meta::count);
  EXPECT_EQ(d.fields[0].alternatives[2].constraints, nullptr);
  ASSERT_EQ(d.fields[1].alternatives.size(), 2u);
  EXPECT_EQ(d.fields[1].alternatives[1].constraints, &mpick_meta::count);
}

TEST(bind_facets_union, members_lexical_forms_by_their_built_in) {
  // Members whose facet_value says nothing of their form (other): their built-in's, where
  // lather reads it.
  static constexpr lb::facets date{.value = lb::facet_value::other, .built_in = "date"};
  static constexpr lb::facets boolean{.value = lb::facet_value::other, .built_in = "boolean"};
  static constexpr const lb::facets* members[] = {&date, &boolean};
  static constexpr lb::facets u{.space = lb::white_space::collapse, .members = members};
  for (std::string_view ok : {"2024-08-17", " 2024-08-17Z ", "true", "0"})
    EXPECT_EQ(lb::facet_violation(ok, u), "") << ok;
  for (std::string_view bad : {"soon", "2024-13-01", "yes", "2024-08-17T00:00:00"}) {
    std::string want = "\"";  // appended: "literal" + std::string&& trips GCC 12's -Wrestrict
    want.append(bad).append("\" violates its union's member types (none of its 2 accepts it)");
    EXPECT_EQ(lb::facet_violation(bad, u), want) << bad;
  }
  // QName: [prefix:]local, both NCNames; dateTime, time and duration as lather reads them.
  static constexpr lb::facets qname{.value = lb::facet_value::other, .built_in = "QName"};
  static constexpr lb::facets date_time{.value = lb::facet_value::other, .built_in = "dateTime"};
  static constexpr lb::facets time{.value = lb::facet_value::other, .built_in = "time"};
  static constexpr lb::facets duration{.value = lb::facet_value::other, .built_in = "duration"};
  static constexpr const lb::facets* more[] = {&qname, &date_time, &time, &duration};
  static constexpr lb::facets v{.space = lb::white_space::collapse, .members = more};
  for (std::string_view ok : {"tns:Order", "Order", "2024-08-17T10:00:00Z", "10:00:00", "P1D"})
    EXPECT_EQ(lb::facet_violation(ok, v), "") << ok;
  for (std::string_view bad : {"a:b:c", "1a", ":a", "-P1X"})
    EXPECT_NE(lb::facet_violation(bad, v), "") << bad;
}

}  // namespace

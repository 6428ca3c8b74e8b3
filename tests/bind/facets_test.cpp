// XSD facets on table fields (lather/bind/facets.hpp): each kind checked on read when
// read_options::validate_facets is on, and nothing refused when it is off; the pattern matcher
// (XSD regular expressions) on its own.
#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "lather/bind/facets.hpp"
#include "lather/bind/table.hpp"
#include "lather/xml/reader.hpp"

namespace ft {

inline constexpr std::string_view ns = "urn:f";

struct amount {  // simple content
  double value{};
  std::optional<std::string> currency;
};

struct item {
  std::optional<std::string> sku;               // attribute: pattern \d{2}-\w+
  std::string code;                             // length 3, pattern [A-Z]{3}
  std::optional<std::string> note;              // minLength 2, maxLength 5, whiteSpace collapse
  std::int32_t qty{};                           // minInclusive 1, maxInclusive 100
  lather::xsd::decimal price;                   // totalDigits 5, fractionDigits 2, minExclusive 0
  std::optional<double> ratio;                  // maxExclusive 1
  std::vector<std::string> tags;                // enumeration a, b, c
  std::optional<lather::xsd::hex_binary> blob;  // maxLength 2 (octets)
  std::int32_t level = 0;                       // default 5, minInclusive 1
  std::optional<amount> cost;                   // its text: minInclusive 0
};

}  // namespace ft

template <>
struct lather::meta<ft::amount> {
  static constexpr std::string_view name = "amount";
  static constexpr std::string_view ns = ft::ns;
};
template <>
struct lather::meta<ft::item> {
  static constexpr std::string_view name = "item";
  static constexpr std::string_view ns = ft::ns;
};
LATHER_BIND_TABLE(ft::amount);
LATHER_BIND_TABLE(ft::item);

#pragma GCC diagnostic ignored "-Winvalid-offsetof"
namespace {
LATHER_BIND_TABLE_FILE();
namespace lb = lather::bind;
using A = ft::amount;
using I = ft::item;
constexpr std::string_view sku_patterns[] = {"\\d{2}-\\w+"};
constexpr lb::facets sku_facets{
    .value = lb::facet_value::string, .space = lb::white_space::collapse, .patterns = sku_patterns};
constexpr std::string_view code_patterns[] = {"[A-Z]{3}"};
constexpr lb::facets code_facets{.length = 3, .patterns = code_patterns};
constexpr lb::facets note_facets{
    .space = lb::white_space::collapse, .min_length = 2, .max_length = 5};
constexpr lb::facets qty_facets{
    .value = lb::facet_value::decimal, .min_inclusive = "1", .max_inclusive = "100"};
constexpr lb::facets price_facets{.value = lb::facet_value::decimal,
                                  .total_digits = 5,
                                  .fraction_digits = 2,
                                  .min_exclusive = "0"};
constexpr lb::facets ratio_facets{.value = lb::facet_value::floating, .max_exclusive = "1"};
constexpr std::string_view tag_values[] = {"a", "b", "c"};
constexpr lb::facets tag_facets{.enumeration = tag_values};
constexpr lb::facets blob_facets{.value = lb::facet_value::hex_binary, .max_length = 2};
constexpr lb::facets level_facets{
    .value = lb::facet_value::decimal, .min_inclusive = "1", .default_value = "5"};
constexpr lb::facets cost_facets{.value = lb::facet_value::floating, .min_inclusive = "0"};
constexpr auto amount_fields =
    fields(ft::ns, text<double>(ft::ns, offsetof(A, value)).facets(cost_facets),
           attribute<std::optional<std::string>>(ft::ns, "currency", offsetof(A, currency)));
constexpr auto item_fields = fields(
    ft::ns,
    attribute<std::optional<std::string>>(ft::ns, "sku", offsetof(I, sku)).facets(sku_facets),
    element<std::string>(ft::ns, "code", offsetof(I, code)).facets(code_facets),
    element<std::optional<std::string>>(ft::ns, "note", offsetof(I, note)).facets(note_facets),
    element<std::int32_t>(ft::ns, "qty", offsetof(I, qty)).facets(qty_facets),
    element<lather::xsd::decimal>(ft::ns, "price", offsetof(I, price)).facets(price_facets),
    element<std::optional<double>>(ft::ns, "ratio", offsetof(I, ratio)).facets(ratio_facets),
    element<std::vector<std::string>>(ft::ns, "tags", offsetof(I, tags)).facets(tag_facets),
    element<std::optional<lather::xsd::hex_binary>>(ft::ns, "blob", offsetof(I, blob))
        .facets(blob_facets),
    element<std::int32_t>(ft::ns, "level", offsetof(I, level))
        .min(0)
        .default_value("5")
        .facets(level_facets),
    element<std::optional<A>>(ft::ns, "cost", offsetof(I, cost)));
}  // namespace
LATHER_BIND_TABLE_DEFINE(amount_fields, ft::amount)
LATHER_BIND_TABLE_DEFINE(item_fields, ft::item)

namespace {

constexpr std::string_view valid_item =
    R"(<item xmlns="urn:f" sku="12-ab"><code>ABC</code><note>  a  b </note><qty>100</qty>)"
    R"(<price>123.45</price><ratio>0.5</ratio><tags>a</tags><tags>c</tags><blob>0aFF</blob>)"
    R"(<cost currency="EUR">0</cost></item>)";

lb::error_info read_item(std::string_view doc, bool validate, ft::item* out = nullptr) {
  lather::xml::reader r;
  r.reset(doc);
  EXPECT_EQ(r.next(), lather::xml::token::start_element);
  ft::item v;
  lb::read_options o;
  o.validate_facets = validate;
  lb::error_info e = lb::read(r, v, o);
  if (out) *out = std::move(v);
  return e;
}

/// valid_item with `from` replaced by `to`.
std::string with(std::string_view from, std::string_view to) {
  std::string doc(valid_item);
  const std::size_t at = doc.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  doc.replace(at, from.size(), to);
  return doc;
}

TEST(bind_facets, valid_values_read_with_validation_on_and_off) {
  for (bool validate : {false, true}) {
    ft::item v;
    EXPECT_FALSE(read_item(valid_item, validate, &v)) << validate;
    EXPECT_EQ(v.code, "ABC");
    EXPECT_EQ(v.level, 5);  // the default, kept by the facets
    ASSERT_TRUE(v.cost);
    EXPECT_EQ(v.cost->currency, "EUR");
  }
}

TEST(bind_facets, each_kind_refused_when_on_and_read_when_off) {
  struct bad {
    std::string doc;
    std::string message;  // the error's whole message when validation is on
  };
  const bad cases[] = {
      {with("<code>ABC", "<code>ABCD"), "/item/code: \"ABCD\" violates length 3 (4 characters)"},
      {with("<code>ABC", "<code>AbC"), "/item/code: \"AbC\" violates pattern [A-Z]{3}"},
      {with("  a  b ", "a"), "/item/note: \"a\" violates minLength 2 (1 characters)"},
      {with("  a  b ", " abc def "), "/item/note: \"abc def\" violates maxLength 5 (7 characters)"},
      {with("<qty>100", "<qty>101"), "/item/qty: \"101\" violates maxInclusive 100"},
      {with("<qty>100", "<qty>0"), "/item/qty: \"0\" violates minInclusive 1"},
      {with("123.45", "1234.56"), "/item/price: \"1234.56\" violates totalDigits 5 (6 digits)"},
      {with("123.45", "1.234"),
       "/item/price: \"1.234\" violates fractionDigits 2 (3 fraction digits)"},
      {with("123.45", "-0.00"), "/item/price: \"-0.00\" violates minExclusive 0"},
      {with("<ratio>0.5", "<ratio>1.0"), "/item/ratio: \"1.0\" violates maxExclusive 1"},
      {with("<ratio>0.5", "<ratio>NaN"), "/item/ratio: \"NaN\" violates maxExclusive 1"},
      {with("<tags>c", "<tags>d"),
       "/item/tags[2]: \"d\" violates enumeration (not one of its 3 values)"},
      {with("0aFF", "0aFF01"), "/item/blob: \"0aFF01\" violates maxLength 2 (3 octets)"},
      {with("<cost currency=\"EUR\">0", "<cost currency=\"EUR\">-1"),
       "/item/cost: \"-1\" violates minInclusive 0"},
      {with("12-ab", "1-ab"), "/item/@sku: \"1-ab\" violates pattern \\d{2}-\\w+"},
      {with("<cost ", "<level>0</level><cost "), "/item/level: \"0\" violates minInclusive 1"},
  };
  for (const bad& b : cases) {
    EXPECT_FALSE(read_item(b.doc, false)) << b.doc;
    const lb::error_info e = read_item(b.doc, true);
    EXPECT_EQ(e.code, lb::errc::facet_violation) << b.doc;
    EXPECT_EQ(e.message, b.message) << b.doc;
  }
}

TEST(bind_facets, checks_the_text_after_its_white_space_rule) {
  lb::facets f{.space = lb::white_space::collapse, .length = 3};
  EXPECT_EQ(lb::facet_violation(" a\t b\n", f), "");
  f.space = lb::white_space::replace;
  EXPECT_EQ(lb::facet_violation("a\tb", f), "");
  EXPECT_NE(lb::facet_violation(" a b", f), "");
  f.space = lb::white_space::preserve;
  EXPECT_EQ(lb::facet_violation("a\nb", f), "");
  // Lengths count characters, not bytes; base64Binary's count octets.
  EXPECT_EQ(lb::facet_violation("\xc3\xa9t\xc3\xa9", f), "");
  const lb::facets b64{.value = lb::facet_value::base64_binary, .length = 4};
  EXPECT_EQ(lb::facet_violation("AAEC Aw==", b64), "");
  EXPECT_NE(lb::facet_violation("AAECAwQ=", b64), "");
  // Numbers compare as numbers: enumerations too.
  constexpr std::string_view values[] = {"1.50", "20"};
  const lb::facets num{.value = lb::facet_value::decimal, .enumeration = values};
  EXPECT_EQ(lb::facet_violation("+001.5", num), "");
  EXPECT_EQ(lb::facet_violation("20.0", num), "");
  EXPECT_NE(lb::facet_violation("2", num), "");
  const lb::facets neg{
      .value = lb::facet_value::decimal, .min_inclusive = "-10.5", .max_inclusive = "-2"};
  EXPECT_EQ(lb::facet_violation("-10.50", neg), "");
  EXPECT_EQ(lb::facet_violation("-2", neg), "");
  EXPECT_NE(lb::facet_violation("-10.51", neg), "");
  EXPECT_NE(lb::facet_violation("-1.9", neg), "");
  EXPECT_NE(lb::facet_violation("3", neg), "");
  // Types whose order lather does not compare: bounds not checked, patterns are.
  constexpr std::string_view dates[] = {"\\d{4}-\\d{2}-\\d{2}"};
  const lb::facets date{
      .value = lb::facet_value::other, .min_inclusive = "2000-01-01", .patterns = dates};
  EXPECT_EQ(lb::facet_violation("1999-01-01", date), "");
  EXPECT_NE(lb::facet_violation("1999-1-01", date), "");
}

TEST(bind_facets, patterns_are_xsd_regular_expressions) {
  struct m {
    const char* pattern;
    const char* text;
    int want;
  };
  const m cases[] = {
      // implicit anchoring: the whole text
      {"[0-9]+", "123", 1},
      {"[0-9]+", "123a", 0},
      {"a|bc", "bc", 1},
      {"a|bc", "abc", 0},
      // ^ and $ are plain characters in XSD
      {"^a$", "^a$", 1},
      {"^a$", "a", 0},
      // quantifiers
      {"a{2,3}", "aaa", 1},
      {"a{2,3}", "aaaa", 0},
      {"a{2,}", "aaaaaa", 1},
      {"a{2}", "a", 0},
      {"(ab)?c*", "abccc", 1},
      {"(ab)?c*", "", 1},
      {"(a|b)+", "abba", 1},
      // escapes and classes
      {"\\d{3}-\\d{4}", "555-1234", 1},
      {"\\s", " ", 1},
      {"\\S+", "a b", 0},
      {"\\w+", "abc_", 0},  // _ is punctuation in XSD
      {"\\w+", "a$b", 1},   // $ is a symbol
      {"\\W", "-", 1},
      {"[a-z-[aeiou]]+", "bcd", 1},
      {"[a-z-[aeiou]]+", "bad", 0},
      {"[^0-9]", "x", 1},
      {"[^0-9]", "5", 0},
      {"[\\-+]?[0-9]", "-3", 1},
      {"[a-]", "-", 1},
      {"\\.\\*\\?\\{\\}", ".*?{}", 1},
      {".", "\n", 0},
      {".", "\xc3\xa9", 1},  // one character, two bytes
      {"[\xc3\xa0-\xc3\xbf]", "\xc3\xa9", 1},
      {"\\p{Lu}\\p{Ll}+", "Abc", 1},
      {"\\p{Lu}", "a", 0},
      {"\\P{Nd}", "5", 0},
      {"\\p{IsBasicLatin}+", "abc", 1},
      {"\\p{IsBasicLatin}", "\xc3\xa9", 0},
      {"\\i\\c*", "a1-b", 1},
      {"\\i\\c*", "1a", 0},
      // Beyond ASCII the properties are not known: never refused, in a class or out of it.
      {"\\d", "\xd9\xa3", 1},  // ARABIC-INDIC DIGIT THREE
      {"\\D", "\xd9\xa3", 1},
      {"[^\\d]", "\xd9\xa3", 1},
      {"\\p{L}+", "\xc3\xa9t\xc3\xa9", 1},
      // what the matcher does not implement: not checked
      {"\\p{IsGreek}+", "abc", -1},
      {"a{1,100001}", "a", -1},
      {"(a", "a", -1},
  };
  for (const m& c : cases)
    EXPECT_EQ(lb::match_pattern(c.pattern, c.text), c.want) << c.pattern << " " << c.text;
  EXPECT_EQ(lb::pattern_unsupported("[A-Z]{2}\\d*"), "");
  EXPECT_NE(lb::pattern_unsupported("\\p{IsGreek}"), "");
  // A skipped pattern refuses nothing.
  constexpr std::string_view greek[] = {"\\p{IsGreek}+"};
  EXPECT_EQ(lb::facet_violation("abc", lb::facets{.patterns = greek}), "");
}

TEST(bind_facets, matching_is_linear_in_the_text) {
  // (a*)*b backtracks exponentially; the matcher runs each character once.
  const std::string text(20000, 'a');
  EXPECT_EQ(lb::match_pattern("(a*)*b", text), 0);
  EXPECT_EQ(lb::match_pattern("(a|aa)*", text), 1);
}

}  // namespace

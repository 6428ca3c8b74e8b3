// XSD facets on table and meta<T> fields (lather/bind/facets.hpp): each kind checked on read
// when read_options::validate_facets is on and on write when write_options::validate_facets is,
// and nothing refused when they are off; the pattern matcher (XSD regular expressions) on its
// own, compiled once per pattern and allocation-free once warm.
#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "../support/alloc_counter.hpp"
#include "bind_test_util.hpp"
#include "lather/bind/facets.hpp"
#include "lather/bind/table.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

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

struct order {  // meta<T>, the same facets as item's fields
  std::optional<std::string> sku;
  std::string code;
  std::vector<std::int32_t> qty;
  std::int32_t level = 0;
};
struct price {  // meta<T> simple content
  double value{};
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
namespace ft_meta {
namespace lb = lather::bind;
constinit lb::pattern sku_patterns[] = {"\\d{2}-\\w+"};
constexpr lb::facets sku_facets{.patterns = sku_patterns};
constinit lb::pattern code_patterns[] = {"[A-Z]{3}"};
constexpr lb::facets code_facets{.length = 3, .patterns = code_patterns};
constexpr lb::facets qty_facets{
    .value = lb::facet_value::decimal, .min_inclusive = "1", .max_inclusive = "100"};
constexpr lb::facets level_facets{
    .value = lb::facet_value::decimal, .min_inclusive = "1", .default_value = "5"};
constexpr lb::facets price_facets{.value = lb::facet_value::floating, .min_inclusive = "0"};
}  // namespace ft_meta
template <>
struct lather::meta<ft::order> {
  static constexpr std::string_view name = "order";
  static constexpr std::string_view ns = ft::ns;
  static constexpr auto fields = std::tuple{
      attribute("sku", &ft::order::sku).facets(ft_meta::sku_facets),
      element("code", &ft::order::code).facets(ft_meta::code_facets),
      element("qty", &ft::order::qty).facets(ft_meta::qty_facets),
      element("level", &ft::order::level).min(0).default_value("5").facets(ft_meta::level_facets)};
};
template <>
struct lather::meta<ft::price> {
  static constexpr std::string_view name = "price";
  static constexpr std::string_view ns = ft::ns;
  static constexpr auto fields = std::tuple{text(&ft::price::value).facets(ft_meta::price_facets)};
};

#pragma GCC diagnostic ignored "-Winvalid-offsetof"
namespace {
LATHER_BIND_TABLE_FILE();
namespace lb = lather::bind;
using A = ft::amount;
using I = ft::item;
constinit lb::pattern sku_patterns[] = {"\\d{2}-\\w+"};
constexpr lb::facets sku_facets{
    .value = lb::facet_value::string, .space = lb::white_space::collapse, .patterns = sku_patterns};
constinit lb::pattern code_patterns[] = {"[A-Z]{3}"};
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
  const lb::pattern dates[] = {"\\d{4}-\\d{2}-\\d{2}"};
  const lb::facets date{
      .value = lb::facet_value::other, .min_inclusive = "2000-01-01", .patterns = dates};
  EXPECT_EQ(lb::facet_violation("1999-01-01", date), "");
  EXPECT_NE(lb::facet_violation("1999-1-01", date), "");
  // A list: lengths count items, each item is checked against its own facets.
  const lb::facets pair{.length = 2};
  const lb::facets list{.value = lb::facet_value::list, .max_length = 2, .items = &pair};
  EXPECT_EQ(lb::facet_violation(" ab\n cd ", list), "");
  EXPECT_EQ(lb::facet_violation("", list), "");
  EXPECT_EQ(lb::facet_violation("ab cd ef", list), "\"ab cd ef\" violates maxLength 2 (3 items)");
  EXPECT_EQ(lb::facet_violation("ab  c", list), "item 2: \"c\" violates length 2 (1 characters)");
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
  const lb::pattern greek[] = {"\\p{IsGreek}+"};
  EXPECT_EQ(lb::facet_violation("abc", lb::facets{.patterns = greek}), "");
}

/// `v` written as {urn:f}local with write_options::validate_facets `validate`: the error, empty
/// if it was written.
template <class T>
lb::error_info write_checked(std::string_view local, const T& v, bool validate) {
  lather::xml::output out;
  lather::xml::writer w{out};
  try {
    lb::write(w, ft::ns, local, v, lb::write_options{.validate_facets = validate});
  } catch (const lb::error& e) {
    return e.info();
  }
  return {};
}

ft::item valid_table_item() {
  ft::item v;
  EXPECT_FALSE(read_item(valid_item, true, &v));
  return v;
}

TEST(bind_facets, table_fields_are_checked_on_write_when_on) {
  EXPECT_FALSE(write_checked("item", valid_table_item(), true));
  struct bad {
    void (*spoil)(ft::item&);
    std::string message;
  };
  const bad cases[] = {
      {[](ft::item& v) { v.code = "ABCD"; },
       "/item/code: \"ABCD\" violates length 3 (4 characters)"},
      {[](ft::item& v) { v.qty = 0; }, "/item/qty: \"0\" violates minInclusive 1"},
      {[](ft::item& v) { v.tags.push_back("d"); },
       "/item/tags[3]: \"d\" violates enumeration (not one of its 3 values)"},
      {[](ft::item& v) { v.sku = "1-ab"; }, "/item/@sku: \"1-ab\" violates pattern \\d{2}-\\w+"},
      {[](ft::item& v) { v.cost->value = -1; }, "/item/cost: \"-1\" violates minInclusive 0"},
      {[](ft::item& v) { v.ratio = 2; }, "/item/ratio: \"2\" violates maxExclusive 1"},
  };
  for (const bad& b : cases) {
    ft::item v = valid_table_item();
    b.spoil(v);
    EXPECT_FALSE(write_checked("item", v, false)) << b.message;  // off: written as it is
    const lb::error_info e = write_checked("item", v, true);
    EXPECT_EQ(e.code, lb::errc::facet_violation) << b.message;
    EXPECT_EQ(e.message, b.message);
  }
  // Options that turn nothing on leave an enclosing scope's in force.
  ft::item v = valid_table_item();
  v.code = "abc";
  const lb::write_options on{.validate_facets = true};
  const lb::write_scope outer(on);
  EXPECT_EQ(write_checked("item", v, false).code, lb::errc::facet_violation);
}

TEST(bind_facets, meta_fields_are_checked_on_read_and_write) {
  const std::string good =
      R"(<order xmlns="urn:f" sku="12-ab"><code>ABC</code><qty>1</qty><qty>100</qty></order>)";
  for (bool validate : {false, true}) {
    ft::order o;
    lb::read_options opts;
    opts.validate_facets = validate;
    EXPECT_FALSE(lb::test::from_xml(good, o, opts));
    EXPECT_EQ(o.level, 5);  // the default, kept by the facets
    EXPECT_FALSE(write_checked("order", o, validate));
  }
  struct bad {
    std::string from, to, message;
  };
  const bad cases[] = {
      {"<code>ABC", "<code>ABCD", "/order/code: \"ABCD\" violates length 3 (4 characters)"},
      {"<qty>100", "<qty>101", "/order/qty[2]: \"101\" violates maxInclusive 100"},
      {"12-ab", "1-ab", "/order/@sku: \"1-ab\" violates pattern \\d{2}-\\w+"},
      {"</order>", "<level>0</level></order>", "/order/level: \"0\" violates minInclusive 1"},
  };
  for (const bad& b : cases) {
    std::string doc = good;
    doc.replace(doc.find(b.from), b.from.size(), b.to);
    ft::order o;
    EXPECT_FALSE(lb::test::from_xml(doc, o)) << doc;  // off: read
    lb::read_options opts;
    opts.validate_facets = true;
    const lb::error_info r = lb::test::from_xml(doc, o, opts);
    EXPECT_EQ(r.code, lb::errc::facet_violation) << doc;
    EXPECT_EQ(r.message, b.message);
    EXPECT_FALSE(lb::test::from_xml(doc, o));
    EXPECT_FALSE(write_checked("order", o, false)) << doc;
    const lb::error_info w = write_checked("order", o, true);
    EXPECT_EQ(w.code, lb::errc::facet_violation) << doc;
    EXPECT_EQ(w.message, b.message);
  }
  ft::price p{-0.5};
  EXPECT_EQ(write_checked("price", p, true).message, "/price: \"-0.5\" violates minInclusive 0");
  lb::read_options opts;
  opts.validate_facets = true;
  EXPECT_EQ(lb::test::from_xml(R"(<price xmlns="urn:f">-1</price>)", p, opts).message,
            "/price: \"-1\" violates minInclusive 0");
}

TEST(bind_facets, a_pattern_compiles_once_and_checks_allocate_nothing) {
  static constinit lb::pattern kept[] = {"[A-Z]{2}(-\\d+)*"};
  const lb::facets f{.patterns = kept};
  std::string long_value = "AB";
  for (int i = 0; i < 50; ++i) long_value += "-123";
  EXPECT_EQ(lb::facet_violation(long_value, f), "");  // compiles, grows the buffers
  EXPECT_EQ(&kept[0].program(), &kept[0].program());
  const std::uint64_t before = lather::test::thread_allocations();
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(kept[0].match(long_value), 1);
    EXPECT_EQ(kept[0].match("AB-1x"), 0);
    EXPECT_EQ(lb::facet_violation("AB-1", f), "");
  }
  EXPECT_EQ(lather::test::thread_allocations() - before, 0u);
  // Invalid UTF-8 is not checked, whether or not a prefix matched.
  EXPECT_EQ(kept[0].match("AB\xff"), -1);
  EXPECT_EQ(kept[0].match("a\xff"), -1);
}

TEST(bind_facets, matching_is_linear_in_the_text) {
  // (a*)*b backtracks exponentially; the matcher runs each character once.
  const std::string text(20000, 'a');
  EXPECT_EQ(lb::match_pattern("(a*)*b", text), 0);
  EXPECT_EQ(lb::match_pattern("(a|aa)*", text), 1);
}

}  // namespace

// String-like types, decimal and the integer family, QName, error messages.
#include <algorithm>
#include <optional>
#include <random>

#include "xsd_test_util.hpp"

namespace lather::bind {
namespace {

using test::canonical;
using test::format;
using test::parse_error;
using test::parse_ok;

TEST(XsdString, WhitespaceFacets) {
  EXPECT_EQ(parse_ok<std::string>(" a\t b\r\n"), " a\t b\r\n");                // preserve
  EXPECT_EQ(parse_ok<xsd::normalized_string>(" a\t b\r\n").value, " a  b  ");  // replace
  EXPECT_EQ(parse_ok<xsd::token>(" a\t b\r\n  c ").value, "a b c");            // collapse
  EXPECT_EQ(parse_ok<xsd::token>(" \n ").value, "");
  EXPECT_EQ(parse_ok<xsd::any_uri>("  http://example.com/a?b=c ").value,
            "http://example.com/a?b=c");
  EXPECT_EQ(format(std::string("x<y")), "x<y");  // escaping is the writer's job
  EXPECT_EQ(format(xsd::token{"a b"}), "a b");
}

TEST(XsdDecimal, ExactCanonicalText) {
  const std::string big = "12345678901234567890123456789.123456789012345678901234567891";
  EXPECT_EQ(canonical<xsd::decimal>(big), big);
  EXPECT_EQ(canonical<xsd::decimal>("-" + big), "-" + big);
  EXPECT_EQ(canonical<xsd::decimal>("99999999999999999999999999999"),
            "99999999999999999999999999999");
  EXPECT_EQ(canonical<xsd::decimal>("+001.500"), "1.5");
  EXPECT_EQ(canonical<xsd::decimal>("-0.0"), "0");
  EXPECT_EQ(canonical<xsd::decimal>("-.0"), "0");
  EXPECT_EQ(canonical<xsd::decimal>(".5"), "0.5");
  EXPECT_EQ(canonical<xsd::decimal>("5."), "5");
  EXPECT_EQ(canonical<xsd::decimal>(" -000.00100 \n"), "-0.001");
  EXPECT_EQ(canonical<xsd::decimal>("10"), "10");
  for (std::string_view bad :
       {"", ".", "+", "-", "1e5", "1.2.3", "1 2", "INF", "NaN", "0x1", "1,5", "+-1", "1.5e0"})
    EXPECT_EQ(parse_error<xsd::decimal>(bad), errc::invalid_lexical) << bad;
  EXPECT_EQ(parse_ok<xsd::decimal>("1.50"), parse_ok<xsd::decimal>("001.5"));
}

// The canonical form the slow way: the digits as a number with a point, signs and zeros
// trimmed by hand.
std::string reference_decimal(std::string_view text) {
  bool negative = false;
  if (text.front() == '+' || text.front() == '-') {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  const std::size_t point = text.find('.');
  std::string integral(text.substr(0, point));
  std::string fraction(point == std::string_view::npos ? "" : text.substr(point + 1));
  integral.erase(0, integral.find_first_not_of('0'));
  fraction.erase(fraction.find_last_not_of('0') + 1);
  if (integral.empty()) integral = "0";
  std::string out = negative && (integral != "0" || !fraction.empty()) ? "-" : "";
  return out + integral + (fraction.empty() ? "" : "." + fraction);
}

TEST(XsdDecimal, CanonicalFormOnRandomLexicalForms) {
  std::mt19937_64 rng(9);
  constexpr std::string_view signs[] = {"", "", "-", "+"};
  for (int i = 0; i < 100000; ++i) {
    std::string text(signs[rng() % 4]);
    for (std::size_t n = rng() % 4; n > 0; --n) text.push_back(rng() % 2 ? '0' : '1' + rng() % 9);
    if (rng() % 2) {
      text.push_back('.');
      for (std::size_t n = rng() % 4; n > 0; --n) text.push_back(rng() % 2 ? '0' : '1' + rng() % 9);
    }
    const std::string_view digits =
        std::string_view(text).substr(std::min(text.size(), text.find_first_not_of("+-")));
    if (digits.empty() || digits == ".") {
      ASSERT_EQ(parse_error<xsd::decimal>(text), errc::invalid_lexical) << text;
      continue;
    }
    ASSERT_EQ(canonical<xsd::decimal>(text), reference_decimal(text)) << text;
    if (text.find('.') == std::string::npos) {
      ASSERT_EQ(canonical<xsd::integer>(text), reference_decimal(text)) << text;
    }
  }
}

TEST(XsdDecimal, UnboundedIntegerFamily) {
  EXPECT_EQ(canonical<xsd::integer>("-00012345678901234567890123456789"),
            "-12345678901234567890123456789");
  EXPECT_EQ(canonical<xsd::integer>("+007"), "7");
  EXPECT_EQ(canonical<xsd::integer>("-0"), "0");
  EXPECT_EQ(parse_error<xsd::integer>("1.0"), errc::invalid_lexical);
  EXPECT_EQ(parse_error<xsd::integer>(""), errc::invalid_lexical);
  EXPECT_EQ(canonical<xsd::non_negative_integer>("-0"), "0");
  EXPECT_EQ(parse_error<xsd::non_negative_integer>("-1"), errc::out_of_range);
  EXPECT_EQ(canonical<xsd::positive_integer>("18446744073709551616"), "18446744073709551616");
  EXPECT_EQ(parse_error<xsd::positive_integer>("0"), errc::out_of_range);
  EXPECT_EQ(parse_error<xsd::positive_integer>("-5"), errc::out_of_range);
  EXPECT_EQ(canonical<xsd::non_positive_integer>("0"), "0");
  EXPECT_EQ(parse_error<xsd::non_positive_integer>("1"), errc::out_of_range);
  EXPECT_EQ(canonical<xsd::negative_integer>("-1"), "-1");
  EXPECT_EQ(parse_error<xsd::negative_integer>("-0"), errc::out_of_range);
  EXPECT_EQ(format(xsd::integer{-42}), "-42");
}

std::optional<std::string_view> test_scope(std::string_view prefix) {
  if (prefix == "p") return "urn:p";
  if (prefix == "") return "urn:default";
  return std::nullopt;
}

TEST(XsdQName, ResolvesPrefixes) {
  using traits = xsd_traits<xsd::qname>;
  xsd::qname q;
  ASSERT_EQ(traits::parse_with(" p:local\n", q, test_scope), errc::ok);
  EXPECT_EQ(q.ns, "urn:p");
  EXPECT_EQ(q.local, "local");
  EXPECT_EQ(q.prefix, "p");
  EXPECT_EQ(format(q), "p:local");
  ASSERT_EQ(traits::parse_with("plain", q, test_scope), errc::ok);
  EXPECT_EQ(q.ns, "urn:default");
  EXPECT_EQ(q.prefix, "");
  EXPECT_EQ(format(q), "plain");
  auto no_default = [](std::string_view) -> std::optional<std::string_view> { return {}; };
  ASSERT_EQ(traits::parse_with("plain", q, no_default), errc::ok);
  EXPECT_EQ(q.ns, "");
  EXPECT_EQ(traits::parse_with("q:x", q, test_scope), errc::undeclared_prefix);
  for (std::string_view bad : {"", "p:", ":x", "1a", "p:1a", "a:b:c", "a b", "p:x y", "-a", "a/b"})
    EXPECT_EQ(traits::parse_with(bad, q, test_scope), errc::invalid_lexical) << bad;
  EXPECT_EQ(traits::parse_with("p:\xC3\xA9t\xC3\xA9", q, test_scope), errc::ok);  // non-ASCII
  EXPECT_EQ((xsd::qname{"urn:p", "x", "a"}), (xsd::qname{"urn:p", "x", "b"}));
}

// The rule split_qname implements, written out the slow way: trimmed text is NCName or
// NCName ':' NCName (ASCII name characters; bytes >= 0x80 count as name characters).
bool reference_ncname(std::string_view s) {
  auto start = [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
  };
  if (s.empty() || !start(static_cast<unsigned char>(s[0]))) return false;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (!start(c) && !(c >= '0' && c <= '9') && c != '-' && c != '.') return false;
  }
  return true;
}

TEST(XsdQName, SplitAgreesWithTheNCNameRuleOnRandomText) {
  constexpr std::string_view alphabet = "aZ_09-.:: \t\xC3\xA9!/";
  std::mt19937_64 rng(5);
  for (int i = 0; i < 200000; ++i) {
    std::string text;
    for (std::size_t n = rng() % 9; n > 0; --n) text.push_back(alphabet[rng() % alphabet.size()]);
    const std::string_view trimmed = xsd::detail::trim_xml_space(text);
    const std::size_t colon = trimmed.find(':');
    const bool valid = colon == std::string_view::npos
                           ? reference_ncname(trimmed)
                           : reference_ncname(trimmed.substr(0, colon)) &&
                                 reference_ncname(trimmed.substr(colon + 1));
    std::string_view prefix, local;
    const errc e = xsd::detail::split_qname(text, prefix, local);
    ASSERT_EQ(e == errc::ok, valid) << '"' << text << '"';
    if (!valid) continue;
    ASSERT_EQ(prefix, colon == std::string_view::npos ? "" : trimmed.substr(0, colon)) << text;
    ASSERT_EQ(local, colon == std::string_view::npos ? trimmed : trimmed.substr(colon + 1)) << text;
  }
}

TEST(XsdErrors, MessagesNameValueAndType) {
  EXPECT_EQ(describe_value_error(errc::out_of_range, "256", "unsignedByte"),
            "\"256\" is out of range for xsd:unsignedByte");
  EXPECT_EQ(describe_value_error(errc::invalid_lexical, "abc", "int"),
            "\"abc\" is not a valid xsd:int");
  EXPECT_EQ(describe_value_error(errc::undeclared_prefix, "q:x", "QName"),
            "\"q:x\" uses an undeclared prefix for xsd:QName");
  EXPECT_EQ(describe_value_error(errc::invalid_hex, "ABC", "hexBinary"),
            "\"ABC\" is not a valid xsd:hexBinary (invalid hexBinary (odd length or non-hex "
            "digit))");
  const std::string hostile = std::string(1000, 'A') + "\n\x01";
  const std::string msg = describe_value_error(errc::invalid_lexical, hostile, "int");
  EXPECT_LT(msg.size(), 120u);
  EXPECT_NE(msg.find("...\""), std::string::npos);
  EXPECT_EQ(describe_value_error(errc::invalid_lexical, "a\nb", "int"),
            "\"a?b\" is not a valid xsd:int");
  // A cut never splits a UTF-8 sequence.
  const std::string utf8 = std::string(63, 'a') + "\xC3\xA9" + std::string(10, 'b');
  const std::string cut = describe_value_error(errc::invalid_lexical, utf8, "int");
  EXPECT_EQ(cut.substr(0, 65), "\"" + std::string(63, 'a') + ".");
  EXPECT_STREQ(describe(errc::out_of_range), "outside the value space of the type");
  EXPECT_EQ(std::error_code(errc::invalid_base64).category().name(), std::string("lather.bind"));
  EXPECT_EQ(std::error_code(errc::invalid_base64).message(), describe(errc::invalid_base64));
}

}  // namespace
}  // namespace lather::bind

// xsd:boolean, fixed-width integers, float and double: boundaries, lexical rules, round trips.
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <regex>
#include <vector>

#include "xsd_test_util.hpp"

namespace lather::bind {
namespace {

using test::canonical;
using test::format;
using test::parse_error;
using test::parse_ok;

static_assert(simple_type<int>);
static_assert(simple_type<std::uint64_t>);
static_assert(simple_type<xsd::list<double>>);
static_assert(!simple_type<std::vector<int>>);
static_assert(!simple_type<char>);
static_assert(xsd_traits<std::uint8_t>::type_name == "unsignedByte");
static_assert(xsd_traits<std::int64_t>::type_name == "long");

struct integer_bounds {
  std::string_view min, max, below_min, above_max;
};

template <class T>
void check_bounds(const integer_bounds& b) {
  SCOPED_TRACE(std::string(xsd_traits<T>::type_name));
  EXPECT_EQ(parse_ok<T>(b.min), std::numeric_limits<T>::min());
  EXPECT_EQ(parse_ok<T>(b.max), std::numeric_limits<T>::max());
  EXPECT_EQ(format(std::numeric_limits<T>::min()), b.min);
  EXPECT_EQ(format(std::numeric_limits<T>::max()), b.max);
  EXPECT_EQ(parse_error<T>(b.below_min), errc::out_of_range);
  EXPECT_EQ(parse_error<T>(b.above_max), errc::out_of_range);
  EXPECT_EQ(parse_error<T>("123456789012345678901234567890"), errc::out_of_range);
  // Lexical errors win over range errors, so the message names the real problem.
  EXPECT_EQ(parse_error<T>("123456789012345678901234567890x"), errc::invalid_lexical);
  EXPECT_EQ(parse_ok<T>("+0"), T{0});
  EXPECT_EQ(parse_ok<T>("-0"), T{0});
  EXPECT_EQ(parse_ok<T>("  0042\n\t"), T{42});
  EXPECT_EQ(parse_ok<T>("+127"), T{127});
  for (std::string_view bad :
       {"", " ", "+", "-", "1 2", "0x10", "1.0", "1e2", "١", "12a", "--1", "+-1", "INF"})
    EXPECT_EQ(parse_error<T>(bad), errc::invalid_lexical) << '"' << bad << '"';
}

TEST(XsdInteger, BoundariesOfEveryWidth) {
  check_bounds<std::int8_t>({"-128", "127", "-129", "128"});
  check_bounds<std::int16_t>({"-32768", "32767", "-32769", "32768"});
  check_bounds<std::int32_t>({"-2147483648", "2147483647", "-2147483649", "2147483648"});
  check_bounds<std::int64_t>({"-9223372036854775808", "9223372036854775807", "-9223372036854775809",
                              "9223372036854775808"});
  check_bounds<std::uint8_t>({"0", "255", "-1", "256"});
  check_bounds<std::uint16_t>({"0", "65535", "-1", "65536"});
  check_bounds<std::uint32_t>({"0", "4294967295", "-1", "4294967296"});
  check_bounds<std::uint64_t>({"0", "18446744073709551615", "-1", "18446744073709551616"});
}

template <class T>
void round_trip_random_integers(std::mt19937_64& rng) {
  std::uniform_int_distribution<T> dist(std::numeric_limits<T>::min(),
                                        std::numeric_limits<T>::max());
  for (int i = 0; i < 20000; ++i) {
    const T v = dist(rng);
    T back{};
    ASSERT_EQ(test::parse(format(v), back), errc::ok);
    ASSERT_EQ(back, v);
  }
}

TEST(XsdInteger, PropertyFormatParseRoundTrip) {
  std::mt19937_64 rng(20261129);
  round_trip_random_integers<std::int16_t>(rng);
  round_trip_random_integers<std::int32_t>(rng);
  round_trip_random_integers<std::int64_t>(rng);
  round_trip_random_integers<std::uint16_t>(rng);
  round_trip_random_integers<std::uint32_t>(rng);
  round_trip_random_integers<std::uint64_t>(rng);
  for (int v = -128; v <= 127; ++v) EXPECT_EQ(parse_ok<std::int8_t>(format(std::int8_t(v))), v);
  for (int v = 0; v <= 255; ++v) EXPECT_EQ(parse_ok<std::uint8_t>(format(std::uint8_t(v))), v);
}

// The parser takes up to 19 digits without a per-digit range test: around that length (leading
// zeros, 19 nines, 20 digits) it must agree with exact arithmetic for every width and sign.
template <class T>
void check_against_exact(const std::string& digits, bool negative) {
  unsigned __int128 magnitude = 0;
  bool huge = false;
  for (char c : digits) {
    magnitude = magnitude * 10 + static_cast<unsigned>(c - '0');
    if (magnitude > (static_cast<unsigned __int128>(1) << 100)) huge = true;
  }
  const __int128 value =
      negative ? -static_cast<__int128>(magnitude) : static_cast<__int128>(magnitude);
  const bool in_range = !huge && value >= std::numeric_limits<T>::min() &&
                        value <= static_cast<__int128>(std::numeric_limits<T>::max());
  const std::string text = (negative ? "-" : "") + digits;
  T out{};
  const errc e = test::parse(text, out);
  if (in_range) {
    ASSERT_EQ(e, errc::ok) << text;
    ASSERT_EQ(static_cast<__int128>(out), value) << text;
  } else {
    ASSERT_EQ(e, errc::out_of_range) << text;
  }
}

template <class T>
void check_digit_lengths(std::mt19937_64& rng) {
  SCOPED_TRACE(std::string(xsd_traits<T>::type_name));
  std::uniform_int_distribution<int> digit(0, 9), zeros(0, 4), coin(0, 1);
  for (std::size_t length = 1; length <= 22; ++length) {
    for (int i = 0; i < 300; ++i) {
      std::string digits(static_cast<std::size_t>(zeros(rng)), '0');
      for (std::size_t k = 0; k < length; ++k)
        digits.push_back(static_cast<char>('0' + digit(rng)));
      check_against_exact<T>(digits, coin(rng) == 1);
    }
    check_against_exact<T>(std::string(length, '9'), false);
    check_against_exact<T>(std::string(length, '9'), true);
  }
}

TEST(XsdInteger, EveryDigitCountAgreesWithExactArithmetic) {
  std::mt19937_64 rng(20261130);
  check_digit_lengths<std::int8_t>(rng);
  check_digit_lengths<std::int16_t>(rng);
  check_digit_lengths<std::int32_t>(rng);
  check_digit_lengths<std::int64_t>(rng);
  check_digit_lengths<std::uint8_t>(rng);
  check_digit_lengths<std::uint16_t>(rng);
  check_digit_lengths<std::uint32_t>(rng);
  check_digit_lengths<std::uint64_t>(rng);
  EXPECT_EQ(parse_ok<std::uint8_t>("0000000000000000000000255"), 255);
  EXPECT_EQ(parse_error<std::uint8_t>("0000000000000000000000256"), errc::out_of_range);
  EXPECT_EQ(parse_ok<std::uint64_t>("-0000000000000000000000"), 0u);
  EXPECT_EQ(parse_error<std::uint64_t>("-0000000000000000000001"), errc::out_of_range);
  EXPECT_EQ(parse_error<std::int64_t>("9999999999999999999"), errc::out_of_range);
  EXPECT_EQ(parse_error<std::int64_t>("999999999999999999x"), errc::invalid_lexical);
}

template <class T>
void expect_formats_like_to_chars(T v) {
  char buf[32];
  const std::string_view expected{
      buf, static_cast<std::size_t>(std::to_chars(buf, buf + 32, v).ptr - buf)};
  ASSERT_EQ(format(v), expected);
  ASSERT_EQ(test::leaf_text(v), expected);
}

// Integer formatting (its own digit-pair code) against std::to_chars: every 8- and 16-bit
// value, every power of ten and its neighbours, random 32- and 64-bit values of each length.
TEST(XsdInteger, FormatAgreesWithToChars) {
  for (int v = -128; v < 128; ++v) expect_formats_like_to_chars(static_cast<std::int8_t>(v));
  for (int v = 0; v < 256; ++v) expect_formats_like_to_chars(static_cast<std::uint8_t>(v));
  for (int v = -32768; v < 32768; ++v) expect_formats_like_to_chars(static_cast<std::int16_t>(v));
  for (int v = 0; v < 65536; ++v) expect_formats_like_to_chars(static_cast<std::uint16_t>(v));
  std::uint64_t power = 1;
  for (int i = 0; i < 20; ++i, power *= 10) {
    for (std::uint64_t v : {power - 1, power, power + 1}) {
      expect_formats_like_to_chars(v);
      expect_formats_like_to_chars(static_cast<std::int64_t>(v));
      expect_formats_like_to_chars(-static_cast<std::int64_t>(v));
      expect_formats_like_to_chars(static_cast<std::uint32_t>(v));
      expect_formats_like_to_chars(static_cast<std::int32_t>(v));
    }
  }
  expect_formats_like_to_chars(std::numeric_limits<std::int64_t>::min());
  expect_formats_like_to_chars(std::numeric_limits<std::int32_t>::min());
  expect_formats_like_to_chars(std::numeric_limits<std::uint64_t>::max());
  std::mt19937_64 rng(3);
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t v = rng() >> (rng() % 64);
    expect_formats_like_to_chars(v);
    expect_formats_like_to_chars(static_cast<std::int64_t>(v * 2));
    expect_formats_like_to_chars(static_cast<std::uint32_t>(v));
    expect_formats_like_to_chars(static_cast<std::int32_t>(v));
  }
}

TEST(XsdBoolean, LexicalSpace) {
  EXPECT_TRUE(parse_ok<bool>("true"));
  EXPECT_TRUE(parse_ok<bool>(" 1\n"));
  EXPECT_FALSE(parse_ok<bool>("false"));
  EXPECT_FALSE(parse_ok<bool>("0"));
  for (std::string_view bad : {"", "TRUE", "True", "yes", "2", "t", "01", "true false"})
    EXPECT_EQ(parse_error<bool>(bad), errc::invalid_lexical) << bad;
  EXPECT_EQ(format(true), "true");
  EXPECT_EQ(format(false), "false");
}

template <class F>
void check_float_lexical() {
  SCOPED_TRACE(std::string(xsd_traits<F>::type_name));
  EXPECT_EQ(parse_ok<F>("INF"), std::numeric_limits<F>::infinity());
  EXPECT_EQ(parse_ok<F>("+INF"), std::numeric_limits<F>::infinity());
  EXPECT_EQ(parse_ok<F>(" -INF "), -std::numeric_limits<F>::infinity());
  EXPECT_TRUE(std::isnan(parse_ok<F>("NaN")));
  EXPECT_EQ(format(std::numeric_limits<F>::infinity()), "INF");
  EXPECT_EQ(format(-std::numeric_limits<F>::infinity()), "-INF");
  EXPECT_EQ(format(std::numeric_limits<F>::quiet_NaN()), "NaN");
  EXPECT_EQ(parse_ok<F>("1E3"), F(1000));
  EXPECT_EQ(parse_ok<F>("1e+3"), F(1000));
  EXPECT_EQ(parse_ok<F>("1e-3"), F(0.001));
  EXPECT_EQ(parse_ok<F>("+1.5"), F(1.5));
  EXPECT_EQ(parse_ok<F>(".5"), F(0.5));
  EXPECT_EQ(parse_ok<F>("5."), F(5));
  EXPECT_EQ(parse_ok<F>("-0012.250e1"), F(-122.5));
  const F neg_zero = parse_ok<F>("-0");
  EXPECT_EQ(neg_zero, F(0));
  EXPECT_TRUE(std::signbit(neg_zero));
  EXPECT_EQ(format(F(-0.0)), "-0");
  EXPECT_TRUE(std::signbit(parse_ok<F>(format(F(-0.0)))));
  EXPECT_FALSE(std::signbit(parse_ok<F>("0.0")));
  for (std::string_view bad :
       {"",      "inf", "-inf", "+NaN", "nan", "Infinity", "INFINITY", "0x1p3", "1e",
        "e5",    ".",   "+",    "-",    "--1", "1.5f",     "1,5",      "1 2",   "1e5.5",
        "1.2.3", " . ", "1e+",  "+.e1", "+-1", "-+1",      "+-.5",     "++1"})
    EXPECT_EQ(parse_error<F>(bad), errc::invalid_lexical) << '"' << bad << '"';
  EXPECT_EQ(parse_error<F>(std::string_view("1\0", 2)), errc::invalid_lexical);
  // Below the smallest subnormal rounds to (signed) zero; beyond the largest is an error.
  EXPECT_EQ(parse_ok<F>("1e-999999999999"), F(0));
  EXPECT_TRUE(std::signbit(parse_ok<F>("-1e-400")));
  EXPECT_EQ(parse_ok<F>("0.000000000000000000000000000000000000000000000000000e999999"), F(0));
  EXPECT_EQ(parse_error<F>("1e400"), errc::out_of_range);
  EXPECT_EQ(parse_error<F>("-1e99999999999999999999"), errc::out_of_range);
  EXPECT_EQ(parse_error<F>("100000000000000000000000000000000000000000000000000000000000000e350"),
            errc::out_of_range);
  // Subnormals and extremes round-trip exactly.
  for (F v : {std::numeric_limits<F>::denorm_min(), -std::numeric_limits<F>::denorm_min(),
              std::numeric_limits<F>::min(), std::numeric_limits<F>::max(),
              std::numeric_limits<F>::lowest(), std::numeric_limits<F>::epsilon(),
              std::numeric_limits<F>::min() / 3})
    EXPECT_EQ(parse_ok<F>(format(v)), v) << format(v);
}

TEST(XsdFloat, LexicalSpaceAndExtremes) {
  check_float_lexical<float>();
  check_float_lexical<double>();
  EXPECT_EQ(format(std::numeric_limits<float>::max()), "3.4028235e+38");  // Java's Float.MAX_VALUE
  EXPECT_EQ(format(std::numeric_limits<double>::max()), "1.7976931348623157e+308");
  EXPECT_EQ(parse_ok<double>("4.9e-324"), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(parse_ok<float>("1.4e-45"), std::numeric_limits<float>::denorm_min());
  EXPECT_EQ(parse_error<float>("3.5e38"), errc::out_of_range);
  EXPECT_EQ(parse_ok<float>("3.4028235e38"), std::numeric_limits<float>::max());
  EXPECT_EQ(format(0.1), "0.1");
  EXPECT_EQ(format(1e21), "1e+21");
  EXPECT_EQ(format(123.0f), "123");
}

template <class F, class Bits>
void round_trip_random_floats(std::mt19937_64& rng) {
  for (int i = 0; i < 50000; ++i) {
    const F v = std::bit_cast<F>(static_cast<Bits>(rng()));
    F back{};
    const std::string text = format(v);
    ASSERT_EQ(test::parse(text, back), errc::ok) << text;
    if (std::isnan(v)) {
      ASSERT_TRUE(std::isnan(back)) << text;
    } else {
      ASSERT_EQ(std::bit_cast<Bits>(back), std::bit_cast<Bits>(v)) << text;
    }
  }
}

TEST(XsdFloat, PropertyShortestTextRoundTripsBitExact) {
  std::mt19937_64 rng(42);
  round_trip_random_floats<float, std::uint32_t>(rng);
  round_trip_random_floats<double, std::uint64_t>(rng);
}

// The parser (fast_float behind XSD's lexical rules) must agree bit for bit with
// std::from_chars wherever from_chars finds the value in range.
template <class F, class Bits>
void expect_same_as_from_chars(const std::string& text) {
  F expected{};
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), expected);
  ASSERT_EQ(ptr, digits.data() + digits.size()) << text;
  F got{};
  const errc e = test::parse(text, got);
  if (ec == std::errc::result_out_of_range) {
    ASSERT_TRUE(e == errc::out_of_range || (e == errc::ok && got == 0)) << text;
    return;
  }
  ASSERT_EQ(ec, std::errc{}) << text;
  ASSERT_EQ(e, errc::ok) << text;
  ASSERT_EQ(std::bit_cast<Bits>(got), std::bit_cast<Bits>(expected)) << text;
}

// Text for w * 10^q in one of the lexical shapes peers send: the point anywhere in the digits
// (or none), leading zeros, a '+' or '-' sign, e/E with or without an exponent sign.
std::string decimal_text(std::mt19937_64& rng, std::uint64_t w, int q) {
  std::string digits = std::to_string(w);
  std::string text;
  switch (rng() % 3) {
    case 0:
      text = "-";
      break;
    case 1:
      text = "+";
      break;
    default:
      break;
  }
  text.append(rng() % 4 == 0 ? "00" : "");
  // point == size: no point; size + 1: a trailing point ("12.")
  const std::size_t point = rng() % (digits.size() + 2);
  if (point < digits.size()) {
    q += static_cast<int>(digits.size() - point);
    if (point == 0) {
      text.append(rng() % 2 ? "0." : ".");
      if (rng() % 2) {  // zeros after the point are not significant digits
        text.append("000");
        q += 3;
      }
    } else
      text.append(digits.substr(0, point)).push_back('.');
    text.append(digits.substr(point));
  } else {
    text.append(digits);
  }
  if (point == digits.size() + 1) text.append(".");
  text.push_back(rng() % 2 ? 'e' : 'E');
  if (q >= 0 && rng() % 2) text.push_back('+');
  text.append(std::to_string(q));
  return text;
}

template <class F, class Bits>
void parser_agrees(std::mt19937_64& rng) {
  SCOPED_TRACE(std::string(xsd_traits<F>::type_name));
  constexpr int mantissa_bits = std::numeric_limits<F>::digits;  // with the hidden bit
  for (int i = 0; i < 200000; ++i) {
    // Significands of 1 to 19 digits and exponents across the whole table and beyond.
    const int length = 1 + static_cast<int>(rng() % 19);
    std::uint64_t w = rng() % 10000000000000000000u;
    for (int d = length; d < 19; ++d) w /= 10;
    const int q = static_cast<int>(rng() % 720) - 370;
    expect_same_as_from_chars<F, Bits>(decimal_text(rng, w, q));
    // Exact halfway points between two neighbours (ties to even) and their neighbours,
    // scaled by small powers of ten, where the round-to-even branch is taken.
    const int bits = mantissa_bits + 1 + static_cast<int>(rng() % (64 - mantissa_bits - 1));
    const std::uint64_t top = (rng() | std::uint64_t{1} << 63) >> (64 - mantissa_bits);
    std::uint64_t tie = top << (bits - mantissa_bits) | std::uint64_t{1}
                                                            << (bits - mantissa_bits - 1);
    if (tie >= 10000000000000000000u) tie >>= 1;
    const std::uint64_t near = tie + (rng() % 3) - 1;
    expect_same_as_from_chars<F, Bits>(std::to_string(near) + "e" + std::to_string(rng() % 30));
    expect_same_as_from_chars<F, Bits>(std::to_string(near));
  }
}

TEST(XsdFloat, ParserAgreesWithFromChars) {
  std::mt19937_64 rng(7);
  parser_agrees<float, std::uint32_t>(rng);
  parser_agrees<double, std::uint64_t>(rng);
}

// The parser's own scanner (digits eight bytes at a time, up to 19 significant digits straight
// to the conversion, more through fast_float's exact fallback) against XSD's grammar as a
// regular expression and std::from_chars: digit runs of 0-24 digits on either side of the
// point, so a run ends at every byte of a word, followed by every kind of byte that can stop it
// (exponent, junk, non-ASCII bytes that carry or borrow in the classification, whitespace).
template <class F, class Bits>
void scanner_agrees(std::mt19937_64& rng) {
  SCOPED_TRACE(std::string(xsd_traits<F>::type_name));
  const std::regex grammar(R"([+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?)");
  const std::string_view tails[] = {"",     "e5",   "E-3",   "e+038", "e",   "x", "\x80",
                                    "\xB0", "\xBA", "\xFF",  "/",     ":",   " ", ".",
                                    "e1x",  "0",    "e-400", "e400",  "1e1", "+"};
  const std::string_view heads[] = {"", "-", "+", "0", "-0", " "};
  auto digits = [&](int n) {
    std::string d;
    for (int i = 0; i < n; ++i) d.push_back(static_cast<char>('0' + rng() % 10));
    return d;
  };
  for (int round = 0; round < 2; ++round) {
    for (int before = 0; before <= 24; ++before) {
      for (int after = -1; after <= 24; ++after) {
        for (std::string_view head : heads) {
          for (std::string_view tail : tails) {
            std::string text(head);
            text.append(digits(before));
            if (after >= 0) text.append(".").append(digits(after));
            text.append(tail);
            F got{};
            const errc e = test::parse(text, got);
            const std::string_view trimmed = xsd::detail::trim_xml_space(text);
            if (!std::regex_match(trimmed.begin(), trimmed.end(), grammar)) {
              ASSERT_EQ(e, errc::invalid_lexical) << '"' << text << '"';
              continue;
            }
            std::string_view number = trimmed;
            if (number.front() == '+') number.remove_prefix(1);
            F expected{};
            const auto [ptr, ec] =
                std::from_chars(number.data(), number.data() + number.size(), expected);
            ASSERT_EQ(ptr, number.data() + number.size()) << text;
            if (ec == std::errc::result_out_of_range) {
              ASSERT_TRUE(e == errc::out_of_range || (e == errc::ok && got == 0)) << text;
              continue;
            }
            ASSERT_EQ(e, errc::ok) << '"' << text << '"';
            ASSERT_EQ(std::bit_cast<Bits>(got), std::bit_cast<Bits>(expected)) << text;
          }
        }
      }
    }
  }
}

TEST(XsdFloat, ScannerAgreesWithGrammarAndFromChars) {
  std::mt19937_64 rng(13);
  scanner_agrees<float, std::uint32_t>(rng);
  scanner_agrees<double, std::uint64_t>(rng);
  // Values gSOAP, CXF and lather print for the CXF items, and ties at the edge of float.
  EXPECT_EQ(parse_ok<float>("3.40282347E+38"), std::numeric_limits<float>::max());
  EXPECT_EQ(parse_ok<double>("1.7976931348623157E+308"), std::numeric_limits<double>::max());
  EXPECT_EQ(parse_error<float>("3.40282357e38"), errc::out_of_range);  // above the midpoint
  EXPECT_EQ(parse_ok<float>("3.40282356e38"), std::numeric_limits<float>::max());
  EXPECT_EQ(parse_ok<float>("00000000000000000000000000001.5"), 1.5f);  // > 19 digits
  EXPECT_EQ(parse_ok<double>("12345678901234567890123e-22"), 1.2345678901234567890123);
}

// Every 4093rd float, and doubles at random, in their shortest text and in 9 / 17 significant
// digits (the forms Java and C peers print): bit-exact through the parser.
TEST(XsdFloat, PrintedFormsParseBitExact) {
  char buf[64];
  for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << 32); bits += 4093) {
    const float v = std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    if (!std::isfinite(v)) continue;
    const std::string shortest = format(v);
    if (!std::signbit(v)) {
      ASSERT_EQ(format(-v), "-" + shortest);
    }
    ASSERT_EQ(std::bit_cast<std::uint32_t>(parse_ok<float>(shortest)), bits) << shortest;
    const int n = std::snprintf(buf, sizeof buf, "%.8E", static_cast<double>(v));
    ASSERT_EQ(std::bit_cast<std::uint32_t>(parse_ok<float>({buf, static_cast<std::size_t>(n)})),
              bits)
        << buf;
  }
  std::mt19937_64 rng(11);
  for (int i = 0; i < 300000; ++i) {
    const double v = std::bit_cast<double>(rng());
    if (!std::isfinite(v)) continue;
    const int n = std::snprintf(buf, sizeof buf, "%.16E", v);
    ASSERT_EQ(std::bit_cast<std::uint64_t>(parse_ok<double>({buf, static_cast<std::size_t>(n)})),
              std::bit_cast<std::uint64_t>(v))
        << buf;
    expect_same_as_from_chars<double, std::uint64_t>(
        std::string(buf, static_cast<std::size_t>(std::snprintf(
                             buf, sizeof buf, "%.*g", 1 + static_cast<int>(rng() % 19), v))));
  }
}

TEST(XsdList, WhitespaceSeparatedItems) {
  using ints = xsd::list<std::int32_t>;
  EXPECT_EQ(parse_ok<ints>(" 1  2\n\t3 ").items, (std::vector<std::int32_t>{1, 2, 3}));
  EXPECT_TRUE(parse_ok<ints>("  ").items.empty());
  EXPECT_EQ(format(ints{{1, -2, 3}}), "1 -2 3");
  EXPECT_EQ(parse_error<ints>("1 x 3"), errc::invalid_lexical);
  EXPECT_EQ(parse_error<ints>("1 99999999999"), errc::out_of_range);
  EXPECT_EQ(canonical<xsd::list<double>>("1.0 INF -0 1e3"), "1 INF -0 1000");
  static_assert(xsd_traits<ints>::type_name == "int");
}

}  // namespace
}  // namespace lather::bind

// xsd:boolean, the eight fixed-width integer types, xsd:float and xsd:double.
// Parse and format never allocate: text is scanned in place and formatted into stack buffers.
#include <bit>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "xsd_detail.hpp"

namespace lather::bind::detail {
namespace {

using xsd::detail::trim_xml_space;

template <class T>
errc parse_integer(std::string_view text, T& out) noexcept {
  text = trim_xml_space(text);
  const char* p = text.data();
  const char* end = p + text.size();
  bool negative = false;
  if (p != end && (*p == '+' || *p == '-')) negative = *p++ == '-';
  if (p == end) return errc::invalid_lexical;
  using U = std::make_unsigned_t<T>;
  // Largest magnitude allowed for this sign (unsigned types allow only zero when negative).
  const std::uint64_t limit =
      negative ? (std::is_signed_v<T> ? std::uint64_t{std::numeric_limits<U>::max() / 2} + 1 : 0)
               : std::uint64_t{std::numeric_limits<T>::max()};
  std::uint64_t acc = 0;
  // Up to 19 digits cannot overflow 64 bits: accumulate without the per-digit range test and
  // compare once at the end (leading zeros beyond that take the general loop below).
  if (end - p <= 19) {
    for (const char* q = p; q != end; ++q) {
      const unsigned d = static_cast<unsigned char>(*q - '0');
      if (d > 9) return errc::invalid_lexical;
      acc = acc * 10 + d;
    }
    if (acc > limit) return errc::out_of_range;
    p = end;
  }
  bool overflow = false;
  // Keep scanning past an overflow so "999x" is reported as lexical, not range, error.
  for (; p != end; ++p) {
    const unsigned d = static_cast<unsigned char>(*p - '0');
    if (d > 9) return errc::invalid_lexical;
    if (!overflow) {
      if (d > limit || acc > (limit - d) / 10)
        overflow = true;
      else
        acc = acc * 10 + d;
    }
  }
  if (overflow) return errc::out_of_range;
  if constexpr (std::is_signed_v<T>) {
    out = negative ? static_cast<T>(0 - static_cast<U>(acc)) : static_cast<T>(acc);
  } else {
    out = static_cast<T>(acc);
  }
  return errc::ok;
}

// Checks the XSD float lexical form (no hex, no "inf"/"nan" spellings, no empty mantissa) and
// reports, for a value std::from_chars finds out of range, whether it is tiny (underflow).
struct float_scan {
  bool valid = false;
  bool negative = false;
  const char* number = nullptr;  // first char for from_chars (after a '+')
  long magnitude = 0;            // decimal exponent of the first significant digit, + 1
};

float_scan scan_float(std::string_view text) noexcept {
  float_scan s;
  const char* p = text.data();
  const char* end = p + text.size();
  if (p != end && (*p == '+' || *p == '-')) s.negative = *p++ == '-';
  s.number = (text.data() != end && *text.data() == '+') ? text.data() + 1 : text.data();
  // leading: significant integer digits, or minus the fraction's leading zeros
  auto skip = [&](char c) {
    const char* from = p;
    while (p != end && *p == c) ++p;
    return p - from;
  };
  auto skip_digits = [&] {
    const char* from = p;
    while (p != end && is_digit(*p)) ++p;
    return p - from;
  };
  const long int_zeros = skip('0');
  const long leading_digits = skip_digits();
  long leading = leading_digits;
  long frac_digits = 0;
  if (p != end && *p == '.') {
    ++p;
    const long frac_zeros = leading == 0 ? skip('0') : 0;
    if (leading == 0) leading = -frac_zeros;
    frac_digits = frac_zeros + skip_digits();
  }
  if (int_zeros + leading_digits + frac_digits == 0) return s;
  long exponent = 0;
  if (p != end && (*p == 'e' || *p == 'E')) {
    ++p;
    bool exp_negative = false;
    if (p != end && (*p == '+' || *p == '-')) exp_negative = *p++ == '-';
    if (p == end || !is_digit(*p)) return s;
    for (; p != end && is_digit(*p); ++p)
      if (exponent < 100000) exponent = exponent * 10 + (*p - '0');
    if (exp_negative) exponent = -exponent;
  }
  s.valid = p == end;
  s.magnitude = leading + exponent;
  return s;
}

// A decimal number w * 10^q as written: the XSD float lexical form minus INF/NaN.
struct decimal_number {
  std::uint64_t w = 0;  // the significant digits (at most 19, so exact)
  std::int64_t q = 0;
  bool negative = false;
};

// Eight ASCII digits at p as a number, or false if any of them is not a digit (SWAR, as in
// D. Lemire's fast_float: two multiplies instead of eight multiply-adds).
bool eight_digits(const char* p, std::uint64_t& value) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  if ((((v + 0x4646464646464646) | (v - 0x3030303030303030)) & 0x8080808080808080) != 0)
    return false;
  v -= 0x3030303030303030;
  v = v * 10 + (v >> 8);  // pairs
  value = ((v & 0x000000FF000000FF) * (100 + (1000000ULL << 32)) +
           ((v >> 16) & 0x000000FF000000FF) * (1 + (10000ULL << 32))) >>
          32;
  return true;
}

// Reads the common shape, sign? digits ('.' digits)? ([eE] sign? digits)?, with at most 19
// significant digits and at most 6 exponent digits. False for anything else (errors
// included): the general path decides those. Digits accumulate modulo 2^64 (counted, and
// rejected past 19); the fraction, usually the long part, is read eight digits at a time.
bool scan_decimal(std::string_view text, decimal_number& d) noexcept {
  const char* p = text.data();
  const char* const end = p + text.size();
  if (p == end) return false;
  if (*p == '+' || *p == '-') d.negative = *p++ == '-';
  const char* const int_begin = p;
  while (p != end && *p == '0') ++p;
  const char* sig_begin = p;
  std::uint64_t w = 0;
  for (unsigned digit; p != end && (digit = static_cast<unsigned char>(*p - '0')) < 10; ++p)
    w = w * 10 + digit;
  std::size_t significant = static_cast<std::size_t>(p - sig_begin);
  std::size_t fraction = 0;
  if (p != end && *p == '.') {
    const char* const frac_begin = ++p;
    if (significant == 0)  // 0.000ddd: the zeros after the point are not significant either
      while (p != end && *p == '0') ++p;
    sig_begin = p;
    for (std::uint64_t eight; end - p >= 8 && eight_digits(p, eight); p += 8)
      w = w * 100000000 + eight;
    for (unsigned digit; p != end && (digit = static_cast<unsigned char>(*p - '0')) < 10; ++p)
      w = w * 10 + digit;
    significant += static_cast<std::size_t>(p - sig_begin);
    fraction = static_cast<std::size_t>(p - frac_begin);
    if (p == int_begin + 1) return false;  // "." alone
  } else if (p == int_begin) {
    return false;  // no digits
  }
  if (significant > 19) return false;
  std::int64_t q = -static_cast<std::int64_t>(fraction);
  if (p != end) {
    if ((*p | 0x20) != 'e' || ++p == end) return false;
    bool exp_negative = false;
    if (*p == '+' || *p == '-') exp_negative = *p++ == '-';
    const char* const exp_begin = p;
    std::uint32_t e = 0;
    for (unsigned digit; p != end && (digit = static_cast<unsigned char>(*p - '0')) < 10; ++p)
      e = e * 10 + digit;
    if (p != end || p == exp_begin || p - exp_begin > 6) return false;
    q += exp_negative ? -std::int64_t{e} : std::int64_t{e};
  }
  d.w = w;
  d.q = q;
  return true;
}

template <class F>
struct binary_format;
template <>
struct binary_format<float> {
  using bits = std::uint32_t;
  static constexpr int mantissa_bits = 23, minimum_exponent = -127, infinite_power = 0xFF;
  static constexpr int smallest_power_of_ten = -65, largest_power_of_ten = 38;
  static constexpr int min_round_to_even = -17, max_round_to_even = 10;
  static constexpr std::uint64_t max_exact_mantissa = std::uint64_t{1} << 24;
  static constexpr int max_exact_power = 10;
  static constexpr float powers_of_ten[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                            1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
};
template <>
struct binary_format<double> {
  using bits = std::uint64_t;
  static constexpr int mantissa_bits = 52, minimum_exponent = -1023, infinite_power = 0x7FF;
  static constexpr int smallest_power_of_ten = -342, largest_power_of_ten = 308;
  static constexpr int min_round_to_even = -4, max_round_to_even = 23;
  static constexpr std::uint64_t max_exact_mantissa = std::uint64_t{1} << 53;
  static constexpr int max_exact_power = 22;
  static constexpr double powers_of_ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                             1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                             1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
};

// The correctly rounded F nearest w * 10^q, or false where this path cannot be sure of it
// (subnormal or out-of-range results, ambiguous products): the general path then decides.
// Clinger's exact case first (w and 10^|q| both exact in F: one IEEE operation rounds once),
// else Eisel-Lemire (D. Lemire, "Number Parsing at a Gigabyte per Second", 2021, sections
// 5-6) on the 128-bit table of 5^q, as fast_float and so libstdc++'s from_chars compute it.
template <class F>
bool decimal_to_binary(const decimal_number& d, F& out) noexcept {
  using fmt = binary_format<F>;
  std::uint64_t w = d.w;
  const std::int64_t q = d.q;
  if (w == 0) {
    out = d.negative ? -F{0} : F{0};
    return true;
  }
#if FLT_EVAL_METHOD == 0
  if (w <= fmt::max_exact_mantissa && q >= -fmt::max_exact_power && q <= fmt::max_exact_power) {
    F value = static_cast<F>(w);
    value = q < 0 ? value / fmt::powers_of_ten[-q] : value * fmt::powers_of_ten[q];
    out = d.negative ? -value : value;
    return true;
  }
#endif
  if (q < fmt::smallest_power_of_ten || q > fmt::largest_power_of_ten) return false;
  const int lz = std::countl_zero(w);
  w <<= lz;
  // The product's top bits: one 64x128 multiply suffices unless the bits below the mantissa
  // (+3: hidden bit, rounding bit, possible leading zero) are all ones.
  const std::uint64_t* const pow5 = pow5_128[q - pow5_128_min];
  unsigned __int128 product = static_cast<unsigned __int128>(w) * pow5[0];
  constexpr std::uint64_t precision_mask = ~std::uint64_t{0} >> (fmt::mantissa_bits + 3);
  std::uint64_t high = static_cast<std::uint64_t>(product >> 64);
  std::uint64_t low = static_cast<std::uint64_t>(product);
  if ((high & precision_mask) == precision_mask) {
    const unsigned __int128 second = static_cast<unsigned __int128>(w) * pow5[1];
    const std::uint64_t second_high = static_cast<std::uint64_t>(second >> 64);
    low += second_high;
    if (second_high > low) ++high;
  }
  if (low == ~std::uint64_t{0}) return false;  // the truncated table may be off by one here
  const int upper_bit = static_cast<int>(high >> 63);
  const int shift = upper_bit + 64 - fmt::mantissa_bits - 3;
  std::uint64_t mantissa = high >> shift;
  // floor(q * log2(10)) + 63, exact over the table's range.
  const int power_of_two = static_cast<int>(((152170 + 65536) * q) >> 16) + 63;
  int power2 = power_of_two + upper_bit - lz - fmt::minimum_exponent;
  if (power2 <= 0) return false;  // subnormal
  // Exactly halfway between two floats (only possible where 5^q is exact): round to even.
  if (low <= 1 && q >= fmt::min_round_to_even && q <= fmt::max_round_to_even &&
      (mantissa & 3) == 1 && (mantissa << shift) == high)
    mantissa &= ~std::uint64_t{1};
  mantissa += mantissa & 1;
  mantissa >>= 1;
  if (mantissa >= (std::uint64_t{2} << fmt::mantissa_bits)) {
    mantissa = std::uint64_t{1} << fmt::mantissa_bits;
    ++power2;
  }
  if (power2 >= fmt::infinite_power) return false;  // too large: out of range
  mantissa &= ~(std::uint64_t{1} << fmt::mantissa_bits);
  using bits = typename fmt::bits;
  const bits word = static_cast<bits>(mantissa) |
                    static_cast<bits>(static_cast<bits>(power2) << fmt::mantissa_bits) |
                    static_cast<bits>(bits{d.negative} << (sizeof(bits) * 8 - 1));
  out = std::bit_cast<F>(word);
  return true;
}

template <class F>
errc parse_floating(std::string_view text, F& out) noexcept {
  text = trim_xml_space(text);
  if (decimal_number d; scan_decimal(text, d) && decimal_to_binary(d, out)) return errc::ok;
  if (text == "INF" || text == "+INF") {
    out = std::numeric_limits<F>::infinity();
    return errc::ok;
  }
  if (text == "-INF") {
    out = -std::numeric_limits<F>::infinity();
    return errc::ok;
  }
  if (text == "NaN") {
    out = std::numeric_limits<F>::quiet_NaN();
    return errc::ok;
  }
  // Fast path: from_chars' decimal grammar is XSD's once a leading '+' is dropped (it takes
  // none) and the digits start with a digit or '.' (which rules out its inf/nan spellings).
  if (!text.empty()) {
    const bool plus = text.front() == '+';
    const std::string_view number = text.substr(plus ? 1 : 0);
    const std::size_t digits = !plus && number.front() == '-' ? 1 : 0;
    if (number.size() > digits && (is_digit(number[digits]) || number[digits] == '.')) {
      F value{};
      const char* const last = number.data() + number.size();
      const auto [ptr, ec] =
          std::from_chars(number.data(), last, value, std::chars_format::general);
      if (ec == std::errc{} && ptr == last) {
        out = value;
        return errc::ok;
      }
    }
  }
  const float_scan s = scan_float(text);
  if (!s.valid) return errc::invalid_lexical;
  F value{};
  const auto [ptr, ec] =
      std::from_chars(s.number, text.data() + text.size(), value, std::chars_format::general);
  if (ec == std::errc::result_out_of_range) {
    if (s.magnitude > 0) return errc::out_of_range;  // too large for the type
    out = s.negative ? -F{0} : F{0};                 // below the smallest subnormal: rounds to 0
    return errc::ok;
  }
  if (ec != std::errc{} || ptr != text.data() + text.size()) return errc::invalid_lexical;
  out = value;
  return errc::ok;
}

std::size_t copy_literal(std::string_view s, char* buf) noexcept {
  std::memcpy(buf, s.data(), s.size());
  return s.size();
}

template <class F>
std::size_t format_floating(F value, char* buf, std::size_t size) noexcept {
  if (std::isnan(value)) return copy_literal("NaN", buf);
  if (std::isinf(value)) return copy_literal(value < 0 ? "-INF" : "INF", buf);
  return static_cast<std::size_t>(std::to_chars(buf, buf + size, value).ptr - buf);
}

constexpr char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

constexpr std::uint64_t powers_of_ten[] = {1,
                                           10,
                                           100,
                                           1000,
                                           10000,
                                           100000,
                                           1000000,
                                           10000000,
                                           100000000,
                                           1000000000,
                                           10000000000,
                                           100000000000,
                                           1000000000000,
                                           10000000000000,
                                           100000000000000,
                                           1000000000000000,
                                           10000000000000000,
                                           100000000000000000,
                                           1000000000000000000,
                                           10000000000000000000u};

// Decimal digits of v: floor(log10) from the bit length (1233 / 4096 ~ log10(2)), corrected by
// one comparison; v | 1 gives 0 one digit and no other value a different length.
std::size_t decimal_length(std::uint64_t v) noexcept {
  v |= 1;
  const int estimate = ((64 - std::countl_zero(v)) * 1233) >> 12;
  return static_cast<std::size_t>(estimate) + (v >= powers_of_ten[estimate]);
}

// The decimal text of v at buf, written from the last digit backwards two digits at a time
// (std::to_chars measures the length four digits a time and costs ~1.5x the instructions).
std::size_t format_unsigned(std::uint64_t v, char* buf) noexcept {
  const std::size_t n = decimal_length(v);
  char* p = buf + n;
  while (v >= 100) {
    const std::uint64_t pair = v % 100;
    v /= 100;
    p -= 2;
    std::memcpy(p, digit_pairs + pair * 2, 2);
  }
  if (v >= 10)
    std::memcpy(p - 2, digit_pairs + v * 2, 2);
  else
    p[-1] = static_cast<char>('0' + v);
  return n;
}

template <class T>
std::size_t format_number(T value, char* buf, std::size_t size) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    return format_floating(value, buf, size);
  } else if constexpr (std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    if (value >= 0) return format_unsigned(static_cast<U>(value), buf);
    *buf = '-';
    return 1 + format_unsigned(static_cast<U>(0 - static_cast<U>(value)), buf + 1);
  } else {
    return format_unsigned(value, buf);
  }
}

}  // namespace

template <class T>
requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) struct codec<T> {
  static errc parse(std::string_view text, T& out) noexcept {
    if constexpr (std::is_floating_point_v<T>) {
      return parse_floating(text, out);
    } else {
      return parse_integer(text, out);
    }
  }
  static void format(T value, std::string& out) {
    char buf[32];
    out.append(buf, format_number(value, buf, sizeof buf));
  }
  static void write(T value, xml::writer& w) {
    char buf[32];
    xsd::detail::write_markup_free(w, {buf, format_number(value, buf, sizeof buf)});
  }
  static std::optional<std::string_view> leaf_text(T value, leaf_buffer& buf) {
    return std::string_view{buf.data, format_number(value, buf.data, sizeof buf.data)};
  }
};

template <>
struct codec<bool> {
  static errc parse(std::string_view text, bool& out) noexcept {
    text = trim_xml_space(text);
    if (text == "true" || text == "1") {
      out = true;
    } else if (text == "false" || text == "0") {
      out = false;
    } else {
      return errc::invalid_lexical;
    }
    return errc::ok;
  }
  static void format(bool value, std::string& out) { out.append(value ? "true" : "false"); }
  static void write(bool value, xml::writer& w) {
    xsd::detail::write_markup_free(w, value ? "true" : "false");
  }
  static std::optional<std::string_view> leaf_text(bool value, leaf_buffer&) {
    return value ? "true" : "false";
  }
};

template struct simple_traits_base<bool>;
template struct simple_traits_base<std::int8_t>;
template struct simple_traits_base<std::int16_t>;
template struct simple_traits_base<std::int32_t>;
template struct simple_traits_base<std::int64_t>;
template struct simple_traits_base<std::uint8_t>;
template struct simple_traits_base<std::uint16_t>;
template struct simple_traits_base<std::uint32_t>;
template struct simple_traits_base<std::uint64_t>;
template struct simple_traits_base<float>;
template struct simple_traits_base<double>;

}  // namespace lather::bind::detail

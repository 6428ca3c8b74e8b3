// xsd:boolean, the eight fixed-width integer types, xsd:float and xsd:double.
// Parse and format never allocate: text is scanned in place and formatted into stack buffers.
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include <fast_float/fast_float.h>

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

// The decimal digits from p on appended to w (w * 10^n + digits; wraps past 19 digits, which
// the caller counts), eight bytes at a time where eight are readable: the run of digits at the
// start of a word is found by one classification (bytes below the first non-digit produce no
// carry or borrow, so its flag is the lowest one), shifted to the word's end behind '0's and
// converted by fast_float's SWAR routine. Returns the first byte that is not a digit.
inline const char* accumulate_digits(const char* p, const char* end, std::uint64_t& w) noexcept {
  if constexpr (std::endian::native == std::endian::little) {
    while (end - p >= 8) {
      std::uint64_t v;
      std::memcpy(&v, p, 8);
      const std::uint64_t not_digit =
          ((v + 0x4646464646464646) | (v - 0x3030303030303030)) & 0x8080808080808080;
      if (not_digit == 0) {
        w = w * 100000000 + fast_float::parse_eight_digits_unrolled(v);
        p += 8;
        continue;
      }
      const int n = std::countr_zero(not_digit) >> 3;
      if (n == 0) return p;
      v = v << (64 - 8 * n) | 0x3030303030303030 >> (8 * n);
      w = w * powers_of_ten[n] + fast_float::parse_eight_digits_unrolled(v);
      return p + n;
    }
  }
  for (; p != end && is_digit(*p); ++p) w = w * 10 + static_cast<unsigned>(*p - '0');
  return p;
}

// xsd:float and xsd:double: XSD's decimal form is scanned here and converted by fast_float
// (Debian's libfast-float-dev, header-only: D. Lemire's exact Eisel-Lemire conversion, the code
// libstdc++ 12 wraps in std::from_chars). Its own scanner (parse_number_string: C++ grammar,
// spans for its bignum fallback) cost ~160 of the ~260 instructions per value, more than the
// conversion; with up to 19 significant digits the digits are an exact 64-bit integer w and
// the value is w * 10^q, which compute_float rounds correctly (or declines: power2 < 0). More
// digits, or a declined case, go through fast_float::from_chars whole, which decides them
// exactly (bignum comparison). Grammar: [+-]? (d+ (. d*)? | . d+) ([eE] [+-]? d+)?, plus INF,
// +INF, -INF and NaN; fast_float's inf/nan spellings and hex never reach it.
template <class F>
[[gnu::always_inline]] inline errc parse_floating(std::string_view text, F& out) noexcept {
  text = trim_xml_space(text);
  const char* p = text.data();
  const char* const end = p + text.size();
  const bool negative = p != end && *p == '-';
  const bool plus = p != end && *p == '+';
  p += negative || plus;
  const char* const number = p;
  std::uint64_t w = 0;
  p = accumulate_digits(p, end, w);
  std::ptrdiff_t digits = p - number;
  std::int64_t q = 0;
  if (p != end && *p == '.') {
    const char* const fraction = ++p;
    p = accumulate_digits(p, end, w);
    q = fraction - p;
    digits -= q;
  }
  if (digits == 0) {  // no digits: only the special values (NaN takes no sign)
    const std::string_view rest(number, static_cast<std::size_t>(end - number));
    if (rest == "INF") {
      out = negative ? -std::numeric_limits<F>::infinity() : std::numeric_limits<F>::infinity();
      return errc::ok;
    }
    if (rest == "NaN" && number == text.data()) {
      out = std::numeric_limits<F>::quiet_NaN();
      return errc::ok;
    }
    return errc::invalid_lexical;
  }
  if (p != end && (*p == 'e' || *p == 'E')) {
    ++p;
    const bool negative_exponent = p != end && *p == '-';
    p += p != end && (*p == '-' || *p == '+');
    if (p == end || !is_digit(*p)) return errc::invalid_lexical;
    std::int64_t exponent = 0;
    for (; p != end && is_digit(*p); ++p)  // saturates like fast_float (far beyond any range)
      if (exponent < 0x10000000) exponent = exponent * 10 + (*p - '0');
    q += negative_exponent ? -exponent : exponent;
  }
  if (p != end) return errc::invalid_lexical;
  F value{};
  fast_float::adjusted_mantissa am{};
  am.power2 = -1;
  if (digits <= 19) am = fast_float::compute_float<fast_float::binary_format<F>>(q, w);
  if (am.power2 >= 0) {
    fast_float::to_float(negative, am, value);
  } else {
    // The grammar is checked above; fast_float reads the same digits with its own (exact)
    // fallback. It takes no leading '+'.
    const char* const first = number - negative;
    const auto [ptr, ec] = fast_float::from_chars(first, end, value);
    if (ec != std::errc{} || ptr != end) return errc::invalid_lexical;
  }
  // Out of range: rounded to infinity (too large: an error here, as XSD's value space has no
  // overflow) or to zero (below the smallest subnormal: zero is the nearest).
  if (std::isinf(value)) return errc::out_of_range;
  out = value;
  return errc::ok;
}

std::size_t copy_literal(std::string_view s, char* buf) noexcept {
  std::memcpy(buf, s.data(), s.size());
  return s.size();
}

constexpr char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Decimal digits of v: floor(log10) from the bit length (1233 / 4096 ~ log10(2)), corrected by
// one comparison; v | 1 gives 0 one digit and no other value a different length.
std::size_t decimal_length(std::uint64_t v) noexcept {
  v |= 1;
  const int estimate = ((64 - std::countl_zero(v)) * 1233) >> 12;
  return static_cast<std::size_t>(estimate) + (v >= powers_of_ten[estimate]);
}

// The eight digits of v < 10^8 at p, in one word: the 4-, 2- and 1-digit splits are done in
// all lanes at once by multiply-shift division (exact below 10^4, 10^2 resp.).
void write_eight_digits(std::uint32_t v, char* p) noexcept {
  std::uint64_t x = (v / 10000) | (std::uint64_t{v % 10000} << 32);
  const std::uint64_t hundreds = ((x * 10486) >> 20) & 0x0000007F0000007F;
  x = hundreds | ((x - hundreds * 100) << 16);
  const std::uint64_t tens = ((x * 103) >> 10) & 0x000F000F000F000F;
  x = (tens | ((x - tens * 10) << 8)) | 0x3030303030303030;
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap64(x);
  std::memcpy(p, &x, 8);
}

// The digits of v < 10^8 ending at end, two at a time from the last.
void write_digits_backwards(std::uint32_t v, char* end) noexcept {
  while (v >= 100) {
    const std::uint32_t pair = v % 100;
    v /= 100;
    end -= 2;
    std::memcpy(end, digit_pairs + pair * 2, 2);
  }
  if (v >= 10)
    std::memcpy(end - 2, digit_pairs + v * 2, 2);
  else
    end[-1] = static_cast<char>('0' + v);
}

// The digits of v ending at end: the last eight (and eight before them) a word at a time, the
// leading ones two at a time (std::to_chars measures the length four digits at a time and
// writes two digits per 64-bit division).
void write_unsigned_backwards(std::uint64_t v, char* end) noexcept {
  while (v >= 100000000) {
    end -= 8;
    write_eight_digits(static_cast<std::uint32_t>(v % 100000000), end);
    v /= 100000000;
  }
  if (v >= 10000000)  // exactly eight left (a float's usual digit count)
    write_eight_digits(static_cast<std::uint32_t>(v), end - 8);
  else
    write_digits_backwards(static_cast<std::uint32_t>(v), end);
}

std::size_t format_unsigned(std::uint64_t v, char* buf) noexcept {
  const std::size_t n = decimal_length(v);
  write_unsigned_backwards(v, buf + n);
  return n;
}

// Shortest round-trip text in std::to_chars' notation: libstdc++'s to_chars is Ryu already.
// A hand-written Ryu saved ~46 instructions per value (~13%) and was dropped for ~1,000 lines
// of code and tables.
template <class F>
std::size_t format_floating(F value, char* buf, std::size_t size) noexcept {
  if (std::isnan(value)) return copy_literal("NaN", buf);
  if (std::isinf(value)) return copy_literal(value < 0 ? "-INF" : "INF", buf);
  return static_cast<std::size_t>(std::to_chars(buf, buf + size, value).ptr - buf);
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
requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) struct simple_codec<T> {
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
  static void write_leaf(T value, xml::writer& w, xml::leaf_namespace& ns, xml::ncname local) {
    constexpr std::size_t room = 32;
    write_formatted_leaf(w, ns, local, room,
                         [value](char* dst) { return format_number(value, dst, room); });
  }
};

template <>
struct simple_codec<bool> {
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
  static void write_leaf(bool value, xml::writer& w, xml::leaf_namespace& ns, xml::ncname local) {
    w.text_element(ns, local, value ? "true" : "false");
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

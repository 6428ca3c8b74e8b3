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

// xsd:float and xsd:double: the decimal forms go through fast_float (Debian's
// libfast-float-dev, header-only: D. Lemire's exact Eisel-Lemire conversion, the code
// libstdc++ 12 wraps in std::from_chars), called directly so it inlines: ~80 instructions per
// value fewer than the out-of-line wrapper, and within ~25 of a hand-written copy of the same
// algorithm that we measured and dropped (session 5). fast_float's grammar is XSD's decimal
// form once a leading '+' is dropped (it takes none) and the text starts with a digit or '.'
// (which rules out its inf/nan spellings); XSD's own INF/NaN spellings are matched first.
template <class F>
errc parse_floating(std::string_view text, F& out) noexcept {
  text = trim_xml_space(text);
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
  const bool plus = !text.empty() && text.front() == '+';
  const std::string_view number = text.substr(plus ? 1 : 0);
  const std::size_t sign = !plus && !number.empty() && number.front() == '-' ? 1 : 0;
  if (number.size() <= sign || !(is_digit(number[sign]) || number[sign] == '.'))
    return errc::invalid_lexical;
  F value{};
  const char* const last = number.data() + number.size();
  const auto [ptr, ec] = fast_float::from_chars(number.data(), last, value);
  if (ec != std::errc{} || ptr != last) return errc::invalid_lexical;
  // Out of range: fast_float rounds to infinity (too large: an error here, as XSD's value
  // space has no overflow) or to zero (below the smallest subnormal: zero is the nearest).
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
// of code and tables (session 5).
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

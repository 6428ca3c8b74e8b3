// xsd:boolean, the eight fixed-width integer types, xsd:float and xsd:double.
// Parse and format never allocate: text is scanned in place and formatted into stack buffers.
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

template <class T>
std::size_t format_number(T value, char* buf, std::size_t size) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    return format_floating(value, buf, size);
  } else {
    return static_cast<std::size_t>(std::to_chars(buf, buf + size, value).ptr - buf);
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

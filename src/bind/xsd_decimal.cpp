// xsd:decimal and the arbitrary-precision integer types, kept as canonical text: exact for any
// number of digits, never through a binary floating-point value.
#include <string>

#include "xsd_detail.hpp"

namespace lather::bind::detail {
namespace {

struct number_parts {
  bool negative = false;
  std::string_view integral;    // leading zeros removed
  std::string_view fractional;  // trailing zeros removed
};

// Lexical form (\+|-)?([0-9]+(\.[0-9]*)?|\.[0-9]+); the '.' only when allow_point.
errc split_number(std::string_view text, bool allow_point, number_parts& parts) noexcept {
  text = xsd::detail::trim_xml_space(text);
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) parts.negative = text[i++] == '-';
  const std::size_t int_begin = i;
  while (i < text.size() && is_digit(text[i])) ++i;
  const std::size_t int_end = i;
  std::size_t frac_begin = i, frac_end = i;
  if (allow_point && i < text.size() && text[i] == '.') {
    frac_begin = ++i;
    while (i < text.size() && is_digit(text[i])) ++i;
    frac_end = i;
  }
  if (i != text.size() || (int_end == int_begin && frac_end == frac_begin))
    return errc::invalid_lexical;
  std::size_t a = int_begin;
  while (a < int_end && text[a] == '0') ++a;
  std::size_t b = frac_end;
  while (b > frac_begin && text[b - 1] == '0') --b;
  parts.integral = text.substr(a, int_end - a);
  parts.fractional = text.substr(frac_begin, b - frac_begin);
  if (parts.integral.empty() && parts.fractional.empty()) parts.negative = false;  // -0 == 0
  return errc::ok;
}

void append_canonical(const number_parts& parts, std::string& out) {
  if (parts.negative) out.push_back('-');
  if (parts.integral.empty())
    out.push_back('0');
  else
    out.append(parts.integral);
  if (!parts.fractional.empty()) {
    out.push_back('.');
    out.append(parts.fractional);
  }
}

template <xsd::integer_range Range>
bool in_range(const number_parts& p) noexcept {
  const bool zero = p.integral.empty();
  switch (Range) {
    case xsd::integer_range::any:
      return true;
    case xsd::integer_range::non_negative:
      return zero || !p.negative;
    case xsd::integer_range::positive:
      return !zero && !p.negative;
    case xsd::integer_range::non_positive:
      return zero || p.negative;
    case xsd::integer_range::negative:
      return !zero && p.negative;
  }
  return false;
}

}  // namespace

template <xsd::integer_range Range>
struct codec<xsd::basic_integer<Range>> {
  using value_type = xsd::basic_integer<Range>;
  static errc parse(std::string_view text, value_type& out) noexcept {
    number_parts parts;
    if (errc e = split_number(text, false, parts); e != errc::ok) return e;
    if (!in_range<Range>(parts)) return errc::out_of_range;
    return guarded([&] {
      out.text.clear();
      append_canonical(parts, out.text);
      return errc::ok;
    });
  }
  static void format(const value_type& value, std::string& out) { out.append(value.text); }
  static void write(const value_type& value, xml::writer& w) {
    xsd::detail::write_text(w, value.text);
  }
  static std::optional<std::string_view> leaf_text(const value_type& value, leaf_buffer&) {
    return value.text;
  }
};

template <>
struct codec<xsd::decimal> {
  static errc parse(std::string_view text, xsd::decimal& out) noexcept {
    number_parts parts;
    if (errc e = split_number(text, true, parts); e != errc::ok) return e;
    return guarded([&] {
      out.text.clear();
      append_canonical(parts, out.text);
      return errc::ok;
    });
  }
  static void format(const xsd::decimal& value, std::string& out) { out.append(value.text); }
  static void write(const xsd::decimal& value, xml::writer& w) {
    xsd::detail::write_text(w, value.text);
  }
  static std::optional<std::string_view> leaf_text(const xsd::decimal& value, leaf_buffer&) {
    return value.text;
  }
};

template struct simple_traits_base<xsd::integer>;
template struct simple_traits_base<xsd::non_negative_integer>;
template struct simple_traits_base<xsd::positive_integer>;
template struct simple_traits_base<xsd::non_positive_integer>;
template struct simple_traits_base<xsd::negative_integer>;
template struct simple_traits_base<xsd::decimal>;

}  // namespace lather::bind::detail

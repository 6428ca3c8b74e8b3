// xsd:decimal and the arbitrary-precision integer types, kept as canonical text: exact for any
// number of digits, never through a binary floating-point value.
#include <algorithm>
#include <string>

#include "xsd_detail.hpp"

namespace lather::bind::detail {
namespace {

struct number_parts {
  bool negative = false;
  std::string_view integral;    // leading zeros removed
  std::string_view fractional;  // trailing zeros removed
  /// The (trimmed) text is already the canonical form ("-1.5", "0.25", "12"): true when it
  /// has no '+', digits before any '.', and no character assign_canonical would drop.
  std::string_view canonical_text;
};

// Lexical form (\+|-)?([0-9]+(\.[0-9]*)?|\.[0-9]+); the '.' only when allow_point.
errc split_number(std::string_view text, bool allow_point, number_parts& parts) noexcept {
  text = xsd::detail::trim_xml_space(text);
  const char* p = text.data();
  const char* const end = p + text.size();
  const bool plus = p != end && *p == '+';
  if (p != end && (*p == '+' || *p == '-')) parts.negative = *p++ == '-';
  const char* const int_begin = p;
  while (p != end && is_digit(*p)) ++p;
  const char* const int_end = p;
  const char* frac_begin = p;
  const char* frac_end = p;
  if (allow_point && p != end && *p == '.') {
    frac_begin = ++p;
    while (p != end && is_digit(*p)) ++p;
    frac_end = p;
  }
  if (p != end || (int_end == int_begin && frac_end == frac_begin)) return errc::invalid_lexical;
  const char* a = int_begin;
  while (a != int_end && *a == '0') ++a;
  const char* b = frac_end;
  while (b != frac_begin && b[-1] == '0') --b;
  parts.integral = {a, static_cast<std::size_t>(int_end - a)};
  parts.fractional = {frac_begin, static_cast<std::size_t>(b - frac_begin)};
  if (parts.integral.empty() && parts.fractional.empty()) parts.negative = false;  // -0 == 0
  // The canonical form only deletes characters from a text with integer digits and no '+',
  // so the same length means the same text.
  const std::size_t canonical_size = parts.negative +
                                     std::max<std::size_t>(parts.integral.size(), 1) +
                                     (parts.fractional.empty() ? 0 : 1 + parts.fractional.size());
  if (!plus && int_end != int_begin && canonical_size == text.size()) parts.canonical_text = text;
  return errc::ok;
}

void assign_canonical(const number_parts& parts, std::string& out) {
  if (!parts.canonical_text.empty()) {
    out.assign(parts.canonical_text);
    return;
  }
  out.clear();
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
struct simple_codec<xsd::basic_integer<Range>> {
  using value_type = xsd::basic_integer<Range>;
  static errc parse(std::string_view text, value_type& out) noexcept {
    number_parts parts;
    if (errc e = split_number(text, false, parts); e != errc::ok) return e;
    if (!in_range<Range>(parts)) return errc::out_of_range;
    return guarded([&] {
      assign_canonical(parts, out.text);
      return errc::ok;
    });
  }
  static void format(const value_type& value, std::string& out) { out.append(value.text); }
  static void write(const value_type& value, xml::writer& w) {
    xsd::detail::write_text(w, value.text);
  }
  static void write_leaf(const value_type& value, xml::writer& w, xml::leaf_namespace& ns,
                         xml::ncname local) {
    w.text_element(ns, local, value.text);
  }
};

template <>
struct simple_codec<xsd::decimal> {
  static errc parse(std::string_view text, xsd::decimal& out) noexcept {
    number_parts parts;
    if (errc e = split_number(text, true, parts); e != errc::ok) return e;
    return guarded([&] {
      assign_canonical(parts, out.text);
      return errc::ok;
    });
  }
  static void format(const xsd::decimal& value, std::string& out) { out.append(value.text); }
  static void write(const xsd::decimal& value, xml::writer& w) {
    xsd::detail::write_text(w, value.text);
  }
  static void write_leaf(const xsd::decimal& value, xml::writer& w, xml::leaf_namespace& ns,
                         xml::ncname local) {
    w.text_element(ns, local, value.text);
  }
};

template struct simple_traits_base<xsd::integer>;
template struct simple_traits_base<xsd::non_negative_integer>;
template struct simple_traits_base<xsd::positive_integer>;
template struct simple_traits_base<xsd::non_positive_integer>;
template struct simple_traits_base<xsd::negative_integer>;
template struct simple_traits_base<xsd::decimal>;

}  // namespace lather::bind::detail

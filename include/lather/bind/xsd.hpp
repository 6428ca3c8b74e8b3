// lather/bind/xsd.hpp — XSD built-in simple types: lexical parse and canonical format.
//
// Every supported C++ type T has an xsd_traits<T> specialisation:
//
//   static constexpr std::string_view type_name;            // "int", "dateTime", ...
//   static errc parse(std::string_view text, T& out, const xml::reader& ctx) noexcept;
//   static errc parse(std::string_view text, T& out) noexcept;  // all but qname: no reader needed
//   static void write(const T& value, xml::writer& w);       // element content
//   static void format(const T& value, std::string& out);    // same text, appended
//   // optional: the whole element {ns}local with the value as its text, in one writer call
//   // where it can (writer::text_element, or formatted straight into the output)
//   static void write_leaf(const T& value, xml::writer& w, xml::leaf_namespace& ns,
//                          xml::ncname local);
//   // optional: read the element itself (the reader on its start tag, through its end tag)
//   // instead of parsing its text, for a value that may come as child elements (an MTOM
//   // attachment's xop:Include, lather/mtom); on failure returns the code and sets `detail`
//   static errc read_element(xml::reader& r, T& out, std::string& detail);
//
// Parsing follows the XSD 1.1 lexical rules of the type, including its whiteSpace facet
// (preserve for string, replace for normalizedString, collapse for all others). Numbers are
// parsed and formatted without allocating. Writing emits the canonical form (floats: the
// shortest text that reads back to the same value). Value types that C++ lacks live in
// lather::xsd (normalized_string, token, any_uri, integer family, decimal, date_time, date,
// time, duration, qname, hex_binary, base64_binary, list<T>); docs/xsd-types.md has the
// decisions (negative years, timezones, precision, strictness).
#pragma once

#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lather/bind/error.hpp"

namespace lather::xml {
class reader;
class writer;
class ncname;
class leaf_namespace;
}  // namespace lather::xml

namespace lather::bind {

/// Specialised for every simple type. Primary template undefined so concepts detect support.
template <class T>
struct xsd_traits;

template <class T>
concept simple_type = requires {
  xsd_traits<T>::type_name;
};

/// A simple type whose xsd_traits read the element themselves (see read_element above).
template <class T>
concept element_reading_type = simple_type<T> && requires(xml::reader& r, T& v, std::string& d) {
  { xsd_traits<T>::read_element(r, v, d) } -> std::same_as<errc>;
};

inline constexpr std::string_view xsd_namespace = "http://www.w3.org/2001/XMLSchema";

/// Message for a failed simple-type parse, e.g. `"256" is out of range for xsd:unsignedByte`.
/// Long or non-printable text is shortened / masked so the message stays one safe line.
std::string describe_value_error(errc code, std::string_view text, std::string_view type_name);

}  // namespace lather::bind

namespace lather::xsd {

/// xsd:normalizedString: tab, CR and LF become spaces on parse.
struct normalized_string {
  std::string value;
  friend bool operator==(const normalized_string&, const normalized_string&) = default;
};
/// xsd:token: whitespace collapsed on parse (runs become one space, trimmed).
struct token {
  std::string value;
  friend bool operator==(const token&, const token&) = default;
};
/// xsd:anyURI: collapsed; any character sequence is accepted (XSD 1.1 leaves it to RFC 3987
/// processors, and rejecting would break real peers).
struct any_uri {
  std::string value;
  friend bool operator==(const any_uri&, const any_uri&) = default;
};

/// Which value range an arbitrary-precision integer type allows.
enum class integer_range { any, non_negative, positive, non_positive, negative };

/// xsd:integer and its unbounded subtypes, kept as canonical decimal text (no '+', no leading
/// zeros, "0" for zero) so no precision is lost. Construct through xsd_traits<>::parse or
/// from a machine integer.
template <integer_range Range>
struct basic_integer {
  std::string text = "0";  ///< canonical lexical form
  basic_integer() = default;
  explicit basic_integer(std::int64_t v) : text(std::to_string(v)) {}
  friend bool operator==(const basic_integer&, const basic_integer&) = default;
};
using integer = basic_integer<integer_range::any>;
using non_negative_integer = basic_integer<integer_range::non_negative>;
using positive_integer = basic_integer<integer_range::positive>;
using non_positive_integer = basic_integer<integer_range::non_positive>;
using negative_integer = basic_integer<integer_range::negative>;

/// xsd:decimal, exact, kept as canonical text (XSD 1.1 form: "-1.5", "0", "12", "0.001";
/// no '+', no leading zeros, no trailing fractional zeros, no '.' for integral values).
/// Never goes through a double; any number of digits.
struct decimal {
  std::string text = "0";
  friend bool operator==(const decimal&, const decimal&) = default;
};

/// Seven-property date/time value shared by date_time, date and time.
/// Years follow XSD 1.1: year 0 exists (= 1 BCE), negative years are astronomical
/// (-0001 = 2 BCE), leap years use the proleptic Gregorian rule. Range: int32.
struct date_time_fields {
  std::int32_t year = 1970;
  std::uint8_t month = 1;   ///< 1..12
  std::uint8_t day = 1;     ///< 1..days in month (Feb 29 only in leap years)
  std::uint8_t hour = 0;    ///< 0..23 (24:00:00 is accepted and normalised to 00:00 next day)
  std::uint8_t minute = 0;  ///< 0..59
  std::uint8_t second = 0;  ///< 0..59 (a leap second 60 is rejected, as XSD requires)
  /// Fractional-second digits after the '.', exactly as received minus trailing zeros
  /// ("5" for .500). Empty for none.
  std::string fraction;
  /// Timezone offset in minutes (-840..840); nullopt when the value had no timezone.
  std::optional<std::int16_t> tz_minutes;
  friend bool operator==(const date_time_fields&, const date_time_fields&) = default;
};
struct date_time : date_time_fields {};  ///< xsd:dateTime
struct date : date_time_fields {};       ///< xsd:date (time fields stay 0)
struct time : date_time_fields {};       ///< xsd:time (date fields unused)

/// Compare two values as instants on the XSD timeline (timezone applied). Values without a
/// timezone compare with each other as if both were UTC; against a zoned value they are
/// ordered only if they differ by more than 14 hours, else unordered (XSD's partial order).
std::partial_ordering compare_instant(const date_time_fields& a, const date_time_fields& b);

/// Read `text` as XSD does, else in the forms devices send that XSD refuses (the binding uses
/// it where read_options::lenient_dates is on): a space, `t` or `-` between date and time
/// (`2010-01-01-00:00:00`); one-digit hours, minutes or seconds; minutes or seconds past 59,
/// or hours past 23, carried into the next unit (`00:61:16` is `01:01:16`; a dateTime's next
/// day); a zone of `+hhmm`, `+hh` or `z`. The day must exist and the zone be within 14 hours,
/// as in XSD. The value read is an ordinary one, written back in the XSD form.
bind::errc parse_lenient(std::string_view text, date_time& out) noexcept;
bind::errc parse_lenient(std::string_view text, date& out) noexcept;
bind::errc parse_lenient(std::string_view text, time& out) noexcept;

/// xsd:duration: sign plus the six fields as written (no normalisation of e.g. 90M).
struct duration {
  bool negative = false;
  std::uint64_t years = 0, months = 0, days = 0, hours = 0, minutes = 0, seconds = 0;
  std::string fraction;  ///< fractional-second digits, trailing zeros removed
  friend bool operator==(const duration&, const duration&) = default;
};

/// xsd:QName: namespace URI + local part; prefix is the prefix seen on parse (a hint only: on
/// write the writer chooses/declares the prefix for ns).
struct qname {
  std::string ns;
  std::string local;
  std::string prefix;
  /// Equality is on the expanded name only; the prefix is not part of the value.
  friend bool operator==(const qname& a, const qname& b) {
    return a.ns == b.ns && a.local == b.local;
  }
};

/// xsd:hexBinary (written in upper case, the canonical form).
struct hex_binary {
  std::vector<std::uint8_t> bytes;
  friend bool operator==(const hex_binary&, const hex_binary&) = default;
};
/// xsd:base64Binary (written without line breaks, the canonical form).
struct base64_binary {
  std::vector<std::uint8_t> bytes;
  friend bool operator==(const base64_binary&, const base64_binary&) = default;
};

/// An xsd:list of a simple type: items separated by whitespace.
template <class T>
struct list {
  std::vector<T> items;
  friend bool operator==(const list&, const list&) = default;
};

// ---- codecs (also usable on their own) ----

/// SIMD level of the base64/hex kernels. `automatic` picks the best the CPU has at run time.
enum class simd_level { automatic, scalar, ssse3, avx2 };
/// The level `automatic` resolves to on this machine.
simd_level best_simd_level() noexcept;

/// Append the base64 of `bytes` to `out` (no line breaks, '=' padding).
void base64_encode(std::span<const std::uint8_t> bytes, std::string& out,
                   simd_level level = simd_level::automatic);
/// Decode base64 text into `out` (replaced). XML whitespace anywhere is skipped; padding must
/// be exact and unused trailing bits zero (XSD lexical space). Returns ok or invalid_base64.
bind::errc base64_decode(std::string_view text, std::vector<std::uint8_t>& out,
                         simd_level level = simd_level::automatic) noexcept;
/// Append upper-case hex of `bytes` to `out`.
void hex_encode(std::span<const std::uint8_t> bytes, std::string& out,
                simd_level level = simd_level::automatic);
/// Decode hex (either case; leading/trailing whitespace trimmed). ok or invalid_hex.
bind::errc hex_decode(std::string_view text, std::vector<std::uint8_t>& out,
                      simd_level level = simd_level::automatic) noexcept;

namespace detail {
/// Strip leading and trailing XML whitespace (#x20 #x9 #xA #xD): the collapse facet for atoms.
constexpr std::string_view trim_xml_space(std::string_view s) noexcept {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}
/// out = text. A value read again into a reused destination usually has the length it had:
/// then the bytes are copied in place (std::string::assign goes through _M_replace, ~60
/// instructions, for that too). `text` must not point into `out`.
inline void assign_text(std::string& out, std::string_view text) {
  if (text.size() == out.size()) {
    if (!text.empty()) std::memcpy(out.data(), text.data(), text.size());
  } else {
    out.assign(text);
  }
}
/// Each item of an xsd:list's text (separated by XML whitespace) given to `item`, which returns
/// errc::ok to go on; its first other answer is the result.
template <class F>
bind::errc for_each_list_item(std::string_view text, F item) {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  std::size_t i = 0;
  while (true) {
    while (i < text.size() && is_space(text[i])) ++i;
    if (i == text.size()) return bind::errc::ok;
    std::size_t j = i;
    while (j < text.size() && !is_space(text[j])) ++j;
    if (const bind::errc e = item(text.substr(i, j - i)); e != bind::errc::ok) return e;
    i = j;
  }
}
/// The items of an xsd:list's text into `items` (cleared first), each read by `parse(text,
/// item)`; errc::limit_exceeded where memory runs out.
template <class T, class Parse>
bind::errc parse_list_items(std::string_view text, std::vector<T>& items, Parse parse) noexcept {
  items.clear();
  return for_each_list_item(text, [&](std::string_view item) {
    try {
      items.emplace_back();
    } catch (...) {
      return bind::errc::limit_exceeded;
    }
    return parse(item, items.back());
  });
}
/// Split a QName into prefix and local part, checking NCName syntax (ASCII name characters;
/// bytes >= 0x80 are accepted as name characters).
bind::errc split_qname(std::string_view text, std::string_view& prefix,
                       std::string_view& local) noexcept;
/// Write already-formatted text as element content (w.text()).
void write_text(xml::writer& w, std::string_view text);
std::optional<std::string_view> lookup_prefix(const xml::reader& ctx, std::string_view prefix);
}  // namespace detail

/// An xsd:list of dates, times or dateTimes: each item read as parse_lenient reads it.
template <class D>
requires requires(std::string_view text, D& x) {
  parse_lenient(text, x);
}
bind::errc parse_lenient(std::string_view text, list<D>& out) noexcept {
  return detail::parse_list_items(
      text, out.items, [](std::string_view item, D& x) { return parse_lenient(item, x); });
}

}  // namespace lather::xsd

namespace lather::bind {

namespace detail {
/// Shared shape of every non-template simple type: parse without a reader, write via format
/// into a stack or scratch buffer. Definitions live in src/bind/xsd_*.cpp.
template <class T>
struct simple_traits_base {
  static void write_leaf(const T& value, xml::writer& w, xml::leaf_namespace& ns,
                         xml::ncname local);
  static errc parse(std::string_view text, T& out) noexcept;
  static errc parse(std::string_view text, T& out, const xml::reader&) noexcept {
    return parse(text, out);
  }
  static void write(const T& value, xml::writer& w);
  static void format(const T& value, std::string& out);
};
}  // namespace detail

#define LATHER_XSD_SIMPLE(T, NAME)                       \
  template <>                                            \
  struct xsd_traits<T> : detail::simple_traits_base<T> { \
    static constexpr std::string_view type_name = NAME;  \
  }

LATHER_XSD_SIMPLE(std::string, "string");
LATHER_XSD_SIMPLE(bool, "boolean");
LATHER_XSD_SIMPLE(std::int8_t, "byte");
LATHER_XSD_SIMPLE(std::int16_t, "short");
LATHER_XSD_SIMPLE(std::int32_t, "int");
LATHER_XSD_SIMPLE(std::int64_t, "long");
LATHER_XSD_SIMPLE(std::uint8_t, "unsignedByte");
LATHER_XSD_SIMPLE(std::uint16_t, "unsignedShort");
LATHER_XSD_SIMPLE(std::uint32_t, "unsignedInt");
LATHER_XSD_SIMPLE(std::uint64_t, "unsignedLong");
LATHER_XSD_SIMPLE(float, "float");
LATHER_XSD_SIMPLE(double, "double");
LATHER_XSD_SIMPLE(xsd::normalized_string, "normalizedString");
LATHER_XSD_SIMPLE(xsd::token, "token");
LATHER_XSD_SIMPLE(xsd::any_uri, "anyURI");
LATHER_XSD_SIMPLE(xsd::integer, "integer");
LATHER_XSD_SIMPLE(xsd::non_negative_integer, "nonNegativeInteger");
LATHER_XSD_SIMPLE(xsd::positive_integer, "positiveInteger");
LATHER_XSD_SIMPLE(xsd::non_positive_integer, "nonPositiveInteger");
LATHER_XSD_SIMPLE(xsd::negative_integer, "negativeInteger");
LATHER_XSD_SIMPLE(xsd::decimal, "decimal");
LATHER_XSD_SIMPLE(xsd::date_time, "dateTime");
LATHER_XSD_SIMPLE(xsd::date, "date");
LATHER_XSD_SIMPLE(xsd::time, "time");
LATHER_XSD_SIMPLE(xsd::duration, "duration");
LATHER_XSD_SIMPLE(xsd::hex_binary, "hexBinary");
LATHER_XSD_SIMPLE(xsd::base64_binary, "base64Binary");
#undef LATHER_XSD_SIMPLE

/// QName needs the reader's in-scope namespaces on parse and the writer's prefixes on write.
template <>
struct xsd_traits<xsd::qname> {
  static constexpr std::string_view type_name = "QName";
  static errc parse(std::string_view text, xsd::qname& out, const xml::reader& ctx) noexcept {
    return parse_with(text, out,
                      [&ctx](std::string_view p) { return xsd::detail::lookup_prefix(ctx, p); });
  }
  /// Parse with any resolver: `lookup(prefix) -> std::optional<std::string_view>` ("" = the
  /// default namespace; an unprefixed QName with no default namespace has no namespace).
  template <class Lookup>
  static errc parse_with(std::string_view text, xsd::qname& out, Lookup&& lookup) noexcept {
    std::string_view prefix, local;
    if (errc e = xsd::detail::split_qname(text, prefix, local); e != errc::ok) return e;
    std::optional<std::string_view> ns = lookup(prefix);
    if (!ns) {
      if (!prefix.empty()) return errc::undeclared_prefix;
      ns = std::string_view{};
    }
    try {
      xsd::detail::assign_text(out.ns, *ns);
      xsd::detail::assign_text(out.local, local);
      xsd::detail::assign_text(out.prefix, prefix);
    } catch (...) {
      return errc::limit_exceeded;
    }
    return errc::ok;
  }
  /// Writes prefix:local, declaring the prefix for ns on the open start tag if needed.
  static void write(const xsd::qname& value, xml::writer& w);
  /// The element {ns}local holding the value (writer::qname_element: the prefix in scope, or
  /// one declared on the element itself).
  static void write_leaf(const xsd::qname& value, xml::writer& w, xml::leaf_namespace& ns,
                         xml::ncname local);
  /// Appends prefix:local using value.prefix (the caller must have that prefix declared).
  static void format(const xsd::qname& value, std::string& out);
};

/// How an xsd:list reads and writes one item: its xsd_traits; an enumeration's names (meta.hpp).
template <class T>
struct list_item : xsd_traits<T> {};

/// xsd:list: items separated by XML whitespace; written separated by one space. type_name is
/// the item type's (a list has no built-in name of its own).
template <class T>
struct xsd_traits<xsd::list<T>> {
  static constexpr std::string_view type_name = list_item<T>::type_name;

  template <class... Ctx>
  static errc parse(std::string_view text, xsd::list<T>& out, const Ctx&... ctx) noexcept
      requires(sizeof...(Ctx) <= 1) {
    return xsd::detail::parse_list_items(text, out.items, [&](std::string_view item, T& x) {
      return list_item<T>::parse(item, x, ctx...);
    });
  }
  static void write(const xsd::list<T>& value, xml::writer& w) {
    std::string text;
    format(value, text);
    xsd::detail::write_text(w, text);
  }
  static void format(const xsd::list<T>& value, std::string& out) {
    bool first = true;
    for (const T& item : value.items) {
      if (!first) out.push_back(' ');
      first = false;
      list_item<T>::format(item, out);
    }
  }
};

}  // namespace lather::bind

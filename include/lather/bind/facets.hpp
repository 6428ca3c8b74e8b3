// lather/bind/facets.hpp — XSD constraining facets that a field may carry, checked on read
// when read_options::validate_facets is on and on write when write_options::validate_facets is
// (both off by default).
//
// A field of a restricted simple type keeps the base's C++ type (a maxLength-10 string is a
// std::string); its facets are a constant next to the table (or meta<T>), named by the field:
//
//   constinit lather::bind::pattern code_patterns[] = {"[A-Z]{3}"};
//   constexpr lather::bind::facets code_facets{.max_length = 10, .patterns = code_patterns};
//   element<std::string>("urn:acme", "code", offsetof(acme::Order, code)).facets(code_facets)
//
// The checks work on the value's text as it was read (after the XSD whiteSpace rule), so they
// need no code per type: lengths count characters (octets for hexBinary and base64Binary),
// bounds, digits and numeric enumerations compare as decimals (or doubles for float and
// double), patterns are XSD regular expressions (XML Schema part 2, appendix F) run by a small
// matcher in linear time (match_pattern).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace lather::bind {

/// What the facets of a value compare, from the XSD built-in type its restriction derives from.
enum class facet_value : std::uint8_t {
  string,         ///< lengths in characters; enumerations as text (string, anyURI, QName, ...)
  hex_binary,     ///< lengths in octets
  base64_binary,  ///< lengths in octets
  decimal,        ///< decimal and the integer types: bounds, digits, enumerations as numbers
  floating,       ///< float and double: bounds and enumerations as doubles
  other,          ///< dates, times, durations, boolean: patterns and enumerations (as text) only
  list,           ///< an xsd:list: lengths in items; patterns and enumerations on the whole text;
                  ///< each item checked against facets::items
};

/// The XSD whiteSpace rule applied to the text before it is checked.
enum class white_space : std::uint8_t { preserve, replace, collapse };

/// A length or digit facet that is absent.
inline constexpr std::uint32_t no_facet = 0xffffffffu;

namespace detail {
struct pattern_program;
/// Frees a program pattern::program() made.
void release(const pattern_program* p) noexcept;
}  // namespace detail

/// An XSD regular expression (a pattern facet) and its compiled program, made on the first
/// check and kept by the pattern itself: declared `constinit` (or constexpr) beside the facets
/// that name it, each pattern compiles once for the program's life, with no cache shared by
/// the program (no lock, no lookup per check).
class pattern {
 public:
  constexpr pattern(std::string_view text) noexcept : text_(text) {}
  constexpr pattern(const char* text) noexcept : text_(text) {}
  pattern(const pattern&) = delete;
  pattern& operator=(const pattern&) = delete;
  constexpr ~pattern() {
    if (!std::is_constant_evaluated()) detail::release(program_.load(std::memory_order_acquire));
  }

  constexpr std::string_view text() const noexcept { return text_; }
  /// The compiled program, made on first use (threads that race compile, one copy is kept).
  const detail::pattern_program& program() const;
  /// match_pattern(text(), text), this pattern compiled once: no allocation once compiled and
  /// once the calling thread's match buffers have grown to the pattern's size.
  int match(std::string_view text) const;

 private:
  std::string_view text_;
  mutable std::atomic<const detail::pattern_program*> program_{nullptr};
};

/// The facets of one field's type, its restriction chain's merged (the nearest restriction's
/// value of each facet; the patterns of every step, each of which must match).
struct facets {
  facet_value value = facet_value::string;
  white_space space = white_space::preserve;
  std::uint32_t length = no_facet, min_length = no_facet, max_length = no_facet;
  std::uint32_t total_digits = no_facet, fraction_digits = no_facet;
  /// Lexical bounds, "" where absent.
  std::string_view min_inclusive{}, max_inclusive{}, min_exclusive{}, max_exclusive{};
  std::span<const std::string_view> enumeration{};
  /// XSD regular expressions, one per derivation step (a step's several patterns joined by
  /// `|`): the whole text must match each.
  std::span<const pattern> patterns{};
  /// The field's default value, where it has one: the field keeps the facets where it would
  /// keep its default.
  std::string_view default_value{};
  /// facet_value::list: the facets of each item (nullptr if its type has none).
  const facets* items = nullptr;
  /// An xsd:union: the facets of each member type, one of which must accept the value (as
  /// read: the member's whiteSpace, its lexical form as far as its built_in or facet_value
  /// tells, then its facets); the union's own patterns and enumeration (as text, collapsed)
  /// apply to the whole value. Empty: not a union, or one with a member that accepts any text.
  std::span<const facets* const> members{};
  /// A union's member type: the XSD built-in it derives from, by its local name ("int",
  /// "date", "QName", ...; "" where not given). As a member, a value must have its lexical
  /// form: boolean, dateTime, date, time, duration and QName as lather reads them, the others
  /// as `value` tells (a decimal, a float or double, hexBinary or base64Binary octets); a
  /// service's WSDL names it as the member's base type.
  std::string_view built_in{};
};

/// A facet that one number (a count: a length in the value's unit, digits) or one bound states,
/// by its XSD name: its member of facets and the comparison of a value's count or value with it
/// that violates it (-1 below, 1 above, 0 unequal for a count), equality too where `exclusive`.
template <class Limit>
struct facet_limit {
  std::string_view name;
  Limit facets::*limit;
  int violated;
  bool exclusive = false;
};
/// The facets of each kind, in a schema's order (facet_violation checks them, a service's WSDL
/// writes them).
inline constexpr facet_limit<std::uint32_t> length_facets[] = {
    {"length", &facets::length, 0},
    {"minLength", &facets::min_length, -1},
    {"maxLength", &facets::max_length, 1},
};
inline constexpr facet_limit<std::uint32_t> digit_facets[] = {
    {"totalDigits", &facets::total_digits, 1},
    {"fractionDigits", &facets::fraction_digits, 1},
};
inline constexpr facet_limit<std::string_view> bound_facets[] = {
    {"minInclusive", &facets::min_inclusive, -1},
    {"maxInclusive", &facets::max_inclusive, 1},
    {"minExclusive", &facets::min_exclusive, -1, true},
    {"maxExclusive", &facets::max_exclusive, 1, true},
};

/// Why `text` (a value's lexical form as read) does not satisfy `f` ("" if it does): the facet
/// and its value, e.g. `"abcd" is longer than maxLength 3 (4 characters)`. A pattern that
/// match_pattern cannot run, and a value over the pattern matcher's budget, are not checked:
/// a value is never refused because of what the matcher does not implement.
std::string facet_violation(std::string_view text, const facets& f);

/// Whether the XSD regular expression `pattern` can be checked: "" if so, else why not (the
/// constructs the matcher does not implement: Unicode block escapes \p{IsBlock} other than
/// IsBasicLatin, or a pattern over its size limit). lather-wsdl2cpp leaves such a pattern out
/// of a field's facets and says so in names.txt.
std::string pattern_unsupported(std::string_view pattern);

/// Whether the whole of `text` (UTF-8) matches the XSD regular expression `expression`: 1 it
/// does, 0 it does not, -1 not checked (pattern_unsupported, or the text and the pattern
/// together over the matcher's budget). The expression is compiled for this call alone;
/// pattern::match keeps it compiled.
int match_pattern(std::string_view expression, std::string_view text);

}  // namespace lather::bind

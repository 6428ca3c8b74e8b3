// lather/xml/name.hpp — what an XML name is (XML 1.0 fifth edition, section 2.3, and Namespaces
// in XML 1.0: an NCName is a Name without ':'), usable in constant expressions, so that the
// binding refuses a struct whose metadata names an element or attribute badly when it compiles
// (see lather::element in lather/bind/meta.hpp). The reader checks the names it reads with the
// same code points. same_name() compares two names the way the reader and writer do.
#pragma once

#include <cstddef>
#include <string_view>

#include "lather/xml/bytes.hpp"

namespace lather::xml {

/// NameStartChar without ':'.
constexpr bool is_name_start_char(char32_t c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || (c >= 0xC0 && c <= 0xD6) ||
         (c >= 0xD8 && c <= 0xF6) || (c >= 0xF8 && c <= 0x2FF) || (c >= 0x370 && c <= 0x37D) ||
         (c >= 0x37F && c <= 0x1FFF) || (c >= 0x200C && c <= 0x200D) ||
         (c >= 0x2070 && c <= 0x218F) || (c >= 0x2C00 && c <= 0x2FEF) ||
         (c >= 0x3001 && c <= 0xD7FF) || (c >= 0xF900 && c <= 0xFDCF) ||
         (c >= 0xFDF0 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0xEFFFF);
}

/// NameChar without ':'.
constexpr bool is_name_char(char32_t c) noexcept {
  return is_name_start_char(c) || c == '-' || c == '.' || (c >= '0' && c <= '9') || c == 0xB7 ||
         (c >= 0x300 && c <= 0x36F) || (c >= 0x203F && c <= 0x2040);
}

/// True when `name` (UTF-8) is an NCName: a non-empty XML Name without ':'. Malformed UTF-8
/// is not a name.
constexpr bool is_ncname(std::string_view name) noexcept {
  std::size_t i = 0;
  // The code point at i (advancing i past it), or U+FFFFFFFF for malformed UTF-8.
  auto next = [&]() -> char32_t {
    constexpr char32_t bad = 0xFFFFFFFF;
    const auto lead = static_cast<unsigned char>(name[i++]);
    if (lead < 0x80) return lead;
    const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    if (length == 0 || i + length - 1 > name.size()) return bad;
    char32_t c = lead & (0x7F >> length);
    for (std::size_t k = 1; k < length; ++k) {
      const auto byte = static_cast<unsigned char>(name[i++]);
      if ((byte & 0xC0) != 0x80) return bad;
      c = (c << 6) | (byte & 0x3F);
    }
    constexpr char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};  // shorter is overlong
    if (c < smallest[length] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return bad;
    return c;
  };
  if (name.empty() || !is_name_start_char(next())) return false;
  while (i < name.size())
    if (!is_name_char(next())) return false;
  return true;
}

/// True when two names (element or attribute names, prefixes; namespace URIs too) are the same
/// bytes, compared as the reader and writer compare names on their hot paths: a few word-sized
/// loads, no call into memcmp, always inline. For code that matches names per element above the
/// XML layer (the binding's field lookup).
[[gnu::always_inline]] inline bool same_name(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && detail::same_name_bytes(a.data(), b.data(), a.size());
}

}  // namespace lather::xml

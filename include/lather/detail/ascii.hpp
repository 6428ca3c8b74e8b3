#pragma once

// Support header below every layer (std only): the SOAP and HTTP layers compare protocol
// tokens (header names, media types) case-insensitively, the XML layer reexports it.

#include <cstddef>
#include <string_view>

namespace lather::detail {

/// ASCII case-insensitive equality, for the protocol tokens of headers and media types (HTTP
/// header names, Content-Type). No locale: std::tolower would consult it per character.
inline bool ascii_iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const unsigned char x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
    if (x != y && ((x | 0x20u) != (y | 0x20u) || (x | 0x20u) < 'a' || (x | 0x20u) > 'z'))
      return false;
  }
  return true;
}

}  // namespace lather::detail

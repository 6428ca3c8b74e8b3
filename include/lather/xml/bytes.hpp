// lather/xml/bytes.hpp — equality of short byte ranges without a call into libc, for the names,
// prefixes and namespace URIs that every start and end tag compares (shared by the XML reader,
// the writer and the binding's element matching), and the ASCII case-insensitive compare the
// SOAP and HTTP layers use for protocol tokens. Not part of the user-facing API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lather::xml::detail {

/// Equality of two short byte ranges (names, prefixes, URIs) without a call into memcmp: word
/// compares, the last word first (URIs tend to differ near their end) and overlapping the
/// others, so no byte loop.
inline bool same_bytes(const char* a, const char* b, std::size_t n) noexcept {
  auto word = [](const char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  };
  auto half = [](const char* p) {
    std::uint32_t w;
    std::memcpy(&w, p, 4);
    return w;
  };
#if defined(__SSE2__)
  if (n >= 16) {  // namespace URIs: 16-byte blocks
    auto block_equal = [](const char* x, const char* y) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x));
      const __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(y));
      return _mm_movemask_epi8(_mm_cmpeq_epi8(v, w)) == 0xFFFF;
    };
    if (!block_equal(a + n - 16, b + n - 16)) return false;
    for (std::size_t i = 0; i + 16 < n; i += 16)
      if (!block_equal(a + i, b + i)) return false;
    return true;
  }
#endif
  if (n >= 8) {
    if (word(a + n - 8) != word(b + n - 8)) return false;
    for (std::size_t i = 0; i + 8 < n; i += 8)
      if (word(a + i) != word(b + i)) return false;
    return true;
  }
  if (n >= 4) return half(a) == half(b) && half(a + n - 4) == half(b + n - 4);
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

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

}  // namespace lather::xml::detail

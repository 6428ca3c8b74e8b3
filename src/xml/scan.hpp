// Vectorised byte-class searches used by the XML reader (private header).
//
// Each function returns the first byte in [p, end) that the reader must look at, or end. The
// "special" sets are chosen so that plain ASCII character data (the bulk of SOAP payloads:
// base64, hex, numbers, words) is skipped 16 bytes at a time, and everything that needs a
// decision (markup, references, line ends, control characters, non-ASCII bytes that need UTF-8
// validation) stops the scan. SSE2 is the x86-64 baseline, so no run-time dispatch is needed
// for it; long runs of character data go on 32 bytes at a time where the CPU has AVX2
// (scan.cpp, chosen at run time); other targets use the scalar loops.
#pragma once

#include <cstdint>
#include <cstring>

#include "lather/xml/bytes.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#define LATHER_XML_SSE2 1
#endif

namespace lather::xml::detail {

// Bytes below 0x20 (other than tab and LF) and all bytes >= 0x80: control characters to
// reject, CR to normalise, and the lead/continuation bytes of multi-byte UTF-8 to validate.
inline bool is_unusual(unsigned char c) noexcept {
  return (c < 0x20 && c != '\t' && c != '\n') || c >= 0x80;
}

#if LATHER_XML_SSE2
inline unsigned unusual_mask(__m128i v) noexcept {
  // Signed compare: bytes >= 0x80 are negative, so one compare catches both ranges.
  __m128i low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
  __m128i ok =
      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
  return static_cast<unsigned>(_mm_movemask_epi8(_mm_andnot_si128(ok, low)));
}

/// The bytes of the 16 at p that find_text_special stops at, as a bit mask.
[[gnu::always_inline]] inline unsigned text_special_mask(const char* p) noexcept {
  __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  // A superset first (every byte below 0x20 or above 0x7F): one compare instead of three for
  // the control-character test; tab and LF are taken out only in a block that has one.
  __m128i markup = _mm_or_si128(
      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('<')), _mm_cmpeq_epi8(v, _mm_set1_epi8('&'))),
      _mm_cmpeq_epi8(v, _mm_set1_epi8(']')));
  unsigned m = static_cast<unsigned>(
      _mm_movemask_epi8(_mm_or_si128(markup, _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)))));
  if (m) {
    m &= ~static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(
        _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')))));
  }
  return m;
}
#endif

/// find_text_special on its own, without the AVX2 loop: 16 bytes at a time, then byte by byte.
inline const char* find_text_special_sse2(const char* p, const char* end) noexcept {
#if LATHER_XML_SSE2
  while (end - p >= 16) {
    if (unsigned m = text_special_mask(p)) return p + __builtin_ctz(m);
    p += 16;
  }
#endif
  for (; p < end; ++p) {
    auto c = static_cast<unsigned char>(*p);
    if (c == '<' || c == '&' || c == ']' || is_unusual(c)) return p;
  }
  return end;
}

#if LATHER_XML_SSE2
/// True when the CPU has AVX2 (asked once, at start-up: false until then, which only means
/// SSE2 is used).
extern const bool text_scan_avx2_available;
/// Whether find_text_special hands long runs to its AVX2 loop: text_scan_avx2_available,
/// unless a test switched it off to run the SSE2 loop alone (single-threaded tests only).
extern bool text_scan_avx2;
/// find_text_special 32 bytes at a time (scan.cpp, compiled for AVX2): only where the CPU has
/// AVX2.
const char* find_text_special_avx2(const char* p, const char* end) noexcept;
#endif

/// Character data: '<', '&', ']' (for "]]>"), CR, control characters, non-ASCII. Most runs in
/// SOAP are short (numbers, names, words) and end within the first 32 bytes, which are scanned
/// inline with SSE2; a longer one (base64, hex, prose) goes on in the AVX2 loop where the CPU
/// has one. So only long runs pay for the run-time dispatch (a flag test and a call), and they
/// take half the loop iterations.
[[gnu::always_inline]] inline const char* find_text_special(const char* p,
                                                            const char* end) noexcept {
#if LATHER_XML_SSE2
  if (end - p >= 64) {
    if (unsigned m = text_special_mask(p)) return p + __builtin_ctz(m);
    if (unsigned m = text_special_mask(p + 16)) return p + 16 + __builtin_ctz(m);
    p += 32;
    if (text_scan_avx2) return find_text_special_avx2(p, end);
  }
#endif
  return find_text_special_sse2(p, end);
}

/// Attribute value: the closing quote, '<', '&', any byte below 0x20 (tab/LF/CR normalise to
/// space), non-ASCII.
inline const char* find_attr_special(const char* p, const char* end, char quote) noexcept {
#if LATHER_XML_SSE2
  const __m128i q = _mm_set1_epi8(quote);
  while (end - p >= 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i m = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(v, q));
    m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('<')),
                                     _mm_cmpeq_epi8(v, _mm_set1_epi8('&'))));
    if (unsigned bits = static_cast<unsigned>(_mm_movemask_epi8(m))) {
      return p + __builtin_ctz(bits);
    }
    p += 16;
  }
#endif
  for (; p < end; ++p) {
    auto c = static_cast<unsigned char>(*p);
    if (c == static_cast<unsigned char>(quote) || c == '<' || c == '&' || c < 0x20 || c >= 0x80) {
      return p;
    }
  }
  return end;
}

/// Comment or CDATA content: `stop` ('-' or ']'), CR, control characters, non-ASCII.
inline const char* find_raw_special(const char* p, const char* end, char stop) noexcept {
#if LATHER_XML_SSE2
  const __m128i s = _mm_set1_epi8(stop);
  while (end - p >= 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    unsigned m = unusual_mask(v) | static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, s)));
    if (m) return p + __builtin_ctz(m);
    p += 16;
  }
#endif
  for (; p < end; ++p) {
    auto c = static_cast<unsigned char>(*p);
    if (c == static_cast<unsigned char>(stop) || is_unusual(c)) return p;
  }
  return end;
}

/// Returned through `colon` by skip_ascii_qname when a name holds more than one colon.
inline const char* const many_colons = reinterpret_cast<const char*>(1);

/// First byte that is not an ASCII QName character [A-Za-z0-9._:-], or end. `colon` is set to
/// the first colon of the run, or many_colons if there are several (it must start null).
inline const char* skip_ascii_qname(const char* p, const char* end, const char*& colon) noexcept {
#if LATHER_XML_SSE2
  while (end - p >= 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Signed compares: bytes >= 0x80 are negative and fall outside every range.
    __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));  // A-Z -> a-z
    __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(folded, _mm_set1_epi8('a' - 1)),
                                   _mm_cmplt_epi8(folded, _mm_set1_epi8('z' + 1)));
    // '-' '.' '0'-'9' ':' are 0x2D..0x3A except '/' (0x2F)
    __m128i digitish = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('-' - 1)),
                                     _mm_cmplt_epi8(v, _mm_set1_epi8(':' + 1)));
    digitish = _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')), digitish);
    __m128i ok =
        _mm_or_si128(_mm_or_si128(letter, digitish), _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
    unsigned bad = ~static_cast<unsigned>(_mm_movemask_epi8(ok)) & 0xFFFFu;
    unsigned colons =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(':'))));
    if (bad) colons &= (1u << __builtin_ctz(bad)) - 1;
    if (colons) {
      if (colon != nullptr || (colons & (colons - 1))) {
        colon = many_colons;
      } else {
        colon = p + __builtin_ctz(colons);
      }
    }
    if (bad) return p + __builtin_ctz(bad);
    p += 16;
  }
#endif
  for (; p < end; ++p) {
    char c = *p;
    if (c == ':') {
      colon = colon ? many_colons : p;
      continue;
    }
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '.' || c == '_';
    if (!ok) return p;
  }
  return end;
}

/// First occurrence of c, or end.
inline const char* find_byte(const char* p, const char* end, char c) noexcept {
  if (p >= end) return end;
  auto* r = static_cast<const char*>(std::memchr(p, c, static_cast<std::size_t>(end - p)));
  return r ? r : end;
}

}  // namespace lather::xml::detail

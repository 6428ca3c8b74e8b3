// Internal to lather_xml: the writer's escaping (byte classes, an SSE2 scan for the first
// byte that needs attention, UTF-8 validation) and its name and error checks.
// Included by writer.cpp only, in its anonymous namespace: the writer is one translation unit
// with internal linkage for its helpers, so the inliner sees them as it did when they were in
// writer.cpp itself.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "lather/xml/writer.hpp"
#include "scan.hpp"

namespace lather::xml {
namespace {

[[noreturn]] void fail(const output& out, errc code, const std::string& what) {
  position where;
  where.offset = out.flushed() + out.size();
  throw error(code, where, "xml writer: " + what);
}

constexpr std::string_view xml_ns_uri = "http://www.w3.org/XML/1998/namespace";
constexpr std::string_view xmlns_ns_uri = "http://www.w3.org/2000/xmlns/";

// Byte classes for the scalar paths. A byte "needs attention" when it must be escaped, checked
// (C0 controls) or validated as part of a UTF-8 sequence (>= 0x80).
enum class mode : std::uint8_t { text, attribute, cdata };

constexpr std::array<bool, 256> make_attention(mode m) {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) t[c] = c < 0x20 || c >= 0x80;
  if (m != mode::attribute) t['\t'] = t['\n'] = false;
  if (m == mode::text) t['&'] = t['<'] = t['>'] = true;
  if (m == mode::attribute) t['&'] = t['<'] = t['"'] = true;
  if (m == mode::cdata) t[']'] = true;
  return t;
}
constexpr auto attention_text = make_attention(mode::text);
constexpr auto attention_attribute = make_attention(mode::attribute);
constexpr auto attention_cdata = make_attention(mode::cdata);

// NCName bytes, ASCII part (bytes >= 0x80 are accepted once the name is valid UTF-8).
constexpr std::array<std::uint8_t, 256> make_name_table() {
  // 1 = may start a name, 2 = may continue it, 4 = non-ASCII (UTF-8 to validate)
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    const bool start = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c >= 0x80;
    const bool cont = start || (c >= '0' && c <= '9') || c == '-' || c == '.';
    t[c] = static_cast<std::uint8_t>((start ? 1 : 0) | (cont ? 2 : 0) | (c >= 0x80 ? 4 : 0));
  }
  return t;
}
constexpr auto name_table = make_name_table();

inline std::uint8_t byte_at(const char* p) {
  return static_cast<std::uint8_t>(*p);
}

// Length of the valid UTF-8 sequence at [p, end) that encodes an XML Char, or 0 when the bytes
// are malformed (overlong, surrogate, truncated, > U+10FFFF) or encode U+FFFE / U+FFFF.
std::size_t utf8_char_length(const char* p, const char* end) {
  const std::uint8_t b0 = byte_at(p);
  const auto avail = end - p;
  auto cont = [&](std::ptrdiff_t i) { return i < avail && (byte_at(p + i) & 0xC0) == 0x80; };
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    const std::uint8_t b1 = byte_at(p + 1);
    if (b0 == 0xE0 && b1 < 0xA0) return 0;                             // overlong
    if (b0 == 0xED && b1 >= 0xA0) return 0;                            // surrogate
    if (b0 == 0xEF && b1 == 0xBF && byte_at(p + 2) >= 0xBE) return 0;  // U+FFFE, U+FFFF
    return 3;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    const std::uint8_t b1 = byte_at(p + 1);
    if (b0 == 0xF0 && b1 < 0x90) return 0;   // overlong
    if (b0 == 0xF4 && b1 >= 0x90) return 0;  // > U+10FFFF
    return 4;
  }
  return 0;
}

#if defined(__SSE2__)
// Bit i set when byte i of v needs attention in mode M.
template <mode M>
unsigned attention_mask(__m128i v) {
  // Signed compare: bytes >= 0x80 are negative, so this flags C0 controls and non-ASCII.
  __m128i hit = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
  auto is = [&v](char c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(c)); };
  if constexpr (M == mode::text) {
    hit = _mm_andnot_si128(_mm_or_si128(is('\t'), is('\n')), hit);
    hit = _mm_or_si128(hit, _mm_or_si128(is('&'), _mm_or_si128(is('<'), is('>'))));
  } else if constexpr (M == mode::attribute) {
    hit = _mm_or_si128(hit, _mm_or_si128(is('&'), _mm_or_si128(is('<'), is('"'))));
  } else {
    hit = _mm_andnot_si128(_mm_or_si128(is('\t'), is('\n')), hit);
    hit = _mm_or_si128(hit, is(']'));
  }
  return static_cast<unsigned>(_mm_movemask_epi8(hit));
}
#endif

// First position in [p, end) whose byte needs attention in mode M, or end.
template <mode M>
const char* find_attention(const char* p, const char* end) {
#if defined(__SSE2__)
  while (end - p >= 16) {
    const unsigned mask = attention_mask<M>(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    if (mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
  if (p == end) return end;
  // The tail (most values are shorter than 16 bytes): scan a copy padded with a byte that
  // needs no attention, never reading past the end.
  char padded[16];
  std::memset(padded, 'a', sizeof padded);
  const auto n = static_cast<std::size_t>(end - p);
  if (n >= 8) {  // two overlapping words
    std::memcpy(padded, p, 8);
    std::memcpy(padded + n - 8, p + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(padded, p, 4);
    std::memcpy(padded + n - 4, p + n - 4, 4);
  } else {
    padded[0] = p[0];
    padded[n / 2] = p[n / 2];
    padded[n - 1] = p[n - 1];
  }
  const unsigned mask =
      attention_mask<M>(_mm_loadu_si128(reinterpret_cast<const __m128i*>(padded)));
  return mask != 0 ? p + __builtin_ctz(mask) : end;
#endif
  const auto& table = M == mode::text        ? attention_text
                      : M == mode::attribute ? attention_attribute
                                             : attention_cdata;
  while (p != end && !table[byte_at(p)]) ++p;
  return p;
}

// Leading bytes of [p, p + n) that need no attention in mode M. Reads whole 16-byte blocks:
// the caller guarantees 16 readable bytes past p + n (the output's room after a copy).
template <mode M>
[[gnu::always_inline]] inline std::size_t clean_length(const char* p, std::size_t n) {
#if defined(__SSE2__)
  for (std::size_t i = 0; i < n; i += 16) {
    unsigned mask = attention_mask<M>(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)));
    if (n - i < 16) mask &= (1u << (n - i)) - 1;
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
  }
  return n;
#else
  return static_cast<std::size_t>(find_attention<M>(p, p + n) - p);
#endif
}

void check_ncname(const output& out, std::string_view name, const char* what) {
  // Names are short: a plain loop that stops at the first bad byte beats a vectorised one.
  bool ok = !name.empty() && (name_table[byte_at(name.data())] & 1) != 0;
  std::uint8_t seen = 0;
  for (std::size_t i = 0; ok && i < name.size(); ++i) {
    const std::uint8_t t = name_table[static_cast<std::uint8_t>(name[i])];
    ok = (t & 2) != 0;
    seen |= t;
  }
  if (ok && (seen & 4) != 0) {  // rare: validate the UTF-8 of a non-ASCII name
    const char* p = name.data();
    const char* end = p + name.size();
    while (ok && p != end) {
      if (byte_at(p) < 0x80) {
        ++p;
        continue;
      }
      const std::size_t n = utf8_char_length(p, end);
      ok = n != 0;
      p += n;
    }
  }
  if (!ok) fail(out, errc::writer_bad_state, std::string(what) + " is not an NCName");
}

[[noreturn]] void fail_char(const output& out, const char* p, const char* what) {
  char buf[8];
  const auto b = byte_at(p);
  const char* hex = "0123456789ABCDEF";
  buf[0] = '0';
  buf[1] = 'x';
  buf[2] = hex[b >> 4];
  buf[3] = hex[b & 15];
  buf[4] = 0;
  fail(out, errc::writer_invalid_char,
       std::string("byte ") + buf + " in " + what + " is not an XML character (or not UTF-8)");
}

// Writes s escaped for mode M (text or attribute value; the caller writes the quotes).
template <mode M>
void write_escaped(output& out, std::string_view s) {
#if defined(__SSE2__)
  // Short values (most of them): copy into the output and scan the copy there, where 16 bytes
  // can be loaded without reading past the value; commit only when nothing needs attention.
  if (s.size() < 16) {
    char* copy = out.prepare(16);
    detail::copy_bytes(copy, s.data(), s.size());
    const unsigned mask =
        attention_mask<M>(_mm_loadu_si128(reinterpret_cast<const __m128i*>(copy))) &
        ((1u << s.size()) - 1);
    if (mask == 0) {
      out.commit(s.size());
      return;
    }
  }
#endif
  const char* p = s.data();
  const char* const end = p + s.size();
  while (p != end) {
    const char* stop = find_attention<M>(p, end);
    if (stop != p) out.append({p, static_cast<std::size_t>(stop - p)});
    if (stop == end) return;
    p = stop;
    const std::uint8_t c = byte_at(p);
    switch (c) {
      case '&':
        out.append("&amp;");
        break;
      case '<':
        out.append("&lt;");
        break;
      case '>':
        out.append("&gt;");
        break;  // text only; keeps "]]>" from forming
      case '"':
        out.append("&quot;");
        break;
      case '\r':
        out.append("&#13;");
        break;
      case '\n':
        out.append("&#10;");
        break;  // attributes only
      case '\t':
        out.append("&#9;");
        break;  // attributes only
      default: {
        if (c < 0x80) fail_char(out, p, M == mode::text ? "text" : "an attribute value");
        const std::size_t n = utf8_char_length(p, end);
        if (n == 0) fail_char(out, p, M == mode::text ? "text" : "an attribute value");
        out.append({p, n});
        p += n;
        continue;
      }
    }
    ++p;
  }
}

}  // namespace
}  // namespace lather::xml

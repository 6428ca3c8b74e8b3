// The XML reader's character-level helpers (private header): name characters, UTF-8, the
// predefined entities, and the byte stack that keeps element names and namespace bindings.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "lather/xml/bytes.hpp"   // detail::ascii_iequals
#include "lather/xml/writer.hpp"  // detail::copy_bytes

namespace lather::xml::detail {

inline constexpr std::string_view xml_ns_uri = "http://www.w3.org/XML/1998/namespace";
inline constexpr std::string_view xmlns_ns_uri = "http://www.w3.org/2000/xmlns/";

// Outcome of parsing one token.
enum class st : std::uint8_t {
  ok,    // token complete; a token is ready to return
  skip,  // something was consumed that produces no token (whitespace, comment, declaration)
  fail,  // error recorded
  more,  // ran out of bytes before the token ended; nothing consumed
};

inline constexpr std::uint8_t name_start_bit = 1;
inline constexpr std::uint8_t name_char_bit = 2;

constexpr std::array<std::uint8_t, 128> make_name_table() {
  std::array<std::uint8_t, 128> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[c] = name_start_bit | name_char_bit;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = name_start_bit | name_char_bit;
  t['_'] = name_start_bit | name_char_bit;
  for (int c = '0'; c <= '9'; ++c) t[c] = name_char_bit;
  t['-'] = name_char_bit;
  t['.'] = name_char_bit;
  return t;
}
inline constexpr auto ascii_name = make_name_table();

inline bool is_space(char c) noexcept {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

// Decodes the multi-byte UTF-8 sequence at p (*p >= 0x80). Returns its length (2..4), 0 if
// the bytes so far are valid but the sequence continues past end, or -1 if malformed
// (overlong, surrogate, > U+10FFFF, bad continuation, stray continuation byte).
inline int decode_utf8(const char* p, const char* end, std::uint32_t& cp) noexcept {
  auto b = [&](std::ptrdiff_t i) { return static_cast<unsigned char>(p[i]); };
  unsigned char c0 = b(0);
  std::ptrdiff_t avail = end - p;
  if (c0 < 0xC2) return -1;
  if (c0 < 0xE0) {
    if (avail < 2) return 0;
    if ((b(1) & 0xC0) != 0x80) return -1;
    cp = ((c0 & 0x1Fu) << 6) | (b(1) & 0x3Fu);
    return 2;
  }
  if (c0 < 0xF0) {
    if (avail < 2) return 0;
    unsigned char c1 = b(1);
    unsigned char lo = c0 == 0xE0 ? 0xA0 : 0x80;
    unsigned char hi = c0 == 0xED ? 0x9F : 0xBF;
    if (c1 < lo || c1 > hi) return -1;
    if (avail < 3) return 0;
    if ((b(2) & 0xC0) != 0x80) return -1;
    cp = ((c0 & 0x0Fu) << 12) | ((c1 & 0x3Fu) << 6) | (b(2) & 0x3Fu);
    return 3;
  }
  if (c0 > 0xF4) return -1;
  if (avail < 2) return 0;
  unsigned char c1 = b(1);
  unsigned char lo = c0 == 0xF0 ? 0x90 : 0x80;
  unsigned char hi = c0 == 0xF4 ? 0x8F : 0xBF;
  if (c1 < lo || c1 > hi) return -1;
  if (avail < 3) return 0;
  if ((b(2) & 0xC0) != 0x80) return -1;
  if (avail < 4) return 0;
  if ((b(3) & 0xC0) != 0x80) return -1;
  cp = ((c0 & 0x07u) << 18) | ((c1 & 0x3Fu) << 12) | ((b(2) & 0x3Fu) << 6) | (b(3) & 0x3Fu);
  return 4;
}

inline bool is_xml_char(std::uint32_t c) noexcept {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

inline std::size_t encode_utf8(std::uint32_t c, char* out) noexcept {
  if (c < 0x80) {
    out[0] = static_cast<char>(c);
    return 1;
  }
  if (c < 0x800) {
    out[0] = static_cast<char>(0xC0 | (c >> 6));
    out[1] = static_cast<char>(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = static_cast<char>(0xE0 | (c >> 12));
    out[1] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out[2] = static_cast<char>(0x80 | (c & 0x3F));
    return 3;
  }
  out[0] = static_cast<char>(0xF0 | (c >> 18));
  out[1] = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
  out[2] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
  out[3] = static_cast<char>(0x80 | (c & 0x3F));
  return 4;
}

inline std::uint32_t hash_bytes(std::string_view s) noexcept {
  std::uint32_t h = 2166136261u;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}

inline bool starts_with(const char* p, const char* end, std::string_view s) noexcept {
  return static_cast<std::size_t>(end - p) >= s.size() && std::memcmp(p, s.data(), s.size()) == 0;
}

// True when [p, end) is a proper prefix of s (more bytes could still make it match).
inline bool is_prefix_of(const char* p, const char* end, std::string_view s) noexcept {
  auto n = static_cast<std::size_t>(end - p);
  return n < s.size() && std::memcmp(p, s.data(), n) == 0;
}

// The parts of a validated QName of `len` bytes whose prefix has `prefix_len` bytes (0 = none):
// built directly, as string_view::substr's bounds check kept it out of line in the hot paths.
inline std::string_view qname_prefix(const char* qname, std::size_t prefix_len) noexcept {
  return {qname, prefix_len};
}
inline std::string_view qname_local(const char* qname, std::size_t len,
                                    std::size_t prefix_len) noexcept {
  std::size_t skip = prefix_len + (prefix_len != 0);
  return {qname + skip, len - skip};
}

// One of the five predefined entity references at p ('&'), the bulk of escaped SOAP text: the
// character it stands for in `c` and the reference's length, or 0 for anything else (a
// character reference, another name, or bytes still to come: decode_ref's general path).
inline std::size_t predefined_entity(const char* p, const char* end, char& c) noexcept {
  const std::ptrdiff_t n = end - p;
  if (n >= 4 && p[2] == 't' && p[3] == ';' && (p[1] == 'l' || p[1] == 'g')) {
    c = p[1] == 'l' ? '<' : '>';
    return 4;
  }
  if (n >= 5 && p[1] == 'a' && p[2] == 'm' && p[3] == 'p' && p[4] == ';') {
    c = '&';
    return 5;
  }
  if (n >= 6 && p[5] == ';' &&
      (std::memcmp(p + 1, "quot", 4) == 0 || std::memcmp(p + 1, "apos", 4) == 0)) {
    c = p[1] == 'q' ? '"' : '\'';
    return 6;
  }
  return 0;
}

// A stack of bytes (names of open elements, namespace prefixes and URIs): appends without
// vector::insert's general-case code, truncates on pop, keeps its capacity across documents.
class byte_stack {
 public:
  const char* data() const noexcept { return bytes_.get(); }
  std::size_t size() const noexcept { return size_; }
  void append(const char* p, std::size_t n) {
    if (cap_ - size_ < n) grow(n);
    copy_bytes(bytes_.get() + size_, p, n);  // names: no call into memcpy
    size_ += n;
  }
  void truncate(std::size_t n) noexcept { size_ = n; }

 private:
  [[gnu::noinline]] void grow(std::size_t n) {
    std::size_t cap = std::max<std::size_t>({cap_ * 2, size_ + n, 256});
    std::unique_ptr<char[]> bigger(new char[cap]);
    if (size_ != 0) std::memcpy(bigger.get(), bytes_.get(), size_);
    bytes_ = std::move(bigger);
    cap_ = cap;
  }
  std::unique_ptr<char[]> bytes_;
  std::size_t size_ = 0, cap_ = 0;
};

inline constexpr std::uint32_t builtin_xml_uri = 0xFFFFFFFFu;  // uri_off marker: the xml namespace

}  // namespace lather::xml::detail
